//! The Trangalla position: the 25 points of the diamond lattice as bits of a `u32` (point
//! `i + 5 * j` for file `i`, rank `j`, so a1 = 0 and e5 = 24), each side's pieces and the kings
//! as bit sets, which pieces were never flipped (those that may be a king), and the phase.
//!
//! The same type holds an *observation*: what one player knows. There a side whose king that
//! player may not see has no king bit but `hidden` set; its king is one of its never-flipped
//! pieces (see [`State::king_candidates`]).

use denkmeter_core::{zobrist, ByPlayer, Cell, Player};

/// Points of the lattice.
pub(crate) const POINTS: usize = 25;

/// The six lines through a point as (file, rank) steps, in this order: White's two forward
/// directions, the two transverse ones, White's two backward directions (Black's forward).
pub(crate) const DIRECTIONS: [(&str, i8, i8); 6] = [
    ("ne", 1, 0),
    ("nw", 0, 1),
    ("e", 1, -1),
    ("w", -1, 1),
    ("sw", -1, 0),
    ("se", 0, -1),
];

/// The directions `player` may step in: forward and transverse.
#[inline]
pub(crate) const fn step_directions(player: Player) -> [usize; 4] {
    match player {
        Player::White => [0, 1, 2, 3],
        Player::Black => [4, 5, 2, 3],
    }
}

/// Marks "no point" in the tables.
pub(crate) const NONE: u8 = u8::MAX;

/// The point of file `i`, rank `j` (both from 0).
#[inline]
pub(crate) const fn point(i: u8, j: u8) -> u8 {
    i + 5 * j
}

/// File and rank of `p`.
#[inline]
pub(crate) const fn coords(p: u8) -> (u8, u8) {
    (p % 5, p / 5)
}

/// `NEXT[p][d]`: the neighbour of `p` in direction `d`, or [`NONE`].
pub(crate) const NEXT: [[u8; 6]; POINTS] = {
    let mut table = [[NONE; 6]; POINTS];
    let mut p = 0;
    while p < POINTS {
        let (i, j) = ((p % 5) as i8, (p / 5) as i8);
        let mut d = 0;
        while d < 6 {
            let (ni, nj) = (i + DIRECTIONS[d].1, j + DIRECTIONS[d].2);
            if ni >= 0 && ni < 5 && nj >= 0 && nj < 5 {
                table[p][d] = (ni + 5 * nj) as u8;
            }
            d += 1;
        }
        p += 1;
    }
    table
};

/// `player`'s home tip (White a1, Black e5), which is the other player's goal.
#[inline]
pub(crate) const fn home(player: Player) -> u8 {
    match player {
        Player::White => 0,
        Player::Black => 24,
    }
}

/// `player`'s goal point: the opponent's home tip.
#[inline]
pub(crate) const fn goal(player: Player) -> u8 {
    home(player.opponent())
}

/// The five points `player`'s pieces start on: the two next to the home tip, then three.
pub(crate) const fn start_points(player: Player) -> [u8; 5] {
    match player {
        // a2, b1, a3, b2, c1
        Player::White => [5, 1, 10, 6, 2],
        // d5, e4, c5, d4, e3
        Player::Black => [23, 19, 22, 18, 14],
    }
}

/// The start points of `player` as a bit set.
pub(crate) const fn start_set(player: Player) -> u32 {
    let points = start_points(player);
    let mut set = 0;
    let mut k = 0;
    while k < 5 {
        set |= 1 << points[k];
        k += 1;
    }
    set
}

/// The core cell of point `p`.
#[inline]
pub(crate) fn cell(p: u8) -> Cell {
    Cell(u16::from(p))
}

/// The points of a bit set, lowest first.
#[inline]
pub(crate) fn points(mut set: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let p = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(p)
    })
}

/// Zobrist keys: a piece of each colour on each point, a king on each point, Black to move,
/// each setup step.
const PIECE_KEYS: [u64; 2 * POINTS] = zobrist::table(0x7a11_0001);
const KING_KEYS: [u64; POINTS] = zobrist::table(0x7a11_0002);
const BLACK_TO_MOVE: u64 = zobrist::key(0x7a11_0003, 0);
const SETUP: u64 = zobrist::key(0x7a11_0003, 1);
const HIDDEN_KEYS: [u64; 2] = zobrist::table(0x7a11_0004);

