//! The rulesets and their types, the board and its legend, the start position and perft.

use denkmeter_core::RepetitionRule;

use super::*;

#[test]
fn move_fits_in_four_bytes() {
    assert!(std::mem::size_of::<Move>() <= 4);
}

#[test]
fn ruleset_names_and_facts() {
    let names: Vec<&str> = all_rulesets().iter().map(|g| g.name()).collect();
    assert_eq!(
        names,
        [
            "fort-chitral",
            "fort-chitral-orthogonal",
            "fort-chitral-no-loss-at-three"
        ]
    );
    for g in all_rulesets() {
        let facts = g.facts();
        assert_eq!(facts.family, "fort-chitral");
        assert!(!facts.description.is_empty());
        assert!(facts.rules.starts_with("# Fort Chitral"));
        assert_eq!(facts.repetition, RepetitionRule::DrawOnThird);
        assert!(!facts.hidden_information);
        assert!(facts.playout_limit > 0);
    }
    assert!(standard().variant().captures_diagonally());
    assert!(!orthogonal().variant().captures_diagonally());
    assert!(standard().variant().loses_below_four() && orthogonal().variant().loses_below_four());
    assert!(!no_loss().variant().loses_below_four());
}

#[test]
fn ruleset_list_holds_the_three_rulesets() {
    struct Names(Vec<&'static str>);
    impl denkmeter_core::RulesetVisitor for Names {
        fn visit<G: Game>(&mut self, game: G) {
            self.0.push(game.name());
        }
    }
    let mut names = Names(Vec::new());
    crate::visit_rulesets(&mut names);
    for variant in Variant::ALL {
        assert!(names.0.contains(&variant.name()), "{}", variant.name());
    }
}

#[test]
fn board_is_18_by_18_with_files_a_to_r() {
    let g = standard();
    let board = g.board();
    assert_eq!(board.len(), 324);
    assert_eq!(board.name(Cell(0)), "a1");
    assert_eq!(board.name(Cell(17)), "r1");
    assert_eq!(board.name(Cell(323)), "r18");
    assert_eq!(board.cell_by_name("s1"), None);
    assert_eq!(board.cell_by_name("a19"), None);
}

#[test]
fn fort_is_the_central_two_by_two_painted_as_the_fort() {
    let g = standard();
    let board = g.board();
    let fort: Vec<&str> = board
        .cell_ids()
        .filter(|&c| board.info(c).classes.contains(&"fort"))
        .map(|c| board.name(c))
        .collect();
    assert_eq!(fort, ["i9", "j9", "i10", "j10"]);
    assert_eq!(board.style(sq("i9")), &FORT_STYLE);
    assert_eq!(FORT_STYLE.words, "the Fort");
    assert_eq!(board.style(sq("h9")).class, "plain");
    let legend = board.legend();
    assert_eq!(legend.cells, [FORT_STYLE]);
    let piece = legend.piece(PIECE).unwrap();
    assert_eq!(
        (piece.letter, piece.shape),
        ('P', denkmeter_core::PieceShape::Disc)
    );
}

#[test]
fn start_position_fills_the_first_ranks() {
    let g = standard();
    let start = g.start();
    assert_eq!(g.position_text(&start), START);
    assert_eq!(pos(START), start);
    assert_eq!(start.count(Player::White), 18);
    assert_eq!(start.count(Player::Black), 18);
    for file in "abcdefghijklmnopqr".chars() {
        assert_eq!(start.piece_at(sq(&format!("{file}1"))), Some(Player::White));
        assert_eq!(
            start.piece_at(sq(&format!("{file}18"))),
            Some(Player::Black)
        );
        assert_eq!(start.piece_at(sq(&format!("{file}2"))), None);
    }
    assert_eq!(g.to_move(&start), Player::White);
    assert_eq!(g.status(&start), Status::Ongoing);
}

/// Each of the 16 inner pieces of rank 1 steps to three squares of rank 2, a1 and r1 to two;
/// nothing can jump, as rank 1 is full.
#[test]
fn fifty_two_steps_from_the_start() {
    for g in all_rulesets() {
        let start = g.start();
        assert_eq!(moves_of(&g, &start).len(), 52);
        assert_eq!(destinations(&g, &start, "a1"), ["a2", "b2"]);
        assert_eq!(destinations(&g, &start, "e1"), ["d2", "e2", "f2"]);
        assert_eq!(destinations(&g, &start, "r1"), ["q2", "r2"]);
        let black = played(&g, &start, "a1-a2");
        assert_eq!(destinations(&g, &black, "i18"), ["h17", "i17", "j17"]);
    }
}

#[test]
fn perft_from_the_start() {
    for g in all_rulesets() {
        let start = g.start();
        let counts: Vec<u64> = (1..=3).map(|d| perft(&g, &start, d)).collect();
        assert_eq!(counts, [52, 2704, 163_280], "{}", g.name());
    }
}

/// Every line of `tests/perft/fort-chitral.txt`, checked up to depth 3 here to stay quick (the
/// integration test `tests/perft.rs` checks every depth).
#[test]
fn perft_file_counts() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/fort-chitral.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = 0;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(fields.len(), 3, "{line}");
        let g = all_rulesets()
            .into_iter()
            .find(|g| g.name() == fields[0])
            .unwrap_or_else(|| panic!("unknown ruleset in {line}"));
        let state = if fields[1] == "start" {
            g.start()
        } else {
            g.parse_position(fields[1]).unwrap()
        };
        for (depth, count) in fields[2].split_whitespace().enumerate().take(3) {
            let count: u64 = count.parse().unwrap();
            assert_eq!(perft(&g, &state, depth as u32 + 1), count, "{line}");
        }
        lines += 1;
    }
    assert!(lines >= 6);
}
