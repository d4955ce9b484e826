//! The game resource: create, list, view, play, resign, draw, record, diagram.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use denkmeter_core::{ByPlayer, Player, Side};
use denkmeter_engine::dynamic::AnyGame;
use denkmeter_engine::MAX_LEVEL;
use serde::{Deserialize, Serialize};

use super::accounts::{credential, MaybeSignedIn, Session};
use super::error::{ApiError, Body, Params};
use crate::clock::TimeControl;
use crate::ladder::TimeClass;
use crate::round::json::{position_after, viewer_of, GameListItem, GameView};
use crate::round::{OfferAction, RoundError, Setup};
use crate::seat::Seat;
use crate::store::{OfferKind, SeatAccount};
use crate::AppState;

#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum SeatRequest {
    Human,
    Computer { level: u8 },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    ruleset: String,
    white: SeatRequest,
    black: SeatRequest,
    #[serde(default)]
    position: Option<String>,
    /// A board file to play on instead of the ruleset's default (Schada).
    #[serde(default)]
    board: Option<BoardRequest>,
    /// A time control: `{main_seconds, increment_seconds}` or `{move_seconds}`.
    #[serde(default)]
    clock: Option<ClockRequest>,
    /// A draughts game as PDN, to go on from or to analyse: its start position and moves are
    /// replayed; its `GameType` (or `Ruleset`) tag, if any, names the ruleset, else `ruleset`
    /// does.
    #[serde(default)]
    pdn: Option<String>,
    /// The seat the signed-in creator takes as his account's.
    #[serde(default)]
    me: Option<String>,
    /// The game counts for ratings (against the computer, with a clock).
    #[serde(default)]
    rated: bool,
}

/// A time control as asked for; checked by `TimeControl::from_seconds`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    pub main_seconds: Option<u64>,
    pub increment_seconds: Option<u64>,
    pub move_seconds: Option<u64>,
}

/// An uploaded board file: the name records will give it and its text.
#[derive(Debug, Deserialize)]
pub struct BoardRequest {
    pub name: String,
    pub text: String,
}

/// `ruleset` on the board an uploaded board file describes, if one is given (checked: its name,
/// its size, and the board itself).
pub(super) fn on_board(
    ruleset: Arc<dyn AnyGame>,
    board: Option<&BoardRequest>,
) -> Result<Arc<dyn AnyGame>, ApiError> {
    Ok(match board {
        None => ruleset,
        Some(board) => {
            let name = board.name.trim();
            if name.is_empty() || name.chars().count() > MAX_BOARD_NAME {
                return Err(ApiError::BadRequest(format!(
                    "board.name: expected 1 to {MAX_BOARD_NAME} characters"
                )));
            }
            if name.chars().any(char::is_control) {
                return Err(ApiError::BadRequest(
                    "board.name: no control characters".to_string(),
                ));
            }
            if board.text.len() > MAX_BOARD_TEXT {
                return Err(ApiError::BadRequest(format!(
                    "board.text: {} bytes; the limit is {MAX_BOARD_TEXT}",
                    board.text.len()
                )));
            }
            let game = ruleset
                .with_board_file(name, &board.text)
                .map_err(|e| ApiError::BadRequest(e.to_string()))?;
            // The default board under another name is the default board: it keeps its name.
            let print = denkmeter_core::board_fingerprint;
            match ruleset.board_file() {
                Some((_, default)) if print(default) == print(&board.text) => ruleset,
                _ => game,
            }
        }
    })
}

/// The longest board file name and text accepted.
const MAX_BOARD_NAME: usize = 64;
const MAX_BOARD_TEXT: usize = denkmeter_core::MAX_BOARD_FILE;

#[derive(Debug, Serialize)]
pub struct Created {
    id: String,
    tokens: Tokens,
}

#[derive(Debug, Serialize)]
pub struct Tokens {
    white: Option<String>,
    black: Option<String>,
}

fn seat(request: &SeatRequest, colour: &str) -> Result<Seat, ApiError> {
    match *request {
        SeatRequest::Human => Ok(Seat::Human),
        SeatRequest::Computer { level } if (1..=MAX_LEVEL).contains(&level) => {
            Ok(Seat::Computer(level))
        }
        SeatRequest::Computer { level } => Err(ApiError::BadRequest(format!(
            "{colour}.level: expected 1 to {MAX_LEVEL}, found {level}"
        ))),
    }
}

