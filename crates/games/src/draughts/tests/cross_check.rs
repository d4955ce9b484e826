//! The fast move generator, checked against the slow reference.

use super::*;

/// The fast moves in the slow generator's terms.
fn keys<V: Variant>(moves: &[Move]) -> BTreeSet<slow::Key> {
    let g = geometry::<V>();
    let name = |sq: u8| notation::square_name(g, sq);
    moves
        .iter()
        .map(|m| {
            let mut captured: Vec<String> = Squares(m.captured).map(name).collect();
            captured.sort();
            (name(m.from), name(m.to), captured)
        })
        .collect()
}

#[test]
fn fast_generator_agrees_with_the_slow_one() {
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        let rules = slow::rules(V::NAME);
        let mut compare = |s: &State, moves: &[Move]| {
            let fast = keys::<V>(moves);
            assert_eq!(fast.len(), moves.len(), "no duplicates");
            let text = game.position_text(s);
            assert_eq!(fast, slow::moves(&rules, &text), "{} {text}", V::NAME);
        };
        random_games::<V>(5, 4, 300, &mut compare);
        // Random positions with many dames exercise long captures.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut moves = Vec::new();
        for _ in 0..400 {
            let s = random_position::<V>(&mut rng);
            game.legal_moves(&s, &mut moves);
            compare(&s, &moves);
        }
    }
    for_every_ruleset!(check);
}
