//! Perft counts from the start, of the example position and of `tests/perft/chad.txt`.

use denkmeter_core::perft::perft;

use super::*;

#[test]
fn perft_from_the_start() {
    let game = chad();
    let s = game.start();
    let counts: Vec<u64> = (1..=3).map(|d| perft(&game, &s, d)).collect();
    assert_eq!(counts, [54, 2844, 187_228]);
}

#[test]
fn perft_of_the_example_position() {
    let game = chad();
    let counts = |text| -> Vec<u64> { (1..=3).map(|d| perft(&game, &position(text), d)).collect() };
    assert_eq!(counts(EXAMPLE_WHITE), [66, 2231, 118_310]);
    assert_eq!(counts(EXAMPLE_BLACK), [34, 1752, 64_421]);
}

#[test]
fn perft_file_vectors_hold() {
    let game = chad();
    let file = include_str!("../../../tests/perft/chad.txt");
    let mut checked = 0;
    for line in file.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(parts.len(), 3, "{line}");
        assert_eq!(parts[0], "chad");
        let s = if parts[1] == "start" {
            game.start()
        } else {
            position(parts[1])
        };
        for (depth, count) in parts[2].split_whitespace().enumerate() {
            let count: u64 = count.parse().unwrap();
            assert_eq!(perft(&game, &s, depth as u32 + 1), count, "{line}");
        }
        checked += 1;
    }
    assert!(checked >= 3);
}
