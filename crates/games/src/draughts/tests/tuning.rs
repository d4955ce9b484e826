//! The evaluation as a weight vector: the refactor kept every value, the counts are symmetric,
//! and each term counts what it says.

use super::*;
use crate::draughts::eval::{self, masks};
use crate::draughts::geometry::{nearest, shifted};
use crate::draughts::tuning::{self, Group};

/// The evaluation as it was before it became a weight vector, kept verbatim (but for names)
/// as the reference the refactor is measured against.
mod reference {
    use super::*;

    #[derive(Clone, Copy)]
    pub struct Weights {
        pub man: i32,
        pub dame: i32,
        pub advance: [i32; 9],
        pub centre: i32,
        pub edge: i32,
        pub back_rank: i32,
        pub backed: i32,
        pub runaway: i32,
        pub runaway_step: i32,
        pub dame_mobility: i32,
    }

    pub const fn weights<V: Variant>() -> Weights {
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

    pub fn evaluate<V: Variant>(state: &State) -> i32 {
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

    fn side<V: Variant>(state: &State, p: Player) -> i32 {
        let w = weights::<V>();
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
}

/// Calls `check` on the positions of random games and on random positions of ruleset `V`.
pub(super) fn sample_positions<V: Variant>(seed: u64, mut check: impl FnMut(&State)) {
    random_games::<V>(seed, 40, 250, |s, _| check(s));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..2000 {
        check(&random_position::<V>(&mut rng));
    }
}

#[test]
fn the_hand_weights_give_the_evaluation_as_it_was() {
    fn check<V: Variant>() {
        let hand = Group::of::<V>().hand_weights();
        let mut seen = 0;
        sample_positions::<V>(11, |s| {
            assert_eq!(
                tuning::evaluate_with::<V>(s, hand),
                reference::evaluate::<V>(s),
                "{}: {}",
                V::NAME,
                Draughts::<V>::new().position_text(s)
            );
            seen += 1;
        });
        assert!(seen > 3000, "{}: {seen}", V::NAME);
    }
    for_every_ruleset!(check);
}

#[test]
fn the_evaluation_uses_the_weights_of_its_group() {
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        let w = Group::of::<V>().weights();
        assert_eq!(tuning::weights::<V>(), w);
        sample_positions::<V>(12, |s| {
            let e = game.evaluate(s);
            let learned = super::super::patterns::shipped_for::<V>();
            assert_eq!(e, tuning::evaluate_with_patterns::<V>(s, w, learned));
            let f = tuning::features::<V>(s);
            let white = tuning::scaled(
                tuning::dot(&f, w) + learned.map_or(0, |p| p.score::<V>(s)),
                tuning::drawish::<V>(s),
            );
            let for_mover = match s.to_move {
                Player::White => white,
                Player::Black => -white,
            };
            assert_eq!(e, for_mover);
        });
    }
    for_every_ruleset!(check);
}

#[test]
fn the_groups_cover_the_rulesets() {
    assert_eq!(Group::of::<InternationalRules>(), Group::International);
    assert_eq!(
        Group::of::<ScandinavianRules<10, WEAK, false>>(),
        Group::Scandinavian10
    );
    assert_eq!(
        Group::of::<ScandinavianRules<8, MEDIUM, true>>(),
        Group::Scandinavian8
    );
    assert_eq!(Group::of::<EnglishRules>(), Group::English);
    assert_eq!(tuning::NAMES.len(), tuning::N);
}

#[test]
fn the_mirrored_position_negates_every_count() {
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        let mut nonzero = [0; tuning::N];
        sample_positions::<V>(13, |s| {
            let m = tuning::mirrored::<V>(s);
            assert_eq!(tuning::mirrored::<V>(&m), uncounted(s));
            let (f, fm) = (tuning::features::<V>(s), tuning::features::<V>(&m));
            let negated: Vec<i32> = f.iter().map(|c| -c).collect();
            assert_eq!(fm.to_vec(), negated, "{}", game.position_text(s));
            for (n, c) in nonzero.iter_mut().zip(f) {
                *n += usize::from(c != 0);
            }
            let d = tuning::drawish::<V>(s);
            let dm = tuning::drawish::<V>(&m);
            assert_eq!((d.white, d.black), (dm.black, dm.white));
            // The side to move sees the same position either way.
            assert_eq!(game.evaluate(s), game.evaluate(&m));
        });
        // Every term has been counted somewhere, but the rows an 8x8 board has not.
        for (i, n) in nonzero.into_iter().enumerate() {
            let absent = V::SIZE == 8 && (i == eval::ADVANCE + 6 || i == eval::ADVANCE + 7);
            assert_eq!(n == 0, absent, "{}: {}", V::NAME, tuning::NAMES[i]);
        }
    }
    for_every_ruleset!(check);
}

/// The counts of a position of ruleset `V` given as in [`setup`].
fn counts<V: Variant>(pieces: &str, side: char) -> tuning::Features {
    let game = Draughts::<V>::new();
    let s = game
        .parse_position(&setup::<V>(pieces, side))
        .expect("a valid position");
    tuning::features::<V>(&s)
}

type Intl = InternationalRules;

#[test]
fn balance_counts_the_men_one_wing_has_more_than_the_other() {
    // White: three men on the left half (files a-e), one on the right; Black: one each side.
    let f = counts::<Intl>("M:a1 M:c1 M:e3 M:g1 m:b10 m:j10", 'w');
    assert_eq!(f[eval::BALANCE], 2);
    let f = counts::<Intl>("M:a1 M:g1 m:b10 m:d10 m:f10 m:h10 m:j10", 'w');
    assert_eq!(f[eval::BALANCE], -1);
}

#[test]
fn a_man_with_no_square_to_step_to_is_blocked() {
    // White's a1 has b2 taken, c1 has d2 free; Black's b2 has a1 and c1 taken.
    let f = counts::<Intl>("M:a1 M:c1 m:b2 m:j10", 'w');
    assert_eq!(f[eval::BLOCKED], 1 - 1);
    // White's a1 has b2 taken; Black's b2 has c1 free.
    let f = counts::<Intl>("M:a1 m:b2 M:c3 m:j10", 'w');
    assert_eq!(f[eval::BLOCKED], 1);
    // A man on the edge has one square ahead, taken here.
    let f = counts::<Intl>("M:j2 M:i3 m:a9", 'w');
    assert_eq!(f[eval::BLOCKED], 1);
}

#[test]
fn man_mobility_counts_each_step_to_an_empty_square() {
    // White: c3 steps to b4 and d4, a1 to b2 only (edge), j2 to i3 only; Black: b10 to a9
    // and c9. Dames and captures do not count.
    let f = counts::<Intl>("M:a1 M:c3 M:j2 D:e1 m:b10", 'w');
    assert_eq!(f[eval::MAN_MOBILITY], 4 - 2);
    // Black's d4 takes c3's right step away and has c3 taken itself: only e3 is left to it.
    let f = counts::<Intl>("M:c3 m:d4", 'w');
    assert_eq!(f[eval::MAN_MOBILITY], 1 - 1);
}

#[test]
fn a_dame_on_the_long_diagonal_counts() {
    let f = counts::<Intl>("D:e5 m:a9", 'w');
    assert_eq!(f[eval::DAME_DIAGONAL], 1);
    assert_eq!(f[eval::FIRST_DAME], 1);
    let f = counts::<Intl>("D:e5 D:a1 D:f4 d:j10", 'w');
    assert_eq!(f[eval::DAME_DIAGONAL], 2 - 1);
    assert_eq!(f[eval::FIRST_DAME], 0);
    assert_eq!(f[eval::DAME], 2);
    // Where a1 is light the long diagonal runs from a10 to j1.
    let f = counts::<ScandinavianRules<10, STRONG, true>>("D:a10 D:e6 D:a2 m:j9", 'w');
    assert_eq!(f[eval::DAME_DIAGONAL], 2);
    let f = counts::<EnglishRules>("D:h8 m:a7", 'w');
    assert_eq!(f[eval::DAME_DIAGONAL], 1);
}

#[test]
fn material_counts_for_more_when_little_is_left() {
    // The pieces times the pieces gone from the board, over 8.
    let f = counts::<Intl>("M:a1 M:c1 M:e1 m:b10 m:d10", 'w');
    // 40 - 5 = 35 gone: 3 * 35 / 8 - 2 * 35 / 8 = 13 - 8.
    assert_eq!(f[eval::TRADE], 5);
    let start = tuning::features::<Intl>(&International::new().start());
    assert_eq!(start[eval::TRADE], 0);
}

#[test]
fn quiet_means_neither_side_could_capture() {
    let game = International::new();
    let quiet = |pieces: &str, side: char| {
        let s = game
            .parse_position(&setup::<Intl>(pieces, side))
            .expect("a valid position");
        tuning::is_quiet::<Intl>(&s)
    };
    assert!(quiet("M:a1 m:j10", 'w'));
    // Either side, if it were to move, could take the other's man.
    assert!(!quiet("M:c3 m:d4", 'w'));
    assert!(!quiet("M:c3 m:d4", 'b'));
    assert!(tuning::is_quiet::<Intl>(&game.start()));
}
