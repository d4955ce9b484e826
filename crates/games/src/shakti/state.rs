//! The Shakti position: tiles and pieces as bitboards over the 49 squares, the side to move and
//! an incrementally kept Zobrist hash. Also the per-square tables every rule reads.

use denkmeter_core::{zobrist, ByPlayer, Cell, Player, SQUARE_DIRECTIONS};

/// Files (and ranks) of the board.
pub(crate) const SIZE: usize = 7;
/// Squares of the board; square `file + 7 * rank` is bit number `file + 7 * rank`.
pub(crate) const SQUARES: usize = SIZE * SIZE;
/// Marks "no square" in the one-byte square fields of a move.
pub(crate) const NO_SQUARE: u8 = u8::MAX;
/// Every square of the board.
pub(crate) const ALL_SQUARES: u64 = (1 << SQUARES) - 1;
/// The corners a1, g1, a7 and g7, which have no tile at the start.
pub(crate) const CORNERS: u64 = 1 | 1 << 6 | 1 << 42 | 1 << 48;

/// The bit of square `sq`.
#[inline]
pub(crate) const fn bit(sq: u8) -> u64 {
    1 << sq
}

/// The square of the lowest set bit of a non-empty bitboard.
#[inline]
pub(crate) const fn lowest(bb: u64) -> u8 {
    bb.trailing_zeros() as u8
}

/// The square of the highest set bit of a non-empty bitboard.
#[inline]
pub(crate) const fn highest(bb: u64) -> u8 {
    (63 - bb.leading_zeros()) as u8
}

/// Iterates the squares of a bitboard, lowest first.
pub(crate) use denkmeter_core::Bits as Squares;

/// Per-square lookup tables, computed at compile time.
pub(crate) struct Tables {
    /// `rays[sq][dir]`: the squares beyond `sq` in direction `dir` (core's order N, NE, E, SE,
    /// S, SW, W, NW), up to the edge.
    pub rays: [[u64; 8]; SQUARES],
    /// `between[a][b]`: the squares strictly between `a` and `b` when they share a rank, file or
    /// diagonal; empty otherwise.
    pub between: [[u64; SQUARES]; SQUARES],
    /// `aligned[a]`: the squares sharing a rank, file or diagonal with `a` (all its rays).
    pub aligned: [u64; SQUARES],
    /// `adjacent[a]`: the up to eight neighbours of `a`.
    pub adjacent: [u64; SQUARES],
}

/// Whether direction `dir` goes towards higher square numbers (N, NE, E, NW).
pub(crate) const ASCENDING: [bool; 8] = [true, true, true, false, false, false, false, true];

const fn build_tables() -> Tables {
    let mut t = Tables {
        rays: [[0; 8]; SQUARES],
        between: [[0; SQUARES]; SQUARES],
        aligned: [0; SQUARES],
        adjacent: [0; SQUARES],
    };
    let mut sq = 0;
    while sq < SQUARES {
        let mut dir = 0;
        while dir < 8 {
            let (_, df, dr) = SQUARE_DIRECTIONS[dir];
            let mut file = (sq % SIZE) as i32 + df;
            let mut rank = (sq / SIZE) as i32 + dr;
            let mut passed = 0u64;
            let mut first = true;
            while file >= 0 && file < SIZE as i32 && rank >= 0 && rank < SIZE as i32 {
                let target = (file + rank * SIZE as i32) as usize;
                t.rays[sq][dir] |= 1 << target;
                t.between[sq][target] = passed;
                if first {
                    t.adjacent[sq] |= 1 << target;
                    first = false;
                }
                passed |= 1 << target;
                file += df;
                rank += dr;
            }
            t.aligned[sq] |= t.rays[sq][dir];
            dir += 1;
        }
        sq += 1;
    }
    t
}

/// The lookup tables.
pub(crate) static TABLES: Tables = build_tables();

/// The first tile seen from `sq` in direction `dir`, skipping squares without tiles.
#[inline]
pub(crate) fn first_tile(sq: u8, dir: usize, tiles: u64) -> Option<u8> {
    let seen = TABLES.rays[sq as usize][dir] & tiles;
    if seen == 0 {
        None
    } else if ASCENDING[dir] {
        Some(lowest(seen))
    } else {
        Some(highest(seen))
    }
}

/// Whether a piece on `a` sees square `b`: they share a line with no tile strictly between.
#[inline]
pub(crate) fn sees(a: u8, b: u8, tiles: u64) -> bool {
    TABLES.aligned[a as usize] & bit(b) != 0 && TABLES.between[a as usize][b as usize] & tiles == 0
}

/// Whether a king on `king` is in check from one of the `warriors`: one of them stands on the
/// first tile the king sees in some direction.
#[inline]
pub(crate) fn attacked(king: u8, warriors: u64, tiles: u64) -> bool {
    Squares(warriors & TABLES.aligned[king as usize]).any(|w| sees(king, w, tiles))
}

/// Family number of Shakti's Zobrist keys ("SHAKTI" in ASCII).
const ZOBRIST_FAMILY: u64 = 0x5348_414B_5449;
const TILE_KEYS: usize = 0;
const WARRIOR_KEYS: [usize; 2] = [SQUARES, 2 * SQUARES];
const KING_KEYS: [usize; 2] = [3 * SQUARES, 4 * SQUARES];
const BLACK_TO_MOVE_KEY: usize = 5 * SQUARES;
/// Keys: a tile per square, a warrior and a king of each colour per square, Black to move.
static KEYS: [u64; 5 * SQUARES + 1] = zobrist::table(ZOBRIST_FAMILY);

