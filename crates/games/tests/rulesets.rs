//! The list of rulesets: unique names, and facts and a rules page for each.

use denkmeter_core::{Game, RulesetVisitor};

#[derive(Default)]
struct Names(Vec<&'static str>, Vec<String>);

impl RulesetVisitor for Names {
    fn visit<G: Game>(&mut self, game: G) {
        let facts = game.facts();
        assert_eq!(game.name(), facts.name);
        // A name for people, not the key.
        assert!(!facts.title.is_empty(), "{}: no display name", facts.name);
        self.1.push(facts.display_name());
        assert!(!facts.description.is_empty(), "{}", facts.name);
        assert!(
            facts.rules.starts_with('#'),
            "{}: the rules page is Markdown with a title",
            facts.name
        );
        assert!(
            facts.rules.to_lowercase().contains("reconstructed"),
            "{}: the rules page says what is reconstructed",
            facts.name
        );
        assert!(!game.board().is_empty(), "{}", facts.name);
        assert!(facts.playout_limit > 0, "{}", facts.name);
        self.0.push(facts.name);
    }
}

#[test]
fn every_ruleset_has_a_unique_name_and_its_rules_page() {
    let mut names = Names::default();
    denkmeter_games::visit_rulesets(&mut names);
    let mut unique = names.0.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(
        unique.len(),
        names.0.len(),
        "names are unique: {:?}",
        names.0
    );
    assert!(names.0.contains(&"chad") && names.0.contains(&"scandinavian-8x8-weak-free"));
    let mut titles = names.1.clone();
    titles.sort_unstable();
    titles.dedup();
    assert_eq!(
        titles.len(),
        names.1.len(),
        "display names are unique: {:?}",
        names.1
    );
    // The twelve Scandinavian rulesets' names are built from their parameters.
    let title = |key: &str| names.1[names.0.iter().position(|n| *n == key).unwrap()].clone();
    assert_eq!(
        title("scandinavian-8x8-medium-free"),
        "Scandinavian checkers 8x8, medium men, free line"
    );
    assert_eq!(title("scandinavian"), "Scandinavian checkers 10x10");
    assert_eq!(
        title("scandinavian-weak"),
        "Scandinavian checkers 10x10, weak men"
    );
    assert_eq!(title("fort-chitral"), "Fort Chitral");
    assert_eq!(title("english"), "English checkers");
}

/// Checks that every piece the views draw, along a random game, has a style in the board's
/// legend with the same letter: on the front, on the back of two-sided boards, and those the
/// moves place.
struct LegendCoversPieces;

impl RulesetVisitor for LegendCoversPieces {
    fn visit<G: Game>(&mut self, game: G) {
        use rand::{Rng, SeedableRng};
        let legend = game.board().legend();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let mut state = game.start();
        let mut moves = Vec::new();
        for _ in 0..300 {
            let everyone = denkmeter_core::Viewer::Everyone;
            let view = game.position_view(&state, everyone);
            let back = game.back_view(&state, everyone);
            for piece in view
                .pieces
                .iter()
                .chain(back.iter().flat_map(|b| &b.pieces))
            {
                let style = legend.piece(piece.kind).unwrap_or_else(|| {
                    panic!("{}: no legend entry for {}", game.name(), piece.kind)
                });
                assert_eq!(
                    style.letter,
                    piece.letter.to_ascii_uppercase(),
                    "{}: {}",
                    game.name(),
                    piece.kind
                );
            }
            game.legal_moves(&state, &mut moves);
            for &mv in &moves {
                if let Some(kind) = game.move_view(&state, mv).places {
                    assert!(legend.piece(kind).is_some(), "{}: {kind}", game.name());
                }
            }
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play_unchecked(&mut state, mv);
        }
    }
}

#[test]
fn every_piece_drawn_has_a_style_in_its_legend() {
    denkmeter_games::visit_rulesets(&mut LegendCoversPieces);
}

/// Collects, for every ruleset, where the interface's marks (last move, hint, selection) would
/// be hard to tell from the board's own cells or from each other.
#[derive(Default)]
struct MarkClashes(Vec<String>);

impl RulesetVisitor for MarkClashes {
    fn visit<G: Game>(&mut self, game: G) {
        let legend = game.board().legend();
        for clash in legend.mark_clashes(&denkmeter_core::PALETTE) {
            self.0.push(format!("{}: {clash}", game.name()));
        }
    }
}

#[test]
fn the_marks_stand_out_on_every_board() {
    let mut clashes = MarkClashes::default();
    denkmeter_games::visit_rulesets(&mut clashes);
    assert!(clashes.0.is_empty(), "{}", clashes.0.join("\n"));
}
