//! The setup, perft from the start, position strings and move texts.

use denkmeter_core::{perft, Game, PositionError};

use super::{after, game, moves, position};
use crate::trangalla::START;

#[test]
fn perft_from_the_start_counts_five_then_twenty_five_setup_moves() {
    let g = game();
    assert_eq!(perft::perft_table(&g, &g.start(), 2), vec![(1, 5), (2, 25)]);
}

#[test]
fn the_start_is_before_the_setup_with_every_piece_on_its_start_point() {
    let g = game();
    assert_eq!(g.position_text(&g.start()), START);
    assert_eq!(
        moves(START),
        ["K@a2", "K@a3", "K@b1", "K@b2", "K@c1"],
        "White chooses his king among his five pieces"
    );
    let white_chose = after(START, "K@b2");
    assert_eq!(white_chose, "2ss1/3ss/S3s/SK3/1SS2 b setup");
    assert_eq!(
        moves(&white_chose),
        ["K@c5", "K@d4", "K@d5", "K@e3", "K@e4"]
    );
    assert_eq!(after(&white_chose, "K@d4"), "2ss1/3ks/S3s/SK3/1SS2 w");
}

#[test]
fn the_rules_file_example_position_reads_and_prints_back() {
    let text = "2ss1/3ks/S3s/SK3/1SS2 w";
    assert_eq!(game().position_text(&position(text)), text);
}

#[test]
fn a_setup_move_names_one_of_the_movers_pieces() {
    let g = game();
    let state = g.start();
    assert!(g.parse_move(&state, "K@d4").is_err(), "a Black point");
    assert!(g.parse_move(&state, "K@c3").is_err(), "an empty point");
    assert!(g.parse_move(&state, "k@B2").is_ok(), "case does not matter");
    let play = position("2ss1/3ks/S3s/SK3/1SS2 w");
    assert!(g.parse_move(&play, "K@b2").is_err(), "the kings are chosen");
}

#[test]
fn bad_positions_are_refused_with_a_reason() {
    let g = game();
    let refused = [
        ("", "empty"),
        ("2ss1/3ks/S3s/SK3 w", "four rows"),
        ("2ss1/3ks/S3s/SK3/1SS2", "no side"),
        ("2ss1/3ks/S3s/SK3/1SS2 x", "bad side"),
        ("2ss1/3ks/S3s/SK3/1SX2 w", "bad letter"),
        ("2ss1/3ks/S3s/SKK2/1SS2 w", "two White kings"),
        ("2ss1/3ks/S3s/SK3/SSS2 w", "a White piece on its home a1"),
        ("2sss/3ks/S3s/SK3/1SS2 w", "a Black piece on its home e5"),
        ("4S/3ks/S3s/SK3/1SS2 w", "a White soldier on its goal"),
        ("2ss1/3ks/S3s/SK3/sSS2 w", "a Black soldier on its goal"),
        ("SSSS1/SSSSS/S3s/SK3/1SS2 w", "too many pieces"),
        ("4K/3ks/S3s/S4/kSS2 w", "both kings on their goals"),
        (
            "2ss1/3ks/S3s/SK3/1SS2 w setup",
            "a Black king during the setup",
        ),
        (
            "2ss1/3ss/S3s/SS3/1SS2 b setup",
            "Black to choose but White has not",
        ),
        (
            "2ss1/3ss/S3s/SK3/1SS2 w setup",
            "White has chosen but is to choose",
        ),
        (
            "2ss1/3ss/S3s/S1S2/1SS2 w setup",
            "a piece off its start point",
        ),
    ];
    for (text, why) in refused {
        assert!(g.parse_position(text).is_err(), "{why}: {text:?} was read");
    }
    assert_eq!(g.parse_position("  "), Err(PositionError::Empty));
}

#[test]
fn positions_read_back_from_their_text() {
    for text in [
        START,
        "2ss1/3ss/S3s/SK3/1SS2 b setup",
        "2ss1/3ks/S3s/SK3/1SS2 w",
        "2k2/5/S4/S4/1S2K b",
        "4K/5/5/5/1s3 b",
    ] {
        assert_eq!(game().position_text(&position(text)), text);
    }
}

#[test]
fn moves_read_in_any_case_with_dash_or_x_and_short_when_unique() {
    let g = game();
    let state = position("2ss1/3ks/S3s/SK3/1SS2 w");
    let step = g.parse_move(&state, "b2-c2").expect("a step");
    assert_eq!(g.parse_move(&state, "B2xC2"), Ok(step));
    let jump = g.parse_move(&state, "a2xc2").expect("a jump");
    assert_eq!(g.parse_move(&state, "A2-C2"), Ok(jump));
    for bad in ["", "b2", "b2-f2", "b2-b9", "z", "b2--c2", "K@", "K@z9"] {
        assert!(g.parse_move(&state, bad).is_err(), "{bad:?} was read");
    }
    assert!(g.parse_move(&state, "b2-b4").is_err(), "not a move");
    assert!(g.parse_move(&state, "pass").is_err(), "White can move");
}
