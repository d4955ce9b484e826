//! `GET /api/rulesets`, `GET /api/rulesets/{name}`.

use axum::extract::{Path, State};
use axum::Json;

use super::error::ApiError;
use crate::round::json::{BoardJson, RulesetDetail, RulesetSummary};
use crate::AppState;

pub async fn list(State(state): State<AppState>) -> Json<Vec<RulesetSummary>> {
    Json(
        state
            .registry
            .rulesets()
            .iter()
            .map(|g| RulesetSummary::of(g.as_ref()))
            .collect(),
    )
}

pub async fn detail(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<RulesetDetail>, ApiError> {
    let game = state
        .registry
        .find(&name)
        .ok_or_else(|| ApiError::NotFound(format!("unknown ruleset {name:?}")))?;
    let rules = game.facts().rules;
    Ok(Json(RulesetDetail {
        summary: RulesetSummary::of(game.as_ref()),
        rules,
        rules_html: crate::markdown::to_html(rules),
        board: BoardJson::of(game.board()),
        start_position: game.start_position(),
        board_file: game.board_file().map(|(_, text)| text.to_string()),
    }))
}
