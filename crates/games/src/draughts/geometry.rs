//! The dark squares of an 8x8 or 10x10 board as bits of one `u64`, in a padded layout where
//! every direction is a fixed shift, and the tables computed from it at compile time.
//!
//! A dark square at file `f`, rank `r` (both from 0) is bit `(r * (size + 1) + f - p) / 2`, where
//! `p` is 0 if `a1` is dark and 1 if it is light. With `h = size / 2` the eight directions of the
//! core's order (N, NE, E, SE, S, SW, W, NW) are the shifts `2h+1, h+1, 1, -h, -2h-1, -h-1, -1,
//! h`: a diagonal step goes to the next square diagonally, an orthogonal step to the next dark
//! square along the rank or file (two squares away, over the light square between). Each pair of
//! ranks takes `size + 1` bits, one of them a ghost square that is never on the board, so the
//! 10x10 board takes 55 bits and the 8x8 board 36.

/// The mark for "no square" in the step tables.
pub(crate) const NONE: u8 = u8::MAX;

/// The eight directions in the core's order, as (file, rank) steps from one dark square to the
/// next: diagonal steps of one square, orthogonal steps of two.
const STEPS: [(i32, i32); 8] = [
    (0, 2),
    (1, 1),
    (2, 0),
    (1, -1),
    (0, -2),
    (-1, -1),
    (-2, 0),
    (-1, 1),
];

/// Direction masks (bit `d` for direction number `d` of the core's order).
pub(crate) mod dirs {
    pub const N: u8 = 1;
    pub const NE: u8 = 1 << 1;
    pub const E: u8 = 1 << 2;
    pub const SE: u8 = 1 << 3;
    pub const SW: u8 = 1 << 5;
    pub const W: u8 = 1 << 6;
    pub const NW: u8 = 1 << 7;
    pub const DIAGONAL: u8 = NE | SE | SW | NW;
    pub const ALL: u8 = 0xFF;

    /// The same directions as seen by the other player (turned by half a circle).
    pub const fn turned(mask: u8) -> u8 {
        mask.rotate_left(4)
    }
}

/// The board's squares and the tables the move generator uses.
#[derive(Debug)]
pub(crate) struct Geometry {
    /// Files and ranks (8 or 10).
    pub size: usize,
    /// Every square of the board.
    pub valid: u64,
    /// The shift of each direction.
    pub shift: [i32; 8],
    /// `step[d][sq]`: the next square from `sq` in direction `d`, or [`NONE`].
    pub step: [[u8; 64]; 8],
    /// The squares that have a next square in direction `d`.
    pub can_step: [u64; 8],
    /// The squares that have two next squares in direction `d` (a short jump fits).
    pub can_jump: [u64; 8],
    /// `ray[d][sq]`: every square from `sq` (excluded) to the edge in direction `d`.
    pub ray: [[u64; 64]; 8],
    /// The cell number (`file + rank * size`) of each square.
    pub cell: [u8; 64],
    /// The square of each cell, or [`NONE`] for a light cell.
    pub square: [u8; 100],
    /// The promotion row of each player (White's is the top rank), indexed by player.
    pub far_row: [u64; 2],
}

impl Geometry {
    /// The tables of a `size` x `size` board (8 or 10) whose `a1` is dark or light.
    pub const fn new(size: usize, a1_dark: bool) -> Geometry {
        assert!(size == 8 || size == 10);
        let p = if a1_dark { 0 } else { 1 };
        let h = (size / 2) as i32;
        let mut g = Geometry {
            size,
            valid: 0,
            shift: [2 * h + 1, h + 1, 1, -h, -2 * h - 1, -h - 1, -1, h],
            step: [[NONE; 64]; 8],
            can_step: [0; 8],
            can_jump: [0; 8],
            ray: [[0; 64]; 8],
            cell: [NONE; 64],
            square: [NONE; 100],
            far_row: [0; 2],
        };
        let n = size as i32;
        let mut rank = 0;
        while rank < n {
            let mut file = 0;
            while file < n {
                if (file + rank + p) % 2 == 0 {
                    let sq = Self::index(size, p, file, rank);
                    g.valid |= 1 << sq;
                    g.cell[sq] = (file + rank * n) as u8;
                    g.square[(file + rank * n) as usize] = sq as u8;
                    if rank == n - 1 {
                        g.far_row[0] |= 1 << sq;
                    }
                    if rank == 0 {
                        g.far_row[1] |= 1 << sq;
                    }
                    let mut d = 0;
                    while d < 8 {
                        let (df, dr) = STEPS[d];
                        let (mut f, mut r) = (file + df, rank + dr);
                        let mut count = 0;
                        while f >= 0 && r >= 0 && f < n && r < n {
                            let next = Self::index(size, p, f, r);
                            assert!(next as i32 - sq as i32 == g.shift[d] * (count + 1));
                            if count == 0 {
                                g.step[d][sq] = next as u8;
                                g.can_step[d] |= 1 << sq;
                            } else if count == 1 {
                                g.can_jump[d] |= 1 << sq;
                            }
                            g.ray[d][sq] |= 1 << next;
                            f += df;
                            r += dr;
                            count += 1;
                        }
                        d += 1;
                    }
                }
                file += 1;
            }
            rank += 1;
        }
        g
    }

    const fn index(size: usize, p: i32, file: i32, rank: i32) -> usize {
        ((rank * (size as i32 + 1) + file - p) / 2) as usize
    }

    /// The file and rank (from 0) of a square.
    pub fn file_rank(&self, sq: u8) -> (usize, usize) {
        let cell = usize::from(self.cell[usize::from(sq)]);
        (cell % self.size, cell / self.size)
    }
}

/// The 8x8 board with `a1` dark (English checkers).
pub(crate) static EIGHT_A1_DARK: Geometry = Geometry::new(8, true);
/// The 8x8 board with `a1` light (Scandinavian checkers on 8x8).
pub(crate) static EIGHT_A1_LIGHT: Geometry = Geometry::new(8, false);
/// The 10x10 board with `a1` dark (International draughts).
pub(crate) static TEN_A1_DARK: Geometry = Geometry::new(10, true);
/// The 10x10 board with `a1` light (Scandinavian checkers).
pub(crate) static TEN_A1_LIGHT: Geometry = Geometry::new(10, false);

/// `bb` moved by `shift` squares (towards higher bits if positive).
#[inline(always)]
pub(crate) const fn shifted(bb: u64, shift: i32) -> u64 {
    if shift >= 0 {
        bb << shift
    } else {
        bb >> -shift
    }
}

/// The square of `bb` nearest to the start of a ray in a direction of the given shift: the lowest
/// bit for a positive shift, the highest for a negative one. `bb` must not be empty.
#[inline(always)]
pub(crate) const fn nearest(bb: u64, shift: i32) -> u8 {
    if shift > 0 {
        bb.trailing_zeros() as u8
    } else {
        63 - bb.leading_zeros() as u8
    }
}

/// The bit of square `sq`.
#[inline(always)]
pub(crate) const fn bit(sq: u8) -> u64 {
    1 << sq
}

/// Iterates over the squares of a bitboard, lowest first.
pub(crate) use denkmeter_core::Bits as Squares;
