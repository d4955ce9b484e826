//! Games in play, shaped as lila's round module is: one [`GameProxy`] per game per process
//! (`proxy`), the move player (`player`: people's moves and the computer's), the drawer (draw
//! offers), the finisher (resignation), and the JSON views (`json`). Every change is stored
//! before anyone is told of it; the domain errors here become HTTP errors in one place
//! (`http::error`).

/// Runs a write on game `$id` under its proxy's lock: `$action`, an expression of `$game` (the
/// locked game). If it fails in a way that a game out of date in this process explains, the game
/// is reloaded from the store and `$action` runs once more. Then watchers are told and the
/// computer moves if it is its turn (see `Rounds::after_write`).
macro_rules! write_action {
    ($rounds:expr, $id:expr, |$game:ident| $action:expr) => {{
        let proxy = $rounds.proxy($id).await?;
        let mut $game = proxy.lock().await;
        let result = match $action {
            Err(error) if error.may_be_stale() => {
                if $rounds.reload(&proxy, &mut $game, None).await? {
                    $action
                } else {
                    Err(error)
                }
            }
            other => other,
        };
        $rounds.after_write(&proxy, $game, result)
    }};
}

mod analyst;
mod claimer;
mod clock;
mod drawer;
mod finisher;
mod hinter;
pub mod json;
mod player;
pub mod proxy;
mod takeback;

use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use denkmeter_core::{ByPlayer, Player, Status};
use denkmeter_engine::dynamic::AnyGame;
use denkmeter_engine::Registry;
use rand::Rng;
use tokio::sync::watch;

pub use analyst::{
    Analysis, BoardPlace, FinishedGame, ANALYSIS_NODES, ANALYSIS_SECONDS,
    BOARD_SEARCHES_PER_ADDRESS,
};
pub use claimer::Claimed;
pub use drawer::OfferAction;
pub use hinter::{Hint, HINT_LEVEL};
pub use json::GameView;
pub use proxy::{Credential, GameProxy, LiveGame};

use crate::clock::{Clock, TimeControl};
use crate::search::SearchPool;
use crate::seat::{new_game_id, new_token, Seat, TokenHash};
use crate::store::{Change, Store, StoreError, StoredGame};

