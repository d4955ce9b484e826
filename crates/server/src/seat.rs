//! Seats and the secret tokens that hold them. A token is shown once, to its creator; the
//! database keeps only its SHA-256, and a presented token is compared with it in constant time.

use rand::Rng;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    Computer(u8),
}

impl Seat {
    pub fn is_computer(self) -> bool {
        matches!(self, Seat::Computer(_))
    }
}

/// The SHA-256 of a seat token, as stored (64 lowercase hexadecimal digits).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct TokenHash([u8; 32]);

impl std::fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenHash(..)")
    }
}

impl TokenHash {
    /// The hash of a token.
    pub fn of(token: &str) -> TokenHash {
        TokenHash(Sha256::digest(token.as_bytes()).into())
    }

    /// Whether `token` is the token behind this hash, in time that does not depend on where
    /// the two differ.
    pub fn matches(&self, token: &str) -> bool {
        bool::from(TokenHash::of(token).0.ct_eq(&self.0))
    }

    /// The stored text form.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Reads the stored text form; `None` if it is not 64 hexadecimal digits.
    pub fn from_hex(text: &str) -> Option<TokenHash> {
        if text.len() != 64 || !text.is_ascii() {
            return None;
        }
        let mut bytes = [0u8; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(TokenHash(bytes))
    }
}

/// A new secret seat token: 24 characters from a 32-letter alphabet (120 random bits).
pub fn new_token() -> String {
    random_text(24)
}

/// A new game id: 10 characters from the same alphabet.
pub fn new_game_id() -> String {
    random_text(10)
}

fn random_text(len: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    (0..len)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_matches_its_token_only() {
        let token = new_token();
        let hash = TokenHash::of(&token);
        assert!(hash.matches(&token));
        assert!(!hash.matches(&new_token()));
        assert!(!hash.matches(""));
        assert!(!hash.matches(&token[..23]));
        let hex = hash.to_hex();
        assert_eq!(hex.len(), 64);
        // The SHA-256 of the token, as any other implementation computes it.
        assert_eq!(
            TokenHash::of("abc").to_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(TokenHash::from_hex(&hex), Some(hash));
        assert_eq!(TokenHash::from_hex(&token), None);
        assert_eq!(TokenHash::from_hex(&"zz".repeat(32)), None);
    }
}
