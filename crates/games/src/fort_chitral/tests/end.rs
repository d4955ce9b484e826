//! The end of the game: the Fort, the loss below four pieces, the draw when both are below four,
//! the `no-loss-at-three` option, passing.

use denkmeter_core::{Outcome, Reason};

use super::*;

fn over(g: &FortChitral, state: &State) -> Option<Outcome> {
    g.status(state).outcome().cloned()
}

#[test]
fn filling_the_fort_wins() {
    for g in all_rulesets() {
        // White holds i9, j9 and i10 and steps into j10.
        let state = filled("Pi9 Pj9 Pi10 Pk11 pj12 pa1", 'w');
        assert_eq!(g.status(&state), Status::Ongoing);
        let after = played(&g, &state, "k11-j10");
        assert_eq!(after.fort_holder(), Some(Player::White));
        assert_eq!(
            over(&g, &after),
            Some(Outcome::win(Player::White, Reason::Goal))
        );
        assert!(
            moves_of(&g, &after).is_empty(),
            "a finished game has no moves"
        );
        // Black likewise, arriving by a jump.
        let state = filled("pi9 pj9 pj10 pk12 pk11 Pa1", 'b');
        let after = played(&g, &state, "k12-i10");
        assert_eq!(
            over(&g, &after),
            Some(Outcome::win(Player::Black, Reason::Goal))
        );
    }
}

#[test]
fn three_fort_squares_are_not_enough_and_mixed_fort_is_nothing() {
    for g in all_rulesets() {
        let state = filled("Pi9 Pj9 Pi10", 'b');
        assert_eq!(g.status(&state), Status::Ongoing);
        let state = filled("Pi9 Pj9 Pi10 pj10", 'w');
        assert_eq!(state.fort_holder(), None);
        assert_eq!(g.status(&state), Status::Ongoing);
    }
}

#[test]
fn the_fort_is_judged_whoever_is_to_move() {
    let g = standard();
    for side in ['w', 'b'] {
        let state = filled("pi9 pj9 pi10 pj10", side);
        assert_eq!(
            over(&g, &state),
            Some(Outcome::win(Player::Black, Reason::Goal))
        );
        assert!(moves_of(&g, &state).is_empty());
    }
}

#[test]
fn the_fort_comes_first_in_the_status_order() {
    // Black holds the Fort with its four pieces while White has three: Black wins by the goal,
    // not by White's shortage.
    for g in all_rulesets() {
        let state = at_setup("pi9 pj9 pi10 pj10 Pa1 Pb1 Pc1", 'w');
        assert_eq!(
            over(&g, &state),
            Some(Outcome::win(Player::Black, Reason::Goal))
        );
    }
}

#[test]
fn a_player_left_with_three_pieces_loses() {
    for g in [standard(), orthogonal()] {
        // Black has four pieces; White takes e6 and leaves it three.
        let state = at_setup("Pe5 pe6 Pe7 pa18 pb18 pc18 Pr1 Pq1 Pp1", 'w');
        assert_eq!(g.status(&state), Status::Ongoing);
        let after = played(&g, &state, "e5-f6");
        // f6 does not capture; e5 stepping away does nothing either.
        assert_eq!(after.count(Player::Black), 4);
        let state = at_setup("Pd5 pe6 Pe7 pa18 pb18 pc18 Pr1 Pq1 Pp1", 'w');
        let after = played(&g, &state, "d5-e5");
        assert_eq!(after.count(Player::Black), 3);
        assert_eq!(
            over(&g, &after),
            Some(Outcome::win(Player::White, Reason::TooFewPieces))
        );
        assert!(moves_of(&g, &after).is_empty());
        assert!(matches!(
            g.parse_move(&after, "a18-a17"),
            Err(MoveError::Illegal { .. })
        ));
    }
}

#[test]
fn below_four_is_judged_from_the_position() {
    let g = standard();
    for side in ['w', 'b'] {
        let state = at_setup("Pa1 Pb1 Pc1 pa18 pb18 pc18 pd18", side);
        assert_eq!(
            over(&g, &state),
            Some(Outcome::win(Player::Black, Reason::TooFewPieces))
        );
    }
}

