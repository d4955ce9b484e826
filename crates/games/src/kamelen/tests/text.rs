//! Move notation and position strings: round trips, case, `-` and `x`, and errors.

use denkmeter_core::{Playthrough, PositionError};
use proptest::prelude::*;

use super::*;

#[test]
fn notation_round_trips_in_random_games() {
    for (g, state) in random_states(21, 8, 400) {
        for mv in moves_in(&g, &state) {
            let text = g.move_text(&state, mv);
            assert_eq!(g.parse_move(&state, &text), Ok(mv), "{text}");
            let swapped: String = text
                .chars()
                .map(|c| match c {
                    '-' => 'x',
                    'x' => '-',
                    c => c.to_ascii_uppercase(),
                })
                .collect();
            assert_eq!(g.parse_move(&state, &swapped), Ok(mv), "{swapped}");
        }
    }
}

#[test]
fn captures_are_written_with_x_and_other_moves_with_a_dash() {
    let state = setup("Cf6 dg9 Cc2 cc10", 'w');
    let all = texts(&state);
    assert!(all.contains(&"f6xg9".to_string()));
    assert!(all.contains(&"f6-e9".to_string()));
    assert!(!all.contains(&"f6-g9".to_string()));
}

#[test]
fn dash_and_x_are_read_alike_and_case_does_not_matter() {
    let g = game();
    let start = g.start();
    let mv = g.parse_move(&start, "e1-h3").unwrap();
    assert_eq!(g.move_text(&start, mv), "e1-h3");
    for text in ["E1-H3", "e1xh3", "E1XH3", " e1-h3 ", "e1Xh3"] {
        assert_eq!(g.parse_move(&start, text), Ok(mv), "{text}");
    }
    let state = setup("Cf6 dg9 Cc2 cc10", 'w');
    let capture = g.parse_move(&state, "f6xg9").unwrap();
    assert_eq!(g.parse_move(&state, "F6-G9"), Ok(capture));
    let blocked = setup("Ca2 Xa3 Xb2 cj11", 'w');
    for text in ["pass", "PASS", " Pass "] {
        assert_eq!(g.parse_move(&blocked, text), Ok(Move::PASS));
    }
}

#[test]
fn squares_of_the_far_ranks_exist_only_on_the_longer_boards() {
    let long = Kamelen::with_variant(Variant::Ranks13);
    let state = setup_in(&long, "Cf9 Cc2 cc12", 'w');
    assert_eq!(
        long.parse_move(&state, "f9-e12").map(|m| m.to()),
        Ok(Some(sq_in(&long, "e12")))
    );
    assert!(matches!(
        long.parse_move(&state, "f9-f14"),
        Err(MoveError::Syntax { .. })
    ));
    assert!(matches!(
        game().parse_move(&game().start(), "f9-e12"),
        Err(MoveError::Syntax { .. })
    ));
}

#[test]
fn unreadable_moves_are_syntax_errors() {
    let g = game();
    let start = g.start();
    for text in [
        "",
        "   ",
        "e1",
        "e1h3",
        "e1-",
        "e1-h",
        "l1-h3",
        "e0-h3",
        "e1-h12",
        "e1-h33",
        "e01-h3",
        "e1=h3",
        "e1-h3 x",
        "e1--h3",
        "passe",
        "1e-3h",
        "\u{e9}1-h3",
        "e1-h3\u{e9}",
        "e1-\u{e9}",
        "e1-h3+",
        "-",
        "x",
        "ee1-h3",
        "e1-h999999999999999999999",
    ] {
        assert!(
            matches!(g.parse_move(&start, text), Err(MoveError::Syntax { .. })),
            "{text:?}: {:?}",
            g.parse_move(&start, text)
        );
    }
}

#[test]
fn moves_that_are_not_legal_are_refused_with_a_reason() {
    let g = game();
    let start = g.start();
    let reason = |state: &State, text: &str| match g.parse_move(state, text) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: {other:?}"),
    };
    assert!(reason(&start, "e1-h4").contains("cannot leap"));
    assert!(reason(&start, "c2-d5").contains("blocked on c4"));
    assert!(reason(&start, "b10-a7").contains("no animal"));
    assert!(reason(&start, "c3-c4").contains("no animal"));
    assert!(reason(&start, "f4-f5").contains("rock"));
    assert!(reason(&start, "pass").contains("may not pass"));
    let state = setup("Cf6 De9 Xg9 Cc2 cc10", 'w');
    assert!(reason(&state, "f6-e9").contains("own"));
    assert!(reason(&state, "f6-g9").contains("rock"));
}

#[test]
fn a_rejected_move_changes_nothing() {
    let g = game();
    let mut play = Playthrough::new(g.clone());
    let before = g.position_text(play.state());
    for text in ["e1-h4", "c2-d5", "pass", "zz"] {
        assert!(play.play_text(text).is_err());
        assert_eq!(g.position_text(play.state()), before);
        assert!(play.moves().is_empty());
    }
    let mut state = g.start();
    let copy = state.clone();
    assert!(g.play(&mut state, Move::new(2, 3)).is_err());
    assert!(g.play(&mut state, Move::PASS).is_err());
    assert_eq!(state, copy);
}

