//! Whole-game analyses: asked for, claimed by one server at a time, and kept once finished.

use sqlx::Row;

use super::{Store, StoreError};

/// A claim not renewed for this long (milliseconds) may be taken by another server: its
/// server stopped or died. A running analysis renews its claim after every position.
pub const CLAIM_STALE_MS: i64 = 60_000;

/// An analysis as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnalysis {
    pub id: String,
    pub game_id: Option<String>,
    pub ruleset: String,
    pub start_position: Option<String>,
    pub moves: Vec<String>,
    pub requested_by: String,
    pub requested_at: i64,
    /// When the server running it last renewed its claim, if one holds it.
    pub claimed_at: Option<i64>,
    /// Positions searched so far by that server.
    pub done: i64,
    pub finished_at: Option<i64>,
    /// The analysis as JSON, once finished.
    pub result: Option<String>,
    pub error: Option<String>,
}

const COLUMNS: &str = "id, game_id, ruleset, start_position, moves, requested_by, requested_at, \
     claimed_at, done, finished_at, result, error";
/// The same without the result, which may be large.
const COLUMNS_WITHOUT_RESULT: &str = "id, game_id, ruleset, start_position, moves, requested_by, \
     requested_at, claimed_at, done, finished_at, NULL AS result, error";

fn analysis_of(row: &sqlx::any::AnyRow) -> Result<StoredAnalysis, StoreError> {
    let id: String = row.try_get("id")?;
    let moves: String = row.try_get("moves")?;
    let moves = serde_json::from_str(&moves).map_err(|_| StoreError::Corrupt {
        id: id.clone(),
        what: "analysis moves",
        value: moves.clone(),
    })?;
    Ok(StoredAnalysis {
        game_id: row.try_get("game_id")?,
        ruleset: row.try_get("ruleset")?,
        start_position: row.try_get("start_position")?,
        moves,
        requested_by: row.try_get("requested_by")?,
        requested_at: row.try_get("requested_at")?,
        claimed_at: row.try_get("claimed_at")?,
        done: row.try_get("done")?,
        finished_at: row.try_get("finished_at")?,
        result: row.try_get("result")?,
        error: row.try_get("error")?,
        id,
    })
}

