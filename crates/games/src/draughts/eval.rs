//! The draughts evaluation: material with a dame's worth per ruleset, then the men's
//! advancement, centre and flank, the back rank kept, men backed from behind, runaway men, and
//! the dames' mobility; a flying-dame ending with too little material to win is scaled towards
//! a draw. Every term is counted on bitboards; the weights are hundredths of a man.

use denkmeter_core::Player;

use super::geometry::{bit, nearest, shifted, Geometry, Squares};
use super::variant::{geometry, Variant};
use super::State;

/// The weights of the evaluation, per ruleset family (see [`weights`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Weights {
    pub man: i32,
    pub dame: i32,
    /// By rows advanced from the own back rank (0) to the row before the far one.
    pub advance: [i32; 9],
    pub centre: i32,
    /// A man on the left or right edge.
    pub edge: i32,
    /// A man still on the own back rank, while the opponent has men to crown.
    pub back_rank: i32,
    /// A man with an own piece on a square diagonally behind it.
    pub backed: i32,
    /// A man no enemy piece can reach before it crowns, when the opponent has no dame: the
    /// bonus at the row before the far one, less `runaway_step` for each row farther.
    pub runaway: i32,
    pub runaway_step: i32,
    /// Each square a dame can move to.
    pub dame_mobility: i32,
}

/// The weights of a ruleset: flying dames are worth most where they also slide orthogonally
/// (Scandinavian), least where they only step (English).
pub(crate) const fn weights<V: Variant>() -> Weights {
    let dame = match (V::FLYING, V::DAME_DIRECTIONS == 0xFF) {
        (true, true) => 450,
        (true, false) => 320,
        (false, _) => 150,
    };
    let advance = if V::SIZE == 10 {
        [0, 1, 3, 5, 8, 11, 15, 20, 26]
    } else {
        [0, 2, 5, 9, 14, 20, 27, 0, 0]
    };
    Weights {
        man: 100,
        dame,
        advance,
        centre: 6,
        edge: -5,
        back_rank: 6,
        backed: 3,
        runaway: 70,
        runaway_step: 15,
        dame_mobility: 2,
    }
}

/// The masks the evaluation counts with, for one board.
#[derive(Debug)]
pub(crate) struct Masks {
    /// `rows[p][r]`: the squares `r` rows ahead of player `p`'s back rank.
    rows: [[u64; 10]; 2],
    centre: u64,
    edge: u64,
    /// `behind[p][sq]`: the squares diagonally behind `sq` for player `p`.
    behind: [[u64; 64]; 2],
    /// `cone[p][sq]`: the squares ahead of `sq` for player `p` from which an enemy piece could
    /// step into a man's path (the triangle widening towards the far row).
    cone: [[u64; 64]; 2],
}

impl Masks {
    const fn new(g: &Geometry) -> Masks {
        let n = g.size;
        let mut m = Masks {
            rows: [[0; 10]; 2],
            centre: 0,
            edge: 0,
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
fn masks<V: Variant>() -> &'static Masks {
    match (V::SIZE, V::A1_DARK) {
        (8, true) => &EIGHT_A1_DARK,
        (8, false) => &EIGHT_A1_LIGHT,
        (_, true) => &TEN_A1_DARK,
        (_, false) => &TEN_A1_LIGHT,
    }
}

/// The evaluation for the side to move.
pub(crate) fn evaluate<V: Variant>(state: &State) -> i32 {
    let us = state.to_move;
    let white = side::<V>(state, Player::White);
    let black = side::<V>(state, Player::Black);
    let mut score = white - black;
    if V::FLYING {
        score = drawish_ending(state, score);
    }
    match us {
        Player::White => score,
        Player::Black => -score,
    }
}

/// One side's terms.
fn side<V: Variant>(state: &State, p: Player) -> i32 {
    let w = const { weights::<V>() };
    let m = masks::<V>();
    let g = geometry::<V>();
    let pi = p.index();
    let own = state.pieces[p];
    let them = state.pieces[!p];
    let men = own & !state.dames;
    let dames = own & state.dames;
    let enemy_men = them & !state.dames;
    let enemy_dames = them & state.dames;

    let (man_count, dame_count) = state.count(p);
    let mut score = man_count as i32 * w.man + dame_count as i32 * w.dame;
    for (row, &weight) in w.advance.iter().enumerate().take(V::SIZE - 1) {
        score += weight * (men & m.rows[pi][row]).count_ones() as i32;
    }
    score += w.centre * (men & m.centre).count_ones() as i32;
    score += w.edge * (men & m.edge).count_ones() as i32;
    if enemy_men != 0 {
        score += w.back_rank * (men & m.rows[pi][0]).count_ones() as i32;
    }
    let empty = g.valid & !(own | them);
    for sq in Squares(men) {
        let s = usize::from(sq);
        if own & m.behind[pi][s] != 0 {
            score += w.backed;
        }
        if enemy_dames == 0 && them & m.cone[pi][s] == 0 {
            let rows_left = (0..V::SIZE)
                .find(|&r| m.rows[pi][r] & bit(sq) != 0)
                .map_or(0, |r| V::SIZE - 1 - r) as i32;
            score += (w.runaway - w.runaway_step * (rows_left - 1)).max(0);
        }
    }
    if dames != 0 {
        let occupied = own | them;
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
            score += w.dame_mobility * reach.count_ones() as i32;
        }
    }
    score
}

/// With flying dames, a side ahead but with three pieces or fewer against a dame rarely wins:
/// the score is cut to a quarter.
fn drawish_ending(state: &State, score: i32) -> i32 {
    let (ahead, behind) = if score > 0 {
        (Player::White, Player::Black)
    } else {
        (Player::Black, Player::White)
    };
    let few = state.pieces[ahead].count_ones() <= 3;
    let defender_has_dame = state.pieces[behind] & state.dames != 0;
    if few && defender_has_dame {
        score / 4
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{EnglishRules, International, InternationalRules, ScandinavianRules};
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
    fn a_dame_is_worth_most_where_it_slides_every_way() {
        let intl = weights::<Intl>().dame;
        assert!(intl > 300);
        assert!(weights::<ScandinavianRules<10, 0, true>>().dame > intl);
        assert!(weights::<EnglishRules>().dame < 200);
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
        let (e3, e5) = (evaluate::<Intl>(&three), evaluate::<Intl>(&five));
        assert!(e3 < 200, "three dames against one: {e3}");
        assert!(e5 > 800, "five dames against one: {e5}");
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
        let (e_free, e_blocked) = (evaluate::<Intl>(&free), evaluate::<Intl>(&blocked));
        assert!(e_free > e_blocked + 40, "{e_free} {e_blocked}");
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
}
