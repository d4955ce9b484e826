//! Checks the reference rules in `tests/reference/` against the facts stated in the rules texts
//! (`/work/shared/rules/schada.md`, `kamelen.md`, `fort-chitral.md`, `straat.md`) and the rulings of
//! the rulings (tests/reference/rulings.md) and `tests/reference/rulings-straat.md`.
//!
//! `print_perft` (ignored) prints perft counts from every start:
//! `cargo test --release -p denkmeter-games --test reference_selftest -- --ignored --nocapture print_perft`

mod reference;

use reference::{fort_chitral, kamelen, position_with, schada, straat_scores, Reference, Side};

fn sorted(texts: &[&str]) -> Vec<String> {
    let mut all: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
    all.sort();
    all
}

fn schada_default() -> Reference {
    Reference::new("schada", None).expect("the shipped board loads")
}

fn schada_position(pieces: &[(&str, char)], to_move: Side) -> String {
    position_with(8, 8, pieces, to_move)
}

/// The destinations of one piece on an otherwise given board, whoever is to move and whether or
/// not the game is over.
fn schada_destinations(position: &str, square: &str) -> Vec<String> {
    let board = schada::Board::parse(schada::DEFAULT_BOARD).expect("the shipped board loads");
    let position = schada::parse(position).expect("a valid position");
    let from = reference::parse_square(square, 8, 8).expect("a square");
    schada::destinations(&board, &position, from)
}

// ---------------------------------------------------------------- Schada

#[test]
fn schada_start_string() {
    assert_eq!(
        schada_default().start(),
        "ofofofof/pppppppp/8/8/8/8/PPPPPPPP/FOFOFOFO w"
    );
}

/// schada.md: "14 legal moves from the opening for either side": all 8 pawns move, the c2 and e2
/// pawns two moves each, the Field Officers on a1, c1, e1, g1 to the third rank, Officers none.
#[test]
fn schada_start_has_the_fourteen_moves_for_white() {
    let game = schada_default();
    let moves = game.moves(&game.start()).expect("valid");
    assert_eq!(moves.len(), 14, "{moves:?}");
    let pawn_moves: Vec<&String> = moves.iter().filter(|m| m.as_bytes()[1] == b'2').collect();
    let field_officer_moves: Vec<&String> =
        moves.iter().filter(|m| m.as_bytes()[1] == b'1').collect();
    assert_eq!(pawn_moves.len(), 10);
    for file in ["a", "b", "c", "d", "e", "f", "g", "h"] {
        let count = pawn_moves
            .iter()
            .filter(|m| m.starts_with(&format!("{file}2")))
            .count();
        let expected = if file == "c" || file == "e" { 2 } else { 1 };
        assert_eq!(count, expected, "pawn {file}2: {moves:?}");
    }
    assert_eq!(
        field_officer_moves,
        vec!["a1-a3", "c1-c3", "e1-e3", "g1-g3"]
    );
    assert_eq!(
        moves,
        sorted(&[
            "a2-a3", "b2-d4", "c2-c3", "c2-a4", "d2-d4", "e2-e4", "e2-f3", "f2-d4", "g2-h4",
            "h2-h5", "a1-a3", "c1-c3", "e1-e3", "g1-g3"
        ])
    );
}

#[test]
fn schada_start_has_the_fourteen_moves_for_black() {
    let game = schada_default();
    let moves = game
        .moves("ofofofof/pppppppp/8/8/8/8/PPPPPPPP/FOFOFOFO b")
        .expect("valid");
    // The 180-degree rotation of White's moves: a2 -> h7, b2 -> g7, ..., a1 -> h8.
    assert_eq!(
        moves,
        sorted(&[
            "h7-h6", "g7-e5", "f7-f6", "f7-h5", "e7-e5", "d7-d5", "d7-c6", "c7-e5", "b7-a5",
            "a7-a4", "h8-h6", "f8-f6", "d8-d6", "b8-b6"
        ])
    );
}

/// schada.md: "d3 has exactly the paths to d1, a3 and f5" and "f2 has the paths to d4 ... and to
/// h1". d1 and h1 are on White's base line, so a White high piece arriving from d3 or f2 may not
/// end there; a pawn (no base-line rule) or a Black high piece (rank 1 is its goal line) shows all
/// the paths.
#[test]
fn schada_d3_and_f2_destinations_on_an_empty_board() {
    for piece in ['P', 'p', 'o', 'f'] {
        let d3 = schada_position(&[("d3", piece)], Side::White);
        assert_eq!(
            schada_destinations(&d3, "d3"),
            ["a3", "d1", "f5"],
            "{piece}"
        );
        let f2 = schada_position(&[("f2", piece)], Side::White);
        assert_eq!(schada_destinations(&f2, "f2"), ["d4", "h1"], "{piece}");
    }
    for piece in ['O', 'F'] {
        let d3 = schada_position(&[("d3", piece)], Side::White);
        assert_eq!(schada_destinations(&d3, "d3"), ["a3", "f5"], "{piece}");
        let f2 = schada_position(&[("f2", piece)], Side::White);
        assert_eq!(schada_destinations(&f2, "f2"), ["d4"], "{piece}");
    }
}

/// The same through `moves`: a board with only one piece is a finished game (a player with no
/// high pieces has them all on the goal line), so each side gets a free Officer far away.
#[test]
fn schada_d3_and_f2_moves_in_a_running_game() {
    let game = schada_default();
    for (square, expected) in [
        ("d3", vec!["d3-a3", "d3-d1", "d3-f5"]),
        ("f2", vec!["f2-d4", "f2-h1"]),
    ] {
        let position = schada_position(&[(square, 'P'), ("h3", 'O'), ("a6", 'o')], Side::White);
        assert_eq!(game.outcome(&position).expect("valid"), None);
        let moves: Vec<String> = game
            .moves(&position)
            .expect("valid")
            .into_iter()
            .filter(|m| m.starts_with(square))
            .collect();
        assert_eq!(moves, expected);
    }
}

#[test]
fn schada_field_officer_passes_own_pieces_but_not_enemy_pieces() {
    // a1: N N ; E.
    let own = schada_position(&[("a1", 'F'), ("a2", 'P')], Side::White);
    assert_eq!(schada_destinations(&own, "a1"), ["a3", "b1"]);
    let enemy = schada_position(&[("a1", 'F'), ("a2", 'p')], Side::White);
    assert_eq!(schada_destinations(&enemy, "a1"), ["b1"]);
    // An Officer never passes a piece.
    let officer = schada_position(&[("a1", 'O'), ("a2", 'P')], Side::White);
    assert_eq!(schada_destinations(&officer, "a1"), ["b1"]);
}

