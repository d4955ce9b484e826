//! Storage: every query of the server, through sqlx's runtime API over `Any`, so the same code
//! runs on SQLite and PostgreSQL. Migrations run at start. Rows come out as domain types
//! (seats, players, outcomes, token hashes), never as strings for the caller to interpret.
//!
//! SQLite runs in WAL mode with `synchronous = NORMAL`, one writer connection and a few reader
//! connections. Writes go through one task that commits whatever has queued up meanwhile in one
//! transaction (group commit); a write that finds its game at another version fails alone. A
//! commit is a write to the WAL file without an fsync, so an acknowledged move survives the
//! server being killed (the WAL is in the operating system's cache); a power cut or an
//! operating-system crash may lose the moves committed since the last checkpoint (at most about
//! 4 MB of WAL), never the database's consistency. See docs/operations.md.
//!
//! On PostgreSQL the same group commit runs with four writers, and every write also sends a
//! notification (`LISTEN denkmeter_games`) in its transaction, so other server processes on the
//! same database learn of it at once.

mod accounts;
mod analyses;
mod challenges;
pub mod puzzles;
mod ratings;

pub use accounts::{Account, SessionPlayer};
pub use analyses::{StoredAnalysis, CLAIM_STALE_MS};
pub use challenges::{Challenge, ChallengeError, NewChallenge, MAX_OPEN_CHALLENGES};
pub use ratings::{
    CategoryRating, HistoryPoint, PlayedGame, Ranked, RatedEnd, RatedSeat, RatingChange,
};

use std::path::{Path, PathBuf};
use std::time::Duration;

use denkmeter_core::{ByPlayer, Outcome, Player};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, Mutex};

use crate::clock::{Clock, TimeControl};
use crate::seat::{Seat, TokenHash};

/// A storage failure. Details are logged, never sent to clients.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("database migrations: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    /// The database could not be opened or created; the text says why, in one line.
    #[error("{0}")]
    Open(String),
    /// A stored row that cannot be read back (a value no version of the server writes).
    #[error("game {id}: stored {what} cannot be read: {value:?}")]
    Corrupt {
        id: String,
        what: &'static str,
        value: String,
    },
    /// Another writer changed the game first.
    #[error("the game changed meanwhile")]
    Conflict,
    /// The transaction of a group of writes failed as a whole.
    #[error("database: {0}")]
    Batch(String),
}

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The PostgreSQL notification channel of game changes; the payload is lines `ID VERSION`.
pub const CHANGES_CHANNEL: &str = "denkmeter_games";

/// How many connections read a SQLite database beside its one writer.
const SQLITE_READERS: u32 = 4;
/// How many connections a server keeps to PostgreSQL.
const POSTGRES_CONNECTIONS: u32 = 16;
/// How many of them commit groups of writes at once.
const POSTGRES_WRITERS: usize = 4;
/// How long a SQLite connection waits for a lock before reporting a failure.
const SQLITE_BUSY_TIMEOUT_MS: u32 = 5_000;

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub id: String,
    pub ruleset: String,
    pub start_position: Option<String>,
    /// The board file, `(name, text)`, when the game is not played on its ruleset's default
    /// board (an uploaded Schada board).
    pub board: Option<(String, String)>,
    pub seats: ByPlayer<Seat>,
    /// The hashes of the human seats' tokens.
    pub tokens: ByPlayer<Option<TokenHash>>,
    /// The hashes of the invite tokens already claimed (see [`Store::claim_seat`]): the seat
    /// is taken, and the invite holds nothing any more.
    pub invites: ByPlayer<Option<TokenHash>>,
    /// The accounts holding the seats, if any.
    pub accounts: ByPlayer<Option<SeatAccount>>,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// The server that stored the game's last write, which also searches the computer's reply
    /// (`None` for games written before servers were named).
    pub written_by: Option<String>,
    /// Set once the game is over (the score, if any, is recomputed from the moves).
    pub outcome: Option<Outcome>,
    pub draw_offer: Option<Player>,
    /// A takeback asked for by this seat and not yet answered.
    pub takeback_offer: Option<Player>,
    /// The time control and the clocks of a timed game.
    pub clock: Option<Clock>,
    /// For each move, the time its mover had left when making it (`None` where untimed);
    /// filled by [`Store::load_game`] only.
    pub move_lefts: Vec<Option<i64>>,
    pub seed: i64,
    /// How many writes the game has had; every write names the version it read.
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A seat claimed through its invite: the invite's hash, the claimant's new token's, and the
/// claimant's account if signed in.
#[derive(Clone, Debug)]
pub struct SeatClaim {
    pub invite: TokenHash,
    pub token: TokenHash,
    pub account: Option<String>,
}

/// The account holding a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatAccount {
    pub id: String,
    /// `None` once the account is deleted.
    pub name: Option<String>,
}

/// What a standing offer is for: it stands until answered, a move or the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    Draw,
    Takeback,
}

impl OfferKind {
    /// The column holding the seat that made the offer.
    fn column(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw_offer",
            OfferKind::Takeback => "takeback_offer",
        }
    }
}

/// A move to store: its ply (0-based), its text, the outcome after it if it ended the game,
/// and in a timed game the clocks after it and the time its mover had left when making it.
#[derive(Clone, Debug, PartialEq)]
pub struct NewMove {
    pub ply: usize,
    pub text: String,
    pub outcome: Option<Outcome>,
    pub clock: Option<Clock>,
    pub left_ms: Option<i64>,
    /// For a move that ends a rated game: how to rate it.
    pub rated: Option<RatedEnd>,
}

/// A game with its number of moves, for lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub game: StoredGame,
    pub moves: i64,
}

/// A change another writer made: game `id` is now at `version`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Game {
        id: String,
        version: i64,
    },
    /// The notification connection was lost and is back: anything may have changed.
    Resync,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Backend {
    Sqlite,
    Postgres,
}

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    writer: AnyPool,
    /// The group-commit writers' queue (`None` only while the store is being opened).
    batches: Option<mpsc::Sender<Pending>>,
    reader: AnyPool,
    backend: Backend,
    /// For the notification listener.
    postgres_url: Option<String>,
    /// This server's name among those sharing the database (see [`Store::open_as`]).
    server_id: Arc<str>,
    /// Sessions found valid lately (see [`accounts::SessionCache`]).
    sessions: Arc<accounts::SessionCache>,
}

