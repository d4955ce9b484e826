//! Numbering the positions of one material: every position with the side to move's men and
//! kings and the opponent's men and kings in given numbers gets a number from 0 to the count
//! of such placements, and back.
//!
//! The board's dark squares are numbered densely from 0 (`a1`'s rank first, as the padded
//! layout orders them), so that turning the board half round maps square `d` to `N - 1 - d`.
//! The side to move plays up the board as White does; a position with Black to move is seen
//! turned half round with the colours swapped (the rules are the same for both sides seen from
//! their own end), which halves the tables.
//!
//! A number is built from four parts, most significant first: the side to move's men as a
//! combination of the squares its men may stand on (not its own far row), the opponent's men
//! likewise, the side to move's kings as a combination of the squares the men leave free, and
//! the opponent's kings among the squares left after those. The men of both sides are
//! numbered independently, so a few numbers put two men on one square: those are no position.

use denkmeter_core::{ByPlayer, Player};

use super::super::geometry::{bit, Geometry, Squares};
use super::super::state::State;

/// The most pieces a database holds, both sides together.
pub const MAX_PIECES: usize = 7;

/// `BINOMIAL[n][k]` = n choose k, for n up to 64 and k up to [`MAX_PIECES`].
const BINOMIAL: [[u64; MAX_PIECES + 1]; 65] = {
    let mut table = [[0u64; MAX_PIECES + 1]; 65];
    let mut n = 0;
    while n <= 64 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MAX_PIECES && k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
};

/// n choose k (0 when k > n).
pub(crate) const fn binomial(n: usize, k: usize) -> u64 {
    if k > n || k > MAX_PIECES {
        0
    } else {
        BINOMIAL[n][k]
    }
}

/// The numbers of pieces of a position, seen from the side to move ("us") and the opponent
/// ("them").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub us_men: u8,
    pub us_kings: u8,
    pub them_men: u8,
    pub them_kings: u8,
}

impl Material {
    /// All pieces of both sides.
    pub const fn pieces(self) -> usize {
        (self.us_men + self.us_kings + self.them_men + self.them_kings) as usize
    }

    /// The men of both sides.
    pub const fn men(self) -> usize {
        (self.us_men + self.them_men) as usize
    }

    /// The same material seen from the other side.
    pub const fn swapped(self) -> Material {
        Material {
            us_men: self.them_men,
            us_kings: self.them_kings,
            them_men: self.us_men,
            them_kings: self.us_kings,
        }
    }

    /// Every material with at least one piece on each side and `pieces` pieces in all.
    pub fn all_with(pieces: usize) -> Vec<Material> {
        let mut all = Vec::new();
        let p = pieces as u8;
        for us_men in 0..=p {
            for us_kings in 0..=p - us_men {
                for them_men in 0..=p - us_men - us_kings {
                    let them_kings = p - us_men - us_kings - them_men;
                    let m = Material {
                        us_men,
                        us_kings,
                        them_men,
                        them_kings,
                    };
                    if us_men + us_kings > 0 && them_men + them_kings > 0 {
                        all.push(m);
                    }
                }
            }
        }
        all
    }

    /// A slot number below `8^4` for tables indexed by material.
    pub(crate) const fn slot(self) -> usize {
        ((self.us_men as usize * 8 + self.us_kings as usize) * 8 + self.them_men as usize) * 8
            + self.them_kings as usize
    }

    /// The file name of the material's database: `2m1k-0m1k.egtb`.
    pub fn file_name(self) -> String {
        format!(
            "{}m{}k-{}m{}k.egtb",
            self.us_men, self.us_kings, self.them_men, self.them_kings
        )
    }
}

impl std::fmt::Display for Material {
    /// `2m1k-0m1k`: the side to move's men and kings, then the opponent's.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}m{}k-{}m{}k",
            self.us_men, self.us_kings, self.them_men, self.them_kings
        )
    }
}

/// The dense numbering of a board's dark squares.
#[derive(Debug)]
pub(crate) struct Board {
    /// Dark squares.
    pub n: usize,
    /// Dark squares on one row.
    pub row: usize,
    /// The dense number of each padded square.
    pub dense: [u8; 64],
    /// The padded square of each dense number.
    pub padded: [u8; 64],
    /// The dense number of each padded square on the board turned half round.
    pub turned_dense: [u8; 64],
}

