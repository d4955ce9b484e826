//! Studies kept in a database, SQLite or PostgreSQL, through sqlx's `Any` driver: a study's
//! definition and one row per game, empty until the game is played.
//!
//! The database is the only coordinator of the workers of a study. On PostgreSQL a worker
//! takes a game by locking its row (`FOR UPDATE SKIP LOCKED`) in a transaction that it keeps
//! open while it plays, and writes the result in the same transaction: a worker that dies (or
//! loses its connection) rolls back, which hands the game to the next worker, so at most the
//! game in hand is lost. SQLite has no row locks: a study there is played by one process (the
//! `lab` command itself), which hands out the games among its threads.
//!
//! The tables are created when missing (`CREATE TABLE IF NOT EXISTS`), not by the server's
//! migrations: the lab runs on a database of its own as well as on the server's, and the two
//! keep their schemas apart. A later change of the lab's tables adds a version to
//! `lab_schema`.

use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::any::AnyRow;
use sqlx::{Any, AnyPool, Row, Transaction};

use crate::play::GameMeasure;
use crate::study::StudySpec;

/// The version of the lab's tables.
const SCHEMA_VERSION: i64 = 1;
/// Games inserted by one statement when a study is created.
const INSERT_BATCH: u64 = 500;
/// The PostgreSQL advisory lock that serialises the creation of the lab's tables (two
/// workers starting at once would otherwise race on the catalogue).
const SCHEMA_LOCK: i64 = 0x6c61_6273_6368_656d;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum LabStoreError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// A stored row that no version of the lab writes.
    #[error("study {study}: stored {what} cannot be read: {reason}")]
    Corrupt {
        study: String,
        what: String,
        reason: String,
    },
    #[error("this database's lab tables are of version {0}, newer than this program's {SCHEMA_VERSION}: use a newer denkmeter")]
    NewerSchema(i64),
}

/// The database's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The lab's tables in a database.
#[derive(Clone, Debug)]
pub struct LabStore {
    pool: AnyPool,
    backend: Backend,
}

/// A study as stored, with its progress.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredStudy {
    pub id: String,
    pub spec: StudySpec,
    /// Milliseconds since 1970.
    pub created_at: i64,
    /// Who asked for it: `cli`, or `web` for a study started in the browser.
    pub origin: String,
    pub played: u64,
    pub total: u64,
}

/// A game taken by a worker on PostgreSQL: its row stays locked until [`LabStore::finish`]
/// writes its result, or the claim is dropped (the transaction rolls back). Drop it inside the
/// runtime's context (`Handle::enter`): sqlx returns the connection through the runtime.
#[derive(Debug)]
pub struct Claim {
    pub study: String,
    pub number: u64,
    transaction: Transaction<'static, Any>,
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn corrupt(study: &str, what: &str, reason: impl ToString) -> LabStoreError {
    LabStoreError::Corrupt {
        study: study.to_string(),
        what: what.to_string(),
        reason: reason.to_string(),
    }
}

fn number_of(row: &AnyRow, study: &str) -> Result<u64, LabStoreError> {
    let n: i64 = row.try_get("number")?;
    u64::try_from(n).map_err(|_| corrupt(study, "game number", n))
}

impl LabStore {
    /// The lab's tables in the database of `pool`, created if missing.
    pub async fn new(pool: AnyPool, backend: Backend) -> Result<LabStore, LabStoreError> {
        let store = LabStore { pool, backend };
        store.create_tables().await?;
        Ok(store)
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    async fn create_tables(&self) -> Result<(), LabStoreError> {
        let mut tx = self.pool.begin().await?;
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(SCHEMA_LOCK)
                .execute(&mut *tx)
                .await?;
        }
        for statement in [
            "CREATE TABLE IF NOT EXISTS lab_schema (version BIGINT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS lab_studies (\
                id TEXT PRIMARY KEY, \
                spec TEXT NOT NULL, \
                total BIGINT NOT NULL, \
                origin TEXT NOT NULL, \
                created_at BIGINT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS lab_games (\
                study_id TEXT NOT NULL REFERENCES lab_studies (id) ON DELETE CASCADE, \
                number BIGINT NOT NULL, \
                result TEXT, \
                worker TEXT, \
                finished_at BIGINT, \
                PRIMARY KEY (study_id, number))",
            "CREATE INDEX IF NOT EXISTS lab_games_unplayed ON lab_games (study_id, number) \
                WHERE result IS NULL",
        ] {
            sqlx::query(statement).execute(&mut *tx).await?;
        }
        let version: Option<i64> = sqlx::query("SELECT MAX(version) AS version FROM lab_schema")
            .fetch_one(&mut *tx)
            .await?
            .try_get("version")?;
        match version {
            None => {
                sqlx::query("INSERT INTO lab_schema (version) VALUES ($1)")
                    .bind(SCHEMA_VERSION)
                    .execute(&mut *tx)
                    .await?;
            }
            Some(v) if v > SCHEMA_VERSION => return Err(LabStoreError::NewerSchema(v)),
            Some(_) => {}
        }
        tx.commit().await?;
        Ok(())
    }

