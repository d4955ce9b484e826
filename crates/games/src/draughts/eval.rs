//! The draughts evaluation: a weight vector dotted with a feature vector (White's counts less
//! Black's, term by term), then a flying-dame ending with too little material to win scaled
//! towards a draw. The terms: material with a dame's worth per ruleset family, the men's
//! advancement, centre and flank, the back rank kept, men backed from behind, runaway men, the
//! dames' mobility, the balance of the men between the wings, men that cannot step and the steps
//! the men have, dames on the long diagonal, material traded down and dames hunting what is
//! left. Every term is counted on bitboards; the weights are hundredths of a man, one vector per
//! ruleset family ([`weights`]), fitted to self-play games by the engine's `texel` example (see
//! [`super::tuning`]).

use denkmeter_core::{ByPlayer, Player};

use super::geometry::{bit, nearest, shifted, Geometry, Squares};
use super::patterns::{self, Patterns};
use super::variant::{geometry, man_steps, Variant};
use super::State;

/// The number of terms.
pub const N: usize = 27;

/// A weight per term, in hundredths of a man.
pub type Weights = [i32; N];
/// A count per term: White's less Black's.
pub type Features = [i32; N];

/// The men and the dames.
pub const MAN: usize = 0;
pub const DAME: usize = 1;
/// A side's first dame, on top of [`DAME`]: the first dame's worth differs from the others'
/// (more in international draughts; less in Scandinavian, where a second dame wins against a
/// lone one).
pub const FIRST_DAME: usize = 2;
/// Eight terms: men by rows advanced from the own back rank, 1 to 8 (the back rank itself
/// counts as nothing but a man; on 8x8 only rows 1 to 6 hold men).
pub const ADVANCE: usize = 3;
/// Men on the twelve (10x10) or eight (8x8) squares of the centre.
pub const CENTRE: usize = 11;
/// Men on the left or right edge.
pub const EDGE: usize = 12;
/// Men still on the own back rank, while the opponent has men to crown.
pub const BACK_RANK: usize = 13;
/// Men with an own piece on a square diagonally behind them.
pub const BACKED: usize = 14;
/// Five terms: men no enemy piece can reach before they crown, while the opponent has no
/// dame, by rows left to the far one, 1 to 5.
pub const RUNAWAY: usize = 15;
/// The squares the dames can move to.
pub const DAME_MOBILITY: usize = 20;
/// The difference between the men on the left half of the board and on the right half.
pub const BALANCE: usize = 21;
/// Men with no empty square to step to.
pub const BLOCKED: usize = 22;
/// Dames on the long diagonal (the one of `size` squares).
pub const DAME_DIAGONAL: usize = 23;
/// The side's pieces times the pieces gone from the board, over 8: material counts for more
/// when little is left.
pub const TRADE: usize = 24;
/// While the side has more pieces and the opponent three or fewer: per dame, the board's size
/// less one, less its distance in king steps to the nearest enemy piece. It walks the dames
/// towards what is left to take, so that a won ending is won instead of circled (where dames
/// only step, a lone dame has to be hunted into a corner).
pub const HUNT: usize = 25;
/// The steps the men can make to empty squares (captures aside): room to wait with a tempo
/// move in a closed position instead of having to give something away.
pub const MAN_MOBILITY: usize = 26;

/// The terms' names, in order.
pub const NAMES: [&str; N] = [
    "man",
    "dame",
    "first_dame",
    "advance_1",
    "advance_2",
    "advance_3",
    "advance_4",
    "advance_5",
    "advance_6",
    "advance_7",
    "advance_8",
    "centre",
    "edge",
    "back_rank",
    "backed",
    "runaway_1",
    "runaway_2",
    "runaway_3",
    "runaway_4",
    "runaway_5",
    "dame_mobility",
    "balance",
    "blocked",
    "dame_diagonal",
    "trade",
    "hunt",
    "man_mobility",
];

