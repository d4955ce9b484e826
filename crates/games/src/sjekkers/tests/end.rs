//! The end of the game: passing, draws, losses and wins.

use denkmeter_core::{Outcome, Reason};

use super::*;

#[test]
fn a_player_who_cannot_move_passes() {
    for g in [standard(), sideways()] {
        let state = pos(WHITE_BLOCKED);
        assert_eq!(moves_of(&g, &state), [Move::PASS]);
        assert_eq!(texts(&g, &state), ["pass"]);
        assert_eq!(g.status(&state), Status::Ongoing);
        let after = played(&g, &state, "PASS");
        assert_eq!(after.to_move(), Player::Black);
        assert_eq!(g.position_text(&after), "dd3/1D4/7/8/9/8/7/6/5 b");
        assert_eq!(texts(&g, &after), ["i5xg5", "i6xg4"]);
        let counts: Vec<u64> = (1..=3).map(|d| perft(&g, &state, d)).collect();
        assert_eq!(counts, [1, 2, 0]);
        // A player who can move may not pass.
        assert!(matches!(
            g.parse_move(&g.start(), "pass"),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(
            g.parse_move(&state, "h5-i5"),
            Err(MoveError::Illegal { .. })
        ));
        let view = g.move_view(&state, Move::PASS);
        assert_eq!((view.from, view.to), (None, None));
    }
}

#[test]
fn neither_player_can_move_is_a_draw() {
    for g in [standard(), sideways()] {
        for side in ['w', 'b'] {
            let text = NOBODY_MOVES.replace(" w", &format!(" {side}"));
            let state = pos(&text);
            assert!(moves_of(&g, &state).is_empty(), "{text}");
            assert_eq!(
                g.status(&state),
                Status::Over(Outcome::draw(Reason::NoMoves))
            );
            assert!(matches!(
                g.parse_move(&state, "pass"),
                Err(MoveError::Illegal { .. })
            ));
        }
    }
}

#[test]
fn checkers_player_who_cannot_move_loses() {
    let g = checkers();
    let state = pos(WHITE_BLOCKED);
    assert!(moves_of(&g, &state).is_empty());
    assert_eq!(
        g.status(&state),
        Status::Over(Outcome::win(Player::Black, Reason::NoMoves))
    );
    let state = pos(&NOBODY_MOVES.replace(" w", " b"));
    assert_eq!(
        g.status(&state),
        Status::Over(Outcome::win(Player::White, Reason::NoMoves))
    );
}

#[test]
fn capturing_every_enemy_piece_wins() {
    for g in all_rulesets() {
        let state = at_setup("De5 df6", 'w');
        let after = played(&g, &state, "e5xg7");
        assert!(moves_of(&g, &after).is_empty());
        assert_eq!(
            g.status(&after),
            Status::Over(Outcome::win(Player::White, Reason::NoPieces))
        );
    }
    // Black's Sjek takes White's last piece.
    let state = at_setup("Db2 sf6", 'b');
    let after = played(&standard(), &state, "f6xa1");
    assert_eq!(
        standard().status(&after),
        Status::Over(Outcome::win(Player::Black, Reason::NoPieces))
    );
}

#[test]
fn status_agrees_with_the_legal_moves() {
    for g in all_rulesets() {
        let mut finished = 0;
        for state in random_states(&g, 14, 40, 400) {
            let moves = moves_of(&g, &state);
            let status = g.status(&state);
            assert_eq!(
                status.is_over(),
                moves.is_empty(),
                "{}",
                g.position_text(&state)
            );
            if let Status::Over(outcome) = status {
                finished += 1;
                let side = state.to_move();
                if state.count(side, Piece::Disk) + state.count(side, Piece::Sjek) == 0 {
                    assert_eq!(outcome, Outcome::win(!side, Reason::NoPieces));
                } else {
                    assert_eq!(outcome.reason, Reason::NoMoves);
                }
            }
        }
        assert!(finished > 0, "{}: random games should end", g.name());
    }
}
