//! Views, the hash and the observation.

use super::*;

#[test]
fn move_and_position_views() {
    let g = game();
    let start = g.start();
    let mv = g.parse_move(&start, "b2-b4").unwrap();
    let view = g.move_view(&start, mv);
    assert_eq!(view.from, Some(sq("b2")));
    assert_eq!(view.to, Some(sq("b4")));
    assert_eq!(view.removed, [sq("b3")]);
    assert!(view.captured.is_empty());
    let state = pos("-k4-/7/4w2/3K3/7/7/-5- w");
    let view = g.move_view(&state, g.parse_move(&state, "d4xe5").unwrap());
    assert_eq!(view.captured, [sq("e5")]);
    assert!(view.removed.is_empty());
    let pass = g.move_view(&state, Move::PASS);
    assert_eq!((pass.from, pass.to), (None, None));

    let view = g.position_view(&start, Viewer::Everyone);
    assert_eq!(view.pieces.len(), 6);
    assert_eq!(view.to_move, Player::White);
    assert_eq!(view.absent, [sq("a1"), sq("g1"), sq("a7"), sq("g7")]);
    let king = view.pieces.iter().find(|p| p.letter == 'k').unwrap();
    assert_eq!(
        (king.cell, king.owner, king.kind),
        (sq("d6"), Player::Black, "king")
    );
    let warrior = view.pieces.iter().find(|p| p.letter == 'W').unwrap();
    assert_eq!((warrior.owner, warrior.kind), (Player::White, "warrior"));
}

#[test]
fn hash_matches_recomputation_in_random_games() {
    let g = game();
    let states = random_states(31, 40, 400);
    for state in &states {
        assert_eq!(g.hash(state), state.compute_hash());
    }
    let distinct: BTreeSet<u64> = states.iter().map(|s| g.hash(s)).collect();
    let texts: BTreeSet<String> = states.iter().map(|s| g.position_text(s)).collect();
    assert_eq!(distinct.len(), texts.len());
    // The side to move is part of the hash.
    let white = pos("-5-/-2k1-1/-3-2/-2-3/-1-4/--5/K------ w");
    let black = pos("-5-/-2k1-1/-3-2/-2-3/-1-4/--5/K------ b");
    assert_ne!(g.hash(&white), g.hash(&black));
}
