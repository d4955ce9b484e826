//! Puzzle ratings: a signed-in player's first attempt at a puzzle rates the player and the
//! puzzle against each other (Glicko-2, one attempt a rating period), in one transaction. An
//! attempt is begun by its first right move and ended by a wrong one, the last right one,
//! giving up, or leaving it for another puzzle (a failure).

use std::collections::{HashMap, HashSet};

use sqlx::Row;

use super::{Backend, Store, StoreError, Transaction};
use crate::rating::Rating;

/// A rating with its counts: a puzzle's (attempts by players, and how many solved it) or a
/// player's (puzzles tried, and solved).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRecord {
    pub rating: Rating,
    pub attempts: i64,
    pub solved: i64,
}

/// What a rated attempt did to both ratings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedAttempt {
    pub player_before: Rating,
    pub player_after: Rating,
    pub puzzle_before: Rating,
    pub puzzle_after: Rating,
}

/// `puzzle_attempts.solved` of an attempt begun and not yet ended (ended: 0 failed, 1 solved).
const BEGUN: i64 = -1;

fn record_of(row: &sqlx::any::AnyRow) -> Result<PuzzleRecord, StoreError> {
    Ok(PuzzleRecord {
        rating: Rating {
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
        },
        attempts: row.try_get("attempts")?,
        solved: row.try_get("solved")?,
    })
}

impl Store {
    /// Every puzzle that has been attempted, by id; a puzzle missing here still has its
    /// starting rating.
    pub async fn puzzle_records(&self) -> Result<HashMap<String, PuzzleRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT puzzle_id, rating, deviation, volatility, attempts, solved FROM puzzle_ratings",
        )
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("puzzle_id")?, record_of(row)?)))
            .collect()
    }

    /// A player's puzzle rating, if the player has attempted a puzzle.
    pub async fn puzzle_player(&self, player: &str) -> Result<Option<PuzzleRecord>, StoreError> {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_players \
             WHERE player_id = $1",
        )
        .bind(player)
        .fetch_optional(&self.reader)
        .await?;
        row.as_ref().map(record_of).transpose()
    }

    /// The puzzles a player has attempted.
    pub async fn attempted_puzzles(&self, player: &str) -> Result<HashSet<String>, StoreError> {
        let rows = sqlx::query("SELECT puzzle_id FROM puzzle_attempts WHERE player_id = $1")
            .bind(player)
            .fetch_all(&self.reader)
            .await?;
        rows.iter()
            .map(|row| Ok(row.try_get("puzzle_id")?))
            .collect()
    }

    /// Marks a player's first attempt at a puzzle as begun (a right move made, the puzzle not
    /// yet solved), unless the player has attempted it before. A begun attempt counts: it is
    /// rated when it ends, or as failed once left ([`Store::unfinished_puzzles`]).
    pub async fn begin_puzzle_attempt(
        &self,
        player: &str,
        puzzle: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO puzzle_attempts (player_id, puzzle_id, solved, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        )
        .bind(player)
        .bind(puzzle)
        .bind(BEGUN)
        .bind(now)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// The puzzles a player began and has not finished.
    pub async fn unfinished_puzzles(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT puzzle_id FROM puzzle_attempts WHERE player_id = $1 AND solved = $2",
        )
        .bind(player)
        .bind(BEGUN)
        .fetch_all(&self.writer)
        .await?;
        rows.iter()
            .map(|row| Ok(row.try_get("puzzle_id")?))
            .collect()
    }

    /// Ends a player's first attempt at a puzzle (solved or not, begun or not) and rates both;
    /// `None` if the player's first attempt had already ended: only the first counts. A puzzle
    /// never attempted starts from `starting`, a player from a newcomer's rating. On
    /// PostgreSQL the player's row is locked before the puzzle's, so that attempts at once by
    /// one player, or at one puzzle, are rated one after the other.
    pub async fn record_puzzle_attempt(
        &self,
        player: &str,
        puzzle: &str,
        starting: Rating,
        solved: bool,
        now: i64,
    ) -> Result<Option<RatedAttempt>, StoreError> {
        let mut tx = self.writer.begin().await?;
        sqlx::query(
            "INSERT INTO puzzle_attempts (player_id, puzzle_id, solved, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        )
        .bind(player)
        .bind(puzzle)
        .bind(BEGUN)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        // Only one writer ends the attempt: the one whose update finds it still begun.
        let ended = sqlx::query(
            "UPDATE puzzle_attempts SET solved = $1 \
             WHERE player_id = $2 AND puzzle_id = $3 AND solved = $4",
        )
        .bind(i64::from(solved))
        .bind(player)
        .bind(puzzle)
        .bind(BEGUN)
        .execute(&mut *tx)
        .await?;
        if ended.rows_affected() != 1 {
            tx.commit().await?;
            return Ok(None);
        }
        let lock = if self.backend == Backend::Postgres {
            " FOR UPDATE"
        } else {
            ""
        };
        let me = locked_row(
            &mut tx,
            "puzzle_players",
            "player_id",
            player,
            Rating::NEW,
            lock,
            Some(now),
        )
        .await?;
        let it = locked_row(
            &mut tx,
            "puzzle_ratings",
            "puzzle_id",
            puzzle,
            starting,
            lock,
            None,
        )
        .await?;
        let score = if solved { 1.0 } else { 0.0 };
        let player_after = me.rating.after(&[(it.rating, score)]);
        let puzzle_after = it.rating.after(&[(me.rating, 1.0 - score)]);
        let solved_count = i64::from(solved);
        sqlx::query(
            "UPDATE puzzle_players SET rating = $1, deviation = $2, volatility = $3, \
             attempts = attempts + 1, solved = solved + $4, updated_at = $5 WHERE player_id = $6",
        )
        .bind(player_after.rating)
        .bind(player_after.deviation)
        .bind(player_after.volatility)
        .bind(solved_count)
        .bind(now)
        .bind(player)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE puzzle_ratings SET rating = $1, deviation = $2, volatility = $3, \
             attempts = attempts + 1, solved = solved + $4 WHERE puzzle_id = $5",
        )
        .bind(puzzle_after.rating)
        .bind(puzzle_after.deviation)
        .bind(puzzle_after.volatility)
        .bind(solved_count)
        .bind(puzzle)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(RatedAttempt {
            player_before: me.rating,
            player_after,
            puzzle_before: it.rating,
            puzzle_after,
        }))
    }
}

