//! Routes: one module per resource, per-client rate limits on the writes, security headers on
//! every answer.

mod accounts;
mod analyses;
mod challenges;
mod engine_socket;
pub mod error;
mod games;
mod lab;
mod limits;
mod players;
mod positions;
mod puzzles;
mod rulesets;
mod web;
pub mod ws;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue};
use axum::middleware;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;
use tower_http::set_header::SetResponseHeaderLayer;

pub use limits::RateLimits;

use crate::AppState;

/// What the pages need to know of the server: the address invite links start with, if one
/// was given (`--public-url`).
async fn server(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> Json<serde_json::Value> {
    Json(json!({ "public_url": state.config.public_url }))
}

/// The largest request body accepted.
pub const BODY_LIMIT: usize = 32 * 1024;

/// What pages may load and connect to: this server only; no framing by other sites.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
     style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; \
     base-uri 'none'; form-action 'self'; object-src 'none'";

pub fn router(state: AppState) -> Router {
    let limits = state.limits.clone();
    let moves = Router::new()
        .route("/api/games/{id}/moves", post(games::play))
        .route("/api/games/{id}/resign", post(games::resign))
        .route("/api/games/{id}/claim", post(games::claim))
        .route("/api/games/{id}/draw", post(games::draw))
        .route("/api/games/{id}/takeback", post(games::takeback))
        .route("/api/games/{id}/hint", post(games::hint))
        .route("/api/games/{id}/analysis", get(games::analysis))
        .route("/api/analysis", post(games::analyse_position))
        .route("/api/positions", post(positions::show))
        .route("/api/puzzles/{id}/attempt", post(puzzles::attempt))
        .route("/api/puzzles/{id}/solution", post(puzzles::solution))
        .route_layer(middleware::from_fn_with_state(
            (limits.clone(), limits::Counted::Moves),
            limits::limit,
        ));
    // Every route that checks a password counts against the sign-in limit: each costs an
    // Argon2id hash, and each is a guess.
    let sign_ins = Router::new()
        .route("/api/account/signup", post(accounts::sign_up))
        .route("/api/account/signin", post(accounts::sign_in))
        .route("/api/account/password", post(accounts::change_password))
        .route_layer(middleware::from_fn_with_state(
            (limits.clone(), limits::Counted::SignIns),
            limits::limit,
        ));
    let sign_in_limit =
        middleware::from_fn_with_state((limits.clone(), limits::Counted::SignIns), limits::limit);
    // Challenges offered and cancelled count as new games: each changes every lobby.
    let games_limit =
        middleware::from_fn_with_state((limits.clone(), limits::Counted::Games), limits::limit);
    let create = Router::new()
        .route("/api/games", post(games::create))
        .route("/api/challenges/{id}/accept", post(challenges::accept))
        .route_layer(middleware::from_fn_with_state(
            (limits, limits::Counted::Games),
            limits::limit,
        ));
    Router::new()
        .route(
            "/api/health",
            get(|| async { Json(json!({ "status": "ok" })) }),
        )
        .route("/api/server", get(server))
        .route("/api/rulesets", get(rulesets::list))
        .route("/api/rulesets/{name}", get(rulesets::detail))
        .route("/api/games", get(games::list))
        .route("/api/games/{id}", get(games::view))
        .route("/api/games/{id}/record.pgn", get(games::record))
        .route("/api/games/{id}/record.pdn", get(games::record_pdn))
        .route("/api/games/{id}/diagram.svg", get(games::diagram))
        .route("/api/games/{id}/board.txt", get(games::board_file))
        .route("/api/games/{id}/ws", get(ws::connect))
        .route(
            "/api/account",
            get(accounts::who)
                .merge(axum::routing::delete(accounts::delete_account).layer(sign_in_limit)),
        )
        .route("/api/account/signout", post(accounts::sign_out))
        .route("/api/players/{name}", get(players::player))
        .route(
            "/api/challenges",
            get(challenges::list).merge(post(challenges::create).layer(games_limit.clone())),
        )
        .route(
            "/api/challenges/{id}",
            get(challenges::one)
                .merge(axum::routing::delete(challenges::cancel).layer(games_limit.clone())),
        )
        .route("/api/lobby/ws", get(challenges::socket))
        .route("/api/analysis/ws", get(engine_socket::connect))
        .route("/api/leaderboard", get(players::leaderboard))
        .route("/api/puzzles", get(puzzles::list))
        .route("/api/puzzles/next", get(puzzles::next))
        .route("/api/puzzles/{id}", get(puzzles::show))
        .route("/api/problems/{family}", get(puzzles::problems))
        .route(
            "/api/lab/studies",
            get(lab::list).merge(post(lab::start).layer(games_limit.clone())),
        )
        .route("/api/lab/studies/{id}", get(lab::view))
        .route(
            "/api/games/{id}/analyses",
            get(analyses::of_game).merge(post(analyses::request_game).layer(games_limit.clone())),
        )
        .route(
            "/api/analyses",
            post(analyses::request_moves).layer(games_limit),
        )
        .route("/api/analyses/{id}", get(analyses::view))
        .route(
            "/api/analyses/{id}/positions/{ply}",
            get(analyses::position),
        )
        .route("/api/analyses/{id}/events", get(analyses::events))
        .route("/api/lab/studies/{id}/charts/{file}", get(lab::chart))
        .route("/api/lab/studies/{id}/table.csv", get(lab::table))
        .merge(sign_ins)
        .merge(moves)
        .merge(create)
        .fallback(web::asset)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(
            state.config.body_timeout,
            limits::read_body_in_time,
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ))
        .with_state(state)
}
