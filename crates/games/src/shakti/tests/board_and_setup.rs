//! The ruleset and its types, the board, the start position and perft.

use super::*;

#[test]
fn move_fits_in_four_bytes() {
    assert!(std::mem::size_of::<Move>() <= 4);
}

#[test]
fn ruleset_names() {
    let g = game();
    assert_eq!(g.name(), "shakti");
    assert_eq!(g.facts().family, "shakti");
    assert!(!g.facts().description.is_empty());
    assert_eq!(g.board().len(), 49);
    assert_eq!(
        g.facts().repetition,
        denkmeter_core::RepetitionRule::DrawOnThird
    );
    assert!(!g.facts().hidden_information);
    // Measured: alpha-beta beats Monte Carlo tree search 20-0 at 0.3 s a move.
    assert_eq!(g.facts().search, denkmeter_core::SearchKind::AlphaBeta);
}

// ---------------------------------------------------------------- board and setup

#[test]
fn start_position_round_trips() {
    let g = game();
    let start = g.start();
    assert_eq!(g.position_text(&start), START);
    assert_eq!(pos(START), start);
    assert_eq!(start.tile_count(), 45);
    for corner in ["a1", "g1", "a7", "g7"] {
        assert!(!start.has_tile(sq(corner)), "{corner}");
    }
    assert_eq!(start.king(Player::White), sq("d2"));
    assert_eq!(start.king(Player::Black), sq("d6"));
    assert_eq!(
        start.warriors(Player::White).collect::<Vec<_>>(),
        [sq("b2"), sq("f2")]
    );
    assert_eq!(
        start.warriors(Player::Black).collect::<Vec<_>>(),
        [sq("b6"), sq("f6")]
    );
    assert_eq!(g.to_move(&start), Player::White);
    assert_eq!(g.status(&start), Status::Ongoing);
}

/// The king on d2 reaches its 8 neighbours. Each warrior has 9 moves: b2 goes to b3, b4 (over
/// b3), c3, d4 (over c3), c2 (then the own king blocks), c1, b1, a2 and a3; south-west is the
/// empty corner a1 with nothing beyond. f2 mirrors b2. 8 + 9 + 9 = 26.
#[test]
fn legal_moves_from_the_start() {
    let expected = [
        "b2-a2", "b2-a3", "b2-b1", "b2-b3", "b2-b4", "b2-c1", "b2-c2", "b2-c3", "b2-d4", "d2-c1",
        "d2-c2", "d2-c3", "d2-d1", "d2-d3", "d2-e1", "d2-e2", "d2-e3", "f2-d4", "f2-e1", "f2-e2",
        "f2-e3", "f2-f1", "f2-f3", "f2-f4", "f2-g2", "f2-g3",
    ];
    assert_eq!(texts(&game().start()), expected);
}

#[test]
fn perft_from_the_start() {
    let g = game();
    let start = g.start();
    let counts: Vec<u64> = (1..=5).map(|d| perft(&g, &start, d)).collect();
    assert_eq!(counts, [26, 660, 16_535, 403_471, 9_874_591]);
}

/// Every line of `tests/perft/shakti.txt` (checked up to depth 4 here, to stay quick).
#[test]
fn perft_file_counts() {
    let g = game();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/shakti.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = 0;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert_eq!(fields[0], "shakti");
        let state = if fields[1] == "start" {
            g.start()
        } else {
            pos(fields[1])
        };
        for (depth, count) in fields[2].split_whitespace().enumerate().take(4) {
            let count: u64 = count.parse().unwrap();
            assert_eq!(perft(&g, &state, depth as u32 + 1), count, "{line}");
        }
        lines += 1;
    }
    assert!(lines >= 3);
}
