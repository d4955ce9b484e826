//! Disks: steps, jumps over own pieces and captures.

use super::*;

#[test]
fn disk_steps_forward_only() {
    let state = at_setup("De5 dh4", 'w');
    assert_eq!(texts(&standard(), &state), ["e5-f5", "e5-f6"]);
    let state = at_setup("Da3 de5", 'b');
    assert_eq!(texts(&standard(), &state), ["e5-d4", "e5-d5"]);
    for g in all_rulesets() {
        assert_eq!(destinations(&g, &state, "e5"), ["d4", "d5"]);
    }
    // Blocked ahead: no sideways or backward step instead.
    let state = at_setup("De5 Df5 Df6 dh4", 'w');
    assert!(destinations(&checkers(), &state, "e5").is_empty());
}

#[test]
fn disk_jumps_forward_over_an_own_piece() {
    // e5 jumps over the disk on f5 to g5 and over the Sjek on f6 to g7; not backward over d5
    // nor sideways over e6.
    let g = standard();
    let state = at_setup("De5 Df5 Sf6 Dd5 De6 dh4", 'w');
    assert_eq!(destinations(&g, &state, "e5"), ["g5", "g7"]);
    assert!(g.parse_move(&state, "e5-c5").is_err());
    assert!(g.parse_move(&state, "e5-e7").is_err());
    let after = played(&g, &state, "e5-g5");
    assert_eq!(piece(&after, "g5"), Some((Player::White, Piece::Disk)));
    assert_eq!(piece(&after, "f5"), Some((Player::White, Piece::Disk)));
    assert_eq!(after.count(Player::White, Piece::Disk), 4);
    assert_eq!(after.count(Player::Black, Piece::Disk), 1);
    // The landing must be empty.
    let state = at_setup("De5 Df5 Sf6 Dg5 dh4", 'w');
    assert_eq!(destinations(&g, &state, "e5"), ["g7"]);
    // Black jumps towards row a.
    let state = at_setup("Da3 de5 dd4", 'b');
    assert_eq!(destinations(&g, &state, "e5"), ["c3", "d5"]);
    // The same in sjekkers-sideways; never in sjekkers-checkers.
    assert_eq!(destinations(&sideways(), &state, "e5"), ["c3", "d5"]);
    assert_eq!(destinations(&checkers(), &state, "e5"), ["d5"]);
}

#[test]
fn no_own_jump_while_a_capture_is_available() {
    // a3 can capture b4; e5's jump over f5 and every step wait.
    let state = at_setup("De5 Df5 Da3 db4", 'w');
    assert_eq!(texts(&standard(), &state), ["a3xc5"]);
    let Err(MoveError::Illegal { reason, .. }) = standard().parse_move(&state, "e5-g5") else {
        panic!("e5-g5 must be illegal");
    };
    assert!(reason.contains("must capture"), "{reason}");
}

#[test]
fn disk_captures_forward_and_backward_but_not_sideways() {
    // Enemies all around e5: f6 ahead, d4 and d5 behind, e4 and e6 beside it.
    let state = at_setup("De5 df6 dd4 dd5 de4 de6", 'w');
    assert_eq!(texts(&standard(), &state), ["e5xc3", "e5xc5", "e5xg7"]);
    let after = played(&standard(), &state, "e5xc3");
    assert_eq!(piece(&after, "d4"), None);
    assert_eq!(piece(&after, "c3"), Some((Player::White, Piece::Disk)));
    assert_eq!(after.count(Player::Black, Piece::Disk), 4);
    // A disk's capture is a short jump: nothing to take two crossings away.
    let state = at_setup("De5 dg7 dh4", 'w');
    assert_eq!(texts(&standard(), &state), ["e5-f5", "e5-f6"]);
    // A Sjek is captured whole.
    let state = at_setup("De5 sf6 dh4", 'w');
    let after = played(&standard(), &state, "e5xg7");
    assert_eq!(after.count(Player::Black, Piece::Sjek), 0);
}

#[test]
fn sideways_captures_only_in_sjekkers_sideways() {
    let state = at_setup("De5 de6 dh4", 'w');
    assert_eq!(texts(&standard(), &state), ["e5-f5", "e5-f6"]);
    assert_eq!(texts(&sideways(), &state), ["e5xe7"]);
    assert_eq!(texts(&checkers(), &state), ["e5-f5", "e5-f6"]);
    let state = at_setup("De5 df6 dd4 dd5 de4 de6", 'w');
    assert_eq!(
        texts(&sideways(), &state),
        ["e5xc3", "e5xc5", "e5xe3", "e5xe7", "e5xg7"]
    );
    // Black too, along row e.
    let state = at_setup("Da1 De4 de5", 'b');
    assert_eq!(texts(&sideways(), &state), ["e5xe3"]);
    assert_eq!(texts(&standard(), &state), ["e5-d4", "e5-d5"]);
}

#[test]
fn one_jump_per_turn() {
    // c3 takes d4; the disk on f6 could be taken next from e5, but the turn is over.
    let g = standard();
    let state = at_setup("Dc3 dd4 df6", 'w');
    assert_eq!(texts(&g, &state), ["c3xe5"]);
    let after = played(&g, &state, "c3xe5");
    assert_eq!(after.to_move(), Player::Black);
    assert_eq!(piece(&after, "f6"), Some((Player::Black, Piece::Disk)));
    // Black in turn must take e5 from f6.
    assert_eq!(texts(&g, &after), ["f6xd4"]);
    // A chain is refused as such.
    let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&state, "c3xe5xg7") else {
        panic!("a chain must be illegal");
    };
    assert!(reason.contains("one jump"), "{reason}");
    // The same holds for Sjeks: one capture a turn.
    let state = at_setup("Sa1 dc3 df6 dh4", 'w');
    for mv in moves_of(&g, &state) {
        assert_eq!(mv.captured().count(), 1);
    }
}

#[test]
fn capture_is_compulsory_and_the_player_chooses() {
    // A disk's capture and a Sjek's capture, and nothing else.
    let state = at_setup("Dc3 dd4 Sa5 dc5 df5 dh4", 'w');
    assert_eq!(texts(&standard(), &state), ["a5xd5", "a5xe5", "c3xe5"]);
    for g in [standard(), sideways()] {
        assert!(moves_of(&g, &state).iter().all(|m| m.is_capture()));
    }
}
