//! Routes: one module per resource.

pub mod error;
mod games;
mod rulesets;
mod web;
mod ws;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;

use crate::AppState;

/// The largest request body accepted.
pub const BODY_LIMIT: usize = 16 * 1024;

pub fn router(state: AppState) -> Router {
    Router::new()
        .route(
            "/api/health",
            get(|| async { Json(json!({ "status": "ok" })) }),
        )
        .route("/api/rulesets", get(rulesets::list))
        .route("/api/rulesets/{name}", get(rulesets::detail))
        .route("/api/games", get(games::list).post(games::create))
        .route("/api/games/{id}", get(games::view))
        .route("/api/games/{id}/moves", post(games::play))
        .route("/api/games/{id}/resign", post(games::resign))
        .route("/api/games/{id}/draw", post(games::draw))
        .route("/api/games/{id}/record.pgn", get(games::record))
        .route("/api/games/{id}/diagram.svg", get(games::diagram))
        .route("/api/games/{id}/ws", get(ws::connect))
        .fallback(web::asset)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
}