/// The ruleset families with weights of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    /// 10x10, dames fly diagonally: `international`.
    International,
    /// 10x10, dames fly every way: the six `scandinavian` rulesets.
    Scandinavian10,
    /// 8x8, dames fly every way: the six `scandinavian-8x8` rulesets.
    Scandinavian8,
    /// 8x8, dames step: `english`.
    English,
}

impl Group {
    /// Every group, in the order above.
    pub const ALL: [Group; 4] = [
        Group::International,
        Group::Scandinavian10,
        Group::Scandinavian8,
        Group::English,
    ];

    /// The group of ruleset `V`.
    pub const fn of<V: Variant>() -> Group {
        match (V::SIZE, V::FLYING, V::DAME_DIRECTIONS == 0xFF) {
            (_, false, _) => Group::English,
            (10, true, false) => Group::International,
            (10, true, true) => Group::Scandinavian10,
            _ => Group::Scandinavian8,
        }
    }

    /// The weights the evaluation uses.
    pub const fn weights(self) -> &'static Weights {
        match self {
            Group::International => &INTERNATIONAL,
            Group::Scandinavian10 => &SCANDINAVIAN_10,
            Group::Scandinavian8 => &SCANDINAVIAN_8,
            Group::English => &ENGLISH,
        }
    }

    /// The hand-set weights the evaluation had before any fitting, kept to measure against.
    pub const fn hand_weights(self) -> &'static Weights {
        match self {
            Group::International => &HAND_INTERNATIONAL,
            Group::Scandinavian10 => &HAND_SCANDINAVIAN_10,
            Group::Scandinavian8 => &HAND_SCANDINAVIAN_8,
            Group::English => &HAND_ENGLISH,
        }
    }
}

/// The hand-set weights with a dame's worth and the advancement of a board size.
const fn hand(dame: i32, advance: [i32; 8]) -> Weights {
    let mut w = [0; N];
    w[MAN] = 100;
    w[DAME] = dame;
    let mut i = 0;
    while i < 8 {
        w[ADVANCE + i] = advance[i];
        i += 1;
    }
    w[CENTRE] = 6;
    w[EDGE] = -5;
    w[BACK_RANK] = 6;
    w[BACKED] = 3;
    // 70 at the row before the far one, 15 less for each row farther.
    let runaway = [70, 55, 40, 25, 10];
    let mut i = 0;
    while i < 5 {
        w[RUNAWAY + i] = runaway[i];
        i += 1;
    }
    w[DAME_MOBILITY] = 2;
    w
}

const ADVANCE_10: [i32; 8] = [1, 3, 5, 8, 11, 15, 20, 26];
const ADVANCE_8: [i32; 8] = [2, 5, 9, 14, 20, 27, 0, 0];

/// Flying dames are worth most where they also slide orthogonally (Scandinavian), least where
/// they only step (English).
const HAND_INTERNATIONAL: Weights = hand(320, ADVANCE_10);
const HAND_SCANDINAVIAN_10: Weights = hand(450, ADVANCE_10);
const HAND_SCANDINAVIAN_8: Weights = hand(450, ADVANCE_8);
const HAND_ENGLISH: Weights = hand(150, ADVANCE_8);

