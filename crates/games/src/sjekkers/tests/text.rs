//! Move notation and position strings: round trips and errors.

use denkmeter_core::PositionError;

use super::*;

#[test]
fn notation_round_trips_in_random_games() {
    for g in all_rulesets() {
        for state in random_states(&g, 21, 20, 400) {
            for mv in moves_of(&g, &state) {
                let text = g.move_text(&state, mv);
                assert_eq!(g.parse_move(&state, &text), Ok(mv), "{text}");
                assert_eq!(g.parse_move(&state, &text.to_uppercase()), Ok(mv), "{text}");
            }
        }
    }
}

#[test]
fn notation_syntax_errors() {
    for g in all_rulesets() {
        let start = g.start();
        for text in [
            "",
            "   ",
            "c3",
            "c3d4",
            "c3-",
            "c3-d",
            "j1-j2",
            "a6-b6",
            "f1-g1",
            "c0-d1",
            "c3-d44",
            "c3=d4",
            "c3-d4-e5",
            "c3xd4-e5",
            "passe",
            "3c-4d",
            "c3-d4 x",
            "\u{e9}3-d4",
            "c3-d\u{e9}",
            "c3-d4\u{e9}",
        ] {
            assert!(
                matches!(g.parse_move(&start, text), Err(MoveError::Syntax { .. })),
                "{text:?}: {:?}",
                g.parse_move(&start, text)
            );
        }
    }
}

#[test]
fn notation_illegal_errors() {
    let g = standard();
    let start = g.start();
    for text in [
        "c3-d5",    // not a move of c3
        "g3-f3",    // Black's disk
        "d3-e3",    // no piece
        "c3xd3",    // captures nothing
        "pass",     // White can move
        "a1-c1",    // the landing is occupied
        "c3xe5xg7", // no chains here
        "c3-c4",    // sideways
    ] {
        assert!(
            matches!(g.parse_move(&start, text), Err(MoveError::Illegal { .. })),
            "{text:?}: {:?}",
            g.parse_move(&start, text)
        );
    }
    // A capture written as a step, and a step as a capture.
    let state = at_setup("Dc3 dd4 df6", 'w');
    let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&state, "c3-e5") else {
        panic!("c3-e5 is written wrong");
    };
    assert!(reason.contains('x'), "{reason}");
    // After the game is over.
    let over = pos(NOBODY_MOVES);
    let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&over, "h4-i5") else {
        panic!("the game is over");
    };
    assert!(reason.contains("over"), "{reason}");
    // A rejected move leaves nothing changed (parse_move takes the state by reference).
    assert_eq!(g.position_text(&start), START);
}

#[test]
fn positions_round_trip_in_random_games() {
    for g in all_rulesets() {
        for state in random_states(&g, 22, 20, 400) {
            let text = g.position_text(&state);
            assert_eq!(pos(&text), state, "{text}");
        }
    }
}

#[test]
fn bad_position_strings_are_errors() {
    let g = standard();
    let invalid = |text: &str| matches!(g.parse_position(text), Err(PositionError::Invalid(_)));
    assert_eq!(g.parse_position(""), Err(PositionError::Empty));
    assert_eq!(g.parse_position("  "), Err(PositionError::Empty));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD w"),
        Err(PositionError::RowCount {
            expected: 9,
            found: 8
        })
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD/DDDDD/5 w"),
        Err(PositionError::RowCount { found: 10, .. })
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/8/8/8/DDDDDDD/DDDDDD/DDDDD w"),
        Err(PositionError::RowLength {
            row: 5,
            expected: 9,
            found: 8
        })
    ));
    assert!(matches!(
        g.parse_position("dddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD/DDDDD w"),
        Err(PositionError::RowLength { row: 1, .. })
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/9/9/8/DDDDDDD/DDDDDD/DDDDD w"),
        Err(PositionError::BadNumber { row: 4, .. })
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/0/9/8/DDDDDDD/DDDDDD/DDDDD w"),
        Err(PositionError::BadNumber { .. })
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/99999999999999999999999/9/8/DDDDDDD/DDDDDD/DDDDD w"),
        Err(PositionError::BadNumber { .. })
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddkdddd/8/9/8/DDDDDDD/DDDDDD/DDDDD w"),
        Err(PositionError::BadCharacter { row: 3, found: 'k' })
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD/DDDDD"),
        Err(PositionError::SideToMove(_))
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD/DDDDD x"),
        Err(PositionError::SideToMove(_))
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD/DDDDD w w"),
        Err(PositionError::SideToMove(_))
    ));
    // A disk on its own far row would have been promoted; a Sjek may stand there.
    assert!(invalid("D4/6/7/8/9/8/7/6/d4 w"));
    assert!(invalid("d4/6/7/8/9/8/7/6/d4 w"));
    assert!(g.parse_position("S4/6/7/8/9/8/7/6/s4 w").is_ok());
    assert!(g.parse_position("d4/6/7/8/9/8/7/6/D4 w").is_ok());
    // Too many pieces.
    assert!(invalid(
        "ddddd/dddddd/ddddddd/d7/9/8/DDDDDDD/DDDDDD/DDDDD w"
    ));
    // The side that has just moved has no pieces.
    assert!(invalid("5/6/7/8/9/8/7/6/D4 w"));
    assert!(invalid("5/6/7/8/9/8/7/6/5 w"));
    assert!(g.parse_position("5/6/7/8/9/8/7/6/D4 b").is_ok());
    // Garbage never panics.
    for text in [
        "/",
        "////////",
        "5/6/7/8/9/8/7/6/5",
        "d w",
        "\u{e9}",
        "5/6/7/8/9/8/7/6/\u{e9} w",
    ] {
        assert!(g.parse_position(text).is_err(), "{text:?}");
    }
}
