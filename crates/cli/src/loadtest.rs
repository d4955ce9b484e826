//! `denkmeter loadtest`: WebSocket players, spectators and HTTP readers against a server on this
//! machine's loopback; reports move and delivery latency, lost and stale views, the health
//! endpoint's latency and the server's memory, threads and open files.
//!
//! Every count and every wait is bounded: at most 5000 players and 600 s of play, a timeout on
//! each request and connection, and an overall deadline after which the tool reports what it has
//! and stops the server it started.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::net::IpAddr;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use denkmeter_server::accounts::SESSION_COOKIE;
use denkmeter_server::clock::TimeControl;
use denkmeter_server::ladder::TimeClass;
use futures_util::StreamExt;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use reqwest::{StatusCode, Url};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::{watch, Semaphore};
use tokio::task::{JoinHandle, JoinSet};
use tokio::time::{sleep, sleep_until, timeout, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::client::Request as WsRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

const MAX_CLIENTS: usize = 5000;
const MAX_SPECTATORS: usize = 5000;
const MAX_POLLERS: usize = 1000;
const MAX_CVC_GAMES: usize = 500;
const MAX_DURATION_S: u64 = 600;
const MAX_SETTLE_S: u64 = 120;
const MAX_THINK_MS: u64 = 60_000;
/// The clock of rated games unless --clock says: 5 minutes and 3 s a move, blitz.
const RATED_CLOCK: (u32, u32) = (300, 3);

/// Every HTTP request's limit.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// A WebSocket's connection and handshake.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// At most this many WebSocket handshakes at once.
const CONNECTS_AT_ONCE: usize = 64;
/// A player socket without any message this long while its game goes on is "silent".
const SILENCE: Duration = Duration::from_secs(30);
/// Waiting for the server's `serves on` line.
const SERVER_START_TIMEOUT: Duration = Duration::from_secs(30);
/// Creating the first games and opening every socket.
const SETUP_TIMEOUT: Duration = Duration::from_secs(60);
/// Signing up the accounts of a rated run and creating its first games: each sign-up costs the
/// server a password hash.
const RATED_SETUP_TIMEOUT: Duration = Duration::from_secs(180);
/// Added to duration + settle for the overall deadline.
const DEADLINE_MARGIN: Duration = Duration::from_secs(120);
/// After the final views are fetched, for views already on their way.
const FINAL_GRACE: Duration = Duration::from_secs(1);
/// Connection attempts in a row before a watcher gives up.
const MAX_CONNECT_FAILURES: u32 = 5;
/// Sockets dropped by the server in one game before a watcher gives up.
const MAX_DROPS: u32 = 20;
/// Game creations for one table before it gives up (429s included).
const MAX_CREATE_ATTEMPTS: u32 = 30;
const HEALTH_INTERVAL: Duration = Duration::from_millis(100);
const HEALTH_TIMEOUT: Duration = Duration::from_secs(5);
const POLL_INTERVAL: Duration = Duration::from_millis(200);
const SAMPLE_INTERVAL: Duration = Duration::from_secs(1);
const PROGRESS_INTERVAL: Duration = Duration::from_secs(5);

#[derive(Debug, Args)]
pub struct LoadtestArgs {
    /// WebSocket player clients (at most 5000). Each holds one human seat, watches its game over
    /// its own WebSocket and posts its moves over HTTP.
    #[arg(long, default_value_t = 100)]
    clients: usize,
    /// The fraction of the clients that play against the computer, one client per game; the
    /// others are paired into human-against-human games (one client per seat).
    #[arg(long, default_value_t = 0.25)]
    computer_share: f64,
    /// The computer's level in the clients' games against the computer.
    #[arg(long, default_value_t = 1)]
    computer_level: u8,
    /// Extra WebSocket clients without a token, each watching a random game of the players.
    #[arg(long, default_value_t = 0)]
    spectators: usize,
    /// HTTP readers, each fetching a random game's view every 200 ms.
    #[arg(long, default_value_t = 0)]
    pollers: usize,
    /// Computer-against-computer games, each watched by one spectator WebSocket (so that they
    /// advance): they measure the search pool under load.
    #[arg(long, default_value_t = 0)]
    cvc_games: usize,
    /// The computers' level in the computer-against-computer games.
    #[arg(long, default_value_t = 6)]
    cvc_level: u8,
    /// A player's mean thinking time in milliseconds: it waits a random 0 to twice this after it
    /// sees its turn (0: it moves at once).
    #[arg(long, default_value_t = 500)]
    think_ms: u64,
    /// Seconds the players keep moving (at most 600).
    #[arg(long, default_value_t = 30)]
    duration: u64,
    /// Seconds after that without new moves, while the watchers keep receiving, before the
    /// final checks.
    #[arg(long, default_value_t = 5)]
    settle: u64,
    /// The ruleset of every game; a game that ends is followed by a new one of the same kind.
    #[arg(long, default_value = "english")]
    ruleset: String,
    /// The players' games are rated: every player client signs up an account first and plays
    /// signed in (by its session cookie, without tokens); games against the computer are
    /// created rated, games between two clients start from a challenge one makes to the other
    /// and the other accepts. At the end each account's page is checked against the rated games
    /// it finished. Needs a clock of at least blitz (default with --rated: 300+3).
    #[arg(long)]
    rated: bool,
    /// The players' clock, MAIN+INCREMENT in seconds (e.g. 300+3); default: untimed games (300+3
    /// with --rated).
    #[arg(long, value_name = "MAIN+INC")]
    clock: Option<String>,
    /// Test a running server at this loopback address (http://127.0.0.1:PORT) instead of
    /// starting one (start it with --games-per-minute 0 --moves-per-second 0
    /// --max-connections-per-address 0, and --sign-ins-per-minute 0 for --rated, to measure it
    /// without its per-client limits: every client here has the same address).
    #[arg(long)]
    url: Option<String>,
    /// With --url: the server's process id, to sample its memory, threads and open files.
    #[arg(long, requires = "url")]
    server_pid: Option<u32>,
    /// The database of the server started here: sqlite:///path/file.db or
    /// postgres://user:password@host/database (default: a new SQLite file in a temporary
    /// directory, deleted at the end).
    #[arg(long, conflicts_with = "url")]
    database: Option<String>,
    /// The number of search threads of the server started here (default: the server's own).
    #[arg(long, conflicts_with = "url")]
    search_threads: Option<usize>,
    /// Pass the log (standard error) of the server started here through.
    #[arg(long, conflicts_with = "url")]
    server_log: bool,
    /// Print the report as one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

impl LoadtestArgs {
    fn check(&self) -> Result<()> {
        if self.clients > MAX_CLIENTS {
            bail!(
                "--clients {} is over the limit of {MAX_CLIENTS}",
                self.clients
            );
        }
        if self.spectators > MAX_SPECTATORS {
            bail!(
                "--spectators {} is over the limit of {MAX_SPECTATORS}",
                self.spectators
            );
        }
        if self.pollers > MAX_POLLERS {
            bail!(
                "--pollers {} is over the limit of {MAX_POLLERS}",
                self.pollers
            );
        }
        if self.cvc_games > MAX_CVC_GAMES {
            bail!(
                "--cvc-games {} is over the limit of {MAX_CVC_GAMES}",
                self.cvc_games
            );
        }
        if self.duration == 0 || self.duration > MAX_DURATION_S {
            bail!("--duration must be 1 to {MAX_DURATION_S} seconds");
        }
        if self.settle > MAX_SETTLE_S {
            bail!("--settle must be at most {MAX_SETTLE_S} seconds");
        }
        if self.think_ms > MAX_THINK_MS {
            bail!("--think-ms must be at most {MAX_THINK_MS}");
        }
        if !(0.0..=1.0).contains(&self.computer_share) {
            bail!("--computer-share must be between 0 and 1");
        }
        if self.computer_level == 0 || self.cvc_level == 0 {
            bail!("computer levels start at 1");
        }
        if self.clients == 0 && self.cvc_games == 0 {
            bail!("nothing to do: no --clients and no --cvc-games");
        }
        if self.spectators > 0 && self.clients == 0 && self.cvc_games == 0 {
            bail!("--spectators need games to watch");
        }
        if self.search_threads == Some(0) {
            bail!("--search-threads must be at least 1");
        }
        self.clock()?;
        Ok(())
    }

    /// The players' clock (main seconds, increment seconds), if their games are timed.
    fn clock(&self) -> Result<Option<(u32, u32)>> {
        let Some(text) = &self.clock else {
            return Ok(self.rated.then_some(RATED_CLOCK));
        };
        let parsed = text
            .split_once('+')
            .and_then(|(main, inc)| Some((main.trim().parse().ok()?, inc.trim().parse().ok()?)));
        match parsed {
            Some((main, inc)) if (1..=86_400).contains(&main) && inc <= 3_600 => {
                let control = TimeControl::Main {
                    main_ms: i64::from(main) * 1000,
                    increment_ms: i64::from(inc) * 1000,
                };
                if self.rated && TimeClass::of(control) == TimeClass::Bullet {
                    bail!("--clock {text}: a rated game needs a clock of at least blitz");
                }
                Ok(Some((main, inc)))
            }
            _ => bail!(
                "--clock {text:?}: give MAIN+INCREMENT in seconds, main 1 to 86400 and increment \
                 0 to 3600 (e.g. 300+3)"
            ),
        }
    }
}

pub fn run(args: &LoadtestArgs) -> Result<()> {
    args.check()?;
    let plan = Plan::of(args);
    let open_files = raise_open_file_limit();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let result = runtime.block_on(run_async(args, &plan, open_files));
    runtime.shutdown_timeout(Duration::from_secs(2));
    let report = result?;
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
    } else {
        report.print_table();
    }
    if let Some(line) = report.lost_stale_line() {
        if args.json {
            eprintln!("{line}");
        } else {
            outln!("{line}");
        }
    }
    Ok(())
}

/// Raises the soft open-file limit to the hard one; the limit in force (None if unknown).
fn raise_open_file_limit() -> Option<u64> {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => Some(limit),
        Err(error) => {
            eprintln!("loadtest: cannot raise the open-file limit: {error}");
            rlimit::getrlimit(rlimit::Resource::NOFILE)
                .ok()
                .map(|(soft, _)| soft)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The plan: which games and clients.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A human client (white) against the computer (black).
    HumanComputer,
    /// Two human clients, one per seat.
    HumanHuman,
    /// Two computers, watched by one spectator socket.
    ComputerComputer,
}

#[derive(Debug)]
struct Plan {
    clients_vs_computer: usize,
    human_games: usize,
    cvc_games: usize,
    spectators: usize,
    pollers: usize,
    notes: Vec<String>,
}

impl Plan {
    fn of(args: &LoadtestArgs) -> Plan {
        let mut notes = Vec::new();
        // The share is in [0, 1] and clients at most 5000: the product fits.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let mut vs_computer = ((args.clients as f64) * args.computer_share).round() as usize;
        vs_computer = vs_computer.min(args.clients);
        if (args.clients - vs_computer) % 2 == 1 {
            vs_computer += 1;
            notes.push(format!(
                "an odd number of human-vs-human clients: {vs_computer} clients play the computer"
            ));
        }
        Plan {
            clients_vs_computer: vs_computer,
            human_games: (args.clients - vs_computer) / 2,
            cvc_games: args.cvc_games,
            spectators: args.spectators,
            pollers: args.pollers,
            notes,
        }
    }

    fn tables(&self) -> Vec<Arc<Table>> {
        let kinds = std::iter::repeat(Kind::HumanComputer)
            .take(self.clients_vs_computer)
            .chain(std::iter::repeat(Kind::HumanHuman).take(self.human_games))
            .chain(std::iter::repeat(Kind::ComputerComputer).take(self.cvc_games));
        kinds
            .enumerate()
            .map(|(index, kind)| Arc::new(Table::new(kind, index)))
            .collect()
    }

    /// Open files this process needs: a socket per watcher and roughly one HTTP connection per
    /// player and poller in flight, plus some.
    fn files_needed(&self) -> u64 {
        let players = self.clients_vs_computer + 2 * self.human_games;
        let sockets = players + self.spectators + self.cvc_games;
        u64::try_from(sockets + players + self.pollers + 64).unwrap_or(u64::MAX)
    }
}

// ---------------------------------------------------------------------------------------------
// What the server sends.

#[derive(Debug, Deserialize)]
struct View {
    #[serde(default)]
    version: Option<u64>,
    ply: usize,
    #[serde(default)]
    moves: Option<Vec<IgnoredAny>>,
    #[serde(default)]
    to_move: Option<String>,
    #[serde(default)]
    you: Option<String>,
    #[serde(default)]
    legal_moves: Vec<LegalMove>,
    status: String,
    #[serde(default)]
    rated: bool,
    /// `{"white": {"before", "after"} | null, "black": ...}` once a rated game is over.
    #[serde(default)]
    rating_changes: Option<BTreeMap<String, Option<IgnoredAny>>>,
}

#[derive(Debug, Deserialize)]
struct LegalMove {
    text: String,
}

impl View {
    fn over(&self) -> bool {
        self.status == "over"
    }

    /// The seats whose rating changed with this game.
    fn rating_changes(&self) -> usize {
        self.rating_changes.as_ref().map_or(0, |changes| {
            changes.values().filter(|c| c.is_some()).count()
        })
    }

    fn my_turn(&self) -> bool {
        !self.over() && self.you.is_some() && self.you == self.to_move
    }

    /// Whether `other` is at least as new as this view.
    fn superseded_by(&self, other: &View) -> bool {
        match (self.version, other.version) {
            (Some(mine), Some(theirs)) => theirs >= mine,
            _ => other.ply >= self.ply,
        }
    }
}

/// A WebSocket message: `{"type":"view","view":...}`, `{"type":"heartbeat","version":N}`, or
/// (older servers) a bare view without `type`.
#[derive(Debug, Deserialize)]
struct Envelope {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    view: Option<View>,
    #[serde(default)]
    version: Option<u64>,
}

#[derive(Debug, Deserialize)]
struct Created {
    id: String,
    tokens: CreatedTokens,
}

#[derive(Debug, Deserialize)]
struct CreatedTokens {
    white: Option<String>,
    black: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Challenge {
    id: String,
}

#[derive(Debug, Deserialize)]
struct Accepted {
    game: String,
}

#[derive(Debug, Deserialize)]
struct PlayerPage {
    ratings: Vec<PlayerRating>,
}

#[derive(Debug, Deserialize)]
struct PlayerRating {
    games: u64,
}

/// How a client holds its seat.
#[derive(Debug, Clone)]
enum Credential {
    /// The seat's token.
    Token(String),
    /// A signed-in player's session: the `denkmeter_session=...` cookie, which holds every seat
    /// of its account.
    Session(String),
}

/// An account signed up for a rated run.
#[derive(Debug, Clone)]
struct Account {
    name: String,
    cookie: String,
}

impl Credential {
    /// `request` made with this credential: a GET takes a token as a query parameter (a POST
    /// names it in its body); a session goes as the cookie, with this server's origin (which a
    /// request other than GET must name).
    fn on(&self, ctx: &Ctx, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match self {
            Credential::Token(token) => request.query(&[("token", token)]),
            Credential::Session(cookie) => session_request(ctx, request, cookie),
        }
    }

    fn token(&self) -> Option<&str> {
        match self {
            Credential::Token(token) => Some(token),
            Credential::Session(_) => None,
        }
    }
}

fn session_request(
    ctx: &Ctx,
    request: reqwest::RequestBuilder,
    cookie: &str,
) -> reqwest::RequestBuilder {
    request
        .header(reqwest::header::COOKIE, cookie)
        .header(reqwest::header::ORIGIN, &ctx.http_base)
}

// ---------------------------------------------------------------------------------------------
// Shared state.

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    /// Games are created and sockets opened; nobody moves.
    Setup,
    /// Players move.
    Run,
    /// No new moves; watchers keep receiving.
    Settle,
    /// Everything stops.
    Done,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[derive(Debug, Default)]
struct Counter(AtomicU64);

impl Counter {
    fn inc(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
    fn dec(&self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
    fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
    fn max(&self, value: u64) {
        self.0.fetch_max(value, Ordering::Relaxed);
    }
}

#[derive(Debug, Default)]
struct Stats {
    moves_acked: Counter,
    views: Counter,
    heartbeats: Counter,
    heartbeats_ahead: Counter,
    other_messages: Counter,
    bad_messages: Counter,
    move_list_mismatches: Counter,
    out_of_order: Counter,
    silent_sockets: Counter,
    stalls: Counter,
    socket_drops: Counter,
    connect_failures: Counter,
    sockets_given_up: Counter,
    sockets_open: Counter,
    sockets_open_max: Counter,
    first_connects: Counter,
    games_created: Counter,
    tables_given_up: Counter,
    ack_anomalies: Counter,
    no_legal_moves: Counter,
    health_failures: Counter,
    move_latency_us: Mutex<Vec<u32>>,
    /// Of the moves that ended their game (and, in a rated game, rated it).
    end_move_latency_us: Mutex<Vec<u32>>,
    health_latency_us: Mutex<Vec<u32>>,
    poll_latency_us: Mutex<Vec<u32>>,
    http: Mutex<BTreeMap<&'static str, BTreeMap<String, u64>>>,
    server_rss_kb_max: Counter,
    server_threads_max: Counter,
    server_fds_max: Counter,
    server_samples: Counter,
    /// The server's CPU ticks at the first and the last sample.
    server_cpu_ticks: Mutex<(Option<u64>, Option<u64>)>,
}

impl Stats {
    fn http(&self, what: &'static str, outcome: &Outcome) {
        self.http_label(what, outcome.label());
    }

    fn http_label(&self, what: &'static str, label: String) {
        *lock(&self.http)
            .entry(what)
            .or_default()
            .entry(label)
            .or_default() += 1;
    }
}

/// One game on the server, and what each of its watchers saw of it.
#[derive(Debug)]
struct GameRecord {
    id: String,
    kind: Kind,
    /// The accounts in its seats (a rated run's).
    accounts: Vec<String>,
    state: Mutex<GameState>,
}

#[derive(Debug, Default)]
struct GameState {
    /// Per move (index ply - 1): when a player's POST of it was answered 200.
    acks: Vec<Option<u32>>,
    watchers: Vec<Tenure>,
}

/// One watcher's time in one game (across reconnections).
#[derive(Debug, Default)]
struct Tenure {
    /// The ply of its first view: moves up to it are not counted for latency.
    base: Option<usize>,
    /// `seen[p - 1]`: when it first received a view with ply >= p (microseconds since start).
    seen: Vec<u32>,
    last_version: Option<u64>,
}

impl GameRecord {
    fn register(&self) -> usize {
        let mut state = lock(&self.state);
        state.watchers.push(Tenure::default());
        state.watchers.len() - 1
    }

    /// Records a view received by watcher `index` at `at`; false if it is older than one it had.
    fn observe(&self, index: usize, ply: usize, version: Option<u64>, at: u32) -> bool {
        let mut state = lock(&self.state);
        let Some(tenure) = state.watchers.get_mut(index) else {
            return true;
        };
        let mut in_order = true;
        if tenure.base.is_none() {
            tenure.base = Some(ply);
            tenure.seen = vec![at; ply];
        } else if ply < tenure.seen.len() {
            in_order = false;
        } else {
            tenure.seen.resize(ply, at);
        }
        if let Some(version) = version {
            if tenure.last_version.is_some_and(|last| version < last) {
                in_order = false;
            }
            tenure.last_version = Some(tenure.last_version.map_or(version, |l| l.max(version)));
        }
        in_order
    }

    fn last_version(&self, index: usize) -> Option<u64> {
        lock(&self.state)
            .watchers
            .get(index)
            .and_then(|t| t.last_version)
    }

    /// Records that move `ply` was acknowledged at `at`; false if it already was.
    fn ack(&self, ply: usize, at: u32) -> bool {
        if ply == 0 {
            return false;
        }
        let mut state = lock(&self.state);
        if state.acks.len() < ply {
            state.acks.resize(ply, None);
        }
        match state.acks.get_mut(ply - 1) {
            Some(slot @ None) => {
                *slot = Some(at);
                true
            }
            _ => false,
        }
    }
}

/// The current game of a table (a seat pair that plays game after game).
#[derive(Debug)]
struct Assignment {
    generation: u64,
    game: Arc<GameRecord>,
    /// White's and black's credentials.
    seats: [Option<Credential>; 2],
}

#[derive(Debug)]
struct Table {
    /// Its place in the plan (names its accounts).
    index: usize,
    kind: Kind,
    current: watch::Sender<Option<Arc<Assignment>>>,
    creating: tokio::sync::Mutex<Creating>,
}

#[derive(Debug, Default)]
struct Creating {
    /// The newest game's generation.
    generation: u64,
    /// In a rated run, the accounts of the table's player clients (white's first), signed up
    /// before its first game.
    accounts: Vec<Account>,
}

impl Table {
    fn new(kind: Kind, index: usize) -> Table {
        Table {
            index,
            kind,
            current: watch::Sender::new(None),
            creating: tokio::sync::Mutex::new(Creating::default()),
        }
    }

    /// The seats its player clients hold.
    fn player_seats(&self) -> &'static [usize] {
        match self.kind {
            Kind::HumanComputer => &[0],
            Kind::HumanHuman => &[0, 1],
            Kind::ComputerComputer => &[],
        }
    }

    fn current(&self) -> Option<Arc<Assignment>> {
        self.current.borrow().clone()
    }

    /// Starts the table's next game unless someone already did after `after` (the first one
    /// during setup, later ones only while the players move).
    async fn advance(&self, ctx: &Ctx, after: u64) {
        let mut creating = self.creating.lock().await;
        if creating.generation > after {
            return;
        }
        let phase = *ctx.phase.borrow();
        if !(phase == Phase::Run || (phase == Phase::Setup && after == 0)) {
            return;
        }
        if ctx.rated && creating.accounts.is_empty() {
            let mut accounts = Vec::new();
            for &seat in self.player_seats() {
                match sign_up(ctx, 2 * self.index + seat).await {
                    Some(account) => accounts.push(account),
                    None => {
                        ctx.stats.tables_given_up.inc();
                        return;
                    }
                }
            }
            creating.accounts = accounts;
        }
        match create_game(ctx, self.kind, &creating.accounts).await {
            Some((game, seats)) => {
                creating.generation += 1;
                self.current.send_replace(Some(Arc::new(Assignment {
                    generation: creating.generation,
                    game,
                    seats,
                })));
            }
            None => ctx.stats.tables_given_up.inc(),
        }
    }

    /// The table's game after generation `after`; None when everything stops first.
    async fn next_after(&self, ctx: &Ctx, after: u64) -> Option<Arc<Assignment>> {
        let mut current = self.current.subscribe();
        let mut phase = ctx.phase.subscribe();
        loop {
            if *phase.borrow_and_update() == Phase::Done {
                return None;
            }
            if let Some(a) = current.borrow_and_update().clone() {
                if a.generation > after {
                    return Some(a);
                }
            }
            tokio::select! {
                changed = current.changed() => if changed.is_err() { return None },
                changed = phase.changed() => if changed.is_err() { return None },
            }
        }
    }
}

#[derive(Debug, Default)]
struct Clock {
    run_started: Option<Instant>,
    run_ended: Option<Instant>,
}

#[derive(Debug, Default, Clone, Copy, Serialize)]
struct AccountChecks {
    /// Pages read.
    checked: u64,
    /// Pages that could not be read.
    unreadable: u64,
    /// Pages whose rated games differ from the finished rated games of the account.
    mismatches: u64,
    /// Rated games counted on the pages (two per game between two clients).
    rated_games: u64,
}

#[derive(Debug, Clone, Copy)]
struct Final {
    ply: usize,
    version: Option<u64>,
    over: bool,
    rated: bool,
    /// The seats whose rating the game changed.
    rating_changes: usize,
}

#[derive(Debug)]
struct Ctx {
    /// `http://127.0.0.1:PORT`
    http_base: String,
    /// `ws://127.0.0.1:PORT`
    ws_base: String,
    http: reqwest::Client,
    start: Instant,
    phase: watch::Sender<Phase>,
    stats: Stats,
    tables: Vec<Arc<Table>>,
    games: Mutex<Vec<Arc<GameRecord>>>,
    finals: Mutex<HashMap<String, Final>>,
    /// What the accounts' pages said at the end of a rated run.
    accounts: Mutex<AccountChecks>,
    clock: Mutex<Clock>,
    expected_sockets: Counter,
    connect_slots: Semaphore,
    ruleset: String,
    computer_level: u8,
    cvc_level: u8,
    think_ms: u64,
    rated: bool,
    /// The players' clock: main seconds and increment.
    players_clock: Option<(u32, u32)>,
    /// Starts the names of this run's accounts (random letters, so that runs against one
    /// server do not collide).
    account_prefix: String,
    /// Every account's password.
    password: String,
    /// This process's CPU seconds at the start.
    own_cpu_start: Option<f64>,
}

impl Ctx {
    /// Microseconds since the start (saturating; runs are far shorter than 71 minutes).
    fn now_us(&self) -> u32 {
        u32::try_from(self.start.elapsed().as_micros()).unwrap_or(u32::MAX)
    }

    fn phase(&self) -> Phase {
        *self.phase.borrow()
    }

    fn set_phase(&self, phase: Phase) {
        self.phase.send_replace(phase);
    }
}

// ---------------------------------------------------------------------------------------------
// HTTP.

#[derive(Debug)]
enum Outcome {
    Reply(StatusCode, Vec<u8>),
    Timeout,
    Failed,
}

impl Outcome {
    fn label(&self) -> String {
        match self {
            Outcome::Reply(status, _) => status.as_u16().to_string(),
            Outcome::Timeout => "timeout".to_string(),
            Outcome::Failed => "error".to_string(),
        }
    }
}

async fn send(request: reqwest::RequestBuilder) -> Outcome {
    send_keeping_session(request).await.0
}

/// [`send`], and the session cookie (`denkmeter_session=...`) the answer sets, if any.
async fn send_keeping_session(request: reqwest::RequestBuilder) -> (Outcome, Option<String>) {
    let fail = |error: reqwest::Error| {
        if error.is_timeout() {
            Outcome::Timeout
        } else {
            Outcome::Failed
        }
    };
    // reqwest's own timeout covers the request; this one is a second fence.
    match timeout(REQUEST_TIMEOUT + Duration::from_secs(1), async {
        match request.send().await {
            Ok(response) => {
                let status = response.status();
                let session = response
                    .headers()
                    .get_all(reqwest::header::SET_COOKIE)
                    .iter()
                    .filter_map(|value| value.to_str().ok())
                    .filter_map(|value| value.split(';').next())
                    .find(|pair| pair.starts_with(&format!("{SESSION_COOKIE}=")))
                    .map(str::to_string);
                match response.bytes().await {
                    Ok(body) => (Outcome::Reply(status, body.to_vec()), session),
                    Err(error) => (fail(error), None),
                }
            }
            Err(error) => (fail(error), None),
        }
    })
    .await
    {
        Ok(answer) => answer,
        Err(_) => (Outcome::Timeout, None),
    }
}

/// A game's view for a seat (None: a spectator's), counted under `what`.
async fn get_view(
    ctx: &Ctx,
    id: &str,
    seat: Option<&Credential>,
    what: &'static str,
) -> Option<View> {
    let mut request = ctx.http.get(format!("{}/api/games/{id}", ctx.http_base));
    if let Some(seat) = seat {
        request = seat.on(ctx, request);
    }
    let outcome = send(request).await;
    ctx.stats.http(what, &outcome);
    match outcome {
        Outcome::Reply(StatusCode::OK, body) => match serde_json::from_slice(&body) {
            Ok(view) => Some(view),
            Err(_) => {
                ctx.stats.bad_messages.inc();
                None
            }
        },
        _ => None,
    }
}

/// Signs up account number `number` of the run; None if the server refuses (counted).
async fn sign_up(ctx: &Ctx, number: usize) -> Option<Account> {
    let name = format!("{}{number:04}", ctx.account_prefix);
    let body = json!({"name": name, "password": ctx.password});
    let (_, cookie) = post_retrying(
        ctx,
        "signup",
        "/api/account/signup",
        None,
        &body,
        StatusCode::CREATED,
    )
    .await?;
    let Some(cookie) = cookie else {
        ctx.stats.bad_messages.inc();
        return None;
    };
    Some(Account { name, cookie })
}

/// A POST of `body` to `path` from this server's pages (as `account` if given), retried on 429
/// and errors a bounded number of times, counted under `what`; the body of an answer with status
/// `expected`, and the session cookie it sets, if any.
async fn post_retrying(
    ctx: &Ctx,
    what: &'static str,
    path: &str,
    account: Option<&Account>,
    body: &serde_json::Value,
    expected: StatusCode,
) -> Option<(Vec<u8>, Option<String>)> {
    let mut phase = ctx.phase.subscribe();
    for attempt in 0..MAX_CREATE_ATTEMPTS {
        if ctx.phase() == Phase::Done {
            return None;
        }
        let request = ctx.http.post(format!("{}{path}", ctx.http_base)).json(body);
        let request = match account {
            Some(account) => session_request(ctx, request, &account.cookie),
            None => request.header(reqwest::header::ORIGIN, &ctx.http_base),
        };
        let (outcome, session) = send_keeping_session(request).await;
        ctx.stats.http(what, &outcome);
        let pause = match outcome {
            Outcome::Reply(status, body) if status == expected => return Some((body, session)),
            Outcome::Reply(status, _) if status.is_client_error() && status != 429 => {
                // A request the server refuses (unknown ruleset, bad level) stays refused.
                return None;
            }
            _ => Duration::from_millis(250 * u64::from(attempt.min(8) + 1)),
        };
        tokio::select! {
            () = sleep(pause) => {}
            _ = phase.wait_for(|p| *p == Phase::Done) => return None,
        }
    }
    None
}

/// Creates a game of `kind` for a table's clients (retrying on 429 and errors, a bounded number
/// of times): by `POST /api/games`, or in a rated run between two clients by a challenge from
/// the first of `accounts` to the second, accepted by the second.
async fn create_game(
    ctx: &Ctx,
    kind: Kind,
    accounts: &[Account],
) -> Option<(Arc<GameRecord>, [Option<Credential>; 2])> {
    let clock = ctx
        .players_clock
        .map(|(main, increment)| json!({"main_seconds": main, "increment_seconds": increment}));
    let (id, seats) = match (kind, accounts) {
        (Kind::HumanHuman, [challenger, acceptor]) => {
            let body = json!({"ruleset": ctx.ruleset, "clock": clock, "rated": true,
                              "colour": "white", "to": acceptor.name});
            let (made, _) = post_retrying(
                ctx,
                "challenge",
                "/api/challenges",
                Some(challenger),
                &body,
                StatusCode::CREATED,
            )
            .await?;
            let Ok(challenge) = serde_json::from_slice::<Challenge>(&made) else {
                ctx.stats.bad_messages.inc();
                return None;
            };
            let (accepted, _) = post_retrying(
                ctx,
                "accept",
                &format!("/api/challenges/{}/accept", challenge.id),
                Some(acceptor),
                &json!({}),
                StatusCode::CREATED,
            )
            .await?;
            let Ok(accepted) = serde_json::from_slice::<Accepted>(&accepted) else {
                ctx.stats.bad_messages.inc();
                return None;
            };
            let seats = [
                Some(Credential::Session(challenger.cookie.clone())),
                Some(Credential::Session(acceptor.cookie.clone())),
            ];
            (accepted.game, seats)
        }
        _ => {
            let human = json!({"kind": "human"});
            let (white, black) = match kind {
                Kind::HumanComputer => (
                    human,
                    json!({"kind": "computer", "level": ctx.computer_level}),
                ),
                Kind::HumanHuman => (human.clone(), human),
                Kind::ComputerComputer => (
                    json!({"kind": "computer", "level": ctx.cvc_level}),
                    json!({"kind": "computer", "level": ctx.cvc_level}),
                ),
            };
            let mut body = json!({"ruleset": ctx.ruleset, "white": white, "black": black});
            if kind != Kind::ComputerComputer {
                body["clock"] = clock.unwrap_or(serde_json::Value::Null);
            }
            let owner = match (kind, accounts) {
                (Kind::HumanComputer, [owner]) => {
                    body["rated"] = json!(true);
                    body["me"] = json!("white");
                    Some(owner)
                }
                _ => None,
            };
            let (created, _) = post_retrying(
                ctx,
                "create",
                "/api/games",
                owner,
                &body,
                StatusCode::CREATED,
            )
            .await?;
            let Ok(created) = serde_json::from_slice::<Created>(&created) else {
                ctx.stats.bad_messages.inc();
                return None;
            };
            let tokens = [created.tokens.white, created.tokens.black];
            let needed = match kind {
                Kind::HumanComputer => tokens[0].is_some(),
                Kind::HumanHuman => tokens.iter().all(Option::is_some),
                Kind::ComputerComputer => true,
            };
            if !needed {
                ctx.stats.bad_messages.inc();
                return None;
            }
            let seats = match owner {
                // A signed-in player plays by his session, as the pages do.
                Some(owner) => [Some(Credential::Session(owner.cookie.clone())), None],
                None => tokens.map(|token| token.map(Credential::Token)),
            };
            (created.id, seats)
        }
    };
    let game = Arc::new(GameRecord {
        id,
        kind,
        accounts: accounts.iter().map(|a| a.name.clone()).collect(),
        state: Mutex::new(GameState::default()),
    });
    lock(&ctx.games).push(game.clone());
    ctx.stats.games_created.inc();
    Some((game, seats))
}

// ---------------------------------------------------------------------------------------------
// WebSockets.

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WatchEnd {
    /// It saw the game end.
    Over,
    /// The test stopped.
    Done,
    /// It could not (re)connect.
    GaveUp,
}

#[derive(Debug)]
enum SocketEnd {
    Over,
    Done,
    Dropped,
}

fn ws_url(ctx: &Ctx, id: &str, token: Option<&str>) -> Result<Url> {
    let base = format!("{}/api/games/{id}/ws", ctx.ws_base);
    Ok(match token {
        Some(token) => Url::parse_with_params(&base, &[("token", token)])?,
        None => Url::parse(&base)?,
    })
}

/// The handshake request of a socket at `url`, with a session's cookie and this server's origin.
fn ws_request(ctx: &Ctx, url: &Url, seat: Option<&Credential>) -> Result<WsRequest> {
    let mut request = url.as_str().into_client_request()?;
    if let Some(Credential::Session(cookie)) = seat {
        let headers = request.headers_mut();
        headers.insert(reqwest::header::COOKIE, cookie.parse()?);
        headers.insert(reqwest::header::ORIGIN, ctx.http_base.parse()?);
    }
    Ok(request)
}

/// Watches `game` over a WebSocket until it is over (or everything stops), recording every
/// view; a player's views also go to `views`.
async fn watch_socket(
    ctx: Arc<Ctx>,
    game: Arc<GameRecord>,
    seat: Option<Credential>,
    views: Option<watch::Sender<Option<Arc<View>>>>,
) -> WatchEnd {
    let index = game.register();
    let mut phase = ctx.phase.subscribe();
    let mut counted = false;
    let count_first = |counted: &mut bool| {
        if !*counted {
            *counted = true;
            if ctx.phase() == Phase::Setup {
                ctx.stats.first_connects.inc();
            }
        }
    };
    let Ok(url) = ws_url(&ctx, &game.id, seat.as_ref().and_then(Credential::token))
        .and_then(|url| ws_request(&ctx, &url, seat.as_ref()).map(|_| url))
    else {
        ctx.stats.sockets_given_up.inc();
        count_first(&mut counted);
        return WatchEnd::GaveUp;
    };
    let mut failures = 0;
    let mut drops = 0;
    loop {
        if *phase.borrow_and_update() == Phase::Done {
            return WatchEnd::Done;
        }
        let connected = match ws_request(&ctx, &url, seat.as_ref()) {
            Ok(request) => {
                let _permit = ctx.connect_slots.acquire().await.ok();
                // Small reads: the library zeroes its read buffer's room before each one.
                let config = WebSocketConfig::default().read_buffer_size(16 * 1024);
                let connecting =
                    tokio_tungstenite::connect_async_with_config(request, Some(config), false);
                timeout(CONNECT_TIMEOUT, connecting)
                    .await
                    .map_err(|_| ())
                    .and_then(|connected| connected.map_err(|_| ()))
            }
            Err(_) => Err(()),
        };
        let mut socket = match connected {
            Ok((socket, _)) => socket,
            _ => {
                ctx.stats.connect_failures.inc();
                failures += 1;
                if failures >= MAX_CONNECT_FAILURES {
                    ctx.stats.sockets_given_up.inc();
                    count_first(&mut counted);
                    return WatchEnd::GaveUp;
                }
                tokio::select! {
                    () = sleep(Duration::from_millis(500 * u64::from(failures))) => {}
                    _ = phase.wait_for(|p| *p == Phase::Done) => return WatchEnd::Done,
                }
                continue;
            }
        };
        failures = 0;
        count_first(&mut counted);
        ctx.stats.sockets_open.inc();
        ctx.stats.sockets_open_max.max(ctx.stats.sockets_open.get());
        let end = read_socket(
            &ctx,
            &game,
            index,
            seat.as_ref(),
            views.as_ref(),
            &mut socket,
            &mut phase,
        )
        .await;
        ctx.stats.sockets_open.dec();
        match end {
            SocketEnd::Over | SocketEnd::Done => {
                let _ = timeout(Duration::from_secs(1), socket.close(None)).await;
                return if matches!(end, SocketEnd::Over) {
                    WatchEnd::Over
                } else {
                    WatchEnd::Done
                };
            }
            SocketEnd::Dropped => {
                ctx.stats.socket_drops.inc();
                drops += 1;
                if drops > MAX_DROPS {
                    ctx.stats.sockets_given_up.inc();
                    return WatchEnd::GaveUp;
                }
                tokio::select! {
                    () = sleep(Duration::from_secs(1)) => {}
                    _ = phase.wait_for(|p| *p == Phase::Done) => return WatchEnd::Done,
                }
            }
        }
    }
}

async fn read_socket(
    ctx: &Ctx,
    game: &GameRecord,
    index: usize,
    seat: Option<&Credential>,
    views: Option<&watch::Sender<Option<Arc<View>>>>,
    socket: &mut Socket,
    phase: &mut watch::Receiver<Phase>,
) -> SocketEnd {
    loop {
        if *phase.borrow_and_update() == Phase::Done {
            return SocketEnd::Done;
        }
        tokio::select! {
            changed = phase.changed() => {
                if changed.is_err() {
                    return SocketEnd::Done;
                }
            }
            next = timeout(SILENCE, socket.next()) => match next {
                Err(_) => {
                    if ctx.phase() == Phase::Run {
                        ctx.stats.silent_sockets.inc();
                        // Go on over HTTP so that the run does not stall; keep the socket.
                        let what = if seat.is_some() { "view" } else { "spectator-view" };
                        if let Some(view) = get_view(ctx, &game.id, seat, what).await {
                            let over = view.over();
                            if let Some(views) = views {
                                views.send_replace(Some(Arc::new(view)));
                            }
                            if over {
                                return SocketEnd::Over;
                            }
                        }
                    }
                }
                Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) => return SocketEnd::Dropped,
                Ok(Some(Ok(Message::Text(text)))) => {
                    let at = ctx.now_us();
                    if receive(ctx, game, index, text.as_str(), at, views) {
                        return SocketEnd::Over;
                    }
                }
                Ok(Some(Ok(_))) => {}
            },
        }
    }
}

/// Handles one text message received at `at`; true if it shows the game over.
fn receive(
    ctx: &Ctx,
    game: &GameRecord,
    index: usize,
    text: &str,
    at: u32,
    views: Option<&watch::Sender<Option<Arc<View>>>>,
) -> bool {
    let stats = &ctx.stats;
    let Ok(envelope) = serde_json::from_str::<Envelope>(text) else {
        stats.bad_messages.inc();
        return false;
    };
    let view = match envelope.kind.as_deref() {
        Some("view") => match envelope.view {
            Some(view) => view,
            None => {
                stats.bad_messages.inc();
                return false;
            }
        },
        Some("heartbeat") => {
            stats.heartbeats.inc();
            if let (Some(version), Some(last)) = (envelope.version, game.last_version(index)) {
                if version > last {
                    stats.heartbeats_ahead.inc();
                }
            }
            return false;
        }
        Some(_) => {
            stats.other_messages.inc();
            return false;
        }
        None => match serde_json::from_str::<View>(text) {
            Ok(view) => view,
            Err(_) => {
                stats.bad_messages.inc();
                return false;
            }
        },
    };
    stats.views.inc();
    if view.moves.as_ref().is_some_and(|m| m.len() != view.ply) {
        stats.move_list_mismatches.inc();
    }
    if !game.observe(index, view.ply, view.version, at) {
        stats.out_of_order.inc();
    }
    let over = view.over();
    if let Some(views) = views {
        views.send_replace(Some(Arc::new(view)));
    }
    over
}

// ---------------------------------------------------------------------------------------------
// Clients.

/// Aborts a task when dropped.
#[derive(Debug)]
struct AbortOnDrop(JoinHandle<WatchEnd>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A player client: seat 0 (white) or 1 (black) of its table's games, game after game.
async fn player(ctx: Arc<Ctx>, table: Arc<Table>, seat: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut generation = 0;
    while let Some(assignment) = table.next_after(&ctx, generation).await {
        generation = assignment.generation;
        let Some(credential) = assignment.seats.get(seat).cloned().flatten() else {
            return;
        };
        match play_game(&ctx, &assignment.game, credential, &mut rng).await {
            WatchEnd::Over => table.advance(&ctx, generation).await,
            WatchEnd::Done | WatchEnd::GaveUp => return,
        }
    }
}

/// Newer views replace older ones; true if `view` moved the game on.
fn merge(latest: &mut Option<Arc<View>>, view: Arc<View>) -> bool {
    let progressed = match latest.as_deref() {
        None => true,
        Some(old) if old.superseded_by(&view) => {
            view.ply > old.ply || view.version > old.version || view.status != old.status
        }
        Some(_) => return false,
    };
    *latest = Some(view);
    progressed
}

/// Plays one game in `seat` until it is over or everything stops.
async fn play_game(
    ctx: &Arc<Ctx>,
    game: &Arc<GameRecord>,
    seat: Credential,
    rng: &mut StdRng,
) -> WatchEnd {
    let (sender, mut views) = watch::channel(None);
    let mut reader = AbortOnDrop(tokio::spawn(watch_socket(
        ctx.clone(),
        game.clone(),
        Some(seat.clone()),
        Some(sender),
    )));
    let end = play_moves(ctx, game, &seat, &mut views, rng).await;
    if end == WatchEnd::Over {
        // Let the socket see the end too (it is counted), within reason.
        let _ = timeout(SILENCE, &mut reader.0).await;
    }
    end
}

async fn play_moves(
    ctx: &Ctx,
    game: &GameRecord,
    seat: &Credential,
    views: &mut watch::Receiver<Option<Arc<View>>>,
    rng: &mut StdRng,
) -> WatchEnd {
    let mut phase = ctx.phase.subscribe();
    let mut latest: Option<Arc<View>> = None;
    // The ply for which this player last decided to move.
    let mut decided: Option<usize> = None;
    let mut socket_gone = false;
    let mut last_progress = Instant::now();
    let stall_after = SILENCE + Duration::from_millis(2 * ctx.think_ms);
    loop {
        if *phase.borrow_and_update() == Phase::Done {
            return WatchEnd::Done;
        }
        if let Some(view) = views.borrow_and_update().clone() {
            if merge(&mut latest, view) {
                last_progress = Instant::now();
            }
        }
        if let Some(view) = latest.clone() {
            if view.over() {
                return WatchEnd::Over;
            }
            if ctx.phase() == Phase::Run && view.my_turn() && decided != Some(view.ply) {
                decided = Some(view.ply);
                let think = if ctx.think_ms == 0 {
                    0
                } else {
                    rng.gen_range(0..=2 * ctx.think_ms)
                };
                if think > 0 {
                    tokio::select! {
                        () = sleep(Duration::from_millis(think)) => {}
                        _ = phase.wait_for(|p| *p >= Phase::Settle) => continue,
                    }
                }
                if let Some(newer) = views.borrow_and_update().clone() {
                    merge(&mut latest, newer);
                }
                match latest.clone() {
                    Some(now) if now.ply == view.ply && now.my_turn() => {
                        if ctx.phase() != Phase::Run {
                            continue;
                        }
                        if !post_move(ctx, game, seat, &now, &mut latest, rng).await {
                            decided = None;
                        }
                        last_progress = Instant::now();
                    }
                    _ => {}
                }
                continue;
            }
        }
        let wait = if socket_gone {
            Duration::from_secs(1)
        } else {
            stall_after
        };
        tokio::select! {
            changed = views.changed(), if !socket_gone => {
                if changed.is_err() {
                    socket_gone = true;
                }
            }
            () = sleep_until(last_progress + wait) => {
                let ongoing = latest.as_ref().is_some_and(|v| !v.over());
                if socket_gone || (ongoing && ctx.phase() == Phase::Run) {
                    if !socket_gone {
                        ctx.stats.stalls.inc();
                    }
                    if let Some(view) = get_view(ctx, &game.id, Some(seat), "view").await {
                        merge(&mut latest, Arc::new(view));
                    }
                }
                last_progress = Instant::now();
            }
            changed = phase.changed() => {
                if changed.is_err() {
                    return WatchEnd::Done;
                }
            }
        }
    }
}

/// Posts a random legal move in `view` (the newest one); false if the player should decide
/// again for the same ply (a refusal other than a stored move).
async fn post_move(
    ctx: &Ctx,
    game: &GameRecord,
    seat: &Credential,
    view: &View,
    latest: &mut Option<Arc<View>>,
    rng: &mut StdRng,
) -> bool {
    let mut choice = view.legal_moves.choose(rng).map(|m| m.text.clone());
    if choice.is_none() {
        if let Some(fresh) = get_view(ctx, &game.id, Some(seat), "view").await {
            choice = fresh.legal_moves.choose(rng).map(|m| m.text.clone());
            let fresh = Arc::new(fresh);
            if fresh.ply != view.ply {
                merge(latest, fresh);
                return true;
            }
            merge(latest, fresh);
        }
    }
    let Some(text) = choice else {
        ctx.stats.no_legal_moves.inc();
        sleep(Duration::from_secs(1)).await;
        return false;
    };
    let sent = ctx.now_us();
    let request = ctx
        .http
        .post(format!("{}/api/games/{}/moves", ctx.http_base, game.id));
    let request = match seat {
        Credential::Token(token) => request.json(&json!({"token": token, "move": text})),
        Credential::Session(cookie) => {
            session_request(ctx, request, cookie).json(&json!({"move": text}))
        }
    };
    let outcome = send(request).await;
    let answered = ctx.now_us();
    ctx.stats.http("move", &outcome);
    let pause = match outcome {
        Outcome::Reply(StatusCode::OK, body) => {
            ctx.stats.moves_acked.inc();
            lock(&ctx.stats.move_latency_us).push(answered.saturating_sub(sent));
            let ply = view.ply + 1;
            if !game.ack(ply, answered) {
                ctx.stats.ack_anomalies.inc();
            }
            match serde_json::from_slice::<View>(&body) {
                Ok(reply) => {
                    if reply.ply < ply {
                        ctx.stats.ack_anomalies.inc();
                    }
                    if reply.over() {
                        lock(&ctx.stats.end_move_latency_us).push(answered.saturating_sub(sent));
                    }
                    merge(latest, Arc::new(reply));
                }
                Err(_) => ctx.stats.bad_messages.inc(),
            }
            return true;
        }
        Outcome::Reply(StatusCode::CONFLICT, _) => Duration::from_millis(100),
        Outcome::Reply(StatusCode::UNPROCESSABLE_ENTITY, _) => Duration::ZERO,
        _ => Duration::from_secs(1),
    };
    if !pause.is_zero() {
        sleep(pause).await;
    }
    if let Some(fresh) = get_view(ctx, &game.id, Some(seat), "view").await {
        merge(latest, Arc::new(fresh));
    }
    false
}

/// A spectator (of a random players' game, or the one of a computer-vs-computer table).
async fn spectator(ctx: Arc<Ctx>, table: Arc<Table>) {
    let mut generation = 0;
    while let Some(assignment) = table.next_after(&ctx, generation).await {
        generation = assignment.generation;
        let end = watch_socket(ctx.clone(), assignment.game.clone(), None, None).await;
        if end == WatchEnd::Done {
            return;
        }
        if table.kind == Kind::ComputerComputer {
            table.advance(&ctx, generation).await;
        }
    }
}

/// An HTTP reader: a random game's view every 200 ms while the players move and settle.
async fn poller(ctx: Arc<Ctx>, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut phase = ctx.phase.subscribe();
    if phase.wait_for(|p| *p >= Phase::Run).await.is_err() {
        return;
    }
    // Spread the pollers over the interval.
    sleep(Duration::from_millis(rng.gen_range(0..200))).await;
    let mut ticks = tokio::time::interval(POLL_INTERVAL);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    while ctx.phase() != Phase::Done {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = phase.wait_for(|p| *p == Phase::Done) => return,
        }
        let Some(assignment) = ctx.tables.choose(&mut rng).and_then(|t| t.current()) else {
            continue;
        };
        let started = ctx.now_us();
        if get_view(&ctx, &assignment.game.id, None, "poll")
            .await
            .is_some()
        {
            lock(&ctx.stats.poll_latency_us).push(ctx.now_us().saturating_sub(started));
        }
    }
}

async fn health_prober(ctx: Arc<Ctx>) {
    let mut phase = ctx.phase.subscribe();
    let mut ticks = tokio::time::interval(HEALTH_INTERVAL);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    while ctx.phase() != Phase::Done {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = phase.wait_for(|p| *p == Phase::Done) => return,
        }
        let started = ctx.now_us();
        let outcome = send(
            ctx.http
                .get(format!("{}/api/health", ctx.http_base))
                .timeout(HEALTH_TIMEOUT),
        )
        .await;
        let took = ctx.now_us().saturating_sub(started);
        ctx.stats.http("health", &outcome);
        match outcome {
            Outcome::Reply(StatusCode::OK, _) => lock(&ctx.stats.health_latency_us).push(took),
            _ => ctx.stats.health_failures.inc(),
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct ProcSample {
    rss_kb: Option<u64>,
    threads: Option<u64>,
    fds: Option<u64>,
    cpu_ticks: Option<u64>,
}

/// Clock ticks per second of /proc/PID/stat's times (USER_HZ, 100 on Linux).
const TICKS_PER_SECOND: f64 = 100.0;

/// User + system CPU time (clock ticks) of a /proc/PID/stat text.
fn parse_proc_stat_ticks(text: &str) -> Option<u64> {
    // The command name, in parentheses, may hold spaces: count fields after its end. Field 3
    // (the state) comes first; utime and stime are fields 14 and 15.
    let (_, rest) = text.rsplit_once(')')?;
    let mut fields = rest.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

/// CPU seconds used so far by process `pid` ("self" for this one).
fn cpu_seconds(pid: &str) -> Option<f64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    #[allow(clippy::cast_precision_loss)]
    parse_proc_stat_ticks(&text).map(|ticks| ticks as f64 / TICKS_PER_SECOND)
}

/// `VmRSS` (kB) and `Threads` of a /proc/PID/status text.
fn parse_proc_status(text: &str) -> ProcSample {
    let field = |name: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
    };
    ProcSample {
        rss_kb: field("VmRSS:"),
        threads: field("Threads:"),
        fds: None,
        cpu_ticks: None,
    }
}

fn sample_process(pid: u32) -> Option<ProcSample> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let mut sample = parse_proc_status(&status);
    sample.fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .ok()
        .map(|entries| u64::try_from(entries.count()).unwrap_or(u64::MAX));
    sample.cpu_ticks = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|text| parse_proc_stat_ticks(&text));
    Some(sample)
}

async fn sampler(ctx: Arc<Ctx>, pid: u32) {
    let mut phase = ctx.phase.subscribe();
    let mut ticks = tokio::time::interval(SAMPLE_INTERVAL);
    while ctx.phase() != Phase::Done {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = phase.wait_for(|p| *p == Phase::Done) => return,
        }
        let Ok(Some(sample)) = tokio::task::spawn_blocking(move || sample_process(pid)).await
        else {
            continue;
        };
        let stats = &ctx.stats;
        stats.server_samples.inc();
        if let Some(rss) = sample.rss_kb {
            stats.server_rss_kb_max.max(rss);
        }
        if let Some(threads) = sample.threads {
            stats.server_threads_max.max(threads);
        }
        if let Some(fds) = sample.fds {
            stats.server_fds_max.max(fds);
        }
        if let Some(ticks) = sample.cpu_ticks {
            let mut cpu = lock(&stats.server_cpu_ticks);
            cpu.0.get_or_insert(ticks);
            cpu.1 = Some(ticks);
        }
    }
}

async fn progress(ctx: Arc<Ctx>) {
    let mut phase = ctx.phase.subscribe();
    let mut ticks = tokio::time::interval(PROGRESS_INTERVAL);
    ticks.tick().await;
    while ctx.phase() != Phase::Done {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = phase.wait_for(|p| *p == Phase::Done) => return,
        }
        let stats = &ctx.stats;
        let move_errors: u64 = lock(&stats.http)
            .get("move")
            .map(|m| m.iter().filter(|(k, _)| *k != "200").map(|(_, v)| v).sum())
            .unwrap_or(0);
        eprintln!(
            "loadtest {:>6.1}s {:<6} sockets {}/{}, games {}, moves acked {}, views {}, move refusals/errors {}",
            ctx.start.elapsed().as_secs_f64(),
            format!("{:?}", ctx.phase()).to_lowercase(),
            stats.sockets_open.get(),
            ctx.expected_sockets.get(),
            stats.games_created.get(),
            stats.moves_acked.get(),
            stats.views.get(),
            move_errors,
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The server.

/// The server under test: started here (and stopped at the end) or already running.
#[derive(Debug)]
struct Server {
    http_base: String,
    ws_base: String,
    pid: Option<u32>,
    database: String,
    spawned: Option<tokio::process::Child>,
    /// The temporary directory of the default database; removed when dropped (after the
    /// server is stopped).
    directory: Option<tempfile::TempDir>,
}

/// The `http://` and `ws://` bases of a URL whose host is a loopback address; an error for any
/// other.
fn loopback_bases(url: &str) -> Result<(String, String)> {
    let parsed = Url::parse(url).with_context(|| format!("cannot read the URL {url:?}"))?;
    if parsed.scheme() != "http" {
        bail!("{url}: only http:// URLs are supported");
    }
    let host = parsed.host_str().ok_or_else(|| anyhow!("{url}: no host"))?;
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let host = if bare.eq_ignore_ascii_case("localhost") {
        "127.0.0.1".to_string()
    } else {
        match bare.parse::<IpAddr>() {
            Ok(ip) if ip.is_loopback() => host.to_string(),
            _ => bail!(
                "{url}: the load test only targets this machine's loopback addresses \
                 (127.0.0.0/8, [::1], localhost)"
            ),
        }
    };
    if !matches!(parsed.path(), "" | "/") || parsed.query().is_some() {
        bail!("{url}: give the server's root (http://HOST:PORT)");
    }
    let port = parsed
        .port_or_known_default()
        .ok_or_else(|| anyhow!("{url}: no port"))?;
    Ok((
        format!("http://{host}:{port}"),
        format!("ws://{host}:{port}"),
    ))
}

fn database_kind(url: &str) -> &'static str {
    if url.starts_with("sqlite:") {
        "sqlite"
    } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        "postgres"
    } else {
        "unknown"
    }
}

impl Server {
    fn external(url: &str, pid: Option<u32>) -> Result<Server> {
        let (http_base, ws_base) = loopback_bases(url)?;
        Ok(Server {
            http_base,
            ws_base,
            pid,
            database: "unknown (running server)".to_string(),
            spawned: None,
            directory: None,
        })
    }

    async fn start(args: &LoadtestArgs) -> Result<Server> {
        let exe =
            std::env::current_exe().context("cannot find this program to start the server")?;
        let (database, directory, label) = match &args.database {
            Some(url) => (url.clone(), None, database_kind(url).to_string()),
            None => {
                let directory = tempfile::Builder::new()
                    .prefix("denkmeter-loadtest-")
                    .tempdir()
                    .context("cannot make a temporary directory")?;
                let path = directory.path().join("loadtest.db");
                // An empty file is an empty SQLite database: older servers, which do not create
                // a missing file, open it too.
                std::fs::File::create(&path)
                    .with_context(|| format!("cannot create {}", path.display()))?;
                let path = path
                    .to_str()
                    .ok_or_else(|| anyhow!("the temporary directory's path is not UTF-8"))?;
                (
                    format!("sqlite://{path}"),
                    Some(directory),
                    "sqlite (temporary file)".to_string(),
                )
            }
        };
        let mut command = tokio::process::Command::new(exe);
        command.args([
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--database",
            &database,
            "--games-per-minute",
            "0",
            "--moves-per-second",
            "0",
            // Every client of the load test has the same address.
            "--max-connections-per-address",
            "0",
        ]);
        if args.rated {
            command.args(["--sign-ins-per-minute", "0"]);
        }
        if let Some(threads) = args.search_threads {
            command.arg("--search-threads").arg(threads.to_string());
        }
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let mut child = command.spawn().context("cannot start the server")?;
        let pid = child.id();
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(stderr) = child.stderr.take() {
            let pass = args.server_log;
            let tail = tail.clone();
            tokio::spawn(async move {
                let mut lines = BufReader::new(stderr).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    if pass {
                        eprintln!("{line}");
                    } else {
                        let mut tail = lock(&tail);
                        if tail.len() == 20 {
                            tail.pop_front();
                        }
                        tail.push_back(line);
                    }
                }
            });
        }
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| anyhow!("the server's output is not readable"))?;
        let mut lines = BufReader::new(stdout).lines();
        let ready = timeout(SERVER_START_TIMEOUT, async {
            while let Some(line) = lines.next_line().await? {
                if let Some((_, url)) = line.split_once("serves on ") {
                    return Ok(Some(url.trim().to_string()));
                }
            }
            Ok::<_, std::io::Error>(None)
        })
        .await;
        let failure = match ready {
            Ok(Ok(Some(url))) => {
                // Keep reading (and dropping) the server's standard output.
                tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
                let (http_base, ws_base) = loopback_bases(&url)?;
                return Ok(Server {
                    http_base,
                    ws_base,
                    pid,
                    database: label,
                    spawned: Some(child),
                    directory,
                });
            }
            Ok(Ok(None)) => {
                let status = timeout(Duration::from_secs(5), child.wait()).await;
                match status {
                    Ok(Ok(status)) => format!("the server exited ({status}) before it was ready"),
                    _ => "the server closed its output before it was ready".to_string(),
                }
            }
            Ok(Err(error)) => format!("cannot read the server's output: {error}"),
            Err(_) => format!(
                "the server was not ready within {} s",
                SERVER_START_TIMEOUT.as_secs()
            ),
        };
        let _ = child.start_kill();
        let _ = timeout(Duration::from_secs(5), child.wait()).await;
        // Give the log reader a moment to catch the last lines.
        sleep(Duration::from_millis(100)).await;
        let tail: Vec<String> = lock(&tail).iter().cloned().collect();
        let mut message = failure;
        if !tail.is_empty() {
            message.push_str(":\n  ");
            message.push_str(&tail.join("\n  "));
        }
        message.push_str(
            "\n(a server that does not know --games-per-minute, --moves-per-second, \
             --max-connections-per-address, --sign-ins-per-minute or --search-threads can be \
             started by hand and tested with --url)",
        );
        Err(anyhow!(message))
    }

    async fn stop(&mut self) {
        if let Some(mut child) = self.spawned.take() {
            let _ = child.start_kill();
            let _ = timeout(Duration::from_secs(5), child.wait()).await;
        }
        // Only now may the temporary database go.
        self.directory.take();
    }
}