/// The weights of `international` (see [`Group`]): fitted by `texel international fit` to
/// 369 177 quiet positions of 3000 self-play games at depth 6 (see the commit that set them).
const INTERNATIONAL: Weights = [
    100, // man
    133, // dame
    126, // first_dame
    28,  // advance_1
    26,  // advance_2
    23,  // advance_3
    23,  // advance_4
    27,  // advance_5
    24,  // advance_6
    34,  // advance_7
    63,  // advance_8
    4,   // centre
    -4,  // edge
    33,  // back_rank
    0,   // backed
    85,  // runaway_1
    56,  // runaway_2
    38,  // runaway_3
    4,   // runaway_4
    -12, // runaway_5
    -2,  // dame_mobility
    -5,  // balance
    2,   // blocked
    21,  // dame_diagonal
    -16, // trade
    0,   // hunt
    0,   // man_mobility
];
/// The weights of the six 10x10 `scandinavian` rulesets: fitted by `texel scandinavian fit`
/// (see the commit that set them).
const SCANDINAVIAN_10: Weights = [
    100,  // man
    660,  // dame
    -242, // first_dame
    -1,   // advance_1
    -7,   // advance_2
    -2,   // advance_3
    -1,   // advance_4
    0,    // advance_5
    -2,   // advance_6
    16,   // advance_7
    58,   // advance_8
    -10,  // centre
    2,    // edge
    7,    // back_rank
    0,    // backed
    209,  // runaway_1
    147,  // runaway_2
    108,  // runaway_3
    49,   // runaway_4
    -9,   // runaway_5
    -4,   // dame_mobility
    -4,   // balance
    4,    // blocked
    13,   // dame_diagonal
    1,    // trade
    2,    // hunt
    0,    // man_mobility
];
/// The weights of the six `scandinavian-8x8` rulesets: fitted by `texel scandinavian-8x8 fit`
/// in two rounds (see the commit that set them).
const SCANDINAVIAN_8: Weights = [
    100,  // man
    581,  // dame
    -229, // first_dame
    16,   // advance_1
    12,   // advance_2
    10,   // advance_3
    8,    // advance_4
    30,   // advance_5
    81,   // advance_6
    0,    // advance_7
    0,    // advance_8
    -13,  // centre
    -4,   // edge
    25,   // back_rank
    -9,   // backed
    62,   // runaway_1
    69,   // runaway_2
    42,   // runaway_3
    6,    // runaway_4
    -45,  // runaway_5
    -8,   // dame_mobility
    -1,   // balance
    9,    // blocked
    25,   // dame_diagonal
    0,    // trade
    26,   // hunt
    0,    // man_mobility
];
/// The weights of `english`: fitted by `texel english fit` to 321 281 quiet positions of 3000
/// self-play games at depth 6, the dames' hunt held at the hand-set weight (fitted freely it came
/// out negative, and that fit scored +91 Elo against the hand-set weights where this one scores
/// +143; see the commit that set them).
const ENGLISH: Weights = [
    100, // man
    178, // dame
    51,  // first_dame
    56,  // advance_1
    41,  // advance_2
    45,  // advance_3
    49,  // advance_4
    55,  // advance_5
    71,  // advance_6
    0,   // advance_7
    0,   // advance_8
    -4,  // centre
    -6,  // edge
    77,  // back_rank
    1,   // backed
    20,  // runaway_1
    15,  // runaway_2
    5,   // runaway_3
    14,  // runaway_4
    40,  // runaway_5
    2,   // dame_mobility
    -5,  // balance
    9,   // blocked
    -6,  // dame_diagonal
    25,  // trade
    6,   // hunt
    7,   // man_mobility
];

/// The weights of ruleset `V`.
pub const fn weights<V: Variant>() -> &'static Weights {
    Group::of::<V>().weights()
}

/// The masks the evaluation counts with, for one board.
#[derive(Debug)]
pub(crate) struct Masks {
    /// `rows[p][r]`: the squares `r` rows ahead of player `p`'s back rank.
    pub rows: [[u64; 10]; 2],
    pub centre: u64,
    pub edge: u64,
    /// The left half of the board (files a to e, or a to d).
    pub left: u64,
    /// The long diagonal: `a1`-`j10` where `a1` is dark, `a10`-`j1` where it is light.
    pub long_diagonal: u64,
    /// `behind[p][sq]`: the squares diagonally behind `sq` for player `p`.
    pub behind: [[u64; 64]; 2],
    /// `cone[p][sq]`: the squares ahead of `sq` for player `p` from which an enemy piece could
    /// step into a man's path (the triangle widening towards the far row).
    pub cone: [[u64; 64]; 2],
}

