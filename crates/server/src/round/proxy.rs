//! The game proxy: the one live object of a game in this process. It holds the game behind a
//! lock, for writers, and publishes a snapshot of it after every change, for readers: watchers
//! subscribe to the snapshots and views are drawn from them, so no reader ever waits for a write
//! to reach the database. When the stored game moved on (another server process wrote it), the
//! game behind the lock is reloaded in place: the proxy, its watchers and its computer search
//! stay, so no watcher is ever left on a stale object.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use denkmeter_core::{ByPlayer, Player, Status};
use denkmeter_engine::dynamic::{AnyGame, AnySession};
use tokio::sync::{watch, Mutex, MutexGuard, Notify};

use super::json::{BoardJson, RawJson};
use super::RoundError;
use crate::clock::Clock;
use crate::rating::Rating;
use crate::seat::{Seat, TokenHash};
use crate::store::{RatedEnd, RatedSeat, RatingChange, SeatAccount, Store, StoredGame};

/// A game in memory: its seats, its session (the rules' state with every move) and the stored
/// version it reflects.
#[derive(Clone, Debug)]
pub struct LiveGame {
    pub id: String,
    pub ruleset: Arc<dyn AnyGame>,
    /// The ruleset's board as every view sends it, serialized once.
    pub board_json: RawJson,
    pub start_position: Option<String>,
    pub seats: ByPlayer<Seat>,
    tokens: ByPlayer<Option<TokenHash>>,
    /// The hashes of the invites by which seats were claimed: used, they hold nothing.
    invites: ByPlayer<Option<TokenHash>>,
    /// The server that stored the last write (see [`StoredGame::written_by`]).
    pub written_by: Option<String>,
    /// The accounts holding the seats.
    pub accounts: ByPlayer<Option<SeatAccount>>,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// The seats' accounts' ratings in the game's category, as last read (see
    /// [`LiveGame::load_ratings`]).
    pub ratings: ByPlayer<Option<Rating>>,
    /// What the game did to its seats' ratings, once a rated game is over.
    pub rating_changes: ByPlayer<Option<RatingChange>>,
    pub draw_offer: Option<Player>,
    /// A takeback this seat asked for that the other has not answered.
    pub takeback_offer: Option<Player>,
    /// The time control and clocks of a timed game.
    pub clock: Option<Clock>,
    /// For each move of a timed game, the time its mover had left when making it.
    pub lefts: Vec<Option<i64>>,
    pub seed: i64,
    /// The stored version this game was read at or last written as.
    pub version: i64,
    /// When the game was last written (Unix milliseconds).
    pub updated_at: i64,
    /// Shared with the snapshots published of it: a change replaces it, never edits it.
    pub session: Arc<dyn AnySession>,
    /// The computer is choosing a move for this game in this process.
    pub thinking: bool,
}

impl LiveGame {
    /// A new game's live state, before it is stored.
    pub fn new(
        stored: &StoredGame,
        ruleset: Arc<dyn AnyGame>,
        session: Box<dyn AnySession>,
    ) -> LiveGame {
        LiveGame {
            id: stored.id.clone(),
            board_json: RawJson::of(&BoardJson::of(ruleset.board())),
            ruleset,
            start_position: stored.start_position.clone(),
            seats: stored.seats,
            tokens: stored.tokens.clone(),
            invites: stored.invites.clone(),
            written_by: stored.written_by.clone(),
            accounts: stored.accounts.clone(),
            rated: stored.rated,
            ratings: ByPlayer::new(None, None),
            rating_changes: ByPlayer::new(None, None),
            draw_offer: stored.draw_offer,
            takeback_offer: stored.takeback_offer,
            clock: stored.clock,
            lefts: stored.move_lefts.clone(),
            seed: stored.seed,
            version: stored.version,
            updated_at: stored.updated_at,
            session: Arc::from(session),
            thinking: false,
        }
    }

