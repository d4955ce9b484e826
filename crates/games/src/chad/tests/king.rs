//! The king: confined to its castle, moving as king and knight, never captured.

use super::*;

#[test]
fn king_is_confined_to_its_castle() {
    let s = state("K:C3 k:I9", 'w');
    assert_eq!(
        moves_from(&s, "C3"),
        sorted(&["C3-D3", "C3-C4", "C3-D4", "C3-D5", "C3-E4"])
    );
    let s = state("K:D4 k:J10", 'b');
    assert_eq!(
        moves_from(&s, "J10"),
        sorted(&["J10-I10", "J10-J9", "J10-I9", "J10-H9", "J10-I8"])
    );
    assert_eq!(
        illegal_reason(&state("K:C3 k:I9", 'w'), "C3-B3"),
        "the king may not leave its castle"
    );
}

#[test]
fn king_moves_as_king_and_knight() {
    let s = state("K:D4 k:I9", 'w');
    assert_eq!(
        moves_from(&s, "D4").len(),
        8,
        "the centre covers the whole castle"
    );
    let s = state("K:D5 k:I9", 'w');
    assert_eq!(
        moves_from(&s, "D5"),
        sorted(&["D5-C5", "D5-E5", "D5-C4", "D5-D4", "D5-E4", "D5-C3", "D5-E3"]),
        "a side square misses only the opposite side square"
    );
    // The knight's move jumps over pieces.
    let s = state("K:C3 R:D3 R:C4 R:D4 k:I9", 'w');
    assert_eq!(moves_from(&s, "C3"), sorted(&["C3-D5", "C3-E4"]));
    assert_eq!(
        illegal_reason(&state("K:C3 k:I9", 'w'), "C3-E5"),
        "the king moves one step or a knight's jump"
    );
}

#[test]
fn king_captures_only_inside_its_castle() {
    // The queen on D5 (inside White's castle, a knight's jump away) is taken by the king; the
    // rook on B4 (White's wall) is not, although it is next to the king.
    let s = state("K:C3 q:D5 r:B4 k:I9", 'w');
    assert!(has(&s, "C3xD5"));
    assert!(!has(&s, "C3xB4"));
    assert!(moves_from(&s, "C3").iter().all(|m| !m.ends_with("B4")));
    assert_eq!(
        illegal_reason(&s, "C3xB4"),
        "the king may not leave its castle"
    );
    let after = play(&s, "C3xD5");
    assert_eq!(
        after.piece_at(Cell(square("D5") as u16)),
        Some(Piece::WhiteKing)
    );
    assert_eq!(after.king(Player::White), Cell(square("D5") as u16));
}

#[test]
fn king_may_not_capture_into_check() {
    // Taking the queen on D5 would put the king on the D file of the rook on D12.
    let s = state("K:C3 R:A1 q:D5 r:D12 k:I9", 'w');
    assert!(!has(&s, "C3xD5"));
    assert_eq!(
        illegal_reason(&s, "C3xD5"),
        "it would leave the king in check"
    );
}

#[test]
fn kings_are_never_captured() {
    // A king in line with an enemy rook on its wall is in check: that side must move, so the
    // capture never comes. A position where it could is rejected.
    let text = setup("K:D4 R:H7 k:H8", 'w');
    assert!(matches!(
        chad().parse_position(&text),
        Err(PositionError::Invalid(_))
    ));
    // No king is ever taken in random games.
    random_games(7, 20, 300, |s, moves| {
        for m in moves {
            if m.is_capture() {
                let target = s.piece_at(m.to()).unwrap();
                assert_ne!(target.kind(), Kind::King, "{s:?} {m}");
            }
        }
    });
}

#[test]
fn kings_block_lines() {
    // The rook on A4 stops before the White king on D4.
    let s = state("K:D4 R:A4 k:I9", 'w');
    let along_rank: Vec<String> = moves_from(&s, "A4")
        .into_iter()
        .filter(|m| !m.starts_with("A4-A"))
        .collect();
    assert_eq!(along_rank, sorted(&["A4-B4", "A4-C4"]));
    // Black's own king stops the rook on I12 at I10.
    let s = state("K:D4 k:I9 r:I12", 'b');
    let down_the_file: Vec<String> = moves_from(&s, "I12")
        .into_iter()
        .filter(|m| m.starts_with("I12-I"))
        .collect();
    assert_eq!(down_the_file, sorted(&["I12-I10", "I12-I11"]));
}
