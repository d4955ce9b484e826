//! Storage: every query of the server, through sqlx's runtime API over `Any`, so the same code
//! runs on SQLite and PostgreSQL. Migrations run at start.

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

/// A storage failure. Details are logged, never sent to clients.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migrations: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    /// Another writer stored a move at this ply first.
    #[error("the game changed meanwhile")]
    Conflict,
}

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Who sits in a seat, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// `human` or `computer`.
    pub kind: String,
    pub level: Option<i64>,
    pub token: Option<String>,
}

/// A game's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub ruleset: String,
    pub start_position: Option<String>,
    pub white: SeatRow,
    pub black: SeatRow,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The reason key when the game is over.
    pub termination: Option<String>,
    pub draw_offer: Option<String>,
    pub seed: i64,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A game's row with its number of moves, for lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub game: GameRow,
    pub moves: i64,
}

/// The end state stored with a move or an ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub result: String,
    pub termination: Option<String>,
}

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
}

const GAME_COLUMNS: &str = "id, ruleset, start_position, white_kind, white_level, white_token, \
     black_kind, black_level, black_token, result, termination, draw_offer, seed, version, \
     created_at, updated_at";

fn game_from_row(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: row.try_get("id")?,
        ruleset: row.try_get("ruleset")?,
        start_position: row.try_get("start_position")?,
        white: SeatRow {
            kind: row.try_get("white_kind")?,
            level: row.try_get("white_level")?,
            token: row.try_get("white_token")?,
        },
        black: SeatRow {
            kind: row.try_get("black_kind")?,
            level: row.try_get("black_level")?,
            token: row.try_get("black_token")?,
        },
        result: row.try_get("result")?,
        termination: row.try_get("termination")?,
        draw_offer: row.try_get("draw_offer")?,
        seed: row.try_get("seed")?,
        version: row.try_get("version")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
    })
}

fn is_unique_violation(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Database(db) => {
            db.is_unique_violation()
                || db
                    .code()
                    .is_some_and(|c| c == "23505" || c == "1555" || c == "2067")
        }
        _ => false,
    }
}

/// Writes a game's result (and clears any draw offer) if it is still at `version`, moving it to
/// the next version; [`StoreError::Conflict`] otherwise.
async fn store_ending<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    id: &str,
    version: i64,
    ending: &Ending,
    now: i64,
) -> Result<(), StoreError> {
    let updated = sqlx::query(
        "UPDATE games SET result = $1, termination = $2, draw_offer = NULL, updated_at = $3, \
         version = version + 1 WHERE id = $4 AND version = $5",
    )
    .bind(&ending.result)
    .bind(&ending.termination)
    .bind(now)
    .bind(id)
    .bind(version)
    .execute(executor)
    .await?;
    if updated.rows_affected() == 1 {
        Ok(())
    } else {
        Err(StoreError::Conflict)
    }
}

impl Store {
    /// Connects (creating a SQLite file if the URL asks for it) and applies the migrations.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let max = if url.starts_with("sqlite:") { 1 } else { 8 };
        let pool = AnyPoolOptions::new()
            .max_connections(max)
            .connect(url)
            .await?;
        MIGRATOR.run(&pool).await?;
        Ok(Store { pool })
    }

    pub async fn create_game(&self, game: &GameRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO games (id, ruleset, start_position, white_kind, white_level, white_token, \
             black_kind, black_level, black_token, result, termination, draw_offer, seed, \
             version, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
        )
        .bind(&game.id)
        .bind(&game.ruleset)
        .bind(&game.start_position)
        .bind(&game.white.kind)
        .bind(game.white.level)
        .bind(&game.white.token)
        .bind(&game.black.kind)
        .bind(game.black.level)
        .bind(&game.black.token)
        .bind(&game.result)
        .bind(&game.termination)
        .bind(&game.draw_offer)
        .bind(game.seed)
        .bind(game.version)
        .bind(game.created_at)
        .bind(game.updated_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A game and its moves in order, or `None`.
    pub async fn load_game(&self, id: &str) -> Result<Option<(GameRow, Vec<String>)>, StoreError> {
        let Some(row) = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let game = game_from_row(&row)?;
        let moves = sqlx::query("SELECT text FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| r.try_get::<String, _>("text"))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some((game, moves)))
    }

    /// The most recently updated games.
    pub async fn list_games(&self, limit: i64) -> Result<Vec<GameSummary>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id) \
             AS move_count FROM games ORDER BY updated_at DESC, id LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(&self.pool)
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

    /// The version of a stored game, or `None` if there is no such game.
    pub async fn version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        Ok(sqlx::query("SELECT version FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .map(|row| row.try_get("version"))
            .transpose()?)
    }

    /// Stores the move played at `ply` (0-based) and the game's state after it, in one
    /// transaction, if the game is still at `version`; fails with [`StoreError::Conflict`]
    /// otherwise. The new version is `version + 1`.
    pub async fn append_move(
        &self,
        id: &str,
        version: i64,
        ply: usize,
        text: &str,
        ending: &Ending,
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        store_ending(&mut *tx, id, version, ending, now).await?;
        let inserted = sqlx::query(
            "INSERT INTO moves (game_id, ply, text, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(ply as i64)
        .bind(text)
        .bind(now)
        .execute(&mut *tx)
        .await;
        if let Err(error) = inserted {
            return Err(if is_unique_violation(&error) {
                StoreError::Conflict
            } else {
                error.into()
            });
        }
        tx.commit().await?;
        Ok(())
    }

    /// Stores an ending that the board does not show (resignation, agreed draw), if the game is
    /// still at `version`.
    pub async fn set_ending(
        &self,
        id: &str,
        version: i64,
        ending: &Ending,
        now: i64,
    ) -> Result<(), StoreError> {
        store_ending(&self.pool, id, version, ending, now).await
    }

    /// Stores a standing draw offer (`white`, `black`) or its withdrawal, if the game is still at
    /// `version`.
    pub async fn set_draw_offer(
        &self,
        id: &str,
        version: i64,
        offer: Option<&str>,
        now: i64,
    ) -> Result<(), StoreError> {
        let updated = sqlx::query(
            "UPDATE games SET draw_offer = $1, updated_at = $2, version = version + 1 \
             WHERE id = $3 AND version = $4",
        )
        .bind(offer)
        .bind(now)
        .bind(id)
        .bind(version)
        .execute(&self.pool)
        .await?;
        if updated.rows_affected() != 1 {
            return Err(StoreError::Conflict);
        }
        Ok(())
    }
}
