//! Every perft vector in `tests/perft/*.txt`, checked through the registry.
//!
//! Format: `# comment`, or `RULESET; POSITION; C1 C2 ...` where POSITION is `start` or a position
//! string and Ci is the perft count at depth i.

use std::path::Path;

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

#[test]
fn perft_vectors_match() {
    let vectors = vectors();
    assert!(!vectors.is_empty());
    for (place, ruleset, position, counts) in vectors {
        let game = denkmeter_games::registry::find(&ruleset)
            .unwrap_or_else(|| panic!("{place}: unknown ruleset {ruleset}"));
        let position = (position != "start").then_some(position.as_str());
        let table = game
            .perft(position, counts.len() as u32)
            .unwrap_or_else(|e| panic!("{place}: {e}"));
        let found: Vec<u64> = table.into_iter().map(|(_, c)| c).collect();
        assert_eq!(found, counts, "{place}");
    }
}

#[test]
fn every_ruleset_has_perft_vectors_from_its_start() {
    let vectors = vectors();
    for game in denkmeter_games::registry::rulesets() {
        assert!(
            vectors
                .iter()
                .any(|(_, r, p, c)| r == game.name() && p == "start" && c.len() >= 3),
            "{} has no perft vector from its start to depth 3",
            game.name()
        );
    }
}
