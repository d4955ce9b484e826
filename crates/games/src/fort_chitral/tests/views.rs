//! Views, the hash and the evaluation.

use denkmeter_core::Viewer;

use super::*;

#[test]
fn a_move_view_is_its_start_end_and_captures() {
    let g = standard();
    // A chain e5 -> e7 -> g7 is clicked as e5 then g7; it catches g6 (south of g7, g5 beyond).
    let state = filled("Pe5 Pe6 Pf7 pg6 Pg5", 'w');
    let view = g.move_view(&state, g.parse_move(&state, "e5-g7").unwrap());
    assert_eq!(view.from, Some(sq("e5")));
    assert!(view.via.is_empty());
    assert_eq!(view.to, Some(sq("g7")));
    assert_eq!(view.captured, [sq("g6")]);
    assert!(view.removed.is_empty() && view.flipped.is_empty() && !view.promotes);
    assert_eq!(view.choice, None);
    // The orthogonal ruleset shows only orthogonal captures.
    let state = filled("Ph5 pg6 Pf6 pi5 Pj4", 'w');
    let mv = g.parse_move(&state, "h5-h6").unwrap();
    assert_eq!(g.move_view(&state, mv).captured.len(), 2);
    assert_eq!(orthogonal().move_view(&state, mv).captured, [sq("g6")]);
}

#[test]
fn the_position_view_shows_every_piece() {
    let g = standard();
    let start = g.start();
    let view = g.position_view(&start, Viewer::Everyone);
    assert_eq!(view.pieces.len(), 36);
    assert_eq!(view.to_move, Player::White);
    assert!(view.absent.is_empty());
    let a1 = view.pieces.iter().find(|p| p.cell == sq("a1")).unwrap();
    assert_eq!(
        (a1.owner, a1.kind, a1.letter),
        (Player::White, "piece", 'P')
    );
    let r18 = view.pieces.iter().find(|p| p.cell == sq("r18")).unwrap();
    assert_eq!(
        (r18.owner, r18.kind, r18.letter),
        (Player::Black, "piece", 'p')
    );
    for viewer in [Viewer::Spectator, Viewer::Player(Player::Black)] {
        assert_eq!(g.position_view(&start, viewer), view);
    }
}

#[test]
fn hash_matches_recomputation_in_random_games() {
    for g in all_rulesets() {
        let states = random_states(&g, 31, 4, 1500);
        for state in &states {
            assert_eq!(g.hash(state), state.compute_hash());
        }
        let distinct: BTreeSet<u64> = states.iter().map(|s| g.hash(s)).collect();
        let texts: BTreeSet<String> = states.iter().map(|s| g.position_text(s)).collect();
        assert_eq!(distinct.len(), texts.len());
    }
    let white = pos(START);
    let black = pos(&START.replace(" w", " b"));
    assert_ne!(standard().hash(&white), standard().hash(&black));
}

#[test]
fn evaluation_is_zero_at_the_start_and_symmetric() {
    let g = standard();
    assert_eq!(g.evaluate(&g.start()), 0);
    let state = filled("Pe5 pe14", 'w');
    assert_eq!(g.evaluate(&state), 0);
    let state = filled("Pe5 pe14", 'b');
    assert_eq!(g.evaluate(&state), 0);
}

#[test]
fn evaluation_counts_material() {
    let g = standard();
    let ahead = filled("Pe5 Pe6 pe14", 'w');
    let behind = filled("Pe5 Pe6 pe14", 'b');
    let eval = g.evaluate(&ahead);
    assert!(eval >= 100, "{eval}");
    assert_eq!(g.evaluate(&behind), -eval);
}

#[test]
fn evaluation_prefers_pieces_nearer_the_fort() {
    let g = standard();
    let near = g.evaluate(&filled("Ph8 pe14", 'w'));
    let far = g.evaluate(&filled("Pd4 pe14", 'w'));
    assert!(near > far, "{near} {far}");
    // A piece on the Fort is worth less than a piece more in a corner.
    let one_more = g.evaluate(&filled("Pa3 Pa4 pe14", 'w'));
    let nearest = g.evaluate(&filled("Pi9 pe14", 'w'));
    assert!(one_more > nearest, "{one_more} {nearest}");
    // The four leaders count most: bringing a fifth piece near adds less than a fourth.
    let four = g.evaluate(&filled("Ph8 Pk8 Ph11 Pk11 pe14", 'w'));
    let three = g.evaluate(&filled("Ph8 Pk8 Ph11 Pa5 pe14", 'w'));
    let five = g.evaluate(&filled("Ph8 Pk8 Ph11 Pk11 Pg7 pe14", 'w'));
    let five_far = g.evaluate(&filled("Ph8 Pk8 Ph11 Pk11 Pa5 pe14", 'w'));
    assert!(
        four - three > five - five_far,
        "{four} {three} {five} {five_far}"
    );
}

#[test]
fn evaluation_rewards_fort_squares_held() {
    let g = standard();
    let two = g.evaluate(&filled("Pi9 Pj9 ph4 ph5", 'w'));
    let next_to = g.evaluate(&filled("Ph8 Pk8 ph4 ph5", 'w'));
    assert!(two > next_to, "{two} {next_to}");
    let three = g.evaluate(&filled("Pi9 Pj9 Pi10 ph4 ph5 ph6", 'w'));
    assert!(three > two, "{three} {two}");
}