/// The account the signed-in creator puts in a seat (`me`), checked; and whether the game is
/// rated, checked: a rated game needs the creator's account in one seat, the computer in the
/// other, a clock, and the ruleset's own start.
fn accounts_of(
    request: &CreateRequest,
    session: Option<&Session>,
    seats: ByPlayer<Seat>,
) -> Result<ByPlayer<Option<SeatAccount>>, ApiError> {
    let mut accounts = ByPlayer::new(None, None);
    let me = match request.me.as_deref() {
        None => None,
        Some(colour) => Some(
            Player::BOTH
                .into_iter()
                .find(|p| p.name() == colour)
                .ok_or_else(|| {
                    ApiError::BadRequest(format!("me: expected white or black, found {colour:?}"))
                })?,
        ),
    };
    if let Some(me) = me {
        let session = session.ok_or_else(|| {
            ApiError::Unauthorized("me: sign in to take a seat as your account".into())
        })?;
        if seats[me] != Seat::Human {
            return Err(ApiError::BadRequest(format!(
                "me: the {} seat is the computer's",
                me.name()
            )));
        }
        accounts[me] = Some(SeatAccount {
            id: session.player.id.clone(),
            name: Some(session.player.name.clone()),
        });
    }
    if request.rated {
        let Some(me) = me else {
            return Err(ApiError::BadRequest(
                "rated: a rated game needs your account in a seat: sign in and give me".into(),
            ));
        };
        let refuse = |why: &str| Err(ApiError::BadRequest(format!("rated: {why}")));
        if !seats[!me].is_computer() {
            return refuse(
                "a rated game between people starts from a challenge; rated games created                  here are against the computer",
            );
        }
        if request.clock.is_none() {
            return refuse("a rated game needs a clock");
        }
        if request
            .position
            .as_deref()
            .is_some_and(|p| !p.trim().is_empty())
            || request.pdn.as_deref().is_some_and(|p| !p.trim().is_empty())
            || request.board.is_some()
        {
            return refuse("a rated game starts from the ruleset's own start, on its own board");
        }
    }
    Ok(accounts)
}

pub async fn create(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Body(request): Body<CreateRequest>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let ruleset = state
        .registry
        .find(&request.ruleset)
        .ok_or_else(|| RoundError::UnknownRuleset(request.ruleset.clone()))?;
    let ruleset = on_board(ruleset, request.board.as_ref())?;
    let seats = ByPlayer::new(
        seat(&request.white, "white")?,
        seat(&request.black, "black")?,
    );
    let accounts = accounts_of(&request, session.as_ref(), seats)?;
    let rated = request.rated;
    let mut position = request.position.filter(|p| !p.trim().is_empty());
    let mut setup = Setup::default();
    let mut ruleset = ruleset;
    if let Some(pdn) = request.pdn.as_deref().filter(|p| !p.trim().is_empty()) {
        if position.is_some() || request.board.is_some() {
            return Err(ApiError::BadRequest(
                "a PDN game brings its own start and board: give no position or board with it"
                    .to_string(),
            ));
        }
        let imported = import_pdn(&state, pdn, &request.ruleset)?;
        ruleset = imported.game;
        position = imported.record.tag("Position").map(str::to_string);
        setup = Setup {
            moves: imported.record.moves.clone(),
            ending: match imported.session.status() {
                denkmeter_core::Status::Over(outcome) => Some(outcome),
                denkmeter_core::Status::Ongoing => None,
            },
            ..Setup::default()
        };
    }
    setup.accounts = accounts;
    setup.rated = rated;
    let clock = match &request.clock {
        None => None,
        Some(c) => Some(
            TimeControl::from_seconds(c.main_seconds, c.increment_seconds, c.move_seconds)
                .map_err(ApiError::BadRequest)?,
        ),
    };
    // The computer's fixed ratings were measured at its levels' own limits, seconds a move; at
    // a bullet clock it thinks a fraction of that, and its rating would be a gift.
    if rated && clock.is_some_and(|c| crate::ladder::TimeClass::of(c) == TimeClass::Bullet) {
        return Err(ApiError::BadRequest(
            "rated: a rated game against the computer needs at least blitz: a main time plus \
             40 increments of 3 minutes or more"
                .into(),
        ));
    }
    let (id, tokens) = state
        .rounds
        .create(ruleset, seats, position, setup, clock)
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(Created {
            id,
            tokens: Tokens {
                white: tokens.white,
                black: tokens.black,
            },
        }),
    ))
}

