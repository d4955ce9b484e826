//! The rules of Sjekkers-checkers: capture chains and routes.

use super::*;

#[test]
fn checkers_chain_must_continue() {
    let g = checkers();
    let state = at_setup("Dc3 dd4 df6 dh4", 'w');
    assert_eq!(texts(&g, &state), ["c3xe5xg7"]);
    let after = played(&g, &state, "c3xe5xg7");
    assert_eq!(piece(&after, "g7"), Some((Player::White, Piece::Disk)));
    assert_eq!(after.count(Player::Black, Piece::Disk), 1);
    // Stopping halfway is refused.
    let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&state, "c3xe5") else {
        panic!("a chain cut short must be illegal");
    };
    assert!(reason.contains("goes on"), "{reason}");
    // The start and end alone name it, there being one capture between them.
    assert_eq!(
        g.parse_move(&state, "c3xg7"),
        g.parse_move(&state, "c3xe5xg7")
    );
    let view = g.move_view(&state, g.parse_move(&state, "c3xg7").unwrap());
    assert_eq!(view.from, Some(sq("c3")));
    assert_eq!(view.via, [sq("e5")]);
    assert_eq!(view.to, Some(sq("g7")));
    assert_eq!(view.captured, [sq("d4"), sq("f6")]);
    assert!(!view.promotes);
}

#[test]
fn checkers_any_capture_sequence_may_be_chosen() {
    // Two pieces by c3's chain or one by c5's: either.
    let state = at_setup("Dc3 dd4 df6 Dc5 dd6 dh4", 'w');
    assert_eq!(texts(&checkers(), &state), ["c3xe5xg7", "c5xe7"]);
}

#[test]
fn checkers_disks_capture_forward_only() {
    let g = checkers();
    let state = at_setup("De5 dd4 dd5 de4 de6", 'w');
    assert_eq!(texts(&g, &state), ["e5-f5", "e5-f6"]);
    let state = at_setup("De5 df5 dh4", 'w');
    assert_eq!(texts(&g, &state), ["e5xg5"]);
}

#[test]
fn checkers_sjeks_step_and_capture_one_crossing_at_a_time() {
    let g = checkers();
    let state = at_setup("Se5 dh4", 'w');
    assert_eq!(
        texts(&g, &state),
        ["e5-d4", "e5-d5", "e5-e4", "e5-e6", "e5-f5", "e5-f6"]
    );
    // No flying capture: the enemy two crossings away is out of reach.
    let state = at_setup("Se5 dg7 dh4", 'w');
    assert!(moves_of(&g, &state).iter().all(|m| !m.is_capture()));
    // A chain sideways and then backward.
    let state = at_setup("Se5 de4 dd3 dh4", 'w');
    assert_eq!(texts(&g, &state), ["e5xe3xc3"]);
}

#[test]
fn checkers_routes_with_the_same_captures_are_one_move() {
    // Around the triangle f6, f7, e6 either way, back to e5.
    let g = checkers();
    let state = at_setup("Se5 df6 df7 de6 dh4", 'w');
    let moves = moves_of(&g, &state);
    assert_eq!(moves.len(), 1);
    assert_eq!(texts(&g, &state), ["e5xg7xe7xe5"]);
    assert_eq!(g.parse_move(&state, "e5xe7xg7xe5"), Ok(moves[0]));
    let after = played(&g, &state, "e5xe7xg7xe5");
    assert_eq!(piece(&after, "e5"), Some((Player::White, Piece::Sjek)));
    assert_eq!(after.count(Player::Black, Piece::Disk), 1);
    assert_eq!(g.hash(&after), after.compute_hash());
    assert_eq!(perft(&g, &state, 1), 1);
}

#[test]
fn checkers_different_captures_between_the_same_crossings_need_the_landings() {
    let g = checkers();
    let state = at_setup("Dc3 dd4 df5 dd3 df4 dh8", 'w');
    assert_eq!(texts(&g, &state), ["c3xe3xg5", "c3xe5xg5"]);
    let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&state, "c3xg5") else {
        panic!("c3xg5 is ambiguous");
    };
    assert!(reason.contains("landings"), "{reason}");
    assert_ne!(
        g.parse_move(&state, "c3xe3xg5").unwrap(),
        g.parse_move(&state, "c3xe5xg5").unwrap()
    );
    assert!(matches!(
        g.parse_move(&state, "c3xe4xg5"),
        Err(MoveError::Illegal { .. })
    ));
}