    /// Stores a study and its games, unplayed; a study already stored (the same definition)
    /// is left as it is. Returns whether it was new.
    pub async fn create(&self, spec: &StudySpec, origin: &str) -> Result<bool, LabStoreError> {
        let id = spec.id();
        let json = serde_json::to_string(spec).map_err(|e| corrupt(&id, "definition", e))?;
        let total = spec.total_games();
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO lab_studies (id, spec, total, origin, created_at) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING",
        )
        .bind(&id)
        .bind(&json)
        .bind(total as i64)
        .bind(origin)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted == 0 {
            return Ok(false);
        }
        let mut start = 0;
        while start < total {
            let end = (start + INSERT_BATCH).min(total);
            let mut sql = String::from("INSERT INTO lab_games (study_id, number) VALUES ");
            for (i, n) in (start..end).enumerate() {
                if i > 0 {
                    sql.push(',');
                }
                // The numbers are ours, not a user's: written into the statement to keep it
                // to one bound parameter.
                sql.push_str(&format!("($1, {n})"));
            }
            sqlx::query(&sql).bind(&id).execute(&mut *tx).await?;
            start = end;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The study with this id, if stored.
    pub async fn study(&self, id: &str) -> Result<Option<StoredStudy>, LabStoreError> {
        let row = sqlx::query(
            "SELECT s.id, s.spec, s.total, s.origin, s.created_at, \
             (SELECT COUNT(*) FROM lab_games g WHERE g.study_id = s.id AND g.result IS NOT NULL) AS played \
             FROM lab_studies s WHERE s.id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| stored_study(&row)).transpose()
    }

    /// Every stored study, the newest first.
    pub async fn studies(&self) -> Result<Vec<StoredStudy>, LabStoreError> {
        let rows = sqlx::query(
            "SELECT s.id, s.spec, s.total, s.origin, s.created_at, \
             (SELECT COUNT(*) FROM lab_games g WHERE g.study_id = s.id AND g.result IS NOT NULL) AS played \
             FROM lab_studies s ORDER BY s.created_at DESC, s.id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(stored_study).collect()
    }

    /// How many of the study's games are played.
    pub async fn played(&self, id: &str) -> Result<u64, LabStoreError> {
        let n: i64 = sqlx::query(
            "SELECT COUNT(*) AS n FROM lab_games WHERE study_id = $1 AND result IS NOT NULL",
        )
        .bind(id)
        .fetch_one(&self.pool)
        .await?
        .try_get("n")?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// The numbers of the study's games not played yet, in order.
    pub async fn unplayed(&self, id: &str) -> Result<Vec<u64>, LabStoreError> {
        let rows = sqlx::query(
            "SELECT number FROM lab_games WHERE study_id = $1 AND result IS NULL ORDER BY number",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| number_of(row, id)).collect()
    }

    /// The study's played games, by number.
    pub async fn games(&self, id: &str) -> Result<Vec<(u64, GameMeasure)>, LabStoreError> {
        let rows = sqlx::query(
            "SELECT number, result FROM lab_games \
             WHERE study_id = $1 AND result IS NOT NULL ORDER BY number",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let number = number_of(row, id)?;
                let text: String = row.try_get("result")?;
                let game = serde_json::from_str(&text)
                    .map_err(|e| corrupt(id, &format!("game {number}"), e))?;
                Ok((number, game))
            })
            .collect()
    }

    /// Writes a game's result, unless another worker wrote it first (the same game from the
    /// same seed: nothing is lost). Returns whether it was written.
    pub async fn save(
        &self,
        id: &str,
        number: u64,
        game: &GameMeasure,
        worker: &str,
    ) -> Result<bool, LabStoreError> {
        let json = serde_json::to_string(game).map_err(|e| corrupt(id, "game", e))?;
        let written = sqlx::query(
            "UPDATE lab_games SET result = $1, worker = $2, finished_at = $3 \
             WHERE study_id = $4 AND number = $5 AND result IS NULL",
        )
        .bind(json)
        .bind(worker)
        .bind(now_ms())
        .bind(id)
        .bind(number as i64)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(written == 1)
    }

    /// Takes the first unplayed game of `study` numbered `from` or more and locks it until
    /// [`LabStore::finish`]; `None` when every such game is played or taken. PostgreSQL only
    /// (SQLite has no row locks: use [`LabStore::unplayed`]).
    ///
    /// A worker asks from just past the last game it took (see [`Cursor`]): a game played
    /// leaves a dead entry in the index of unplayed games until the table is vacuumed, and a
    /// search from 0 would step over every one of them, its cost growing with the study.
    pub async fn claim(&self, study: &str, from: u64) -> Result<Option<Claim>, LabStoreError> {
        let mut transaction = self.pool.begin().await?;
        let row = sqlx::query(
            "SELECT number FROM lab_games \
             WHERE study_id = $1 AND result IS NULL AND number >= $2 ORDER BY number LIMIT 1 \
             FOR UPDATE SKIP LOCKED",
        )
        .bind(study)
        .bind(i64::try_from(from).unwrap_or(i64::MAX))
        .fetch_optional(&mut *transaction)
        .await?;
        let Some(row) = row else {
            transaction.rollback().await?;
            return Ok(None);
        };
        let number = number_of(&row, study)?;
        Ok(Some(Claim {
            study: study.to_string(),
            number,
            transaction,
        }))
    }

    /// The studies with unplayed games, the oldest first.
    pub async fn unfinished(&self) -> Result<Vec<String>, LabStoreError> {
        let rows = sqlx::query(
            "SELECT s.id FROM lab_studies s WHERE EXISTS \
             (SELECT 1 FROM lab_games g WHERE g.study_id = s.id AND g.result IS NULL) \
             ORDER BY s.created_at, s.id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| row.try_get("id").map_err(LabStoreError::from))
            .collect()
    }

    /// Writes the result of a claimed game and lets its row go.
    pub async fn finish(
        &self,
        mut claim: Claim,
        game: &GameMeasure,
        worker: &str,
    ) -> Result<(), LabStoreError> {
        let json = serde_json::to_string(game).map_err(|e| corrupt(&claim.study, "game", e))?;
        sqlx::query(
            "UPDATE lab_games SET result = $1, worker = $2, finished_at = $3 \
             WHERE study_id = $4 AND number = $5",
        )
        .bind(json)
        .bind(worker)
        .bind(now_ms())
        .bind(&claim.study)
        .bind(claim.number as i64)
        .execute(&mut *claim.transaction)
        .await?;
        claim.transaction.commit().await?;
        Ok(())
    }

    /// Deletes a study and its games. Returns whether there was one.
    pub async fn delete(&self, id: &str) -> Result<bool, LabStoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM lab_games WHERE study_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let deleted = sqlx::query("DELETE FROM lab_studies WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        tx.commit().await?;
        Ok(deleted == 1)
    }
}

fn stored_study(row: &AnyRow) -> Result<StoredStudy, LabStoreError> {
    let id: String = row.try_get("id")?;
    let text: String = row.try_get("spec")?;
    let spec: StudySpec = serde_json::from_str(&text).map_err(|e| corrupt(&id, "definition", e))?;
    let total: i64 = row.try_get("total")?;
    let played: i64 = row.try_get("played")?;
    Ok(StoredStudy {
        spec,
        created_at: row.try_get("created_at")?,
        origin: row.try_get("origin")?,
        played: u64::try_from(played).unwrap_or(0),
        total: u64::try_from(total).unwrap_or(0),
        id,
    })
}

/// Where a worker's thread takes its next game: past the last one it took in each study, then
/// once more from the start (for games whose workers died), then the next study.
#[derive(Debug, Default)]
pub struct Cursor {
    /// The next number to ask from, by study.
    from: std::collections::HashMap<String, u64>,
    /// The study of the last game taken: asked first, without listing the studies (which
    /// steps over the dead entries of every game played).
    current: Option<String>,
    /// Studies this worker cannot play, left to others.
    skipped: std::collections::HashSet<String>,
}

impl Cursor {
    /// Takes no more games of `study`.
    pub fn skip(&mut self, study: &str) {
        self.skipped.insert(study.to_string());
        if self.current.as_deref() == Some(study) {
            self.current = None;
        }
    }

    /// The next game of `study`, or of any study (oldest first) if `None`; none of a study
    /// skipped.
    pub async fn next(
        &mut self,
        store: &LabStore,
        study: Option<&str>,
    ) -> Result<Option<Claim>, LabStoreError> {
        if let (None, Some(current)) = (study, self.current.clone()) {
            let from = self.from.get(&current).copied().unwrap_or(0);
            if let Some(claim) = store.claim(&current, from).await? {
                self.from.insert(current, claim.number + 1);
                return Ok(Some(claim));
            }
        }
        let mut studies = match study {
            Some(id) => vec![id.to_string()],
            None => store.unfinished().await?,
        };
        studies.retain(|id| !self.skipped.contains(id));
        self.from.retain(|id, _| studies.contains(id));
        for id in studies {
            let from = self.from.get(&id).copied().unwrap_or(0);
            let mut claim = store.claim(&id, from).await?;
            if claim.is_none() && from > 0 {
                claim = store.claim(&id, 0).await?;
            }
            if let Some(claim) = claim {
                self.from.insert(id.clone(), claim.number + 1);
                self.current = Some(id);
                return Ok(Some(claim));
            }
        }
        self.current = None;
        Ok(None)
    }
}
