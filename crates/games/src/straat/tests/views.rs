//! What the browser is given.

use super::*;

#[test]
fn a_move_is_a_click_on_the_cell_and_a_choice_of_orientation() {
    let g = flip();
    let start = g.start();
    let mv = g.parse_move(&start, "b3w*").unwrap();
    let view = g.move_view(&start, mv);
    assert_eq!(view.from, None);
    assert_eq!(view.to, Some(sq("b3")));
    assert_eq!(view.choice.as_deref(), Some("w*"));
    assert!(view.captured.is_empty() && view.via.is_empty());
    let mv = g.parse_move(&start, "a1n").unwrap();
    assert_eq!(g.move_view(&start, mv).choice.as_deref(), Some("n"));
}

#[test]
fn every_placed_tile_is_one_piece_with_its_owner_and_orientation() {
    let g = flip();
    let state = pos(&g, "4/1s*2/4/N3 w");
    let view = g.position_view(&state, denkmeter_core::Viewer::Everyone);
    assert_eq!(view.to_move, Player::White);
    assert_eq!(view.pieces.len(), 2);
    let a1 = &view.pieces[0];
    assert_eq!(
        (a1.cell, a1.owner, a1.kind, a1.letter),
        (sq("a1"), Player::White, "tile-n", 'N')
    );
    let b3 = &view.pieces[1];
    assert_eq!(
        (b3.cell, b3.owner, b3.kind, b3.letter),
        (sq("b3"), Player::Black, "solid-s", 's')
    );
    assert!(view.absent.is_empty());
}
