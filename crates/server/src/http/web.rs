//! The browser interface, built into the binary: nothing is fetched from the network.

use axum::http::{header, Method, StatusCode, Uri};
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

/// Answers what no route answers: the interface's files (GET and HEAD only), else 404 (JSON
/// under `/api/`).
pub async fn asset(method: Method, uri: Uri) -> Response {
    if path_is_api(uri.path()) {
        return (
            StatusCode::NOT_FOUND,
            axum::Json(serde_json::json!({ "error": format!("no such endpoint {} {}", method, uri.path()) })),
        )
            .into_response();
    }
    if method != Method::GET && method != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
            "only GET and HEAD here",
        )
            .into_response();
    }
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
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

fn path_is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}
