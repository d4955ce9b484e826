//! Move notation and position strings: round trips, errors, and random text.

use denkmeter_core::PositionError;
use proptest::prelude::*;

use super::*;

#[test]
fn notation_round_trips_in_random_games() {
    for g in all_rulesets() {
        for state in random_states(&g, 21, 3, 800) {
            for mv in moves_of(&g, &state) {
                let text = g.move_text(&state, mv);
                assert_eq!(g.parse_move(&state, &text), Ok(mv), "{text}");
                assert_eq!(g.parse_move(&state, &text.to_uppercase()), Ok(mv), "{text}");
                let with_x = text.replace('-', "x");
                assert_eq!(g.parse_move(&state, &with_x), Ok(mv), "{with_x}");
            }
        }
    }
}

#[test]
fn moves_are_written_from_dash_to() {
    let g = standard();
    let start = g.start();
    let mv = g.parse_move(&start, "i1-i2").unwrap();
    assert_eq!(g.move_text(&start, mv), "i1-i2");
    let state = filled("Pe5 Pe6 Pf7 Ph8", 'w');
    let mv = g.parse_move(&state, "e5-i9").unwrap();
    assert_eq!(g.move_text(&state, mv), "e5-i9");
    assert_eq!(format!("{mv:?}"), "Move(e5-i9)");
    assert_eq!(format!("{:?}", Move::PASS), "Move(pass)");
    // Two-digit ranks and the last file.
    let state = filled("Pr10 pj18", 'w');
    let mv = g.parse_move(&state, "r10-q11").unwrap();
    assert_eq!(g.move_text(&state, mv), "r10-q11");
}

#[test]
fn notation_accepts_x_case_and_spaces() {
    let g = standard();
    let start = g.start();
    let mv = g.parse_move(&start, "i1-i2").unwrap();
    for text in ["i1xi2", "I1-I2", "I1XI2", "i1Xi2", " i1-i2 ", "\ti1-i2\n"] {
        assert_eq!(g.parse_move(&start, text), Ok(mv), "{text:?}");
    }
    let stuck = at_setup(
        "Pa1 pa2 pb2 pb1 Pr1 pr2 pq2 pq1 Pa18 pa17 pb17 pb18 Pr18 pr17 pq17 pq18",
        'w',
    );
    for text in ["pass", "PASS", "Pass", " pass "] {
        assert_eq!(g.parse_move(&stuck, text), Ok(Move::PASS), "{text:?}");
    }
}

#[test]
fn notation_syntax_errors() {
    for g in all_rulesets() {
        let start = g.start();
        for text in [
            "",
            "   ",
            "i1",
            "i1i2",
            "i1-",
            "i1-i",
            "i-i2",
            "s1-s2",
            "a0-a1",
            "a1-a0",
            "a1-a19",
            "a19-a18",
            "a01-a2",
            "a1-a02",
            "a100-a2",
            "i1=i2",
            "i1--i2",
            "i1-i2-i3",
            "i1-i2 x",
            "passe",
            "pas",
            "1i-2i",
            "i1-i2\u{e9}",
            "\u{e9}1-i2",
            "i1-\u{e9}2",
            "i1 - i2",
            "i1_i2",
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
        "i1-i3",   // not a step, nothing to jump
        "i18-i17", // Black's piece, White to move
        "i5-i6",   // no piece
        "i1-j1",   // the square is taken
        "i1-i1",   // no move
        "pass",    // White can move
        "a1-r18",  // far away
    ] {
        assert!(
            matches!(g.parse_move(&start, text), Err(MoveError::Illegal { .. })),
            "{text:?}: {:?}",
            g.parse_move(&start, text)
        );
    }
    let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&start, "i5-i6") else {
        panic!("i5-i6 is illegal");
    };
    assert!(reason.contains("no piece on i5"), "{reason}");
    let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&start, "i1-j1") else {
        panic!("i1-j1 is illegal");
    };
    assert!(reason.contains("j1 is not empty"), "{reason}");
}

#[test]
fn a_rejected_move_changes_nothing() {
    let g = standard();
    let start = g.start();
    let mut state = start.clone();
    for text in ["i1-i3", "i18-i17", "zz", "pass"] {
        assert!(g.parse_move(&state, text).is_err());
    }
    // The checked play refuses a move that is not legal here.
    let foreign = g
        .parse_move(&played(&g, &start, "i1-i2"), "i18-i17")
        .unwrap();
    assert!(g.play(&mut state, foreign).is_err());
    assert_eq!(state, start);
    assert_eq!(g.hash(&state), g.hash(&start));
}

