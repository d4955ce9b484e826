//! State bookkeeping: the hash, the views, the observation and the playout value.

use denkmeter_core::Viewer;

use super::*;

#[test]
fn hash_equals_a_fresh_recomputation() {
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        let mut seen = std::collections::HashSet::new();
        random_games::<V>(2, 10, 300, |s, _| {
            assert_eq!(game.hash(s), s.fresh_hash());
            seen.insert(game.hash(s));
        });
        assert!(seen.len() > 300, "{}", V::NAME);
    }
    for_every_ruleset!(check);
    let game = English::new();
    let s = game.start();
    let mut black = s.clone();
    black.to_move = Player::Black;
    black.hash = black.fresh_hash();
    assert_ne!(
        game.hash(&s),
        game.hash(&black),
        "the side to move is hashed"
    );
}

#[test]
fn move_is_small() {
    assert!(std::mem::size_of::<Move>() <= 16);
    assert!(std::mem::size_of::<State>() <= 40);
}

#[test]
fn views_show_pieces_and_capture_routes() {
    type V = Scandinavian8x8Rules;
    let game = Scandinavian8x8::new();
    let s = state::<V>("M:d1 m:d3 d:e6 D:a8", 'w');
    let view = game.position_view(&s, Viewer::Everyone);
    assert_eq!(view.pieces.len(), 4);
    let cell = |name: &str| game.board().cell_by_name(name).unwrap();
    let dame = view.pieces.iter().find(|p| p.cell == cell("e6")).unwrap();
    assert_eq!(
        (dame.kind, dame.letter, dame.owner),
        ("dame", 'd', Player::Black)
    );
    let man = view.pieces.iter().find(|p| p.cell == cell("d1")).unwrap();
    assert_eq!((man.kind, man.letter), ("man", 'M'));
    let mv = game.parse_move(&s, "d1xd5xf7").unwrap();
    let mv_view = game.move_view(&s, mv);
    assert_eq!(mv_view.from, Some(cell("d1")));
    assert_eq!(mv_view.via, [cell("d5")]);
    assert_eq!(mv_view.to, Some(cell("f7")));
    assert_eq!(mv_view.captured, [cell("d3"), cell("e6")]);
    assert!(!mv_view.promotes);
    let quiet = state::<V>("M:d1 m:h7", 'w');
    let view = game.move_view(&quiet, game.parse_move(&quiet, "d1-e2").unwrap());
    assert!(view.via.is_empty() && view.captured.is_empty());
    assert_eq!(view.to, Some(cell("e2")));
    // International and English call a dame a king.
    let s = state::<EnglishRules>("D:d4 m:h8", 'w');
    let view = English::new().position_view(&s, Viewer::Everyone);
    assert!(view
        .pieces
        .iter()
        .any(|p| p.kind == "king" && p.letter == 'D'));
}

#[test]
fn evaluation_counts_material_for_the_side_to_move() {
    type V = Scandinavian8x8Rules;
    let game = Scandinavian8x8::new();
    assert_eq!(game.evaluate(&game.start()), 0);
    assert_eq!(game.evaluate(&state::<V>("D:d1 M:f1 m:e8", 'w')), 300);
    assert_eq!(game.evaluate(&state::<V>("M:d1 M:f1 m:e8", 'w')), 100);
    assert_eq!(game.evaluate(&state::<V>("M:d1 d:e8 m:g8", 'w')), -300);
    assert_eq!(game.evaluate(&state::<V>("M:d1 d:e8 m:g8", 'b')), 300);
    assert_eq!(game.facts().playout_limit, 300);
}
