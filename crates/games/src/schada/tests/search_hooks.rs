//! The search hooks over random games: `move_gain` is what the evaluation loses on the
//! captured side plus a high piece's arrival on its goal line; the evaluation is symmetric.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;

/// One side's part of the evaluation, from its tally.
fn worth(state: &State, p: Player) -> i64 {
    let t = tally(state, p);
    GOAL_LINE * t.goal_line
        + OFF_GOAL * t.off_goal
        + SEVENTH * t.sevenths
        + PAWN * i64::from(state.count(p, Piece::Pawn))
}

/// The position turned half round with the colours and the side to move swapped.
fn mirrored(state: &State) -> State {
    let g = game();
    let text = g.position_text(state);
    let (board, side) = text.split_once(' ').unwrap();
    let swapped: String = board
        .chars()
        .rev()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect();
    let side = if side == "w" { "b" } else { "w" };
    position(&format!("{swapped} {side}"))
}

/// Every position of a few random games.
fn random_states(seed: u64) -> Vec<State> {
    let g = game();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut states = Vec::new();
    for _ in 0..40 {
        let mut state = g.start();
        let mut moves = Vec::new();
        for _ in 0..200 {
            g.legal_moves(&state, &mut moves);
            if moves.is_empty() || g.status(&state).is_over() {
                break;
            }
            states.push(state.clone());
            let mv = moves[rng.gen_range(0..moves.len())];
            g.play_unchecked(&mut state, mv);
        }
    }
    states
}

#[test]
fn the_search_hooks_agree_with_the_move_list() {
    let g = game();
    let (mut captures, mut arrivals) = (0, 0);
    for state in random_states(21) {
        assert!(!g.forcing(&state));
        assert!(g.null_move(&state).is_none());
        let side = state.to_move;
        let mut moves = Vec::new();
        g.legal_moves(&state, &mut moves);
        for mv in moves {
            let mut next = state.clone();
            g.play_unchecked(&mut next, mv);
            let taken = worth(&state, !side) - worth(&next, !side);
            let high = movegen::kind_of(&state, mv.from).is_high();
            let arrives =
                high && goal_line(side) & bit(mv.to) != 0 && goal_line(side) & bit(mv.from) == 0;
            let promoted = if arrives {
                worth(&next, side) - worth(&state, side)
            } else {
                0
            };
            captures += usize::from(taken > 0);
            arrivals += usize::from(arrives);
            assert_eq!(
                i64::from(g.move_gain(&state, mv)),
                taken + promoted,
                "{mv:?}"
            );
            assert!(g.move_gain(&state, mv) >= 0);
        }
    }
    assert!(captures > 100 && arrivals > 10, "{captures} {arrivals}");
}

#[test]
fn the_evaluation_is_symmetric() {
    let g = game();
    for state in random_states(22) {
        let mirror = mirrored(&state);
        assert_eq!(mirrored(&mirror), state);
        assert_eq!(
            g.evaluate(&state),
            g.evaluate(&mirror),
            "{}",
            g.position_text(&state)
        );
    }
}

#[test]
fn the_evaluation_ranks_clear_positions() {
    let g = game();
    let start = g.start();
    assert_eq!(g.evaluate(&start), 0);
    // White's Field Officer has reached the goal line; Black's is still at home.
    let ahead = position("Fofofof1/pppppppp/8/8/8/8/PPPPPPPP/1OFOFOFO b");
    assert!(g.evaluate(&ahead) < -500, "{}", g.evaluate(&ahead));
    // A pawn up, and a Field Officer up.
    let pawn = position("ofofofof/ppppppp1/8/8/8/8/PPPPPPPP/FOFOFOFO w");
    let officer = position("o1ofofof/pppppppp/8/8/8/8/PPPPPPPP/FOFOFOFO w");
    assert!(0 < g.evaluate(&pawn) && g.evaluate(&pawn) < g.evaluate(&officer));
}

#[test]
fn the_levels_play_alpha_beta() {
    assert_eq!(game().facts().search, denkmeter_core::SearchKind::AlphaBeta);
}
