//! Position strings: malformed and invalid positions, fuzzing and round trips.

use proptest::prelude::*;

use super::*;

#[test]
fn malformed_positions_are_errors() {
    let game = chad();
    assert_eq!(game.parse_position(""), Err(PositionError::Empty));
    for text in [
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/12",
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/12 x",
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12 w",
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/11 w",
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/13 w",
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/11N w",
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/12 w w",
    ] {
        assert!(game.parse_position(text).is_err(), "{text}");
    }
}

fn invalid(text: &str) -> String {
    match chad().parse_position(text) {
        Err(PositionError::Invalid(reason)) => reason,
        other => panic!("{text}: expected an invalid position, got {other:?}"),
    }
}

#[test]
fn each_side_needs_exactly_one_king() {
    assert_eq!(
        invalid(&setup("k:I9", 'w')),
        "White has no king; each side has exactly one"
    );
    assert_eq!(
        invalid(&setup("K:D4 K:C3 k:I9", 'w')),
        "White has 2 kings; each side has exactly one"
    );
    assert_eq!(
        invalid(&setup("K:D4", 'w')),
        "Black has no king; each side has exactly one"
    );
}

#[test]
fn kings_must_stand_in_their_castles() {
    assert_eq!(
        invalid(&setup("K:F4 k:I9", 'w')),
        "the White king on F4 is outside its castle (C3-E5)"
    );
    assert_eq!(
        invalid(&setup("K:D4 k:D5", 'w')),
        "the Black king on D5 is outside its castle (H8-J10)"
    );
}

#[test]
fn rooks_cannot_stand_in_the_enemy_castle() {
    assert_eq!(
        invalid(&setup("K:D4 R:H8 k:J10", 'b')),
        "the White rook on H8 is inside the Black castle (it would have become a queen)"
    );
    assert_eq!(
        invalid(&setup("K:D4 r:E3 k:J10", 'w')),
        "the Black rook on E3 is inside the White castle (it would have become a queen)"
    );
    // Queens may stand anywhere.
    state("K:D4 Q:H8 k:J10", 'b');
    state("K:C3 q:E3 k:J10", 'w');
}

#[test]
fn the_side_not_to_move_may_not_be_in_check() {
    assert_eq!(
        invalid(&setup("K:D4 k:I9 r:D12", 'b')),
        "White is in check but it is Black's turn"
    );
    state("K:D4 k:I9 r:D12", 'w');
}

proptest! {
    #[test]
    fn arbitrary_position_strings_never_panic(text in "\\PC{0,80}") {
        let _ = chad().parse_position(&text);
    }

    #[test]
    fn position_like_strings_never_panic(text in "([0-9]{1,2}|[KRQkrqx]){0,14}(/([0-9]{1,2}|[KRQkrq]){0,14}){0,13} [wbx]?") {
        if let Ok(s) = chad().parse_position(&text) {
            let again = chad().position_text(&s);
            prop_assert_eq!(chad().parse_position(&again), Ok(s));
        }
    }

    #[test]
    fn arbitrary_move_texts_never_panic(text in "\\PC{0,12}") {
        let _ = chad().parse_move(&chad().start(), &text);
    }

    #[test]
    fn move_like_texts_never_panic(text in "[a-mA-M][0-9]{1,3}[-xX]?[a-mA-M][0-9]{1,3}(=[qQr])?[+#]?") {
        let _ = chad().parse_move(&chad().start(), &text);
        let _ = chad().parse_move(&position(EXAMPLE_BLACK), &text);
    }
}

#[test]
fn random_game_positions_round_trip() {
    let game = chad();
    random_games(3, 10, 200, |s, _| {
        let text = game.position_text(s);
        assert_eq!(game.parse_position(&text).as_ref(), Ok(s), "{text}");
    });
}