#[test]
fn schada_captures_and_the_uncapturable_goal_line() {
    let game = schada_default();
    // A White pawn on d3 captures a Black pawn on d1, but not a Black Officer on d1 (Black's goal
    // line is rank 1).
    let pawn = schada_position(
        &[("d3", 'P'), ("d1", 'p'), ("h3", 'O'), ("a6", 'o')],
        Side::White,
    );
    assert!(game
        .moves(&pawn)
        .expect("valid")
        .contains(&"d3xd1".to_string()));
    assert_eq!(
        game.play(&pawn, "d3xd1").expect("legal"),
        schada_position(&[("d1", 'P'), ("h3", 'O'), ("a6", 'o')], Side::Black)
    );
    let officer = schada_position(
        &[("d3", 'P'), ("d1", 'o'), ("h3", 'O'), ("a6", 'o')],
        Side::White,
    );
    assert_eq!(schada_destinations(&officer, "d3"), ["a3", "f5"]);
    // A White high piece on its goal line (rank 8) only moves along it: d8 is the rotation of e1
    // (N N ; W ; E E), so its paths are S S, E, W W.
    let on_goal = schada_position(&[("d8", 'O')], Side::White);
    assert_eq!(schada_destinations(&on_goal, "d8"), ["b8", "e8"]);
    let piece_on_goal = schada_position(&[("d8", 'p')], Side::White);
    assert_eq!(
        schada_destinations(&piece_on_goal, "d8"),
        ["b8", "d6", "e8"]
    );
}

#[test]
fn schada_outcomes() {
    let game = schada_default();
    assert_eq!(game.outcome(&game.start()).expect("valid"), None);
    // 1. All White's high pieces on its goal line: over, White 2 goal-line points.
    let all_home = schada_position(&[("a8", 'F'), ("e5", 'o')], Side::Black);
    assert_eq!(
        game.outcome(&all_home).expect("valid"),
        Some("1-0 2-0".into())
    );
    assert!(game.moves(&all_home).expect("valid").is_empty());
    // Goal-line tie broken by the material off the goal line.
    let material = schada_position(&[("h8", 'F'), ("d4", 'O'), ("a1", 'f')], Side::White);
    assert_eq!(
        game.outcome(&material).expect("valid"),
        Some("1-0 2-2".into())
    );
    // Both home, equal: a draw.
    let draw = schada_position(&[("a8", 'F'), ("h1", 'f')], Side::White);
    assert_eq!(
        game.outcome(&draw).expect("valid"),
        Some("1/2-1/2 2-2".into())
    );
    // A player with no high pieces left has them all on the goal line.
    let none_left = schada_position(&[("d4", 'O'), ("a7", 'p')], Side::White);
    assert_eq!(
        game.outcome(&none_left).expect("valid"),
        Some("1-0 0-0".into())
    );
    // 2. Blocked by enemy pieces: the White Officer on d3 (S S to its base line is barred; W W W
    // passes c3; NE NE passes e4). Material ties 1-1; advancement: White's Officer has advanced 2
    // ranks, Black's Officer on its base line none.
    let blocked = schada_position(
        &[("d3", 'O'), ("c3", 'p'), ("e4", 'p'), ("h8", 'o')],
        Side::Black,
    );
    assert_eq!(
        game.outcome(&blocked).expect("valid"),
        Some("1-0 0-0".into())
    );
    // Blocked by its own pieces only: the game goes on.
    let friendly = schada_position(
        &[("d3", 'O'), ("c3", 'P'), ("e4", 'P'), ("h8", 'o')],
        Side::Black,
    );
    assert_eq!(game.outcome(&friendly).expect("valid"), None);
}

/// Replaces the line of the default board that starts with `square` by `text`; returns the new
/// file and that line's number.
fn board_with_line(square: &str, text: &str) -> (String, usize) {
    let mut number = 0;
    let mut lines = Vec::new();
    for (index, line) in schada::DEFAULT_BOARD.lines().enumerate() {
        if line.starts_with(&format!("{square} ")) {
            number = index + 1;
            lines.push(text.to_string());
        } else {
            lines.push(line.to_string());
        }
    }
    assert!(number > 0, "{square} is in the board file");
    (lines.join("\n") + "\n", number)
}

#[test]
fn schada_bad_board_files_name_the_line() {
    let cases = [
        ("f1", "f1  N, NW ; E E", "unreadable"),
        ("f1", "z1  N ; NW ; E E", "unknown square"),
        ("f1", "f1  N ; NNW ; E E", "unknown step"),
        ("g1", "f1  N ; NW ; E E", "duplicate square"),
        ("f1", "f1  N ; ; E E", "empty path"),
        ("h1", "h1  W ; NW NW ; E", "off the board"),
        ("f1", "f1  N S ; NW ; E E", "own start"),
        ("f1", "f1      # no paths", "no paths"),
    ];
    for (square, text, kind) in cases {
        let (file, line) = board_with_line(square, text);
        let error = Reference::new("schada", Some(&file)).expect_err(kind);
        assert!(
            error.starts_with(&format!("line {line}: ")),
            "{kind}: {error}"
        );
        assert!(error.contains(kind), "{kind}: {error}");
    }
    // A missing square has no line of its own: the error names the file's last line.
    let without_f1: String = schada::DEFAULT_BOARD
        .lines()
        .filter(|l| !l.starts_with("f1 "))
        .map(|l| format!("{l}\n"))
        .collect();
    let last = without_f1.lines().count();
    let error = Reference::new("schada", Some(&without_f1)).expect_err("missing");
    assert_eq!(error, format!("line {last}: missing square f1"));
    // Listing one square of the top half asks for all 64.
    let one_more = format!("{}e5 N\n", schada::DEFAULT_BOARD);
    let error = Reference::new("schada", Some(&one_more)).expect_err("missing");
    assert!(
        error.contains("missing square e5") || error.contains("missing square a5"),
        "{error}"
    );
}

