//! Denkmeter's web application: a JSON API and a WebSocket per game over the object-safe game
//! layer, storage in SQLite or PostgreSQL, and the browser interface in `web/`. Generic over
//! every ruleset: a new game appears here without new server code. The API is described in
//! `docs/api.md`, running it for many players in `docs/operations.md`.

pub mod accounts;
pub mod clock;
pub mod http;
pub mod lab;
pub mod ladder;
pub mod listener;
pub mod lobby;
pub mod markdown;
pub mod puzzles;
pub mod rating;
pub mod reviews;
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
    /// Sign-ups and sign-ins per minute per client address (0: no limit): each costs an
    /// Argon2id hash, and a guessing attacker is slowed to this.
    pub sign_ins_per_minute: u32,
    /// Connections open at once; more are closed at once. Lowered to fit the process's
    /// file-descriptor limit.
    pub max_connections: usize,
    /// Connections open at once from one client address (0: no limit); more are closed at
    /// once.
    pub max_connections_per_address: usize,
    /// Time a client has to send a request's headers, and the most a kept-alive connection
    /// may sit idle between requests.
    pub header_timeout: Duration,
    /// Time a client has to send a request's body once its headers are in; a body still
    /// coming after it gets 408 and the connection is closed.
    pub body_timeout: Duration,
    /// The largest WebSocket message (and frame) a client may send.
    pub ws_message_limit: usize,
    /// Origins, besides the server's own, whose pages may open WebSockets (`*`: any).
    pub allowed_origins: Vec<String>,
    /// The address other machines reach the server at (`http://192.168.1.20:8080`), from
    /// [`public_url`]: invite links start with it. `None`: the address the browser used.
    pub public_url: Option<String>,
    /// This server's name among the servers sharing a database, the same from one run to the
    /// next (see [`Store::open_as`]); `None`: a new name each run.
    pub server_id: Option<String>,
}

/// Why a `--public-url` was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error(
    "not an address to reach the server at: {0:?} (expected http:// or https://, a host and \
     perhaps a port, no path, e.g. http://192.168.1.20:8080)"
)]
pub struct PublicUrlError(pub String);

/// Checks an address other machines reach the server at: `http` or `https`, a host and
/// perhaps a port, nothing after (the pages and API live at the root); returns it as a browser
/// writes the origin of a page there (lower case, without a trailing `/` or a default port),
/// so that it starts invite links and matches the `Origin` of WebSocket requests.
pub fn public_url(text: &str) -> Result<String, PublicUrlError> {
    let refuse = || PublicUrlError(text.to_string());
    let url = url::Url::parse(text).map_err(|_| refuse())?;
    let plain = matches!(url.scheme(), "http" | "https")
        && url.host().is_some()
        && url.username().is_empty()
        && url.password().is_none()
        && url.path() == "/"
        && url.query().is_none()
        && url.fragment().is_none()
        // `Url` drops an empty query or fragment; the text must not have had one either.
        && !text.contains(['?', '#']);
    if !plain {
        return Err(refuse());
    }
    Ok(url.origin().ascii_serialization())
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            rounds: RoundConfig::default(),
            games_per_minute: 30,
            moves_per_second: 10,
            sign_ins_per_minute: 10,
            max_connections: 10_000,
            max_connections_per_address: 100,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            ws_message_limit: 4 * 1024,
            allowed_origins: Vec::new(),
            public_url: None,
            server_id: None,
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
    /// Hashes and checks players' passwords.
    pub passwords: accounts::Passwords,
    /// The lobby's challenges, for its sockets.
    pub lobby: Arc<lobby::Lobby>,
    /// The lab's studies, and the runner of those started in the browser.
    pub lab: Arc<lab::Lab>,
    /// Whole-game analyses, and their runner.
    pub reviews: Arc<reviews::Reviews>,
    /// The shipped puzzles.
    pub puzzles: Arc<puzzles::PuzzleBook>,
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
        let store = match &config.server_id {
            Some(id) => Store::open_as(url, id).await?,
            None => Store::open(url).await?,
        };
        let rounds = Rounds::new(store, config.rounds.clone(), registry.clone());
        rounds.start().await?;
        let limits = http::RateLimits::new(config.games_per_minute, config.moves_per_second)
            .with_sign_ins(config.sign_ins_per_minute);
        let lobby = lobby::Lobby::start(&rounds);
        let lab = lab::Lab::open(&rounds.store, registry.clone())
            .await
            .map_err(|e| StoreError::Open(format!("the lab's tables: {e}")))?;
        lab.spawn_runner(Arc::downgrade(&rounds));
        let puzzles = puzzles::PuzzleBook::shipped(&registry)
            .map_err(|e| StoreError::Open(format!("the shipped puzzles: {e}")))?;
        let reviews = reviews::Reviews::new(&rounds, registry.clone());
        reviews.spawn_runner();
        let passwords = accounts::Passwords::default();
        passwords.warm_up().await;
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
                let Some(rounds) = weak.upgrade() else {
                    return;
                };
                if let Err(error) = rounds.store.delete_expired_sessions(round::now_ms()).await {
                    tracing::warn!(%error, "cannot delete the expired sessions");
                }
            }
        });
        Ok(AppState {
            registry,
            rounds,
            limits,
            config: Arc::new(config),
            passwords,
            lobby,
            lab,
            reviews,
            puzzles: Arc::new(puzzles),
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
    // One write, and its failure ignored: whoever started the server may read the first line
    // and close the pipe (a closed stdout must not stop the server; println! would panic).
    let mut banner = format!("Denkmeter serves on http://{local}\n");
    match &state.config.public_url {
        Some(url) => banner.push_str(&format!("Invite links start with {url}\n")),
        None if local.ip().is_loopback() => banner.push_str(&format!(
            "Only this machine can reach it; to invite a friend elsewhere, serve with --host \
             0.0.0.0 --public-url http://THIS-MACHINE'S-ADDRESS:{}\n",
            local.port()
        )),
        None => {}
    }
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(banner.as_bytes()).and_then(|()| out.flush());
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_urls_are_a_scheme_a_host_and_perhaps_a_port() {
        for (text, kept) in [
            ("http://192.168.1.20:8080", "http://192.168.1.20:8080"),
            ("https://games.example.org/", "https://games.example.org"),
            ("http://[fe80::1]:8080", "http://[fe80::1]:8080"),
            ("http://[fe80::1]", "http://[fe80::1]"),
            ("http://my-box.local", "http://my-box.local"),
            (
                "HTTPS://Games.Example.org:443/",
                "https://games.example.org",
            ),
            ("http://192.168.1.20:80", "http://192.168.1.20"),
        ] {
            assert_eq!(public_url(text).as_deref(), Ok(kept), "{text}");
        }
        for text in [
            "",
            "192.168.1.20:8080",
            "ftp://example.org",
            "http://",
            "http://example.org/denkmeter",
            "http://example.org:port",
            "http://example.org:99999",
            "http://example.org?x=1",
            "http://exa mple.org",
            "javascript:alert(1)",
            "http://fe80::1",
            "http://a:1:2",
            "http://example.org]",
            "http://user:pass@example.org",
            "http://example.org/?",
            "http://example.org#",
        ] {
            let error = public_url(text).expect_err(text);
            assert!(
                error.to_string().contains("http://192.168.1.20:8080"),
                "{error}"
            );
        }
    }
}
