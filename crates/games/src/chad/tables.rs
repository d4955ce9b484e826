//! Board data computed once, at compile time: castle and wall membership, rays in the eight
//! directions and the king's targets inside its castle.
//!
//! Squares are numbered `file + 12 * rank` (A1 = 0, L12 = 143), the numbering of
//! [`denkmeter_core::Board::rectangle`], and directions follow
//! [`denkmeter_core::SQUARE_DIRECTIONS`]: N, NE, E, SE, S, SW, W, NW (even numbers are orthogonal).

use std::fmt;

use denkmeter_core::Player;

/// Files and ranks of the board.
pub(crate) const SIZE: usize = 12;
/// Squares of the board.
pub(crate) const CELLS: usize = SIZE * SIZE;
/// The longest ray on a 12x12 board.
const MAX_RAY: usize = SIZE - 1;

/// File and rank steps of the eight directions, in the order of `SQUARE_DIRECTIONS`.
const STEPS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// The king's steps followed by the knight's jumps.
const KING_JUMPS: [(i32, i32); 16] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Lowest file and rank of White's castle (C3) and of Black's castle (H8), 0-based.
const CASTLE_CORNER: [i32; 2] = [2, 7];

const WHITE_CASTLE: u8 = 1;
const BLACK_CASTLE: u8 = 2;
const WHITE_WALL: u8 = 4;
const BLACK_WALL: u8 = 8;

const fn in_block(file: i32, rank: i32, low: i32) -> bool {
    file >= low && file <= low + 2 && rank >= low && rank <= low + 2
}

const fn is_wall(file: i32, rank: i32, low: i32) -> bool {
    !in_block(file, rank, low)
        && (in_block(file + 1, rank, low)
            || in_block(file - 1, rank, low)
            || in_block(file, rank + 1, low)
            || in_block(file, rank - 1, low))
}

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && rank >= 0 && file < SIZE as i32 && rank < SIZE as i32
}

const fn build_zones() -> [u8; CELLS] {
    let mut zones = [0; CELLS];
    let mut sq = 0;
    while sq < CELLS {
        let (file, rank) = ((sq % SIZE) as i32, (sq / SIZE) as i32);
        if in_block(file, rank, CASTLE_CORNER[0]) {
            zones[sq] |= WHITE_CASTLE;
        }
        if in_block(file, rank, CASTLE_CORNER[1]) {
            zones[sq] |= BLACK_CASTLE;
        }
        if is_wall(file, rank, CASTLE_CORNER[0]) {
            zones[sq] |= WHITE_WALL;
        }
        if is_wall(file, rank, CASTLE_CORNER[1]) {
            zones[sq] |= BLACK_WALL;
        }
        sq += 1;
    }
    zones
}

/// Castle and wall bits of every square.
const ZONES: [u8; CELLS] = build_zones();

/// Rays: `squares[sq][dir][..len[sq][dir]]` are the squares from `sq` (excluded) to the edge.
struct Rays {
    squares: [[[u8; MAX_RAY]; 8]; CELLS],
    len: [[u8; 8]; CELLS],
}

const fn build_rays() -> Rays {
    let mut rays = Rays {
        squares: [[[0; MAX_RAY]; 8]; CELLS],
        len: [[0; 8]; CELLS],
    };
    let mut sq = 0;
    while sq < CELLS {
        let mut dir = 0;
        while dir < 8 {
            let (df, dr) = STEPS[dir];
            let (mut file, mut rank) = ((sq % SIZE) as i32 + df, (sq / SIZE) as i32 + dr);
            let mut n = 0;
            while on_board(file, rank) {
                rays.squares[sq][dir][n] = (file + rank * SIZE as i32) as u8;
                n += 1;
                file += df;
                rank += dr;
            }
            rays.len[sq][dir] = n as u8;
            dir += 1;
        }
        sq += 1;
    }
    rays
}

const RAYS: Rays = build_rays();

/// The king's targets: for a castle square, the squares of the same castle a king step or a
/// knight's jump away (at most 8, from the centre).
struct KingTargets {
    squares: [[u8; 8]; CELLS],
    len: [u8; CELLS],
}

const fn build_king_targets() -> KingTargets {
    let mut targets = KingTargets {
        squares: [[0; 8]; CELLS],
        len: [0; CELLS],
    };
    let mut sq = 0;
    while sq < CELLS {
        let (file, rank) = ((sq % SIZE) as i32, (sq / SIZE) as i32);
        let mut c = 0;
        while c < 2 {
            let low = CASTLE_CORNER[c];
            if in_block(file, rank, low) {
                let mut j = 0;
                while j < KING_JUMPS.len() {
                    let (f, r) = (file + KING_JUMPS[j].0, rank + KING_JUMPS[j].1);
                    if in_block(f, r, low) {
                        let n = targets.len[sq] as usize;
                        targets.squares[sq][n] = (f + r * SIZE as i32) as u8;
                        targets.len[sq] += 1;
                    }
                    j += 1;
                }
            }
            c += 1;
        }
        sq += 1;
    }
    targets
}

const KING_TARGETS: KingTargets = build_king_targets();

const fn castle_bit(player: Player) -> u8 {
    match player {
        Player::White => WHITE_CASTLE,
        Player::Black => BLACK_CASTLE,
    }
}

const fn wall_bit(player: Player) -> u8 {
    match player {
        Player::White => WHITE_WALL,
        Player::Black => BLACK_WALL,
    }
}

/// Whether `sq` lies inside `player`'s castle.
#[inline]
pub(crate) const fn in_castle(player: Player, sq: usize) -> bool {
    ZONES[sq] & castle_bit(player) != 0
}

/// Whether `sq` is one of the twelve wall squares of `player`'s castle.
#[inline]
pub(crate) const fn on_wall(player: Player, sq: usize) -> bool {
    ZONES[sq] & wall_bit(player) != 0
}

/// The squares from `sq` (excluded) to the edge in direction `dir`.
#[inline]
pub(crate) fn ray(sq: usize, dir: usize) -> &'static [u8] {
    &RAYS.squares[sq][dir][..RAYS.len[sq][dir] as usize]
}

/// The squares of its castle a king on `sq` may go to (empty unless `sq` is a castle square).
#[inline]
pub(crate) fn king_targets(sq: usize) -> &'static [u8] {
    &KING_TARGETS.squares[sq][..KING_TARGETS.len[sq] as usize]
}

/// The direction number leading from `from` to `to` along a line of that kind (`orthogonal`
/// for rooks, any line for queens), if there is one.
pub(crate) const fn direction(from: usize, to: usize, orthogonal_only: bool) -> Option<usize> {
    let df = (to % SIZE) as i32 - (from % SIZE) as i32;
    let dr = (to / SIZE) as i32 - (from / SIZE) as i32;
    if df == 0 && dr == 0 {
        return None;
    }
    let diagonal = df != 0 && dr != 0;
    if diagonal && (orthogonal_only || (df != dr && df != -dr)) {
        return None;
    }
    let step = (df.signum(), dr.signum());
    let mut dir = 0;
    while dir < 8 {
        if STEPS[dir].0 == step.0 && STEPS[dir].1 == step.1 {
            return Some(dir);
        }
        dir += 1;
    }
    None
}

/// A square's name as printed, e.g. `D3`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SquareName(pub usize);

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = (b'A' + (self.0 % SIZE) as u8) as char;
        write!(f, "{file}{}", self.0 / SIZE + 1)
    }
}