#[derive(Debug, Deserialize)]
pub struct ListQuery {
    limit: Option<i64>,
}

pub async fn list(
    State(state): State<AppState>,
    Params(query): Params<ListQuery>,
) -> Result<Json<Vec<GameListItem>>, ApiError> {
    let limit = query.limit.unwrap_or(50).clamp(1, 500);
    let games = state
        .rounds
        .store
        .list_games(limit)
        .await
        .map_err(RoundError::from)?;
    let registry = &state.registry;
    Ok(Json(
        games
            .iter()
            .map(|game| GameListItem::of(game, registry))
            .collect(),
    ))
}

#[derive(Debug, Deserialize)]
pub struct ViewQuery {
    token: Option<String>,
    ply: Option<usize>,
    /// `back`: the diagram shows the back of a transparent board, mirrored.
    side: Option<String>,
}

pub async fn view(
    State(state): State<AppState>,
    Path(id): Path<String>,
    MaybeSignedIn(session): MaybeSignedIn,
    Params(query): Params<ViewQuery>,
) -> Result<Json<GameView>, ApiError> {
    let who = credential(query.token.clone(), session);
    Ok(Json(state.rounds.view(&id, &who, query.ply).await?))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    #[serde(default)]
    token: Option<String>,
    #[serde(rename = "move")]
    text: String,
}

pub async fn play(
    State(state): State<AppState>,
    Path(id): Path<String>,
    MaybeSignedIn(session): MaybeSignedIn,
    Body(request): Body<MoveRequest>,
) -> Result<Json<GameView>, ApiError> {
    let who = credential(request.token, session);
    Ok(Json(state.rounds.play(&id, &who, &request.text).await?))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    #[serde(default)]
    token: Option<String>,
}

/// A claim of an invite: the invite's token.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    token: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisQuery {
    ply: Option<usize>,
}

pub async fn analysis(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Params(query): Params<AnalysisQuery>,
) -> Result<Json<crate::round::Analysis>, ApiError> {
    Ok(Json(state.rounds.analysis(&id, query.ply).await?))
}

/// A position to analyse: a ruleset and a position string (empty or absent: the start), or a
/// draughts game as PDN, whose last position is analysed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    ruleset: String,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    pdn: Option<String>,
}

/// The engine's evaluation and best line for any position of any ruleset.
pub async fn analyse_position(
    State(state): State<AppState>,
    Body(request): Body<PositionRequest>,
) -> Result<Json<crate::round::Analysis>, ApiError> {
    let ruleset = state
        .registry
        .find(&request.ruleset)
        .ok_or_else(|| RoundError::UnknownRuleset(request.ruleset.clone()))?;
    let position = request.position.as_deref().filter(|p| !p.trim().is_empty());
    if let Some(pdn) = request.pdn.as_deref().filter(|p| !p.trim().is_empty()) {
        if position.is_some() {
            return Err(ApiError::BadRequest(
                "give a position or a PDN game, not both".to_string(),
            ));
        }
        let imported = import_pdn(&state, pdn, &request.ruleset)?;
        let last = imported.session.position();
        return Ok(Json(
            state
                .rounds
                .analyse_position(imported.game.as_ref(), Some(&last))
                .await?,
        ));
    }
    Ok(Json(
        state
            .rounds
            .analyse_position(ruleset.as_ref(), position)
            .await?,
    ))
}

pub async fn hint(
    State(state): State<AppState>,
    Path(id): Path<String>,
    MaybeSignedIn(session): MaybeSignedIn,
    Body(request): Body<TokenRequest>,
) -> Result<Json<crate::round::Hint>, ApiError> {
    let who = credential(request.token, session);
    Ok(Json(state.rounds.hint(&id, &who).await?))
}