/// The row of `key` in `table` (made from `starting` if missing), read with `lock`.
/// `updated_at` is the player table's extra column, `None` for the puzzle table.
async fn locked_row(
    tx: &mut Transaction<'_>,
    table: &str,
    column: &str,
    key: &str,
    starting: Rating,
    lock: &str,
    updated_at: Option<i64>,
) -> Result<PuzzleRecord, StoreError> {
    let insert = match updated_at {
        Some(_) => format!(
            "INSERT INTO {table} ({column}, rating, deviation, volatility, attempts, solved, \
             updated_at) VALUES ($1, $2, $3, $4, 0, 0, $5) ON CONFLICT DO NOTHING"
        ),
        None => format!(
            "INSERT INTO {table} ({column}, rating, deviation, volatility, attempts, solved) \
             VALUES ($1, $2, $3, $4, 0, 0) ON CONFLICT DO NOTHING"
        ),
    };
    let mut query = sqlx::query(&insert)
        .bind(key)
        .bind(starting.rating)
        .bind(starting.deviation)
        .bind(starting.volatility);
    if let Some(now) = updated_at {
        query = query.bind(now);
    }
    query.execute(&mut **tx).await?;
    let row = sqlx::query(&format!(
        "SELECT rating, deviation, volatility, attempts, solved FROM {table} \
         WHERE {column} = $1{lock}"
    ))
    .bind(key)
    .fetch_one(&mut **tx)
    .await?;
    record_of(&row)
}