#[test]
fn positions_round_trip_in_random_games() {
    for g in all_rulesets() {
        for state in random_states(&g, 22, 4, 1500) {
            let text = g.position_text(&state);
            assert_eq!(pos(&text), state, "{text}");
            assert_eq!(g.parse_position(&text).unwrap().hash, state.hash);
        }
    }
}

#[test]
fn position_strings_use_two_digit_runs() {
    let state = filled("Pi9 pj10", 'b');
    let text = standard().position_text(&state);
    assert_eq!(
        text,
        "pp16/pp16/18/18/18/18/18/18/9p8/8P9/18/18/18/18/18/18/16PP/16PP b"
    );
    assert_eq!(pos(&text), state);
}

#[test]
fn bad_position_strings_are_errors() {
    let g = standard();
    let invalid = |text: &str| matches!(g.parse_position(text), Err(PositionError::Invalid(_)));
    assert_eq!(g.parse_position(""), Err(PositionError::Empty));
    assert!(matches!(
        g.parse_position(&START.replace("/18/PPP", "/PPP")),
        Err(PositionError::RowCount {
            expected: 18,
            found: 17
        })
    ));
    assert!(matches!(
        g.parse_position(&START.replace("pppppppppppppppppp", "ppppppppppppppppp")),
        Err(PositionError::RowLength {
            row: 1,
            expected: 18,
            found: 17
        })
    ));
    assert!(matches!(
        g.parse_position(&START.replace("pppppppppppppppppp", "ppppppppppppppppppp")),
        Err(PositionError::RowLength { row: 1, .. })
    ));
    assert!(matches!(
        g.parse_position(&START.replacen("/18/", "/19/", 1)),
        Err(PositionError::BadNumber { row: 2, .. })
    ));
    assert!(matches!(
        g.parse_position(&START.replacen("/18/", "/17/", 1)),
        Err(PositionError::RowLength { row: 2, .. })
    ));
    assert!(matches!(
        g.parse_position(&START.replacen("/18/", "/9K8/", 1)),
        Err(PositionError::BadCharacter { row: 2, found: 'K' })
    ));
    assert!(matches!(
        g.parse_position(&START.replace(" w", "")),
        Err(PositionError::SideToMove(_))
    ));
    assert!(matches!(
        g.parse_position(&START.replace(" w", " x")),
        Err(PositionError::SideToMove(_))
    ));
    assert!(matches!(
        g.parse_position(&START.replace(" w", " w w")),
        Err(PositionError::SideToMove(_))
    ));
    // Nineteen White pieces.
    assert!(invalid(&START.replacen("/18/", "/P17/", 1)));
    let Err(e) = g.parse_position(&START.replacen("/18/", "/P17/", 1)) else {
        panic!("19 pieces");
    };
    assert!(e.to_string().contains("White has 19 pieces"), "{e}");
    // Garbage never panics.
    for text in ["/", "w", "18 w", "\u{e9}", "P w", "18/18 b", "0/18 w"] {
        assert!(g.parse_position(text).is_err(), "{text:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_move_text_never_panics(text in "\\PC{0,12}") {
        let g = standard();
        let start = g.start();
        if let Ok(mv) = g.parse_move(&start, &text) {
            prop_assert!(moves_of(&g, &start).contains(&mv));
        }
    }

    #[test]
    fn random_squares_as_moves_never_panic(
        from in "[a-zA-Z][0-9]{1,3}", sep in "[-xX=]", to in "[a-zA-Z][0-9]{1,3}"
    ) {
        let g = standard();
        let start = g.start();
        let text = format!("{from}{sep}{to}");
        if let Ok(mv) = g.parse_move(&start, &text) {
            prop_assert_eq!(g.move_text(&start, mv).to_lowercase(), text.to_lowercase().replace('x', "-"));
        }
    }

    #[test]
    fn random_position_text_never_panics(text in "[pP0-9/ wbx]{0,60}") {
        let _ = standard().parse_position(&text);
    }

    #[test]
    fn random_boards_round_trip(cells in proptest::collection::vec(0u8..3, 324), black in any::<bool>()) {
        let g = standard();
        let mut white = 0;
        let mut blacks = 0;
        let pieces: Vec<String> = cells
            .iter()
            .enumerate()
            .filter_map(|(i, &c)| {
                let name = g.board().name(Cell(i as u16)).to_string();
                match c {
                    1 if white < 18 => { white += 1; Some(format!("P{name}")) }
                    2 if blacks < 18 => { blacks += 1; Some(format!("p{name}")) }
                    _ => None,
                }
            })
            .collect();
        let text = setup(&pieces.join(" "), if black { 'b' } else { 'w' });
        let state = g.parse_position(&text).unwrap();
        prop_assert_eq!(g.position_text(&state), text);
        prop_assert_eq!(state.count(Player::White), white);
        prop_assert_eq!(state.count(Player::Black), blacks);
    }
}
