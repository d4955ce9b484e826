//! The Sjekkers position: each side's pieces and the Sjeks as bitboards over the 61 crossings,
//! the side to move and an incrementally kept Zobrist hash. Also the per-crossing tables every
//! rule reads, computed at compile time.
//!
//! Crossing numbering: rows a (White's side) to i, each row by ascending number, so a1 is bit 0,
//! a5 bit 4, b1 bit 5, e1 bit 26 and i9 bit 60. Row `r` (0 for a) holds the numbers
//! `max(1, r - 3)` to `min(9, r + 5)`.

use denkmeter_core::{zobrist, ByPlayer, Cell, Player};

/// Crossings of the board.
pub(crate) const CELLS: usize = 61;
/// Rows of the board, a to i.
pub(crate) const ROWS: usize = 9;
/// Crossings per row, a to i.
pub(crate) const ROW_LEN: [u8; ROWS] = [5, 6, 7, 8, 9, 8, 7, 6, 5];
/// Bit of the first crossing of each row.
pub(crate) const ROW_START: [u8; ROWS] = [0, 5, 11, 18, 26, 35, 43, 50, 56];
/// Marks "no crossing" in the one-byte fields of moves and tables.
pub(crate) const NONE: u8 = u8::MAX;
/// Every crossing.
pub(crate) const ALL: u64 = (1 << CELLS) - 1;

/// The six directions: `(name, row step, number step)`, clockwise from forward-right as White
/// sees the board. Direction `d + 3` (mod 6) is the opposite of `d`.
pub(crate) const DIRECTIONS: [(&str, i32, i32); 6] = [
    ("ne", 1, 1),
    ("e", 0, 1),
    ("se", -1, 0),
    ("sw", -1, -1),
    ("w", 0, -1),
    ("nw", 1, 0),
];
/// Direction numbers.
pub(crate) const NE: usize = 0;
pub(crate) const E: usize = 1;
pub(crate) const SE: usize = 2;
pub(crate) const SW: usize = 3;
pub(crate) const W: usize = 4;
pub(crate) const NW: usize = 5;
/// Whether walking direction `d` goes to higher bits (NE, E, NW do: later row or later number).
pub(crate) const ASCENDING: [bool; 6] = [true, true, false, false, false, true];
/// Each side's two forward directions.
pub(crate) const FORWARD: ByPlayer<[usize; 2]> = ByPlayer::new([NE, NW], [SE, SW]);
/// Each side's far row, where its disks are promoted (i for White, a for Black).
pub(crate) const FAR_ROW: ByPlayer<u64> = ByPlayer::new(row_mask(8), row_mask(0));

/// The bit of crossing `sq`.
#[inline]
pub(crate) const fn bit(sq: u8) -> u64 {
    1 << sq
}

/// The lowest number of row `r`.
pub(crate) const fn row_low(r: usize) -> u8 {
    if r > 3 {
        (r - 3) as u8
    } else {
        1
    }
}

/// The crossing at row `r` (0 for a), number `n`, if it exists.
pub(crate) const fn at(r: i32, n: i32) -> Option<u8> {
    if r < 0 || r >= ROWS as i32 {
        return None;
    }
    let low = row_low(r as usize) as i32;
    if n < low || n >= low + ROW_LEN[r as usize] as i32 {
        return None;
    }
    Some(ROW_START[r as usize] + (n - low) as u8)
}

/// Row (0 for a) and number of crossing `sq`.
pub(crate) const fn coords(sq: u8) -> (usize, u8) {
    let mut r = ROWS - 1;
    while ROW_START[r] > sq {
        r -= 1;
    }
    (r, row_low(r) + sq - ROW_START[r])
}

/// Every crossing of row `r`.
pub(crate) const fn row_mask(r: usize) -> u64 {
    ((1u64 << ROW_LEN[r]) - 1) << ROW_START[r]
}

