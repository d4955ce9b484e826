//! Captures: only between a castle and its wall.

use super::*;

#[test]
fn wall_piece_captures_into_the_castle() {
    let s = state("K:D4 R:H7 r:H9 k:J10", 'w');
    assert!(has(&s, "H7xH9"));
    // Through an empty castle square, still the first piece on the line.
    let s = state("K:D4 R:H7 r:H10 k:J8", 'w');
    assert!(has(&s, "H7xH10"));
    // A queen on the wall captures along a diagonal.
    let s = state("K:D4 Q:G8 r:I10 k:J9", 'w');
    assert!(has(&s, "G8xI10"));
    // Black does the same against White's castle.
    let s = state("K:C3 R:E4 q:F4 k:I9", 'b');
    assert!(has(&s, "F4xE4"));
}

#[test]
fn wall_piece_cannot_capture_past_the_castle() {
    // The first piece on the line is beyond the castle (on the far wall).
    let s = state("K:D4 R:H7 r:H11 k:J8", 'w');
    assert!(!has(&s, "H7xH11"));
    assert!(has(&s, "H7-H10"));
    // A piece next to the wall, but not on it, has no right.
    let s = state("K:D4 R:H6 r:H8 k:J10", 'w');
    assert!(!has(&s, "H6xH8"));
}

#[test]
fn castle_defender_captures_onto_its_own_wall() {
    let s = state("K:D4 R:I7 k:J10 r:I8", 'b');
    assert!(has(&s, "I8xI7"));
    let s = state("K:D4 R:E3 r:F3 k:I9", 'w');
    assert!(has(&s, "E3xF3"));
    // Across the castle: C3 sees the rook on F3 when D3 and E3 are empty.
    let s = state("K:D4 R:C3 r:F3 k:I9", 'w');
    assert!(has(&s, "C3xF3"));
    // A piece beyond the wall is out of reach.
    let s = state("K:D4 R:E3 r:G3 k:I9", 'w');
    assert!(!has(&s, "E3xG3"));
    assert!(has(&s, "E3-F3"));
}

#[test]
fn no_other_captures() {
    // Facing each other in the open board, rooks only block.
    let s = state("K:D4 R:A1 r:A12 k:I9", 'w');
    assert!(!has(&s, "A1xA12"));
    assert_eq!(moves_from(&s, "A1").len(), 10 + 11);
    assert_eq!(
        illegal_reason(&s, "A1xA12"),
        "rooks cannot capture outside the wall/castle right (only from the enemy wall into the \
         enemy castle, or from inside their own castle onto their own wall)"
    );
    // An enemy on one's own wall, but the capturer is outside its castle.
    let s = state("K:D4 R:F2 r:F3 k:I9", 'w');
    assert!(!has(&s, "F2xF3"));
    // Both on the enemy wall.
    let s = state("K:D4 R:G8 r:G10 k:I9", 'w');
    assert!(!has(&s, "G8xG10"));
    // An attacker inside the enemy castle cannot capture the defenders.
    let s = state("K:D4 Q:H8 r:H10 k:I10", 'w');
    assert!(!has(&s, "H8xH10"));
    // A piece on its own wall can never be captured.
    let s = state("K:D4 R:E6 r:E12 k:I9", 'b');
    assert!(!has(&s, "E12xE6"));
}

#[test]
fn a_captured_piece_leaves_the_board() {
    let s = play(&state("K:D4 R:H7 r:H9 k:J10", 'w'), "H7xH9");
    let black: Vec<Piece> = s
        .board
        .iter()
        .flatten()
        .filter(|p| p.owner() == Player::Black)
        .copied()
        .collect();
    assert_eq!(black, [Piece::BlackKing]);
}
