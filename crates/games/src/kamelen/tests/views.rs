//! Views and the hash.

use super::*;

#[test]
fn move_views_name_the_squares_and_the_capture() {
    let g = game();
    let start = g.start();
    let view = g.move_view(&start, g.parse_move(&start, "e1-h3").unwrap());
    assert_eq!((view.from, view.to), (Some(sq("e1")), Some(sq("h3"))));
    assert!(view.via.is_empty() && view.captured.is_empty() && view.removed.is_empty());
    assert!(!view.promotes);
    let state = setup("Cf6 dg9 Cc2 cc10", 'w');
    let view = g.move_view(&state, g.parse_move(&state, "f6xg9").unwrap());
    assert_eq!(view.captured, [sq("g9")]);
    let pass = g.move_view(&state, Move::PASS);
    assert_eq!((pass.from, pass.to), (None, None));
    assert!(pass.captured.is_empty());
}

#[test]
fn position_views_show_every_animal_and_the_rocks() {
    for g in all_rulesets() {
        let start = g.start();
        let view = g.position_view(&start, Viewer::Everyone);
        assert_eq!(view.pieces.len(), 42);
        assert_eq!(view.to_move, Player::White);
        assert!(view.absent.is_empty());
        let rocks: Vec<_> = view.pieces.iter().filter(|p| p.kind == "rock").collect();
        assert_eq!(rocks.len(), 6);
        assert!(rocks
            .iter()
            .all(|p| p.owner == Player::White && p.letter == 'X'));
        let camel = view
            .pieces
            .iter()
            .find(|p| p.cell == sq_in(&g, "c2"))
            .unwrap();
        assert_eq!(
            (camel.owner, camel.kind, camel.letter),
            (Player::White, "camel", 'C')
        );
        let top = format!("a{}", g.ranks());
        let dromedary = view
            .pieces
            .iter()
            .find(|p| p.cell == sq_in(&g, &top))
            .unwrap();
        assert_eq!(
            (dromedary.owner, dromedary.kind, dromedary.letter),
            (Player::Black, "dromedary", 'd')
        );
        for piece in &view.pieces {
            let style = g.board().legend().piece(piece.kind).unwrap();
            assert_eq!(style.letter, piece.letter.to_ascii_uppercase());
        }
    }
}

#[test]
fn hash_matches_recomputation_in_random_games() {
    for g in all_rulesets() {
        let states = random_states_in(&g, 31, 10, 400);
        for state in &states {
            assert_eq!(g.hash(state), state.compute_hash());
        }
        let distinct: BTreeSet<u64> = states.iter().map(|s| g.hash(s)).collect();
        let texts: BTreeSet<String> = states.iter().map(|s| g.position_text(s)).collect();
        assert_eq!(distinct.len(), texts.len());
    }
    // The side to move is part of the hash, and so are the rocks.
    let white = setup("Ca2 Xa3 Xb2 cj11", 'w');
    let black = setup("Ca2 Xa3 Xb2 cj11", 'b');
    assert_ne!(game().hash(&white), game().hash(&black));
    assert_ne!(
        game().hash(&white),
        game().hash(&setup("Ca2 Xa3 cj11", 'w'))
    );
}
