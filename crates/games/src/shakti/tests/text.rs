//! Move notation and position strings: round trips and errors.

use denkmeter_core::PositionError;

use super::*;

#[test]
fn notation_round_trips_in_random_games() {
    let g = game();
    for state in random_states(21, 30, 400) {
        for mv in moves_of(&state) {
            let text = g.move_text(&state, mv);
            assert_eq!(g.parse_move(&state, &text), Ok(mv), "{text}");
            if let Some(removed) = mv.removed() {
                let long = format!("{text}({})", g.board().name(removed));
                assert_eq!(g.parse_move(&state, &long), Ok(mv), "{long}");
            }
        }
    }
}

#[test]
fn notation_accepts_piece_letters_brackets_and_case() {
    let g = game();
    let start = g.start();
    let b4 = g.parse_move(&start, "b2-b4").unwrap();
    assert_eq!(b4.removed(), Some(sq("b3")));
    for text in [
        "b2-b4(b3)",
        "Wb2-b4",
        "wb2-b4(b3)",
        "B2-B4",
        " b2-b4 ",
        "b2-b4+",
    ] {
        assert_eq!(g.parse_move(&start, text), Ok(b4), "{text}");
    }
    let d3 = g.parse_move(&start, "d2-d3").unwrap();
    assert_eq!(g.parse_move(&start, "Kd2-d3"), Ok(d3));
    let state = pos("-k4-/7/4w2/3K3/7/7/-5- w");
    let capture = g.parse_move(&state, "d4xe5").unwrap();
    assert_eq!(g.move_text(&state, capture), "d4xe5");
    for text in ["Kd4xe5", "kd4xe5", "D4XE5", "d4-e5"] {
        assert_eq!(g.parse_move(&state, text), Ok(capture), "{text}");
    }
    let stalemate = pos("-5-/-2k1-1/-3-2/-2-3/-1-4/--5/K------ w");
    assert_eq!(g.parse_move(&stalemate, "PASS"), Ok(Move::PASS));
}

#[test]
fn notation_syntax_errors() {
    let g = game();
    let start = g.start();
    for text in [
        "",
        "   ",
        "b2",
        "b2b4",
        "b2-",
        "b2-b",
        "h2-h3",
        "b0-b1",
        "b2-b8",
        "b2-b44",
        "b2=b4",
        "b2-b4(b3",
        "b2-b4()",
        "b2-b4 x",
        "Qd2-d3",
        "passe",
        "2b-4b",
        "b2-b4\u{e9}",
        "\u{e9}2-b4",
        "K\u{e9}",
    ] {
        assert!(
            matches!(g.parse_move(&start, text), Err(MoveError::Syntax { .. })),
            "{text:?}: {:?}",
            g.parse_move(&start, text)
        );
    }
}

#[test]
fn notation_illegal_errors() {
    let g = game();
    let start = g.start();
    for text in [
        "b2-b5",     // not a warrior move
        "b6-b5",     // Black's warrior, White to move
        "c3-c4",     // no piece
        "Kb2-b3",    // b2 holds a warrior
        "Wd2-d3",    // d2 holds the king
        "b2xb3",     // nothing to capture
        "b2-b4(c3)", // the jumped tile is b3
        "b2-b3(b3)", // a one-step move removes nothing
        "pass",      // White can move
        "d2-d4",     // the king goes to the first tile only
    ] {
        assert!(
            matches!(g.parse_move(&start, text), Err(MoveError::Illegal { .. })),
            "{text:?}: {:?}",
            g.parse_move(&start, text)
        );
    }
    // A warrior move while in check names the reason.
    let state = pos(FACT_CHECK);
    let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&state, "d3-a3") else {
        panic!("d3-a3 should be illegal");
    };
    assert!(!reason.is_empty());
}

#[test]
fn positions_round_trip_in_random_games() {
    let g = game();
    for state in random_states(22, 30, 400) {
        let text = g.position_text(&state);
        assert_eq!(pos(&text), state, "{text}");
    }
}

#[test]
fn fact_positions_round_trip() {
    // Corners may hold tiles in a position string.
    for text in [FACT_CHECK, FACT_NO_CHECK, START] {
        assert_eq!(game().position_text(&pos(text)), text);
    }
    assert!(pos(FACT_CHECK).has_tile(sq("a1")));
}

#[test]
fn bad_position_strings_are_errors() {
    let g = game();
    let invalid = |text: &str| matches!(g.parse_position(text), Err(PositionError::Invalid(_)));
    assert_eq!(g.parse_position(""), Err(PositionError::Empty));
    assert!(matches!(
        g.parse_position("-5-/1w1k1w1/7/7/7/1W1K1W1 w"),
        Err(PositionError::RowCount { .. })
    ));
    assert!(matches!(
        g.parse_position("-5-/1w1k1x1/7/7/7/1W1K1W1/-5- w"),
        Err(PositionError::BadCharacter { found: 'x', .. })
    ));
    assert!(matches!(
        g.parse_position("-5-/1w1k1w1/8/7/7/1W1K1W1/-5- w"),
        Err(PositionError::BadNumber { .. } | PositionError::RowLength { .. })
    ));
    assert!(matches!(
        g.parse_position("-5-/1w1k1w1/6/7/7/1W1K1W1/-5- w"),
        Err(PositionError::RowLength { .. })
    ));
    assert!(matches!(
        g.parse_position("-5-/1w1k1w1/7/7/7/1W1K1W1/-5-"),
        Err(PositionError::SideToMove(_))
    ));
    assert!(matches!(
        g.parse_position("-5-/1w1k1w1/7/7/7/1W1K1W1/-5- x"),
        Err(PositionError::SideToMove(_))
    ));
    // Two White kings, no White king, no Black king, three warriors.
    assert!(invalid("-5-/1w1k1w1/7/7/7/1WKK1W1/-5- w"));
    assert!(invalid("-5-/1w1k1w1/7/7/7/1W3W1/-5- w"));
    assert!(invalid("-5-/1w3w1/7/7/7/1W1K1W1/-5- w"));
    assert!(invalid("-5-/1w1k1w1/7/7/7/1WWK1W1/-5- w"));
    assert!(invalid("-5-/www1k2/7/7/7/1W1K1W1/-5- w"));
    // The kings see each other: adjacent, or across gaps.
    assert!(invalid("-5-/7/7/3k3/3K3/7/-5- w"));
    assert!(invalid("-5-/3k3/3-3/3-3/3-3/3K3/-5- b"));
    // The side not to move is in check.
    assert!(invalid("-3k1-/7/7/7/2w4/--5/K-4- b"));
    // Garbage never panics.
    for text in [
        "/",
        "///////",
        "7/7/7/7/7/7/7",
        "k w",
        "-5-/1w1k1w1/7/7/7/1W1K1W1/-5- w w",
        "\u{e9}",
    ] {
        assert!(g.parse_position(text).is_err(), "{text:?}");
    }
}
