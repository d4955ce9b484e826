//! `GET /api/lab/studies`, `POST /api/lab/studies`, `GET /api/lab/studies/{id}` and
//! `GET /api/lab/studies/{id}/charts/{file}`: the lab's studies, their reports and charts, and
//! small studies started in the browser.

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use denkmeter_lab::{StoredStudy, StudyOpenings};
use serde::{Deserialize, Serialize};

use super::error::{ApiError, Body};
use crate::lab::{LabError, NewStudy};
use crate::AppState;

impl From<LabError> for ApiError {
    fn from(error: LabError) -> ApiError {
        match error {
            LabError::Refused(text) => ApiError::BadRequest(text),
            LabError::NotFound(_) => ApiError::NotFound(error.to_string()),
            LabError::Busy(_) => ApiError::TooManyRequests(error.to_string()),
            LabError::Store(e) => ApiError::Internal(e.to_string()),
            LabError::Internal(e) => ApiError::Internal(e),
        }
    }
}

/// A ruleset of a study, with the game it belongs to.
#[derive(Debug, Serialize)]
pub struct StudyRulesetJson {
    /// `schada`, or `schada@board` on a board file.
    pub label: String,
    pub ruleset: String,
    /// The game's family (`scandinavian`), for the game's Lab page; `None` for a ruleset this
    /// server does not have.
    pub family: Option<&'static str>,
    pub display_name: Option<String>,
}

/// A study as listed.
#[derive(Debug, Serialize)]
pub struct StudySummary {
    pub id: String,
    pub rulesets: Vec<StudyRulesetJson>,
    pub players: Vec<String>,
    /// Games for each ruleset and player.
    pub games_each: u32,
    pub played: u64,
    pub total: u64,
    /// `web` for a study started in the browser, `cli` for `denkmeter lab`.
    pub origin: String,
    /// Milliseconds since 1970.
    pub created_at: i64,
    /// Where the games start, in words.
    pub openings: String,
    pub seed: u64,
}

fn summary(state: &AppState, study: &StoredStudy) -> StudySummary {
    let openings = match study.spec.openings {
        StudyOpenings::Start => "the start position".to_string(),
        StudyOpenings::RandomPlies { plies } => format!("{plies} random plies"),
        StudyOpenings::Balanced { plies, margin } => {
            format!("{plies} random plies scored within {margin} of even")
        }
    };
    StudySummary {
        id: study.id.clone(),
        rulesets: study
            .spec
            .rulesets
            .iter()
            .map(|r| {
                let game = state.registry.find(&r.ruleset);
                StudyRulesetJson {
                    label: r.label(),
                    ruleset: r.ruleset.clone(),
                    family: game.as_ref().map(|g| g.facts().family),
                    display_name: game
                        .as_ref()
                        .map(|g| crate::round::json::RulesetSummary::of(g.as_ref()).display_name),
                }
            })
            .collect(),
        players: study.spec.players.clone(),
        games_each: study.spec.games,
        played: study.played,
        total: study.total,
        origin: study.origin.clone(),
        created_at: study.created_at,
        openings,
        seed: study.spec.seed,
    }
}

#[derive(Debug, Deserialize)]
pub struct ListQuery {
    /// Only the studies of this game's rulesets (a family such as `scandinavian`).
    family: Option<String>,
}

pub async fn list(
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let studies = state.lab.studies().await.map_err(LabError::from)?;
    let studies: Vec<StudySummary> = studies
        .iter()
        .map(|s| summary(&state, s))
        .filter(|s| match &query.family {
            Some(family) => s.rulesets.iter().any(|r| r.family == Some(family.as_str())),
            None => true,
        })
        .collect();
    Ok(Json(serde_json::json!({ "studies": studies })))
}

pub async fn start(
    State(state): State<AppState>,
    Body(request): Body<NewStudy>,
) -> Result<Response, ApiError> {
    let study = state.lab.start(request).await?;
    Ok((StatusCode::CREATED, Json(summary(&state, &study))).into_response())
}

/// A chart as listed with a study's report.
#[derive(Debug, Serialize)]
struct ChartLink {
    file: String,
    title: String,
    /// Where the SVG document is.
    href: String,
}

pub async fn view(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let view = state.lab.view(&id).await?;
    let charts: Vec<ChartLink> = view
        .figures
        .iter()
        .map(|f| ChartLink {
            file: f.file.clone(),
            title: f.title.clone(),
            href: format!("/api/lab/studies/{}/charts/{}", view.study.id, f.file),
        })
        .collect();
    Ok(Json(serde_json::json!({
        "study": summary(&state, &view.study),
        "report": view.report,
        "charts": charts,
    })))
}

pub async fn chart(
    State(state): State<AppState>,
    Path((id, file)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let view = state.lab.view(&id).await?;
    let figure = view
        .figures
        .iter()
        .find(|f| f.file == file)
        .ok_or_else(|| ApiError::NotFound(format!("study {id} has no chart {file:?}")))?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        figure.svg.clone(),
    )
        .into_response())
}

pub async fn table(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let view = state.lab.view(&id).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        view.report.to_csv(),
    )
        .into_response())
}
