//! Denkmeter's web application: a JSON API and a WebSocket per game over the object-safe game
//! layer, storage in SQLite or PostgreSQL, and the browser interface in `web/`. Generic over
//! every ruleset: a new game appears here without new server code. The API is described in
//! `docs/api.md`.

pub mod http;
pub mod live;
pub mod store;
pub mod view;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;

pub use live::Games;
pub use store::{Store, StoreError};

/// The server's shared state.
#[derive(Clone, Debug)]
pub struct AppState {
    pub games: Arc<Games>,
}

impl AppState {
    /// Opens the database at `url` (applying migrations) and starts with no game in memory.
    pub async fn open(url: &str) -> Result<AppState, StoreError> {
        let store = Store::open(url).await?;
        Ok(AppState {
            games: Games::new(store),
        })
    }
}

/// The whole application: API, WebSocket and interface.
pub fn app(state: AppState) -> Router {
    http::router(state)
}

/// The default database: a SQLite file in the working directory, created on first start.
pub const DEFAULT_DATABASE: &str = "sqlite://denkmeter.db?mode=rwc";

/// Serves on `addr` until `shutdown` completes.
pub async fn serve(
    addr: SocketAddr,
    database: &str,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let state = AppState::open(database).await?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| ServeError::Bind(addr, e))?;
    let local = listener
        .local_addr()
        .map_err(|e| ServeError::Bind(addr, e))?;
    println!("Denkmeter serves on http://{local}");
    axum::serve(listener, app(state))
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(ServeError::Serve)
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot listen on {0}: {1}")]
    Bind(SocketAddr, std::io::Error),
    #[error("server: {0}")]
    Serve(std::io::Error),
}
