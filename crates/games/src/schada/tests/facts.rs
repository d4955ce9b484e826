//! The facts the rules file says any implementation must reproduce.

use super::*;

#[test]
fn the_opening_has_fourteen_moves_split_as_the_source_says() {
    let start = game().start();
    assert_eq!(
        moves(&start),
        [
            "a1-a3", "a2-a3", "b2-d4", "c1-c3", "c2-a4", "c2-c3", "d2-d4", "e1-e3", "e2-e4",
            "e2-f3", "f2-d4", "g1-g3", "g2-h4", "h2-h5"
        ]
    );
    // Every pawn moves, c2 and e2 two ways; the Field Officers go over their pawn to the third
    // rank; no Officer moves.
    let from: Vec<String> = moves(&start).iter().map(|m| m[..2].to_string()).collect();
    for pawn in ["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"] {
        let n = from.iter().filter(|f| *f == pawn).count();
        assert_eq!(
            n,
            if pawn == "c2" || pawn == "e2" { 2 } else { 1 },
            "{pawn}"
        );
    }
    for officer in ["b1", "d1", "f1", "h1"] {
        assert!(!from.contains(&officer.to_string()), "{officer}");
    }
}

#[test]
fn black_has_the_same_fourteen_moves_turned_around() {
    let g = game();
    let mut start = g.start();
    play(&mut start, &["a2-a3"]);
    let black = moves(&start);
    assert_eq!(black.len(), 14);
    for fo in ["h8-h6", "f8-f6", "d8-d6", "b8-b6"] {
        assert!(black.contains(&fo.to_string()), "{fo} in {black:?}");
    }
}

#[test]
fn d3_and_f2_go_where_the_source_says_on_an_empty_board() {
    // A pawn: no base-line or goal-line rule limits it.
    assert_eq!(
        destinations(&position("8/8/8/8/8/3P4/8/8 w"), "d3"),
        ["a3", "d1", "f5"]
    );
    assert_eq!(
        destinations(&position("8/8/8/8/8/8/5P2/8 w"), "f2"),
        ["d4", "h1"]
    );
}

#[test]
fn the_bent_squares_of_the_reconstruction_are_where_the_source_says() {
    let paths = board_file::parse(RECONSTRUCTION).unwrap();
    let bent = |sq: usize| {
        paths.paths[sq]
            .iter()
            .any(|p| p.windows(2).any(|w| w[0] != w[1]))
    };
    let bent_in_white_half: Vec<String> = (0..32)
        .filter(|&sq| bent(sq))
        .map(|sq| square_name(sq as u8))
        .collect();
    assert_eq!(bent_in_white_half, ["f2", "g2", "f4", "h4"]);
    // Black's half is White's turned through 180 degrees.
    for sq in 0..32 {
        let turned: Vec<Vec<_>> = paths.paths[sq]
            .iter()
            .map(|p| p.iter().map(|&(f, r)| (-f, -r)).collect())
            .collect();
        assert_eq!(paths.paths[63 - sq], turned);
    }
}
