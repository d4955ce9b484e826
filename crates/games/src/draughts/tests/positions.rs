//! Position strings: round trips, invalid and malformed positions, fuzzing.

use denkmeter_core::PositionError;
use proptest::prelude::*;

use super::*;

#[test]
fn position_strings_round_trip() {
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        random_games::<V>(3, 6, 200, |s, _| {
            let text = game.position_text(s);
            assert_eq!(game.parse_position(&text), Ok(uncounted(s)), "{text}");
        });
    }
    for_every_ruleset!(check);
}

fn invalid<V: Variant>(text: &str) -> String {
    match Draughts::<V>::new().parse_position(text) {
        Err(PositionError::Invalid(reason)) => reason,
        other => panic!("{text}: expected an invalid position, got {other:?}"),
    }
}

#[test]
fn pieces_stand_on_dark_squares_only() {
    type V = Scandinavian8x8Rules;
    type E = EnglishRules;
    // a1 is light on the Scandinavian board, dark on the English one; h1 the other way round.
    assert!(invalid::<V>("8/8/8/8/8/8/8/M7 w").contains("a1"));
    assert!(invalid::<V>("8/8/8/8/8/8/8/D7 b").contains("dark squares"));
    assert!(Scandinavian8x8::new()
        .parse_position("8/8/8/8/8/8/8/7d b")
        .is_ok());
    assert!(English::new().parse_position("8/8/8/8/8/8/8/M7 w").is_ok());
    assert!(invalid::<E>("8/8/8/8/8/8/8/7D w").contains("h1"));
    assert!(invalid::<InternationalRules>("10/10/10/10/10/10/10/10/10/1M8 w").contains("b1"));
}

#[test]
fn a_man_on_its_promotion_row_is_invalid() {
    type V = Scandinavian8x8Rules;
    // a8 is dark on the Scandinavian board (0 + 7 odd).
    let reason = invalid::<V>("M7/8/8/8/8/8/8/8 w");
    assert!(
        reason.contains("a8") && reason.contains("promotion"),
        "{reason}"
    );
    assert!(invalid::<V>("8/8/8/8/8/8/8/1m6 w").contains("b1"));
    // Dames may stand there, and men on their own first row.
    assert!(Scandinavian8x8::new()
        .parse_position("D7/8/8/8/8/8/8/1d6 w")
        .is_ok());
    assert!(Scandinavian8x8::new()
        .parse_position("m7/8/8/8/8/8/8/1M6 w")
        .is_ok());
}

#[test]
fn malformed_positions_are_errors() {
    type V = Scandinavian8x8Rules;
    let game = Scandinavian8x8::new();
    assert_eq!(game.parse_position(""), Err(PositionError::Empty));
    assert!(matches!(
        game.parse_position("8/8/8/8/8/8/8/8"),
        Err(PositionError::SideToMove(_))
    ));
    assert!(matches!(
        game.parse_position("8/8/8/8/8/8/8 w"),
        Err(PositionError::RowCount { .. })
    ));
    assert!(matches!(
        game.parse_position("8/8/8/8/8/8/8/7 w"),
        Err(PositionError::RowLength { .. })
    ));
    assert!(matches!(
        game.parse_position("8/8/8/8/8/8/8/1K6 w"),
        Err(PositionError::BadCharacter { found: 'K', .. })
    ));
    assert!(matches!(
        game.parse_position("10/8/8/8/8/8/8/8 w"),
        Err(PositionError::BadNumber { .. })
    ));
    let _ = position::<V>("8/8/8/8/8/8/8/8 w");
}

proptest! {
    #[test]
    fn arbitrary_position_strings_never_panic(text in "\\PC{0,80}") {
        let _ = Scandinavian::new().parse_position(&text);
        let _ = English::new().parse_position(&text);
    }

    #[test]
    fn position_like_strings_never_panic(text in "([0-9]{1,2}|[MDmdx]){0,10}(/([0-9]{1,2}|[MDmd]){0,10}){0,10} [wbx]?") {
        let _ = Scandinavian::new().parse_position(&text);
        let _ = Scandinavian8x8::new().parse_position(&text);
        let _ = International::new().parse_position(&text);
    }

    #[test]
    fn arbitrary_move_texts_never_panic(text in "\\PC{0,16}") {
        let game = Scandinavian::new();
        let _ = game.parse_move(&game.start(), &text);
    }

    #[test]
    fn move_like_texts_never_panic(text in "[a-lA-L][0-9]{1,3}([-xX][a-lA-L][0-9]{1,3}){0,4}") {
        let game = International::new();
        let s = game.start();
        let _ = game.parse_move(&s, &text);
        let english = English::new();
        let _ = english.parse_move(&english.start(), &text);
    }
}