impl Board {
    pub fn new(geometry: &'static Geometry) -> Board {
        let mut board = Board {
            n: geometry.valid.count_ones() as usize,
            row: geometry.size / 2,
            dense: [u8::MAX; 64],
            padded: [u8::MAX; 64],
            turned_dense: [u8::MAX; 64],
        };
        let n = board.n;
        for (d, sq) in Squares(geometry.valid).enumerate() {
            board.dense[usize::from(sq)] = d as u8;
            board.turned_dense[usize::from(sq)] = (n - 1 - d) as u8;
            board.padded[d] = sq;
        }
        board
    }

    /// The pieces of a position in dense squares as the side to move sees them (turned half
    /// round when Black is to move): ours, theirs and the kings.
    #[inline]
    pub fn seen_by_mover(&self, state: &State) -> (u64, u64, u64) {
        let table = match state.to_move {
            Player::White => &self.dense,
            Player::Black => &self.turned_dense,
        };
        let map =
            |padded: u64| Squares(padded).fold(0u64, |acc, sq| acc | 1 << table[usize::from(sq)]);
        let us = map(state.pieces[state.to_move]);
        let them = map(state.pieces[!state.to_move]);
        (us, them, map(state.dames))
    }

    /// The dense squares of a padded bitboard.
    #[inline]
    fn to_dense(&self, padded: u64) -> u64 {
        Squares(padded).fold(0, |acc, sq| acc | 1 << self.dense[usize::from(sq)])
    }

    /// The padded bitboard of dense squares.
    #[inline]
    fn to_padded(&self, dense: u64) -> u64 {
        Squares(dense).fold(0, |acc, d| acc | bit(self.padded[usize::from(d)]))
    }

    /// Dense squares turned half round.
    #[inline]
    fn turned(&self, dense: u64) -> u64 {
        dense.reverse_bits() >> (64 - self.n)
    }

    /// The position with the board turned half round and the colours swapped: the same
    /// position seen by the other side.
    pub fn flipped(&self, state: &State) -> State {
        let turn = |padded: u64| self.to_padded(self.turned(self.to_dense(padded)));
        State::bare(
            ByPlayer::new(turn(state.pieces.black), turn(state.pieces.white)),
            turn(state.dames),
            !state.to_move,
        )
    }

    /// The squares a man of the side to move may stand on, and those of the opponent's men
    /// (dense): not their own far row.
    fn men_squares(&self) -> (u64, u64) {
        let all = (1u64 << self.n) - 1;
        let top = all & !((1u64 << (self.n - self.row)) - 1);
        let bottom = (1u64 << self.row) - 1;
        (all & !top, all & !bottom)
    }
}

/// Combinations' numbers: the rank of a set among the sets of its size, ordered by their
/// largest members (the combinatorial number system).
#[inline]
fn rank_of(mut ranks: u64) -> u64 {
    let mut index = 0;
    let mut i = 1;
    while ranks != 0 {
        let r = ranks.trailing_zeros() as usize;
        ranks &= ranks - 1;
        index += binomial(r, i);
        i += 1;
    }
    index
}

/// The set of `k` ranks with number `index`.
#[inline]
fn unrank(mut index: u64, k: usize, below: usize) -> u64 {
    let mut set = 0;
    let mut top = below;
    for i in (1..=k).rev() {
        // The largest r < top with C(r, i) <= index, by bisection (C(r, i) grows with r).
        let (mut lo, mut hi) = (i - 1, top - 1);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if binomial(mid, i) <= index {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let r = lo;
        index -= binomial(r, i);
        set |= 1 << r;
        top = r;
    }
    set
}

/// The rank of each member of `set` among the members of `among` (both dense bitboards).
#[inline]
fn ranks_within(set: u64, among: u64) -> u64 {
    Squares(set).fold(0, |acc, d| {
        acc | 1 << (among & ((1u64 << d) - 1)).count_ones()
    })
}

/// The members of `among` with the given ranks.
#[inline]
fn select_within(ranks: u64, among: u64) -> u64 {
    let mut out = 0;
    let mut rest = among;
    let mut rank = 0;
    let mut wanted = ranks;
    while wanted != 0 {
        let next = wanted.trailing_zeros();
        while rank < next {
            rest &= rest - 1;
            rank += 1;
        }
        out |= rest & rest.wrapping_neg();
        wanted &= wanted - 1;
    }
    out
}

/// The numbering of one material's positions, side to move first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Numbering {
    pub material: Material,
    /// The sizes of the four parts: our men, their men, our kings, their kings.
    parts: [u64; 4],
    /// Positions numbered, including the numbers that are no position.
    pub len: u64,
}

