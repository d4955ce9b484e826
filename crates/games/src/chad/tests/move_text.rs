//! Move notation: the text format, parsing and its errors.

use super::*;

#[test]
fn move_text_format() {
    let s = position(EXAMPLE_WHITE);
    let game = chad();
    let mv = game.parse_move(&s, "H7xH9").unwrap();
    assert_eq!(game.move_text(&s, mv), "H7xH9");
    let mv = game.parse_move(&s, "D9-D12").unwrap();
    assert_eq!(game.move_text(&s, mv), "D9-D12");
}

#[test]
fn parse_accepts_case_suffixes_and_missing_separator() {
    let game = chad();
    let s = position(EXAMPLE_WHITE);
    let h7xh9 = game.parse_move(&s, "H7xH9").unwrap();
    for text in [
        "h7xh9", "H7XH9", "h7xh9=Q", "H7xH9=q", "H7xH9+", "H7xH9=Q+", "H7xH9#", " H7xH9 ", "H7-H9",
        "h7h9",
    ] {
        assert_eq!(game.parse_move(&s, text), Ok(h7xh9), "{text}");
    }
}

#[test]
fn syntax_errors_are_not_illegal_moves() {
    let s = chad().start();
    for text in [
        "", "   ", "D3", "D3-", "-D7", "M3-M4", "D0-D1", "D13-D1", "D3-D7x", "D3--D7", "D3-D7=R",
        "D3-D7=", "D3-D7++", "e5-e6!", "Z9", "é5-e6", "D03-D7", "pass", "D3 D7",
    ] {
        assert!(
            matches!(chad().parse_move(&s, text), Err(MoveError::Syntax { .. })),
            "{text:?}: {:?}",
            chad().parse_move(&s, text)
        );
    }
}

#[test]
fn illegal_moves_say_why() {
    let s = chad().start();
    assert_eq!(
        illegal_reason(&s, "D6-D7"),
        "no piece of the side to move on D6"
    );
    assert_eq!(
        illegal_reason(&s, "I8-I7"),
        "no piece of the side to move on I8"
    );
    assert_eq!(
        illegal_reason(&s, "D3-E2"),
        "a rook moves along a rank or file"
    );
    assert_eq!(
        illegal_reason(&s, "D3-D5"),
        "D5 is occupied by a piece of the side to move"
    );
    assert_eq!(illegal_reason(&s, "C4-F4"), "the way is blocked on D4");
    assert_eq!(
        illegal_reason(&s, "D4-D5"),
        "D5 is occupied by a piece of the side to move"
    );
    assert_eq!(
        illegal_reason(&s, "D5xD7"),
        "D7 captures nothing: write D5-D7"
    );
    assert_eq!(illegal_reason(&s, "D5-D7=Q"), "D5-D7 does not promote");
    let s = state("K:D4 Q:A1 k:I9", 'w');
    assert_eq!(
        illegal_reason(&s, "A1-B3"),
        "a queen moves along a rank, file or diagonal"
    );
    // A rejected move leaves the state unchanged (parse_move takes it by reference).
    assert_eq!(s, state("K:D4 Q:A1 k:I9", 'w'));
}

#[test]
fn every_legal_move_text_parses_back() {
    let game = chad();
    let mut promotions = 0;
    let mut captures = 0;
    random_games(1, 30, 250, |s, moves| {
        for &m in moves {
            let text = game.move_text(s, m);
            assert_eq!(game.parse_move(s, &text), Ok(m), "{s:?} {text}");
            assert_eq!(game.parse_move(s, &text.to_lowercase()), Ok(m));
            if m.is_promotion() {
                promotions += 1;
                assert_eq!(game.parse_move(s, &format!("{text}=Q")), Ok(m));
            }
            if m.is_capture() {
                captures += 1;
            }
        }
    });
    assert!(promotions > 0 && captures > 0, "{promotions} {captures}");
}

#[test]
fn move_is_small() {
    assert!(std::mem::size_of::<Move>() <= 4);
    assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
}