/// Takes the seat of an invite link for a token of the claimant's own; the link is used up.
/// A signed-in claimant's account takes the seat too.
pub async fn claim(
    State(state): State<AppState>,
    Path(id): Path<String>,
    MaybeSignedIn(session): MaybeSignedIn,
    Body(request): Body<ClaimRequest>,
) -> Result<Json<crate::round::Claimed>, ApiError> {
    let account = session.map(|s| SeatAccount {
        id: s.player.id,
        name: Some(s.player.name),
    });
    Ok(Json(
        state.rounds.claim(&id, &request.token, account).await?,
    ))
}

pub async fn resign(
    State(state): State<AppState>,
    Path(id): Path<String>,
    MaybeSignedIn(session): MaybeSignedIn,
    Body(request): Body<TokenRequest>,
) -> Result<Json<GameView>, ApiError> {
    let who = credential(request.token, session);
    Ok(Json(state.rounds.resign(&id, &who).await?))
}

/// An offer, or an answer to one, about a draw or a takeback.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfferRequest {
    #[serde(default)]
    token: Option<String>,
    action: String,
}

/// Offers, accepts or declines a draw: `{token, action: offer|accept|decline}`.
pub async fn draw(
    State(state): State<AppState>,
    Path(id): Path<String>,
    MaybeSignedIn(session): MaybeSignedIn,
    Body(request): Body<OfferRequest>,
) -> Result<Json<GameView>, ApiError> {
    offer(&state, &id, request, session, OfferKind::Draw).await
}

/// Asks to take back the seat's last move (granted at once against the computer), or accepts
/// or declines the other person's request: `{token, action: offer|accept|decline}`.
pub async fn takeback(
    State(state): State<AppState>,
    Path(id): Path<String>,
    MaybeSignedIn(session): MaybeSignedIn,
    Body(request): Body<OfferRequest>,
) -> Result<Json<GameView>, ApiError> {
    offer(&state, &id, request, session, OfferKind::Takeback).await
}

async fn offer(
    state: &AppState,
    id: &str,
    request: OfferRequest,
    session: Option<Session>,
    kind: OfferKind,
) -> Result<Json<GameView>, ApiError> {
    let action: OfferAction = request.action.parse()?;
    let who = credential(request.token, session);
    let view = state.rounds.offer(id, &who, kind, action).await?;
    Ok(Json(view))
}

pub async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
    MaybeSignedIn(session): MaybeSignedIn,
    Params(query): Params<ViewQuery>,
) -> Result<Response, ApiError> {
    let (game, seat) = seen(&state, &id, &query, session).await?;
    let mut record = record_of(&game);
    record.moves = game.session.moves_for(viewer_of(&game, seat));
    Ok(file(
        "text/plain; charset=utf-8",
        format!("attachment; filename=\"denkmeter-{}.pgn\"", game.id),
        record.to_string(),
    ))
}

/// A game's record with its seats and where it was played.
fn record_of(game: &crate::round::LiveGame) -> denkmeter_core::Record {
    let seat_name = |p: Player| match game.seats[p] {
        Seat::Human => "human".to_string(),
        Seat::Computer(level) => format!("Denkmeter level {level}"),
    };
    let (white, black) = (seat_name(Player::White), seat_name(Player::Black));
    let site = format!("Denkmeter game {}", game.id);
    game.session
        .record(&[("White", &white), ("Black", &black), ("Site", &site)])
}

/// The one game of a pasted or uploaded PDN text, replayed through the rules; `ruleset` for a
/// game whose tags do not say.
pub(super) fn import_pdn(
    state: &AppState,
    text: &str,
    ruleset: &str,
) -> Result<denkmeter_engine::pdn::Imported, ApiError> {
    let games = denkmeter_core::pdn::read_collection(text);
    let game = match games.as_slice() {
        [] => return Err(ApiError::BadRequest("pdn: no game in the text".to_string())),
        [game] => game,
        more => {
            return Err(ApiError::BadRequest(format!(
                "pdn: the text holds {} games; give one (denkmeter record import reads whole collections)",
                more.len()
            )))
        }
    };
    let game = game
        .as_ref()
        .map_err(|e| ApiError::BadRequest(format!("pdn: {e}")))?;
    denkmeter_engine::pdn::import(game, &state.registry, Some(ruleset))
        .map_err(|e| ApiError::BadRequest(format!("pdn: {e}")))
}