    /// Rebuilds a stored game by replaying its moves through the rules of `ruleset` (the
    /// stored game's, found by the caller). A timed turn is counted from `not_before` at the
    /// earliest: the time this process started, so that nobody loses time while it was down.
    pub fn replay(
        ruleset: Arc<dyn AnyGame>,
        stored: &StoredGame,
        moves: &[String],
        not_before: i64,
    ) -> Result<LiveGame, RoundError> {
        let id = &stored.id;
        let mut session = ruleset
            .new_game(stored.start_position.as_deref())
            .map_err(|e| RoundError::Corrupt(format!("game {id}: stored position: {e}")))?;
        for (ply, text) in moves.iter().enumerate() {
            session
                .play(text)
                .map_err(|e| RoundError::Corrupt(format!("game {id}: stored move {ply}: {e}")))?;
        }
        if let Some(outcome) = &stored.outcome {
            if !session.status().is_over() {
                session.end(outcome.clone());
            }
        }
        let mut game = LiveGame::new(stored, ruleset, session);
        if let Some(clock) = &mut game.clock {
            clock.turn_started = clock.turn_started.max(not_before);
        }
        Ok(game)
    }

    /// The game's rating category (`chad/blitz`): timed games have one, whether rated or not.
    pub fn category(&self) -> Option<String> {
        let clock = self.clock.as_ref()?;
        let facts = self.ruleset.facts();
        Some(crate::ladder::category(
            facts.name,
            facts.family,
            clock.control,
        ))
    }

    /// How to rate the game if it ends after `moves` moves: `None` unless it is rated and both
    /// sides have moved (a game abandoned before that is not rated).
    pub fn rated_end(&self, moves: usize) -> Option<RatedEnd> {
        if !self.rated || moves < 2 {
            return None;
        }
        let category = self.category()?;
        let (pool, _) = crate::ladder::split_category(&category)?;
        let seat = |p: Player| match (self.seats[p], &self.accounts[p]) {
            (Seat::Computer(level), _) => {
                crate::ladder::computer_rating(pool, level).map(RatedSeat::Fixed)
            }
            (Seat::Human, Some(account)) => Some(RatedSeat::Account(account.id.clone())),
            (Seat::Human, None) => None,
        };
        Some(RatedEnd {
            seats: ByPlayer::new(seat(Player::White)?, seat(Player::Black)?),
            category,
        })
    }

    /// Reads the seats' accounts' ratings in the game's category, and what the game did to
    /// them if it was rated and is over. Nothing to read for a game without accounts.
    pub async fn load_ratings(&mut self, store: &Store) -> Result<(), RoundError> {
        if self.accounts.white.is_none() && self.accounts.black.is_none() {
            return Ok(());
        }
        if let Some(category) = self.category() {
            for p in Player::BOTH {
                // A player new to the category has a newcomer's rating there.
                self.ratings[p] = match &self.accounts[p] {
                    Some(account) => Some(
                        store
                            .rating(&account.id, &category)
                            .await?
                            .unwrap_or(Rating::NEW),
                    ),
                    None => None,
                };
            }
        }
        if self.rated && self.session.status().is_over() {
            self.rating_changes = store.rating_changes(&self.id).await?;
        }
        Ok(())
    }

    /// The seat a token holds, if any.
    pub fn seat_of(&self, token: Option<&str>) -> Option<Player> {
        let token = token.filter(|t| !t.is_empty())?;
        Player::BOTH
            .into_iter()
            .find(|&p| self.tokens[p].as_ref().is_some_and(|h| h.matches(token)))
    }

    /// The seat of `who`: of its token, if it has one, else of its account; else
    /// [`RoundError::InviteUsed`] for an invite whose seat was claimed, or
    /// [`RoundError::NotASeat`].
    pub fn require_seat(&self, who: &Credential) -> Result<Player, RoundError> {
        match (who.given_token(), &who.account) {
            (Some(token), _) => self.token_seat(token),
            (None, Some(account)) => self.account_seat(account).ok_or(RoundError::NotASeat),
            (None, None) => Err(RoundError::NotASeat),
        }
    }

    /// The seat the account `id` holds; the one to move if it holds both.
    pub fn account_seat(&self, id: &str) -> Option<Player> {
        let holds = |p: Player| self.accounts[p].as_ref().is_some_and(|a| a.id == id);
        let to_move = self.session.to_move();
        [to_move, !to_move].into_iter().find(|&p| holds(p))
    }

