//! Counting streets. A face of the frame is a set of pieces (quarter-cells or triangles), each
//! white, black or empty, held as two bitboards of 64 bits. Regions are found by flood fill
//! with shifts.
//!
//! Two layouts:
//! - [`Layout::Quarters`]: an 8x8 grid of quarter-cells, bit `x + 8 * y` with `x` from the left
//!   and `y` from the bottom (front and back of the straight split, back of the diagonal one).
//! - [`Layout::Triangles`]: four triangles a cell, bit `4 * cell + t` with `cell = file + 4 *
//!   rank` and `t` 0 north, 1 east, 2 south, 3 west (front of the diagonal split).

use std::fmt;

use denkmeter_core::{Player, Side};

/// How the pieces of a face are laid out in a bitboard (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// 64 quarter-cells, bit `x + 8 * y`.
    Quarters,
    /// 64 triangles, bit `4 * cell + t`.
    Triangles,
}

/// The quarter-cells of each cell.
const QUARTER_CELL: [u64; 16] = quarter_cells();
/// The quarter-cells of each cell's half on each side (north, east, south, west).
const QUARTER_HALF: [[u64; 4]; 16] = quarter_halves();
/// The triangles of each cell's black half for each orientation: `n` is the north and east
/// triangles, `e` east and south, `s` south and west, `w` west and north.
const TRIANGLE_HALF: [u64; 4] = [0b0011, 0b0110, 0b1100, 0b1001];

const fn quarter_cells() -> [u64; 16] {
    let mut out = [0; 16];
    let mut cell = 0;
    while cell < 16 {
        let base = 2 * (cell % 4) + 16 * (cell / 4);
        out[cell] = 0x303 << base;
        cell += 1;
    }
    out
}

const fn quarter_halves() -> [[u64; 4]; 16] {
    let mut out = [[0; 4]; 16];
    let mut cell = 0;
    while cell < 16 {
        let base = 2 * (cell % 4) + 16 * (cell / 4);
        out[cell] = [
            0x300 << base, // north: the upper two quarters
            0x202 << base, // east: the right two
            0x003 << base, // south: the lower two
            0x101 << base, // west: the left two
        ];
        cell += 1;
    }
    out
}

// Quarter-cells.
const Q_FILE_A: u64 = 0x0101_0101_0101_0101;
const Q_FILE_H: u64 = 0x8080_8080_8080_8080;
const Q_NORTH: u64 = 0xFF00_0000_0000_0000;
const Q_SOUTH: u64 = 0x0000_0000_0000_00FF;

// Triangles.
const T_N: u64 = 0x1111_1111_1111_1111;
const T_E: u64 = 0x2222_2222_2222_2222;
const T_S: u64 = 0x4444_4444_4444_4444;
const T_W: u64 = 0x8888_8888_8888_8888;
/// The triangles of the cells of rank 4, of rank 1, of file a, of file d.
const T_RANK_4: u64 = 0xFFFF_0000_0000_0000;
const T_RANK_1: u64 = 0x0000_0000_0000_FFFF;
const T_FILE_A: u64 = 0x000F_000F_000F_000F;
const T_FILE_D: u64 = 0xF000_F000_F000_F000;

impl Layout {
    /// The pieces of cell `cell` (0 to 15, `file + 4 * rank`).
    #[inline(always)]
    pub(crate) fn cell(self, cell: usize) -> u64 {
        match self {
            Layout::Quarters => QUARTER_CELL[cell],
            Layout::Triangles => 0xF << (4 * cell),
        }
    }

    /// The pieces of the black half of cell `cell` for orientation number `half`.
    #[inline(always)]
    pub(crate) fn half(self, cell: usize, half: u8) -> u64 {
        match self {
            Layout::Quarters => QUARTER_HALF[cell][usize::from(half & 3)],
            Layout::Triangles => TRIANGLE_HALF[usize::from(half & 3)] << (4 * cell),
        }
    }

    /// The outline of piece `bit` as a polygon in the drawing coordinates of the board (cell
    /// units, y growing downwards: cell `file + 4 * rank` spans `file..file + 1` across and
    /// `3 - rank..4 - rank` down), clockwise on the screen from its north-west corner.
    pub fn outline(self, bit: u32) -> Vec<(f32, f32)> {
        match self {
            Layout::Quarters => {
                let (x, y) = ((bit % 8) as f32 / 2.0, (7 - bit / 8) as f32 / 2.0);
                vec![(x, y), (x + 0.5, y), (x + 0.5, y + 0.5), (x, y + 0.5)]
            }
            Layout::Triangles => {
                let cell = bit / 4;
                let (x, y) = ((cell % 4) as f32, (3 - cell / 4) as f32);
                let corners = [(x, y), (x + 1.0, y), (x + 1.0, y + 1.0), (x, y + 1.0)];
                let t = (bit % 4) as usize;
                vec![corners[t], corners[(t + 1) % 4], (x + 0.5, y + 0.5)]
            }
        }
    }

