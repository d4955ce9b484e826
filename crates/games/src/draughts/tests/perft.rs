//! Perft: the published counts, the Scandinavian starts and `tests/perft/draughts.txt`.

use super::*;

#[test]
fn international_perft_matches_the_published_counts() {
    let game = International::new();
    // The published counts, duplicates removed; depth 9 takes about a second at opt-level 1.
    assert_eq!(
        perft_counts::<InternationalRules>(&game.start(), 9),
        [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423]
    );
}

#[test]
fn english_perft_matches_the_published_counts() {
    let game = English::new();
    assert_eq!(
        perft_counts::<EnglishRules>(&game.start(), 10),
        [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]
    );
}

/// The counts from the start of every Scandinavian ruleset; the same as those of the independent
/// reference `tools/reference_draughts.py` at every depth.
#[test]
fn scandinavian_perft_from_each_start() {
    fn check<V: Variant>(expected: [u64; 7]) {
        let s = Draughts::<V>::new().start();
        assert_eq!(perft_counts::<V>(&s, 7), expected, "{}", V::NAME);
    }
    check::<ScandinavianRules<10, STRONG, true>>([9, 81, 658, 3874, 21265, 102431, 540126]);
    check::<ScandinavianRules<10, STRONG, false>>([9, 81, 658, 3874, 21317, 106493, 575043]);
    check::<ScandinavianRules<10, MEDIUM, true>>([9, 81, 658, 3850, 20624, 93850, 444742]);
    check::<ScandinavianRules<10, MEDIUM, false>>([9, 81, 658, 3850, 20670, 97478, 474184]);
    check::<ScandinavianRules<10, WEAK, true>>([9, 81, 658, 3816, 20199, 92643, 433986]);
    check::<ScandinavianRules<10, WEAK, false>>([9, 81, 658, 3816, 20211, 93396, 441543]);
    check::<ScandinavianRules<8, STRONG, true>>([7, 49, 302, 1318, 5682, 22534, 98664]);
    check::<ScandinavianRules<8, STRONG, false>>([7, 49, 302, 1318, 5714, 23625, 106178]);
    check::<ScandinavianRules<8, MEDIUM, true>>([7, 49, 302, 1310, 5594, 21405, 84325]);
    check::<ScandinavianRules<8, MEDIUM, false>>([7, 49, 302, 1310, 5620, 22448, 91242]);
    check::<ScandinavianRules<8, WEAK, true>>([7, 49, 302, 1288, 5407, 20827, 80547]);
    check::<ScandinavianRules<8, WEAK, false>>([7, 49, 302, 1288, 5415, 21112, 82627]);
}

/// Every line of `tests/perft/draughts.txt`, through the rulesets of this module.
#[test]
fn perft_file_vectors_hold() {
    let text = include_str!("../../../tests/perft/draughts.txt");
    let games = rulesets();
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(parts.len(), 3, "line {}", i + 1);
        let game = games
            .iter()
            .find(|g| g.name() == parts[0])
            .unwrap_or_else(|| panic!("line {}: unknown ruleset {}", i + 1, parts[0]));
        let counts: Vec<u64> = parts[2]
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        let position = (parts[1] != "start").then_some(parts[1]);
        let found: Vec<u64> = (game.perft)(position, counts.len() as u32)
            .unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        assert_eq!(found, counts, "line {}: {line}", i + 1);
        checked += 1;
    }
    assert!(checked >= 30);
    for game in &games {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{}; start;", game.name()))),
            "{} has a vector from its start",
            game.name()
        );
    }
}