    /// The seat of a token, or [`RoundError::InviteUsed`] for an invite whose seat was
    /// claimed, or [`RoundError::NotASeat`].
    pub fn token_seat(&self, token: &str) -> Result<Player, RoundError> {
        if let Some(seat) = self.seat_of(Some(token)) {
            return Ok(seat);
        }
        match Player::BOTH
            .into_iter()
            .find(|&p| self.invites[p].as_ref().is_some_and(|h| h.matches(token)))
        {
            Some(seat) => Err(RoundError::InviteUsed(seat)),
            None => Err(RoundError::NotASeat),
        }
    }

    /// Whether the seat was claimed through an invite (see [`Store::claim_seat`]).
    pub fn is_claimed(&self, seat: Player) -> bool {
        self.invites[seat].is_some()
    }

    /// Gives `seat` to the token whose hash is `token`; the invite `invite` is used.
    pub(super) fn claimed(&mut self, seat: Player, invite: TokenHash, token: TokenHash) {
        self.tokens[seat] = Some(token);
        self.invites[seat] = Some(invite);
    }

    /// The seat of a viewer: `None` for a spectator (a signed-in account without a seat here
    /// is one). A token that holds no seat is refused rather than treated as a spectator, so a
    /// mistyped invite link says so.
    pub fn viewer_seat(&self, who: &Credential) -> Result<Option<Player>, RoundError> {
        match (who.given_token(), &who.account) {
            (Some(token), _) => self.token_seat(token).map(Some),
            (None, Some(account)) => Ok(self.account_seat(account)),
            (None, None) => Ok(None),
        }
    }

    /// The computer seat whose turn it is, while the game goes on.
    pub fn computer_to_move(&self) -> Option<u8> {
        if self.session.status().is_over() {
            return None;
        }
        match self.seats[self.session.to_move()] {
            Seat::Computer(level) => Some(level),
            Seat::Human => None,
        }
    }

    /// Refuses an action on a finished game.
    pub fn require_ongoing(&self) -> Result<(), RoundError> {
        match self.session.status() {
            Status::Over(outcome) => Err(RoundError::GameOver(outcome.to_string())),
            Status::Ongoing => Ok(()),
        }
    }

    /// Replaces this game's state with the stored one, keeping what belongs to this process
    /// (whether the computer is thinking).
    fn replace_with(&mut self, fresh: LiveGame) {
        let thinking = self.thinking;
        *self = fresh;
        self.thinking = thinking;
    }
}

/// Who asks to see or act in a game: a seat's token if the request gives one, else the
/// account of the request's session, if signed in (a seat the account holds needs no token).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Credential {
    pub token: Option<String>,
    /// The signed-in account's id.
    pub account: Option<String>,
    /// The hash of the session that signed the account in: a socket opened with it closes
    /// once the session ends.
    pub session: Option<TokenHash>,
}

impl Credential {
    /// A seat's token alone.
    pub fn of_token(token: &str) -> Credential {
        Credential {
            token: Some(token.to_string()),
            account: None,
            session: None,
        }
    }

    /// The session this credential stands on, if its account counts (no token was given).
    pub fn standing_session(&self) -> Option<&TokenHash> {
        self.session
            .as_ref()
            .filter(|_| self.given_token().is_none())
    }

    /// The token, unless it is empty (as no token).
    fn given_token(&self) -> Option<&str> {
        self.token.as_deref().filter(|t| !t.is_empty())
    }
}

/// One game's live object in this process.
#[derive(Debug)]
pub struct GameProxy {
    pub id: String,
    game: Mutex<LiveGame>,
    /// The game as of its last change. Every watcher holds a receiver and renders the newest
    /// snapshot when it moves on, so a change is never lost, only merged with the next ones.
    snapshots: watch::Sender<Arc<LiveGame>>,
    /// Wakes computer-vs-computer games that wait for a watcher.
    watcher_arrived: Notify,
    searches: AtomicU64,
    /// The last hint searched, with the game version it is for. Held while a hint is searched,
    /// so a game has at most one hint search at a time and asking again waits for it.
    pub(super) hint: Mutex<Option<(i64, String)>>,
    /// The analyses of a finished game's positions, by ply. Held while one is searched.
    pub(super) analyses: Mutex<super::analyst::Analyses>,
    /// When this process started: timed turns are counted from then at the earliest.
    not_before: i64,
    /// Wakes the clock's flag watcher after every change.
    clock_changed: Notify,
    /// A flag watcher runs for the game.
    clock_watched: AtomicBool,
}