    /// The pieces with an edge on the north, south, west and east sides of the frame.
    #[inline(always)]
    const fn sides(self) -> [u64; 4] {
        match self {
            Layout::Quarters => [Q_NORTH, Q_SOUTH, Q_FILE_A, Q_FILE_H],
            Layout::Triangles => [
                T_N & T_RANK_4,
                T_S & T_RANK_1,
                T_W & T_FILE_A,
                T_E & T_FILE_D,
            ],
        }
    }

    /// The pieces of `set` and those sharing an edge with one of them.
    #[inline(always)]
    pub(crate) fn grow(self, set: u64) -> u64 {
        match self {
            Layout::Quarters => {
                set | set << 8 | set >> 8 | (set << 1) & !Q_FILE_A | (set >> 1) & !Q_FILE_H
            }
            Layout::Triangles => {
                set
                    // Within a cell: each triangle touches the next and previous one.
                    | (set & !T_W) << 1
                    | (set & T_W) >> 3
                    | (set & !T_N) >> 1
                    | (set & T_N) << 3
                    // North triangle and the south triangle of the cell above, and back.
                    | (set & T_N & !T_RANK_4) << 18
                    | (set & T_S & !T_RANK_1) >> 18
                    // East triangle and the west triangle of the cell to the right, and back.
                    | (set & T_E & !T_FILE_D) << 6
                    | (set & T_W & !T_FILE_A) >> 6
            }
        }
    }

    /// The region of `mask` holding the pieces `seed`: everything in `mask` joined to them.
    #[inline]
    pub(crate) fn region(self, seed: u64, mask: u64) -> u64 {
        let mut region = seed & mask;
        loop {
            let next = self.grow(region) & mask;
            if next == region {
                return region;
            }
            region = next;
        }
    }

    /// The rows (bit per row from the south, in eighths of the frame) and columns (from the
    /// west) that `region` reaches: cheap extents for the evaluation.
    #[inline]
    fn extent(self, region: u64) -> (u8, u8) {
        match self {
            Layout::Quarters => {
                let mut rows = 0u8;
                for y in 0..8 {
                    if (region >> (8 * y)) & 0xFF != 0 {
                        rows |= 1 << y;
                    }
                }
                let mut columns = region;
                columns |= columns >> 32;
                columns |= columns >> 16;
                columns |= columns >> 8;
                (rows, columns as u8)
            }
            Layout::Triangles => {
                // Each cell's rank or file counts as two eighths.
                let mut rows = 0u8;
                for rank in 0..4 {
                    if (region >> (16 * rank)) & 0xFFFF != 0 {
                        rows |= 3 << (2 * rank);
                    }
                }
                let mut folded = region;
                folded |= folded >> 32;
                folded |= folded >> 16;
                let mut columns = 0u8;
                for file in 0..4 {
                    if (folded >> (4 * file)) & 0xF != 0 {
                        columns |= 3 << (2 * file);
                    }
                }
                (rows, columns)
            }
        }
    }
}

/// The streets of one colour on one face of the frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StreetCount {
    /// Regions joining the north and south sides.
    pub north_south: u32,
    /// Regions joining the west and east sides.
    pub west_east: u32,
}

impl StreetCount {
    /// Both directions together (a region joining both pairs of sides counts twice).
    pub fn total(self) -> u32 {
        self.north_south + self.west_east
    }
}

/// Calls `street(region, joins_north_south, joins_west_east)` for each region of `mask` (the
/// pieces of one colour) in `layout` that joins opposite sides.
#[inline]
fn each_street(layout: Layout, mask: u64, mut street: impl FnMut(u64, bool, bool)) {
    let [north, south, west, east] = layout.sides();
    // Only regions touching the north side can join north and south, and only regions
    // touching the west side can join west and east: fill from those pieces alone.
    let mut seeds = mask & (north | west);
    while seeds != 0 {
        let region = layout.region(seeds & seeds.wrapping_neg(), mask);
        seeds &= !region;
        let north_south = region & north != 0 && region & south != 0;
        let west_east = region & west != 0 && region & east != 0;
        if north_south || west_east {
            street(region, north_south, west_east);
        }
    }
}

