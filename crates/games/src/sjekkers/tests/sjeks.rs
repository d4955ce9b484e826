//! Sjeks: flying slides and captures.

use super::*;

#[test]
fn sjek_slides_along_all_six_lines() {
    let g = standard();
    let state = at_setup("Se5 dh4", 'w');
    let all = destinations(&g, &state, "e5");
    assert_eq!(all.len(), 24);
    for name in ["i9", "e9", "a5", "a1", "e1", "i5", "f6", "d4"] {
        assert!(all.contains(&name.to_string()), "{name}");
    }
    // Pieces stop it: its own before it, the enemy's (out of capture) too.
    let state = at_setup("Se5 Dg7 de8 de9 dh4", 'w');
    let all = destinations(&g, &state, "e5");
    for name in ["f6", "e6", "e7"] {
        assert!(all.contains(&name.to_string()), "{name}");
    }
    for name in ["g7", "h8", "e8", "e9"] {
        assert!(!all.contains(&name.to_string()), "{name}");
    }
}

#[test]
fn sjek_captures_flying_in_every_flying_ruleset() {
    // a1 over c3 (across b2) to d4 or e5, stopping before f6.
    let state = at_setup("Sa1 dc3 df6 dh4", 'w');
    for g in [standard(), sideways()] {
        assert_eq!(texts(&g, &state), ["a1xd4", "a1xe5"]);
    }
    let after = played(&standard(), &state, "a1xe5");
    assert_eq!(piece(&after, "c3"), None);
    assert_eq!(piece(&after, "e5"), Some((Player::White, Piece::Sjek)));
    // Sideways along a row and backward too, in sjekkers as well.
    let state = at_setup("Se1 de3 db5", 'w');
    assert_eq!(
        texts(&standard(), &state),
        ["e1xe4", "e1xe5", "e1xe6", "e1xe7", "e1xe8", "e1xe9"]
    );
    let state = at_setup("Si9 dg7 Dc3", 'w');
    assert_eq!(texts(&standard(), &state), ["i9xd4", "i9xe5", "i9xf6"]);
    // Black's Sjek likewise.
    let state = at_setup("Dd5 sh5 Da3", 'b');
    assert_eq!(texts(&standard(), &state), ["h5xa5", "h5xb5", "h5xc5"]);
}

#[test]
fn sjek_captures_exactly_one_piece() {
    let g = standard();
    // Two enemies in a row: no capture along that line.
    let state = at_setup("Sa1 dc3 dd4 dh4", 'w');
    assert!(moves_of(&g, &state).iter().all(|m| !m.is_capture()));
    assert!(destinations(&g, &state, "a1").contains(&"b2".to_string()));
    // An own piece in front: no capture, but a jump over it (it is adjacent and ahead).
    let state = at_setup("Sa1 Db2 dd4 dh4", 'w');
    assert!(moves_of(&g, &state).iter().all(|m| !m.is_capture()));
    assert!(destinations(&g, &state, "a1").contains(&"c3".to_string()));
    // An own piece behind the enemy does not matter; the landing is before it.
    let state = at_setup("Sa1 dc3 De5 dh4", 'w');
    assert_eq!(texts(&g, &state), ["a1xd4"]);
    // The enemy on the edge cannot be captured.
    let state = at_setup("Se5 di9 dh4", 'w');
    assert!(moves_of(&g, &state).iter().all(|m| !m.is_capture()));
}

#[test]
fn sjek_jumps_own_pieces_only_as_a_disk() {
    let g = standard();
    // Over f5 (adjacent, ahead) to g5; not over d5 (behind) to c5, nor over e7 (not adjacent)
    // to e8.
    let state = at_setup("Se5 Df5 Dd5 De7 dh4", 'w');
    let all = destinations(&g, &state, "e5");
    assert!(all.contains(&"g5".to_string()));
    assert!(!all.contains(&"c5".to_string()));
    assert!(!all.contains(&"e8".to_string()));
    assert!(all.contains(&"e6".to_string()));
    // Sideways, over e6: no.
    let state = at_setup("Se5 De6 dh4", 'w');
    assert!(!destinations(&g, &state, "e5").contains(&"e7".to_string()));
    // Black's Sjek jumps towards row a.
    let state = at_setup("se5 dd4 Dh4", 'b');
    assert!(destinations(&g, &state, "e5").contains(&"c3".to_string()));
    let state = at_setup("se5 df6 Dh4", 'b');
    assert!(!destinations(&g, &state, "e5").contains(&"g7".to_string()));
}
