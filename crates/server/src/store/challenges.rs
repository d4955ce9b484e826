//! Challenges in the lobby. Accepting one makes its game in the same transaction that marks it
//! accepted: of two acceptors at once, on any number of servers, one gets the game.

use sqlx::Row;

use super::{insert_game, Store, StoreError, StoredGame};
use crate::clock::TimeControl;

/// The most open challenges a player may have at once.
pub const MAX_OPEN_CHALLENGES: i64 = 3;

/// A challenge as stored, with the names it shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Challenge {
    pub id: String,
    pub player_id: String,
    pub player_name: String,
    /// The challenger's rating in the category, if he has one.
    pub player_rating: Option<crate::rating::Rating>,
    pub ruleset: String,
    pub clock: Option<TimeControl>,
    pub category: Option<String>,
    pub rated: bool,
    /// `white`, `black` or `random`: the challenger's colour.
    pub colour: String,
    pub target_id: Option<String>,
    pub target_name: Option<String>,
    /// `open`, `accepted` or `cancelled`.
    pub status: String,
    pub game_id: Option<String>,
    pub accepted_by: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub expires_at: i64,
}

/// A new challenge.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    pub id: String,
    pub player_id: String,
    pub ruleset: String,
    pub clock: Option<TimeControl>,
    pub category: Option<String>,
    pub rated: bool,
    pub colour: String,
    pub target_id: Option<String>,
    pub now: i64,
    pub expires_at: i64,
}

/// Why a challenge could not be accepted or cancelled.
#[derive(Debug, thiserror::Error)]
pub enum ChallengeError {
    #[error("no such challenge")]
    NotFound,
    #[error("the challenge is no longer open (taken, cancelled or expired)")]
    NotOpen,
    #[error("this challenge is for another player")]
    NotYours,
    #[error("you cannot accept your own challenge")]
    OwnChallenge,
    #[error("only its challenger can cancel a challenge")]
    NotTheChallenger,
    #[error("at most {MAX_OPEN_CHALLENGES} open challenges at once: cancel one first")]
    TooMany,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for ChallengeError {
    fn from(error: sqlx::Error) -> ChallengeError {
        ChallengeError::Store(error.into())
    }
}

const CHALLENGE_COLUMNS: &str = "challenges.id AS id, challenges.player_id AS player_id, \
     p.name AS player_name, challenges.ruleset AS ruleset, clock_kind, clock_main_ms, \
     clock_increment_ms, challenges.category AS category, rated, colour, target_id, \
     t.name AS target_name, status, game_id, accepted_by, challenges.created_at AS created_at, \
     challenges.updated_at AS updated_at, expires_at, \
     r.rating AS rating, r.deviation AS deviation, r.volatility AS volatility";

const CHALLENGE_FROM: &str = "challenges JOIN players p ON p.id = challenges.player_id \
     LEFT JOIN players t ON t.id = challenges.target_id \
     LEFT JOIN ratings r ON r.player_id = challenges.player_id \
     AND r.category = challenges.category";

/// A challenge's time control from its columns; `None` without one.
fn control_from(
    kind: Option<String>,
    main_ms: Option<i64>,
    increment_ms: Option<i64>,
    id: &str,
) -> Result<Option<TimeControl>, StoreError> {
    let Some(kind) = kind else {
        return Ok(None);
    };
    TimeControl::from_columns(&kind, main_ms.unwrap_or(0), increment_ms.unwrap_or(0))
        .map(Some)
        .ok_or_else(|| StoreError::Corrupt {
            id: id.to_string(),
            what: "challenge clock",
            value: kind,
        })
}

fn challenge_from(row: &sqlx::any::AnyRow) -> Result<Challenge, StoreError> {
    let id: String = row.try_get("id")?;
    let rating: Option<f64> = row.try_get("rating")?;
    Ok(Challenge {
        player_id: row.try_get("player_id")?,
        player_name: row
            .try_get::<Option<String>, _>("player_name")?
            .unwrap_or_default(),
        player_rating: match rating {
            Some(rating) => Some(crate::rating::Rating {
                rating,
                deviation: row.try_get("deviation")?,
                volatility: row.try_get("volatility")?,
            }),
            None => None,
        },
        ruleset: row.try_get("ruleset")?,
        clock: control_from(
            row.try_get("clock_kind")?,
            row.try_get("clock_main_ms")?,
            row.try_get("clock_increment_ms")?,
            &id,
        )?,
        category: row.try_get("category")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        colour: row.try_get("colour")?,
        target_id: row.try_get("target_id")?,
        target_name: row.try_get("target_name")?,
        status: row.try_get("status")?,
        game_id: row.try_get("game_id")?,
        accepted_by: row.try_get("accepted_by")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        expires_at: row.try_get("expires_at")?,
        id,
    })
}

impl Store {
    /// Stores a new open challenge, unless its player has [`MAX_OPEN_CHALLENGES`] open already.
    pub async fn create_challenge(&self, new: &NewChallenge) -> Result<(), ChallengeError> {
        let mut tx = self.writer.begin().await?;
        if self.backend == super::Backend::Postgres {
            // The player's row is locked until the insert: two challenges made at once on
            // two servers are counted one after the other (SQLite has one writer anyway).
            sqlx::query("SELECT id FROM players WHERE id = $1 FOR UPDATE")
                .bind(&new.player_id)
                .execute(&mut *tx)
                .await?;
        }
        let open: i64 = sqlx::query(
            "SELECT COUNT(*) AS n FROM challenges \
             WHERE player_id = $1 AND status = 'open' AND expires_at > $2",
        )
        .bind(&new.player_id)
        .bind(new.now)
        .fetch_one(&mut *tx)
        .await?
        .try_get("n")?;
        if open >= MAX_OPEN_CHALLENGES {
            return Err(ChallengeError::TooMany);
        }
        let (kind, main, increment) = match new.clock.map(TimeControl::columns) {
            Some((kind, main, increment)) => (Some(kind), Some(main), Some(increment)),
            None => (None, None, None),
        };
        sqlx::query(
            "INSERT INTO challenges (id, player_id, ruleset, clock_kind, clock_main_ms, \
             clock_increment_ms, category, rated, colour, target_id, status, created_at, \
             updated_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'open', $11, $11, $12)",
        )
        .bind(&new.id)
        .bind(&new.player_id)
        .bind(&new.ruleset)
        .bind(kind)
        .bind(main)
        .bind(increment)
        .bind(&new.category)
        .bind(i64::from(new.rated))
        .bind(&new.colour)
        .bind(&new.target_id)
        .bind(new.now)
        .bind(new.expires_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// A challenge, whatever its state.
    pub async fn challenge(&self, id: &str) -> Result<Option<Challenge>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {CHALLENGE_COLUMNS} FROM {CHALLENGE_FROM} WHERE challenges.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.reader)
        .await?;
        row.as_ref().map(challenge_from).transpose()
    }

