//! Every perft vector in `tests/perft/*.txt`, checked for every ruleset of the list.
//!
//! Format: `# comment`, or `RULESET; POSITION; C1 C2 ...` where POSITION is `start` or a position
//! string and Ci is the perft count at depth i.

use std::path::Path;

use denkmeter_core::perft::perft_table;
use denkmeter_core::{Game, RulesetVisitor};

fn vectors() -> Vec<(String, String, String, Vec<u64>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/perft exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable perft file");
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let place = format!("{}:{}", file.display(), i + 1);
            let parts: Vec<&str> = line.split(';').map(str::trim).collect();
            assert_eq!(
                parts.len(),
                3,
                "{place}: expected RULESET; POSITION; COUNTS"
            );
            let counts = parts[2]
                .split_whitespace()
                .map(|c| {
                    c.parse()
                        .unwrap_or_else(|_| panic!("{place}: bad count {c:?}"))
                })
                .collect();
            out.push((place, parts[0].to_string(), parts[1].to_string(), counts));
        }
    }
    out
}

/// Checks every vector of each ruleset it visits, and that each has one from its start.
struct Checker {
    vectors: Vec<(String, String, String, Vec<u64>)>,
    checked: usize,
}

impl RulesetVisitor for Checker {
    fn visit<G: Game>(&mut self, game: G) {
        let mut from_start = false;
        for (place, _, position, counts) in self.vectors.iter().filter(|v| v.1 == game.name()) {
            let state = if position == "start" {
                game.start()
            } else {
                game.parse_position(position)
                    .unwrap_or_else(|e| panic!("{place}: {e}"))
            };
            let found: Vec<u64> = perft_table(&game, &state, counts.len() as u32)
                .into_iter()
                .map(|(_, c)| c)
                .collect();
            assert_eq!(&found, counts, "{place}");
            from_start |= position == "start" && counts.len() >= 3;
            self.checked += 1;
        }
        assert!(
            from_start,
            "{} has no perft vector from its start to depth 3",
            game.name()
        );
    }
}

#[test]
fn every_ruleset_matches_its_perft_vectors() {
    let vectors = vectors();
    let total = vectors.len();
    let mut checker = Checker {
        vectors,
        checked: 0,
    };
    denkmeter_games::visit_rulesets(&mut checker);
    assert_eq!(
        checker.checked, total,
        "every vector names a ruleset of the list"
    );
}
