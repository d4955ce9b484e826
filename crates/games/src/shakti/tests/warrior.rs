//! The warrior: one- and two-step moves that remove a tile, and no captures.

use super::*;

#[test]
fn warrior_moves_to_the_first_or_the_second_tile() {
    let start = game().start();
    // North from b2: b3 (first tile) or b4 (second); the player chooses.
    let all = destinations(&start, "b2");
    assert!(all.contains(&"b3".to_string()) && all.contains(&"b4".to_string()));
    // The first tile skips gaps: with b3 gone, b2 reaches b4 in one step and b5 in two.
    let state = pos("-5-/1w1k1w1/7/7/1-5/1W1K1W1/-5- w");
    let b2 = destinations(&state, "b2");
    assert!(b2.contains(&"b4".to_string()) && b2.contains(&"b5".to_string()));
    assert_eq!(
        moves_of(&state)
            .into_iter()
            .find(|m| m.to() == Some(sq("b4")))
            .unwrap()
            .removed(),
        None
    );
}

#[test]
fn warrior_two_step_move_removes_the_jumped_tile() {
    let start = game().start();
    let after = played(&start, "b2-b4");
    assert!(!after.has_tile(sq("b3")));
    assert_eq!(after.tile_count(), 44);
    assert_eq!(
        game().position_text(&after),
        "-5-/1w1k1w1/7/1W5/1-5/3K1W1/-5- b"
    );
    // Beyond a gap the removed tile is not the middle square.
    let state = pos("-5-/1w1k1w1/7/7/1-5/1W1K1W1/-5- w");
    let after = played(&state, "b2-b5(b4)");
    assert!(!after.has_tile(sq("b4")) && after.has_tile(sq("b5")));
    // A one-step move removes nothing.
    assert_eq!(played(&start, "b2-b3").tile_count(), 45);
}

#[test]
fn warrior_needs_both_tiles_empty_for_the_second() {
    // f2-d4 over e3 is possible from the start, but not with a piece on e3 or d4.
    let start = game().start();
    assert!(is_legal(&start, "f2-d4"));
    let blocked = played(&played(&start, "d2-e3"), "d6-d5");
    assert!(!is_legal(&blocked, "f2-d4"));
}

#[test]
fn warrior_never_captures() {
    // Warriors next to each other cannot move onto (or over) each other.
    let state = pos("-5-/1w1k1w1/1W5/7/7/3K1W1/-5- b");
    assert!(!is_legal(&state, "b6-b5") && !is_legal(&state, "b6-b4"));
    let state = pos("-5-/1w1k3/1W5/7/7/3K1W1/-5- w");
    assert!(!destinations(&state, "b5").contains(&"b6".to_string()));
    let g = game();
    for state in random_states(12, 40, 300) {
        for mv in moves_of(&state) {
            if mv.is_pass() || mv.from() == Some(state.king(state.to_move())) {
                continue;
            }
            assert!(state.piece_at(mv.to().unwrap()).is_none());
            assert!(g.move_view(&state, mv).captured.is_empty());
        }
    }
}