/// The nearest crossing of a non-empty set seen from a crossing walking in direction `d`.
#[inline]
pub(crate) const fn nearest(set: u64, d: usize) -> u8 {
    if ASCENDING[d] {
        set.trailing_zeros() as u8
    } else {
        (63 - set.leading_zeros()) as u8
    }
}

/// Iterates the crossings of a bitboard, lowest first.
pub(crate) use denkmeter_core::Bits as Crossings;

/// Per-crossing lookup tables.
pub(crate) struct Tables {
    /// `next[sq][d]`: the neighbour in direction `d`, or [`NONE`].
    pub next: [[u8; 6]; CELLS],
    /// `rays[sq][d]`: the crossings beyond `sq` in direction `d`, up to the edge.
    pub rays: [[u64; 6]; CELLS],
    /// `forward[side][sq]`: the up to two neighbours ahead of `sq` for `side`.
    pub forward: [[u64; CELLS]; 2],
    /// `around[sq]`: the up to six neighbours of `sq`.
    pub around: [u64; CELLS],
}

const fn build_tables() -> Tables {
    let mut t = Tables {
        next: [[NONE; 6]; CELLS],
        rays: [[0; 6]; CELLS],
        forward: [[0; CELLS]; 2],
        around: [0; CELLS],
    };
    let mut sq = 0;
    while sq < CELLS {
        let (r, n) = coords(sq as u8);
        let mut d = 0;
        while d < 6 {
            let (_, dr, dn) = DIRECTIONS[d];
            let (mut rr, mut nn) = (r as i32 + dr, n as i32 + dn);
            if let Some(first) = at(rr, nn) {
                t.next[sq][d] = first;
                t.around[sq] |= bit(first);
            }
            while let Some(c) = at(rr, nn) {
                t.rays[sq][d] |= bit(c);
                rr += dr;
                nn += dn;
            }
            d += 1;
        }
        let mut side = 0;
        while side < 2 {
            let dirs = if side == 0 { [NE, NW] } else { [SE, SW] };
            let mut k = 0;
            while k < 2 {
                if t.next[sq][dirs[k]] != NONE {
                    t.forward[side][sq] |= bit(t.next[sq][dirs[k]]);
                }
                k += 1;
            }
            side += 1;
        }
        sq += 1;
    }
    t
}

/// The lookup tables.
pub(crate) static TABLES: Tables = build_tables();

/// The neighbour of `sq` in direction `d`, or [`NONE`].
#[inline]
pub(crate) fn next(sq: u8, d: usize) -> u8 {
    TABLES.next[sq as usize][d]
}

/// The crossings beyond `sq` in direction `d`.
#[inline]
pub(crate) fn ray(sq: u8, d: usize) -> u64 {
    TABLES.rays[sq as usize][d]
}

/// Family number of the Sjekkers Zobrist keys ("SJEKKERS" in ASCII).
const ZOBRIST_FAMILY: u64 = 0x534A_454B_4B45_5253;
/// Keys: a disk of each colour per crossing, a Sjek of each colour per crossing, Black to move.
static KEYS: [u64; 4 * CELLS + 1] = zobrist::table(ZOBRIST_FAMILY);

/// The key of a piece of `owner` (a Sjek if `sjek`) on `sq`.
#[inline]
pub(crate) fn piece_key(owner: Player, sjek: bool, sq: u8) -> u64 {
    KEYS[(2 * usize::from(sjek) + owner.index()) * CELLS + sq as usize]
}

/// The key for Black to move.
#[inline]
pub(crate) fn side_key() -> u64 {
    KEYS[4 * CELLS]
}

/// A kind of Sjekkers piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Piece {
    /// A single disk: steps forward, captures adjacent enemies.
    Disk,
    /// Two disks, one on top of the other: a promoted disk, moving along whole lines.
    Sjek,
}

