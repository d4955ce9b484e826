//! Games in play: loaded from the store on first use, changed only after the store has kept the
//! change, and announced to every watcher. The computer's moves are searched on the blocking
//! pool so the server keeps answering meanwhile.

use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{SystemTime, UNIX_EPOCH};

use denkmeter_core::{ByPlayer, Outcome, Player, Reason, Status};
use denkmeter_engine::dynamic::{level_limits, AnyGame, AnySession};
use rand::Rng;
use tokio::sync::{broadcast, Mutex};

use crate::http::error::ApiError;
use crate::store::{Ending, GameRow, SeatRow, Store, StoreError};

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    Computer(u8),
}

impl Seat {
    fn to_row(self, token: Option<String>) -> SeatRow {
        match self {
            Seat::Human => SeatRow {
                kind: "human".into(),
                level: None,
                token,
            },
            Seat::Computer(level) => SeatRow {
                kind: "computer".into(),
                level: Some(i64::from(level)),
                token: None,
            },
        }
    }

    fn from_row(row: &SeatRow) -> Seat {
        match (row.kind.as_str(), row.level) {
            ("computer", Some(level)) => Seat::Computer(u8::try_from(level).unwrap_or(1)),
            _ => Seat::Human,
        }
    }
}

/// A game in memory.
#[derive(Debug)]
pub struct LiveGame {
    pub id: String,
    pub ruleset: Arc<dyn AnyGame>,
    pub start_position: Option<String>,
    pub seats: ByPlayer<Seat>,
    tokens: ByPlayer<Option<String>>,
    pub draw_offer: Option<Player>,
    pub seed: i64,
    /// The stored version this game was read at or last written as.
    version: i64,
    pub session: Box<dyn AnySession>,
    pub thinking: bool,
}

impl LiveGame {
    /// The seat a token holds, if any.
    pub fn seat_of(&self, token: Option<&str>) -> Option<Player> {
        let token = token?;
        Player::BOTH.into_iter().find(|&p| {
            self.tokens[p]
                .as_deref()
                .is_some_and(|t| constant_time_eq(t, token))
        })
    }

    /// The seat of a token, or 403.
    pub fn require_seat(&self, token: &str) -> Result<Player, ApiError> {
        self.seat_of(Some(token))
            .ok_or_else(|| ApiError::Forbidden("this token holds no seat in this game".into()))
    }

    fn ending(&self) -> Ending {
        match self.session.status() {
            Status::Ongoing => Ending {
                result: "*".into(),
                termination: None,
            },
            Status::Over(o) => Ending {
                result: o.result_token().into(),
                termination: Some(o.reason.key().into()),
            },
        }
    }
}

fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// One game's lock and its change announcements.
#[derive(Debug)]
pub struct Entry {
    pub game: Mutex<LiveGame>,
    pub changes: broadcast::Sender<()>,
}

/// How many games are kept in memory before idle ones are dropped.
pub const MAX_LOADED: usize = 2_000;

