//! State bookkeeping: the hash, the views, the observation and the playout value.

use denkmeter_core::Viewer;

use super::*;

#[test]
fn hash_equals_a_fresh_recomputation() {
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        let mut seen = std::collections::HashSet::new();
        random_games::<V>(2, 10, 300, |s, _| {
            assert_eq!(game.repetition_hash(s), s.fresh_hash());
            // The draw rules' counts are hashed too, where a ruleset has them.
            let counted = s.quiet != 0 || s.endgame != 0;
            assert_eq!(game.hash(s) != s.fresh_hash(), counted);
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
fn evaluation_is_even_at_the_start_and_counts_material_for_the_side_to_move() {
    fn start_is_even<V: Variant>() {
        let game = Draughts::<V>::new();
        assert_eq!(game.evaluate(&game.start()), 0, "{}", V::NAME);
    }
    for_every_ruleset!(start_is_even);
    type V = Scandinavian8x8Rules;
    let game = Scandinavian8x8::new();
    let e = |text: &str, side: char| game.evaluate(&state::<V>(text, side));
    let man_up = e("M:d1 M:f1 m:e8", 'w');
    assert!((50..=200).contains(&man_up), "{man_up}");
    // The fitted weights value a dame on an open board at about two and a half men (its
    // mobility weighs against it): more than a man, not the hand-set four and a half.
    assert!(
        e("D:d1 M:f1 m:e8", 'w') > man_up + 100,
        "a dame is worth more than a man"
    );
    assert_eq!(e("M:d1 d:e8 m:g8", 'w'), -e("M:d1 d:e8 m:g8", 'b'));
    assert!(e("M:d1 d:e8 m:g8", 'b') > 250);
    assert_eq!(game.facts().playout_limit, 300);
}

#[test]
fn the_search_hooks_agree_with_the_move_list() {
    // `forcing` says exactly when the moves are captures; `move_gain` counts what they take,
    // so that only a position bound to capture has moves that gain (which the quiescence
    // search relies on: `gains_only_when_forcing`); `threatened` says exactly when the other
    // side's moves would be captures if it were to move.
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        assert!(game.gains_only_when_forcing());
        let (mut forced, mut free, mut threatened) = (0, 0, 0);
        let mut agree = |s: &State, moves: &[Move]| {
            let mut passed = s.clone();
            passed.to_move = !passed.to_move;
            let mut replies = Vec::new();
            game.legal_moves(&passed, &mut replies);
            let threat = replies.first().is_some_and(|m| m.is_capture());
            assert_eq!(
                game.threatened(s),
                threat,
                "{}: {}",
                V::NAME,
                game.position_text(s)
            );
            threatened += usize::from(threat);
            let captures = moves.first().is_some_and(|m| m.is_capture());
            assert_eq!(
                game.forcing(s),
                captures,
                "{}: {}",
                V::NAME,
                game.position_text(s)
            );
            if captures {
                forced += 1;
            } else {
                free += 1;
            }
            for &mv in moves {
                let dames = (mv.captured & s.dames).count_ones() as i32;
                let men = mv.capture_count() as i32 - dames;
                let w = eval::weights::<V>();
                assert_eq!(
                    game.move_gain(s, mv),
                    men * w[eval::MAN] + dames * w[eval::DAME]
                );
                assert_eq!(game.move_gain(s, mv) > 0, game.forcing(s));
            }
        };
        random_games::<V>(7, 6, 300, &mut agree);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        for _ in 0..300 {
            let s = random_position::<V>(&mut rng);
            let mut moves = Vec::new();
            game.legal_moves(&s, &mut moves);
            agree(&s, &moves);
        }
        assert!(
            forced > 30 && free > 30 && threatened > 30,
            "{}: {forced} {free} {threatened}",
            V::NAME
        );
    }
    for_every_ruleset!(check);
}