impl Piece {
    /// The game's word for the piece: `disk` or `sjek`.
    pub const fn name(self) -> &'static str {
        match self {
            Piece::Disk => "disk",
            Piece::Sjek => "sjek",
        }
    }

    /// The piece's letter in position strings, uppercase for White.
    pub const fn letter(self, owner: Player) -> char {
        match (self, owner) {
            (Piece::Disk, Player::White) => 'D',
            (Piece::Disk, Player::Black) => 'd',
            (Piece::Sjek, Player::White) => 'S',
            (Piece::Sjek, Player::Black) => 's',
        }
    }

    /// The piece and owner of a position-string letter.
    pub const fn from_letter(c: char) -> Option<(Player, Piece)> {
        match c {
            'D' => Some((Player::White, Piece::Disk)),
            'd' => Some((Player::Black, Piece::Disk)),
            'S' => Some((Player::White, Piece::Sjek)),
            's' => Some((Player::Black, Piece::Sjek)),
            _ => None,
        }
    }
}

/// A Sjekkers position: each side's pieces, which of them are Sjeks, the side to move, and its
/// Zobrist hash. Build one with [`super::Sjekkers`]'s `start` or `parse_position`; every state
/// made that way is valid (no crossing held twice, no disk on its own far row, at most 18
/// pieces a side, the side that just moved has a piece).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) pieces: ByPlayer<u64>,
    /// The Sjeks of both sides (a subset of the pieces).
    pub(crate) sjeks: u64,
    pub(crate) to_move: Player,
    pub(crate) hash: u64,
}

impl State {
    /// The start position: White on rows a to c, Black on rows g to i, White to move.
    pub(crate) fn start() -> State {
        let white = row_mask(0) | row_mask(1) | row_mask(2);
        let black = row_mask(6) | row_mask(7) | row_mask(8);
        State::from_parts(ByPlayer::new(white, black), 0, Player::White)
    }

    /// A state from its parts, with its hash computed. Validity is the caller's business.
    pub(crate) fn from_parts(pieces: ByPlayer<u64>, sjeks: u64, to_move: Player) -> State {
        let mut state = State {
            pieces,
            sjeks,
            to_move,
            hash: 0,
        };
        state.hash = state.compute_hash();
        state
    }

    /// The Zobrist hash computed from scratch (the kept one must always equal it).
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for owner in Player::BOTH {
            for sq in Crossings(self.pieces[owner]) {
                h ^= piece_key(owner, self.sjeks & bit(sq) != 0, sq);
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

    /// The piece on `cell` and its owner, if any.
    pub fn piece_at(&self, cell: Cell) -> Option<(Player, Piece)> {
        if cell.index() >= CELLS {
            return None;
        }
        let b = 1u64 << cell.index();
        let owner = Player::BOTH
            .into_iter()
            .find(|&p| self.pieces[p] & b != 0)?;
        let piece = if self.sjeks & b != 0 {
            Piece::Sjek
        } else {
            Piece::Disk
        };
        Some((owner, piece))
    }

    /// The crossings of `owner`'s pieces of kind `piece`, lowest bit first (a1 before a2 before
    /// b1).
    pub fn cells_of(&self, owner: Player, piece: Piece) -> impl Iterator<Item = Cell> {
        let set = match piece {
            Piece::Disk => self.pieces[owner] & !self.sjeks,
            Piece::Sjek => self.pieces[owner] & self.sjeks,
        };
        Crossings(set).map(|sq| Cell(u16::from(sq)))
    }

    /// How many pieces of kind `piece` `owner` has.
    pub fn count(&self, owner: Player, piece: Piece) -> u32 {
        match piece {
            Piece::Disk => (self.pieces[owner] & !self.sjeks).count_ones(),
            Piece::Sjek => (self.pieces[owner] & self.sjeks).count_ones(),
        }
    }

    /// Every crossing holding a piece.
    #[inline]
    pub(crate) fn occupied(&self) -> u64 {
        self.pieces.white | self.pieces.black
    }
}
