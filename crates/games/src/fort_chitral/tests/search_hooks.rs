//! The search hooks over random games of every ruleset: `move_gain` counts the pieces a move
//! captures and the win of a move that fills the Fort, the null move is a plain pass, and the
//! evaluation is symmetric and ranks clear positions.

use super::*;

/// The position with the ranks reversed and the colours and the side to move swapped: the
/// start and the Fort are symmetric so.
fn mirrored(state: &State) -> State {
    let text = standard().position_text(state);
    let (board, side) = text.split_once(' ').unwrap();
    let rows: Vec<String> = board
        .split('/')
        .rev()
        .map(|row| {
            row.chars()
                .map(|c| match c {
                    'P' => 'p',
                    'p' => 'P',
                    c => c,
                })
                .collect()
        })
        .collect();
    let side = if side == "w" { "b" } else { "w" };
    pos(&format!("{} {side}", rows.join("/")))
}

#[test]
fn the_search_hooks_agree_with_the_move_list() {
    for g in all_rulesets() {
        let (mut captures, mut forts) = (0, 0);
        for state in random_states(&g, 71, 6, 400) {
            if g.status(&state).is_over() {
                continue;
            }
            assert!(!g.forcing(&state));
            let side = state.to_move();
            for mv in moves_of(&g, &state) {
                let mut next = state.clone();
                g.play_unchecked(&mut next, mv);
                let taken = state.count(!side) - next.count(!side);
                let view = g.move_view(&state, mv);
                assert_eq!(view.captured.len(), taken);
                let fort = if next.fort_holder() == Some(side) {
                    forts += 1;
                    FORT_WIN
                } else {
                    0
                };
                captures += usize::from(taken > 0);
                assert_eq!(
                    g.move_gain(&state, mv),
                    PIECE_VALUE * taken as i32 + fort,
                    "{}: {mv:?} in {}",
                    g.name(),
                    g.position_text(&state)
                );
            }
            match g.null_move(&state) {
                Some(passed) => {
                    assert!(state.count(side) >= usize::from(NULL_MOVE_PIECES));
                    assert_eq!(passed.to_move(), !side);
                    assert_eq!(passed.board, state.board);
                    assert_eq!(passed.hash, passed.compute_hash());
                }
                None => assert!(state.count(side) < usize::from(NULL_MOVE_PIECES)),
            }
        }
        assert!(
            captures > 20 && forts > 0,
            "{}: {captures} {forts}",
            g.name()
        );
    }
}

#[test]
fn the_evaluation_is_symmetric() {
    let g = standard();
    for state in random_states(&g, 72, 3, 300) {
        let mirror = mirrored(&state);
        assert_eq!(mirrored(&mirror).hash, state.hash);
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
    let g = standard();
    assert_eq!(g.evaluate(&g.start()), 0);
    // A piece up.
    let up = filled("Pe5 Pf5 pe12", 'w');
    let even = filled("Pe5 pe12", 'w');
    assert!(g.evaluate(&up) > g.evaluate(&even) + 50);
    // Nearer the Fort, and holding Fort squares.
    let near = filled("Ph8 pe12", 'w');
    let far = filled("Pe5 pe12", 'w');
    let inside = filled("Pi9 pe12", 'w');
    assert!(g.evaluate(&inside) > g.evaluate(&near) && g.evaluate(&near) > g.evaluate(&far));
    // Three Fort squares held, the fourth free.
    let three = filled("Pi9 Pj9 Pi10 pe12", 'b');
    assert!(g.evaluate(&three) < -100, "{}", g.evaluate(&three));
}

#[test]
fn the_levels_play_alpha_beta_in_every_ruleset() {
    for g in all_rulesets() {
        assert_eq!(g.facts().search, denkmeter_core::SearchKind::AlphaBeta);
    }
}
