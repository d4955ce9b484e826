//! State bookkeeping: the hash, the views and the observation.

use super::*;

#[test]
fn hash_equals_a_fresh_recomputation() {
    let game = chad();
    let mut seen = HashSet::new();
    random_games(2, 30, 300, |s, _| {
        assert_eq!(game.hash(s), s.fresh_hash(), "{s:?}");
        seen.insert(game.hash(s));
        for p in Player::BOTH {
            let king = Piece::new(p, Kind::King);
            assert_eq!(s.piece_at(s.king(p)), Some(king), "{s:?}");
        }
    });
    assert!(seen.len() > 1000);
    let s = game.start();
    let mut black = s.clone();
    black.to_move = Player::Black;
    black.hash = black.fresh_hash();
    assert_ne!(
        game.hash(&s),
        game.hash(&black),
        "the side to move is hashed"
    );
}

#[test]
fn views_show_pieces_and_moves() {
    let game = chad();
    let s = position(EXAMPLE_WHITE);
    let view = game.position_view(&s, Viewer::Everyone);
    assert_eq!(view.pieces.len(), 8);
    assert_eq!(view.to_move, Player::White);
    let queen = view
        .pieces
        .iter()
        .find(|p| p.cell == Cell(square("E2") as u16))
        .unwrap();
    assert_eq!(
        (queen.kind, queen.letter, queen.owner),
        ("queen", 'q', Player::Black)
    );
    assert!(view
        .pieces
        .iter()
        .any(|p| p.kind == "king" && p.letter == 'K'));
    assert!(view
        .pieces
        .iter()
        .any(|p| p.kind == "rook" && p.letter == 'r'));
    let mv = game.parse_move(&s, "H7xH9").unwrap();
    let mv_view = game.move_view(&s, mv);
    assert_eq!(mv_view.from, Some(Cell(square("H7") as u16)));
    assert_eq!(mv_view.to, Some(Cell(square("H9") as u16)));
    assert_eq!(mv_view.captured, [Cell(square("H9") as u16)]);
    assert!(mv_view.promotes);
    let quiet = game.move_view(&s, game.parse_move(&s, "D9-D12").unwrap());
    assert!(quiet.captured.is_empty() && !quiet.promotes);
}
