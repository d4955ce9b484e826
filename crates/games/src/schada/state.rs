//! The Schada position: pieces as bitboards over the 64 squares (square `file + 8 * rank`, bit
//! of the same number), the side to move and a Zobrist hash. The position is the whole state:
//! the shuffling ending reads the game's moves (`Schada::ending_by_history`).

use denkmeter_core::{zobrist, ByPlayer, Player};

/// Rank 1 and rank 8.
pub(crate) const RANK_1: u64 = 0xff;
pub(crate) const RANK_8: u64 = 0xff << 56;

#[inline]
pub(crate) const fn bit(sq: u8) -> u64 {
    1 << sq
}

/// A player's base line (own first rank).
#[inline]
pub(crate) const fn base_line(p: Player) -> u64 {
    match p {
        Player::White => RANK_1,
        Player::Black => RANK_8,
    }
}

/// A player's goal line (the far rank).
#[inline]
pub(crate) const fn goal_line(p: Player) -> u64 {
    match p {
        Player::White => RANK_8,
        Player::Black => RANK_1,
    }
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    FieldOfficer,
    Officer,
    Pawn,
}

impl Piece {
    pub const ALL: [Piece; 3] = [Piece::FieldOfficer, Piece::Officer, Piece::Pawn];

    /// White's letter in position strings (Black's is the lower case).
    pub const fn letter(self) -> char {
        match self {
            Piece::FieldOfficer => 'F',
            Piece::Officer => 'O',
            Piece::Pawn => 'P',
        }
    }

    /// The piece's name in views and keys.
    pub const fn name(self) -> &'static str {
        match self {
            Piece::FieldOfficer => "field officer",
            Piece::Officer => "officer",
            Piece::Pawn => "pawn",
        }
    }

    /// Whether this is a high piece (a Field Officer or an Officer).
    pub const fn is_high(self) -> bool {
        !matches!(self, Piece::Pawn)
    }
}

const KEYS: [u64; 2 * 3 * 64] = zobrist::table(0x5c4a_da00);
const BLACK_TO_MOVE: u64 = zobrist::key(0x5c4a_da01, 0);

#[inline]
fn key(owner: Player, piece: Piece, sq: u8) -> u64 {
    KEYS[(owner as usize * 3 + piece as usize) * 64 + sq as usize]
}

/// A Schada position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Each player's pieces.
    pub(crate) own: ByPlayer<u64>,
    /// Field Officers and Officers of both players.
    pub(crate) field_officers: u64,
    pub(crate) officers: u64,
    pub to_move: Player,
    pub(crate) hash: u64,
}

impl State {
    /// An empty board, `to_move` to move.
    pub(crate) fn empty(to_move: Player) -> State {
        State {
            own: ByPlayer::new(0, 0),
            field_officers: 0,
            officers: 0,
            to_move,
            hash: if to_move == Player::Black {
                BLACK_TO_MOVE
            } else {
                0
            },
        }
    }

    /// Both players' pieces.
    #[inline]
    pub(crate) fn occupied(&self) -> u64 {
        self.own[Player::White] | self.own[Player::Black]
    }

    /// The high pieces of both players.
    #[inline]
    pub(crate) fn high(&self) -> u64 {
        self.field_officers | self.officers
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, sq: u8) -> Option<(Player, Piece)> {
        let b = bit(sq);
        let owner = Player::BOTH.into_iter().find(|&p| self.own[p] & b != 0)?;
        let piece = if self.field_officers & b != 0 {
            Piece::FieldOfficer
        } else if self.officers & b != 0 {
            Piece::Officer
        } else {
            Piece::Pawn
        };
        Some((owner, piece))
    }

    /// Puts a piece on an empty square.
    pub(crate) fn put(&mut self, owner: Player, piece: Piece, sq: u8) {
        let b = bit(sq);
        self.own[owner] |= b;
        match piece {
            Piece::FieldOfficer => self.field_officers |= b,
            Piece::Officer => self.officers |= b,
            Piece::Pawn => {}
        }
        self.hash ^= key(owner, piece, sq);
    }

    /// Takes the piece off a square (which holds one).
    pub(crate) fn take(&mut self, owner: Player, piece: Piece, sq: u8) {
        let b = !bit(sq);
        self.own[owner] &= b;
        self.field_officers &= b;
        self.officers &= b;
        self.hash ^= key(owner, piece, sq);
    }

    pub(crate) fn flip_side(&mut self) {
        self.to_move = !self.to_move;
        self.hash ^= BLACK_TO_MOVE;
    }

    /// How many pieces of a kind a player has.
    pub fn count(&self, owner: Player, piece: Piece) -> u32 {
        let of_kind = match piece {
            Piece::FieldOfficer => self.field_officers,
            Piece::Officer => self.officers,
            Piece::Pawn => !self.high(),
        };
        (self.own[owner] & of_kind).count_ones()
    }
}
