//! The Straat position: what lies on each of the 16 cells, and for each face of the frame the
//! cells' colours as bitboards (see the `streets` module for the two layouts).

use denkmeter_core::{zobrist, Cell, Player};

use super::streets::Layout;

/// The frame is 4x4 cells.
pub(crate) const SIZE: usize = 4;
/// The number of cells.
pub(crate) const CELLS: usize = SIZE * SIZE;
/// Every cell, as a set of cells (bit `file + 4 * rank`).
pub(crate) const ALL_CELLS: u16 = 0xFFFF;

/// A side of the frame: the side on which the black half of a half/half face lies (for the
/// diagonal split: the black corner is between this side and the next one clockwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    North,
    East,
    South,
    West,
}

impl Orientation {
    /// Every orientation, in the order of the move list: `n`, `e`, `s`, `w`.
    pub const ALL: [Orientation; 4] = [
        Orientation::North,
        Orientation::East,
        Orientation::South,
        Orientation::West,
    ];

    /// The orientation of number `index` (0 north, then clockwise), taken modulo 4.
    pub const fn from_index(index: u8) -> Orientation {
        Orientation::ALL[(index % 4) as usize]
    }

    /// The orientation's number: 0 north, 1 east, 2 south, 3 west.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The lowercase letter of move texts: `n`, `e`, `s`, `w`.
    pub const fn letter(self) -> char {
        match self {
            Orientation::North => 'n',
            Orientation::East => 'e',
            Orientation::South => 's',
            Orientation::West => 'w',
        }
    }

    /// The orientation of a letter, in either case.
    pub fn from_letter(c: char) -> Option<Orientation> {
        Orientation::ALL
            .into_iter()
            .find(|o| o.letter() == c.to_ascii_lowercase())
    }
}

/// One placed tile: whose it is (the colour of its solid face), how its half/half face is
/// turned, and whether it lies solid face up (ruleset `straat-flip` only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    pub owner: Player,
    pub orientation: Orientation,
    /// The solid face is seen from the front and the half/half face from the back.
    pub solid_up: bool,
}

impl Tile {
    /// The tile's number, 0 to 15: orientation, then owner (4), then solid face up (8).
    pub(crate) const fn code(self) -> u8 {
        self.orientation.index() | (self.owner.index() as u8) << 2 | (self.solid_up as u8) << 3
    }

    /// The tile of number `code` (see [`Tile::code`]).
    pub(crate) const fn from_code(code: u8) -> Tile {
        Tile {
            owner: if code & 4 == 0 {
                Player::White
            } else {
                Player::Black
            },
            orientation: Orientation::from_index(code & 3),
            solid_up: code & 8 != 0,
        }
    }

    /// The tile's letter in position strings and views: the orientation letter, uppercase
    /// for White's tile (without the `*` of a solid-face-up tile).
    pub fn letter(self) -> char {
        match self.owner {
            Player::White => self.orientation.letter().to_ascii_uppercase(),
            Player::Black => self.orientation.letter(),
        }
    }
}

/// Marks an empty cell in [`State::tiles`].
const EMPTY: u8 = 0xFF;

const ZOBRIST_FAMILY: u64 = 0x5742_4154;
/// One key per cell and tile number, then the side to move.
static KEYS: [u64; CELLS * 16 + 1] = zobrist::table(ZOBRIST_FAMILY);
const SIDE_KEY: usize = CELLS * 16;

/// A Straat position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The tile number on each cell (see [`Tile::code`]), or `EMPTY`.
    tiles: [u8; CELLS],
    /// The empty cells (bit `file + 4 * rank`).
    pub(crate) empty: u16,
    pub(crate) to_move: Player,
    /// White's and Black's colour on the front, in the ruleset's front layout.
    pub(crate) front: [u64; 2],
    /// White's and Black's colour on the back, in the quarter-cell layout.
    pub(crate) back: [u64; 2],
    pub(crate) hash: u64,
}

impl State {
    /// The empty frame, White to move.
    pub(crate) fn start() -> State {
        State {
            tiles: [EMPTY; CELLS],
            empty: ALL_CELLS,
            to_move: Player::White,
            front: [0; 2],
            back: [0; 2],
            hash: 0,
        }
    }

    /// Lays `tile` on the empty cell `cell` (0 to 15), the front drawn in `front_layout`,
    /// without changing the side to move.
    #[inline(always)]
    pub(crate) fn put(&mut self, cell: usize, tile: Tile, front_layout: Layout) {
        let code = tile.code();
        self.tiles[cell] = code;
        self.empty &= !(1 << cell);
        let own = tile.owner.index();
        let half = tile.orientation.index();
        // The half/half face is black on its half and white on the rest; the solid face is
        // all the owner's colour. The front is drawn in the ruleset's layout, the back always
        // in quarter-cells.
        let (half_layout, solid_layout) = if tile.solid_up {
            (Layout::Quarters, front_layout)
        } else {
            (front_layout, Layout::Quarters)
        };
        let black = half_layout.half(cell, half);
        let white = half_layout.cell(cell) & !black;
        let solid = solid_layout.cell(cell);
        let (halves, solids) = if tile.solid_up {
            (&mut self.back, &mut self.front)
        } else {
            (&mut self.front, &mut self.back)
        };
        halves[0] |= white;
        halves[1] |= black;
        solids[own] |= solid;
        self.hash ^= KEYS[cell * 16 + usize::from(code)];
    }

    /// Passes the turn to the other player.
    #[inline(always)]
    pub(crate) fn switch_side(&mut self) {
        self.to_move = !self.to_move;
        self.hash ^= KEYS[SIDE_KEY];
    }

    /// The player to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The tile on `cell`, if any.
    pub fn tile(&self, cell: Cell) -> Option<Tile> {
        match self.tiles.get(cell.index()) {
            Some(&code) if code != EMPTY => Some(Tile::from_code(code)),
            _ => None,
        }
    }

    /// Every placed tile with its cell, in the order of the cells (`a1`, `b1`, ... `d4`).
    pub fn tiles(&self) -> impl Iterator<Item = (Cell, Tile)> + '_ {
        (0..CELLS).filter_map(|i| self.tile(Cell(i as u16)).map(|t| (Cell(i as u16), t)))
    }

    /// How many tiles `player` has placed.
    pub fn placed(&self, player: Player) -> usize {
        self.tiles().filter(|(_, t)| t.owner == player).count()
    }

    /// The number of empty cells.
    pub fn empty_cells(&self) -> u32 {
        self.empty.count_ones()
    }

    /// Whether every cell holds a tile (the game is over).
    pub fn is_full(&self) -> bool {
        self.empty == 0
    }

    /// The side-to-move key of the hash (for the tests).
    #[cfg(test)]
    pub(crate) fn side_key() -> u64 {
        KEYS[SIDE_KEY]
    }

    /// The hash recomputed from scratch (for the tests).
    #[cfg(test)]
    pub(crate) fn fresh_hash(&self) -> u64 {
        let mut hash = 0;
        for (cell, &code) in self.tiles.iter().enumerate() {
            if code != EMPTY {
                hash ^= KEYS[cell * 16 + usize::from(code)];
            }
        }
        if self.to_move == Player::Black {
            hash ^= KEYS[SIDE_KEY];
        }
        hash
    }
}