#[test]
fn both_below_four_is_a_draw_in_every_ruleset() {
    for g in all_rulesets() {
        let state = at_setup("Pa1 Pb1 Pc1 pa18 pb18 pc18", 'w');
        assert_eq!(over(&g, &state), Some(Outcome::draw(Reason::TooFewPieces)));
        assert!(moves_of(&g, &state).is_empty());
    }
}

#[test]
fn no_loss_at_three_plays_on_below_four() {
    let g = no_loss();
    let state = at_setup("Pd5 pe6 Pe7 pa18 pb18 pc18 Pr1 Pq1 Pp1", 'w');
    let after = played(&g, &state, "d5-e5");
    assert_eq!(after.count(Player::Black), 3);
    assert_eq!(g.status(&after), Status::Ongoing);
    assert!(is_legal(&g, &after, "a18-a17"));
    // The player with four or more can still win at the Fort.
    let state = at_setup("Pi9 Pj9 Pi10 Pk11 pa18 pb18 pc18", 'w');
    assert_eq!(g.status(&state), Status::Ongoing);
    let after = played(&g, &state, "k11-j10");
    assert_eq!(
        over(&g, &after),
        Some(Outcome::win(Player::White, Reason::Goal))
    );
}

#[test]
fn no_loss_at_three_draws_once_both_are_below_four() {
    // White has three pieces and takes one of Black's four.
    let g = no_loss();
    let state = at_setup("Pd5 pe6 Pe7 Pr1 pa18 pb18 pc18", 'w');
    assert_eq!(g.status(&state), Status::Ongoing);
    let after = played(&g, &state, "d5-e5");
    assert_eq!(over(&g, &after), Some(Outcome::draw(Reason::TooFewPieces)));
    assert!(moves_of(&g, &after).is_empty());
}

/// White's four pieces sit in the corners, each hemmed in by three Black pieces: White cannot
/// move (enemy pieces are never jumped) and must pass.
const WHITE_STUCK: &str = "Pa1 pa2 pb2 pb1 Pr1 pr2 pq2 pq1 Pa18 pa17 pb17 pb18 Pr18 pr17 pq17 pq18";

#[test]
fn a_player_who_cannot_move_passes() {
    for g in all_rulesets() {
        let state = at_setup(WHITE_STUCK, 'w');
        assert_eq!(moves_of(&g, &state), [Move::PASS]);
        assert_eq!(texts(&g, &state), ["pass"]);
        assert_eq!(g.status(&state), Status::Ongoing);
        let after = played(&g, &state, "PASS");
        assert_eq!(after.to_move(), Player::Black);
        assert_eq!(
            g.position_text(&after),
            g.position_text(&state).replace(" w", " b")
        );
        assert_eq!(perft(&g, &state, 1), 1);
        assert!(perft(&g, &state, 2) > 0);
        // A player who can move may not pass, and one who must pass may not move.
        assert!(matches!(
            g.parse_move(&g.start(), "pass"),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(
            g.parse_move(&state, "a1-a2"),
            Err(MoveError::Illegal { .. })
        ));
        let view = g.move_view(&state, Move::PASS);
        assert_eq!((view.from, view.to), (None, None));
    }
}

#[test]
fn a_player_without_pieces_passes_in_no_loss_at_three() {
    let g = no_loss();
    let state = at_setup("pa18 pb18 pc18 pd18", 'w');
    assert_eq!(g.status(&state), Status::Ongoing);
    assert_eq!(moves_of(&g, &state), [Move::PASS]);
    // The same position ends the game in the other rulesets.
    for g in [standard(), orthogonal()] {
        assert_eq!(
            over(&g, &state),
            Some(Outcome::win(Player::Black, Reason::TooFewPieces))
        );
    }
}

#[test]
fn a_finished_game_refuses_every_move() {
    let g = standard();
    let state = filled("pi9 pj9 pi10 pj10", 'w');
    for text in ["pass", "q1-p1"] {
        let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&state, text) else {
            panic!("{text} should be refused");
        };
        assert!(reason.contains("over"), "{reason}");
    }
}

#[test]
fn status_agrees_with_the_legal_moves_in_random_games() {
    for g in all_rulesets() {
        let mut finished = 0;
        for state in random_states(&g, 14, 8, 1500) {
            let moves = moves_of(&g, &state);
            assert_eq!(g.status(&state).is_over(), moves.is_empty());
            finished += usize::from(moves.is_empty());
        }
        assert!(finished > 0, "{}: random games should end", g.name());
    }
}
