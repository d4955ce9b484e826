//! How pieces move along the paths, and the base-line and goal-line rules.

use super::*;

#[test]
fn a_high_piece_off_its_base_line_may_not_end_a_move_there() {
    // The d3 path S S ends on d1, White's base line: an Officer there may not take it.
    let state = position("o7/8/8/8/8/3O4/8/8 w");
    assert_eq!(destinations(&state, "d3"), ["a3", "f5"]);
}

#[test]
fn a_high_piece_on_its_base_line_may_move_along_it() {
    // b1's path E E goes to d1 along the base line.
    let state = position("o7/8/8/8/8/8/8/1O6 w");
    assert_eq!(destinations(&state, "b1"), ["a1", "b2", "d1"]);
}

#[test]
fn a_high_piece_on_its_goal_line_only_moves_along_it() {
    // g8 has S, E and W W: the step off the goal line is not allowed.
    let state = position("6O1/8/8/8/8/8/8/o7 w");
    assert_eq!(destinations(&state, "g8"), ["e8", "h8"]);
    // A pawn on the same square has no such rule.
    let pawn = position("6P1/8/8/8/8/8/8/o7 w");
    assert_eq!(destinations(&pawn, "g8"), ["e8", "g7", "h8"]);
}

#[test]
fn a_high_piece_on_its_goal_line_cannot_be_captured() {
    // The pawn on b1 could capture on d1 along E E, but not Black's Officer on its goal line.
    let state = position("o7/8/8/8/8/8/8/1P1o4 w");
    assert_eq!(destinations(&state, "b1"), ["a1", "b2"]);
    let pawn_there = position("o7/8/8/8/8/8/8/1P1p4 w");
    assert_eq!(destinations(&pawn_there, "b1"), ["a1", "b2", "d1"]);
    // It may still capture: Black's Officer on d1 takes along d1's path W W.
    let black = position("O7/8/8/8/8/8/8/1P1o4 b");
    assert!(destinations(&black, "d1").contains(&"b1".to_string()));
}

#[test]
fn a_field_officer_passes_its_own_pieces_but_nothing_else_does() {
    // At the start the Field Officer on a1 goes over its own pawn to a3; the Officer on b1 is
    // stuck behind its own pieces.
    let start = game().start();
    assert_eq!(destinations(&start, "a1"), ["a3"]);
    assert!(destinations(&start, "b1").is_empty());
    // An enemy pawn on a2 stops the Field Officer (and may be captured by nothing on a1).
    let blocked = position("o7/8/8/8/8/8/p7/F7 w");
    assert_eq!(destinations(&blocked, "a1"), ["b1"]);
}

#[test]
fn a_move_goes_to_the_end_of_its_path_and_captures_there_optionally() {
    // d3 to f5 passes e4 and ends on f5: with an enemy on f5 the move captures; on e4 it blocks.
    let capture = position("o7/8/8/5p2/8/3P4/8/7O w");
    let g = game();
    let mv = g.parse_move(&capture, "d3xf5").unwrap();
    let mut after = capture.clone();
    g.play_unchecked(&mut after, mv);
    assert_eq!(g.position_text(&after), "o7/8/8/5P2/8/8/8/7O b");
    // Capture is not compulsory: the other paths stay legal.
    assert_eq!(destinations(&capture, "d3"), ["a3", "d1", "f5"]);
    let blocked = position("o7/8/8/8/4p3/3P4/8/8 w");
    assert_eq!(destinations(&blocked, "d3"), ["a3", "d1"]);
    // Never onto a friendly piece.
    let friendly = position("o7/8/8/5P2/8/3P4/8/8 w");
    assert_eq!(destinations(&friendly, "d3"), ["a3", "d1"]);
}

#[test]
fn two_paths_to_one_square_are_one_move() {
    let board = RECONSTRUCTION.replace("a2  N ; E ; S", "a2  N ; E ; S ; NE W");
    assert_ne!(board, RECONSTRUCTION, "the second path to a3 was added");
    let g = Schada::on_board("doubled", &board).unwrap();
    let state = g.parse_position("o7/8/8/8/8/8/P7/7O w").unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&state, &mut moves);
    let texts: Vec<String> = moves.iter().map(|&m| g.move_text(&state, m)).collect();
    assert_eq!(
        texts.iter().filter(|t| *t == "a2-a3").count(),
        1,
        "{texts:?}"
    );
}