#[test]
fn schada_board_files_that_are_fine() {
    // Steps are case-insensitive; a path may pass over its own start square (empty once the piece
    // has left): f1 E W N goes g1, f1, f2.
    let (file, _) = board_with_line("f1", "f1  e w n ; nW ; E e   # comment");
    let game = Reference::new("schada", Some(&file)).expect("a good board");
    let board = schada::Board::parse(&file).expect("a good board");
    let position = schada::parse(&schada_position(&[("f1", 'P')], Side::White)).expect("valid");
    assert_eq!(
        schada::destinations(&board, &position, (5, 0)),
        ["e2", "f2", "h1"]
    );
    // With a piece on g1 the path is blocked.
    let blocked =
        schada::parse(&schada_position(&[("f1", 'P'), ("g1", 'p')], Side::White)).expect("valid");
    assert_eq!(schada::destinations(&board, &blocked, (5, 0)), ["e2"]);
    assert_eq!(game.moves(&game.start()).expect("valid").len(), 14);

    // The same board written out with all 64 squares plays the same.
    let default_board = schada::Board::parse(schada::DEFAULT_BOARD).expect("loads");
    let full = schada::full_board_text(&default_board);
    let full_game = Reference::new("schada", Some(&full)).expect("a 64-square board");
    let default_game = schada_default();
    for depth in 1..=3 {
        assert_eq!(
            full_game.perft(&full_game.start(), depth),
            default_game.perft(&default_game.start(), depth)
        );
    }
    // In a 64-square file nothing is rotated: changing e8 (the rotation of d1) changes only e8.
    let changed: String = full
        .lines()
        .map(|l| {
            if l.starts_with("e8 ") {
                "e8 S S S\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let changed_board = schada::Board::parse(&changed).expect("loads");
    let lone =
        schada::parse(&schada_position(&[("e8", 'p'), ("d1", 'P')], Side::White)).expect("valid");
    assert_eq!(schada::destinations(&changed_board, &lone, (4, 7)), ["e5"]);
    assert_eq!(
        schada::destinations(&changed_board, &lone, (3, 0)),
        schada::destinations(&default_board, &lone, (3, 0))
    );
}

#[test]
fn schada_play_and_position_strings() {
    let game = schada_default();
    let after = game.play(&game.start(), "c1-c3").expect("legal");
    assert_eq!(after, "ofofofof/pppppppp/8/8/8/2F5/PPPPPPPP/FO1OFOFO b");
    assert!(game.play(&game.start(), "b1-b2").is_err());
    assert!(game.moves("8/8/8/8/8/8/8/8").is_err());
    assert!(game.moves("9/8/8/8/8/8/8/8 w").is_err());
    assert!(game.moves("8/8/8/8/8/8/8/7K w").is_err());
}

// ---------------------------------------------------------------- Kamelen

const KAMELEN: [(&str, i32); 3] = [
    ("kamelen", 11),
    ("kamelen-11x12", 12),
    ("kamelen-11x13", 13),
];

#[test]
fn kamelen_start_strings() {
    let starts = [
        "ddddd1ddddd/1cccc1cccc1/11/2X2X2X2/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDDD1DDDDD w",
        "ddddd1ddddd/1cccc1cccc1/11/2X2X2X2/11/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDDD1DDDDD w",
        "ddddd1ddddd/1cccc1cccc1/11/2X2X2X2/11/11/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDDD1DDDDD w",
    ];
    for ((ruleset, _), start) in KAMELEN.iter().zip(starts) {
        let game = Reference::new(ruleset, None).expect("known");
        assert_eq!(game.start(), start, "{ruleset}");
    }
}

/// From the start, each side has 12 camel moves (b2 d2 e2 g2 h2 j2 north, two each; c2 and i2
/// are behind rocks) and 4 dromedary moves (e1 and g1 through the empty f2), on every board.
#[test]
fn kamelen_start_perft_one() {
    let white = sorted(&[
        "b2-a5", "b2-c5", "d2-c5", "d2-e5", "e2-d5", "e2-f5", "g2-f5", "g2-h5", "h2-g5", "h2-i5",
        "j2-i5", "j2-k5", "e1-h3", "e1-g4", "g1-d3", "g1-e4",
    ]);
    for (ruleset, height) in KAMELEN {
        let game = Reference::new(ruleset, None).expect("known");
        let start = game.start();
        assert_eq!(game.perft(&start, 1), Ok(16), "{ruleset}");
        assert_eq!(game.moves(&start).expect("valid"), white, "{ruleset}");
        let black_start = start.replace(" w", " b");
        assert_eq!(game.perft(&black_start, 1), Ok(16), "{ruleset}");
        // Black's moves are White's mirrored (rank r -> N+1-r).
        let mut mirrored: Vec<String> = white
            .iter()
            .map(|m| {
                let mirror = |sq: &str| {
                    let rank: i32 = sq[1..].parse().expect("rank");
                    format!("{}{}", &sq[..1], height + 1 - rank)
                };
                let (from, to) = m.split_once('-').expect("a move");
                format!("{}-{}", mirror(from), mirror(to))
            })
            .collect();
        mirrored.sort();
        assert_eq!(
            game.moves(&black_start).expect("valid"),
            mirrored,
            "{ruleset}"
        );
    }
}

/// kamelen.md: "this start gives each player four such camels" on every board; which four depends
/// on the board length.
#[test]
fn kamelen_four_able_camels_each() {
    let mut white_sets = Vec::new();
    for (ruleset, height) in KAMELEN {
        let game = kamelen::Kamelen { height };
        let start = game.start();
        let white = game.able_camels(&start, Side::White);
        let black = game.able_camels(&start, Side::Black);
        assert_eq!(white.len(), 4, "{ruleset}: {white:?}");
        assert_eq!(black.len(), 4, "{ruleset}: {black:?}");
        // Every able camel stands on the colour of the enemy home-field.
        for &square in &white {
            assert_eq!(
                kamelen::colour(square),
                kamelen::colour(game.home_field(Side::Black))
            );
        }
        white_sets.push(white);
    }
    // 11x11 and 11x13 have f-N on the colour of f1's; 11x12 does not.
    assert_eq!(white_sets[0], white_sets[2]);
    assert_ne!(white_sets[0], white_sets[1]);
}

#[test]
fn kamelen_moves_and_captures() {
    let game = Reference::new("kamelen", None).expect("known");
    // A camel on f6 on an otherwise empty board has 8 moves (each side also has an able camel,
    // on the colour of the enemy home-field, so that the game goes on).
    let camel = position_with(
        11,
        11,
        &[("f6", 'C'), ("c2", 'C'), ("b11", 'c')],
        Side::White,
    );
    let moves: Vec<String> = game
        .moves(&camel)
        .expect("valid")
        .into_iter()
        .filter(|m| m.starts_with("f6"))
        .collect();
    assert_eq!(
        moves,
        sorted(&["f6-e9", "f6-g9", "f6-e3", "f6-g3", "f6-i5", "f6-i7", "f6-c5", "f6-c7"])
    );
    // A dromedary on f6 has 8 moves.
    let dromedary = position_with(
        11,
        11,
        &[("f6", 'D'), ("c2", 'C'), ("b11", 'c')],
        Side::White,
    );
    let moves: Vec<String> = game
        .moves(&dromedary)
        .expect("valid")
        .into_iter()
        .filter(|m| m.starts_with("f6"))
        .collect();
    assert_eq!(
        moves,
        sorted(&["f6-i8", "f6-h9", "f6-i4", "f6-h3", "f6-c8", "f6-d9", "f6-c4", "f6-d3"])
    );
    // Captures are written with x; rocks are never a destination and block a path; a passed
    // enemy blocks too.
    let mixed = position_with(
        11,
        11,
        &[
            ("f6", 'C'),
            ("c2", 'C'),
            ("e9", 'd'),
            ("g9", 'X'),
            ("f5", 'c'),
        ],
        Side::White,
    );
    let moves: Vec<String> = game
        .moves(&mixed)
        .expect("valid")
        .into_iter()
        .filter(|m| m.starts_with("f6"))
        .collect();
    assert_eq!(
        moves,
        sorted(&["f6xe9", "f6-i5", "f6-i7", "f6-c5", "f6-c7"])
    );
    assert_eq!(
        game.play(&mixed, "f6xe9").expect("legal"),
        position_with(
            11,
            11,
            &[("e9", 'C'), ("c2", 'C'), ("g9", 'X'), ("f5", 'c')],
            Side::Black
        )
    );
    // A lowercase rock is read, and printed as X.
    let lower = mixed.replace('X', "x");
    assert_eq!(game.play(&lower, "f6xe9"), game.play(&mixed, "f6xe9"));
}

#[test]
fn kamelen_outcomes() {
    let game = Reference::new("kamelen", None).expect("known");
    assert_eq!(game.outcome(&game.start()).expect("valid"), None);
    // Both camels on the enemy home-fields: the player who has just moved wins double.
    let both = |side| position_with(11, 11, &[("f11", 'C'), ("f1", 'c')], side);
    assert_eq!(
        game.outcome(&both(Side::Black)),
        Ok(Some("1-0 double".into()))
    );
    assert_eq!(
        game.outcome(&both(Side::White)),
        Ok(Some("0-1 double".into()))
    );
    assert!(game.moves(&both(Side::White)).expect("valid").is_empty());
    // A camel of the side to move on the enemy home-field also wins double.
    let to_move = position_with(11, 11, &[("f11", 'C'), ("c10", 'c')], Side::White);
    assert_eq!(game.outcome(&to_move), Ok(Some("1-0 double".into())));
    // A dromedary on the home-field wins nothing.
    let dromedary = position_with(
        11,
        11,
        &[("f11", 'D'), ("c2", 'C'), ("c10", 'c')],
        Side::White,
    );
    assert_eq!(game.outcome(&dromedary), Ok(None));
    // No able camels (b2 and b10 are not on the colour of f11 and f1): the side to move is
    // checked first and loses.
    let unable = |side| position_with(11, 11, &[("b2", 'C'), ("b10", 'c')], side);
    assert_eq!(game.outcome(&unable(Side::White)), Ok(Some("0-1".into())));
    assert_eq!(game.outcome(&unable(Side::Black)), Ok(Some("1-0".into())));
    // Only Black lacks able camels: White wins whoever is to move.
    let black_unable = |side| position_with(11, 11, &[("c2", 'C'), ("b10", 'c')], side);
    assert_eq!(
        game.outcome(&black_unable(Side::White)),
        Ok(Some("1-0".into()))
    );
    assert_eq!(
        game.outcome(&black_unable(Side::Black)),
        Ok(Some("1-0".into()))
    );
    // On 11x12 f12 has the other colour: b2 is able there, c2 is not.
    let long = Reference::new("kamelen-11x12", None).expect("known");
    let b2 = position_with(11, 12, &[("b2", 'C'), ("b11", 'c')], Side::White);
    assert_eq!(long.outcome(&b2), Ok(None));
    let c2 = position_with(11, 12, &[("c2", 'C'), ("b11", 'c')], Side::White);
    assert_eq!(long.outcome(&c2), Ok(Some("0-1".into())));
}

#[test]
fn kamelen_pass() {
    let game = Reference::new("kamelen", None).expect("known");
    // The White camel on b1 (able: the colour of f11) is shut in by rocks on b2 and c1.
    let shut = position_with(
        11,
        11,
        &[("b1", 'C'), ("b2", 'X'), ("c1", 'X'), ("c10", 'c')],
        Side::White,
    );
    assert_eq!(game.outcome(&shut), Ok(None));
    assert_eq!(game.moves(&shut), Ok(vec!["pass".to_string()]));
    let after = game.play(&shut, "pass").expect("legal");
    assert_eq!(after, shut.replace(" w", " b"));
    let black_moves = game.moves(&after).expect("valid").len() as u64;
    assert_eq!(game.perft(&shut, 2), Ok(black_moves));
}

// ---------------------------------------------------------------- Fort Chitral

fn fort(pieces: &[(&str, char)], side: Side) -> String {
    position_with(fort_chitral::SIZE, fort_chitral::SIZE, pieces, side)
}

/// Four pieces of each side far from the action, so that nobody is below four pieces.
const FAR: [(&str, char); 8] = [
    ("a1", 'P'),
    ("b1", 'P'),
    ("c1", 'P'),
    ("d1", 'P'),
    ("o18", 'p'),
    ("p18", 'p'),
    ("q18", 'p'),
    ("r18", 'p'),
];

fn fort_with(extra: &[(&str, char)], side: Side) -> String {
    let mut pieces: Vec<(&str, char)> = FAR.to_vec();
    pieces.extend_from_slice(extra);
    fort(&pieces, side)
}

fn moves_from(game: &Reference, position: &str, square: &str) -> Vec<String> {
    game.moves(position)
        .expect("valid")
        .into_iter()
        .filter(|m| m.split('-').next() == Some(square))
        .collect()
}

#[test]
fn fort_chitral_start_has_52_moves() {
    for ruleset in [
        "fort-chitral",
        "fort-chitral-orthogonal",
        "fort-chitral-no-loss-at-three",
    ] {
        let game = Reference::new(ruleset, None).expect("known");
        assert_eq!(
            game.start(),
            "pppppppppppppppppp/18/18/18/18/18/18/18/18/18/18/18/18/18/18/18/18/PPPPPPPPPPPPPPPPPP w"
        );
        // a1 and r1 have two steps, the 16 others three; rank 1 is full, so no jump.
        assert_eq!(game.moves(&game.start()).expect("valid").len(), 52);
        assert_eq!(game.perft(&game.start().replace(" w", " b"), 1), Ok(52));
    }
}

#[test]
fn fort_chitral_custodian_capture_of_two_at_once() {
    let game = Reference::new("fort-chitral", None).expect("known");
    // e5-e6 sandwiches d6 (with c6) and f6 (with g6).
    let before = fort_with(
        &[
            ("e5", 'P'),
            ("c6", 'P'),
            ("g6", 'P'),
            ("d6", 'p'),
            ("f6", 'p'),
        ],
        Side::White,
    );
    let after = game.play(&before, "e5-e6").expect("legal");
    assert_eq!(
        after,
        fort_with(&[("e6", 'P'), ("c6", 'P'), ("g6", 'P')], Side::Black)
    );
    // Diagonals too: e5-e6 also takes d7 (with c8) and f5 (with g4); not in the orthogonal
    // ruleset.
    let diagonal = fort_with(
        &[
            ("e5", 'P'),
            ("c8", 'P'),
            ("g4", 'P'),
            ("d7", 'p'),
            ("f5", 'p'),
        ],
        Side::White,
    );
    assert_eq!(
        game.play(&diagonal, "e5-e6").expect("legal"),
        fort_with(&[("e6", 'P'), ("c8", 'P'), ("g4", 'P')], Side::Black)
    );
    let orthogonal = Reference::new("fort-chitral-orthogonal", None).expect("known");
    assert_eq!(
        orthogonal.play(&diagonal, "e5-e6").expect("legal"),
        fort_with(
            &[
                ("e6", 'P'),
                ("c8", 'P'),
                ("g4", 'P'),
                ("d7", 'p'),
                ("f5", 'p')
            ],
            Side::Black
        )
    );
    // Two enemies in a row are not captured.
    let two = fort_with(
        &[("e5", 'P'), ("f6", 'p'), ("g6", 'p'), ("h6", 'P')],
        Side::White,
    );
    assert_eq!(
        game.play(&two, "e5-e6").expect("legal"),
        fort_with(
            &[("e6", 'P'), ("f6", 'p'), ("g6", 'p'), ("h6", 'P')],
            Side::Black
        )
    );
}

/// fort-chitral.md: "A piece that moves between two enemies is not captured."
#[test]
fn fort_chitral_safe_entry() {
    let game = Reference::new("fort-chitral", None).expect("known");
    let before = fort_with(&[("e5", 'P'), ("d6", 'p'), ("f6", 'p')], Side::White);
    let after = game.play(&before, "e5-e6").expect("legal");
    assert_eq!(
        after,
        fort_with(&[("e6", 'P'), ("d6", 'p'), ("f6", 'p')], Side::Black)
    );
    assert_eq!(game.outcome(&after), Ok(None));
}

#[test]
fn fort_chitral_jump_chain() {
    let game = Reference::new("fort-chitral", None).expect("known");
    // c3 over c4 to c5, over d6 to e7, over f7 to g7; the black h7 cannot be jumped.
    let position = fort_with(
        &[
            ("c3", 'P'),
            ("c4", 'P'),
            ("d6", 'P'),
            ("f7", 'P'),
            ("h7", 'p'),
        ],
        Side::White,
    );
    let moves = moves_from(&game, &position, "c3");
    let steps = ["b2", "c2", "d2", "b3", "d3", "b4", "d4"];
    let mut expected: Vec<String> = steps.iter().map(|s| format!("c3-{s}")).collect();
    expected.extend([
        "c3-c5".to_string(),
        "c3-e7".to_string(),
        "c3-g7".to_string(),
    ]);
    expected.sort();
    assert_eq!(moves, expected);
    // The end of the chain captures: the black h7 sits between g7 and a White i7.
    let with_i7 = fort_with(
        &[
            ("c3", 'P'),
            ("c4", 'P'),
            ("d6", 'P'),
            ("f7", 'P'),
            ("h7", 'p'),
            ("i7", 'P'),
        ],
        Side::White,
    );
    assert_eq!(
        game.play(&with_i7, "c3-g7").expect("legal"),
        fort_with(
            &[
                ("g7", 'P'),
                ("c4", 'P'),
                ("d6", 'P'),
                ("f7", 'P'),
                ("i7", 'P')
            ],
            Side::Black
        )
    );
    // A chain never lands twice: around a ring of own pieces every landing is counted once,
    // and the start square is never an end.
    let ring = fort_with(
        &[
            ("e5", 'P'),
            ("e6", 'P'),
            ("f7", 'P'),
            ("g6", 'P'),
            ("f5", 'P'),
        ],
        Side::White,
    );
    let e5 = moves_from(&game, &ring, "e5");
    // e5 over e6 to e7 or over f5 to g5; both reach g7 (over f7, over g6): one move.
    let jumps: Vec<&String> = e5
        .iter()
        .filter(|m| ["e5-e7", "e5-g5", "e5-g7"].contains(&m.as_str()))
        .collect();
    assert_eq!(jumps, ["e5-e7", "e5-g5", "e5-g7"]);
    // Steps d4 d5 d6 e4 f4 f6, plus the three jump ends.
    assert_eq!(e5.len(), 9, "{e5:?}");
}

#[test]
fn fort_chitral_outcomes() {
    let game = Reference::new("fort-chitral", None).expect("known");
    let no_loss = Reference::new("fort-chitral-no-loss-at-three", None).expect("known");
    // All four Fort squares: a win, whatever the other player holds.
    let fort_taken = fort_with(
        &[("i9", 'P'), ("j9", 'P'), ("i10", 'P'), ("j10", 'P')],
        Side::Black,
    );
    assert_eq!(game.outcome(&fort_taken), Ok(Some("1-0".into())));
    assert!(game.moves(&fort_taken).expect("valid").is_empty());
    // Three of them: nothing.
    let three = fort_with(&[("i9", 'P'), ("j9", 'P'), ("i10", 'P')], Side::Black);
    assert_eq!(game.outcome(&three), Ok(None));
    // Fewer than four pieces loses, except in no-loss-at-three.
    let white_three = fort(
        &[
            ("a1", 'P'),
            ("b1", 'P'),
            ("c1", 'P'),
            ("o18", 'p'),
            ("p18", 'p'),
            ("q18", 'p'),
            ("r18", 'p'),
        ],
        Side::White,
    );
    assert_eq!(game.outcome(&white_three), Ok(Some("0-1".into())));
    assert_eq!(no_loss.outcome(&white_three), Ok(None));
    // Both below four: a draw in every ruleset.
    let both_three = fort(
        &[
            ("a1", 'P'),
            ("b1", 'P'),
            ("c1", 'P'),
            ("p18", 'p'),
            ("q18", 'p'),
            ("r18", 'p'),
        ],
        Side::White,
    );
    assert_eq!(game.outcome(&both_three), Ok(Some("1/2-1/2".into())));
    assert_eq!(no_loss.outcome(&both_three), Ok(Some("1/2-1/2".into())));
    // In no-loss-at-three the other player can still win at the Fort.
    let black_fort = fort(
        &[
            ("a1", 'P'),
            ("b1", 'P'),
            ("i9", 'p'),
            ("j9", 'p'),
            ("i10", 'p'),
            ("j10", 'p'),
        ],
        Side::White,
    );
    assert_eq!(no_loss.outcome(&black_fort), Ok(Some("0-1".into())));
}

#[test]
fn fort_chitral_pass() {
    let no_loss = Reference::new("fort-chitral-no-loss-at-three", None).expect("known");
    // The lone White piece on a1 is shut in by black pieces it cannot jump.
    let shut = fort(
        &[
            ("a1", 'P'),
            ("a2", 'p'),
            ("b2", 'p'),
            ("b1", 'p'),
            ("r18", 'p'),
        ],
        Side::White,
    );
    assert_eq!(no_loss.moves(&shut), Ok(vec!["pass".to_string()]));
    assert_eq!(no_loss.play(&shut, "pass"), Ok(shut.replace(" w", " b")));
}

// ---------------------------------------------------------------- Straat

const STRAAT_RULESETS: [&str; 3] = ["straat", "straat-diagonal", "straat-flip"];

fn straat(ruleset: &str) -> Reference {
    Reference::new(ruleset, None).expect("known")
}

/// straat.md "Position string": "Start: `4/4/4/4 w`"; rulings "Moves": "16 x 4 = 64 at the start
/// (128 in `straat-flip`)".
#[test]
fn straat_start_and_its_moves() {
    for (ruleset, count) in [
        ("straat", 64),
        ("straat-diagonal", 64),
        ("straat-flip", 128),
    ] {
        let game = straat(ruleset);
        assert_eq!(game.start(), "4/4/4/4 w");
        let moves = game.moves(&game.start()).expect("valid");
        assert_eq!(moves.len(), count, "{ruleset}: {moves:?}");
        for text in ["a1e", "a1n", "b3n", "d4w"] {
            assert!(moves.contains(&text.to_string()), "{ruleset}: {text}");
        }
        assert_eq!(
            moves.contains(&"b3n*".to_string()),
            ruleset == "straat-flip",
            "{ruleset}"
        );
        // Sorted: the cell, then the orientation letter, `*` after the plain move.
        let mut sorted_moves = moves.clone();
        sorted_moves.sort();
        assert_eq!(moves, sorted_moves);
    }
    let flip = straat("straat-flip");
    assert_eq!(
        flip.moves("4/4/4/4 w").expect("valid")[..4],
        sorted(&["a1e", "a1e*", "a1n", "a1n*"])[..]
    );
}

/// Perft 1-2 from the start: every empty cell times 4 orientations (8 with `flip`), and the
/// placed cell is no longer empty: 64 then 64 * 60 (128 then 128 * 120).
#[test]
fn straat_perft_from_the_start() {
    for (ruleset, counts) in [
        ("straat", [64, 3840]),
        ("straat-diagonal", [64, 3840]),
        ("straat-flip", [128, 15_360]),
    ] {
        let game = straat(ruleset);
        for (depth, count) in counts.iter().enumerate() {
            assert_eq!(
                game.perft(&game.start(), depth as u32 + 1),
                Ok(*count),
                "{ruleset} depth {}",
                depth + 1
            );
        }
    }
}

/// Rulings "Moves": the text is the cell and the orientation, White's tiles are printed
/// uppercase, Black's lowercase, `*` after a solid-face-up tile; an occupied cell takes nothing.
#[test]
fn straat_play_and_position_strings() {
    let game = straat("straat");
    let after = game.play("4/4/4/4 w", "b3n").expect("legal");
    assert_eq!(after, "4/1N2/4/4 b");
    let after = game.play(&after, "a1s").expect("legal");
    assert_eq!(after, "4/1N2/4/s3 w");
    assert_eq!(game.play(&after, "d4e"), Ok("3E/1N2/4/s3 b".to_string()));
    assert!(game.play(&after, "b3e").is_err(), "b3 is occupied");
    assert!(game.play(&after, "c3e*").is_err(), "no `*` without flip");
    assert_eq!(game.moves(&after).expect("valid").len(), 14 * 4);

    let flip = straat("straat-flip");
    let after = flip.play("4/4/4/4 w", "c2w*").expect("legal");
    assert_eq!(after, "4/4/2W*1/4 b");
    assert_eq!(flip.play(&after, "c3e*"), Ok("4/2e*1/2W*1/4 w".to_string()));
    assert_eq!(flip.moves(&after).expect("valid").len(), 15 * 8);
    // Reads back the same: a `*` belongs to the tile before it.
    assert_eq!(
        flip.play("4/2e*1/2W*1/4 w", "a4n"),
        Ok("N3/2e*1/2W*1/4 b".to_string())
    );
}

/// Rulings "Moves": "A position in which the counts of tiles are impossible for the side to move
/// (White to move needs equal counts, Black to move needs White one ahead) is refused"; and `*`
/// exists only in `straat-flip`.
#[test]
fn straat_refuses_impossible_positions() {
    for ruleset in STRAAT_RULESETS {
        let game = straat(ruleset);
        for bad in [
            "4/4/4/4 b",             // Black to move before White has placed
            "N3/4/4/4 w",            // White to move, White one ahead
            "n3/4/4/4 w",            // Black ahead
            "n3/4/4/4 b",            // Black ahead
            "NN2/4/4/4 b",           // White two ahead
            "Nn2/4/4/4 b",           // equal, but Black to move
            "NNNN/NNNN/nnnn/nnnN b", // 9 White tiles, 7 Black
            "4/4/4/3 w",             // a short row
            "4/4/4/5 w",             // a long row
            "4/4/4 w",               // three rows
            "x3/4/4/4 w",            // not a tile letter
            "4/4/4/04 w",            // a run starting with 0
            "4/4/4/4 x",             // no side to move
        ] {
            assert!(game.moves(bad).is_err(), "{ruleset}: {bad}");
            assert!(straat_scores(ruleset, bad).is_err(), "{ruleset}: {bad}");
        }
        for good in ["4/4/4/4 w", "N3/4/4/4 b", "Nn2/4/4/4 w", "NnN1/4/4/4 b"] {
            assert!(game.moves(good).is_ok(), "{ruleset}: {good}");
        }
        let star = game.moves("N*3/4/4/4 b");
        assert_eq!(
            star.is_ok(),
            ruleset == "straat-flip",
            "{ruleset}: {star:?}"
        );
        assert!(
            game.moves("*N3/4/4/4 b").is_err(),
            "{ruleset}: `*` before a tile"
        );
        assert!(
            game.moves("1*N2/4/4/4 b").is_err(),
            "{ruleset}: `*` after a run"
        );
    }
    assert!(straat_scores("kamelen", "4/4/4/4 w").is_err());
}

/// All tiles `n` (straight split): every cell has its two northern quarter-cells black and its
/// two southern ones white, so each of the 8 rows of quarter-cells is one colour from the west
/// side to the east side, the rows alternating white (bottom) / black / ... / black (top):
/// 4 white and 4 black regions, each touching west and east, none touching both north and south
/// -> front 4 white, 4 black. The back is the owners' solid colours.
#[test]
fn straat_all_tiles_north() {
    let game = straat("straat");
    // Back as a checkerboard of owners: same-coloured cells meet only at corners, so every back
    // region is one cell, and a single cell of a 4x4 frame never touches two opposite sides
    // -> back 0, 0. Total 4-4, a draw.
    let checkerboard = "NnNn/nNnN/NnNn/nNnN w";
    assert_eq!(straat_scores("straat", checkerboard), Ok((4, 0, 4, 0)));
    assert_eq!(game.outcome(checkerboard), Ok(Some("1/2-1/2 4-4".into())));
    // Back in bands: White's tiles on ranks 1-2 form one region touching south, west and east
    // (1 street, west-east); Black's on ranks 3-4 likewise touching north (1) -> 5-5, a draw.
    let bands = "nnnn/nnnn/NNNN/NNNN w";
    assert_eq!(straat_scores("straat", bands), Ok((4, 1, 4, 1)));
    assert_eq!(game.outcome(bands), Ok(Some("1/2-1/2 5-5".into())));
    // A finished board has no moves, in every ruleset that reads it.
    for ruleset in STRAAT_RULESETS {
        assert_eq!(straat(ruleset).moves(bands), Ok(vec![]), "{ruleset}");
        assert_eq!(straat(ruleset).perft(bands, 1), Ok(0), "{ruleset}");
    }
    // One cell short of the end: the 16th placement is Black's (White to move with a black cell
    // empty is refused); the game goes on and the partial board is still scored: quarter rows
    // 0-5 are whole (white 3, black 3 west-east), rows 6 and 7 stop at c4 and touch west but not
    // east -> 0; back: White's ranks 1-2 -> 1, Black's rank 3 + a4-c4 still joins west and east
    // -> 1.
    let one_short = "nnn1/nnnn/NNNN/NNNN b";
    assert!(game.moves("nnn1/nnnn/NNNN/NNNN w").is_err());
    assert_eq!(game.outcome(one_short), Ok(None));
    assert_eq!(straat_scores("straat", one_short), Ok((3, 1, 3, 1)));
    assert_eq!(
        game.moves(one_short),
        Ok(sorted(&["d4e", "d4n", "d4s", "d4w"]))
    );
    assert_eq!(game.play(one_short, "d4n"), Ok(bands.into()));
}

/// All tiles `e`, White's tiles forming a cross on the back (file b and rank 2) plus d4.
/// Front: every cell has its eastern quarter column black and western white, so the 8 columns of
/// quarter-cells alternate white / black from west to east and each runs from south to north
/// -> 4 white, 4 black streets (only the outer two columns touch west / east, never both).
/// Back: the white cross b1-b4 + a2-d2 is one region touching north, south, west and east
/// -> it counts 2; d4 alone touches north and east -> 0. Black: a1 | c1 d1 | a3 a4 | c3 d3 c4,
/// each touching two adjacent sides at most -> 0. Total 6-4, White wins.
#[test]
fn straat_a_back_street_joining_both_pairs_counts_twice() {
    let cross = "eEeE/eEee/EEEE/eEee w";
    for ruleset in ["straat", "straat-flip"] {
        assert_eq!(straat_scores(ruleset, cross), Ok((4, 2, 4, 0)), "{ruleset}");
        assert_eq!(
            straat(ruleset).outcome(cross),
            Ok(Some("1-0 6-4".into())),
            "{ruleset}"
        );
    }
}

/// Straight split, front: one black region joining both pairs, on a half-filled board (empty
/// cells belong to no region). Black quarters: a4 w, a3 w: the west column (0,4)-(0,7); a2 n:
/// (0,3) (1,3); b2 n: (2,3) (3,3); c2 w: (4,2) (4,3); c1 w: (4,0) (4,1); c3 s: (4,4) (5,4); d3 s:
/// (6,4) (7,4). They chain (0,7)..(0,3)-(1,3)-(2,3)-(3,3)-(4,3)-(4,2)..(4,0) and
/// (4,3)-(4,4)-(5,4)-(6,4)-(7,4): one region touching north (0,7), south (4,0), west and east
/// (7,4) -> 2. White quarters: (1,4)-(1,7) touch only north; (0,2)-(3,2) only west; (5,0)-(5,3)
/// only south; (4,5)-(7,5) only east -> 0. Back: White's a2 a3 a4 b2 touch west and north,
/// Black's c1 c2 c3 d3 south and east -> 0, 0.
#[test]
fn straat_a_front_street_joining_both_pairs_counts_twice() {
    let position = "W3/W1ss/NNw1/2w1 w";
    assert_eq!(straat_scores("straat", position), Ok((0, 0, 2, 0)));
    assert_eq!(straat("straat").outcome(position), Ok(None));
}

/// Diagonal split, a staircase a4 n, b4 s, b3 n, c3 s, c2 n, d2 s, d1 n (owners alternating,
/// White first): the black triangles a4 N E, b4 W S, b3 N E, c3 W S, c2 N E, d2 W S, d1 N E join
/// edge to edge into one region touching north (a4's N) and east (d1's E). a4's N triangle meets
/// the west side, and d1's E triangle the south side, only at a frame corner: no touch, so the
/// region is no street (it would count 2 if corners counted). The white halves each border only
/// empty cells or the frame on one side -> 0. Back: the owners alternate along the staircase,
/// so every back region is a single cell -> 0.
#[test]
fn straat_diagonal_a_triangle_meeting_a_side_at_a_corner_does_not_touch_it() {
    let staircase = "Ns2/1Ns1/2Ns/3N b";
    assert_eq!(
        straat_scores("straat-diagonal", staircase),
        Ok((0, 0, 0, 0))
    );
    // The same tiles with a straight split: black (0,7) (1,7) touches north and west;
    // b4 s + b3 n make the block (2,5)-(3,6), c3 s + c2 n the block (4,3)-(5,4), both walled in
    // by white quarters and empty cells; d2 s + d1 n make (6,1)-(7,2), touching only east. The
    // white halves touch one side each at most -> 0 everywhere too.
    assert_eq!(straat_scores("straat", staircase), Ok((0, 0, 0, 0)));
}

/// Diagonal split, a zigzag down files a and b: a4 n (N E black), b4 s (W S), b3 w (W N),
/// a3 e (E S), a2 n, b2 s, b1 w, a1 e. Black joins a4 E-b4 W, b4 S-b3 N, b3 W-a3 E, a3 S-a2 N,
/// a2 E-b2 W, b2 S-b1 N, b1 W-a1 E: one region touching north (a4 N) and south (a1 S) -> 1. It
/// does not touch west: every a-file W triangle is white, and a4's N and a1's S triangles meet
/// the west side only at the frame corners. White: {a4 S W, a3 N W} and {a2 S W, a1 N W} touch
/// only west, b4 N E only north, {b3 E S, b2 N E} nothing, b1 E S only south -> 0. Back: White's
/// file a touches north, south and west (1), Black's file b north and south (1).
/// -> (0, 1, 1, 1).
/// Repeating the pattern on files c and d fills the board: black gets a second, separate zigzag
/// (c4 N ... c1 S, north-south; d-file E triangles all white) -> front black 2. White's b and
/// c halves join across the b/c border (b4 E-c4 W, b3 E-c3 W, b2 E-c2 W, b1 E-c1 W) into one
/// region touching north (b4 N) and south (b1 S) -> front white 1; d4 N E touches north and east,
/// {d3 E S, d2 N E} east, d1 E S east and south -> 0. Back: White's files a and c, Black's b and
/// d: each file a north-south street -> 2 and 2. Total White 1 + 2 = 3, Black 2 + 2 = 4: 0-1.
#[test]
fn straat_diagonal_zigzags() {
    let half = "Ns2/Ew2/Ns2/Ew2 w";
    assert_eq!(straat_scores("straat-diagonal", half), Ok((0, 1, 1, 1)));
    assert_eq!(straat("straat-diagonal").outcome(half), Ok(None));
    let full = "NsNs/EwEw/NsNs/EwEw w";
    assert_eq!(straat_scores("straat-diagonal", full), Ok((1, 2, 2, 2)));
    assert_eq!(
        straat("straat-diagonal").outcome(full),
        Ok(Some("0-1 3-4".into()))
    );
    assert_eq!(straat("straat-diagonal").moves(full), Ok(vec![]));
}

/// Flip: the cross board above with White's b2 tile solid face up (`E*`). Front: b2 is four
/// white quarters; the black quarter column x = 3 is cut at b2 into a piece touching south (b1)
/// and one touching north (b3, b4) -> no street; the white columns x = 2 and x = 4 join through
/// b2's eastern quarters into one street -> white 4 - 1 = 3, black 4 - 1 = 3. Back: b2 now
/// shows its half/half face `e` in front coordinates, western half white, eastern half black: the
/// white cross loses c2 d2 (they only touch east) and keeps b1-b4 + a2 (north, south, west)
/// -> 1; b2's black half is walled in by white -> black 0. Total 4-3, White wins.
#[test]
fn straat_flip_a_solid_face_up_tile_changes_the_back() {
    let cross = "eEeE/eEee/EEEE/eEee w";
    let flipped = "eEeE/eEee/EE*EE/eEee w";
    assert_eq!(straat_scores("straat-flip", cross), Ok((4, 2, 4, 0)));
    assert_eq!(straat_scores("straat-flip", flipped), Ok((3, 1, 3, 0)));
    assert_eq!(
        straat("straat-flip").outcome(flipped),
        Ok(Some("1-0 4-3".into()))
    );
    assert!(straat_scores("straat", flipped).is_err());
    assert_eq!(straat("straat-flip").moves(flipped), Ok(vec![]));
}

// ---------------------------------------------------------------- perft

const RULESETS: [&str; 7] = [
    "schada",
    "kamelen",
    "kamelen-11x12",
    "kamelen-11x13",
    "fort-chitral",
    "fort-chitral-orthogonal",
    "fort-chitral-no-loss-at-three",
];

/// Prints `RULESET; start; C1 C2 C3 C4` for every ruleset (the format of `tests/perft/*.txt`).
#[test]
#[ignore = "slow: run with --release -- --ignored --nocapture print_perft"]
fn print_perft() {
    for ruleset in RULESETS {
        let game = Reference::new(ruleset, None).expect("known");
        let start = game.start();
        let counts: Vec<String> = (1..=4)
            .map(|depth| game.perft(&start, depth).expect("valid").to_string())
            .collect();
        println!("{ruleset}; start; {}", counts.join(" "));
    }
    // Straat: to depth 3 only (the slow reference takes long beyond).
    for ruleset in STRAAT_RULESETS {
        let game = Reference::new(ruleset, None).expect("known");
        let start = game.start();
        let counts: Vec<String> = (1..=3)
            .map(|depth| game.perft(&start, depth).expect("valid").to_string())
            .collect();
        println!("{ruleset}; start; {}", counts.join(" "));
    }
}