#[inline]
pub(crate) fn tile_key(sq: u8) -> u64 {
    KEYS[TILE_KEYS + sq as usize]
}

#[inline]
pub(crate) fn warrior_key(owner: Player, sq: u8) -> u64 {
    KEYS[WARRIOR_KEYS[owner.index()] + sq as usize]
}

#[inline]
pub(crate) fn king_key(owner: Player, sq: u8) -> u64 {
    KEYS[KING_KEYS[owner.index()] + sq as usize]
}

#[inline]
pub(crate) fn side_key() -> u64 {
    KEYS[BLACK_TO_MOVE_KEY]
}

/// A kind of Shakti piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Piece {
    /// The royal piece: checkmate it to win.
    King,
    /// Moves to the first or second tile in a direction, removing the first in the latter
    /// case; never captures.
    Warrior,
}

impl Piece {
    /// The game's word for the piece: `king` or `warrior`.
    pub const fn name(self) -> &'static str {
        match self {
            Piece::King => "king",
            Piece::Warrior => "warrior",
        }
    }

    /// The piece's letter in position strings, uppercase for White.
    pub const fn letter(self, owner: Player) -> char {
        match (self, owner) {
            (Piece::King, Player::White) => 'K',
            (Piece::King, Player::Black) => 'k',
            (Piece::Warrior, Player::White) => 'W',
            (Piece::Warrior, Player::Black) => 'w',
        }
    }
}

/// A Shakti position: the tiles still on the board, each side's king and warriors, the side to
/// move, and its Zobrist hash. Build one with [`crate::shakti::Shakti`]'s `start` or
/// `parse_position`; every state reachable that way is valid (one king per side, at most two
/// warriors per side, pieces on tiles, the kings not seeing each other, the side not to move not
/// in check).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) tiles: u64,
    pub(crate) warriors: ByPlayer<u64>,
    pub(crate) kings: ByPlayer<u8>,
    pub(crate) to_move: Player,
    pub(crate) hash: u64,
}

impl State {
    /// The start position: 45 tiles, kings on d2 and d6, warriors on b2, f2, b6 and f6.
    pub(crate) fn start() -> State {
        let sq = |file: u8, rank: u8| file + 7 * rank;
        State::from_parts(
            ALL_SQUARES & !CORNERS,
            ByPlayer::new(bit(sq(1, 1)) | bit(sq(5, 1)), bit(sq(1, 5)) | bit(sq(5, 5))),
            ByPlayer::new(sq(3, 1), sq(3, 5)),
            Player::White,
        )
    }

    /// A state from its parts, with its hash computed. Validity is the caller's business.
    pub(crate) fn from_parts(
        tiles: u64,
        warriors: ByPlayer<u64>,
        kings: ByPlayer<u8>,
        to_move: Player,
    ) -> State {
        let mut state = State {
            tiles,
            warriors,
            kings,
            to_move,
            hash: 0,
        };
        state.hash = state.compute_hash();
        state
    }

    /// The Zobrist hash computed from scratch (the kept one must always equal it).
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = Squares(self.tiles).fold(0, |h, sq| h ^ tile_key(sq));
        for owner in Player::BOTH {
            h ^= king_key(owner, self.kings[owner]);
            h = Squares(self.warriors[owner]).fold(h, |h, sq| h ^ warrior_key(owner, sq));
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

    /// Whether `cell` still holds a tile.
    pub fn has_tile(&self, cell: Cell) -> bool {
        cell.index() < SQUARES && self.tiles & (1 << cell.index()) != 0
    }

    /// The number of tiles left.
    pub fn tile_count(&self) -> u32 {
        self.tiles.count_ones()
    }

    /// The square of `owner`'s king.
    pub fn king(&self, owner: Player) -> Cell {
        Cell(u16::from(self.kings[owner]))
    }

    /// The squares of `owner`'s warriors, lowest square first.
    pub fn warriors(&self, owner: Player) -> impl Iterator<Item = Cell> {
        Squares(self.warriors[owner]).map(|sq| Cell(u16::from(sq)))
    }

    /// The piece on `cell` and its owner, if any.
    pub fn piece_at(&self, cell: Cell) -> Option<(Player, Piece)> {
        if cell.index() >= SQUARES {
            return None;
        }
        let sq = cell.index() as u8;
        Player::BOTH.into_iter().find_map(|owner| {
            if self.kings[owner] == sq {
                Some((owner, Piece::King))
            } else if self.warriors[owner] & bit(sq) != 0 {
                Some((owner, Piece::Warrior))
            } else {
                None
            }
        })
    }

    /// Whether `player`'s king is in check: an enemy warrior on the first tile it sees in some
    /// direction.
    pub fn is_in_check(&self, player: Player) -> bool {
        attacked(self.kings[player], self.warriors[!player], self.tiles)
    }

    /// Whether the two kings see each other (which no legal move allows).
    pub fn kings_see_each_other(&self) -> bool {
        sees(self.kings.white, self.kings.black, self.tiles)
    }

    /// Every square holding a piece.
    #[inline]
    pub(crate) fn occupied(&self) -> u64 {
        self.warriors.white | self.warriors.black | bit(self.kings.white) | bit(self.kings.black)
    }
}
