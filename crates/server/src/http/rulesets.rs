//! `GET /api/rulesets`, `GET /api/rulesets/{name}`.

use axum::extract::Path;
use axum::Json;

use super::error::ApiError;
use crate::round::json::{BoardJson, RulesetDetail, RulesetSummary};

pub async fn list() -> Json<Vec<RulesetSummary>> {
    Json(
        denkmeter_games::registry::rulesets()
            .iter()
            .map(|g| RulesetSummary::of(g.as_ref()))
            .collect(),
    )
}

pub async fn detail(Path(name): Path<String>) -> Result<Json<RulesetDetail>, ApiError> {
    let game = denkmeter_games::registry::find(&name)
        .ok_or_else(|| ApiError::NotFound(format!("unknown ruleset {name:?}")))?;
    let rules = denkmeter_games::registry::rules_page(game.family()).unwrap_or("");
    Ok(Json(RulesetDetail {
        summary: RulesetSummary::of(game.as_ref()),
        rules,
        rules_html: crate::markdown::to_html(rules),
        board: BoardJson::of(game.board()),
        start_position: game.start_position(),
    }))
}
