//! The browser interface, built into the binary: nothing is fetched from the network and nothing
//! is read from disk. Every file under `web/` is embedded by `build.rs`, so a new module there
//! needs no edit here.

use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

/// Every file under `web/`: (path below `web/` with `/` separators, contents), sorted by path.
static FILES: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// The embedded file at a request path (`/` and `/index.html` are the page itself).
fn file(path: &str) -> Option<&'static [u8]> {
    let name = match path {
        "/" => "index.html",
        p => p.strip_prefix('/')?,
    };
    FILES
        .binary_search_by(|(p, _)| (*p).cmp(name))
        .ok()
        .map(|i| FILES[i].1)
}

/// The type a file is served as, by its extension.
fn mime(path: &str) -> &'static str {
    let extension = path.rsplit_once('.').map_or("", |(_, e)| e);
    match extension.to_ascii_lowercase().as_str() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "webp" => "image/webp",
        "woff2" => "font/woff2",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

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
        "/" => "/index.html",
        p => p,
    };
    match file(path) {
        Some(body) => (
            [
                (header::CONTENT_TYPE, mime(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

fn path_is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_under_web_is_embedded_with_its_type() {
        assert!(FILES.windows(2).all(|w| w[0].0 < w[1].0), "sorted");
        let on_disk = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/index.html"))
            .expect("web/index.html");
        assert_eq!(file("/"), Some(on_disk.as_slice()));
        assert_eq!(file("/index.html"), Some(on_disk.as_slice()));
        assert!(file("/style.css").is_some());
        assert!(
            file("/nope.js").is_none() && file("").is_none() && file("/web/index.html").is_none()
        );
        assert!(FILES
            .iter()
            .all(|(p, _)| !p.starts_with('.') && !p.contains("/.")));
        assert_eq!(mime("/index.html"), "text/html; charset=utf-8");
        assert_eq!(mime("/board/board.js"), "text/javascript; charset=utf-8");
        assert_eq!(mime("/style.css"), "text/css; charset=utf-8");
        assert_eq!(mime("/picture.SVG"), "image/svg+xml");
        assert_eq!(mime("/README"), "application/octet-stream");
    }
}
