//! Results: passing, draws, checkmate and the status.

use denkmeter_core::Outcome;

use super::*;

#[test]
fn stalemated_player_passes() {
    // The White king on a1 sees no tile in any direction; Black can move.
    let state = pos("-5-/-2k1-1/-3-2/-2-3/-1-4/--5/K------ w");
    assert!(!state.is_in_check(Player::White));
    assert_eq!(moves_of(&state), [Move::PASS]);
    assert_eq!(texts(&state), ["pass"]);
    assert_eq!(game().status(&state), Status::Ongoing);
    let after = played(&state, "pass");
    assert_eq!(after.to_move(), Player::Black);
    assert_eq!(
        game().position_text(&after),
        "-5-/-2k1-1/-3-2/-2-3/-1-4/--5/K------ b"
    );
    let counts: Vec<u64> = (1..=3).map(|d| perft(&game(), &state, d)).collect();
    assert_eq!(counts, [1, 8, 8]);
    // Passing is not allowed while a move exists.
    assert!(matches!(
        game().parse_move(&game().start(), "pass"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn neither_player_can_move_is_a_draw() {
    let state = pos("--k----/----1-1/-1-1-2/-1--1-1/-1-3-/---4/K------ w");
    assert!(moves_of(&state).is_empty());
    assert_eq!(
        game().status(&state),
        Status::Over(Outcome::draw(Reason::NoMoves))
    );
    assert!(matches!(
        game().parse_move(&state, "pass"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn checkmate_wins() {
    // The king on a1 is in check from c3 across b2's gap and has no tile next to it.
    let state = pos("-3k1-/7/7/7/2w4/--5/K-4- w");
    assert!(state.is_in_check(Player::White));
    assert!(moves_of(&state).is_empty());
    assert_eq!(
        game().status(&state),
        Status::Over(Outcome::win(Player::Black, Reason::Checkmate))
    );
}

#[test]
fn status_agrees_with_the_legal_moves() {
    let g = game();
    let mut finished = 0;
    for state in random_states(14, 60, 400) {
        let moves = moves_of(&state);
        let status = g.status(&state);
        assert_eq!(status.is_over(), moves.is_empty());
        if let Status::Over(outcome) = status {
            finished += 1;
            let side = state.to_move();
            if state.is_in_check(side) {
                assert_eq!(outcome, Outcome::win(!side, Reason::Checkmate));
            } else {
                assert_eq!(outcome, Outcome::draw(Reason::NoMoves));
            }
        }
        if moves == [Move::PASS] {
            assert!(!state.is_in_check(state.to_move()));
        }
    }
    assert!(finished > 0);
}
