//! The Fort Chitral position: an 18x18 board kept as a padded mailbox (20x20 bytes with a border
//! of one cell, so that a step or a jump never needs a bounds test) plus each side's pieces as a
//! set of padded squares, the piece counts, the side to move and an incrementally kept Zobrist
//! hash. Also the board layout and the tables every rule reads.
//!
//! Squares: board cell `file + 18 * rank` (core's numbering, a1 = 0, r18 = 323) lives at padded
//! square `(rank + 1) * 20 + file + 1`.

use std::fmt;

use denkmeter_core::{zobrist, ByPlayer, Cell, Player, SQUARE_DIRECTIONS};

/// Files (and ranks) of the board.
pub(crate) const SIZE: usize = 18;
/// Squares of the board.
pub(crate) const CELLS: usize = SIZE * SIZE;
/// Width (and height) of the padded mailbox: the board and a border of one cell around it.
pub(crate) const WIDTH: usize = SIZE + 2;
/// Squares of the padded mailbox.
pub(crate) const PADDED: usize = WIDTH * WIDTH;
/// Words of a [`Squares`] set.
const WORDS: usize = PADDED.div_ceil(64);

/// What a mailbox square holds.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const BORDER: u8 = 3;

/// The mailbox byte of `player`'s pieces: 1 for White, 2 for Black.
#[inline]
pub(crate) const fn stone(player: Player) -> u8 {
    player as u8 + 1
}

/// Marks "no square" in a move (the pass).
pub(crate) const NO_SQUARE: u16 = u16::MAX;

/// The padded square of board cell `cell`.
#[inline]
pub(crate) const fn pad(cell: usize) -> u16 {
    ((cell / SIZE + 1) * WIDTH + cell % SIZE + 1) as u16
}

/// The board cell of padded square `sq` (which must be on the board).
#[inline]
pub(crate) const fn unpad(sq: u16) -> usize {
    let sq = sq as usize;
    (sq / WIDTH - 1) * SIZE + sq % WIDTH - 1
}

/// File and rank (both from 0) of padded square `sq`.
#[inline]
pub(crate) const fn file_rank(sq: u16) -> (usize, usize) {
    let cell = unpad(sq);
    (cell % SIZE, cell / SIZE)
}

/// The padded square at `file`, `rank` (both from 0).
#[inline]
pub(crate) const fn at(file: usize, rank: usize) -> u16 {
    pad(file + SIZE * rank)
}

/// The core cell of padded square `sq`.
#[inline]
pub(crate) fn cell(sq: u16) -> Cell {
    Cell(unpad(sq) as u16)
}

/// The eight directions as padded offsets, in core's order N, NE, E, SE, S, SW, W, NW; the
/// orthogonal ones have even numbers.
pub(crate) const DIRECTIONS: [isize; 8] = {
    let mut out = [0; 8];
    let mut d = 0;
    while d < 8 {
        let (_, df, dr) = SQUARE_DIRECTIONS[d];
        out[d] = df as isize + dr as isize * WIDTH as isize;
        d += 1;
    }
    out
};

/// The four orthogonal directions (N, E, S, W) as padded offsets.
pub(crate) const ORTHOGONAL: [isize; 4] =
    [DIRECTIONS[0], DIRECTIONS[2], DIRECTIONS[4], DIRECTIONS[6]];

/// The square next to `sq` in direction `d` (an offset of [`DIRECTIONS`]).
#[inline(always)]
pub(crate) const fn step(sq: u16, d: isize) -> u16 {
    (sq as isize + d) as u16
}

/// The four Fort squares i9, j9, i10 and j10.
pub(crate) const FORT: [u16; 4] = [at(8, 8), at(9, 8), at(8, 9), at(9, 9)];

/// How many files (or ranks) file (or rank) `x` lies outside the Fort's two (i and j, 9 and
/// 10).
const fn off_fort(x: usize) -> usize {
    if x < 8 {
        8 - x
    } else {
        x.saturating_sub(9)
    }
}

/// `FORT_DISTANCE[sq]`: the number of king steps from padded square `sq` to the nearest Fort
/// square (0 on the Fort, 8 in a corner); 0 on the border.
pub(crate) static FORT_DISTANCE: [u8; PADDED] = {
    let mut out = [0; PADDED];
    let mut cell = 0;
    while cell < CELLS {
        let (file, rank) = (cell % SIZE, cell / SIZE);
        let (df, dr) = (off_fort(file), off_fort(rank));
        out[pad(cell) as usize] = if df > dr { df } else { dr } as u8;
        cell += 1;
    }
    out
};

/// A set of padded squares, one bit each.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Squares(pub [u64; WORDS]);

impl Squares {
    pub(crate) const EMPTY: Squares = Squares([0; WORDS]);

