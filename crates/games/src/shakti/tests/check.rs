//! Check: the source's facts, check from a distance, and the evil stare.

use super::*;

#[test]
fn fact_check_from_a_distance() {
    let state = pos(FACT_CHECK);
    assert!(state.is_in_check(Player::White));
    assert_eq!(texts(&state), ["d3-c4", "d3-d2", "d3-d4", "d3-e2", "d3-e3"]);
}

#[test]
fn fact_own_warrior_gives_no_check_and_king_sees_through_gaps() {
    let state = pos(FACT_NO_CHECK);
    assert!(!state.is_in_check(Player::White));
    assert_eq!(
        destinations(&state, "d3"),
        ["a3", "b1", "c4", "d2", "d4", "e2", "e3"]
    );
}

// ---------------------------------------------------------------- check

#[test]
fn warrior_on_the_second_tile_gives_no_check() {
    // b2's first tile north is the empty b3: the king on b4 is not in check.
    let state = pos("-5-/7/7/1k5/7/1W1K3/-5- b");
    assert!(!state.is_in_check(Player::Black));
    // With b3 gone, b4 is b2's first tile: check.
    let state = pos("-5-/7/7/1k5/1-5/1W1K3/-5- b");
    assert!(state.is_in_check(Player::Black));
}

#[test]
fn a_two_step_move_gives_check_by_the_tile_it_removes() {
    // c4 jumps to e4 and removes d4: d6 then sees the warrior on d3 across d5 and d4.
    let state = pos("-5-/3k3/3-3/2W4/3W3/7/-K4- w");
    assert!(!state.is_in_check(Player::Black));
    let after = played(&state, "c4-e4");
    assert!(!after.has_tile(sq("d4")));
    assert!(after.is_in_check(Player::Black));
    assert_eq!(game().status(&after), Status::Ongoing);
}

#[test]
fn no_move_may_leave_the_own_king_in_check() {
    // Removing d4 would open the d-file between the warrior on d6 and the king on d1.
    let state = pos("-k4-/3w3/3-3/2W4/3-3/3-3/-2K2- w");
    assert!(!is_legal(&state, "c4-e4"));
    assert!(is_legal(&state, "c4-d4"));
    // In check, only the king moves: warriors cannot block (a piece stands on a tile, and a
    // checking line has none).
    let state = pos(FACT_CHECK);
    assert!(moves_of(&state)
        .into_iter()
        .all(|m| m.from() == Some(state.king(Player::White))));
}

#[test]
fn evil_stare_forbids_a_white_tile_removal() {
    // Removing d4 would leave the kings on d1 and d6 seeing each other.
    let state = pos("-5-/3k3/3-3/2W4/3-3/3-3/-2K2- w");
    assert!(!is_legal(&state, "c4-e4"));
    assert!(is_legal(&state, "c4-d4"));
}

#[test]
fn evil_stare_forbids_a_black_tile_removal() {
    let state = pos("-5-/3k3/3-3/2w4/3-3/3-3/-2K2- b");
    assert!(!is_legal(&state, "c4-e4"));
    assert!(is_legal(&state, "c4-d4"));
}

#[test]
fn no_legal_move_leaves_check_or_stare() {
    let g = game();
    for state in random_states(13, 40, 300) {
        let side = state.to_move();
        for mv in moves_of(&state) {
            let mut next = state.clone();
            g.play_unchecked(&mut next, mv);
            assert!(!next.is_in_check(side));
            assert!(!next.kings_see_each_other());
        }
    }
}
