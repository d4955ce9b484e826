//! Players' accounts and sessions in the database. Written directly (not through the games'
//! group commit): they are rare, and each is one statement or one small transaction.

use sqlx::Row;

use super::{Store, StoreError};
use crate::seat::TokenHash;

/// An account as stored, for signing in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: String,
    pub name: String,
    pub password_hash: String,
}

/// The player a valid session belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionPlayer {
    pub id: String,
    pub name: String,
}

fn account_from(row: &sqlx::any::AnyRow) -> Result<Account, StoreError> {
    Ok(Account {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
    })
}

/// Whether an error is a unique constraint refusing a second row with one key.
fn is_unique_violation(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(e) if e.is_unique_violation())
}

impl Store {
    /// Adds an account; `Ok(false)` if an account with the same name key exists (now, or made
    /// by another server at the same moment: the key's unique index decides).
    pub async fn create_account(
        &self,
        id: &str,
        name: &str,
        name_key: &str,
        password_hash: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let inserted = sqlx::query(
            "INSERT INTO players (id, name, name_key, password_hash, created_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(name)
        .bind(name_key)
        .bind(password_hash)
        .bind(now)
        .execute(&self.writer)
        .await;
        match inserted {
            Ok(_) => Ok(true),
            Err(error) if is_unique_violation(&error) => Ok(false),
            Err(error) => Err(error.into()),
        }
    }

    /// The live account whose name has the key `name_key`.
    pub async fn account_by_key(&self, name_key: &str) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query(
            "SELECT id, name, password_hash FROM players \
             WHERE name_key = $1 AND deleted_at IS NULL",
        )
        .bind(name_key)
        .fetch_optional(&self.reader)
        .await?;
        row.as_ref().map(account_from).transpose()
    }

    /// The live account `id`.
    pub async fn account(&self, id: &str) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query(
            "SELECT id, name, password_hash FROM players WHERE id = $1 AND deleted_at IS NULL",
        )
        .bind(id)
        .fetch_optional(&self.reader)
        .await?;
        row.as_ref().map(account_from).transpose()
    }

    /// Opens a session for `player` until `expires_at`.
    pub async fn create_session(
        &self,
        token: &TokenHash,
        player: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, player_id, created_at, expires_at) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(token.to_hex())
        .bind(player)
        .bind(now)
        .bind(expires_at)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// The player of the session `token`, if it has not expired by `now` and its account is
    /// not deleted.
    pub async fn session_player(
        &self,
        token: &TokenHash,
        now: i64,
    ) -> Result<Option<SessionPlayer>, StoreError> {
        let row = sqlx::query(
            "SELECT players.id AS id, players.name AS name FROM sessions \
             JOIN players ON players.id = sessions.player_id \
             WHERE sessions.token_hash = $1 AND sessions.expires_at > $2 \
             AND players.deleted_at IS NULL",
        )
        .bind(token.to_hex())
        .bind(now)
        .fetch_optional(&self.reader)
        .await?;
        row.map(|row| {
            Ok(SessionPlayer {
                id: row.try_get("id")?,
                name: row.try_get("name")?,
            })
        })
        .transpose()
    }

    /// Ends the session `token`.
    pub async fn delete_session(&self, token: &TokenHash) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token.to_hex())
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Forgets sessions that expired before `now`.
    pub async fn delete_expired_sessions(&self, now: i64) -> Result<u64, StoreError> {
        Ok(sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(&self.writer)
            .await?
            .rows_affected())
    }

    /// Replaces `player`'s password hash and ends every session of the player but `keep`:
    /// whoever knew the old password is signed out everywhere else.
    pub async fn set_password(
        &self,
        player: &str,
        password_hash: &str,
        keep: &TokenHash,
    ) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        sqlx::query("UPDATE players SET password_hash = $1 WHERE id = $2 AND deleted_at IS NULL")
            .bind(password_hash)
            .bind(player)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE player_id = $1 AND token_hash <> $2")
            .bind(player)
            .bind(keep.to_hex())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Deletes `player`'s account: its name (free to be taken again), password, sessions and
    /// ratings go, its open challenges are cancelled; its games stay, shown without a name
    /// (and are no longer rated for it).
    pub async fn delete_account(&self, player: &str, now: i64) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        sqlx::query(
            "UPDATE players SET name = NULL, name_key = NULL, password_hash = NULL, \
             deleted_at = $1 WHERE id = $2",
        )
        .bind(now)
        .bind(player)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE challenges SET status = 'cancelled', updated_at = $1 \
             WHERE player_id = $2 AND status = 'open'",
        )
        .bind(now)
        .bind(player)
        .execute(&mut *tx)
        .await?;
        for table in ["sessions", "ratings", "rating_changes"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE player_id = $1"))
                .bind(player)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}