impl Masks {
    const fn new(g: &Geometry) -> Masks {
        let n = g.size;
        let mut m = Masks {
            rows: [[0; 10]; 2],
            centre: 0,
            edge: 0,
            left: 0,
            long_diagonal: 0,
            behind: [[0; 64]; 2],
            cone: [[0; 64]; 2],
        };
        let mut sq = 0;
        while sq < 64 {
            if g.valid & (1 << sq) != 0 {
                let cell = g.cell[sq] as usize;
                let (file, rank) = (cell % n, cell / n);
                m.rows[0][rank] |= 1 << sq;
                m.rows[1][n - 1 - rank] |= 1 << sq;
                if file >= 2 && file < n - 2 && rank + 2 >= n / 2 && rank <= n / 2 + 1 {
                    m.centre |= 1 << sq;
                }
                if file == 0 || file == n - 1 {
                    m.edge |= 1 << sq;
                }
                if file < n / 2 {
                    m.left |= 1 << sq;
                }
                if file == rank || file + rank == n - 1 {
                    m.long_diagonal |= 1 << sq;
                }
                // Behind: SW and SE for White, NW and NE for Black (direction numbers 5, 3
                // and 7, 1 of the core's order).
                m.behind[0][sq] = step_bit(g, sq, 3) | step_bit(g, sq, 5);
                m.behind[1][sq] = step_bit(g, sq, 1) | step_bit(g, sq, 7);
                let mut other = 0;
                while other < 64 {
                    if g.valid & (1 << other) != 0 {
                        let c = g.cell[other] as usize;
                        let (f, r) = (c % n, c / n);
                        let df = f.abs_diff(file);
                        if r > rank && df <= r - rank + 1 {
                            m.cone[0][sq] |= 1 << other;
                        }
                        if r < rank && df <= rank - r + 1 {
                            m.cone[1][sq] |= 1 << other;
                        }
                    }
                    other += 1;
                }
            }
            sq += 1;
        }
        m
    }
}

const fn step_bit(g: &Geometry, sq: usize, d: usize) -> u64 {
    let next = g.step[d][sq];
    if next == super::geometry::NONE {
        0
    } else {
        1 << next
    }
}

static EIGHT_A1_DARK: Masks = Masks::new(&Geometry::new(8, true));
static EIGHT_A1_LIGHT: Masks = Masks::new(&Geometry::new(8, false));
static TEN_A1_DARK: Masks = Masks::new(&Geometry::new(10, true));
static TEN_A1_LIGHT: Masks = Masks::new(&Geometry::new(10, false));

#[inline(always)]
pub(crate) fn masks<V: Variant>() -> &'static Masks {
    match (V::SIZE, V::A1_DARK) {
        (8, true) => &EIGHT_A1_DARK,
        (8, false) => &EIGHT_A1_LIGHT,
        (_, true) => &TEN_A1_DARK,
        (_, false) => &TEN_A1_LIGHT,
    }
}

/// The evaluation for the side to move, with the ruleset's weights.
pub(crate) fn evaluate<V: Variant>(state: &State) -> i32 {
    // The weights as a value known when compiling, so that a term weighted 0 costs nothing.
    let w: Weights = const { *weights::<V>() };
    evaluate_with_patterns::<V>(state, &w, patterns::shipped_for::<V>())
}

/// The evaluation for the side to move with weights `w` alone, without pattern tables.
#[inline(always)]
pub fn evaluate_with<V: Variant>(state: &State, w: &Weights) -> i32 {
    evaluate_with_patterns::<V>(state, w, None)
}

/// The evaluation for the side to move with weights `w` and, if given, pattern tables `p`
/// (see the `patterns` module): their score is added to the weighted terms before the
/// drawish-ending scale.
#[inline(always)]
pub fn evaluate_with_patterns<V: Variant>(state: &State, w: &Weights, p: Option<&Patterns>) -> i32 {
    let mut white = Score { w, total: 0 };
    side::<V>(state, Player::White, &mut white);
    let mut black = Score { w, total: 0 };
    side::<V>(state, Player::Black, &mut black);
    let learned = p.map_or(0, |p| p.score::<V>(state));
    let score = scaled(white.total - black.total + learned, drawish::<V>(state));
    match state.to_move {
        Player::White => score,
        Player::Black => -score,
    }
}

