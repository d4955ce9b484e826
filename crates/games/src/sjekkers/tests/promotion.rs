//! Promotion on the far row.

use super::*;

#[test]
fn promotion_by_a_step() {
    for g in all_rulesets() {
        let state = at_setup("Dh5 dc3", 'w');
        let after = played(&g, &state, "h5-i5");
        assert_eq!(piece(&after, "i5"), Some((Player::White, Piece::Sjek)));
        let view = g.move_view(&state, g.parse_move(&state, "h5-i6").unwrap());
        assert!(view.promotes);
        let state = at_setup("Dh5 db2", 'b');
        let after = played(&g, &state, "b2-a1");
        assert_eq!(piece(&after, "a1"), Some((Player::Black, Piece::Sjek)));
        assert_eq!(g.position_text(&after), "5/1D4/7/8/9/8/7/6/s4 w");
    }
}

#[test]
fn promotion_by_an_own_jump() {
    let g = standard();
    let state = at_setup("Dg5 Dh5 dc3", 'w');
    let after = played(&g, &state, "g5-i5");
    assert_eq!(piece(&after, "i5"), Some((Player::White, Piece::Sjek)));
    assert_eq!(piece(&after, "h5"), Some((Player::White, Piece::Disk)));
}

#[test]
fn promotion_by_a_capture() {
    for g in all_rulesets() {
        let state = at_setup("Dg6 dh7 dc3", 'w');
        assert_eq!(texts(&g, &state), ["g6xi8"]);
        let after = played(&g, &state, "g6xi8");
        assert_eq!(piece(&after, "i8"), Some((Player::White, Piece::Sjek)));
        assert!(
            g.move_view(&state, g.parse_move(&state, "g6xi8").unwrap())
                .promotes
        );
    }
    // A backward capture onto the own first row does not promote.
    let state = at_setup("Dc3 db2 dh4", 'w');
    let after = played(&standard(), &state, "c3xa1");
    assert_eq!(piece(&after, "a1"), Some((Player::White, Piece::Disk)));
    // A Sjek stays a Sjek; no move makes a disk of it.
    let state = at_setup("Se5 dh4", 'w');
    let after = played(&standard(), &state, "e5-a1");
    assert_eq!(piece(&after, "a1"), Some((Player::White, Piece::Sjek)));
}

#[test]
fn reaching_the_far_row_ends_a_checkers_chain() {
    // On i8 a Sjek could go on over h8, but the disk's move ends there.
    let g = checkers();
    let state = at_setup("Dg6 dh7 dh8", 'w');
    assert_eq!(texts(&g, &state), ["g6xi8"]);
    let after = played(&g, &state, "g6xi8");
    assert_eq!(after.to_move(), Player::Black);
    assert_eq!(piece(&after, "h8"), Some((Player::Black, Piece::Disk)));
    assert_eq!(piece(&after, "i8"), Some((Player::White, Piece::Sjek)));
}