    #[inline(always)]
    pub(crate) fn insert(&mut self, sq: u16) {
        self.0[sq as usize / 64] |= 1 << (sq % 64);
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: u16) {
        self.0[sq as usize / 64] &= !(1 << (sq % 64));
    }

    #[inline(always)]
    pub(crate) fn contains(&self, sq: u16) -> bool {
        self.0[sq as usize / 64] & (1 << (sq % 64)) != 0
    }

    /// The squares, lowest first.
    #[inline]
    pub(crate) fn iter(self) -> impl Iterator<Item = u16> {
        self.0.into_iter().enumerate().flat_map(|(w, bits)| {
            denkmeter_core::Bits(bits).map(move |b| (w * 64) as u16 + u16::from(b))
        })
    }
}

/// Family number of Fort Chitral's Zobrist keys ("FORTCH" in ASCII).
const ZOBRIST_FAMILY: u64 = 0x464F_5254_4348;
/// Keys: a piece of each colour per padded square (border keys unused), then Black to move.
static KEYS: [u64; 2 * PADDED + 1] = zobrist::table(ZOBRIST_FAMILY);

/// The key of a piece of `owner` on padded square `sq`.
#[inline(always)]
pub(crate) fn piece_key(owner: Player, sq: u16) -> u64 {
    KEYS[owner.index() * PADDED + sq as usize]
}

/// The key of Black to move.
#[inline(always)]
pub(crate) fn side_key() -> u64 {
    KEYS[2 * PADDED]
}

/// The most pieces a side can have: its 18 at the start.
pub(crate) const MAX_PIECES: usize = 18;

/// A Fort Chitral position: where each side's pieces stand, the side to move, and its Zobrist
/// hash. Build one with [`crate::fort_chitral::FortChitral`]'s `start` or `parse_position`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// The padded mailbox: [`EMPTY`], [`stone`] of a player, or [`BORDER`].
    pub(crate) board: [u8; PADDED],
    pub(crate) pieces: ByPlayer<Squares>,
    pub(crate) counts: ByPlayer<u8>,
    pub(crate) to_move: Player,
    pub(crate) hash: u64,
}

impl State {
    /// A state with the pieces on the given board cells, its hash computed.
    pub(crate) fn from_cells(white: &[usize], black: &[usize], to_move: Player) -> State {
        let mut board = [BORDER; PADDED];
        for cell in 0..CELLS {
            board[pad(cell) as usize] = EMPTY;
        }
        let mut state = State {
            board,
            pieces: ByPlayer::default(),
            counts: ByPlayer::default(),
            to_move,
            hash: 0,
        };
        for (owner, cells) in [(Player::White, white), (Player::Black, black)] {
            for &cell in cells {
                let sq = pad(cell);
                state.board[sq as usize] = stone(owner);
                state.pieces[owner].insert(sq);
                state.counts[owner] += 1;
            }
        }
        state.hash = state.compute_hash();
        state
    }

    /// The start position: White fills rank 1, Black rank 18; White to move.
    pub(crate) fn start() -> State {
        let white: Vec<usize> = (0..SIZE).collect();
        let black: Vec<usize> = (CELLS - SIZE..CELLS).collect();
        State::from_cells(&white, &black, Player::White)
    }

    /// The Zobrist hash computed from scratch (the kept one must always equal it).
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for owner in Player::BOTH {
            for sq in self.pieces[owner].iter() {
                h ^= piece_key(owner, sq);
            }
        }
        if self.to_move == Player::Black {
            h ^= side_key();
        }
        h
    }

    /// The side to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Who has a piece on `cell`, if anyone.
    pub fn piece_at(&self, cell: Cell) -> Option<Player> {
        match self.board.get(pad(cell.index()) as usize) {
            Some(&b) if b == stone(Player::White) => Some(Player::White),
            Some(&b) if b == stone(Player::Black) => Some(Player::Black),
            _ => None,
        }
    }

    /// How many pieces `player` has.
    pub fn count(&self, player: Player) -> usize {
        usize::from(self.counts[player])
    }

    /// The cells of `player`'s pieces, lowest first.
    pub fn pieces(&self, player: Player) -> impl Iterator<Item = Cell> + '_ {
        self.pieces[player].iter().map(cell)
    }

    /// The player holding all four Fort squares, if one does.
    pub fn fort_holder(&self) -> Option<Player> {
        let first = self.board[FORT[0] as usize];
        let all = FORT.iter().all(|&sq| self.board[sq as usize] == first);
        match first {
            _ if !all => None,
            b if b == stone(Player::White) => Some(Player::White),
            b if b == stone(Player::Black) => Some(Player::Black),
            _ => None,
        }
    }

    /// How many Fort squares `player` holds.
    pub fn fort_squares_held(&self, player: Player) -> usize {
        FORT.iter()
            .filter(|&&sq| self.board[sq as usize] == stone(player))
            .count()
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "State({})", super::notation::position_text(self))
    }
}