/// The counts of every term, White's less Black's: [`evaluate_with`] is their dot product with
/// the weights, [`scaled`] by [`drawish`], for White.
pub fn features<V: Variant>(state: &State) -> Features {
    let mut f = Counts { f: [0; N], sign: 1 };
    side::<V>(state, Player::White, &mut f);
    f.sign = -1;
    side::<V>(state, Player::Black, &mut f);
    f.f
}

/// For each side, whether the score is cut to a quarter when that side is ahead: with flying
/// dames, three pieces or fewer against a dame rarely win.
pub fn drawish<V: Variant>(state: &State) -> ByPlayer<bool> {
    let has_dame = |p: Player| state.pieces[p] & state.dames != 0;
    let few = |p: Player| state.pieces[p].count_ones() <= 3;
    ByPlayer::new(
        V::FLYING && few(Player::White) && has_dame(Player::Black),
        V::FLYING && few(Player::Black) && has_dame(Player::White),
    )
}

/// A score for White, cut to a quarter if the side ahead is `drawish`.
#[inline(always)]
pub fn scaled(score: i32, drawish: ByPlayer<bool>) -> i32 {
    let ahead = if score > 0 {
        Player::White
    } else {
        Player::Black
    };
    if drawish[ahead] {
        score / 4
    } else {
        score
    }
}

/// Where a side's counts go: a weighted sum, or a count per term.
trait Sink {
    fn add(&mut self, term: usize, count: i32);
    /// Whether the term's count matters: a term weighted 0 need not be counted for a score.
    fn wants(&self, term: usize) -> bool;
}

struct Score<'a> {
    w: &'a Weights,
    total: i32,
}

impl Sink for Score<'_> {
    #[inline(always)]
    fn add(&mut self, term: usize, count: i32) {
        self.total += self.w[term] * count;
    }

    #[inline(always)]
    fn wants(&self, term: usize) -> bool {
        self.w[term] != 0
    }
}

struct Counts {
    f: Features,
    sign: i32,
}

impl Sink for Counts {
    #[inline(always)]
    fn add(&mut self, term: usize, count: i32) {
        self.f[term] += self.sign * count;
    }

    fn wants(&self, _term: usize) -> bool {
        true
    }
}