// ---------------------------------------------------------------------------------------------
// The run.

#[derive(Debug, Clone, PartialEq, Eq)]
enum End {
    Complete,
    Deadline,
    Interrupted,
}

async fn run_async(args: &LoadtestArgs, plan: &Plan, open_files: Option<u64>) -> Result<Report> {
    let deadline =
        Instant::now() + Duration::from_secs(args.duration + args.settle) + DEADLINE_MARGIN;
    let mut warnings = plan.notes.clone();
    let needed = plan.files_needed();
    match open_files {
        Some(limit) if limit < needed => {
            let players = u64::try_from(args.clients).unwrap_or(u64::MAX);
            let line = format!(
                "WARNING: the open-file limit is {limit}, below the ~{needed} this run needs{}: \
                 connections will fail (raise the hard limit, e.g. `ulimit -Hn`, as root)",
                if players > limit {
                    format!(" (--clients {players} alone is over it)")
                } else {
                    String::new()
                }
            );
            eprintln!("loadtest: {line}");
            warnings.push(line);
        }
        Some(_) => {}
        None => warnings.push("the open-file limit is unknown".to_string()),
    }
    let mut server = match &args.url {
        Some(url) => Server::external(url, args.server_pid)?,
        None => {
            eprintln!("loadtest: starting the server");
            Server::start(args).await?
        }
    };
    eprintln!("loadtest: server at {}", server.http_base);
    let result = tokio::select! {
        result = drive(args, plan, &server, deadline, open_files, warnings) => result,
        () = sleep_until(deadline + Duration::from_secs(30)) => {
            Err(anyhow!("the load test did not end by its deadline"))
        }
    };
    server.stop().await;
    result
}

