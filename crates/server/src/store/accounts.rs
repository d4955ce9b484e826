//! Players' accounts and sessions in the database. Written directly (not through the games'
//! group commit): they are rare, and each is one statement or one small transaction.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

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

/// How long a session found valid is taken as valid without asking the database again. A
/// session ended through this server is forgotten at once; one ended through another server
/// sharing the database is honoured here for at most this long.
pub const SESSION_RECHECK: Duration = Duration::from_secs(1);
/// The most sessions remembered; past it, all are forgotten and asked for again.
const SESSIONS_CACHED: usize = 100_000;

/// Sessions found valid in the last [`SESSION_RECHECK`]: a signed-in player's every request
/// and every socket's periodic look at its session would otherwise each read the database.
#[derive(Debug, Default)]
pub struct SessionCache {
    found: Mutex<Found>,
}

#[derive(Debug, Default)]
struct Found {
    sessions: HashMap<TokenHash, CachedSession>,
    /// Counts the times sessions were forgotten: a lookup that began before one is not kept,
    /// since the session it read may have ended since.
    generation: u64,
}

#[derive(Debug)]
struct CachedSession {
    player: SessionPlayer,
    expires_at: i64,
    found_at: Instant,
}

impl SessionCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Found> {
        self.found
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The player of `token` if it was found valid lately; else the generation to give
    /// [`SessionCache::put`] with what the database says.
    fn get(&self, token: &TokenHash, now: i64) -> Result<SessionPlayer, u64> {
        let found = self.lock();
        match found.sessions.get(token) {
            Some(cached)
                if cached.expires_at > now && cached.found_at.elapsed() < SESSION_RECHECK =>
            {
                Ok(cached.player.clone())
            }
            _ => Err(found.generation),
        }
    }

    fn put(&self, token: &TokenHash, player: &SessionPlayer, expires_at: i64, generation: u64) {
        let mut found = self.lock();
        if found.generation != generation {
            return;
        }
        if found.sessions.len() >= SESSIONS_CACHED {
            found.sessions.clear();
        }
        found.sessions.insert(
            token.clone(),
            CachedSession {
                player: player.clone(),
                expires_at,
                found_at: Instant::now(),
            },
        );
    }

    /// Forgets the sessions `ended` says have ended.
    fn forget(&self, ended: impl Fn(&TokenHash, &SessionPlayer) -> bool) {
        let mut found = self.lock();
        found.generation += 1;
        found
            .sessions
            .retain(|token, cached| !ended(token, &cached.player));
    }
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
        let generation = match self.sessions.get(token, now) {
            Ok(player) => return Ok(Some(player)),
            Err(generation) => generation,
        };
        let row = sqlx::query(
            "SELECT players.id AS id, players.name AS name, sessions.expires_at AS expires_at \
             FROM sessions JOIN players ON players.id = sessions.player_id \
             WHERE sessions.token_hash = $1 AND sessions.expires_at > $2 \
             AND players.deleted_at IS NULL",
        )
        .bind(token.to_hex())
        .bind(now)
        .fetch_optional(&self.reader)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let player = SessionPlayer {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
        };
        let expires_at = row.try_get("expires_at")?;
        self.sessions.put(token, &player, expires_at, generation);
        Ok(Some(player))
    }

    /// Ends the session `token`.
    pub async fn delete_session(&self, token: &TokenHash) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token.to_hex())
            .execute(&self.writer)
            .await?;
        self.sessions.forget(|cached, _| cached == token);
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
        self.sessions
            .forget(|token, holder| holder.id == player && token != keep);
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
        self.sessions.forget(|_, holder| holder.id == player);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alice() -> SessionPlayer {
        SessionPlayer {
            id: "p1".into(),
            name: "Alice".into(),
        }
    }

    #[test]
    fn a_session_is_remembered_until_it_ends_expires_or_is_a_second_old() {
        let cache = SessionCache::default();
        let (mine, other) = (TokenHash::of("mine"), TokenHash::of("other"));
        let generation = cache.get(&mine, 0).expect_err("nothing remembered yet");
        cache.put(&mine, &alice(), 1_000, generation);
        cache.put(&other, &alice(), 1_000, generation);
        assert_eq!(cache.get(&mine, 999), Ok(alice()));
        // Past its expiry it is asked for again.
        assert!(cache.get(&mine, 1_000).is_err());
        // A new password ends the player's other sessions.
        cache.forget(|token, holder| holder.id == "p1" && *token != mine);
        assert_eq!(cache.get(&mine, 0), Ok(alice()));
        assert!(cache.get(&other, 0).is_err());
        // Signing out ends this one.
        cache.forget(|token, _| *token == mine);
        assert!(cache.get(&mine, 0).is_err());
        // Remembered is no more than a recheck's time.
        let generation = cache.get(&mine, 0).expect_err("forgotten");
        cache.put(&mine, &alice(), 1_000, generation);
        if let Some(entry) = cache.lock().sessions.get_mut(&mine) {
            entry.found_at = Instant::now()
                .checked_sub(SESSION_RECHECK)
                .expect("the machine has run for a second");
        }
        assert!(cache.get(&mine, 0).is_err());
    }

    #[test]
    fn a_lookup_that_began_before_a_session_ended_is_not_remembered() {
        let cache = SessionCache::default();
        let token = TokenHash::of("mine");
        // A lookup begins and reads the session from the database...
        let generation = cache.get(&token, 0).expect_err("nothing remembered yet");
        // ...while the session is ended...
        cache.forget(|t, _| *t == token);
        // ...so what it read is not kept.
        cache.put(&token, &alice(), 1_000, generation);
        assert!(cache.get(&token, 0).is_err());
    }
}