impl Numbering {
    pub fn new(board: &Board, material: Material) -> Numbering {
        let men_squares = board.n - board.row;
        let free = board.n - material.men();
        let parts = [
            binomial(men_squares, usize::from(material.us_men)),
            binomial(men_squares, usize::from(material.them_men)),
            binomial(free, usize::from(material.us_kings)),
            binomial(
                free - usize::from(material.us_kings),
                usize::from(material.them_kings),
            ),
        ];
        Numbering {
            material,
            parts,
            len: parts.iter().product(),
        }
    }

    /// The number of a position of this material, seen from its side to move.
    #[inline]
    pub fn index(&self, board: &Board, state: &State) -> u64 {
        let (us, them, kings) = board.seen_by_mover(state);
        self.index_dense(board, us, them, kings)
    }

    /// The number of a position given in dense squares, ours, theirs and the kings.
    #[inline]
    pub fn index_dense(&self, board: &Board, us: u64, them: u64, kings: u64) -> u64 {
        let (us_men, them_men) = (us & !kings, them & !kings);
        let (our_squares, their_squares) = board.men_squares();
        let a = rank_of(ranks_within(us_men, our_squares));
        let b = rank_of(ranks_within(them_men, their_squares));
        let free = ((1u64 << board.n) - 1) & !(us_men | them_men);
        let c = rank_of(ranks_within(us & kings, free));
        let d = rank_of(ranks_within(them & kings, free & !(us & kings)));
        ((a * self.parts[1] + b) * self.parts[2] + c) * self.parts[3] + d
    }

    /// The position (White to move) with number `index`, or `None` if the number puts two
    /// men on one square.
    #[inline]
    pub fn position(&self, board: &Board, index: u64) -> Option<State> {
        let m = self.material;
        let d = index % self.parts[3];
        let rest = index / self.parts[3];
        let c = rest % self.parts[2];
        let rest = rest / self.parts[2];
        let b = rest % self.parts[1];
        let a = rest / self.parts[1];
        let (our_squares, their_squares) = board.men_squares();
        let men_squares = board.n - board.row;
        let us_men = select_within(unrank(a, usize::from(m.us_men), men_squares), our_squares);
        let them_men = select_within(
            unrank(b, usize::from(m.them_men), men_squares),
            their_squares,
        );
        if us_men & them_men != 0 {
            return None;
        }
        let free = ((1u64 << board.n) - 1) & !(us_men | them_men);
        let free_count = board.n - m.men();
        let us_kings = select_within(unrank(c, usize::from(m.us_kings), free_count), free);
        let them_kings = select_within(
            unrank(
                d,
                usize::from(m.them_kings),
                free_count - usize::from(m.us_kings),
            ),
            free & !us_kings,
        );
        Some(State::bare(
            ByPlayer::new(
                board.to_padded(us_men | us_kings),
                board.to_padded(them_men | them_kings),
            ),
            board.to_padded(us_kings | them_kings),
            Player::White,
        ))
    }
}

/// The material of a position, seen from its side to move.
pub(crate) fn material_of(state: &State) -> Material {
    let (us_men, us_kings) = state.count(state.to_move);
    let (them_men, them_kings) = state.count(!state.to_move);
    Material {
        us_men: us_men as u8,
        us_kings: us_kings as u8,
        them_men: them_men as u8,
        them_kings: them_kings as u8,
    }
}
