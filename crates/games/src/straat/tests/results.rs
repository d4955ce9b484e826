//! The end: score, winner, breakdown; and the evaluation.

use denkmeter_core::{Outcome, Reason, Score};

use super::*;

#[test]
fn a_full_frame_is_scored_by_streets_on_both_faces() {
    let g = straight();
    // The cross of White's solid faces on the back counts twice.
    let state = pos(&g, "nNnN/nNnn/NNNN/nNnn w");
    assert_eq!(
        g.status(&state),
        Status::Over(Outcome {
            winner: Some(Player::White),
            reason: Reason::Score,
            score: Some(Score {
                white: 6,
                black: 4,
                breakdown: "front: White 4 (N-S 0, W-E 4), Black 4 (N-S 0, W-E 4); back: \
                            White 2 (N-S 1, W-E 1), Black 0 (N-S 0, W-E 0)"
                    .to_string()
            })
        })
    );
    assert!(moves_of(&g, &state).is_empty());
}

#[test]
fn equal_scores_draw() {
    let g = straight();
    let state = pos(&g, "NnNn/nNnN/NnNn/nNnN w");
    let outcome = g.status(&state).outcome().cloned().unwrap();
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.reason, Reason::Score);
    let score = outcome.score.unwrap();
    assert_eq!((score.white, score.black), (4, 4));
}

#[test]
fn more_black_streets_win_for_black() {
    let g = straight();
    // Behind, Black's solid faces fill rank 1, file a and d2, joining all four sides; White's touch north and east only. In front
    // every tile is black north.
    let state = pos(&g, "nNNN/nNNN/nNNn/nnnn w");
    let outcome = g.status(&state).outcome().cloned().unwrap();
    assert_eq!(outcome.winner, Some(Player::Black), "{outcome}");
    let score = outcome.score.unwrap();
    assert_eq!((score.white, score.black), (4, 4 + 2));
}

#[test]
fn the_game_is_not_over_while_a_cell_is_empty() {
    let g = straight();
    let state = pos(&g, "nNnN/nNnn/NNNN/nNn1 b");
    assert_eq!(g.status(&state), Status::Ongoing);
    assert_eq!(texts(&g, &state), ["d1n", "d1e", "d1s", "d1w"]);
}

#[test]
fn the_evaluation_prefers_completing_a_street() {
    let g = straight();
    // White's solid faces on a1-a3 behind; a4 completes a street there (and one in front).
    let state = pos(&g, "4/E2w/E2w/E2w w");
    let best = moves_of(&g, &state)
        .into_iter()
        .max_by_key(|&m| {
            let mut next = state.clone();
            g.play_unchecked(&mut next, m);
            -g.evaluate(&next)
        })
        .unwrap();
    assert!(g.move_text(&state, best).starts_with("a4"));
}

#[test]
fn the_evaluation_is_the_street_difference_and_more_for_the_side_to_move() {
    for g in all_rulesets() {
        for state in random_states(&g, 5, 3) {
            let streets = g.streets(&state);
            let me = g.to_move(&state);
            let diff = streets.score(me) as i32 - streets.score(!me) as i32;
            let eval = g.evaluate(&state);
            // Each street is 100; the reach term is at most 49 per direction per region.
            assert!((eval - 100 * diff).abs() < 100 * 40, "{eval} {diff}");
            // Symmetric: the opponent's view is the negation.
            let mut other = state.clone();
            other.switch_side();
            assert_eq!(g.evaluate(&other), -eval);
        }
    }
}

/// Black can always draw: answer each tile with one turned the same way on the cell opposite
/// through the centre (a 4x4 frame has no centre cell, so that cell is always free). The frame
/// then looks, on either face, like itself turned half a circle with the colours swapped, so
/// every street of one colour has a twin of the other. Whatever White does, the scores end
/// equal; so no player can beat a perfect Black, and the game can only be a draw or a win for
/// Black.
#[test]
fn black_draws_by_answering_opposite_through_the_centre() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5742);
    for g in all_rulesets() {
        for _ in 0..300 {
            let mut state = g.start();
            while g.status(&state) == Status::Ongoing {
                let moves = moves_of(&g, &state);
                let white = moves[rng.gen_range(0..moves.len())];
                g.play_unchecked(&mut state, white);
                let opposite = Cell(15 - white.cell().0);
                let answer = moves_of(&g, &state)
                    .into_iter()
                    .find(|m| {
                        m.cell() == opposite
                            && m.orientation() == white.orientation()
                            && m.solid_up() == white.solid_up()
                    })
                    .unwrap_or_else(|| panic!("{:?}: the opposite cell is free", g.variant()));
                g.play_unchecked(&mut state, answer);
            }
            let outcome = g.status(&state).outcome().cloned().unwrap();
            let score = outcome.score.unwrap();
            assert_eq!(
                (outcome.winner, score.white),
                (None, score.black),
                "{:?} {}: {}",
                g.variant(),
                g.position_text(&state),
                score.breakdown
            );
        }
    }
}