/// One side's terms.
#[inline(always)]
fn side<V: Variant>(state: &State, p: Player, sink: &mut impl Sink) {
    let m = masks::<V>();
    let g = geometry::<V>();
    let pi = p.index();
    let own = state.pieces[p];
    let them = state.pieces[!p];
    let men = own & !state.dames;
    let dames = own & state.dames;
    let enemy_men = them & !state.dames;
    let enemy_dames = them & state.dames;
    let count = |bb: u64| bb.count_ones() as i32;

    let (man_count, dame_count) = state.count(p);
    let (man_count, dame_count) = (man_count as i32, dame_count as i32);
    sink.add(MAN, man_count);
    sink.add(DAME, dame_count);
    sink.add(FIRST_DAME, dame_count.min(1));
    for row in 1..V::SIZE - 1 {
        sink.add(ADVANCE + row - 1, count(men & m.rows[pi][row]));
    }
    sink.add(CENTRE, count(men & m.centre));
    sink.add(EDGE, count(men & m.edge));
    if enemy_men != 0 {
        sink.add(BACK_RANK, count(men & m.rows[pi][0]));
    }
    let empty = g.valid & !(own | them);
    let mut backed = 0;
    for sq in Squares(men) {
        let s = usize::from(sq);
        if own & m.behind[pi][s] != 0 {
            backed += 1;
        }
        if enemy_dames == 0 && them & m.cone[pi][s] == 0 {
            let rows_left = (0..V::SIZE)
                .find(|&r| m.rows[pi][r] & bit(sq) != 0)
                .map_or(0, |r| V::SIZE - 1 - r);
            if (1..=5).contains(&rows_left) {
                sink.add(RUNAWAY + rows_left - 1, 1);
            }
        }
    }
    sink.add(BACKED, backed);
    if dames != 0 {
        let occupied = own | them;
        let mut mobility = 0;
        for sq in Squares(dames) {
            let mut reach = 0u64;
            let mut dirs = V::DAME_DIRECTIONS;
            while dirs != 0 {
                let d = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                if V::FLYING {
                    let ray = g.ray[d][usize::from(sq)];
                    let blockers = ray & occupied;
                    reach |= if blockers == 0 {
                        ray
                    } else {
                        let stop = nearest(blockers, g.shift[d]);
                        ray & !(g.ray[d][usize::from(stop)] | bit(stop))
                    };
                } else {
                    reach |= shifted(bit(sq) & g.can_step[d], g.shift[d]) & empty;
                }
            }
            mobility += count(reach);
        }
        sink.add(DAME_MOBILITY, mobility);
        sink.add(DAME_DIAGONAL, count(dames & m.long_diagonal));
    }
    sink.add(BALANCE, (count(men & m.left) - count(men & !m.left)).abs());
    let mut can_step = 0;
    let mut steps = 0;
    let mut dirs = man_steps(p);
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let stepping = men & g.can_step[d] & shifted(empty, -g.shift[d]);
        can_step |= stepping;
        steps += count(stepping);
    }
    sink.add(BLOCKED, count(men & !can_step));
    sink.add(MAN_MOBILITY, steps);
    let start = if V::SIZE == 10 { 40 } else { 24 };
    let gone = start - count(own | them);
    sink.add(TRADE, (man_count + dame_count) * gone / 8);
    let enemy_count = count(them);
    if dames != 0 && enemy_count <= 3 && man_count + dame_count > enemy_count && sink.wants(HUNT) {
        let n = V::SIZE;
        let at = |sq: u8| {
            let cell = usize::from(g.cell[usize::from(sq)]);
            (cell % n, cell / n)
        };
        let mut closeness = 0;
        for sq in Squares(dames) {
            let (file, rank) = at(sq);
            let nearest = Squares(them)
                .map(|e| {
                    let (f, r) = at(e);
                    f.abs_diff(file).max(r.abs_diff(rank))
                })
                .min()
                .unwrap_or(n - 1);
            closeness += (n - 1 - nearest) as i32;
        }
        sink.add(HUNT, closeness);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{International, InternationalRules};
    use denkmeter_core::{ByPlayer, Game};

    type Intl = InternationalRules;

    #[test]
    fn the_start_is_even() {
        let start = International::new().start();
        assert_eq!(evaluate::<Intl>(&start), 0);
    }

    #[test]
    fn a_man_more_is_worth_about_a_man_to_either_side() {
        let start = International::new().start();
        let black = start.pieces[Player::Black];
        // Black's first man (the lowest bit) taken away.
        let fewer = ByPlayer::new(start.pieces[Player::White], black & (black - 1));
        let white_to_move = State::new(fewer, 0, Player::White);
        let black_to_move = State::new(fewer, 0, Player::Black);
        let e = evaluate::<Intl>(&white_to_move);
        assert!((80..=140).contains(&e), "{e}");
        assert_eq!(evaluate::<Intl>(&black_to_move), -e);
    }

    #[test]
    fn a_dame_is_worth_more_than_a_man_in_every_group() {
        for group in Group::ALL {
            let w = group.weights();
            assert!(w[DAME] > w[MAN], "{group:?}");
            assert!(
                w[DAME] + w[FIRST_DAME] > w[MAN],
                "{group:?}: the first dame"
            );
        }
    }

    #[test]
    fn a_lone_dame_holds_three_pieces_to_a_draw_but_not_five() {
        let g = geometry::<Intl>();
        let squares: Vec<u8> = Squares(g.valid).collect();
        let white = |n: usize| squares[..n].iter().fold(0u64, |b, &sq| b | bit(sq));
        let lone = bit(squares[squares.len() - 1]);
        let three = State::new(
            ByPlayer::new(white(3), lone),
            white(3) | lone,
            Player::White,
        );
        let five = State::new(
            ByPlayer::new(white(5), lone),
            white(5) | lone,
            Player::White,
        );
        let w = weights::<Intl>();
        let unscaled = |s: &State| features::<Intl>(s).iter().zip(w).map(|(c, w)| c * w).sum();
        let (e3, e5) = (evaluate::<Intl>(&three), evaluate::<Intl>(&five));
        let (u3, u5): (i32, i32) = (unscaled(&three), unscaled(&five));
        assert!(u3 > 0 && u5 > u3, "{u3} {u5}");
        assert_eq!(e3, u3 / 4, "three dames against one");
        assert_eq!(e5, u5, "five dames against one");
    }

    #[test]
    fn a_free_path_to_the_crown_counts_near_the_end() {
        let m = masks::<Intl>();
        // A white man on the row before the far one, a black man on its own back rank: out of
        // the white man's way, or in it.
        let near = Squares(m.rows[0][8]).next().expect("a square");
        let cone = m.cone[0][usize::from(near)];
        let in_way = Squares(m.rows[1][0] & cone).next().expect("a square ahead");
        let aside = Squares(m.rows[1][0] & !cone)
            .last()
            .expect("a square aside");
        let free = State::new(ByPlayer::new(bit(near), bit(aside)), 0, Player::White);
        let blocked = State::new(ByPlayer::new(bit(near), bit(in_way)), 0, Player::White);
        // The weighted terms: the learned patterns see the men too, and may value the ending
        // otherwise; the full evaluation must still prefer the free path.
        let w = weights::<Intl>();
        let (e_free, e_blocked) = (
            evaluate_with::<Intl>(&free, w),
            evaluate_with::<Intl>(&blocked, w),
        );
        assert!(e_free > e_blocked + 40, "{e_free} {e_blocked}");
        assert!(evaluate::<Intl>(&free) > evaluate::<Intl>(&blocked));
    }

    #[test]
    fn masks_see_the_board_from_each_side() {
        let m = masks::<Intl>();
        let g = geometry::<Intl>();
        for p in 0..2 {
            let all: u64 = m.rows[p].iter().fold(0, |a, r| a | r);
            assert_eq!(all, g.valid);
            assert_eq!(m.rows[p][0].count_ones(), 5);
        }
        assert_eq!(m.centre.count_ones(), 12);
        assert_eq!(m.edge.count_ones(), 10);
    }

    #[test]
    fn english_dames_ahead_are_drawn_towards_what_is_left() {
        use crate::draughts::{English, EnglishRules};
        let game = English::new();
        let at = |text: &str| game.parse_position(text).expect("a position");
        // Three white dames against a black dame in the double corner: near it, and far away.
        let near = at("7d/6D1/5D2/8/8/8/8/4D3 b");
        let far = at("7d/8/8/8/8/8/8/D1D1D3 b");
        let (e_near, e_far) = (
            -evaluate::<EnglishRules>(&near),
            -evaluate::<EnglishRules>(&far),
        );
        assert!(e_near > e_far + 20, "{e_near} {e_far}");
        // With as many pieces on each side, nobody is hunting.
        let even = at("7d/8/8/8/8/8/8/D7 b");
        let even_near = at("7d/6D1/8/8/8/8/8/8 b");
        assert_eq!(
            features::<EnglishRules>(&even)[HUNT],
            features::<EnglishRules>(&even_near)[HUNT]
        );
        assert_eq!(features::<EnglishRules>(&even)[HUNT], 0);
    }
}
