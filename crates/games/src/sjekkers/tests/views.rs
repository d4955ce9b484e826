//! Views, the hash, the observation and the playout value.

use denkmeter_core::Viewer;

use super::*;

#[test]
fn move_and_position_views() {
    let g = standard();
    let state = at_setup("Sa1 dc3 df6 dh4", 'w');
    let view = g.move_view(&state, g.parse_move(&state, "a1xe5").unwrap());
    assert_eq!(view.from, Some(sq("a1")));
    assert!(view.via.is_empty());
    assert_eq!(view.to, Some(sq("e5")));
    assert_eq!(view.captured, [sq("c3")]);
    assert!(!view.promotes);

    let view = g.position_view(&state, Viewer::Everyone);
    assert_eq!(view.pieces.len(), 4);
    assert_eq!(view.to_move, Player::White);
    assert!(view.absent.is_empty());
    let sjek = view.pieces.iter().find(|p| p.letter == 'S').unwrap();
    assert_eq!(
        (sjek.cell, sjek.owner, sjek.kind),
        (sq("a1"), Player::White, "sjek")
    );
    let disk = view.pieces.iter().find(|p| p.cell == sq("c3")).unwrap();
    assert_eq!(
        (disk.owner, disk.kind, disk.letter),
        (Player::Black, "disk", 'd')
    );
}

#[test]
fn hash_matches_recomputation_in_random_games() {
    for g in all_rulesets() {
        let states = random_states(&g, 31, 30, 400);
        for state in &states {
            assert_eq!(g.hash(state), state.compute_hash());
        }
        let distinct: BTreeSet<u64> = states.iter().map(|s| g.hash(s)).collect();
        let texts: BTreeSet<String> = states.iter().map(|s| g.position_text(s)).collect();
        assert_eq!(distinct.len(), texts.len());
    }
    let white = pos(WHITE_BLOCKED);
    let black = pos(&WHITE_BLOCKED.replace(" w", " b"));
    assert_ne!(standard().hash(&white), standard().hash(&black));
}
