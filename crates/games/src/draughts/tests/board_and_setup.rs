//! The rulesets, their boards and their start positions.

use super::*;

#[test]
fn rulesets_in_order_with_families_and_descriptions() {
    let games = rulesets();
    let names: Vec<&str> = games.iter().map(|g| g.name()).collect();
    assert_eq!(
        names,
        [
            "scandinavian",
            "scandinavian-free",
            "scandinavian-medium",
            "scandinavian-medium-free",
            "scandinavian-weak",
            "scandinavian-weak-free",
            "scandinavian-8x8",
            "scandinavian-8x8-free",
            "scandinavian-8x8-medium",
            "scandinavian-8x8-medium-free",
            "scandinavian-8x8-weak",
            "scandinavian-8x8-weak-free",
            "international",
            "english",
        ]
    );
    for game in rulesets() {
        let family = match game.name() {
            "international" => "international",
            "english" => "english",
            _ => "scandinavian",
        };
        assert_eq!(game.facts.family, family, "{}", game.name());
        assert!(!game.facts.description.is_empty() && !game.facts.description.contains('\n'));
        assert!(!game.facts.hidden_information);
    }
    let descriptions: BTreeSet<&str> = games.iter().map(|g| g.facts.description).collect();
    assert_eq!(descriptions.len(), 14, "every description is its own");
}

#[test]
fn start_positions_are_the_published_strings() {
    let ten = "m1m1m1m1m1/1m1m1m1m1m/m1m1m1m1m1/1m1m1m1m1m/10/10/M1M1M1M1M1/1M1M1M1M1M/M1M1M1M1M1/1M1M1M1M1M w";
    let eight = "m1m1m1m1/1m1m1m1m/m1m1m1m1/8/8/1M1M1M1M/M1M1M1M1/1M1M1M1M w";
    let international = "1m1m1m1m1m/m1m1m1m1m1/1m1m1m1m1m/m1m1m1m1m1/10/10/1M1M1M1M1M/M1M1M1M1M1/1M1M1M1M1M/M1M1M1M1M1 w";
    let english = "1m1m1m1m/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/M1M1M1M1 w";
    for game in rulesets() {
        let expected = match (game.name(), game.cells) {
            ("international", _) => international,
            ("english", _) => english,
            (_, 100) => ten,
            _ => eight,
        };
        assert_eq!(game.start_position, expected, "{}", game.name());
    }
    let s = Scandinavian::new().start();
    assert_eq!(s.count(Player::White), (20, 0));
    assert_eq!(s.count(Player::Black), (20, 0));
    assert_eq!(English::new().start().count(Player::Black), (12, 0));
}

#[test]
fn boards_mark_the_dark_squares() {
    let scandinavian = Scandinavian::new();
    let board = scandinavian.board();
    let class = |b: &denkmeter_core::Board, name: &str| {
        b.info(b.cell_by_name(name).unwrap()).classes.clone()
    };
    assert_eq!(class(board, "a1"), ["light"]);
    assert_eq!(class(board, "j1"), ["dark"]);
    assert_eq!(class(International::new().board(), "a1"), ["dark"]);
    assert_eq!(class(English::new().board(), "h8"), ["dark"]);
    assert_eq!(class(Scandinavian8x8::new().board(), "h1"), ["dark"]);
    // The geometry's dark squares are the board's.
    fn check<V: Variant>() {
        let game = Draughts::<V>::new();
        let g = geometry::<V>();
        let dark: Vec<u16> = Squares(g.valid)
            .map(|sq| u16::from(g.cell[usize::from(sq)]))
            .collect();
        let mut marked: Vec<u16> = game
            .board()
            .cell_ids()
            .filter(|&c| game.board().info(c).classes.contains(&"dark"))
            .map(|c| c.0)
            .collect();
        marked.sort_unstable();
        let mut dark = dark;
        dark.sort_unstable();
        assert_eq!(dark, marked, "{}", V::NAME);
        assert_eq!(dark.len(), V::SIZE * V::SIZE / 2);
    }
    for_every_ruleset!(check);
}

#[test]
fn english_checkers_calls_its_first_player_black_and_draws_its_men_dark() {
    let english = Draughts::<EnglishRules>::new();
    let names = english.facts().side_names;
    assert_eq!((names.white, names.black), ("Black", "White"));
    let legend = english.board().legend();
    assert!(legend.first_player_dark);
    assert_eq!(
        legend.piece_colours(Player::White),
        (
            denkmeter_core::PALETTE.black_piece,
            denkmeter_core::PALETTE.black_ink
        )
    );
    // The rules' first player still moves first, from the bottom.
    let start = english.start();
    assert_eq!(english.to_move(&start), Player::White);
    let view = english.position_view(&start, denkmeter_core::Viewer::Spectator);
    let svg = denkmeter_core::svg::diagram(english.board(), &view, &[]);
    let dark_man = format!(
        r##"fill="{}" stroke="#000000" stroke-width="1.5"><title>man</title>"##,
        denkmeter_core::PALETTE.black_piece
    );
    // The man on a1, in the bottom left corner, is a dark one.
    let a1 = svg
        .lines()
        .find(|l| l.contains(r#"<circle cx="44" cy="324""#));
    assert!(a1.is_some_and(|l| l.contains(&dark_man)), "{svg}");

    let international = Draughts::<InternationalRules>::new();
    assert_eq!(international.facts().side_names.white, "White");
    assert!(!international.board().legend().first_player_dark);
}
