//! The search hooks: `move_gain`, `forcing` and `null_move` agree with the move list and the
//! rules over random games, and the evaluation is symmetric.

use std::ops::ControlFlow;

use super::*;
use crate::kamelen::movegen;

/// A side's worth as `move_gain` counts it: dromedaries, idle camels, and its able camels by
/// how many are left.
fn worth(g: &Kamelen, state: &State, p: Player) -> i32 {
    let able = g.able_camels(state, p).count();
    let camels = state.count(p, Piece::Camel);
    state.count(p, Piece::Dromedary) as i32 * DROMEDARY_VALUE
        + (camels - able) as i32 * IDLE_CAMEL_VALUE
        + ABLE_VALUE[able.min(4)]
}

/// The position seen from the other side: ranks reversed, colours and the side to move swapped
/// (the start and the home-fields are symmetric so).
fn mirrored(g: &Kamelen, state: &State) -> State {
    let text = g.position_text(state);
    let (board, side) = text.split_once(' ').unwrap();
    let rows: Vec<String> = board
        .split('/')
        .rev()
        .map(|row| {
            row.chars()
                .map(|c| match c {
                    'X' | 'x' => 'X',
                    c if c.is_ascii_uppercase() => c.to_ascii_lowercase(),
                    c => c.to_ascii_uppercase(),
                })
                .collect()
        })
        .collect();
    let side = if side == "w" { "b" } else { "w" };
    pos_in(g, &format!("{} {side}", rows.join("/")))
}

#[test]
fn the_search_hooks_agree_with_the_move_list() {
    let (mut captures, mut forced, mut wins) = (0, 0, 0);
    for (g, state) in random_states(91, 12, 250) {
        if g.status(&state).is_over() {
            continue;
        }
        let side = state.to_move();
        // Forcing: an enemy camel can land on our home-field.
        let home = g.home_field(side).0 as u8;
        let mut threat = false;
        let _ = movegen::for_each_move(g.tables, &state, !side, |mv| {
            threat |= mv.to == home && state.cells[mv.from as usize] & CAMEL != 0;
            ControlFlow::Continue(())
        });
        assert_eq!(g.forcing(&state), threat, "{}", g.position_text(&state));
        forced += usize::from(threat);
        for mv in moves_in(&g, &state) {
            let mut next = state.clone();
            g.play_unchecked(&mut next, mv);
            let mut expected = worth(&g, &state, !side) - worth(&g, &next, !side);
            if let Status::Over(outcome) = g.status(&next) {
                if outcome.reason == denkmeter_core::Reason::DoubleWin {
                    expected += WIN_NOW;
                    wins += 1;
                }
            }
            captures += usize::from(expected > 0);
            assert_eq!(g.move_gain(&state, mv), expected, "{mv:?}");
        }
        match g.null_move(&state) {
            Some(passed) => {
                assert!(!threat);
                assert_eq!(passed.to_move(), !side);
                assert_eq!(passed.cells, state.cells);
                assert_eq!(passed.hash, passed.compute_hash());
                assert_eq!(g.hash(&passed), g.hash(&passed.clone()));
            }
            None => assert!(threat || state.animals[side].count() < NULL_MOVE_ANIMALS),
        }
    }
    assert!(
        captures > 100 && forced > 3 && wins > 3,
        "{captures} {forced} {wins}"
    );
}

#[test]
fn the_evaluation_is_symmetric() {
    for (g, state) in random_states(92, 6, 200) {
        let mirror = mirrored(&g, &state);
        assert_eq!(g.hash(&mirrored(&g, &mirror)), g.hash(&state));
        assert_eq!(
            g.evaluate(&state),
            g.evaluate(&mirror),
            "{}",
            g.position_text(&state)
        );
    }
}

#[test]
fn a_capture_gains_what_the_animal_was_worth() {
    // White's camel on b7 takes Black's able camel on c10 (one of two able ones).
    let s = setup("Cb7 Cc2 cc10 ce10 dk10", 'w');
    let g = game();
    let take = g.parse_move(&s, "b7xc10").unwrap();
    assert_eq!(g.move_gain(&s, take), ABLE_VALUE[2] - ABLE_VALUE[1]);
    let quiet = moves_of(&s)
        .into_iter()
        .find(|&m| s.cells[m.to as usize] == EMPTY)
        .unwrap();
    assert_eq!(g.move_gain(&s, quiet), 0);
    // A camel one leap from f11 wins there; Black to move is forced to answer.
    let s = setup("Ce8 Cc2 cc10", 'w');
    let win = g.parse_move(&s, "e8-f11").unwrap();
    assert!(g.move_gain(&s, win) >= WIN_NOW);
    assert!(g.forcing(&setup("Ce8 Cc2 cc10", 'b')));
    assert!(!g.forcing(&setup("Ce8 Cc2 cc10", 'w')));
}

#[test]
fn the_levels_play_alpha_beta_on_every_board() {
    for g in all_rulesets() {
        assert_eq!(g.facts().search, denkmeter_core::SearchKind::AlphaBeta);
    }
}
