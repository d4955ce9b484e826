//! Promotion: a rook ending its move in the enemy castle becomes a queen.

use super::*;

#[test]
fn rook_ending_in_the_enemy_castle_becomes_a_queen() {
    let s = state("K:D4 R:H1 k:J10", 'w');
    let mv = chad().parse_move(&s, "H1-H8").unwrap();
    assert!(mv.is_promotion());
    assert!(!chad().parse_move(&s, "H1-H7").unwrap().is_promotion());
    let after = play(&s, "H1-H8");
    assert_eq!(
        after.piece_at(Cell(square("H8") as u16)),
        Some(Piece::WhiteQueen)
    );
    // Once a queen, always a queen, even outside the castle.
    let after = play(&play(&after, "J10-J9"), "H8-A8");
    assert_eq!(
        after.piece_at(Cell(square("A8") as u16)),
        Some(Piece::WhiteQueen)
    );
}

#[test]
fn promotion_by_capture() {
    let s = state("K:D4 R:G9 r:H9 k:J10", 'w');
    let mv = chad().parse_move(&s, "G9xH9").unwrap();
    assert!(mv.is_capture() && mv.is_promotion());
    let after = play(&s, "G9xH9");
    assert_eq!(
        after.piece_at(Cell(square("H9") as u16)),
        Some(Piece::WhiteQueen)
    );
    // Black promotes in White's castle.
    let s = state("K:C3 R:E4 r:F4 k:I9", 'b');
    let after = play(&s, "F4xE4");
    assert_eq!(
        after.piece_at(Cell(square("E4") as u16)),
        Some(Piece::BlackQueen)
    );
}

#[test]
fn passing_through_a_castle_does_not_promote() {
    let s = state("K:D4 R:H1 k:J10", 'w');
    for target in ["H11", "H12"] {
        let mv = chad().parse_move(&s, &format!("H1-{target}")).unwrap();
        assert!(!mv.is_promotion());
        let after = play(&s, &format!("H1-{target}"));
        assert_eq!(after.piece_at(mv.to()), Some(Piece::WhiteRook));
    }
}

#[test]
fn a_rook_at_home_does_not_promote() {
    let s = chad().start();
    assert!(legal(&s).iter().all(|m| !m.is_promotion()));
}

#[test]
fn a_queen_entering_a_castle_is_not_a_promotion() {
    let s = state("K:D4 Q:A8 k:J10", 'w');
    let mv = chad().parse_move(&s, "A8-H8").unwrap();
    assert!(!mv.is_promotion());
    assert_eq!(illegal_reason(&s, "A8-H8=Q"), "A8-H8 does not promote");
}

#[test]
fn a_queen_returned_home_is_an_ordinary_defender() {
    // Back in her own castle, the queen captures onto her wall, along files and diagonals.
    let s = state("K:E5 Q:D3 r:D2 k:I9", 'w');
    assert!(has(&s, "D3xD2"));
    let s = state("K:E3 Q:C4 r:B5 k:I9", 'w');
    assert!(has(&s, "C4xB5"));
    assert!(!chad().parse_move(&s, "C4xB5").unwrap().is_promotion());
    // And she can be captured there from the enemy side's wall.
    let s = state("K:E5 Q:C4 r:B4 k:I9", 'b');
    assert!(has(&s, "B4xC4"));
}
