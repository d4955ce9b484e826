//! The king: its moves in and out of check and its captures.

use super::*;

#[test]
fn king_not_in_check_moves_to_the_first_tile_in_each_direction() {
    // d3 sees a3 across the gaps at c3 and b3, and b1 across c2; c4, d4, e3, d2 and e2 are
    // neighbours; e4 is skipped to f5's gap and g6 holds its own warrior.
    let state = pos(FACT_NO_CHECK);
    let all = destinations(&state, "d3");
    assert!(all.contains(&"a3".to_string()) && all.contains(&"b1".to_string()));
    // An own piece on the first tile blocks that direction.
    let start = game().start();
    assert!(!is_legal(
        &played(&played(&start, "d2-c2"), "d6-d5"),
        "c2-b2"
    ));
}

#[test]
fn king_in_check_moves_only_to_adjacent_tiles() {
    // In check from g6 the king on d3 no longer reaches a3 or b1.
    let state = pos(FACT_CHECK);
    let all = destinations(&state, "d3");
    assert!(!all.contains(&"a3".to_string()) && !all.contains(&"b1".to_string()));
    // The checking warrior is not adjacent and cannot be taken.
    assert!(!is_legal(&state, "d3xg6"));
}

#[test]
fn king_in_check_captures_an_unprotected_adjacent_warrior() {
    let state = pos("-k4-/7/4w2/3K3/7/7/-5- w");
    assert!(state.is_in_check(Player::White));
    assert_eq!(
        texts(&state),
        ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-e3", "d4xe5"]
    );
    let after = played(&state, "d4xe5");
    assert_eq!(after.warriors(Player::Black).count(), 0);
    assert_eq!(after.king(Player::White), sq("e5"));
    assert!(after.has_tile(sq("e5")));
}

#[test]
fn king_cannot_capture_a_warrior_protected_by_a_warrior() {
    // Taking e5 would leave the king next to the warrior on f6.
    let state = pos("-k4-/5w1/4w2/3K3/7/7/-5- w");
    assert!(state.is_in_check(Player::White));
    assert_eq!(texts(&state), ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-e3"]);
    assert!(matches!(
        game().parse_move(&state, "d4xe5"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn king_cannot_capture_a_warrior_protected_by_the_enemy_king() {
    // Taking e5 would put the kings face to face (the evil stare).
    let state = pos("-5-/5k1/4w2/3K3/7/7/-5- w");
    assert_eq!(texts(&state), ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-e3"]);
}

#[test]
fn king_never_captures_unless_in_check_and_adjacent() {
    let g = game();
    for state in random_states(11, 40, 300) {
        let side = state.to_move();
        for mv in moves_of(&state) {
            if g.move_view(&state, mv).captured.is_empty() {
                continue;
            }
            assert!(state.is_in_check(side), "{}", g.position_text(&state));
            let (from, to) = (mv.from().unwrap(), mv.to().unwrap());
            assert_eq!(from, state.king(side));
            assert!((0..8).any(|d| g.board().neighbour(from, d) == Some(to)));
        }
    }
}

#[test]
fn king_may_not_move_where_the_kings_see_each_other() {
    // From d4 the king may not go to d5, under the Black king on d7 with d6 gone.
    let state = pos("-2k2-/3-3/7/3K3/7/7/-5- w");
    assert!(!destinations(&state, "d4").contains(&"d5".to_string()));
    assert!(destinations(&state, "d4").contains(&"c5".to_string()));
}
