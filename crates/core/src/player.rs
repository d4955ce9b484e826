//! The two players and a pair of values indexed by player.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// One of the two players. White always moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Player {
    White = 0,
    Black = 1,
}

impl Player {
    /// Both players, White first.
    pub const BOTH: [Player; 2] = [Player::White, Player::Black];

    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::White => Player::Black,
            Player::Black => Player::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side-to-move letter of position strings: `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Player::White => 'w',
            Player::Black => 'b',
        }
    }

    /// Reads `w` or `b`.
    pub fn from_letter(c: char) -> Option<Player> {
        match c {
            'w' => Some(Player::White),
            'b' => Some(Player::Black),
            _ => None,
        }
    }

    /// Lower-case name, as used in APIs and records.
    pub const fn name(self) -> &'static str {
        match self {
            Player::White => "white",
            Player::Black => "black",
        }
    }
}

impl Not for Player {
    type Output = Player;
    fn not(self) -> Player {
        self.opponent()
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::White => "White",
            Player::Black => "Black",
        })
    }
}

/// A value for each player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByPlayer<T> {
    pub white: T,
    pub black: T,
}

impl<T> ByPlayer<T> {
    pub const fn new(white: T, black: T) -> Self {
        ByPlayer { white, black }
    }

    /// Builds both values from a function of the player.
    pub fn from_fn(mut f: impl FnMut(Player) -> T) -> Self {
        ByPlayer {
            white: f(Player::White),
            black: f(Player::Black),
        }
    }
}

impl<T> Index<Player> for ByPlayer<T> {
    type Output = T;
    #[inline]
    fn index(&self, p: Player) -> &T {
        match p {
            Player::White => &self.white,
            Player::Black => &self.black,
        }
    }
}

impl<T> IndexMut<Player> for ByPlayer<T> {
    #[inline]
    fn index_mut(&mut self, p: Player) -> &mut T {
        match p {
            Player::White => &mut self.white,
            Player::Black => &mut self.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_and_letters() {
        assert_eq!(!Player::White, Player::Black);
        assert_eq!(Player::Black.opponent(), Player::White);
        for p in Player::BOTH {
            assert_eq!(Player::from_letter(p.letter()), Some(p));
        }
        assert_eq!(Player::from_letter('x'), None);
    }

    #[test]
    fn by_player_indexes() {
        let mut v = ByPlayer::new(1, 2);
        v[Player::Black] += 10;
        assert_eq!(v[Player::White], 1);
        assert_eq!(v[Player::Black], 12);
    }
}