/// Where a `--database` text points.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    SqliteFile(PathBuf),
    SqliteMemory,
    Postgres(String),
}

/// Reads a database URL or a plain file path: `postgres://...`, `postgresql://...`,
/// `sqlite://relative.db`, `sqlite:///absolute.db`, `sqlite:file.db`, `sqlite::memory:`, or a
/// path such as `games.db` (any `?...` options of a SQLite URL are replaced by the server's).
fn target(text: &str) -> Result<Target, StoreError> {
    let text = text.trim();
    if text.starts_with("postgres://") || text.starts_with("postgresql://") {
        return Ok(Target::Postgres(text.to_string()));
    }
    let path = if let Some(rest) = text.strip_prefix("sqlite:") {
        let rest = rest.strip_prefix("//").unwrap_or(rest);
        let rest = rest.split('?').next().unwrap_or("");
        if rest == ":memory:" {
            return Ok(Target::SqliteMemory);
        }
        rest.to_string()
    } else if let Some((scheme, _)) = text.split_once("://") {
        return Err(StoreError::Open(format!(
            "unsupported database {scheme:?}: use a SQLite file (sqlite:///path/games.db or a \
             plain path) or PostgreSQL (postgres://user:password@host/database)"
        )));
    } else {
        text.to_string()
    };
    if path.is_empty() {
        return Err(StoreError::Open(format!(
            "the database {text:?} names no file"
        )));
    }
    Ok(Target::SqliteFile(PathBuf::from(path)))
}

/// Creates the SQLite file if it is missing, readable and writable by its owner only (SQLite
/// gives its WAL and shared-memory files the same permissions).
fn create_sqlite_file(path: &Path) -> Result<(), StoreError> {
    use std::io::ErrorKind;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            if path.is_dir() {
                Err(StoreError::Open(format!(
                    "cannot open the SQLite database {}: it is a directory",
                    path.display()
                )))
            } else {
                Ok(())
            }
        }
        Err(e) => {
            let dir = path
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let why = if !dir.is_dir() {
                format!("the directory {} does not exist", dir.display())
            } else {
                e.to_string()
            };
            Err(StoreError::Open(format!(
                "cannot create the SQLite database {}: {why}",
                path.display()
            )))
        }
    }
}

/// The path as sqlx reads it (it percent-decodes the path of a `sqlite://` URL).
fn sqlite_url(path: &Path) -> String {
    let mut encoded = String::new();
    for c in path.to_string_lossy().chars() {
        match c {
            '%' => encoded.push_str("%25"),
            '?' => encoded.push_str("%3F"),
            '#' => encoded.push_str("%23"),
            c => encoded.push(c),
        }
    }
    format!("sqlite://{encoded}?mode=rwc")
}

fn seat_from(kind: &str, level: Option<i64>, id: &str) -> Result<Seat, StoreError> {
    match (kind, level) {
        ("human", _) => Ok(Seat::Human),
        ("computer", Some(level)) => {
            u8::try_from(level)
                .map(Seat::Computer)
                .map_err(|_| StoreError::Corrupt {
                    id: id.to_string(),
                    what: "computer level",
                    value: level.to_string(),
                })
        }
        _ => Err(StoreError::Corrupt {
            id: id.to_string(),
            what: "seat",
            value: format!("{kind} {level:?}"),
        }),
    }
}

fn seat_columns(seat: Seat) -> (&'static str, Option<i64>) {
    match seat {
        Seat::Human => ("human", None),
        Seat::Computer(level) => ("computer", Some(i64::from(level))),
    }
}

fn player_from(text: &str) -> Option<Player> {
    match text {
        "white" => Some(Player::White),
        "black" => Some(Player::Black),
        _ => None,
    }
}

fn outcome_from(
    result: &str,
    termination: Option<&str>,
    id: &str,
) -> Result<Option<Outcome>, StoreError> {
    Outcome::from_result(result, termination).map_err(|error| StoreError::Corrupt {
        id: id.to_string(),
        what: "result",
        value: error.to_string(),
    })
}

fn outcome_columns(outcome: Option<&Outcome>) -> (&'static str, Option<&'static str>) {
    match outcome {
        None => ("*", None),
        Some(o) => (o.result_token(), Some(o.reason.key())),
    }
}

const GAME_COLUMNS: &str = "id, ruleset, start_position, white_kind, white_level, \
     white_token_hash, black_kind, black_level, black_token_hash, result, termination, \
     draw_offer, seed, version, created_at, updated_at, board_name, board_text, takeback_offer, \
     clock_kind, clock_main_ms, clock_increment_ms, white_clock_ms, black_clock_ms, turn_started_at, \
     white_invite_hash, black_invite_hash, written_by, white_player, black_player, rated, \
     (SELECT name FROM players WHERE players.id = games.white_player) AS white_player_name, \
     (SELECT name FROM players WHERE players.id = games.black_player) AS black_player_name";

/// A timed game's clock from its columns; `None` for an untimed game.
fn clock_from(row: &AnyRow, id: &str) -> Result<Option<Clock>, StoreError> {
    let Some(kind) = row.try_get::<Option<String>, _>("clock_kind")? else {
        return Ok(None);
    };
    let number = |column: &str| -> Result<i64, StoreError> {
        row.try_get::<Option<i64>, _>(column)?
            .ok_or_else(|| StoreError::Corrupt {
                id: id.to_string(),
                what: "clock",
                value: format!("{column} is NULL"),
            })
    };
    let control = TimeControl::from_columns(
        &kind,
        number("clock_main_ms")?,
        number("clock_increment_ms")?,
    )
    .ok_or_else(|| StoreError::Corrupt {
        id: id.to_string(),
        what: "clock kind",
        value: kind.clone(),
    })?;
    Ok(Some(Clock {
        control,
        remaining: ByPlayer::new(number("white_clock_ms")?, number("black_clock_ms")?),
        turn_started: number("turn_started_at")?,
    }))
}

