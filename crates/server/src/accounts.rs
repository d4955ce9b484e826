//! Players' accounts: what a name and a password may be, how a password is kept (Argon2id, never
//! the password itself) and checked, and the sessions a sign-in opens. Storage is in
//! [`crate::store`]; the routes in `http::accounts`.

use std::sync::{Arc, OnceLock};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use tokio::sync::Semaphore;

/// The shortest and longest name, in characters.
pub const NAME_MIN: usize = 3;
pub const NAME_MAX: usize = 20;
/// The shortest and longest password, in characters. The longest bounds the work of hashing
/// one; NIST SP 800-63B asks for at least 8 and for long passphrases to be allowed.
pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 128;
/// How long a session lasts from its sign-in.
pub const SESSION_DAYS: i64 = 30;
/// The session cookie's name on plain http.
pub const SESSION_COOKIE: &str = "denkmeter_session";
/// The session cookie's name behind https: a browser keeps a `__Host-` cookie only if it is
/// `Secure`, has `Path=/` and no `Domain`, so no other site, not even a sibling subdomain, can
/// plant one in its place.
pub const SECURE_SESSION_COOKIE: &str = "__Host-denkmeter_session";
/// How many passwords are hashed or checked at once: each Argon2id run takes 19 MiB and a core
/// for some tens of milliseconds, so a burst of sign-ins queues rather than exhausting memory.
pub const HASHING_AT_ONCE: usize = 2;

/// Names nobody may take: they would read as the server, the computer or a missing player.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "anonymous",
    "computer",
    "deleted",
    "denkmeter",
    "guest",
    "human",
    "moderator",
    "nobody",
    "root",
    "system",
];

/// Beginnings of names nobody may take: `Computer_Level_8` or `Admin2` would pose as the
/// computer or the server's keepers.
const RESERVED_PREFIXES: &[&str] = &["admin", "computer", "denkmeter", "moderator", "system"];

/// Passwords too common to accept, whatever their length (the head of the lists that leaked
/// passwords give, among those of at least 8 characters).
const COMMON_PASSWORDS: &[&str] = &[
    "12345678",
    "123456789",
    "1234567890",
    "11111111",
    "00000000",
    "87654321",
    "password",
    "password1",
    "password123",
    "passw0rd",
    "qwertyuiop",
    "qwerty123",
    "qwertyui",
    "iloveyou",
    "abcdefgh",
    "abc12345",
    "sunshine",
    "princess",
    "football",
    "baseball",
    "welcome1",
    "letmein1",
    "trustno1",
    "superman",
    "1q2w3e4r",
    "zaq12wsx",
    "denkmeter",
    "draughts",
    "checkers",
];

/// Why a name or password was refused: said to the person, so it says what would be accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AccountError {
    #[error(
        "a name has {NAME_MIN} to {NAME_MAX} characters: letters a-z or A-Z, digits, - or _, \
         starting with a letter"
    )]
    BadName,
    #[error("the name {0:?} is reserved")]
    ReservedName(String),
    #[error("a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")]
    PasswordLength,
    #[error("that password is too easy to guess: choose another")]
    WeakPassword,
}

/// Checks a name as typed: [`NAME_MIN`]-[`NAME_MAX`] ASCII letters, digits, `-` and `_`,
/// starting with a letter, not a reserved name (nor one that looks like it).
pub fn check_name(name: &str) -> Result<(), AccountError> {
    let length = name.chars().count();
    let plain = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    let starts = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
    if !(NAME_MIN..=NAME_MAX).contains(&length) || !plain || !starts {
        return Err(AccountError::BadName);
    }
    let key = name_key(name);
    let posing = RESERVED_PREFIXES
        .iter()
        .any(|r| key.starts_with(&name_key(r)));
    if posing || RESERVED.iter().any(|r| key == name_key(r)) {
        return Err(AccountError::ReservedName(name.to_string()));
    }
    Ok(())
}

/// The form of a name under which look-alike names meet: lower case, `-` and `_` left out, and
/// the letters and digits people mistake for each other made one (`0` and `o`; `1`, `i` and
/// `l`; `5` and `s`; `rn` and `m`; `vv` and `w`). Two names with one key cannot both exist.
pub fn name_key(name: &str) -> String {
    let folded: String = name
        .chars()
        .filter(|&c| c != '-' && c != '_')
        .map(|c| match c.to_ascii_lowercase() {
            '0' => 'o',
            '1' | 'i' => 'l',
            '5' => 's',
            other => other,
        })
        .collect();
    folded.replace("rn", "m").replace("vv", "w")
}

/// Checks a new password: its length in characters, not a common one, not the name.
pub fn check_password(name: &str, password: &str) -> Result<(), AccountError> {
    let length = password.chars().count();
    if !(PASSWORD_MIN..=PASSWORD_MAX).contains(&length) {
        return Err(AccountError::PasswordLength);
    }
    let lower = password.to_lowercase();
    let one_character = password.chars().all(|c| password.starts_with(c));
    if one_character
        || COMMON_PASSWORDS.contains(&lower.as_str())
        || lower.contains(&name.to_lowercase())
    {
        return Err(AccountError::WeakPassword);
    }
    Ok(())
}