/// A draughts game as PDN (`GET /api/games/{id}/record.pdn`).
pub async fn record_pdn(
    State(state): State<AppState>,
    Path(id): Path<String>,
    MaybeSignedIn(session): MaybeSignedIn,
    Params(query): Params<ViewQuery>,
) -> Result<Response, ApiError> {
    let (game, _) = seen(&state, &id, &query, session).await?;
    if !game.ruleset.facts().pdn.is_draughts() {
        return Err(ApiError::NotFound(format!(
            "{} is not draughts: its games have no PDN",
            game.ruleset.name()
        )));
    }
    let text = denkmeter_engine::pdn::export(&*game.ruleset, &record_of(&game))
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(file(
        "text/plain; charset=utf-8",
        format!("attachment; filename=\"denkmeter-{}.pdn\"", game.id),
        text,
    ))
}

/// The board file a game is played on (`text/plain`), for rulesets whose board is data.
pub async fn board_file(
    State(state): State<AppState>,
    Path(id): Path<String>,
    MaybeSignedIn(session): MaybeSignedIn,
    Params(query): Params<ViewQuery>,
) -> Result<Response, ApiError> {
    let (game, _) = seen(&state, &id, &query, session).await?;
    let (name, text) = game.ruleset.board_file().ok_or_else(|| {
        ApiError::NotFound(format!(
            "{} is played on one board only; it has no board file",
            game.ruleset.name()
        ))
    })?;
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    Ok(file(
        "text/plain; charset=utf-8",
        format!("attachment; filename=\"{safe}.txt\""),
        text.to_string(),
    ))
}

pub async fn diagram(
    State(state): State<AppState>,
    Path(id): Path<String>,
    MaybeSignedIn(session): MaybeSignedIn,
    Params(query): Params<ViewQuery>,
) -> Result<Response, ApiError> {
    let (game, seat) = seen(&state, &id, &query, session).await?;
    let ply = query.ply.unwrap_or(game.session.moves().len());
    let session = position_after(&game, ply)?;
    let viewer = viewer_of(&game, seat);
    let marked: Vec<_> = session
        .last_move(viewer)
        .map(|m| m.view.from.into_iter().chain(m.view.to).collect())
        .unwrap_or_default();
    let back = match query.side.as_deref() {
        None | Some("front") => None,
        Some("back") => Some(session.back_view(viewer).ok_or_else(|| {
            ApiError::BadRequest(format!(
                "{} is played on a board with one side: it has no back",
                game.ruleset.name()
            ))
        })?),
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "side {other:?}: expected front or back"
            )))
        }
    };
    let side = if back.is_some() {
        Side::Back
    } else {
        Side::Front
    };
    let highlights: Vec<_> = session
        .highlights(viewer)
        .into_iter()
        .filter(|h| h.side == side)
        .collect();
    let extras = denkmeter_core::svg::Extras {
        marked: &marked,
        mirrored: back.is_some(),
        highlights: &highlights,
    };
    let view = back.unwrap_or_else(|| session.view(viewer));
    let svg = denkmeter_core::svg::diagram_with(game.ruleset.board(), &view, &extras);
    Ok(file(
        "image/svg+xml",
        format!("inline; filename=\"denkmeter-{}-{ply}.svg\"", game.id),
        svg,
    ))
}

/// The game as it is now and the seat of the viewer whose token the query carries (or whose
/// session's account holds a seat).
async fn seen(
    state: &AppState,
    id: &str,
    query: &ViewQuery,
    session: Option<Session>,
) -> Result<(std::sync::Arc<crate::round::LiveGame>, Option<Player>), ApiError> {
    let game = state.rounds.fresh(id).await?.snapshot();
    let seat = game.viewer_seat(&credential(query.token.clone(), session))?;
    Ok((game, seat))
}

/// A file in a response: its type, how to show it, and its text.
fn file(mime: &'static str, disposition: String, body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, mime.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response()
}
