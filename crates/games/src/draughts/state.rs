//! A draughts position: the squares of each side's pieces and of the dames as bitboards over the
//! padded layout of [`super::geometry`], the side to move, an incremental Zobrist hash and the
//! counts of the draw rules (see `draw`).

use denkmeter_core::{zobrist, ByPlayer, Player};

use super::geometry::{bit, Squares};

/// The kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    /// A man: steps diagonally forward.
    Man = 0,
    /// A dame (king): promoted man.
    Dame = 1,
}

impl Kind {
    /// The letter in position strings for `owner`: `M`, `D`, `m` or `d`.
    pub const fn letter(self, owner: Player) -> char {
        match (self, owner) {
            (Kind::Man, Player::White) => 'M',
            (Kind::Dame, Player::White) => 'D',
            (Kind::Man, Player::Black) => 'm',
            (Kind::Dame, Player::Black) => 'd',
        }
    }
}

/// The Zobrist key family of draughts positions.
const ZOBRIST_TABLE: u64 = 0xD4A0_6175;
/// `KEYS[(player * 2 + kind) * 64 + square]`.
static KEYS: [u64; 256] = zobrist::table(ZOBRIST_TABLE);
/// Xored in when Black is to move.
const BLACK_TO_MOVE: u64 = zobrist::key(ZOBRIST_TABLE, 256);

/// The Zobrist key of a piece on a square.
#[inline(always)]
pub(crate) fn key(owner: Player, kind: Kind, sq: u8) -> u64 {
    KEYS[(owner.index() * 2 + kind as usize) * 64 + usize::from(sq)]
}

/// A position of any draughts ruleset (the ruleset gives the squares their meaning).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Every piece of each side.
    pub(crate) pieces: ByPlayer<u64>,
    /// The dames of both sides.
    pub(crate) dames: u64,
    pub(crate) to_move: Player,
    /// Plies since a man last moved or a piece was captured, in the rulesets that draw by
    /// that count (else 0).
    pub(crate) quiet: u8,
    /// Plies since the position fell under the FMJD's 16-move or 5-move rule, in the rulesets
    /// that have them (else 0); see `draw::count`.
    pub(crate) endgame: u8,
    /// The hash of the pieces and the side to move, without the counts (what repetition
    /// compares).
    pub(crate) hash: u64,
}

impl State {
    /// A position from the pieces of each side and the dames, with its hash computed and the
    /// draw rules' counts at 0.
    pub(crate) fn new(pieces: ByPlayer<u64>, dames: u64, to_move: Player) -> State {
        let mut state = State::bare(pieces, dames, to_move);
        state.hash = state.fresh_hash();
        state
    }

    /// A position without its hash (0), for the endgame databases' generator, which never
    /// hashes the millions of positions it builds.
    pub(crate) fn bare(pieces: ByPlayer<u64>, dames: u64, to_move: Player) -> State {
        State {
            pieces,
            dames,
            to_move,
            quiet: 0,
            endgame: 0,
            hash: 0,
        }
    }

    /// The side to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The owner and kind of the piece on square `sq`, if any.
    pub(crate) fn piece(&self, sq: u8) -> Option<(Player, Kind)> {
        let b = bit(sq);
        let owner = Player::BOTH
            .into_iter()
            .find(|&p| self.pieces[p] & b != 0)?;
        let kind = if self.dames & b != 0 {
            Kind::Dame
        } else {
            Kind::Man
        };
        Some((owner, kind))
    }

    /// The squares of `owner`'s pieces of `kind`.
    pub(crate) fn squares(&self, owner: Player, kind: Kind) -> u64 {
        match kind {
            Kind::Man => self.pieces[owner] & !self.dames,
            Kind::Dame => self.pieces[owner] & self.dames,
        }
    }

    /// The number of men and dames of `owner`.
    pub(crate) fn count(&self, owner: Player) -> (u32, u32) {
        (
            self.squares(owner, Kind::Man).count_ones(),
            self.squares(owner, Kind::Dame).count_ones(),
        )
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub(crate) fn fresh_hash(&self) -> u64 {
        let mut hash = match self.to_move {
            Player::White => 0,
            Player::Black => BLACK_TO_MOVE,
        };
        for owner in Player::BOTH {
            for kind in [Kind::Man, Kind::Dame] {
                for sq in Squares(self.squares(owner, kind)) {
                    hash ^= key(owner, kind, sq);
                }
            }
        }
        hash
    }

    /// Moves the piece on `from` to `to`, removes the `captured` pieces, crowns the piece if
    /// `promotes`, and passes the turn, keeping the hash up to date.
    #[inline(always)]
    pub(crate) fn apply(&mut self, from: u8, to: u8, captured: u64, promotes: bool) {
        let us = self.to_move;
        let them = !us;
        let kind = if self.dames & bit(from) != 0 {
            Kind::Dame
        } else {
            Kind::Man
        };
        let new_kind = if promotes { Kind::Dame } else { kind };
        let mut hash = self.hash ^ BLACK_TO_MOVE ^ key(us, kind, from) ^ key(us, new_kind, to);
        self.pieces[us] = (self.pieces[us] & !bit(from)) | bit(to);
        if kind == Kind::Dame {
            self.dames &= !bit(from);
        }
        if new_kind == Kind::Dame {
            self.dames |= bit(to);
        }
        if captured != 0 {
            for sq in Squares(captured & self.dames) {
                hash ^= key(them, Kind::Dame, sq);
            }
            for sq in Squares(captured & !self.dames) {
                hash ^= key(them, Kind::Man, sq);
            }
            self.pieces[them] &= !captured;
            self.dames &= !captured;
        }
        self.to_move = them;
        self.hash = hash;
    }
}