/// The streets of `mask` (the pieces of one colour) in `layout`.
pub fn count(layout: Layout, mask: u64) -> StreetCount {
    let mut count = StreetCount::default();
    each_street(layout, mask, |_, north_south, west_east| {
        count.north_south += u32::from(north_south);
        count.west_east += u32::from(west_east);
    });
    count
}

/// One street: a region of one colour and the pairs of opposite sides it joins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Street {
    /// The region's pieces, in the face's layout.
    pub pieces: u64,
    pub north_south: bool,
    pub west_east: bool,
}

impl Street {
    /// What the street counts for: 1, or 2 if it joins both pairs of sides.
    pub fn value(self) -> u32 {
        u32::from(self.north_south) + u32::from(self.west_east)
    }
}

/// The streets of `mask` (the pieces of one colour) in `layout`, one per region, in the order
/// of their lowest piece on the north or west side.
pub fn streets(layout: Layout, mask: u64) -> Vec<Street> {
    let mut streets = Vec::new();
    each_street(layout, mask, |pieces, north_south, west_east| {
        streets.push(Street {
            pieces,
            north_south,
            west_east,
        });
    });
    streets
}

/// A face of the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Face {
    /// The side seen during play.
    Front,
    /// The side seen once the frame is turned over (counted in front coordinates).
    Back,
}

impl Face {
    /// Both faces, front first.
    pub const BOTH: [Face; 2] = [Face::Front, Face::Back];

    /// The side of the board this face is seen on.
    pub const fn side(self) -> Side {
        match self {
            Face::Front => Side::Front,
            Face::Back => Side::Back,
        }
    }

    /// `front` or `back`.
    pub const fn name(self) -> &'static str {
        match self {
            Face::Front => "front",
            Face::Back => "back",
        }
    }
}

/// The streets of a position, full or not: per face, per colour and per direction. Empty cells
/// belong to no region.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Streets {
    /// `[face][colour]`: front then back; White's colour then Black's.
    pub counts: [[StreetCount; 2]; 2],
}

impl Streets {
    /// The streets of `player`'s colour on `face`.
    pub fn get(&self, face: Face, player: Player) -> StreetCount {
        self.counts[face as usize][player.index()]
    }

    /// `player`'s score: streets of their colour on the front plus those on the back.
    pub fn score(&self, player: Player) -> u32 {
        Face::BOTH
            .into_iter()
            .map(|face| self.get(face, player).total())
            .sum()
    }
}

impl fmt::Display for Streets {
    /// `front: White 1 (N-S 1, W-E 0), Black 2 (N-S 1, W-E 1); back: ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, face) in Face::BOTH.into_iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{}: ", face.name())?;
            for (j, player) in Player::BOTH.into_iter().enumerate() {
                if j > 0 {
                    f.write_str(", ")?;
                }
                let c = self.get(face, player);
                write!(
                    f,
                    "{player} {} (N-S {}, W-E {})",
                    c.total(),
                    c.north_south,
                    c.west_east
                )?;
            }
        }
        Ok(())
    }
}

/// The streets of a face whose colours are `colours` (White's, Black's) in `layout`.
pub(crate) fn face_counts(layout: Layout, colours: [u64; 2]) -> [StreetCount; 2] {
    [count(layout, colours[0]), count(layout, colours[1])]
}

/// What the evaluation adds for `mask`'s regions: per region, for each direction, the square
/// of how far (in eighths of the frame, minus one) it reaches, halved; and 100 for each
/// street.
pub(crate) fn promise(layout: Layout, mask: u64) -> i32 {
    let [north, south, west, east] = layout.sides();
    let mut rest = mask;
    let mut value = 0;
    while rest != 0 {
        let region = layout.region(rest & rest.wrapping_neg(), mask);
        rest &= !region;
        let (rows, columns) = layout.extent(region);
        let reach = |bits: u8| {
            let span = 8 - bits.leading_zeros() as i32 - bits.trailing_zeros() as i32;
            (span - 1) * (span - 1)
        };
        value += (reach(rows) + reach(columns)) / 2;
        if region & north != 0 && region & south != 0 {
            value += 100;
        }
        if region & west != 0 && region & east != 0 {
            value += 100;
        }
    }
    value
}