/// Whether the kings are still being chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The player to move chooses his king (White first, then Black).
    Setup,
    /// The game proper.
    Play,
}

/// A Trangalla position, or what one player knows of one (an observation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Each side's pieces.
    pub(crate) pieces: ByPlayer<u32>,
    /// The kings this state shows (a subset of the pieces).
    pub(crate) kings: u32,
    /// Pieces never flipped since the setup: a side's king is always one of them.
    pub(crate) unflipped: u32,
    /// In an observation: the side has a king, but which of its never-flipped pieces it is is
    /// not shown. Always `false` in a full state.
    pub(crate) hidden: ByPlayer<bool>,
    pub(crate) phase: Phase,
    pub(crate) to_move: Player,
}

impl State {
    /// The position before the setup: every piece on its start point, no king chosen, White
    /// to move.
    pub fn start() -> State {
        State {
            pieces: ByPlayer::new(start_set(Player::White), start_set(Player::Black)),
            kings: 0,
            unflipped: start_set(Player::White) | start_set(Player::Black),
            hidden: ByPlayer::new(false, false),
            phase: Phase::Setup,
            to_move: Player::White,
        }
    }

    /// All pieces.
    #[inline]
    pub(crate) fn occupied(&self) -> u32 {
        self.pieces[Player::White] | self.pieces[Player::Black]
    }

    /// The owner of the piece on `p`, if any.
    #[inline]
    pub(crate) fn owner(&self, p: u8) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|&side| self.pieces[side] & 1 << p != 0)
    }

    /// Whether the kings are still being chosen.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The side to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Where `player`'s king stands, if this state shows it.
    pub fn king(&self, player: Player) -> Option<Cell> {
        let set = self.kings & self.pieces[player];
        (set != 0).then(|| cell(set.trailing_zeros() as u8))
    }

    /// Whether `player` still has a king (shown or hidden); before his setup move, whether he
    /// has yet to choose one.
    pub fn has_king(&self, player: Player) -> bool {
        self.kings & self.pieces[player] != 0 || self.hidden[player] || self.king_to_choose(player)
    }

    /// Whether `player` has not chosen his king yet.
    pub(crate) fn king_to_choose(&self, player: Player) -> bool {
        self.phase == Phase::Setup && (player == Player::Black || self.to_move == Player::White)
    }

    /// Whether this state hides `player`'s king (an observation by the other player or a
    /// spectator).
    pub fn hides_king_of(&self, player: Player) -> bool {
        self.hidden[player]
    }

    /// The pieces of `player` that may be his king, as far as this state tells: his king if it
    /// is shown, else every piece of his never flipped (none if his king is gone).
    pub fn king_candidates(&self, player: Player) -> Vec<Cell> {
        let set = if self.hidden[player] || self.king_to_choose(player) {
            self.pieces[player] & self.unflipped
        } else {
            self.kings & self.pieces[player]
        };
        points(set).map(cell).collect()
    }

    /// The hash of everything the state shows.
    pub(crate) fn hash(&self) -> u64 {
        let mut hash = self.public_hash();
        for p in points(self.kings) {
            hash ^= KING_KEYS[p as usize];
        }
        for side in Player::BOTH {
            if self.hidden[side] {
                hash ^= HIDDEN_KEYS[side.index()];
            }
        }
        hash
    }

    /// The hash of what both players see on the table: the colours, the side to move and the
    /// phase, not which pieces are kings.
    pub(crate) fn public_hash(&self) -> u64 {
        let mut hash = 0;
        for side in Player::BOTH {
            for p in points(self.pieces[side]) {
                hash ^= PIECE_KEYS[side.index() * POINTS + p as usize];
            }
        }
        if self.to_move == Player::Black {
            hash ^= BLACK_TO_MOVE;
        }
        if self.phase == Phase::Setup {
            hash ^= SETUP;
        }
        hash
    }

    /// This state as `player` knows it: the kings of the other side hidden (see the module
    /// documentation). `None` hides both kings (what a spectator knows).
    pub(crate) fn seen_by(&self, player: Option<Player>) -> State {
        let mut seen = self.clone();
        for side in Player::BOTH {
            if Some(side) != player && self.kings & self.pieces[side] != 0 {
                seen.kings &= !self.pieces[side];
                seen.hidden[side] = true;
            }
        }
        seen
    }
}