async fn wait_healthy(http: &reqwest::Client, base: &str) -> Result<()> {
    let started = Instant::now();
    loop {
        let outcome = send(http.get(format!("{base}/api/health"))).await;
        match outcome {
            Outcome::Reply(StatusCode::OK, _) => return Ok(()),
            _ if started.elapsed() > Duration::from_secs(10) => {
                bail!(
                    "{base}/api/health does not answer 200 ({})",
                    outcome.label()
                )
            }
            _ => sleep(Duration::from_millis(200)).await,
        }
    }
}

async fn drive(
    args: &LoadtestArgs,
    plan: &Plan,
    server: &Server,
    deadline: Instant,
    open_files: Option<u64>,
    warnings: Vec<String>,
) -> Result<Report> {
    let http = reqwest::Client::builder()
        .no_proxy()
        .timeout(REQUEST_TIMEOUT)
        .connect_timeout(Duration::from_secs(5))
        .pool_max_idle_per_host(10_000)
        .tcp_nodelay(true)
        .build()
        .context("cannot make the HTTP client")?;
    wait_healthy(&http, &server.http_base).await?;
    let mut rng = StdRng::from_entropy();
    let ctx = Arc::new(Ctx {
        http_base: server.http_base.clone(),
        ws_base: server.ws_base.clone(),
        http,
        start: Instant::now(),
        phase: watch::Sender::new(Phase::Setup),
        stats: Stats::default(),
        tables: plan.tables(),
        games: Mutex::new(Vec::new()),
        finals: Mutex::new(HashMap::new()),
        accounts: Mutex::new(AccountChecks::default()),
        clock: Mutex::new(Clock::default()),
        expected_sockets: Counter::default(),
        connect_slots: Semaphore::new(CONNECTS_AT_ONCE),
        ruleset: args.ruleset.clone(),
        computer_level: args.computer_level,
        cvc_level: args.cvc_level,
        think_ms: args.think_ms,
        rated: args.rated,
        players_clock: args.clock()?,
        account_prefix: format!("Load{}", random_letters(&mut rng, 6)),
        password: format!("pw-{}", random_letters(&mut rng, 16)),
        own_cpu_start: cpu_seconds("self"),
    });
    let mut tasks = JoinSet::new();
    tasks.spawn(health_prober(ctx.clone()));
    if let Some(pid) = server.pid {
        tasks.spawn(sampler(ctx.clone(), pid));
    }
    tasks.spawn(progress(ctx.clone()));
    let mut warnings = warnings;
    let end = tokio::select! {
        result = scenario(&ctx, &mut tasks, args, plan, &mut warnings) => {
            if let Err(error) = result {
                ctx.set_phase(Phase::Done);
                tasks.abort_all();
                return Err(error);
            }
            End::Complete
        }
        () = sleep_until(deadline) => End::Deadline,
        _ = tokio::signal::ctrl_c() => End::Interrupted,
    };
    {
        let mut clock = lock(&ctx.clock);
        if clock.run_started.is_some() && clock.run_ended.is_none() {
            clock.run_ended = Some(Instant::now());
        }
    }
    ctx.set_phase(Phase::Done);
    let _ = timeout(Duration::from_secs(3), async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    tasks.abort_all();
    match end {
        End::Complete => {}
        End::Deadline => warnings.push(
            "the overall deadline passed: the report covers what was measured until then"
                .to_string(),
        ),
        End::Interrupted => {
            warnings.push("interrupted: the report covers what was measured until then".into());
        }
    }
    Ok(Report::build(
        &ctx, args, plan, server, open_files, end, warnings,
    ))
}

/// `count` random lowercase letters.
fn random_letters(rng: &mut StdRng, count: usize) -> String {
    (0..count)
        .map(|_| char::from(b'a' + rng.gen_range(0..26u8)))
        .collect()
}

/// Creates the games, opens the sockets, lets the players move, settles and fetches the final
/// views.
async fn scenario(
    ctx: &Arc<Ctx>,
    tasks: &mut JoinSet<()>,
    args: &LoadtestArgs,
    plan: &Plan,
    warnings: &mut Vec<String>,
) -> Result<()> {
    let started = Instant::now();
    if ctx.rated {
        eprintln!("loadtest: signing up the players' accounts");
    }
    let setup_timeout = if ctx.rated {
        RATED_SETUP_TIMEOUT
    } else {
        SETUP_TIMEOUT
    };
    let creating = futures_util::stream::iter(ctx.tables.iter().cloned())
        .map(|table| {
            let ctx = ctx.clone();
            async move { table.advance(&ctx, 0).await }
        })
        .buffer_unordered(16)
        .for_each(|()| async {});
    if timeout(setup_timeout, creating).await.is_err() {
        warnings.push(format!(
            "creating the games was cut off after {} s (a rate limit?)",
            setup_timeout.as_secs()
        ));
    }
    let with_game = ctx.tables.iter().filter(|t| t.current().is_some()).count();
    if with_game == 0 {
        let statuses = format!("{:?}", lock(&ctx.stats.http));
        bail!(
            "no game could be created (ruleset {:?}; the server answered {statuses})",
            args.ruleset
        );
    }
    if with_game < ctx.tables.len() {
        warnings.push(format!(
            "{} of {} tables got no game: their clients stay idle",
            ctx.tables.len() - with_game,
            ctx.tables.len()
        ));
    }
    eprintln!(
        "loadtest: {with_game} games created in {:.1} s; opening the sockets",
        started.elapsed().as_secs_f64()
    );

    let mut master = StdRng::from_entropy();
    let mut expected = 0u64;
    let mut player_tables = Vec::new();
    for table in &ctx.tables {
        let has_game = table.current().is_some();
        let seats = table.player_seats();
        if table.kind == Kind::ComputerComputer {
            tasks.spawn(spectator(ctx.clone(), table.clone()));
            expected += u64::from(has_game);
        } else {
            player_tables.push(table.clone());
        }
        for &seat in seats {
            tasks.spawn(player(ctx.clone(), table.clone(), seat, master.gen()));
            expected += u64::from(has_game);
        }
    }
    let watchable = if player_tables.is_empty() {
        ctx.tables.clone()
    } else {
        player_tables
    };
    for _ in 0..plan.spectators {
        if let Some(table) = watchable.choose(&mut master) {
            expected += u64::from(table.current().is_some());
            tasks.spawn(spectator(ctx.clone(), table.clone()));
        }
    }
    ctx.expected_sockets.max(expected);
    let connecting = Instant::now();
    while ctx.stats.first_connects.get() < expected && connecting.elapsed() < SETUP_TIMEOUT {
        sleep(Duration::from_millis(50)).await;
    }
    let connected = ctx.stats.sockets_open.get();
    eprintln!(
        "loadtest: {connected} of {expected} sockets open after {:.1} s; players move for {} s",
        connecting.elapsed().as_secs_f64(),
        args.duration
    );
    if connected < expected {
        warnings.push(format!(
            "only {connected} of {expected} sockets were open when the players started"
        ));
    }

    lock(&ctx.clock).run_started = Some(Instant::now());
    ctx.set_phase(Phase::Run);
    for _ in 0..plan.pollers {
        tasks.spawn(poller(ctx.clone(), master.gen()));
    }
    sleep(Duration::from_secs(args.duration)).await;
    lock(&ctx.clock).run_ended = Some(Instant::now());
    ctx.set_phase(Phase::Settle);
    eprintln!("loadtest: settling for {} s", args.settle);
    sleep(Duration::from_secs(args.settle)).await;

    // The final views, while the sockets are still open; then a moment for views on their way.
    let games: Vec<Arc<GameRecord>> = lock(&ctx.games).clone();
    eprintln!(
        "loadtest: fetching the final views of {} games",
        games.len()
    );
    futures_util::stream::iter(games)
        .map(|game| {
            let ctx = ctx.clone();
            async move {
                if let Some(view) = get_view(&ctx, &game.id, None, "final").await {
                    lock(&ctx.finals).insert(
                        game.id.clone(),
                        Final {
                            ply: view.ply,
                            version: view.version,
                            over: view.over(),
                            rated: view.rated,
                            rating_changes: view.rating_changes(),
                        },
                    );
                }
            }
        })
        .buffer_unordered(32)
        .for_each(|()| async {})
        .await;
    if ctx.rated {
        check_accounts(ctx).await;
    }
    sleep(FINAL_GRACE).await;
    Ok(())
}

/// Compares each account's rated games on its page with the rated games the final views show
/// it finished: a result rated twice, or not at all, shows as a mismatch.
async fn check_accounts(ctx: &Arc<Ctx>) {
    let mut expected: BTreeMap<String, Option<u64>> = BTreeMap::new();
    {
        let finals = lock(&ctx.finals);
        for game in lock(&ctx.games).iter() {
            let last = finals.get(&game.id);
            for name in &game.accounts {
                let count = expected.entry(name.clone()).or_insert(Some(0));
                match last {
                    // Without the game's final view the account cannot be judged.
                    None => *count = None,
                    Some(last) if last.over && last.rated && last.rating_changes > 0 => {
                        *count = count.map(|n| n + 1);
                    }
                    Some(_) => {}
                }
            }
        }
    }
    eprintln!(
        "loadtest: checking the pages of {} accounts",
        expected.len()
    );
    let judged: Vec<(String, u64)> = expected
        .into_iter()
        .filter_map(|(name, count)| count.map(|n| (name, n)))
        .collect();
    futures_util::stream::iter(judged)
        .map(|(name, count)| {
            let ctx = ctx.clone();
            async move {
                let outcome = send(
                    ctx.http
                        .get(format!("{}/api/players/{name}", ctx.http_base)),
                )
                .await;
                ctx.stats.http("player", &outcome);
                let page = match outcome {
                    Outcome::Reply(StatusCode::OK, body) => {
                        serde_json::from_slice::<PlayerPage>(&body).ok()
                    }
                    _ => None,
                };
                let mut checks = lock(&ctx.accounts);
                match page {
                    Some(page) => {
                        checks.checked += 1;
                        let rated: u64 = page.ratings.iter().map(|r| r.games).sum();
                        checks.rated_games += rated;
                        if rated != count {
                            checks.mismatches += 1;
                        }
                    }
                    None => checks.unreadable += 1,
                }
            }
        })
        .buffer_unordered(32)
        .for_each(|()| async {})
        .await;
}

// ---------------------------------------------------------------------------------------------
// The report.

/// The value at quantile `q` (nearest rank) of sorted values.
fn percentile(sorted: &[u32], q: f64) -> Option<u32> {
    if sorted.is_empty() {
        return None;
    }
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.clamp(1, sorted.len()) - 1).copied()
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
struct Summary {
    count: usize,
    p50: Option<f64>,
    p99: Option<f64>,
    max: Option<f64>,
}

impl Summary {
    /// Percentiles of microsecond samples, in milliseconds.
    fn of_micros(mut samples: Vec<u32>) -> Summary {
        samples.sort_unstable();
        let ms = |v: Option<u32>| v.map(|us| f64::from(us) / 1000.0);
        Summary {
            count: samples.len(),
            p50: ms(percentile(&samples, 0.50)),
            p99: ms(percentile(&samples, 0.99)),
            max: ms(samples.last().copied()),
        }
    }

    fn text(&self) -> String {
        let ms = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
        format!(
            "p50 {}  p99 {}  max {}  (n={})",
            ms(self.p50),
            ms(self.p99),
            ms(self.max),
            self.count
        )
    }
}

#[derive(Debug, Serialize)]
struct Report {
    server: String,
    server_started_here: bool,
    database: String,
    ruleset: String,
    clients: usize,
    clients_vs_computer: usize,
    computer_level: u8,
    human_games: usize,
    spectators: usize,
    pollers: usize,
    cvc_games: usize,
    cvc_level: u8,
    think_ms: u64,
    rated: bool,
    /// MAIN+INC seconds, if the players' games are timed.
    clock: Option<String>,
    duration_s: f64,
    settle_s: u64,
    ended: &'static str,
    games_created: u64,
    games_finished: u64,
    rated_games_finished: u64,
    rated_ends_without_change: u64,
    /// A rated run's accounts, checked against their pages at the end.
    accounts: AccountChecks,
    games_unchecked: usize,
    moves_acknowledged: u64,
    computer_moves_seen: u64,
    unacknowledged_human_moves: u64,
    moves_stored: u64,
    moves_per_second: f64,
    move_latency_ms: Summary,
    /// Of the moves that ended their game (and rated it, in a rated game).
    end_move_latency_ms: Summary,
    delivery_latency_ms: Summary,
    deliveries_before_ack: u64,
    /// The computer's replies, from the ack of the person's move to the reply's view.
    computer_reply_ms: Summary,
    views_received: u64,
    heartbeats: u64,
    heartbeats_ahead_of_view: u64,
    other_messages: u64,
    bad_messages: u64,
    move_list_mismatches: u64,
    watchers_checked: u64,
    watchers_without_view: u64,
    lost_pairs: u64,
    stale_watchers: u64,
    silent_socket_events: u64,
    stalled_player_refetches: u64,
    out_of_order_views: u64,
    socket_drops: u64,
    connect_failures: u64,
    sockets_given_up: u64,
    sockets_open_max: u64,
    tables_given_up: u64,
    ack_anomalies: u64,
    turns_without_legal_moves: u64,
    http: BTreeMap<&'static str, BTreeMap<String, u64>>,
    health_ms: Summary,
    health_failures: u64,
    poll_ms: Summary,
    server_max_rss_mb: Option<f64>,
    server_max_threads: Option<u64>,
    server_max_fds: Option<u64>,
    /// CPU seconds the server used between the first and the last sample.
    server_cpu_s: Option<f64>,
    /// CPU seconds this load test used, and the time it ran (from the first request).
    loadtest_cpu_s: Option<f64>,
    elapsed_s: f64,
    open_file_limit: Option<u64>,
    warnings: Vec<String>,
}

/// What the final views say about the watchers.
#[derive(Debug, Default)]
struct Checks {
    games_finished: u64,
    rated_games_finished: u64,
    /// Rated games over after two moves or more without a rating change for each account.
    rated_ends_without_change: u64,
    games_unchecked: usize,
    moves_stored: u64,
    computer_moves: u64,
    unacked_human_moves: u64,
    watchers_checked: u64,
    watchers_without_view: u64,
    lost: u64,
    stale: u64,
    early: u64,
    delivery_us: Vec<u32>,
    /// In games against the computer: from the ack of the person's move to the first view with
    /// the computer's reply, at the person's own socket.
    reply_us: Vec<u32>,
}

impl Checks {
    fn game(&mut self, game: &GameRecord, last: Option<Final>) {
        let state = lock(&game.state);
        // Without a final view (the run was cut short), the moves some watcher saw count as
        // stored, for latency; losses and staleness are not judged.
        let stored = match last {
            Some(last) => last.ply,
            None => {
                self.games_unchecked += 1;
                state
                    .watchers
                    .iter()
                    .map(|w| w.seen.len())
                    .max()
                    .unwrap_or(0)
            }
        };
        if let Some(last) = last.filter(|l| l.over) {
            self.games_finished += 1;
            if last.rated {
                self.rated_games_finished += 1;
                if last.rating_changes < game.accounts.len() && last.ply >= 2 {
                    self.rated_ends_without_change += 1;
                }
            }
        }
        self.moves_stored += u64::try_from(stored).unwrap_or(0);
        let acked = state
            .acks
            .iter()
            .take(stored)
            .filter(|a| a.is_some())
            .count();
        let unacked = u64::try_from(stored - acked).unwrap_or(0);
        if game.kind == Kind::HumanHuman {
            self.unacked_human_moves += unacked;
        } else {
            self.computer_moves += unacked;
        }
        if game.kind == Kind::HumanComputer {
            // The person's socket is the game's first watcher.
            if let Some(own) = state.watchers.iter().find(|w| w.base.is_some()) {
                let base = own.base.unwrap_or(0);
                for ply in (base + 2)..=stored.min(own.seen.len()) {
                    let acked = |p: usize| state.acks.get(p - 1).copied().flatten();
                    if let (None, Some(person)) = (acked(ply), acked(ply - 1)) {
                        self.reply_us.push(own.seen[ply - 1].saturating_sub(person));
                    }
                }
            }
        }
        for watcher in &state.watchers {
            if last.is_some() {
                self.watchers_checked += 1;
            }
            let Some(base) = watcher.base else {
                if last.is_some() {
                    self.watchers_without_view += 1;
                    self.stale += 1;
                }
                continue;
            };
            let got = watcher.seen.len();
            if let Some(last) = last {
                self.lost += u64::try_from(stored.saturating_sub(got)).unwrap_or(0);
                let stale = match (watcher.last_version, last.version) {
                    (Some(mine), Some(last)) => mine < last,
                    _ => got < stored,
                };
                self.stale += u64::from(stale);
            }
            for ply in (base + 1)..=stored.min(got) {
                if let (Some(Some(ack)), Some(&seen)) =
                    (state.acks.get(ply - 1), watcher.seen.get(ply - 1))
                {
                    if seen < *ack {
                        self.early += 1;
                    }
                    self.delivery_us.push(seen.saturating_sub(*ack));
                }
            }
        }
    }
}

impl Report {
    fn build(
        ctx: &Ctx,
        args: &LoadtestArgs,
        plan: &Plan,
        server: &Server,
        open_files: Option<u64>,
        end: End,
        warnings: Vec<String>,
    ) -> Report {
        let stats = &ctx.stats;
        let mut checks = Checks::default();
        {
            let finals = lock(&ctx.finals);
            for game in lock(&ctx.games).iter() {
                checks.game(game, finals.get(&game.id).copied());
            }
        }
        let duration_s = {
            let clock = lock(&ctx.clock);
            match (clock.run_started, clock.run_ended) {
                (Some(start), Some(end)) => (end - start).as_secs_f64(),
                _ => 0.0,
            }
        };
        #[allow(clippy::cast_precision_loss)]
        let moves_per_second = if duration_s > 0.0 {
            checks.moves_stored as f64 / duration_s
        } else {
            0.0
        };
        let sampled = stats.server_samples.get() > 0;
        let nonzero = |v: u64| (sampled && v > 0).then_some(v);
        #[allow(clippy::cast_precision_loss)]
        let rss_mb = nonzero(stats.server_rss_kb_max.get()).map(|kb| kb as f64 / 1024.0);
        #[allow(clippy::cast_precision_loss)]
        let server_cpu = match *lock(&stats.server_cpu_ticks) {
            (Some(first), Some(last)) => Some(last.saturating_sub(first) as f64 / TICKS_PER_SECOND),
            _ => None,
        };
        let mut warnings = warnings;
        if server.pid.is_none() {
            warnings.push(
                "the server's memory, threads and open files are unknown (give --server-pid)"
                    .to_string(),
            );
        }
        if checks.games_unchecked > 0 {
            warnings.push(format!(
                "{} games have no final view: they are not checked for losses",
                checks.games_unchecked
            ));
        }
        Report {
            server: server.http_base.clone(),
            server_started_here: server.spawned.is_some(),
            database: server.database.clone(),
            ruleset: args.ruleset.clone(),
            clients: plan.clients_vs_computer + 2 * plan.human_games,
            clients_vs_computer: plan.clients_vs_computer,
            computer_level: args.computer_level,
            human_games: plan.human_games,
            spectators: plan.spectators,
            pollers: plan.pollers,
            cvc_games: plan.cvc_games,
            cvc_level: args.cvc_level,
            think_ms: args.think_ms,
            rated: args.rated,
            clock: ctx.players_clock.map(|(main, inc)| format!("{main}+{inc}")),
            duration_s,
            settle_s: args.settle,
            ended: match end {
                End::Complete => "complete",
                End::Deadline => "deadline",
                End::Interrupted => "interrupted",
            },
            games_created: stats.games_created.get(),
            games_finished: checks.games_finished,
            rated_games_finished: checks.rated_games_finished,
            rated_ends_without_change: checks.rated_ends_without_change,
            accounts: *lock(&ctx.accounts),
            games_unchecked: checks.games_unchecked,
            moves_acknowledged: stats.moves_acked.get(),
            computer_moves_seen: checks.computer_moves,
            unacknowledged_human_moves: checks.unacked_human_moves,
            moves_stored: checks.moves_stored,
            moves_per_second,
            move_latency_ms: Summary::of_micros(lock(&stats.move_latency_us).clone()),
            end_move_latency_ms: Summary::of_micros(lock(&stats.end_move_latency_us).clone()),
            delivery_latency_ms: Summary::of_micros(std::mem::take(&mut checks.delivery_us)),
            deliveries_before_ack: checks.early,
            computer_reply_ms: Summary::of_micros(std::mem::take(&mut checks.reply_us)),
            views_received: stats.views.get(),
            heartbeats: stats.heartbeats.get(),
            heartbeats_ahead_of_view: stats.heartbeats_ahead.get(),
            other_messages: stats.other_messages.get(),
            bad_messages: stats.bad_messages.get(),
            move_list_mismatches: stats.move_list_mismatches.get(),
            watchers_checked: checks.watchers_checked,
            watchers_without_view: checks.watchers_without_view,
            lost_pairs: checks.lost,
            stale_watchers: checks.stale,
            silent_socket_events: stats.silent_sockets.get(),
            stalled_player_refetches: stats.stalls.get(),
            out_of_order_views: stats.out_of_order.get(),
            socket_drops: stats.socket_drops.get(),
            connect_failures: stats.connect_failures.get(),
            sockets_given_up: stats.sockets_given_up.get(),
            sockets_open_max: stats.sockets_open_max.get(),
            tables_given_up: stats.tables_given_up.get(),
            ack_anomalies: stats.ack_anomalies.get(),
            turns_without_legal_moves: stats.no_legal_moves.get(),
            http: lock(&stats.http).clone(),
            health_ms: Summary::of_micros(lock(&stats.health_latency_us).clone()),
            health_failures: stats.health_failures.get(),
            poll_ms: Summary::of_micros(lock(&stats.poll_latency_us).clone()),
            server_max_rss_mb: rss_mb,
            server_max_threads: nonzero(stats.server_threads_max.get()),
            server_max_fds: nonzero(stats.server_fds_max.get()),
            server_cpu_s: server_cpu,
            loadtest_cpu_s: cpu_seconds("self")
                .zip(ctx.own_cpu_start)
                .map(|(now, then)| now - then),
            elapsed_s: ctx.start.elapsed().as_secs_f64(),
            open_file_limit: open_files,
            warnings,
        }
    }

    fn lost_stale_line(&self) -> Option<String> {
        (self.lost_pairs > 0 || self.stale_watchers > 0).then(|| {
            format!(
                "LOST/STALE: {} (watcher, move) pairs lost, {} of {} watchers stale",
                self.lost_pairs, self.stale_watchers, self.watchers_checked
            )
        })
    }

    fn print_table(&self) {
        let unknown = || "unknown".to_string();
        let rows: Vec<(&str, String)> = vec![
            (
                "server",
                format!(
                    "{} ({}), database {}",
                    self.server,
                    if self.server_started_here {
                        "started here"
                    } else {
                        "running"
                    },
                    self.database
                ),
            ),
            (
                "clients",
                format!(
                    "{} ({} vs computer level {}, {} in {} human games)",
                    self.clients,
                    self.clients_vs_computer,
                    self.computer_level,
                    2 * self.human_games,
                    self.human_games
                ),
            ),
            ("spectators", self.spectators.to_string()),
            ("pollers", self.pollers.to_string()),
            (
                "cvc games",
                format!("{} (level {})", self.cvc_games, self.cvc_level),
            ),
            (
                "ruleset, think",
                format!(
                    "{}, mean {} ms, {}, {}",
                    self.ruleset,
                    self.think_ms,
                    self.clock
                        .as_deref()
                        .map_or("untimed".to_string(), |c| format!("clock {c}")),
                    if self.rated { "rated" } else { "unrated" }
                ),
            ),
            (
                "duration",
                format!(
                    "{:.1} s of moves + {} s settle ({})",
                    self.duration_s, self.settle_s, self.ended
                ),
            ),
            (
                "games",
                format!(
                    "{} created, {} finished{}",
                    self.games_created,
                    self.games_finished,
                    if self.games_unchecked > 0 {
                        format!(", {} unchecked", self.games_unchecked)
                    } else {
                        String::new()
                    }
                ),
            ),
            ("moves acknowledged", self.moves_acknowledged.to_string()),
            ("computer moves seen", self.computer_moves_seen.to_string()),
            (
                "moves stored",
                format!(
                    "{} ({:.1}/s over the duration)",
                    self.moves_stored, self.moves_per_second
                ),
            ),
            ("move latency ms", self.move_latency_ms.text()),
            ("game-ending move ms", self.end_move_latency_ms.text()),
            ("computer reply ms", self.computer_reply_ms.text()),
            (
                "delivery latency ms",
                format!(
                    "{}, {} before the ack",
                    self.delivery_latency_ms.text(),
                    self.deliveries_before_ack
                ),
            ),
            (
                "messages",
                format!(
                    "{} views, {} heartbeats ({} ahead of the view), {} other, {} unreadable",
                    self.views_received,
                    self.heartbeats,
                    self.heartbeats_ahead_of_view,
                    self.other_messages,
                    self.bad_messages
                ),
            ),
            ("lost (watcher, move)", self.lost_pairs.to_string()),
            (
                "stale watchers",
                format!(
                    "{} of {} ({} never got a view)",
                    self.stale_watchers, self.watchers_checked, self.watchers_without_view
                ),
            ),
            (
                "silent sockets",
                format!(
                    "{} (stalled players re-fetched: {})",
                    self.silent_socket_events, self.stalled_player_refetches
                ),
            ),
            ("out-of-order views", self.out_of_order_views.to_string()),
            (
                "sockets",
                format!(
                    "max {} open, {} dropped, {} connect failures, {} given up",
                    self.sockets_open_max,
                    self.socket_drops,
                    self.connect_failures,
                    self.sockets_given_up
                ),
            ),
            (
                "anomalies",
                format!(
                    "{} acks, {} move-list lengths, {} turns without legal moves, {} tables given up",
                    self.ack_anomalies,
                    self.move_list_mismatches,
                    self.turns_without_legal_moves,
                    self.tables_given_up
                ),
            ),
        ];
        let mut rows = rows;
        if self.rated {
            rows.push((
                "rated games",
                format!(
                    "{} finished, {} without a rating change for each account",
                    self.rated_games_finished, self.rated_ends_without_change
                ),
            ));
            rows.push((
                "accounts' pages",
                format!(
                    "{} read ({} rated games), {} disagree with the games, {} unreadable",
                    self.accounts.checked,
                    self.accounts.rated_games,
                    self.accounts.mismatches,
                    self.accounts.unreadable
                ),
            ));
        }
        for (what, counts) in &self.http {
            let text = counts
                .iter()
                .map(|(status, n)| format!("{status}: {n}"))
                .collect::<Vec<_>>()
                .join(", ");
            rows.push(("http", format!("{what:<14} {text}")));
        }
        rows.push((
            "health ms",
            format!("{}, {} failed", self.health_ms.text(), self.health_failures),
        ));
        if self.pollers > 0 {
            rows.push(("poll ms", self.poll_ms.text()));
        }
        rows.push((
            "server",
            format!(
                "max RSS {}, max threads {}, max fds {}",
                self.server_max_rss_mb
                    .map_or_else(unknown, |mb| format!("{mb:.1} MB")),
                self.server_max_threads
                    .map_or_else(unknown, |n| n.to_string()),
                self.server_max_fds.map_or_else(unknown, |n| n.to_string()),
            ),
        ));
        let seconds = |v: Option<f64>| v.map_or_else(unknown, |s| format!("{s:.1}"));
        rows.push((
            "cpu seconds",
            format!(
                "server {}, loadtest {} (in {:.1} s)",
                seconds(self.server_cpu_s),
                seconds(self.loadtest_cpu_s),
                self.elapsed_s
            ),
        ));
        rows.push((
            "open-file limit",
            self.open_file_limit.map_or_else(unknown, |n| n.to_string()),
        ));
        for (label, value) in rows {
            outln!("{label:<22} {value}");
        }
        for warning in &self.warnings {
            outln!("note: {warning}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        let values: Vec<u32> = (1..=100).collect();
        assert_eq!(percentile(&values, 0.5), Some(50));
        assert_eq!(percentile(&values, 0.99), Some(99));
        assert_eq!(percentile(&values, 1.0), Some(100));
        assert_eq!(percentile(&values, 0.0), Some(1));
        assert_eq!(percentile(&[7], 0.99), Some(7));
        assert_eq!(percentile(&[], 0.5), None);
        let summary = Summary::of_micros(vec![3000, 1000, 2000]);
        assert_eq!(summary.count, 3);
        assert_eq!(summary.p50, Some(2.0));
        assert_eq!(summary.max, Some(3.0));
    }

    #[test]
    fn only_loopback_urls() -> Result<()> {
        assert_eq!(
            loopback_bases("http://127.0.0.1:8099")?,
            (
                "http://127.0.0.1:8099".to_string(),
                "ws://127.0.0.1:8099".to_string()
            )
        );
        assert_eq!(
            loopback_bases("http://127.1.2.3:80/")?.0,
            "http://127.1.2.3:80"
        );
        assert_eq!(loopback_bases("http://[::1]:8080")?.1, "ws://[::1]:8080");
        assert_eq!(
            loopback_bases("http://localhost:8080")?.0,
            "http://127.0.0.1:8080"
        );
        assert_eq!(loopback_bases("http://LOCALHOST")?.0, "http://127.0.0.1:80");
        for refused in [
            "http://10.0.0.1:8080",
            "http://192.168.1.2",
            "http://example.com",
            "http://0.0.0.0:8080",
            "http://[::]:8080",
            "https://127.0.0.1:8443",
            "http://127.0.0.1:8080/api",
            "127.0.0.1:8080",
        ] {
            assert!(loopback_bases(refused).is_err(), "{refused}");
        }
        Ok(())
    }

    #[test]
    fn watchers_record_first_sight_and_disorder() {
        let game = GameRecord {
            id: "g".into(),
            kind: Kind::HumanHuman,
            accounts: Vec::new(),
            state: Mutex::new(GameState::default()),
        };
        let early = game.register();
        let late = game.register();
        assert!(game.observe(early, 0, Some(1), 10));
        assert!(game.ack(1, 100));
        assert!(!game.ack(1, 200));
        assert!(game.observe(early, 1, Some(2), 150));
        assert!(game.observe(late, 1, Some(2), 300));
        assert!(game.ack(2, 400));
        assert!(game.observe(early, 2, Some(3), 390));
        assert!(!game.observe(early, 1, Some(2), 500));
        let mut checks = Checks::default();
        checks.game(
            &game,
            Some(Final {
                ply: 2,
                version: Some(3),
                over: false,
                rated: false,
                rating_changes: 0,
            }),
        );
        assert_eq!(checks.moves_stored, 2);
        assert_eq!(checks.lost, 1); // the late watcher never saw move 2
        assert_eq!(checks.stale, 1);
        // Move 1 for the early watcher (50 µs), move 2 for it (seen before its ack: 0); the
        // late watcher joined at ply 1.
        assert_eq!(checks.delivery_us, vec![50, 0]);
        assert_eq!(checks.early, 1);
        assert!(
            checks.reply_us.is_empty(),
            "no computer in a game between people"
        );
    }

    #[test]
    fn the_computers_replies_are_timed_from_the_persons_ack() {
        let game = GameRecord {
            id: "g".into(),
            kind: Kind::HumanComputer,
            accounts: Vec::new(),
            state: Mutex::new(GameState::default()),
        };
        let own = game.register();
        assert!(game.observe(own, 0, Some(1), 10));
        assert!(game.ack(1, 100));
        assert!(game.observe(own, 2, Some(3), 350));
        assert!(game.ack(3, 500));
        assert!(game.observe(own, 4, Some(5), 520));
        let mut checks = Checks::default();
        checks.game(
            &game,
            Some(Final {
                ply: 4,
                version: Some(5),
                over: false,
                rated: false,
                rating_changes: 0,
            }),
        );
        // Reply 2 came 250 µs after move 1's ack, reply 4 20 µs after move 3's.
        assert_eq!(checks.reply_us, vec![250, 20]);
        assert_eq!(checks.computer_moves, 2);
    }

    #[test]
    fn proc_status_fields() {
        let text = "Name:\tdenkmeter\nVmRSS:\t   12345 kB\nThreads:\t17\n";
        let sample = parse_proc_status(text);
        assert_eq!(sample.rss_kb, Some(12345));
        assert_eq!(sample.threads, Some(17));
        let stat = "4242 (a (weird) name) S 1 2 3 4 5 6 7 8 9 10 250 35 0 0 20 0 9";
        assert_eq!(parse_proc_stat_ticks(stat), Some(285));
        assert_eq!(parse_proc_stat_ticks("garbage"), None);
    }

    #[test]
    fn the_plan_pairs_human_clients() {
        let args = LoadtestArgs {
            clients: 7,
            computer_share: 0.25,
            computer_level: 1,
            spectators: 0,
            pollers: 0,
            cvc_games: 1,
            cvc_level: 6,
            think_ms: 500,
            duration: 30,
            settle: 5,
            ruleset: "english".into(),
            rated: false,
            clock: None,
            url: None,
            server_pid: None,
            database: None,
            search_threads: None,
            server_log: false,
            json: false,
        };
        let plan = Plan::of(&args);
        assert_eq!(plan.clients_vs_computer + 2 * plan.human_games, 7);
        assert_eq!(plan.clients_vs_computer, 3);
        assert_eq!(plan.tables().len(), 3 + 2 + 1);
    }
}
