//! Denkmeter's web application: a JSON API and a WebSocket per game over the object-safe game
//! layer, storage in SQLite or PostgreSQL, and the browser interface in `web/`. Generic over
//! every ruleset: a new game appears here without new server code. The API is described in
//! `docs/api.md`, running it for many players in `docs/operations.md`.

pub mod http;
pub mod listener;
pub mod markdown;
pub mod round;
pub mod search;
pub mod seat;
pub mod store;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use denkmeter_engine::Registry;

pub use round::{RoundConfig, Rounds};
pub use store::{Store, StoreError};

/// Every limit of the server, in one place.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    pub rounds: RoundConfig,
    /// New games per minute per client address (0: no limit).
    pub games_per_minute: u32,
    /// Moves, resignations and draw actions per second per client address (0: no limit).
    pub moves_per_second: u32,
    /// Connections open at once; more are closed at once. Lowered to fit the process's
    /// file-descriptor limit.
    pub max_connections: usize,
    /// Time a client has to send a request's headers, and the most a kept-alive connection
    /// may sit idle between requests.
    pub header_timeout: Duration,
    /// The largest WebSocket message (and frame) a client may send.
    pub ws_message_limit: usize,
    /// Origins, besides the server's own, whose pages may open WebSockets (`*`: any).
    pub allowed_origins: Vec<String>,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            rounds: RoundConfig::default(),
            games_per_minute: 30,
            moves_per_second: 10,
            max_connections: 10_000,
            header_timeout: Duration::from_secs(10),
            ws_message_limit: 4 * 1024,
            allowed_origins: Vec::new(),
        }
    }
}

/// The server's shared state.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The rulesets the server offers, by name.
    pub registry: Arc<Registry>,
    pub rounds: Arc<Rounds>,
    pub limits: http::RateLimits,
    pub config: Arc<ServerConfig>,
}

impl AppState {
    /// Opens the database at `url` (applying migrations) with the default limits.
    pub async fn open(url: &str, registry: Arc<Registry>) -> Result<AppState, StoreError> {
        AppState::open_with(url, ServerConfig::default(), registry).await
    }

    /// Opens the database at `url` (applying migrations), follows other servers' changes and
    /// resumes the computer games of the rulesets in `registry`.
    pub async fn open_with(
        url: &str,
        config: ServerConfig,
        registry: Arc<Registry>,
    ) -> Result<AppState, StoreError> {
        let store = Store::open(url).await?;
        let rounds = Rounds::new(store, config.rounds.clone(), registry.clone());
        rounds.start().await?;
        let limits = http::RateLimits::new(config.games_per_minute, config.moves_per_second);
        let forget = limits.clone();
        let weak = Arc::downgrade(&rounds);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(60));
            loop {
                every.tick().await;
                if weak.strong_count() == 0 {
                    return;
                }
                forget.forget_idle_clients();
            }
        });
        Ok(AppState {
            registry,
            rounds,
            limits,
            config: Arc::new(config),
        })
    }
}

/// The whole application: API, WebSocket and interface.
pub fn app(state: AppState) -> Router {
    http::router(state)
}

/// The default database: a SQLite file in the working directory, created on first start.
pub const DEFAULT_DATABASE: &str = "denkmeter.db";

/// Serves the rulesets of `registry` on `addr` until `shutdown` completes.
pub async fn serve(
    addr: SocketAddr,
    database: &str,
    config: ServerConfig,
    registry: Arc<Registry>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let state = AppState::open_with(database, config, registry).await?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| ServeError::Bind(addr, e))?;
    let local = listener
        .local_addr()
        .map_err(|e| ServeError::Bind(addr, e))?;
    println!("Denkmeter serves on http://{local}");
    listener::serve(listener, state, shutdown).await;
    Ok(())
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot listen on {0}: {1}")]
    Bind(SocketAddr, std::io::Error),
}