    /// The challenges open at `now`, newest first, then those accepted since `since`, most
    /// recently accepted first (at most `limit` of each: a flood of closed challenges cannot
    /// push the open ones out).
    pub async fn recent_challenges(
        &self,
        now: i64,
        since: i64,
        limit: i64,
    ) -> Result<Vec<Challenge>, StoreError> {
        let mut found = Vec::new();
        for (filter, order, time) in [
            (
                "status = 'open' AND expires_at > $1",
                "challenges.created_at DESC",
                now,
            ),
            (
                "status = 'accepted' AND challenges.updated_at >= $1",
                "challenges.updated_at DESC",
                since,
            ),
        ] {
            let rows = sqlx::query(&format!(
                "SELECT {CHALLENGE_COLUMNS} FROM {CHALLENGE_FROM} WHERE {filter} \
                 ORDER BY {order}, challenges.id LIMIT $2"
            ))
            .bind(time)
            .bind(limit)
            .fetch_all(&self.reader)
            .await?;
            for row in &rows {
                found.push(challenge_from(row)?);
            }
        }
        Ok(found)
    }

    /// Cancels an open challenge of `player`.
    pub async fn cancel_challenge(
        &self,
        id: &str,
        player: &str,
        now: i64,
    ) -> Result<(), ChallengeError> {
        let updated = sqlx::query(
            "UPDATE challenges SET status = 'cancelled', updated_at = $1 \
             WHERE id = $2 AND player_id = $3 AND status = 'open' AND expires_at > $1",
        )
        .bind(now)
        .bind(id)
        .bind(player)
        .execute(&self.writer)
        .await?;
        if updated.rows_affected() == 1 {
            return Ok(());
        }
        match self.challenge(id).await? {
            None => Err(ChallengeError::NotFound),
            Some(c) if c.player_id != player => Err(ChallengeError::NotTheChallenger),
            Some(_) => Err(ChallengeError::NotOpen),
        }
    }

    /// Accepts challenge `id` for `acceptor`: marks it accepted and stores `game` (its seats as
    /// the challenge says) in one transaction; nothing is stored unless the challenge was
    /// still open, not the acceptor's own, and open to him.
    pub async fn accept_challenge(
        &self,
        id: &str,
        acceptor: &str,
        game: &StoredGame,
        moves: &[String],
        now: i64,
    ) -> Result<(), ChallengeError> {
        let mut tx = self.writer.begin().await?;
        let updated = sqlx::query(
            "UPDATE challenges SET status = 'accepted', game_id = $1, accepted_by = $2, \
             updated_at = $3 \
             WHERE id = $4 AND status = 'open' AND expires_at > $3 AND player_id <> $2 \
             AND (target_id IS NULL OR target_id = $2)",
        )
        .bind(&game.id)
        .bind(acceptor)
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() != 1 {
            tx.rollback().await?;
            return Err(match self.challenge(id).await? {
                None => ChallengeError::NotFound,
                Some(c) if c.player_id == acceptor => ChallengeError::OwnChallenge,
                Some(c) if c.target_id.as_ref().is_some_and(|t| t != acceptor) => {
                    ChallengeError::NotYours
                }
                Some(_) => ChallengeError::NotOpen,
            });
        }
        insert_game(&mut tx, game, moves, &self.server_id).await?;
        tx.commit().await?;
        Ok(())
    }
}