/// Every loaded game, and the store behind them.
#[derive(Debug)]
pub struct Games {
    pub store: Store,
    loaded: StdMutex<HashMap<String, Arc<Entry>>>,
    max_loaded: usize,
}

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn random_text(len: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    (0..len)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

fn internal(error: StoreError) -> ApiError {
    match error {
        StoreError::Conflict => ApiError::Conflict("the game changed meanwhile; reload it".into()),
        other => ApiError::Internal(other.to_string()),
    }
}

impl Games {
    pub fn new(store: Store) -> Arc<Games> {
        Games::with_capacity(store, MAX_LOADED)
    }

    /// Games that keep at most about `max_loaded` idle games in memory.
    pub fn with_capacity(store: Store, max_loaded: usize) -> Arc<Games> {
        Arc::new(Games {
            store,
            loaded: StdMutex::new(HashMap::new()),
            max_loaded,
        })
    }

    /// How many games are in memory.
    pub fn loaded(&self) -> usize {
        self.loaded.lock().map_or(0, |map| map.len())
    }

    fn cached(&self, id: &str) -> Option<Arc<Entry>> {
        self.loaded.lock().ok()?.get(id).cloned()
    }

    /// Drops a game from memory, so that its next use reloads it from the store (after another
    /// server process changed it, or a store failure).
    fn forget(&self, id: &str) {
        if let Ok(mut map) = self.loaded.lock() {
            map.remove(id);
        }
    }

    fn remember(&self, id: &str, entry: Arc<Entry>) -> Arc<Entry> {
        match self.loaded.lock() {
            Ok(mut map) => {
                if map.len() >= self.max_loaded {
                    // Games nobody watches and the computer is not playing are reloaded from
                    // the store when next needed.
                    map.retain(|_, e| {
                        e.changes.receiver_count() > 0
                            || e.game.try_lock().map_or(true, |g| g.thinking)
                    });
                }
                map.entry(id.to_string()).or_insert(entry).clone()
            }
            Err(_) => entry,
        }
    }

    /// Creates a game and returns its id and the tokens of its human seats.
    pub async fn create(
        self: &Arc<Self>,
        ruleset: Arc<dyn AnyGame>,
        seats: ByPlayer<Seat>,
        position: Option<String>,
    ) -> Result<(String, ByPlayer<Option<String>>), ApiError> {
        let session = ruleset
            .new_game(position.as_deref())
            .map_err(|e| ApiError::BadRequest(format!("position: {e}")))?;
        let id = random_text(10);
        let tokens = ByPlayer::from_fn(|p| (seats[p] == Seat::Human).then(|| random_text(24)));
        let now = now_ms();
        let seed = rand::thread_rng().gen_range(0..i64::MAX);
        let row = GameRow {
            id: id.clone(),
            ruleset: ruleset.name().to_string(),
            start_position: position.clone(),
            white: seats.white.to_row(tokens.white.clone()),
            black: seats.black.to_row(tokens.black.clone()),
            result: "*".into(),
            termination: None,
            draw_offer: None,
            seed,
            version: 0,
            created_at: now,
            updated_at: now,
        };
        self.store.create_game(&row).await.map_err(internal)?;
        tracing::info!(game = %id, ruleset = ruleset.name(), "created");
        let entry = Arc::new(Entry {
            game: Mutex::new(LiveGame {
                id: id.clone(),
                ruleset,
                start_position: position,
                seats,
                tokens: tokens.clone(),
                draw_offer: None,
                seed,
                version: 0,
                session,
                thinking: false,
            }),
            changes: broadcast::channel(16).0,
        });
        let entry = self.remember(&id, entry);
        self.schedule_computer(entry);
        Ok((id, tokens))
    }

    /// The game with this id, loaded from the store if needed (or if another server changed it
    /// since); 404 if there is none.
    pub async fn get(self: &Arc<Self>, id: &str) -> Result<Arc<Entry>, ApiError> {
        if let Some(entry) = self.cached(id) {
            let stored = self.store.version(id).await.map_err(internal)?;
            if stored == Some(entry.game.lock().await.version) {
                return Ok(entry);
            }
            self.forget(id);
        }
        if id.len() > 64 {
            return Err(ApiError::NotFound(format!("no game {id:?}")));
        }
        let (row, moves) = self
            .store
            .load_game(id)
            .await
            .map_err(internal)?
            .ok_or_else(|| ApiError::NotFound(format!("no game {id:?}")))?;
        let ruleset = denkmeter_games::registry::find(&row.ruleset).ok_or_else(|| {
            ApiError::Internal(format!("game {id} has unknown ruleset {}", row.ruleset))
        })?;
        let mut session = ruleset
            .new_game(row.start_position.as_deref())
            .map_err(|e| ApiError::Internal(format!("game {id}: stored position: {e}")))?;
        for (ply, text) in moves.iter().enumerate() {
            session
                .play(text)
                .map_err(|e| ApiError::Internal(format!("game {id}: stored move {ply}: {e}")))?;
        }
        if row.result != "*" && !session.status().is_over() {
            let winner = match row.result.as_str() {
                "1-0" => Some(Player::White),
                "0-1" => Some(Player::Black),
                _ => None,
            };
            let reason = row
                .termination
                .as_deref()
                .and_then(|t| t.parse::<Reason>().ok())
                .unwrap_or(if winner.is_some() {
                    Reason::Resignation
                } else {
                    Reason::DrawAgreed
                });
            session.end(Outcome {
                winner,
                reason,
                score: None,
            });
        }
        let draw_offer = match row.draw_offer.as_deref() {
            Some("white") => Some(Player::White),
            Some("black") => Some(Player::Black),
            _ => None,
        };
        let entry = Arc::new(Entry {
            game: Mutex::new(LiveGame {
                id: row.id.clone(),
                ruleset,
                start_position: row.start_position.clone(),
                seats: ByPlayer::new(Seat::from_row(&row.white), Seat::from_row(&row.black)),
                tokens: ByPlayer::new(row.white.token.clone(), row.black.token.clone()),
                draw_offer,
                seed: row.seed,
                version: row.version,
                session,
                thinking: false,
            }),
            changes: broadcast::channel(16).0,
        });
        let entry = self.remember(id, entry);
        self.schedule_computer(entry.clone());
        Ok(entry)
    }

    /// Plays a move for the seat of `token`: validated by the rules, stored, then announced.
    pub async fn play(self: &Arc<Self>, id: &str, token: &str, text: &str) -> Result<(), ApiError> {
        let entry = self.get(id).await?;
        {
            let mut game = entry.game.lock().await;
            let seat = game.require_seat(token)?;
            if let Status::Over(outcome) = game.session.status() {
                return Err(ApiError::Conflict(format!("the game is over: {outcome}")));
            }
            if game.session.to_move() != seat {
                return Err(ApiError::Conflict(format!(
                    "it is {}'s turn, not {seat}'s",
                    game.session.to_move()
                )));
            }
            if let Err(error) = self.apply(&mut game, text).await {
                if matches!(error, ApiError::Conflict(_) | ApiError::Internal(_)) {
                    self.forget(id);
                }
                return Err(error);
            }
        }
        let _ = entry.changes.send(());
        self.schedule_computer(entry);
        Ok(())
    }

    /// Plays `text` on a copy, stores it, and only then makes the copy the game.
    async fn apply(&self, game: &mut LiveGame, text: &str) -> Result<(), ApiError> {
        let mut next = game.session.box_clone();
        let written = next
            .play(text)
            .map_err(|e| ApiError::Unprocessable(e.to_string()))?;
        let ply = game.session.moves().len();
        let before = std::mem::replace(&mut game.session, next);
        let ending = game.ending();
        if let Err(error) = self
            .store
            .append_move(&game.id, game.version, ply, &written, &ending, now_ms())
            .await
        {
            game.session = before;
            return Err(internal(error));
        }
        game.version += 1;
        game.draw_offer = None;
        tracing::info!(game = %game.id, ply, mv = %written, "move");
        Ok(())
    }

    /// Resigns for the seat of `token`.
    pub async fn resign(self: &Arc<Self>, id: &str, token: &str) -> Result<(), ApiError> {
        let entry = self.get(id).await?;
        {
            let mut game = entry.game.lock().await;
            let seat = game.require_seat(token)?;
            self.end(&mut game, Outcome::win(!seat, Reason::Resignation))
                .await?;
        }
        let _ = entry.changes.send(());
        Ok(())
    }

    async fn end(&self, game: &mut LiveGame, outcome: Outcome) -> Result<(), ApiError> {
        if let Status::Over(o) = game.session.status() {
            return Err(ApiError::Conflict(format!("the game is over: {o}")));
        }
        let mut next = game.session.box_clone();
        next.end(outcome);
        let before = std::mem::replace(&mut game.session, next);
        let ending = game.ending();
        if let Err(error) = self
            .store
            .set_ending(&game.id, game.version, &ending, now_ms())
            .await
        {
            game.session = before;
            return Err(internal(error));
        }
        game.version += 1;
        game.draw_offer = None;
        Ok(())
    }

    /// Offers, accepts or declines a draw for the seat of `token`.
    pub async fn draw(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        action: &str,
    ) -> Result<(), ApiError> {
        let entry = self.get(id).await?;
        {
            let mut game = entry.game.lock().await;
            let seat = game.require_seat(token)?;
            if let Status::Over(o) = game.session.status() {
                return Err(ApiError::Conflict(format!("the game is over: {o}")));
            }
            let offer = match (action, game.draw_offer) {
                ("offer", Some(p)) if p == seat => return Ok(()),
                ("offer", _) => {
                    // The computer declines every offer, at once.
                    if matches!(game.seats[!seat], Seat::Computer(_)) {
                        None
                    } else {
                        Some(seat)
                    }
                }
                ("accept", Some(p)) if p != seat => {
                    self.end(&mut game, Outcome::draw(Reason::DrawAgreed))
                        .await?;
                    drop(game);
                    let _ = entry.changes.send(());
                    return Ok(());
                }
                ("accept", _) => {
                    return Err(ApiError::Conflict(
                        "there is no draw offer to accept".into(),
                    ))
                }
                ("decline", Some(p)) if p != seat => None,
                ("decline", _) => {
                    return Err(ApiError::Conflict(
                        "there is no draw offer to decline".into(),
                    ))
                }
                (other, _) => {
                    return Err(ApiError::BadRequest(format!(
                        "action: expected offer, accept or decline, found {other:?}"
                    )))
                }
            };
            self.store
                .set_draw_offer(&game.id, game.version, offer.map(Player::name), now_ms())
                .await
                .map_err(internal)?;
            game.version += 1;
            game.draw_offer = offer;
        }
        let _ = entry.changes.send(());
        Ok(())
    }

    /// If the computer is to move, searches its move on the blocking pool and plays it.
    pub fn schedule_computer(self: &Arc<Self>, entry: Arc<Entry>) {
        let games = self.clone();
        tokio::spawn(async move {
            let (session, limits, seed, ply) = {
                let mut game = entry.game.lock().await;
                if game.thinking || game.session.status().is_over() {
                    return;
                }
                let Seat::Computer(level) = game.seats[game.session.to_move()] else {
                    return;
                };
                let Some(limits) = level_limits(level) else {
                    return;
                };
                game.thinking = true;
                let ply = game.session.moves().len();
                let seed = (game.seed as u64).wrapping_add(ply as u64);
                (game.session.box_clone(), limits, seed, ply)
            };
            let _ = entry.changes.send(());
            let chosen =
                tokio::task::spawn_blocking(move || session.computer_move(limits, seed)).await;
            let played = {
                let mut game = entry.game.lock().await;
                game.thinking = false;
                match chosen {
                    Ok(Some(text))
                        if game.session.moves().len() == ply
                            && !game.session.status().is_over() =>
                    {
                        match games.apply(&mut game, &text).await {
                            Ok(()) => true,
                            Err(error) => {
                                tracing::error!(game = %game.id, %error, "computer move not stored");
                                games.forget(&game.id);
                                false
                            }
                        }
                    }
                    Ok(_) => false,
                    Err(error) => {
                        tracing::error!(game = %game.id, %error, "computer search failed");
                        false
                    }
                }
            };
            let _ = entry.changes.send(());
            if played {
                games.schedule_computer(entry);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[tokio::test]
    async fn idle_games_leave_memory_and_come_back_from_the_store() {
        let dir = std::env::temp_dir().join(format!("denkmeter-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.join("cache.db").display());
        let games = Games::with_capacity(Store::open(&url).await.unwrap(), 3);
        let chad = denkmeter_games::registry::find("chad").unwrap();
        let seats = ByPlayer::new(Seat::Human, Seat::Human);
        let mut ids = Vec::new();
        for _ in 0..8 {
            let (id, tokens) = games.create(chad.clone(), seats, None).await.unwrap();
            games
                .play(&id, tokens.white.as_deref().unwrap(), "C5-A5")
                .await
                .unwrap();
            ids.push(id);
        }
        assert!(games.loaded() <= 3, "{} games in memory", games.loaded());
        // A watched game stays.
        let watched = games.get(&ids[7]).await.unwrap();
        let _watcher = watched.changes.subscribe();
        for id in &ids {
            let entry = games.get(id).await.unwrap();
            assert_eq!(entry.game.lock().await.session.moves(), ["C5-A5"]);
        }
        assert!(games.loaded() <= 3);
        assert!(
            games.cached(&ids[7]).is_some(),
            "the watched game was dropped"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