impl GameProxy {
    /// The game's live object; timed turns are counted from `not_before` at the earliest
    /// whenever it is reloaded (see [`LiveGame::replay`]).
    pub fn new(game: LiveGame, not_before: i64) -> Arc<GameProxy> {
        Arc::new(GameProxy {
            id: game.id.clone(),
            snapshots: watch::channel(Arc::new(game.clone())).0,
            game: Mutex::new(game),
            watcher_arrived: Notify::new(),
            searches: AtomicU64::new(0),
            hint: Mutex::new(None),
            analyses: Mutex::new(Default::default()),
            not_before,
            clock_changed: Notify::new(),
            clock_watched: AtomicBool::new(false),
        })
    }

    pub async fn lock(&self) -> MutexGuard<'_, LiveGame> {
        self.game.lock().await
    }

    /// Publishes the game as it is now (the caller holds the lock) to readers and watchers.
    pub fn publish(&self, game: &LiveGame) {
        self.snapshots.send_replace(Arc::new(game.clone()));
        self.clock_changed.notify_waiters();
    }

    /// Completes after the next change is published (create and enable it before looking at
    /// the snapshot, or a change in between is missed).
    pub(super) fn clock_changed(&self) -> tokio::sync::futures::Notified<'_> {
        self.clock_changed.notified()
    }

    /// Claims the game's one flag watcher; false if it has one.
    pub(super) fn start_clock_watch(&self) -> bool {
        !self.clock_watched.swap(true, Ordering::AcqRel)
    }

    pub(super) fn end_clock_watch(&self) {
        self.clock_watched.store(false, Ordering::Release);
    }

    /// The game as of its last change, without waiting for a write under way.
    pub fn snapshot(&self) -> Arc<LiveGame> {
        self.snapshots.borrow().clone()
    }

    /// A new watcher's receiver. Subscribe through [`super::Rounds::watch`], which keeps the
    /// proxy in memory for as long as the receiver lives.
    pub(super) fn subscribe(&self) -> watch::Receiver<Arc<LiveGame>> {
        let receiver = self.snapshots.subscribe();
        self.watcher_arrived.notify_waiters();
        receiver
    }

    /// How many watchers the game has.
    pub fn watchers(&self) -> usize {
        self.snapshots.receiver_count()
    }

    /// Completes when a watcher subscribes after this future was enabled (create and enable it
    /// before looking at [`GameProxy::watchers`], or an arrival in between is missed).
    pub(super) fn watcher_arrival(&self) -> tokio::sync::futures::Notified<'_> {
        self.watcher_arrived.notified()
    }

    /// How many computer searches this process has started for the game.
    pub fn searches(&self) -> u64 {
        self.searches.load(Ordering::Relaxed)
    }

    pub(super) fn count_search(&self) {
        self.searches.fetch_add(1, Ordering::Relaxed);
    }

    /// Reloads the game in place if the store holds another version (or, with `known`, if the
    /// stored version `known` is newer than this one). Returns whether it changed. The caller
    /// holds the lock.
    pub(super) async fn reload_locked(
        &self,
        game: &mut LiveGame,
        store: &Store,
        known: Option<i64>,
    ) -> Result<bool, RoundError> {
        match known {
            Some(version) if version <= game.version => return Ok(false),
            Some(_) => {}
            None => match store.version(&self.id).await? {
                Some(version) if version <= game.version => return Ok(false),
                Some(_) => {}
                None => return Err(RoundError::NoSuchGame(self.id.clone())),
            },
        }
        let (stored, moves) = store
            .load_game(&self.id)
            .await?
            .ok_or_else(|| RoundError::NoSuchGame(self.id.clone()))?;
        if stored.version <= game.version {
            return Ok(false);
        }
        tracing::debug!(game = %self.id, from = game.version, to = stored.version, "reloaded");
        let mut fresh = LiveGame::replay(game.ruleset.clone(), &stored, &moves, self.not_before)?;
        fresh.load_ratings(store).await?;
        game.replace_with(fresh);
        self.publish(game);
        Ok(true)
    }
}
