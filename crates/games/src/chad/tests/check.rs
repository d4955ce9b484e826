//! Check, checkmate, stalemate and repetition.

use super::*;

#[test]
fn check_passes_through_walls() {
    // The rook on D12 checks across the wall square D6 and the empty D5.
    let s = state("K:D4 k:I9 r:D12", 'w');
    assert!(movegen::in_check(&s));
    // A queen checks along a diagonal.
    let s = state("K:D4 k:I9 q:A7", 'w');
    assert!(movegen::in_check(&s));
    // A rook does not check along a diagonal.
    let s = state("K:D4 k:I9 r:A7", 'w');
    assert!(!movegen::in_check(&s));
    // Capture rights play no part: the rook on L4 cannot capture, but checks.
    let s = state("K:D4 k:I9 r:L4", 'w');
    assert!(movegen::in_check(&s));
    // Any piece between blocks.
    let s = state("K:D4 k:I9 r:L4 R:H4", 'w');
    assert!(!movegen::in_check(&s));
}

#[test]
fn check_must_be_answered() {
    let s = state("K:D4 R:A6 k:I9 r:D12", 'w');
    let mut moves: Vec<String> = texts(&s).into_iter().collect();
    moves.sort();
    // The king steps off the D file, or the rook on A6 interposes on D6.
    assert_eq!(
        moves,
        sorted(&["A6-D6", "D4-C3", "D4-C4", "D4-C5", "D4-E3", "D4-E4", "D4-E5"])
    );
}

#[test]
fn a_pinned_piece_cannot_leave_the_line() {
    let s = state("K:D4 R:D5 k:I9 r:D12", 'w');
    let from_d5 = moves_from(&s, "D5");
    assert_eq!(
        from_d5,
        sorted(&["D5-D6", "D5-D7", "D5-D8", "D5-D9", "D5-D10", "D5-D11"])
    );
    assert_eq!(
        illegal_reason(&s, "D5-E5"),
        "it would leave the king in check"
    );
    // Diagonal pins by a queen too.
    let s = state("K:D4 R:E5 k:I9 q:H8", 'w');
    assert!(moves_from(&s, "E5").is_empty());
}

#[test]
fn the_king_may_not_step_along_the_checking_line() {
    let s = state("K:D4 k:I9 r:D12", 'w');
    assert!(!has(&s, "D4-D3"));
    assert!(!has(&s, "D4-D5"));
}

#[test]
fn stalemate_is_a_draw() {
    let s = state("K:D4 r:C12 r:E12 r:A3 r:L5 k:I9", 'w');
    assert!(!movegen::in_check(&s));
    assert!(legal(&s).is_empty());
    assert_eq!(
        chad().status(&s),
        Status::Over(Outcome::draw(Reason::Stalemate))
    );
}

#[test]
fn checkmate_wins() {
    let s = state("K:D4 r:C12 r:D12 r:E12 r:A3 r:L5 k:I9", 'w');
    assert!(movegen::in_check(&s));
    assert!(legal(&s).is_empty());
    assert_eq!(
        chad().status(&s),
        Status::Over(Outcome::win(Player::Black, Reason::Checkmate))
    );
    assert_eq!(
        illegal_reason(&s, "D4-C4"),
        "the game is over: the side to move has no legal move"
    );
}

#[test]
fn there_is_no_pass() {
    let s = chad().start();
    assert!(matches!(
        chad().parse_move(&s, "pass"),
        Err(MoveError::Syntax { .. })
    ));
}

#[test]
fn threefold_repetition_draws_through_the_playthrough() {
    let mut game = denkmeter_core::Playthrough::new(chad());
    for _ in 0..2 {
        for text in ["D5-D6", "I8-I7", "D6-D5", "I7-I8"] {
            assert_eq!(game.status(), Status::Ongoing);
            game.play_text(text).unwrap();
        }
    }
    assert_eq!(
        game.status(),
        Status::Over(Outcome::draw(Reason::Repetition))
    );
}
