//! The browser interface, built into the binary: nothing is fetched from the network.

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

const ASSETS: [(&str, &str, &str); 4] = [
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../../../../web/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/app.js"),
    ),
    (
        "/board.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/board.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../../../../web/style.css"),
    ),
];

pub async fn asset(uri: Uri) -> Response {
    let path = match uri.path() {
        "/index.html" => "/",
        p => p,
    };
    match ASSETS.iter().find(|(p, _, _)| *p == path) {
        Some((_, mime, body)) => (
            [
                (header::CONTENT_TYPE, *mime),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *body,
        )
            .into_response(),
        None if path.starts_with("/api/") => (
            StatusCode::NOT_FOUND,
            axum::Json(serde_json::json!({ "error": format!("no such endpoint {path}") })),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