impl Store {
    /// Stores an analysis asked for, unless one with its id is stored already; whether it was
    /// new.
    pub async fn insert_analysis(&self, analysis: &StoredAnalysis) -> Result<bool, StoreError> {
        let moves = serde_json::to_string(&analysis.moves).map_err(|e| StoreError::Corrupt {
            id: analysis.id.clone(),
            what: "analysis moves",
            value: e.to_string(),
        })?;
        let done = sqlx::query(
            "INSERT INTO game_analyses (id, game_id, ruleset, start_position, moves, \
             requested_by, requested_at) VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT DO NOTHING",
        )
        .bind(&analysis.id)
        .bind(&analysis.game_id)
        .bind(&analysis.ruleset)
        .bind(&analysis.start_position)
        .bind(moves)
        .bind(&analysis.requested_by)
        .bind(analysis.requested_at)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn load_analysis(&self, id: &str) -> Result<Option<StoredAnalysis>, StoreError> {
        self.load_analysis_columns(id, COLUMNS).await
    }

    /// An analysis without its result (`result` is `None`): for its game and progress.
    pub async fn load_analysis_head(&self, id: &str) -> Result<Option<StoredAnalysis>, StoreError> {
        self.load_analysis_columns(id, COLUMNS_WITHOUT_RESULT).await
    }

    async fn load_analysis_columns(
        &self,
        id: &str,
        columns: &str,
    ) -> Result<Option<StoredAnalysis>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {columns} FROM game_analyses WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.reader)
        .await?;
        row.as_ref().map(analysis_of).transpose()
    }

    /// Asks again for an analysis that failed: it waits to be run anew.
    pub async fn retry_analysis(&self, id: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE game_analyses SET finished_at = NULL, error = NULL, result = NULL, \
             claimed_by = NULL, claimed_at = NULL, done = 0, requested_at = $1 \
             WHERE id = $2 AND error IS NOT NULL",
        )
        .bind(now)
        .bind(id)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Analyses not finished: in all, and asked for by `address`.
    pub async fn unfinished_analyses(&self, address: &str) -> Result<(i64, i64), StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS total, \
             COALESCE(SUM(CASE WHEN requested_by = $1 THEN 1 ELSE 0 END), 0) AS mine \
             FROM game_analyses WHERE finished_at IS NULL",
        )
        .bind(address)
        .fetch_one(&self.reader)
        .await?;
        Ok((row.try_get("total")?, row.try_get("mine")?))
    }

    /// Claims the oldest unfinished analysis nobody runs (or whose server stopped renewing
    /// its claim) for this server, and returns it.
    pub async fn claim_analysis(&self, now: i64) -> Result<Option<StoredAnalysis>, StoreError> {
        // A few tries: another server may claim the one found first.
        for _ in 0..4 {
            let candidate: Option<String> = sqlx::query(
                "SELECT id FROM game_analyses WHERE finished_at IS NULL \
                 AND (claimed_at IS NULL OR claimed_at < $1) ORDER BY requested_at, id LIMIT 1",
            )
            .bind(now - CLAIM_STALE_MS)
            .fetch_optional(&self.writer)
            .await?
            .map(|row| row.try_get("id"))
            .transpose()?;
            let Some(id) = candidate else {
                return Ok(None);
            };
            let claimed = sqlx::query(
                "UPDATE game_analyses SET claimed_by = $1, claimed_at = $2 WHERE id = $3 \
                 AND finished_at IS NULL AND (claimed_at IS NULL OR claimed_at < $4)",
            )
            .bind(&*self.server_id)
            .bind(now)
            .bind(&id)
            .bind(now - CLAIM_STALE_MS)
            .execute(&self.writer)
            .await?;
            if claimed.rows_affected() == 1 {
                return self.load_analysis(&id).await;
            }
        }
        Ok(None)
    }

    /// Renews this server's claim on an analysis with the positions it has searched; false if
    /// another server has taken it over.
    pub async fn renew_analysis_claim(
        &self,
        id: &str,
        now: i64,
        done: i64,
    ) -> Result<bool, StoreError> {
        let renewed = sqlx::query(
            "UPDATE game_analyses SET claimed_at = $1, done = $4 WHERE id = $2 \
             AND claimed_by = $3 AND finished_at IS NULL",
        )
        .bind(now)
        .bind(id)
        .bind(&*self.server_id)
        .bind(done)
        .execute(&self.writer)
        .await?;
        Ok(renewed.rows_affected() == 1)
    }

    /// At start, gives up the claims of this server's earlier runs (on SQLite, which one
    /// server uses, every claim): an analysis stopped by a restart resumes at once instead of
    /// waiting for its claim to go stale.
    pub async fn release_analysis_claims(&self) -> Result<(), StoreError> {
        let mine = if self.is_shared() {
            "claimed_by = $1"
        } else {
            "($1 = $1)"
        };
        sqlx::query(&format!(
            "UPDATE game_analyses SET claimed_by = NULL, claimed_at = NULL \
             WHERE {mine} AND finished_at IS NULL"
        ))
        .bind(&*self.server_id)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Keeps a finished analysis (its JSON) or why it failed, if this server still holds its
    /// claim.
    pub async fn finish_analysis(
        &self,
        id: &str,
        now: i64,
        result: Result<&str, &str>,
    ) -> Result<(), StoreError> {
        let (result, error) = match result {
            Ok(json) => (Some(json), None),
            Err(why) => (None, Some(why)),
        };
        sqlx::query(
            "UPDATE game_analyses SET finished_at = $1, result = $2, error = $3, \
             claimed_by = NULL, claimed_at = NULL WHERE id = $4 AND finished_at IS NULL \
             AND claimed_by = $5",
        )
        .bind(now)
        .bind(result)
        .bind(error)
        .bind(id)
        .bind(&*self.server_id)
        .execute(&self.writer)
        .await?;
        Ok(())
    }
}
