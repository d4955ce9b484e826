//! Whole-game analyses: `POST /api/games/{id}/analyses` asks for a finished game's (and `GET`
//! finds it), `POST /api/analyses` for a game pasted in (PDN, or a ruleset and moves),
//! `GET /api/analyses/{id}` shows one, `GET /api/analyses/{id}/positions/{ply}` draws its
//! positions, and `GET /api/analyses/{id}/events` streams its progress.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::Json;
use futures_util::stream::{self, Stream};
use serde::Deserialize;

use super::error::{ApiError, Body};
use super::limits::ClientAddress;
use crate::reviews::{AnalysisJson, Progress, ReviewError};
use crate::round::json::PositionJson;
use crate::round::RoundError;
use crate::AppState;

/// How long one event stream lasts at most; the page opens another if it still waits.
const STREAM_FOR: Duration = Duration::from_secs(600);
/// How often a stream looks at an analysis another server runs.
const STREAM_LOOK: Duration = Duration::from_secs(1);

impl From<ReviewError> for ApiError {
    fn from(error: ReviewError) -> ApiError {
        match error {
            ReviewError::Round(e) => e.into(),
            ReviewError::NotFound(_) => ApiError::NotFound(error.to_string()),
            ReviewError::Refused(text) => ApiError::BadRequest(text),
            ReviewError::Busy(text) => ApiError::TooManyRequests(text),
            ReviewError::Store(e) => ApiError::Internal(e.to_string()),
        }
    }
}

/// Asks for the analysis of a finished game.
pub async fn request_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ClientAddress(address): ClientAddress,
) -> Result<Json<AnalysisJson>, ApiError> {
    Ok(Json(
        state
            .reviews
            .request_game(&id, &address.to_string())
            .await?,
    ))
}

/// The analysis of a finished game, or `null` if none was asked for.
pub async fn of_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Option<AnalysisJson>>, ApiError> {
    Ok(Json(state.reviews.of_game(&id).await?))
}

/// A game to analyse: a draughts game as PDN, or a ruleset, a start position (absent: the
/// ruleset's) and moves.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    #[serde(default)]
    ruleset: Option<String>,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    moves: Option<Vec<String>>,
    #[serde(default)]
    pdn: Option<String>,
}

/// Asks for the analysis of a game pasted in.
pub async fn request_moves(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    Body(request): Body<GameRequest>,
) -> Result<Json<AnalysisJson>, ApiError> {
    let address = address.to_string();
    let pdn = request.pdn.as_deref().filter(|p| !p.trim().is_empty());
    if pdn.is_some() && (request.moves.is_some() || request.position.is_some()) {
        return Err(ApiError::BadRequest(
            "give a PDN game, or a ruleset with a position and moves, not both".to_string(),
        ));
    }
    let analysis = match (pdn, &request.moves) {
        (Some(pdn), _) => {
            let default = request.ruleset.as_deref().unwrap_or("");
            let imported = super::games::import_pdn(&state, pdn, default)?;
            let start = imported.session.start_position();
            let moves = imported.session.moves().to_vec();
            let start = (imported.game.new_game(None).map(|s| s.position()).ok()
                != Some(start.clone()))
            .then_some(start);
            state
                .reviews
                .request_moves(imported.game, start, moves, &address)
                .await?
        }
        (None, moves) => {
            let name = request.ruleset.as_deref().ok_or_else(|| {
                ApiError::BadRequest("give a ruleset and its moves, or a PDN game".to_string())
            })?;
            let ruleset = state
                .registry
                .find(name)
                .ok_or_else(|| RoundError::UnknownRuleset(name.to_string()))?;
            let position = request.position.clone().filter(|p| !p.trim().is_empty());
            state
                .reviews
                .request_moves(
                    ruleset,
                    position,
                    moves.clone().unwrap_or_default(),
                    &address,
                )
                .await?
        }
    };
    Ok(Json(analysis))
}

pub async fn view(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<AnalysisJson>, ApiError> {
    Ok(Json(state.reviews.view(&id).await?))
}

pub async fn position(
    State(state): State<AppState>,
    Path((id, ply)): Path<(String, usize)>,
) -> Result<Json<PositionJson>, ApiError> {
    Ok(Json(state.reviews.position(&id, ply).await?))
}

/// The analysis's progress as server-sent events: a `progress` event `{status, done, total}`
/// at once and whenever it changes, until it is `done` or `failed` (or after
/// [`STREAM_FOR`]).
pub async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    // An unknown analysis is refused before the stream starts.
    let first = state.reviews.progress(&id).await?;
    let changes = state.reviews.subscribe();
    let until = tokio::time::Instant::now() + STREAM_FOR;
    let start: (Option<Progress>, Option<Progress>, bool) = (None, Some(first), false);
    let events = stream::unfold(
        (state, id, changes, start),
        move |(state, id, mut changes, (last, next, ended))| async move {
            if ended {
                return None;
            }
            let mut next = next;
            loop {
                if let Some(progress) = next.take() {
                    if last.as_ref() != Some(&progress) {
                        let finished = matches!(progress.status, "done" | "failed");
                        let event = Event::default()
                            .event("progress")
                            .json_data(&progress)
                            .unwrap_or_else(|_| Event::default().event("progress"));
                        return Some((
                            Ok(event),
                            (state, id, changes, (Some(progress), None, finished)),
                        ));
                    }
                }
                if tokio::time::Instant::now() >= until {
                    return None;
                }
                let _ = tokio::time::timeout(STREAM_LOOK, changes.changed()).await;
                match state.reviews.progress(&id).await {
                    Ok(progress) => next = Some(progress),
                    Err(_) => return None,
                }
            }
        },
    );
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}
