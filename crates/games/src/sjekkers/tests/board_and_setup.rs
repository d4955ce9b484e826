//! The rulesets and their types, the board, the start position and perft.

use denkmeter_core::RepetitionRule;

use super::*;

#[test]
fn move_fits_in_sixteen_bytes() {
    assert!(std::mem::size_of::<Move>() <= 16);
}

#[test]
fn ruleset_names_and_family() {
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    assert_eq!(
        names,
        ["sjekkers", "sjekkers-sideways", "sjekkers-checkers"]
    );
    for g in all_rulesets() {
        assert_eq!(g.facts().family, "sjekkers");
        assert!(!g.facts().description.is_empty());
        assert!(!g.facts().description.contains('\n'));
        assert_eq!(g.facts().repetition, RepetitionRule::DrawOnThird);
        assert!(!g.facts().hidden_information);
        // Measured: alpha-beta beats Monte Carlo tree search in every ruleset.
        assert_eq!(g.facts().search, denkmeter_core::SearchKind::AlphaBeta);
        assert_eq!(Sjekkers::with_variant(g.variant()).name(), g.name());
    }
    struct Listed(Vec<(&'static str, String)>);
    impl RulesetVisitor for Listed {
        fn visit<G: Game>(&mut self, game: G) {
            self.0
                .push((game.name(), game.position_text(&game.start())));
        }
    }
    let mut listed = Listed(Vec::new());
    rulesets(&mut listed);
    let registered: Vec<&str> = listed.0.iter().map(|(name, _)| *name).collect();
    assert_eq!(registered, names);
    assert_eq!(listed.0[0].1, START);
}

// ---------------------------------------------------------------- board and setup

#[test]
fn board_has_61_crossings_in_rows_of_5_to_9() {
    let game = standard();
    let board = game.board();
    assert_eq!(board.len(), 61);
    let mut lengths = [0; 9];
    for info in board.cells() {
        let row = info.name.as_bytes()[0] - b'a';
        lengths[usize::from(row)] += 1;
    }
    assert_eq!(lengths, [5, 6, 7, 8, 9, 8, 7, 6, 5]);
    let names = |row: &str| -> Vec<String> {
        board
            .cells()
            .iter()
            .filter(|c| c.name.starts_with(row))
            .map(|c| c.name.clone())
            .collect()
    };
    assert_eq!(names("a"), ["a1", "a2", "a3", "a4", "a5"]);
    assert_eq!(
        names("e"),
        ["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9"]
    );
    assert_eq!(names("f"), ["f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9"]);
    assert_eq!(names("i"), ["i5", "i6", "i7", "i8", "i9"]);
    for info in board.cells() {
        assert_eq!(info.shape, denkmeter_core::Shape::Point);
    }
    for bad in ["a6", "f1", "i4", "j5", "a0", "e10"] {
        assert_eq!(board.cell_by_name(bad), None, "{bad}");
    }
}

#[test]
fn neighbours_follow_the_formula() {
    // Neighbours of (r, n): (r, n-1), (r, n+1), (r+1, n), (r+1, n+1), (r-1, n-1), (r-1, n).
    let game = standard();
    let board = game.board();
    let dirs: Vec<&str> = board.directions().iter().map(|d| d.name).collect();
    assert_eq!(dirs, ["ne", "e", "se", "sw", "w", "nw"]);
    let steps = [(1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0)];
    for cell in board.cell_ids() {
        let (r, n) = coords(cell.index() as u8);
        for (d, (dr, dn)) in steps.into_iter().enumerate() {
            let expected = at(r as i32 + dr, i32::from(n) + dn).map(|sq| Cell(u16::from(sq)));
            assert_eq!(
                board.neighbour(cell, d),
                expected,
                "{} {}",
                board.name(cell),
                dirs[d]
            );
        }
    }
    let e5 = sq("e5");
    let around: Vec<&str> = (0..6)
        .map(|d| board.name(board.neighbour(e5, d).unwrap()))
        .collect();
    assert_eq!(around, ["f6", "e6", "d5", "d4", "e4", "f5"]);
    let a1 = sq("a1");
    let ray: Vec<&str> = board.ray(a1, 0).map(|c| board.name(c)).collect();
    assert_eq!(ray, ["b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9"]);
}

#[test]
fn edge_crossings_have_fewer_neighbours() {
    let game = standard();
    let board = game.board();
    let degree = |cell: Cell| {
        (0..6)
            .filter(|&d| board.neighbour(cell, d).is_some())
            .count()
    };
    let mut by_degree = [0; 7];
    for cell in board.cell_ids() {
        by_degree[degree(cell)] += 1;
    }
    // Six corners with 3 neighbours, 18 other edge crossings with 4, 37 inner ones with 6.
    assert_eq!(by_degree, [0, 0, 0, 6, 18, 0, 37]);
    for corner in ["a1", "a5", "e1", "e9", "i5", "i9"] {
        assert_eq!(degree(sq(corner)), 3, "{corner}");
    }
    for edge in ["a3", "c1", "c7", "g3", "g9", "i7"] {
        assert_eq!(degree(sq(edge)), 4, "{edge}");
    }
}

#[test]
fn board_is_drawn_as_a_triangular_lattice() {
    let game = standard();
    let board = game.board();
    // Every pair of neighbours is joined by one line and is one unit apart.
    assert_eq!(board.lines().len(), (6 * 3 + 18 * 4 + 37 * 6) / 2);
    for &(a, b) in board.lines() {
        let (p, q) = (board.info(a), board.info(b));
        let distance = ((p.x - q.x).powi(2) + (p.y - q.y).powi(2)).sqrt();
        assert!((distance - 1.0).abs() < 1e-4, "{} {}", p.name, q.name);
        assert!((0..6).any(|d| board.neighbour(a, d) == Some(b)));
    }
    // White's row a at the bottom, rows horizontal, the hexagon from x = 0 to 8.
    let (a1, e1, i5) = (
        board.info(sq("a1")),
        board.info(sq("e1")),
        board.info(sq("i5")),
    );
    assert!(a1.y > e1.y && e1.y > i5.y);
    assert_eq!(board.info(sq("a5")).y, a1.y);
    assert_eq!((e1.x, board.info(sq("e9")).x), (0.0, 8.0));
    assert_eq!((a1.x, i5.x), (2.0, 2.0));
}

#[test]
fn start_position() {
    for g in all_rulesets() {
        let start = g.start();
        assert_eq!(g.position_text(&start), START);
        assert_eq!(pos(START), start);
        assert_eq!(g.to_move(&start), Player::White);
        assert_eq!(g.status(&start), Status::Ongoing);
        for side in Player::BOTH {
            assert_eq!(start.count(side, Piece::Disk), 18);
            assert_eq!(start.count(side, Piece::Sjek), 0);
        }
        for (row, owner) in [
            ("a", Player::White),
            ("c", Player::White),
            ("g", Player::Black),
        ] {
            for info in g.board().cells().iter().filter(|c| c.name.starts_with(row)) {
                let cell = g.board().cell_by_name(&info.name).unwrap();
                assert_eq!(start.piece_at(cell), Some((owner, Piece::Disk)));
            }
        }
        assert_eq!(piece(&start, "e5"), None);
    }
}

/// The 7 disks of row c step to row d (14 moves); the 6 of row b jump over row c (12 moves);
/// row a's jumps land on row c, which is full.
#[test]
fn legal_moves_from_the_start() {
    let start = standard().start();
    let expected = [
        "b1-d1", "b1-d3", "b2-d2", "b2-d4", "b3-d3", "b3-d5", "b4-d4", "b4-d6", "b5-d5", "b5-d7",
        "b6-d6", "b6-d8", "c1-d1", "c1-d2", "c2-d2", "c2-d3", "c3-d3", "c3-d4", "c4-d4", "c4-d5",
        "c5-d5", "c5-d6", "c6-d6", "c6-d7", "c7-d7", "c7-d8",
    ];
    assert_eq!(texts(&standard(), &start), expected);
    assert_eq!(texts(&sideways(), &start), expected);
    // No own jumps in the checkers rules.
    let steps: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|m| m.starts_with('c'))
        .collect();
    assert_eq!(texts(&checkers(), &start), steps);
}

#[test]
fn perft_from_the_start() {
    let counts = |g: Sjekkers, depth: u32| -> Vec<u64> {
        let start = g.start();
        (1..=depth).map(|d| perft(&g, &start, d)).collect()
    };
    assert_eq!(
        counts(standard(), 5),
        [26, 676, 18_148, 475_118, 12_470_744]
    );
    assert_eq!(
        counts(sideways(), 5),
        [26, 676, 18_148, 475_118, 12_446_308]
    );
    assert_eq!(
        counts(checkers(), 6),
        [14, 196, 2_912, 41_904, 621_188, 8_767_716]
    );
}

/// Every line of `tests/perft/sjekkers.txt` (up to depth 4 here, to stay quick).
#[test]
fn perft_file_counts() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/sjekkers.txt");
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
            .unwrap();
        let state = if fields[1] == "start" {
            g.start()
        } else {
            g.parse_position(fields[1]).unwrap()
        };
        for (depth, count) in fields[2].split_whitespace().enumerate().take(4) {
            let count: u64 = count.parse().unwrap();
            assert_eq!(perft(&g, &state, depth as u32 + 1), count, "{line}");
        }
        lines += 1;
    }
    assert!(lines >= 10);
}
