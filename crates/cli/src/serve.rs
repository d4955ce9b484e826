//! `denkmeter serve`: the web application.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use denkmeter_server::ServerConfig;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on (0.0.0.0 to be reachable from other machines).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// The database: a SQLite file (a path or sqlite:///path/games.db; created, owner-only,
    /// if missing) or PostgreSQL (postgres://user:password@host/database).
    #[arg(long, default_value = denkmeter_server::DEFAULT_DATABASE)]
    database: String,
    /// Threads searching the computer's moves (default: the number of cores).
    #[arg(long)]
    search_threads: Option<usize>,
    /// New games per minute from one client address (0: no limit).
    #[arg(long, default_value_t = 30)]
    games_per_minute: u32,
    /// Moves, resignations and draw actions per second from one client address (0: no limit).
    #[arg(long, default_value_t = 10)]
    moves_per_second: u32,
    /// Sign-ups and sign-ins per minute from one client address (0: no limit); each costs a
    /// password hash, and a guesser is slowed to this.
    #[arg(long, default_value_t = 10)]
    sign_ins_per_minute: u32,
    /// Connections open at once (lowered to fit the open-file limit).
    #[arg(long, default_value_t = 10_000)]
    max_connections: usize,
    /// Connections open at once from one client address (0: no limit); more are closed at
    /// once. Behind a reverse proxy every client has the proxy's address: raise it or use 0.
    #[arg(long, default_value_t = 100)]
    max_connections_per_address: usize,
    /// Seconds a client has to send a request's headers; also the most a connection may sit
    /// idle between requests.
    #[arg(long, default_value_t = 10)]
    header_timeout: u64,
    /// Seconds a client has to send a request's body once its headers are in (408 after it).
    #[arg(long, default_value_t = 10)]
    body_timeout: u64,
    /// Games kept in memory before idle ones are dropped (they come back from the database).
    #[arg(long, default_value_t = 2_000)]
    max_loaded_games: usize,
    /// Seconds between two moves of a computer-vs-computer game that nobody watches.
    #[arg(long, default_value_t = 2.0)]
    unwatched_computer_interval: f64,
    /// The address other machines reach this server at, e.g. `http://192.168.1.20:8080` (with
    /// --host 0.0.0.0) or a proxy's `https://games.example.org`: invite links start with it.
    /// Without it they use the address the browser opened, which from 127.0.0.1 only works on
    /// this machine.
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,
    /// An origin whose pages may open this server's WebSockets besides its own, as browsers
    /// send it (`https://example.org`); repeatable; `*` allows any.
    #[arg(long = "allow-origin")]
    allow_origins: Vec<String>,
    /// This server's name among servers sharing one PostgreSQL database, the same from one
    /// run to the next, so that after a restart it takes over its own unfinished computer
    /// moves at once. Servers running at the same time need different names. Default: this
    /// machine's host name and the port (a new name each run with --port 0).
    #[arg(long, value_name = "NAME")]
    server_id: Option<String>,
}

/// The longest `--server-id`.
const MAX_SERVER_ID: usize = 200;

/// The default server name: the host name and the port, or `None` (a new name each run) when
/// either is unknown.
fn default_server_id(port: u16) -> Option<String> {
    if port == 0 {
        return None;
    }
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())?;
    let host = host.trim();
    (!host.is_empty()).then(|| format!("{host}:{port}"))
}

impl ServeArgs {
    fn config(&self) -> Result<ServerConfig> {
        let mut config = ServerConfig::default();
        if let Some(threads) = self.search_threads {
            anyhow::ensure!(
                (1..=256).contains(&threads),
                "--search-threads: expected 1 to 256, found {threads}"
            );
            config.rounds.search_threads = threads;
        }
        anyhow::ensure!(
            (1..=3600).contains(&self.header_timeout),
            "--header-timeout: expected 1 to 3600 seconds, found {}",
            self.header_timeout
        );
        anyhow::ensure!(
            (1..=3600).contains(&self.body_timeout),
            "--body-timeout: expected 1 to 3600 seconds, found {}",
            self.body_timeout
        );
        if let Some(id) = &self.server_id {
            anyhow::ensure!(
                !id.trim().is_empty()
                    && id.len() <= MAX_SERVER_ID
                    && !id.chars().any(char::is_control),
                "--server-id: expected 1 to {MAX_SERVER_ID} characters, no control characters"
            );
        }
        anyhow::ensure!(
            self.unwatched_computer_interval.is_finite()
                && (0.0..=3600.0).contains(&self.unwatched_computer_interval),
            "--unwatched-computer-interval: expected 0 to 3600 seconds"
        );
        anyhow::ensure!(
            self.max_connections >= 1,
            "--max-connections: expected at least 1"
        );
        config.rounds.max_loaded = self.max_loaded_games.max(1);
        config.rounds.unwatched_computer_interval =
            Duration::from_secs_f64(self.unwatched_computer_interval);
        config.games_per_minute = self.games_per_minute;
        config.moves_per_second = self.moves_per_second;
        config.sign_ins_per_minute = self.sign_ins_per_minute;
        config.max_connections = self.max_connections;
        config.max_connections_per_address = self.max_connections_per_address;
        config.header_timeout = Duration::from_secs(self.header_timeout);
        config.body_timeout = Duration::from_secs(self.body_timeout);
        config.server_id = self
            .server_id
            .as_ref()
            .map(|id| id.trim().to_string())
            .or_else(|| default_server_id(self.port));
        config.allowed_origins = self.allow_origins.clone();
        config.public_url = self
            .public_url
            .as_deref()
            .map(denkmeter_server::public_url)
            .transpose()
            .context("--public-url")?;
        Ok(config)
    }
}

pub fn run(args: &ServeArgs) -> Result<()> {
    let config = args.config()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let addr = SocketAddr::new(args.host, args.port);
    runtime.block_on(async {
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
            tracing::info!("stopping");
        };
        denkmeter_server::serve(
            addr,
            &args.database,
            config,
            crate::registry().clone(),
            shutdown,
        )
        .await
        .map_err(anyhow::Error::from)
    })
}
