//! The board, the castles and walls, the names, and the start and example positions.

use super::*;

#[test]
fn castles_and_walls_are_the_listed_squares() {
    let listed = |names: &str| -> HashSet<usize> { names.split(' ').map(square).collect() };
    let zone = |f: fn(Player, usize) -> bool, p| -> HashSet<usize> {
        (0..144).filter(|&sq| f(p, sq)).collect()
    };
    assert_eq!(
        zone(tables::in_castle, Player::White),
        listed("C3 D3 E3 C4 D4 E4 C5 D5 E5")
    );
    assert_eq!(
        zone(tables::in_castle, Player::Black),
        listed("H8 I8 J8 H9 I9 J9 H10 I10 J10")
    );
    assert_eq!(
        zone(tables::on_wall, Player::White),
        listed("C2 D2 E2 B3 B4 B5 F3 F4 F5 C6 D6 E6")
    );
    assert_eq!(
        zone(tables::on_wall, Player::Black),
        listed("H7 I7 J7 G8 G9 G10 K8 K9 K10 H11 I11 J11")
    );
}

#[test]
fn board_marks_castles_and_walls_for_drawing() {
    let game = chad();
    let board = game.board();
    assert_eq!(board.len(), 144);
    let d4 = board.cell_by_name("D4").unwrap();
    assert!(board.info(d4).classes.contains(&"castle-white"));
    let k9 = board.cell_by_name("K9").unwrap();
    assert!(board.info(k9).classes.contains(&"wall-black"));
    let b2 = board.cell_by_name("B2").unwrap();
    assert!(!board.info(b2).classes.iter().any(|c| c.starts_with("wall")));
}

#[test]
fn names_and_description() {
    let game = Chad::default();
    assert_eq!(game.name(), "chad");
    assert_eq!(game.facts().family, "chad");
    assert!(!game.facts().description.is_empty());
    assert!(!game.facts().hidden_information);
    assert_eq!(game.facts().playout_limit, 200);
    // Measured: alpha-beta beats Monte Carlo tree search 20-0 at 0.3 s a move.
    assert_eq!(game.facts().search, denkmeter_core::SearchKind::AlphaBeta);
}

#[test]
fn start_position_round_trips() {
    let game = chad();
    let s = game.start();
    assert_eq!(game.position_text(&s), START);
    assert_eq!(game.parse_position(START).unwrap(), s);
    assert_eq!(s.to_move(), Player::White);
    assert_eq!(game.to_move(&s), Player::White);
    assert_eq!(s.king(Player::White), Cell(square("D4") as u16));
    assert_eq!(s.king(Player::Black), Cell(square("I9") as u16));
    assert_eq!(
        s.piece_at(Cell(square("C3") as u16)),
        Some(Piece::WhiteRook)
    );
    assert_eq!(
        s.piece_at(Cell(square("J10") as u16)),
        Some(Piece::BlackRook)
    );
    assert_eq!(s.piece_at(Cell(500)), None);
    assert_eq!(format!("{s:?}"), format!("State({START})"));
}

#[test]
fn example_position_strings_round_trip() {
    for text in [EXAMPLE_WHITE, EXAMPLE_BLACK] {
        assert_eq!(chad().position_text(&position(text)), text);
    }
}

#[test]
fn legal_moves_from_the_start() {
    let s = chad().start();
    let moves = texts(&s);
    assert_eq!(moves.len(), 54);
    let expected: HashSet<String> = [
        // C3: south and west
        "C3-C2", "C3-C1", "C3-B3", "C3-A3", //
        "C4-B4", "C4-A4", //
        "C5-B5", "C5-A5", "C5-C6", "C5-C7", "C5-C8", "C5-C9", "C5-C10", "C5-C11", "C5-C12",
        "D3-D2", "D3-D1", //
        "D5-D6", "D5-D7", "D5-D8", "D5-D9", "D5-D10", "D5-D11", "D5-D12", //
        "E3-E2", "E3-E1", "E3-F3", "E3-G3", "E3-H3", "E3-I3", "E3-J3", "E3-K3", "E3-L3", "E4-F4",
        "E4-G4", "E4-H4", "E4-I4", "E4-J4", "E4-K4", "E4-L4", //
        "E5-E6", "E5-E7", "E5-E8", "E5-E9", "E5-E10", "E5-E11", "E5-E12", //
        "E5-F5", "E5-G5", "E5-H5", "E5-I5", "E5-J5", "E5-K5", "E5-L5",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(moves, expected);
    assert_eq!(chad().status(&s), Status::Ongoing);
}

#[test]
fn black_answers_from_the_start_symmetrically() {
    let s = play(&chad().start(), "D5-D6");
    assert_eq!(s.to_move(), Player::Black);
    assert_eq!(legal(&s).len(), 54);
    assert!(has(&s, "I8-I1"));
    assert!(has(&s, "H10-A10"));
}