/// Why an action on a game was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum RoundError {
    #[error("no game {0:?}")]
    NoSuchGame(String),
    #[error("unknown ruleset {0:?}")]
    UnknownRuleset(String),
    #[error("position: {0}")]
    BadPosition(String),
    #[error("ply {ply} is beyond the {played} moves played")]
    BadPly { ply: usize, played: usize },
    #[error(
        "no seat in this game: this token holds none (give a seat's token, or sign in as the \
         account holding the seat)"
    )]
    NotASeat,
    #[error(
        "this invite link has been used: {0}'s seat is taken by the friend who opened it first \
         (open the game without the token to watch it)"
    )]
    InviteUsed(Player),
    #[error("this seat was claimed already: its token stays as it is")]
    AlreadyClaimed,
    #[error("it is {to_move}'s turn, not {seat}'s")]
    NotYourTurn { to_move: Player, seat: Player },
    #[error("the game is over: {0}")]
    GameOver(String),
    #[error("the game is still being played: only finished games are analysed")]
    StillPlayed,
    #[error("{0}")]
    IllegalMove(String),
    #[error("there is no draw offer to {0}")]
    NoDrawOffer(&'static str),
    #[error("there is no takeback asked for to {0}")]
    NoTakebackOffer(&'static str),
    #[error("there is no move of yours to take back")]
    NothingToTakeBack,
    #[error("your time is up")]
    TimeUp,
    #[error("no takebacks against the computer in a game that hides something")]
    NoTakebackHere,
    /// A challenge that cannot be accepted.
    #[error("{0}")]
    Challenge(crate::store::ChallengeError),
    /// A help a rated game does without (hints, takebacks against the computer).
    #[error("no {0} in a rated game")]
    NotInRatedGames(&'static str),
    #[error("too little time left to take back: the move was made with no time to spare")]
    NoTimeToTakeBack,
    #[error("action: expected offer, accept or decline, found {0:?}")]
    BadOfferAction(String),
    /// Another server changed the game at the same moment, twice.
    #[error("the game changed meanwhile; reload it")]
    Changed,
    /// A stored game that cannot be replayed.
    #[error("{0}")]
    Corrupt(String),
    /// A fault of the server itself.
    #[error("{0}")]
    Internal(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl RoundError {
    /// Errors that a game out of date in this process could cause: worth one reload.
    fn may_be_stale(&self) -> bool {
        matches!(
            self,
            RoundError::Store(StoreError::Conflict)
                | RoundError::NotYourTurn { .. }
                | RoundError::GameOver(_)
                | RoundError::IllegalMove(_)
                | RoundError::NoDrawOffer(_)
                | RoundError::NoTakebackOffer(_)
                | RoundError::NothingToTakeBack
                // A token claimed from an invite on another server since this copy was loaded.
                | RoundError::NotASeat
        )
    }
}

/// Limits and timing of the games in play.
#[derive(Clone, Debug)]
pub struct RoundConfig {
    /// Games kept in memory before idle ones are dropped (watched ones and those the computer
    /// is playing always stay).
    pub max_loaded: usize,
    /// Threads searching the computer's moves.
    pub search_threads: usize,
    /// The least time between two moves of a computer-vs-computer game that nobody watches.
    pub unwatched_computer_interval: Duration,
    /// On a database shared by several servers, a game whose computer move has not come for
    /// this long is taken over by the server that loads it, even if the server searching it
    /// still runs (see [`SERVER_LEASE`] for one that stopped).
    pub stall_after: Duration,
    /// How many unfinished computer games are resumed when the server starts.
    pub resume_limit: i64,
}

impl Default for RoundConfig {
    fn default() -> RoundConfig {
        RoundConfig {
            max_loaded: 2_000,
            search_threads: crate::search::default_threads(),
            unwatched_computer_interval: Duration::from_secs(2),
            stall_after: Duration::from_secs(60),
            resume_limit: 10_000,
        }
    }
}

/// How often a server on a shared database says it is running (see `Store::renew_lease`).
pub const LEASE_RENEWAL: Duration = Duration::from_secs(2);
/// A server that has not said it is running for this long has stopped: the searches it owed
/// are taken over at once rather than after [`RoundConfig::stall_after`].
pub const SERVER_LEASE: Duration = Duration::from_secs(10);

/// Runs a write to its end even if the request that asked for it goes away meanwhile (hyper
/// drops a handler whose client disconnects): a stored change must still become the game in
/// memory, reach the watchers and be followed by the computer's move.
async fn detached<T: Send + 'static>(
    write: impl std::future::Future<Output = Result<T, RoundError>> + Send + 'static,
) -> Result<T, RoundError> {
    tokio::spawn(write)
        .await
        .map_err(|e| RoundError::Internal(format!("a write failed: {e}")))?
}

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The games in memory, and the size at which idle ones are looked for next.
#[derive(Debug)]
struct Loaded {
    games: HashMap<String, Arc<GameProxy>>,
    /// When every game is held, looking again at every insert would cost a scan each time.
    scan_at: usize,
}

/// Every game in play in this process, and the store behind them.
#[derive(Debug)]
pub struct Rounds {
    pub store: Store,
    /// The rulesets, by name.
    pub registry: Arc<Registry>,
    loaded: StdMutex<Loaded>,
    config: RoundConfig,
    pool: SearchPool,
    /// Analyses of finished games searched at once, server-wide: a quarter of the search
    /// threads (at least one), so that analyses never crowd out the games being played.
    analysing: tokio::sync::Semaphore,
    /// The analysis board's searches at once, server-wide: as many as analyses, apart from
    /// them, so that neither waits for the other.
    exploring: tokio::sync::Semaphore,
    /// The analysis board's searches waiting or running, per client address.
    exploring_by_address: StdMutex<HashMap<std::net::IpAddr, usize>>,
    /// When this process started (Unix milliseconds): a timed turn that began before it is
    /// counted from then, so that nobody loses time while the server was down.
    started_at: i64,
}

impl Rounds {
    pub fn new(store: Store, config: RoundConfig, registry: Arc<Registry>) -> Arc<Rounds> {
        Arc::new(Rounds {
            store,
            registry,
            loaded: StdMutex::new(Loaded {
                games: HashMap::new(),
                scan_at: config.max_loaded,
            }),
            pool: SearchPool::new(config.search_threads),
            analysing: tokio::sync::Semaphore::new((config.search_threads / 4).max(1)),
            exploring: tokio::sync::Semaphore::new((config.search_threads / 4).max(1)),
            exploring_by_address: StdMutex::new(HashMap::new()),
            started_at: now_ms(),
            config,
        })
    }

    /// Starts following other servers' changes (PostgreSQL) and resumes the unfinished
    /// computer games.
    pub async fn start(self: &Arc<Self>) -> Result<(), StoreError> {
        if let Some(mut feed) = self.store.changes().await? {
            let rounds = Arc::downgrade(self);
            tokio::spawn(async move {
                loop {
                    let change = feed.next().await;
                    let Some(rounds) = rounds.upgrade() else {
                        return;
                    };
                    rounds.follow(change).await;
                }
            });
        }
        if self.store.is_shared() {
            // Before the games are resumed, so that other servers see this one as running.
            self.store.renew_lease(now_ms()).await?;
            let rounds = Arc::downgrade(self);
            tokio::spawn(async move {
                let mut every = tokio::time::interval(LEASE_RENEWAL);
                loop {
                    every.tick().await;
                    let Some(rounds) = rounds.upgrade() else {
                        return;
                    };
                    if let Err(error) = rounds.store.renew_lease(now_ms()).await {
                        tracing::warn!(%error, "cannot renew this server's lease");
                    }
                }
            });
        }
        let rounds = Arc::downgrade(self);
        tokio::spawn(resume(rounds));
        Ok(())
    }

    pub fn search_pool(&self) -> &SearchPool {
        &self.pool
    }

    /// How many games are in memory.
    pub fn loaded(&self) -> usize {
        self.loaded.lock().map_or(0, |loaded| loaded.games.len())
    }

    /// The game's proxy if it is in memory.
    pub fn cached(&self, id: &str) -> Option<Arc<GameProxy>> {
        self.loaded.lock().ok()?.games.get(id).cloned()
    }

    /// Shows the games in memory that account `player` took part in without its name, once
    /// the account is deleted (the store's copies have none already). Other servers' copies
    /// show it until they reload the game.
    pub async fn forget_account(&self, player: &str) {
        let proxies: Vec<Arc<GameProxy>> = self
            .loaded
            .lock()
            .map(|loaded| loaded.games.values().cloned().collect())
            .unwrap_or_default();
        for proxy in proxies {
            let mut game = proxy.lock().await;
            let mut changed = false;
            for seat in Player::BOTH {
                if let Some(account) = game.accounts[seat].as_mut() {
                    if account.id == player && account.name.is_some() {
                        account.name = None;
                        changed = true;
                    }
                }
            }
            if changed {
                game.ratings = ByPlayer::new(None, None);
                proxy.publish(&game);
            }
        }
    }

    /// Keeps `proxy` in memory, or returns the one already there. Games that nobody holds (no
    /// watcher, no action or search under way) leave memory when there are too many; they come
    /// back from the store when needed.
    fn remember(&self, proxy: Arc<GameProxy>) -> Arc<GameProxy> {
        let Ok(mut loaded) = self.loaded.lock() else {
            return proxy;
        };
        if loaded.games.len() >= loaded.scan_at {
            loaded
                .games
                .retain(|_, p| Arc::strong_count(p) > 1 || p.watchers() > 0);
            let max = self.config.max_loaded;
            loaded.scan_at = max.max(loaded.games.len() + max / 8 + 1);
        }
        loaded
            .games
            .entry(proxy.id.clone())
            .or_insert(proxy)
            .clone()
    }

    /// The game's proxy: the one in memory, or loaded from the store.
    pub async fn proxy(self: &Arc<Self>, id: &str) -> Result<Arc<GameProxy>, RoundError> {
        if let Some(proxy) = self.cached(id) {
            return Ok(proxy);
        }
        if id.len() > 64 {
            return Err(RoundError::NoSuchGame(id.to_string()));
        }
        let (stored, moves) = self
            .store
            .load_game(id)
            .await?
            .ok_or_else(|| RoundError::NoSuchGame(id.to_string()))?;
        let ruleset = self.ruleset_of(&stored)?;
        let mut live = LiveGame::replay(ruleset, &stored, &moves, self.started_at)?;
        live.load_ratings(&self.store).await?;
        let computer_to_move = live.computer_to_move().is_some();
        let loaded = GameProxy::new(live, self.started_at);
        let proxy = self.remember(loaded.clone());
        if Arc::ptr_eq(&proxy, &loaded) {
            if computer_to_move {
                self.computer_wanted(&proxy, stored.updated_at, stored.version, stored.written_by);
            }
            self.watch_clock(proxy.clone());
        }
        Ok(proxy)
    }

    /// A game loaded or reloaded from the store, whose computer seat is to move, gets its move:
    /// on a database of its own no other search can be under way for it. On a shared one the
    /// server that stored the last write searches the reply (see `after_write`): the game is
    /// taken over at once if that server is this one (an earlier run, before a restart) or has
    /// stopped (its lease ran out), else only once it waited too long.
    fn computer_wanted(
        self: &Arc<Self>,
        proxy: &Arc<GameProxy>,
        updated_at: i64,
        version: i64,
        writer: Option<String>,
    ) {
        if !self.store.is_shared() {
            self.schedule_computer(proxy.clone());
            return;
        }
        let rounds = Arc::downgrade(self);
        let id = proxy.id.clone();
        tokio::spawn(async move {
            loop {
                let Some(strong) = rounds.upgrade() else {
                    return;
                };
                let wait = match strong.takeover_wait(writer.as_deref(), updated_at).await {
                    Ok(wait) => wait,
                    Err(error) => {
                        tracing::warn!(game = %id, %error, "cannot tell who searches");
                        SERVER_LEASE
                    }
                };
                if wait.is_zero() {
                    if let Ok(proxy) = strong.fresh(&id).await {
                        let unchanged = proxy.lock().await.version == version;
                        if unchanged {
                            tracing::info!(game = %id, writer = writer.as_deref().unwrap_or("unknown"), "taking over the computer's move");
                            strong.schedule_computer(proxy);
                        }
                    }
                    return;
                }
                drop(strong);
                tokio::time::sleep(wait).await;
                // Someone moved meanwhile: whoever wrote that takes care of what follows.
                let Some(strong) = rounds.upgrade() else {
                    return;
                };
                if strong.store.version(&id).await.ok().flatten() != Some(version) {
                    return;
                }
            }
        });
    }

    /// How long to wait before taking over the computer's move of a game that `writer` wrote
    /// last at `updated_at`, looking again after it: zero to take it over now.
    async fn takeover_wait(
        &self,
        writer: Option<&str>,
        updated_at: i64,
    ) -> Result<Duration, StoreError> {
        let now = now_ms();
        let stall = self.config.stall_after.as_millis() as i64;
        let stalled_in = Duration::from_millis((stall - (now - updated_at)).max(0) as u64);
        let lease = SERVER_LEASE.as_millis() as i64;
        let wait = match writer {
            _ if stalled_in.is_zero() => Duration::ZERO,
            Some(me) if me == self.store.server_id() => Duration::ZERO,
            Some(other) => match self.store.server_seen_at(other).await? {
                Some(seen) if now - seen < lease => {
                    // Look again when its lease would run out if it is not renewed.
                    Duration::from_millis((seen + lease - now).max(1) as u64)
                }
                _ => Duration::ZERO,
            },
            // Written by a server from before leases: wait as it always did.
            None => stalled_in,
        };
        Ok(wait.min(stalled_in))
    }

    /// The game's proxy, first brought up to date with the store. Takes the game's lock only
    /// when the store holds a newer version than the last snapshot (another server wrote it).
    pub async fn fresh(self: &Arc<Self>, id: &str) -> Result<Arc<GameProxy>, RoundError> {
        let proxy = self.proxy(id).await?;
        let stored = self.store.version(id).await?;
        if stored.is_some_and(|v| v > proxy.snapshot().version) {
            let mut game = proxy.lock().await;
            self.reload(&proxy, &mut game, stored).await?;
        }
        Ok(proxy)
    }

    /// Reloads a game in memory from the store if it moved on (see
    /// [`GameProxy::reload_locked`]); if the computer is then to move, it gets its move.
    async fn reload(
        self: &Arc<Self>,
        proxy: &Arc<GameProxy>,
        game: &mut LiveGame,
        known: Option<i64>,
    ) -> Result<bool, RoundError> {
        let changed = proxy.reload_locked(game, &self.store, known).await?;
        if changed && !game.thinking && game.computer_to_move().is_some() {
            self.computer_wanted(
                proxy,
                game.updated_at,
                game.version,
                game.written_by.clone(),
            );
        }
        Ok(changed)
    }

    /// Watches a game: its proxy and a receiver that moves on at every change. The proxy stays
    /// in memory while the receiver lives.
    pub async fn watch(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<(Arc<GameProxy>, watch::Receiver<Arc<LiveGame>>), RoundError> {
        let proxy = self.fresh(id).await?;
        // Subscribe under the map's lock, so the game cannot leave memory in between.
        let Ok(mut loaded) = self.loaded.lock() else {
            let receiver = proxy.subscribe();
            return Ok((proxy, receiver));
        };
        let proxy = loaded.games.entry(id.to_string()).or_insert(proxy).clone();
        let receiver = proxy.subscribe();
        Ok((proxy, receiver))
    }

    /// The game after `ply` moves (default: now) as the holder of `token` (or a spectator)
    /// may see it, brought up to date with the store first.
    pub async fn view(
        self: &Arc<Self>,
        id: &str,
        who: &Credential,
        ply: Option<usize>,
    ) -> Result<GameView, RoundError> {
        let game = self.fresh(id).await?.snapshot();
        let seat = game.viewer_seat(who)?;
        json::game_view(&game, seat, ply)
    }

    /// Creates a game; returns its id and the tokens of its human seats (shown only now).
    pub async fn create(
        self: &Arc<Self>,
        ruleset: Arc<dyn AnyGame>,
        seats: ByPlayer<Seat>,
        position: Option<String>,
        setup: Setup,
        clock: Option<TimeControl>,
    ) -> Result<(String, ByPlayer<Option<String>>), RoundError> {
        let rounds = self.clone();
        detached(async move {
            rounds
                .create_detached(ruleset, seats, position, setup, clock)
                .await
        })
        .await
    }

    /// The ruleset a stored game is played by, on its own board file if it has one.
    pub fn ruleset_of(&self, stored: &StoredGame) -> Result<Arc<dyn AnyGame>, RoundError> {
        let id = &stored.id;
        let ruleset = self.registry.find(&stored.ruleset).ok_or_else(|| {
            RoundError::Corrupt(format!("game {id} has unknown ruleset {}", stored.ruleset))
        })?;
        match &stored.board {
            None => Ok(ruleset),
            Some((name, text)) => ruleset
                .with_board_file(name, text)
                .map_err(|e| RoundError::Corrupt(format!("game {id}: stored board: {e}"))),
        }
    }

    async fn create_detached(
        self: &Arc<Self>,
        ruleset: Arc<dyn AnyGame>,
        seats: ByPlayer<Seat>,
        position: Option<String>,
        setup: Setup,
        clock: Option<TimeControl>,
    ) -> Result<(String, ByPlayer<Option<String>>), RoundError> {
        let mut session = ruleset
            .new_game(position.as_deref())
            .map_err(|e| RoundError::BadPosition(e.to_string()))?;
        for (i, text) in setup.moves.iter().enumerate() {
            session
                .play(text)
                .map_err(|e| RoundError::BadPosition(format!("move {}: {e}", i + 1)))?;
        }
        if let (Some(ending), Status::Ongoing) = (setup.ending, session.status()) {
            session.end(ending);
        }
        let moves = session.moves().to_vec();
        // The board file is kept with the game unless it is the ruleset's default.
        let default_board = self
            .registry
            .find(ruleset.name())
            .and_then(|r| r.board_file().map(|(_, text)| text.to_string()));
        let print = denkmeter_core::board_fingerprint;
        let board = ruleset
            .board_file()
            .filter(|(_, text)| default_board.as_deref().map(print) != Some(print(text)))
            .map(|(name, text)| (name.to_string(), text.to_string()));
        let tokens = ByPlayer::from_fn(|p| (seats[p] == Seat::Human).then(new_token));
        let now = now_ms();
        let stored = StoredGame {
            id: new_game_id(),
            ruleset: ruleset.name().to_string(),
            start_position: position,
            board,
            seats,
            tokens: ByPlayer::from_fn(|p| tokens[p].as_deref().map(TokenHash::of)),
            invites: ByPlayer::new(None, None),
            accounts: setup.accounts.clone(),
            rated: setup.rated,
            written_by: Some(self.store.server_id().to_string()),
            // A game set up from a finished position is over from the start.
            outcome: match session.status() {
                Status::Over(outcome) => Some(outcome),
                Status::Ongoing => None,
            },
            draw_offer: None,
            takeback_offer: None,
            clock: clock.map(|control| Clock::new(control, now)),
            move_lefts: vec![None; moves.len()],
            seed: rand::thread_rng().gen_range(0..i64::MAX),
            version: 0,
            created_at: now,
            updated_at: now,
        };
        match &setup.challenge {
            None => self.store.create_game(&stored, &moves).await?,
            Some((challenge, acceptor)) => self
                .store
                .accept_challenge(challenge, acceptor, &stored, &moves, now)
                .await
                .map_err(RoundError::Challenge)?,
        }
        tracing::info!(game = %stored.id, ruleset = ruleset.name(), "created");
        let mut live = LiveGame::new(&stored, ruleset, session);
        // The game is stored: a failure to read the ratings it shows loses nothing.
        if let Err(error) = live.load_ratings(&self.store).await {
            tracing::warn!(game = %stored.id, %error, "cannot read the players' ratings");
        }
        let proxy = self.remember(GameProxy::new(live, self.started_at));
        self.watch_clock(proxy.clone());
        self.schedule_computer(proxy);
        Ok((stored.id, tokens))
    }

    /// Ends a write on a game (run under its lock, see `write_action!`): watchers are told and
    /// the computer moves if it is its turn.
    fn after_write<T>(
        self: &Arc<Self>,
        proxy: &Arc<GameProxy>,
        game: tokio::sync::MutexGuard<'_, LiveGame>,
        result: Result<T, RoundError>,
    ) -> Result<T, RoundError> {
        let value = result.map_err(|e| match e {
            RoundError::Store(StoreError::Conflict) => RoundError::Changed,
            other => other,
        })?;
        proxy.publish(&game);
        let computer_next = game.computer_to_move().is_some();
        drop(game);
        if computer_next {
            self.schedule_computer(proxy.clone());
        }
        Ok(value)
    }

    /// Brings a game in memory up to a change another server made.
    async fn follow(self: &Arc<Self>, change: Change) {
        let (proxies, known) = match change {
            Change::Game { id, version } => (self.cached(&id).into_iter().collect(), Some(version)),
            Change::Resync => {
                let all: Vec<_> = self
                    .loaded
                    .lock()
                    .map(|loaded| {
                        loaded
                            .games
                            .values()
                            .filter(|p| p.watchers() > 0)
                            .cloned()
                            .collect()
                    })
                    .unwrap_or_default();
                (all, None)
            }
        };
        for proxy in proxies {
            let mut game = proxy.lock().await;
            if let Err(error) = self.reload(&proxy, &mut game, known).await {
                tracing::warn!(game = %proxy.id, %error, "cannot follow a change");
            }
        }
    }
}

/// Moves a new game starts with, and how it ended if it did by something other than its
/// moves (a PDN game brought in, resigned or drawn by agreement).
#[derive(Clone, Debug, Default)]
pub struct Setup {
    pub moves: Vec<String>,
    pub ending: Option<denkmeter_core::Outcome>,
    /// The accounts taking seats (the creator's, if signed in).
    pub accounts: ByPlayer<Option<crate::store::SeatAccount>>,
    /// Whether the game counts for ratings (checked by the caller).
    pub rated: bool,
    /// The challenge this game accepts, and the acceptor's account: the game is stored only
    /// if the challenge is still open to him, in the same transaction that closes it.
    pub challenge: Option<(String, String)>,
}

/// Resumes the unfinished games that go on without a request after a start: those where the
/// computer is to move, and the timed ones (whose clocks are watched).
async fn resume(rounds: Weak<Rounds>) {
    let Some(strong) = rounds.upgrade() else {
        return;
    };
    let found = strong
        .store
        .games_to_resume(strong.config.resume_limit)
        .await;
    drop(strong);
    let ids = match found {
        Ok(ids) => ids,
        Err(error) => {
            tracing::error!(%error, "cannot resume the games");
            return;
        }
    };
    let mut resumed = 0;
    for id in ids {
        let Some(rounds) = rounds.upgrade() else {
            return;
        };
        // Loading a game schedules its computer move (see `computer_wanted`).
        match rounds.proxy(&id).await {
            Ok(_) => resumed += 1,
            Err(error) => tracing::warn!(game = %id, %error, "cannot resume"),
        }
    }
    if resumed > 0 {
        tracing::info!(games = resumed, "games resumed");
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn registry() -> Registry {
        Registry::from_list(denkmeter_games::visit_rulesets)
    }

    /// Games on a fresh SQLite file in `dir`.
    async fn rounds_in(dir: &tempfile::TempDir, config: RoundConfig) -> Arc<Rounds> {
        let path = dir.path().join("games.db");
        let store = Store::open(path.to_str().unwrap()).await.unwrap();
        Rounds::new(store, config, Arc::new(registry()))
    }

    #[tokio::test]
    async fn idle_games_leave_memory_and_watched_ones_stay() {
        let dir = tempfile::tempdir().unwrap();
        let config = RoundConfig {
            max_loaded: 3,
            ..RoundConfig::default()
        };
        let rounds = rounds_in(&dir, config).await;
        let chad = registry().find("chad").unwrap();
        let seats = ByPlayer::new(Seat::Human, Seat::Human);
        let mut ids = Vec::new();
        let mut black = Vec::new();
        for _ in 0..8 {
            let (id, tokens) = rounds
                .create(chad.clone(), seats, None, Setup::default(), None)
                .await
                .unwrap();
            rounds
                .play(
                    &id,
                    &Credential::of_token(tokens.white.as_deref().unwrap()),
                    "C5-A5",
                )
                .await
                .unwrap();
            ids.push(id);
            black.push(tokens.black.unwrap());
        }
        assert!(rounds.loaded() <= 3, "{} games in memory", rounds.loaded());
        // A watched game stays, and its watcher hears of moves made after the others came
        // and went.
        let (watched, mut changes) = rounds.watch(&ids[7]).await.unwrap();
        drop(watched);
        for id in &ids {
            let proxy = rounds.proxy(id).await.unwrap();
            assert_eq!(proxy.lock().await.session.moves(), ["C5-A5"]);
        }
        assert!(rounds.loaded() <= 3);
        assert!(
            rounds.cached(&ids[7]).is_some(),
            "the watched game was dropped"
        );
        changes.borrow_and_update();
        rounds
            .play(&ids[7], &Credential::of_token(&black[7]), "I8-I5")
            .await
            .unwrap();
        assert!(changes.has_changed().unwrap(), "the watcher missed a move");
    }

    /// hyper drops a handler whose client goes away; the move it was storing must still become
    /// the game, reach the watchers, and be answered by the computer.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_move_goes_on_when_its_request_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let rounds = rounds_in(&dir, RoundConfig::default()).await;
        let chad = registry().find("chad").unwrap();
        let seats = ByPlayer::new(Seat::Human, Seat::Computer(1));
        let (id, tokens) = rounds
            .create(chad, seats, None, Setup::default(), None)
            .await
            .unwrap();
        let (_proxy, mut changes) = rounds.watch(&id).await.unwrap();
        // Polled once, then dropped: the request is gone before the move is stored.
        let white = tokens.white.unwrap();
        let white = Credential::of_token(&white);
        let mut play = Box::pin(rounds.play(&id, &white, "C5-A5"));
        // On a busy machine the write may finish within that poll; the rest must hold either way.
        let _pending = std::future::poll_fn(|cx| {
            std::task::Poll::Ready(std::future::Future::poll(play.as_mut(), cx).is_pending())
        })
        .await;
        drop(play);
        let answered = tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                let game = changes.borrow_and_update().clone();
                if game.session.moves().len() >= 2 {
                    return game.session.moves().to_vec();
                }
                changes.changed().await.unwrap();
            }
        })
        .await
        .expect("the move or the computer's reply never came");
        assert_eq!(answered[0], "C5-A5");
    }
}