/// Hashes and checks passwords with Argon2id at the `argon2` crate's defaults (19 MiB, two
/// passes, one lane: OWASP's recommendation), [`HASHING_AT_ONCE`] at a time, off the async
/// runtime.
#[derive(Debug, Clone)]
pub struct Passwords {
    slots: Arc<Semaphore>,
}

impl Default for Passwords {
    fn default() -> Self {
        Passwords {
            slots: Arc::new(Semaphore::new(HASHING_AT_ONCE)),
        }
    }
}

/// A hash checked against when a name is unknown, so that an unknown name costs the same time
/// as a wrong password and does not tell that the name is free.
fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| hash_now("a password nobody has").unwrap_or_default())
}

fn hash_now(password: &str) -> Result<String, argon2::password_hash::Error> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)?
        .to_string())
}

fn verify_now(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

impl Passwords {
    /// The stored form of a password (a PHC string: algorithm, parameters, salt, hash).
    pub async fn hash(&self, password: &str) -> Result<String, String> {
        // The permit goes with the work: a client that hangs up does not free the slot while
        // the hash still runs.
        let slot = self
            .slots
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| e.to_string())?;
        let password = password.to_string();
        tokio::task::spawn_blocking(move || {
            let _slot = slot;
            hash_now(&password)
        })
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())
    }

    /// Whether `password` is the one behind `stored`; with no stored hash (an unknown name),
    /// checks against a decoy and answers false, taking the same time.
    pub async fn verify(&self, password: &str, stored: Option<&str>) -> bool {
        let Ok(slot) = self.slots.clone().acquire_owned().await else {
            return false;
        };
        let known = stored.is_some();
        let (password, hash) = (
            password.to_string(),
            stored.map_or_else(|| decoy_hash().to_string(), str::to_string),
        );
        let matched = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            verify_now(&password, &hash)
        })
        .await
        .unwrap_or(false);
        known && matched
    }

    /// Makes the decoy hash now, so that the first unknown name is not slower than the rest.
    pub async fn warm_up(&self) {
        let _ = tokio::task::spawn_blocking(decoy_hash).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain_and_not_reserved() {
        for good in [
            "Boogerd",
            "abc",
            "a-b_c9",
            "Trangalla_Fan",
            "x2345678901234567890",
        ] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "ab",
            "x23456789012345678901",
            "9lives",
            "_under",
            "two words",
            "Böögerd",
            "name;drop",
            "tab\tname",
            "Ｂoogerd",
        ] {
            assert_eq!(check_name(bad), Err(AccountError::BadName), "{bad}");
        }
        for reserved in [
            "admin",
            "Computer",
            "c0mputer",
            "Denkmeter42",
            "an0nym0us",
            "Computer_Level_8",
            "Admin2",
        ] {
            assert!(
                matches!(check_name(reserved), Err(AccountError::ReservedName(_))),
                "{reserved}"
            );
        }
    }

    #[test]
    fn look_alike_names_share_a_key() {
        let key = name_key("Boogerd");
        for alike in ["boogerd", "B00gerd", "BOOGERD", "boo_gerd", "Boo-gerd"] {
            assert_eq!(name_key(alike), key, "{alike}");
        }
        assert_eq!(name_key("Bill"), name_key("B1ll"));
        assert_eq!(name_key("Bill"), name_key("BiII"));
        assert_eq!(name_key("modern"), name_key("modem"));
        assert_eq!(name_key("wave"), name_key("vvave"));
        assert_ne!(name_key("Boogerd"), name_key("Bogerd"));
    }

    #[test]
    fn passwords_are_long_enough_and_not_common() {
        assert_eq!(check_password("alice", "correct horse battery"), Ok(()));
        assert_eq!(
            check_password("alice", "short"),
            Err(AccountError::PasswordLength)
        );
        let huge = "x".repeat(PASSWORD_MAX + 1);
        assert_eq!(
            check_password("alice", &huge),
            Err(AccountError::PasswordLength)
        );
        for weak in [
            "password",
            "PASSWORD1",
            "12345678",
            "aaaaaaaaaa",
            "xxalice2024",
        ] {
            assert_eq!(
                check_password("alice", weak),
                Err(AccountError::WeakPassword),
                "{weak}"
            );
        }
        // Characters, not bytes: eight accented letters are enough.
        assert_eq!(check_password("alice", "éèêëéèêz"), Ok(()));
    }

    #[tokio::test]
    async fn a_password_is_stored_hashed_and_checked() {
        let passwords = Passwords::default();
        let stored = passwords.hash("correct horse battery").await.unwrap();
        assert!(stored.starts_with("$argon2id$"), "{stored}");
        assert!(!stored.contains("correct horse"));
        assert!(
            passwords
                .verify("correct horse battery", Some(&stored))
                .await
        );
        assert!(
            !passwords
                .verify("correct horse batterY", Some(&stored))
                .await
        );
        assert!(!passwords.verify("correct horse battery", None).await);
        assert!(!passwords.verify("x", Some("not a hash")).await);
        // The same password hashes differently each time (a new salt).
        assert_ne!(
            passwords.hash("correct horse battery").await.unwrap(),
            stored
        );
    }
}