#[test]
fn positions_round_trip_in_random_games() {
    for (g, state) in random_states(22, 8, 400) {
        let text = g.position_text(&state);
        assert_eq!(pos_in(&g, &text), state, "{text}");
        assert_eq!(g.hash(&pos_in(&g, &text)), g.hash(&state));
    }
}

#[test]
fn rocks_read_as_x_either_case_and_print_as_capital_x() {
    let lower = START.replace('X', "x");
    assert_eq!(pos(&lower), game().start());
    assert_eq!(game().position_text(&pos(&lower)), START);
}

#[test]
fn bad_position_strings_are_errors_naming_the_field() {
    let g = game();
    let err = |text: &str| g.parse_position(text).unwrap_err();
    assert_eq!(err(""), PositionError::Empty);
    assert_eq!(
        err("11/11/11/11/11/11/11/11/11/11 w"),
        PositionError::RowCount {
            expected: 11,
            found: 10
        }
    );
    // The 11x12 start has one rank too many for the 11x11 board, and the other way round.
    let twelve = Kamelen::with_variant(Variant::Ranks12);
    assert!(matches!(
        g.parse_position(&twelve.position_text(&twelve.start())),
        Err(PositionError::RowCount {
            expected: 11,
            found: 12
        })
    ));
    assert!(matches!(
        twelve.parse_position(START),
        Err(PositionError::RowCount {
            expected: 12,
            found: 11
        })
    ));
    assert_eq!(
        err("ddddd1ddddd/1cccc1cccc1/11/2X2X2X2/11/11/11/2X2X2X2/11/1CCCC1CKCC1/DDDDD1DDDDD w"),
        PositionError::BadCharacter {
            row: 10,
            found: 'K'
        }
    );
    assert!(matches!(
        err("ddddd1ddddd/1cccc1cccc1/10/2X2X2X2/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDDD1DDDDD w"),
        PositionError::RowLength {
            row: 3,
            expected: 11,
            found: 10
        }
    ));
    assert!(matches!(
        err("ddddd1ddddd/1cccc1cccc1/12/2X2X2X2/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDDD1DDDDD w"),
        PositionError::BadNumber { row: 3, .. }
    ));
    assert!(matches!(
        err("ddddd1ddddd/1cccc1cccc1/11/2X2X2X2/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDDD1DDDDD"),
        PositionError::SideToMove(_)
    ));
    assert!(matches!(
        err(&START.replace(" w", " x")),
        PositionError::SideToMove(_)
    ));
    assert!(matches!(
        err(&format!("{START} w")),
        PositionError::SideToMove(_)
    ));
    // More animals or rocks than the box holds.
    let invalid = |text: &str| match g.parse_position(text) {
        Err(PositionError::Invalid(message)) => message,
        other => panic!("{text}: {other:?}"),
    };
    let nine_camels =
        "ddddd1ddddd/1cccc1cccc1/11/2X2X2X2/11/11/11/2X2X2X2/11/CCCCC1CCCC1/DDDDD1DDDDD w";
    assert!(invalid(nine_camels).contains("White has 9 camels"));
    let eleven = "ddddddddddd/1cccc1cccc1/11/2X2X2X2/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDDD1DDDDD w";
    assert!(invalid(eleven).contains("Black has 11 dromedaries"));
    let seven_rocks =
        "ddddd1ddddd/1cccc1cccc1/X10/2X2X2X2/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDDD1DDDDD w";
    assert!(invalid(seven_rocks).contains("7 rocks"));
    // Garbage never panics.
    for text in ["/", "//////////", "w", "11 w", "\u{e9}", "0/0 w", "-1/11 b"] {
        assert!(g.parse_position(text).is_err(), "{text:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn parse_position_never_panics(text in "\\PC{0,120}") {
        for g in all_rulesets() {
            let _ = g.parse_position(&text);
        }
    }

    #[test]
    fn parse_position_of_likely_characters_never_panics(
        text in "[cdxCDX0-9/]{0,90} [wb ]{0,2}"
    ) {
        for g in all_rulesets() {
            if let Ok(state) = g.parse_position(&text) {
                let again = g.position_text(&state);
                prop_assert_eq!(g.parse_position(&again), Ok(state));
            }
        }
    }

    #[test]
    fn parse_move_never_panics(text in "\\PC{0,16}", likely in "[a-lA-L0-9xX\\- ]{0,8}") {
        let g = game();
        let start = g.start();
        for t in [&text, &likely] {
            if let Ok(mv) = g.parse_move(&start, t) {
                let mut moves = Vec::new();
                g.legal_moves(&start, &mut moves);
                prop_assert!(moves.contains(&mv));
            }
        }
    }
}