/// Writes a timed game's clocks (the caller has checked and moved on its version).
async fn store_clock(
    tx: &mut Transaction<'_>,
    id: &str,
    clock: Option<&Clock>,
) -> Result<(), StoreError> {
    let Some(clock) = clock else {
        return Ok(());
    };
    sqlx::query(
        "UPDATE games SET white_clock_ms = $1, black_clock_ms = $2, turn_started_at = $3 \
         WHERE id = $4",
    )
    .bind(clock.remaining.white)
    .bind(clock.remaining.black)
    .bind(clock.turn_started)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The account in a seat, from its id and name columns.
fn account_from(
    row: &AnyRow,
    id_column: &str,
    name_column: &str,
) -> Result<Option<SeatAccount>, StoreError> {
    let id: Option<String> = row.try_get(id_column)?;
    Ok(match id {
        None => None,
        Some(id) => Some(SeatAccount {
            id,
            name: row.try_get(name_column)?,
        }),
    })
}

fn game_from_row(row: &AnyRow) -> Result<StoredGame, StoreError> {
    let id: String = row.try_get("id")?;
    let token = |column: &str| -> Result<Option<TokenHash>, StoreError> {
        match row.try_get::<Option<String>, _>(column)? {
            None => Ok(None),
            Some(text) => TokenHash::from_hex(&text)
                .map(Some)
                .ok_or_else(|| StoreError::Corrupt {
                    id: id.clone(),
                    what: "token hash",
                    value: "(not shown)".into(),
                }),
        }
    };
    let white = seat_from(
        &row.try_get::<String, _>("white_kind")?,
        row.try_get("white_level")?,
        &id,
    )?;
    let black = seat_from(
        &row.try_get::<String, _>("black_kind")?,
        row.try_get("black_level")?,
        &id,
    )?;
    let result: String = row.try_get("result")?;
    let termination: Option<String> = row.try_get("termination")?;
    let draw_offer: Option<String> = row.try_get("draw_offer")?;
    let takeback_offer: Option<String> = row.try_get("takeback_offer")?;
    Ok(StoredGame {
        ruleset: row.try_get("ruleset")?,
        start_position: row.try_get("start_position")?,
        board: match (
            row.try_get::<Option<String>, _>("board_name")?,
            row.try_get::<Option<String>, _>("board_text")?,
        ) {
            (Some(name), Some(text)) => Some((name, text)),
            _ => None,
        },
        seats: ByPlayer::new(white, black),
        tokens: ByPlayer::new(token("white_token_hash")?, token("black_token_hash")?),
        invites: ByPlayer::new(token("white_invite_hash")?, token("black_invite_hash")?),
        accounts: ByPlayer::new(
            account_from(row, "white_player", "white_player_name")?,
            account_from(row, "black_player", "black_player_name")?,
        ),
        rated: row.try_get::<i64, _>("rated")? != 0,
        written_by: row.try_get("written_by")?,
        outcome: outcome_from(&result, termination.as_deref(), &id)?,
        draw_offer: draw_offer.as_deref().and_then(player_from),
        takeback_offer: takeback_offer.as_deref().and_then(player_from),
        clock: clock_from(row, &id)?,
        move_lefts: Vec::new(),
        seed: row.try_get("seed")?,
        version: row.try_get("version")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        id,
    })
}

type Transaction<'c> = sqlx::Transaction<'c, sqlx::Any>;

/// A versioned write to a game: applied only if the game is still at `version`, which it moves
/// to `version + 1`.
#[derive(Debug)]
enum Write {
    Move {
        id: String,
        version: i64,
        ply: i64,
        text: String,
        outcome: Option<Outcome>,
        clock: Option<Clock>,
        left_ms: Option<i64>,
        rated: Option<RatedEnd>,
        now: i64,
    },
    Outcome {
        id: String,
        version: i64,
        outcome: Outcome,
        rated: Option<RatedEnd>,
        now: i64,
    },
    Offer {
        id: String,
        version: i64,
        kind: OfferKind,
        offer: Option<Player>,
        now: i64,
    },
    /// The moves from ply `keep` on are taken back.
    Takeback {
        id: String,
        version: i64,
        keep: i64,
        clock: Option<Clock>,
        now: i64,
    },
    /// The seat held by `invite` now belongs to `token`; the invite is used.
    Claim {
        id: String,
        version: i64,
        seat: Player,
        invite: TokenHash,
        token: TokenHash,
        /// The claimant's account, which takes the seat.
        account: Option<String>,
        now: i64,
    },
}

impl Write {
    fn game(&self) -> &str {
        match self {
            Write::Move { id, .. }
            | Write::Outcome { id, .. }
            | Write::Offer { id, .. }
            | Write::Takeback { id, .. }
            | Write::Claim { id, .. } => id,
        }
    }

    fn version(&self) -> i64 {
        match self {
            Write::Move { version, .. }
            | Write::Outcome { version, .. }
            | Write::Offer { version, .. }
            | Write::Takeback { version, .. }
            | Write::Claim { version, .. } => *version,
        }
    }

    /// Runs the write in `tx`, as server `server`. On [`StoreError::Conflict`] it has changed
    /// nothing; any other error fails the whole transaction.
    async fn apply(
        &self,
        tx: &mut Transaction<'_>,
        server: &str,
        backend: Backend,
    ) -> Result<(), StoreError> {
        match self {
            Write::Move {
                id,
                version,
                ply,
                text,
                outcome,
                clock,
                left_ms,
                rated,
                now,
            } => {
                let inserted = sqlx::query(
                    "INSERT INTO moves (game_id, ply, text, created_at, left_ms) \
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                )
                .bind(id)
                .bind(ply)
                .bind(text)
                .bind(now)
                .bind(left_ms)
                .execute(&mut **tx)
                .await?;
                if inserted.rows_affected() == 0 {
                    return Err(StoreError::Conflict);
                }
                match store_outcome(tx, id, *version, outcome.as_ref(), *now, server).await {
                    Err(StoreError::Conflict) => {
                        // Take back the move just inserted: the game is at another version.
                        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply = $2")
                            .bind(id)
                            .bind(ply)
                            .execute(&mut **tx)
                            .await?;
                        Err(StoreError::Conflict)
                    }
                    Err(other) => Err(other),
                    Ok(()) => {
                        store_clock(tx, id, clock.as_ref()).await?;
                        if let (Some(outcome), Some(rated)) = (outcome, rated) {
                            ratings::rate_game(tx, backend, id, rated, outcome, *now).await?;
                        }
                        Ok(())
                    }
                }
            }
            Write::Outcome {
                id,
                version,
                outcome,
                rated,
                now,
            } => {
                store_outcome(tx, id, *version, Some(outcome), *now, server).await?;
                if let Some(rated) = rated {
                    ratings::rate_game(tx, backend, id, rated, outcome, *now).await?;
                }
                Ok(())
            }
            Write::Offer {
                id,
                version,
                kind,
                offer,
                now,
            } => {
                let updated = sqlx::query(&format!(
                    "UPDATE games SET {} = $1, updated_at = $2, version = version + 1, \
                     written_by = $5 WHERE id = $3 AND version = $4",
                    kind.column()
                ))
                .bind(offer.map(Player::name))
                .bind(now)
                .bind(id)
                .bind(version)
                .bind(server)
                .execute(&mut **tx)
                .await?;
                found_version(&updated)
            }
            Write::Takeback {
                id,
                version,
                keep,
                clock,
                now,
            } => {
                // The version first: on a conflict nothing is deleted.
                let updated = sqlx::query(
                    "UPDATE games SET takeback_offer = NULL, draw_offer = NULL, updated_at = $1, \
                     version = version + 1, written_by = $4 \
                     WHERE id = $2 AND version = $3 AND result = '*'",
                )
                .bind(now)
                .bind(id)
                .bind(version)
                .bind(server)
                .execute(&mut **tx)
                .await?;
                found_version(&updated)?;
                sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                    .bind(id)
                    .bind(keep)
                    .execute(&mut **tx)
                    .await?;
                store_clock(tx, id, clock.as_ref()).await
            }
            Write::Claim {
                id,
                version,
                seat,
                invite,
                token,
                account,
                now,
            } => {
                // Only while the seat still holds the invite and was never claimed: of two
                // claims at once, the second finds the first's token (or version) and fails.
                let name = seat.name();
                let updated = sqlx::query(&format!(
                    "UPDATE games SET {name}_token_hash = $1, {name}_invite_hash = $2, \
                     updated_at = $3, version = version + 1, written_by = $4, \
                     {name}_player = COALESCE($7, {name}_player) \
                     WHERE id = $5 AND version = $6 AND {name}_token_hash = $2 \
                     AND {name}_invite_hash IS NULL"
                ))
                .bind(token.to_hex())
                .bind(invite.to_hex())
                .bind(now)
                .bind(server)
                .bind(id)
                .bind(version)
                .bind(account)
                .execute(&mut **tx)
                .await?;
                found_version(&updated)
            }
        }
    }
}

/// Inserts a new game and its first moves in `tx`, written by `server`.
async fn insert_game(
    tx: &mut Transaction<'_>,
    game: &StoredGame,
    moves: &[String],
    server: &str,
) -> Result<(), StoreError> {
    let (white_kind, white_level) = seat_columns(game.seats.white);
    let (black_kind, black_level) = seat_columns(game.seats.black);
    let (result, termination) = outcome_columns(game.outcome.as_ref());
    sqlx::query(
        "INSERT INTO games (id, ruleset, start_position, white_kind, white_level, \
         white_token_hash, black_kind, black_level, black_token_hash, result, termination, \
         draw_offer, seed, version, created_at, updated_at, board_name, board_text, \
         takeback_offer, clock_kind, clock_main_ms, clock_increment_ms, white_clock_ms, \
         black_clock_ms, turn_started_at, written_by, white_player, black_player, rated) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, \
         $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29)",
    )
    .bind(&game.id)
    .bind(&game.ruleset)
    .bind(&game.start_position)
    .bind(white_kind)
    .bind(white_level)
    .bind(game.tokens.white.as_ref().map(TokenHash::to_hex))
    .bind(black_kind)
    .bind(black_level)
    .bind(game.tokens.black.as_ref().map(TokenHash::to_hex))
    .bind(result)
    .bind(termination)
    .bind(game.draw_offer.map(Player::name))
    .bind(game.seed)
    .bind(game.version)
    .bind(game.created_at)
    .bind(game.updated_at)
    .bind(game.board.as_ref().map(|b| b.0.as_str()))
    .bind(game.board.as_ref().map(|b| b.1.as_str()))
    .bind(game.takeback_offer.map(Player::name))
    .bind(game.clock.map(|c| c.control.columns().0))
    .bind(game.clock.map(|c| c.control.columns().1))
    .bind(game.clock.map(|c| c.control.columns().2))
    .bind(game.clock.map(|c| c.remaining.white))
    .bind(game.clock.map(|c| c.remaining.black))
    .bind(game.clock.map(|c| c.turn_started))
    .bind(server)
    .bind(game.accounts.white.as_ref().map(|a| a.id.as_str()))
    .bind(game.accounts.black.as_ref().map(|a| a.id.as_str()))
    .bind(i64::from(game.rated))
    .execute(&mut **tx)
    .await?;
    for (ply, text) in moves.iter().enumerate() {
        sqlx::query(
            "INSERT INTO moves (game_id, ply, text, created_at, left_ms) \
             VALUES ($1, $2, $3, $4, NULL)",
        )
        .bind(&game.id)
        .bind(i64::try_from(ply).unwrap_or(i64::MAX))
        .bind(text)
        .bind(game.created_at)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// A versioned update changed its one row, or the game was at another version.
fn found_version(updated: &sqlx::any::AnyQueryResult) -> Result<(), StoreError> {
    if updated.rows_affected() == 1 {
        Ok(())
    } else {
        Err(StoreError::Conflict)
    }
}

/// Writes the game's result (clearing any draw offer) if it is still at `version`, moving it to
/// `version + 1`; [`StoreError::Conflict`] otherwise.
async fn store_outcome(
    tx: &mut Transaction<'_>,
    id: &str,
    version: i64,
    outcome: Option<&Outcome>,
    now: i64,
    server: &str,
) -> Result<(), StoreError> {
    let (result, termination) = outcome_columns(outcome);
    let updated = sqlx::query(
        "UPDATE games SET result = $1, termination = $2, draw_offer = NULL, \
         takeback_offer = NULL, updated_at = $3, version = version + 1, written_by = $6 \
         WHERE id = $4 AND version = $5",
    )
    .bind(result)
    .bind(termination)
    .bind(now)
    .bind(id)
    .bind(version)
    .bind(server)
    .execute(&mut **tx)
    .await?;
    found_version(&updated)
}

/// A write waiting for the SQLite writer, and where its result goes.
struct Pending {
    write: Write,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// Writes that arrive while a batch commits wait at most this many to a batch.
const MAX_BATCH: usize = 256;
/// Writes waiting for the SQLite writer before new ones wait to be queued.
const WRITE_QUEUE: usize = 4_096;

/// The writers: group commit. Whatever writes queued up while the last transaction ran go into
/// the next one; a write that finds its game at another version changes nothing and fails only
/// itself, and a write is acknowledged only after its transaction commits. SQLite has one writer; PostgreSQL several,
/// each with its own connection, and every write there also notifies the other servers.
async fn write_in_batches(store: Store, queue: Arc<Mutex<mpsc::Receiver<Pending>>>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    loop {
        {
            let mut queue = queue.lock().await;
            let Some(first) = queue.recv().await else {
                return;
            };
            batch.push(first);
            while batch.len() < MAX_BATCH {
                match queue.try_recv() {
                    Ok(next) => batch.push(next),
                    Err(_) => break,
                }
            }
        }
        let results = match store.run_batch(&batch).await {
            Ok(results) => results,
            Err(error) => {
                // The transaction failed as a whole (a deadlock with another server, a lost
                // connection): each write gets a transaction of its own.
                tracing::warn!(%error, writes = batch.len(), "group commit failed; writing one by one");
                let mut results = Vec::with_capacity(batch.len());
                for pending in &batch {
                    results.push(
                        store
                            .run_batch(std::slice::from_ref(pending))
                            .await
                            .and_then(|mut r| r.pop().unwrap_or(Ok(()))),
                    );
                }
                results
            }
        };
        for (pending, result) in batch.drain(..).zip(results) {
            let _ = pending.done.send(result);
        }
    }
}

impl Store {
    /// Runs writes in one transaction; their results, or the error that failed it as a whole.
    async fn run_batch(
        &self,
        batch: &[Pending],
    ) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        let mut tx = self.writer.begin().await?;
        let mut results = Vec::with_capacity(batch.len());
        let mut changed = String::new();
        for pending in batch {
            match pending
                .write
                .apply(&mut tx, &self.server_id, self.backend)
                .await
            {
                Ok(()) => {
                    let (id, version) = (pending.write.game(), pending.write.version() + 1);
                    changed.push_str(&format!("{id} {version}\n"));
                    results.push(Ok(()));
                }
                Err(StoreError::Conflict) => results.push(Err(StoreError::Conflict)),
                // Anything else fails the transaction; its writes are retried one by one.
                Err(error) => return Err(error),
            }
        }
        if self.backend == Backend::Postgres {
            // One notification for the batch, delivered at commit.
            for chunk in payload_chunks(&changed) {
                sqlx::query("SELECT pg_notify($1, $2)")
                    .bind(CHANGES_CHANNEL)
                    .bind(chunk)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(results)
    }

    /// The database's pools for the lab's tables ([`denkmeter_lab::LabStore`]): the writer's,
    /// the readers', and whether it is PostgreSQL.
    pub fn lab_pools(&self) -> (AnyPool, AnyPool, bool) {
        (
            self.writer.clone(),
            self.reader.clone(),
            self.backend == Backend::Postgres,
        )
    }

    /// Opens the database (creating a SQLite file, owner-only, if it is missing) and applies
    /// the migrations, as a server with a name of its own for this run. Errors are one line
    /// saying what is wrong.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::open_as(url, &format!("run-{}", crate::seat::new_token())).await
    }

    /// Opens the database as the server named `server_id`: its writes carry the name, and on
    /// a shared database its earlier runs' searches are its own to take over at once after a
    /// restart. Servers that run at the same time on one database need different names.
    pub async fn open_as(url: &str, server_id: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let store = match target(url)? {
            Target::Postgres(url) => {
                let pool = AnyPoolOptions::new()
                    .max_connections(POSTGRES_CONNECTIONS)
                    .acquire_timeout(Duration::from_secs(10))
                    .connect(&url)
                    .await
                    .map_err(|e| StoreError::Open(format!("cannot connect to PostgreSQL: {e}")))?;
                Store {
                    writer: pool.clone(),
                    batches: None,
                    reader: pool,
                    backend: Backend::Postgres,
                    postgres_url: Some(url),
                    server_id: server_id.into(),
                    sessions: Arc::default(),
                }
            }
            Target::SqliteMemory => {
                // One connection: every connection to `:memory:` is a database of its own.
                let pool = sqlite_pool("sqlite::memory:", 1, true).await?;
                Store {
                    writer: pool.clone(),
                    batches: None,
                    reader: pool,
                    backend: Backend::Sqlite,
                    postgres_url: None,
                    server_id: server_id.into(),
                    sessions: Arc::default(),
                }
            }
            Target::SqliteFile(path) => {
                create_sqlite_file(&path)?;
                let url = sqlite_url(&path);
                let open_error = |e: sqlx::Error| {
                    StoreError::Open(format!(
                        "cannot open the SQLite database {}: {e}",
                        path.display()
                    ))
                };
                let writer = sqlite_pool(&url, 1, true).await.map_err(|e| match e {
                    StoreError::Database(e) => open_error(e),
                    other => other,
                })?;
                let reader =
                    sqlite_pool(&url, SQLITE_READERS, false)
                        .await
                        .map_err(|e| match e {
                            StoreError::Database(e) => open_error(e),
                            other => other,
                        })?;
                Store {
                    writer,
                    batches: None,
                    reader,
                    backend: Backend::Sqlite,
                    postgres_url: None,
                    server_id: server_id.into(),
                    sessions: Arc::default(),
                }
            }
        };
        MIGRATOR.run(&store.writer).await?;
        store.hash_plain_tokens().await?;
        let (queue, pending) = mpsc::channel(WRITE_QUEUE);
        let pending = Arc::new(Mutex::new(pending));
        let writers = match store.backend {
            Backend::Sqlite => 1,
            Backend::Postgres => POSTGRES_WRITERS,
        };
        for _ in 0..writers {
            tokio::spawn(write_in_batches(store.clone(), pending.clone()));
        }
        Ok(Store {
            batches: Some(queue),
            ..store
        })
    }

    /// Whether other server processes may share this database (PostgreSQL).
    pub fn is_shared(&self) -> bool {
        self.backend == Backend::Postgres
    }

    /// Replaces plain tokens left by servers before token hashing with their hashes.
    async fn hash_plain_tokens(&self) -> Result<(), StoreError> {
        let rows = sqlx::query(
            "SELECT id, white_token_hash, black_token_hash FROM games \
             WHERE length(white_token_hash) <> 64 OR length(black_token_hash) <> 64",
        )
        .fetch_all(&self.writer)
        .await?;
        for row in rows {
            let id: String = row.try_get("id")?;
            let hash = |column: &str| -> Result<Option<String>, StoreError> {
                Ok(row.try_get::<Option<String>, _>(column)?.map(|t| {
                    match TokenHash::from_hex(&t) {
                        Some(_) => t,
                        None => TokenHash::of(&t).to_hex(),
                    }
                }))
            };
            sqlx::query(
                "UPDATE games SET white_token_hash = $1, black_token_hash = $2 WHERE id = $3",
            )
            .bind(hash("white_token_hash")?)
            .bind(hash("black_token_hash")?)
            .bind(&id)
            .execute(&self.writer)
            .await?;
        }
        Ok(())
    }

    /// Stores a new game with the moves it starts with, in one transaction.
    pub async fn create_game(&self, game: &StoredGame, moves: &[String]) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        insert_game(&mut tx, game, moves, &self.server_id).await?;
        tx.commit().await?;
        Ok(())
    }

    /// A game and its moves in order, or `None`.
    pub async fn load_game(
        &self,
        id: &str,
    ) -> Result<Option<(StoredGame, Vec<String>)>, StoreError> {
        // One snapshot for the row and its moves, so they belong to the same version.
        let mut tx = self.reader.begin().await?;
        if self.backend == Backend::Postgres {
            sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                .execute(&mut *tx)
                .await?;
        }
        let Some(row) = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
        else {
            return Ok(None);
        };
        let mut game = game_from_row(&row)?;
        let rows = sqlx::query("SELECT text, left_ms FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&mut *tx)
            .await?;
        let moves = rows
            .iter()
            .map(|r| r.try_get::<String, _>("text"))
            .collect::<Result<Vec<_>, _>>()?;
        game.move_lefts = rows
            .iter()
            .map(|r| r.try_get::<Option<i64>, _>("left_ms"))
            .collect::<Result<Vec<_>, _>>()?;
        tx.commit().await?;
        Ok(Some((game, moves)))
    }

    /// The most recently updated games.
    pub async fn list_games(&self, limit: i64) -> Result<Vec<GameSummary>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id) \
             AS move_count FROM games ORDER BY updated_at DESC, id LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(GameSummary {
                    game: game_from_row(row)?,
                    moves: row.try_get("move_count")?,
                })
            })
            .collect()
    }

    /// The ids of the unfinished games that go on without a request: those with a computer seat
    /// and the timed ones, most recently changed first.
    pub async fn games_to_resume(&self, limit: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE result = '*' \
             AND (white_kind = 'computer' OR black_kind = 'computer' \
             OR clock_kind IS NOT NULL) \
             ORDER BY updated_at DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|r| Ok(r.try_get::<String, _>("id")?))
            .collect()
    }

    /// A game being played (not over, and with a clock or changed since `since`) that
    /// `account` holds a seat of or that is among `listed`, if there is one: its id.
    pub async fn live_game_among(
        &self,
        account: Option<&str>,
        listed: &[String],
        since: i64,
    ) -> Result<Option<String>, StoreError> {
        let mut wanted = Vec::new();
        // $1 is `since`; the others are numbered as they are bound.
        let mut next = 2;
        if account.is_some() {
            wanted.push(format!("white_player = ${next} OR black_player = ${next}"));
            next += 1;
        }
        if !listed.is_empty() {
            let marks: Vec<String> = (next..next + listed.len())
                .map(|i| format!("${i}"))
                .collect();
            wanted.push(format!("id IN ({})", marks.join(", ")));
        }
        if wanted.is_empty() {
            return Ok(None);
        }
        let sql = format!(
            "SELECT id FROM games WHERE result = '*' \
             AND (clock_kind IS NOT NULL OR updated_at >= $1) AND ({}) LIMIT 1",
            wanted.join(" OR ")
        );
        let mut query = sqlx::query(&sql).bind(since);
        if let Some(account) = account {
            query = query.bind(account.to_string());
        }
        for id in listed {
            query = query.bind(id.clone());
        }
        let row = query.fetch_optional(&self.reader).await?;
        Ok(row.map(|r| r.try_get::<String, _>("id")).transpose()?)
    }

    /// The version of a stored game, or `None` if there is no such game.
    pub async fn version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        Ok(sqlx::query("SELECT version FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.reader)
            .await?
            .map(|row| row.try_get("version"))
            .transpose()?)
    }

    /// Stores `mv` with the game's outcome and clocks after it,
    /// in one transaction, if the game is still at `version`; [`StoreError::Conflict`]
    /// otherwise. The new version is `version + 1`.
    pub async fn append_move(
        &self,
        id: &str,
        version: i64,
        mv: NewMove,
        now: i64,
    ) -> Result<(), StoreError> {
        self.write(Write::Move {
            id: id.to_string(),
            version,
            ply: mv.ply as i64,
            text: mv.text,
            outcome: mv.outcome,
            clock: mv.clock,
            left_ms: mv.left_ms,
            rated: mv.rated,
            now,
        })
        .await
    }

    /// Stores an ending that the board does not show (resignation, agreed draw), if the game is
    /// still at `version`.
    pub async fn set_outcome(
        &self,
        id: &str,
        version: i64,
        outcome: &Outcome,
        rated: Option<RatedEnd>,
        now: i64,
    ) -> Result<(), StoreError> {
        self.write(Write::Outcome {
            id: id.to_string(),
            version,
            outcome: outcome.clone(),
            rated,
            now,
        })
        .await
    }

    /// Stores a standing offer of `kind` by `offer`, or none, if the game is still at
    /// `version`.
    pub async fn set_offer(
        &self,
        kind: OfferKind,
        id: &str,
        version: i64,
        offer: Option<Player>,
        now: i64,
    ) -> Result<(), StoreError> {
        self.write(Write::Offer {
            id: id.to_string(),
            version,
            kind,
            offer,
            now,
        })
        .await
    }

    /// Takes back every move from ply `keep` (0-based) on, clearing any offer, if the game is
    /// still at `version` and not over; [`StoreError::Conflict`] otherwise.
    pub async fn take_back(
        &self,
        id: &str,
        version: i64,
        keep: usize,
        clock: Option<Clock>,
        now: i64,
    ) -> Result<(), StoreError> {
        self.write(Write::Takeback {
            id: id.to_string(),
            version,
            keep: keep as i64,
            clock,
            now,
        })
        .await
    }

    /// Gives the seat `seat`, held by the token whose hash is `invite`, to the token whose hash
    /// is `token`, if the game is still at `version` and the seat was never claimed; the
    /// invite then holds nothing. [`StoreError::Conflict`] otherwise (another claim came
    /// first).
    pub async fn claim_seat(
        &self,
        id: &str,
        version: i64,
        seat: Player,
        claim: SeatClaim,
        now: i64,
    ) -> Result<(), StoreError> {
        self.write(Write::Claim {
            id: id.to_string(),
            version,
            seat,
            invite: claim.invite,
            token: claim.token,
            account: claim.account,
            now,
        })
        .await
    }

    /// This server's name (see [`Store::open_as`]).
    pub fn server_id(&self) -> &str {
        &self.server_id
    }

    /// Says that this server is running, as of `now` (Unix milliseconds).
    pub async fn renew_lease(&self, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO servers (id, seen_at) VALUES ($1, $2) \
             ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at",
        )
        .bind(&*self.server_id)
        .bind(now)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// When server `id` last said it was running, or `None` if it never did.
    pub async fn server_seen_at(&self, id: &str) -> Result<Option<i64>, StoreError> {
        Ok(sqlx::query("SELECT seen_at FROM servers WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.reader)
            .await?
            .map(|row| row.try_get("seen_at"))
            .transpose()?)
    }

    /// Runs a versioned write through the group-commit writers.
    async fn write(&self, write: Write) -> Result<(), StoreError> {
        let stopped = || StoreError::Batch("the database writer has stopped".into());
        let batches = self.batches.as_ref().ok_or_else(stopped)?;
        let (done, result) = oneshot::channel();
        batches
            .send(Pending { write, done })
            .await
            .map_err(|_| stopped())?;
        result.await.map_err(|_| stopped())?
    }

    /// The changes other server processes make, on PostgreSQL; `None` on SQLite (one process
    /// per database).
    pub async fn changes(&self) -> Result<Option<ChangeFeed>, StoreError> {
        let Some(url) = &self.postgres_url else {
            return Ok(None);
        };
        Ok(Some(ChangeFeed {
            listener: listen(url).await?,
            url: url.clone(),
            pending: std::collections::VecDeque::new(),
        }))
    }
}

/// A pool of `connections` connections to the database at `url` (as [`Store::open`] reads
/// it), without the server's tables: for the lab, whose tables are its own. A SQLite file is
/// created if missing and opened in WAL mode; the second value says whether it is PostgreSQL.
pub async fn connect(url: &str, connections: u32) -> Result<(AnyPool, bool), StoreError> {
    sqlx::any::install_default_drivers();
    let connections = connections.max(1);
    match target(url)? {
        Target::Postgres(url) => {
            let pool = AnyPoolOptions::new()
                .max_connections(connections)
                .acquire_timeout(Duration::from_secs(30))
                .connect(&url)
                .await
                .map_err(|e| StoreError::Open(format!("cannot connect to PostgreSQL: {e}")))?;
            Ok((pool, true))
        }
        Target::SqliteMemory => Ok((sqlite_pool("sqlite::memory:", 1, true).await?, false)),
        Target::SqliteFile(path) => {
            create_sqlite_file(&path)?;
            let pool = sqlite_pool(&sqlite_url(&path), connections, true)
                .await
                .map_err(|e| {
                    StoreError::Open(format!(
                        "cannot open the SQLite database {}: {e}",
                        path.display()
                    ))
                })?;
            Ok((pool, false))
        }
    }
}

async fn sqlite_pool(url: &str, connections: u32, writer: bool) -> Result<AnyPool, StoreError> {
    let pool = AnyPoolOptions::new()
        .max_connections(connections)
        .min_connections(1)
        .acquire_timeout(Duration::from_secs(10))
        .after_connect(move |conn, _| {
            Box::pin(async move {
                use sqlx::Executor;
                conn.execute(&*format!("PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}"))
                    .await?;
                if writer {
                    conn.execute("PRAGMA journal_mode = WAL").await?;
                    conn.execute("PRAGMA synchronous = NORMAL").await?;
                }
                Ok(())
            })
        })
        .connect(url)
        .await?;
    Ok(pool)
}

/// The largest notification payload sent: PostgreSQL's limit is 8,000 bytes.
const MAX_PAYLOAD: usize = 7_000;

/// Splits newline-ended lines into payloads of at most [`MAX_PAYLOAD`] bytes.
fn payload_chunks(lines: &str) -> Vec<&str> {
    let mut chunks = Vec::new();
    let mut rest = lines;
    while !rest.is_empty() {
        let mut end = rest.len().min(MAX_PAYLOAD);
        if end < rest.len() {
            end = rest[..end].rfind('\n').map_or(end, |i| i + 1);
        }
        chunks.push(&rest[..end]);
        rest = &rest[end..];
    }
    chunks
}

/// Notifications of other servers' writes (PostgreSQL `LISTEN`).
#[derive(Debug)]
pub struct ChangeFeed {
    listener: sqlx::postgres::PgListener,
    url: String,
    /// Changes read from a notification and not yet handed out.
    pending: std::collections::VecDeque<Change>,
}

impl ChangeFeed {
    /// The next change. After the connection was lost, a [`Change::Resync`] once it is back:
    /// notifications sent meanwhile are gone.
    pub async fn next(&mut self) -> Change {
        if let Some(change) = self.pending.pop_front() {
            return change;
        }
        loop {
            match self.listener.try_recv().await {
                Ok(Some(notification)) => {
                    for line in notification.payload().lines() {
                        match line.split_once(' ').map(|(id, v)| (id, v.parse())) {
                            Some((id, Ok(version))) => self.pending.push_back(Change::Game {
                                id: id.to_string(),
                                version,
                            }),
                            _ => tracing::warn!(line, "unreadable change notification"),
                        }
                    }
                    if let Some(change) = self.pending.pop_front() {
                        return change;
                    }
                }
                // sqlx reconnected (and listens again) at once.
                Ok(None) => return Change::Resync,
                Err(error) => {
                    // A new connection, however long it takes; then everything is suspect.
                    tracing::warn!(%error, "change notifications lost: reconnecting");
                    loop {
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        match listen(&self.url).await {
                            Ok(listener) => {
                                self.listener = listener;
                                return Change::Resync;
                            }
                            Err(error) => {
                                tracing::warn!(%error, "change notifications: reconnecting")
                            }
                        }
                    }
                }
            }
        }
    }
}

async fn listen(url: &str) -> Result<sqlx::postgres::PgListener, sqlx::Error> {
    let mut listener = sqlx::postgres::PgListener::connect(url).await?;
    listener.listen(CHANGES_CHANNEL).await?;
    Ok(listener)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use denkmeter_core::Reason;

    #[test]
    fn database_texts() {
        let target = |text: &str| target(text).ok();
        let file = |p: &str| Some(Target::SqliteFile(PathBuf::from(p)));
        assert_eq!(target("sqlite:///tmp/x/new.db"), file("/tmp/x/new.db"));
        assert_eq!(
            target("sqlite://denkmeter.db?mode=rwc"),
            file("denkmeter.db")
        );
        assert_eq!(target("sqlite:games.db"), file("games.db"));
        assert_eq!(target("games.db"), file("games.db"));
        assert_eq!(target("/var/lib/dm/games.db"), file("/var/lib/dm/games.db"));
        assert_eq!(target("sqlite::memory:"), Some(Target::SqliteMemory));
        assert_eq!(
            target("postgres://u:p@h/db"),
            Some(Target::Postgres("postgres://u:p@h/db".into()))
        );
        assert!(matches!(
            super::target("mysql://x/y"),
            Err(StoreError::Open(_))
        ));
        assert!(matches!(
            super::target("sqlite://"),
            Err(StoreError::Open(_))
        ));
        assert_eq!(
            sqlite_url(Path::new("/tmp/a?b#c%d.db")),
            "sqlite:///tmp/a%3Fb%23c%25d.db?mode=rwc"
        );
    }

    #[test]
    fn notification_payloads_split_at_lines() {
        let lines: String = (0..1_000).map(|n| format!("game{n:05} {n}\n")).collect();
        let chunks = payload_chunks(&lines);
        assert!(chunks.len() > 1);
        assert!(chunks
            .iter()
            .all(|c| c.len() <= MAX_PAYLOAD && c.ends_with('\n')));
        assert_eq!(chunks.concat(), lines);
        assert_eq!(payload_chunks("a 1\n"), ["a 1\n"]);
        assert!(payload_chunks("").is_empty());
    }

    #[test]
    fn stored_outcomes_read_back() {
        let win = Outcome::win(Player::Black, Reason::Checkmate);
        let (r, t) = outcome_columns(Some(&win));
        assert_eq!(outcome_from(r, t, "g").unwrap(), Some(win));
        assert_eq!(outcome_from("*", None, "g").unwrap(), None);
        assert!(outcome_from("2-0", None, "g").is_err());
        assert!(outcome_from("1-0", Some("boredom"), "g").is_err());
    }

    /// A move that ends nothing, in an untimed game.
    fn plain(ply: usize, text: &str) -> NewMove {
        NewMove {
            ply,
            text: text.to_string(),
            outcome: None,
            clock: None,
            left_ms: None,
            rated: None,
        }
    }

    fn game(id: &str) -> StoredGame {
        StoredGame {
            id: id.into(),
            ruleset: "chad".into(),
            start_position: None,
            board: None,
            seats: ByPlayer::new(Seat::Human, Seat::Human),
            tokens: ByPlayer::new(None, None),
            invites: ByPlayer::new(None, None),
            accounts: ByPlayer::new(None, None),
            rated: false,
            written_by: None,
            outcome: None,
            draw_offer: None,
            takeback_offer: None,
            clock: None,
            move_lefts: Vec::new(),
            seed: 1,
            version: 0,
            created_at: 0,
            updated_at: 0,
        }
    }

    /// Writes committed together: a conflict fails only itself, everything else is kept.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_conflict_in_a_group_commit_fails_only_itself() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("g.db").to_str().unwrap())
            .await
            .unwrap();
        for n in 0..20 {
            store
                .create_game(&game(&format!("g{n}")), &[])
                .await
                .unwrap();
        }
        // Twenty games get a move each, and game g0 gets twenty rival first moves.
        let mut writes = Vec::new();
        for n in 0..20 {
            let store = store.clone();
            writes.push(tokio::spawn(async move {
                store
                    .append_move(&format!("g{n}"), 0, plain(0, "C5-A5"), 1)
                    .await
            }));
        }
        let mut rivals = Vec::new();
        for n in 0..20 {
            let store = store.clone();
            rivals.push(tokio::spawn(async move {
                store
                    .append_move("g0", 0, plain(0, &format!("rival {n}")), 1)
                    .await
            }));
        }
        let mut first_moves = 0;
        for (n, write) in writes.into_iter().enumerate() {
            match write.await.unwrap() {
                Ok(()) => first_moves += 1,
                Err(StoreError::Conflict) => assert_eq!(n, 0, "only g0 has rivals"),
                Err(other) => panic!("{other}"),
            }
        }
        for rival in rivals {
            match rival.await.unwrap() {
                Ok(()) => first_moves += 1,
                Err(StoreError::Conflict) => {}
                Err(other) => panic!("{other}"),
            }
        }
        assert_eq!(first_moves, 20, "one first move per game");
        for n in 0..20 {
            let (stored, moves) = store.load_game(&format!("g{n}")).await.unwrap().unwrap();
            assert_eq!((stored.version, moves.len()), (1, 1), "g{n}");
        }
    }
}
