//! Notation and bad input: clear errors, never a panic, and a refused move changes nothing.

use denkmeter_core::{MoveError, Playthrough};
use proptest::prelude::*;

use super::*;

#[test]
fn the_start_position_round_trips() {
    let g = game();
    assert_eq!(g.position_text(&g.start()), START);
    let text = "2F5/8/8/3o4/8/8/8/8 b";
    assert_eq!(g.position_text(&position(text)), text);
}

#[test]
fn moves_read_in_either_case_with_either_separator() {
    let g = game();
    let start = g.start();
    let a = g.parse_move(&start, "A1-A3").unwrap();
    assert_eq!(g.parse_move(&start, " a1xa3 ").unwrap(), a);
    assert_eq!(g.move_text(&start, a), "a1-a3");
}

#[test]
fn bad_moves_are_refused_clearly() {
    let g = game();
    let start = g.start();
    for text in ["", "a1", "a1-a9", "i1-a3", "a1--a3", "pass", "a1-a3-a5"] {
        assert!(
            matches!(g.parse_move(&start, text), Err(MoveError::Syntax { .. })),
            "{text:?}"
        );
    }
    // Well formed but not a path of a1.
    let err = g.parse_move(&start, "a1-a4").unwrap_err();
    assert!(matches!(err, MoveError::Illegal { .. }), "{err}");
    // A refused move changes nothing.
    let mut playthrough = Playthrough::new(g.clone());
    assert!(playthrough.play_text("b1-b2").is_err());
    assert_eq!(g.position_text(playthrough.state()), START);
    assert!(playthrough.moves().is_empty());
}

#[test]
fn bad_positions_are_refused_clearly() {
    let g = game();
    for (text, words) in [
        ("", "empty"),
        ("ofofofof/pppppppp/8/8/8/8/PPPPPPPP w", "rows"),
        (
            "ofofofof/pppppppp/8/8/8/8/PPPPPPPP/FOFOFOFK w",
            "unexpected character",
        ),
        (
            "ofofofof/pppppppp/8/8/8/8/PPPPPPPP/FOFOFOFO x",
            "side to move",
        ),
        ("ofofofof/ppppppppp/8/8/8/8/PPPPPPPP/FOFOFOFO w", "row 2"),
    ] {
        let e = g.parse_position(text).unwrap_err().to_string();
        assert!(e.contains(words), "{text:?}: {e}");
    }
}

proptest! {
    #[test]
    fn no_string_makes_the_parsers_panic(text in "\\PC{0,60}") {
        let g = game();
        let _ = g.parse_position(&text);
        let _ = g.parse_move(&g.start(), &text);
        let _ = Schada::on_board("fuzz", &text);
    }

    #[test]
    fn no_board_file_line_makes_the_loader_panic(line in "[a-iA-I][0-9] [NSEWnsew ;]{0,30}") {
        let text = format!("{RECONSTRUCTION}\n{line}");
        let _ = Schada::on_board("fuzz", &text);
    }
}
