//! One test per rule of `shared/rules/sjekkers.md`, with hand-made positions, plus cross-checks
//! over random games: a slow, obvious move generator, notation and position round trips, the
//! hash.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::collections::BTreeSet;

use denkmeter_core::{
    Board, Cell, Game, MoveError, Outcome, Player, PositionError, Reason, RepetitionRule, Status,
    Viewer,
};
use denkmeter_engine::perft::perft;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::state::{at, coords, row_low, ROWS, ROW_LEN};
use super::*;

fn standard() -> Sjekkers {
    Sjekkers::new()
}

fn sideways() -> Sjekkers {
    Sjekkers::sideways()
}

fn checkers() -> Sjekkers {
    Sjekkers::checkers()
}

fn all_rulesets() -> [Sjekkers; 3] {
    [standard(), sideways(), checkers()]
}

fn pos(text: &str) -> State {
    standard()
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A position string with the pieces listed as letter and crossing (`"Se5 dd4"`), and the
/// side to move (`'w'` or `'b'`).
fn setup(pieces: &str, side: char) -> String {
    let mut rows: Vec<Vec<Option<char>>> = (0..ROWS)
        .map(|r| vec![None; usize::from(ROW_LEN[r])])
        .collect();
    for token in pieces.split_whitespace() {
        let letter = token.chars().next().unwrap();
        let cell = standard().board().cell_by_name(&token[1..]).unwrap();
        let (r, n) = coords(cell.index() as u8);
        rows[r][usize::from(n - row_low(r))] = Some(letter);
    }
    let mut text = String::new();
    for r in (0..ROWS).rev() {
        let mut run = 0;
        for cell in &rows[r] {
            match cell {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        text.push_str(&run.to_string());
                        run = 0;
                    }
                    text.push(*c);
                }
            }
        }
        if run > 0 {
            text.push_str(&run.to_string());
        }
        text.push(if r == 0 { ' ' } else { '/' });
    }
    text.push(side);
    text
}

fn at_setup(pieces: &str, side: char) -> State {
    pos(&setup(pieces, side))
}

fn sq(name: &str) -> Cell {
    standard().board().cell_by_name(name).unwrap()
}

fn moves_of(game: &Sjekkers, state: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    moves
}

/// The legal moves in notation, sorted.
fn texts(game: &Sjekkers, state: &State) -> Vec<String> {
    let mut list: Vec<String> = moves_of(game, state)
        .into_iter()
        .map(|m| game.move_text(state, m))
        .collect();
    list.sort();
    list
}

/// The destinations of the piece on `from`, sorted.
fn destinations(game: &Sjekkers, state: &State, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut list: Vec<String> = moves_of(game, state)
        .into_iter()
        .filter(|m| m.from() == Some(from))
        .map(|m| game.board().name(m.to().unwrap()).to_string())
        .collect();
    list.sort();
    list
}

fn played(game: &Sjekkers, state: &State, text: &str) -> State {
    let mv = game
        .parse_move(state, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut next = state.clone();
    game.play(&mut next, mv);
    next
}

fn piece(state: &State, name: &str) -> Option<(Player, Piece)> {
    state.piece_at(sq(name))
}

/// Every state of `games` random games of at most `plies` plies (the start included).
fn random_states(game: &Sjekkers, seed: u64, games: usize, plies: usize) -> Vec<State> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut states = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut state = game.start();
        states.push(state.clone());
        for _ in 0..plies {
            game.legal_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play(&mut state, mv);
            states.push(state.clone());
        }
    }
    states
}

/// White's disk on h5 is blocked by Black's disks on i5 and i6 and has nothing to capture.
const WHITE_BLOCKED: &str = "dd3/1D4/7/8/9/8/7/6/5 w";
/// Nobody can move: Black's five disks on row i face White's on rows h and g.
const NOBODY_MOVES: &str = "ddddd/DDDDDD/DDDDDDD/8/9/8/7/6/5 w";

// ---------------------------------------------------------------- the rulesets and types

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
        assert_eq!(g.family(), "sjekkers");
        assert!(!g.description().is_empty());
        assert!(!g.description().contains('\n'));
        assert_eq!(g.repetition_rule(), RepetitionRule::DrawOnThird);
        assert!(!g.has_hidden_information());
        assert_eq!(Sjekkers::with_variant(g.variant()).name(), g.name());
    }
    let registered: Vec<String> = rulesets().iter().map(|g| g.name().to_string()).collect();
    assert_eq!(registered, names);
    assert_eq!(rulesets()[0].start_position(), START);
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

// ---------------------------------------------------------------- disks

#[test]
fn disk_steps_forward_only() {
    let state = at_setup("De5 dh4", 'w');
    assert_eq!(texts(&standard(), &state), ["e5-f5", "e5-f6"]);
    let state = at_setup("Da3 de5", 'b');
    assert_eq!(texts(&standard(), &state), ["e5-d4", "e5-d5"]);
    for g in all_rulesets() {
        assert_eq!(destinations(&g, &state, "e5"), ["d4", "d5"]);
    }
    // Blocked ahead: no sideways or backward step instead.
    let state = at_setup("De5 Df5 Df6 dh4", 'w');
    assert!(destinations(&checkers(), &state, "e5").is_empty());
}

#[test]
fn disk_jumps_forward_over_an_own_piece() {
    // e5 jumps over the disk on f5 to g5 and over the Sjek on f6 to g7; not backward over d5
    // nor sideways over e6.
    let g = standard();
    let state = at_setup("De5 Df5 Sf6 Dd5 De6 dh4", 'w');
    assert_eq!(destinations(&g, &state, "e5"), ["g5", "g7"]);
    assert!(g.parse_move(&state, "e5-c5").is_err());
    assert!(g.parse_move(&state, "e5-e7").is_err());
    let after = played(&g, &state, "e5-g5");
    assert_eq!(piece(&after, "g5"), Some((Player::White, Piece::Disk)));
    assert_eq!(piece(&after, "f5"), Some((Player::White, Piece::Disk)));
    assert_eq!(after.count(Player::White, Piece::Disk), 4);
    assert_eq!(after.count(Player::Black, Piece::Disk), 1);
    // The landing must be empty.
    let state = at_setup("De5 Df5 Sf6 Dg5 dh4", 'w');
    assert_eq!(destinations(&g, &state, "e5"), ["g7"]);
    // Black jumps towards row a.
    let state = at_setup("Da3 de5 dd4", 'b');
    assert_eq!(destinations(&g, &state, "e5"), ["c3", "d5"]);
    // The same in sjekkers-sideways; never in sjekkers-checkers.
    assert_eq!(destinations(&sideways(), &state, "e5"), ["c3", "d5"]);
    assert_eq!(destinations(&checkers(), &state, "e5"), ["d5"]);
}

#[test]
fn no_own_jump_while_a_capture_is_available() {
    // a3 can capture b4; e5's jump over f5 and every step wait.
    let state = at_setup("De5 Df5 Da3 db4", 'w');
    assert_eq!(texts(&standard(), &state), ["a3xc5"]);
    let Err(MoveError::Illegal { reason, .. }) = standard().parse_move(&state, "e5-g5") else {
        panic!("e5-g5 must be illegal");
    };
    assert!(reason.contains("must capture"), "{reason}");
}

#[test]
fn disk_captures_forward_and_backward_but_not_sideways() {
    // Enemies all around e5: f6 ahead, d4 and d5 behind, e4 and e6 beside it.
    let state = at_setup("De5 df6 dd4 dd5 de4 de6", 'w');
    assert_eq!(texts(&standard(), &state), ["e5xc3", "e5xc5", "e5xg7"]);
    let after = played(&standard(), &state, "e5xc3");
    assert_eq!(piece(&after, "d4"), None);
    assert_eq!(piece(&after, "c3"), Some((Player::White, Piece::Disk)));
    assert_eq!(after.count(Player::Black, Piece::Disk), 4);
    // A disk's capture is a short jump: nothing to take two crossings away.
    let state = at_setup("De5 dg7 dh4", 'w');
    assert_eq!(texts(&standard(), &state), ["e5-f5", "e5-f6"]);
    // A Sjek is captured whole.
    let state = at_setup("De5 sf6 dh4", 'w');
    let after = played(&standard(), &state, "e5xg7");
    assert_eq!(after.count(Player::Black, Piece::Sjek), 0);
}

#[test]
fn sideways_captures_only_in_sjekkers_sideways() {
    let state = at_setup("De5 de6 dh4", 'w');
    assert_eq!(texts(&standard(), &state), ["e5-f5", "e5-f6"]);
    assert_eq!(texts(&sideways(), &state), ["e5xe7"]);
    assert_eq!(texts(&checkers(), &state), ["e5-f5", "e5-f6"]);
    let state = at_setup("De5 df6 dd4 dd5 de4 de6", 'w');
    assert_eq!(
        texts(&sideways(), &state),
        ["e5xc3", "e5xc5", "e5xe3", "e5xe7", "e5xg7"]
    );
    // Black too, along row e.
    let state = at_setup("Da1 De4 de5", 'b');
    assert_eq!(texts(&sideways(), &state), ["e5xe3"]);
    assert_eq!(texts(&standard(), &state), ["e5-d4", "e5-d5"]);
}

#[test]
fn one_jump_per_turn() {
    // c3 takes d4; the disk on f6 could be taken next from e5, but the turn is over.
    let g = standard();
    let state = at_setup("Dc3 dd4 df6", 'w');
    assert_eq!(texts(&g, &state), ["c3xe5"]);
    let after = played(&g, &state, "c3xe5");
    assert_eq!(after.to_move(), Player::Black);
    assert_eq!(piece(&after, "f6"), Some((Player::Black, Piece::Disk)));
    // Black in turn must take e5 from f6.
    assert_eq!(texts(&g, &after), ["f6xd4"]);
    // A chain is refused as such.
    let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&state, "c3xe5xg7") else {
        panic!("a chain must be illegal");
    };
    assert!(reason.contains("one jump"), "{reason}");
    // The same holds for Sjeks: one capture a turn.
    let state = at_setup("Sa1 dc3 df6 dh4", 'w');
    for mv in moves_of(&g, &state) {
        assert_eq!(mv.captured().count(), 1);
    }
}

#[test]
fn capture_is_compulsory_and_the_player_chooses() {
    // A disk's capture and a Sjek's capture, and nothing else.
    let state = at_setup("Dc3 dd4 Sa5 dc5 df5 dh4", 'w');
    assert_eq!(texts(&standard(), &state), ["a5xd5", "a5xe5", "c3xe5"]);
    for g in [standard(), sideways()] {
        assert!(moves_of(&g, &state).iter().all(|m| m.is_capture()));
    }
}

// ---------------------------------------------------------------- Sjeks

#[test]
fn sjek_slides_along_all_six_lines() {
    let g = standard();
    let state = at_setup("Se5 dh4", 'w');
    let all = destinations(&g, &state, "e5");
    assert_eq!(all.len(), 24);
    for name in ["i9", "e9", "a5", "a1", "e1", "i5", "f6", "d4"] {
        assert!(all.contains(&name.to_string()), "{name}");
    }
    // Pieces stop it: its own before it, the enemy's (out of capture) too.
    let state = at_setup("Se5 Dg7 de8 de9 dh4", 'w');
    let all = destinations(&g, &state, "e5");
    for name in ["f6", "e6", "e7"] {
        assert!(all.contains(&name.to_string()), "{name}");
    }
    for name in ["g7", "h8", "e8", "e9"] {
        assert!(!all.contains(&name.to_string()), "{name}");
    }
}

#[test]
fn sjek_captures_flying_in_every_flying_ruleset() {
    // a1 over c3 (across b2) to d4 or e5, stopping before f6.
    let state = at_setup("Sa1 dc3 df6 dh4", 'w');
    for g in [standard(), sideways()] {
        assert_eq!(texts(&g, &state), ["a1xd4", "a1xe5"]);
    }
    let after = played(&standard(), &state, "a1xe5");
    assert_eq!(piece(&after, "c3"), None);
    assert_eq!(piece(&after, "e5"), Some((Player::White, Piece::Sjek)));
    // Sideways along a row and backward too, in sjekkers as well.
    let state = at_setup("Se1 de3 db5", 'w');
    assert_eq!(
        texts(&standard(), &state),
        ["e1xe4", "e1xe5", "e1xe6", "e1xe7", "e1xe8", "e1xe9"]
    );
    let state = at_setup("Si9 dg7 Dc3", 'w');
    assert_eq!(texts(&standard(), &state), ["i9xd4", "i9xe5", "i9xf6"]);
    // Black's Sjek likewise.
    let state = at_setup("Dd5 sh5 Da3", 'b');
    assert_eq!(texts(&standard(), &state), ["h5xa5", "h5xb5", "h5xc5"]);
}

#[test]
fn sjek_captures_exactly_one_piece() {
    let g = standard();
    // Two enemies in a row: no capture along that line.
    let state = at_setup("Sa1 dc3 dd4 dh4", 'w');
    assert!(moves_of(&g, &state).iter().all(|m| !m.is_capture()));
    assert!(destinations(&g, &state, "a1").contains(&"b2".to_string()));
    // An own piece in front: no capture, but a jump over it (it is adjacent and ahead).
    let state = at_setup("Sa1 Db2 dd4 dh4", 'w');
    assert!(moves_of(&g, &state).iter().all(|m| !m.is_capture()));
    assert!(destinations(&g, &state, "a1").contains(&"c3".to_string()));
    // An own piece behind the enemy does not matter; the landing is before it.
    let state = at_setup("Sa1 dc3 De5 dh4", 'w');
    assert_eq!(texts(&g, &state), ["a1xd4"]);
    // The enemy on the edge cannot be captured.
    let state = at_setup("Se5 di9 dh4", 'w');
    assert!(moves_of(&g, &state).iter().all(|m| !m.is_capture()));
}

#[test]
fn sjek_jumps_own_pieces_only_as_a_disk() {
    let g = standard();
    // Over f5 (adjacent, ahead) to g5; not over d5 (behind) to c5, nor over e7 (not adjacent)
    // to e8.
    let state = at_setup("Se5 Df5 Dd5 De7 dh4", 'w');
    let all = destinations(&g, &state, "e5");
    assert!(all.contains(&"g5".to_string()));
    assert!(!all.contains(&"c5".to_string()));
    assert!(!all.contains(&"e8".to_string()));
    assert!(all.contains(&"e6".to_string()));
    // Sideways, over e6: no.
    let state = at_setup("Se5 De6 dh4", 'w');
    assert!(!destinations(&g, &state, "e5").contains(&"e7".to_string()));
    // Black's Sjek jumps towards row a.
    let state = at_setup("se5 dd4 Dh4", 'b');
    assert!(destinations(&g, &state, "e5").contains(&"c3".to_string()));
    let state = at_setup("se5 df6 Dh4", 'b');
    assert!(!destinations(&g, &state, "e5").contains(&"g7".to_string()));
}

// ---------------------------------------------------------------- promotion

#[test]
fn promotion_by_a_step() {
    for g in all_rulesets() {
        let state = at_setup("Dh5 dc3", 'w');
        let after = played(&g, &state, "h5-i5");
        assert_eq!(piece(&after, "i5"), Some((Player::White, Piece::Sjek)));
        let view = g.move_view(&state, g.parse_move(&state, "h5-i6").unwrap());
        assert!(view.promotes);
        let state = at_setup("Dh5 db2", 'b');
        let after = played(&g, &state, "b2-a1");
        assert_eq!(piece(&after, "a1"), Some((Player::Black, Piece::Sjek)));
        assert_eq!(g.position_text(&after), "5/1D4/7/8/9/8/7/6/s4 w");
    }
}

#[test]
fn promotion_by_an_own_jump() {
    let g = standard();
    let state = at_setup("Dg5 Dh5 dc3", 'w');
    let after = played(&g, &state, "g5-i5");
    assert_eq!(piece(&after, "i5"), Some((Player::White, Piece::Sjek)));
    assert_eq!(piece(&after, "h5"), Some((Player::White, Piece::Disk)));
}

#[test]
fn promotion_by_a_capture() {
    for g in all_rulesets() {
        let state = at_setup("Dg6 dh7 dc3", 'w');
        assert_eq!(texts(&g, &state), ["g6xi8"]);
        let after = played(&g, &state, "g6xi8");
        assert_eq!(piece(&after, "i8"), Some((Player::White, Piece::Sjek)));
        assert!(
            g.move_view(&state, g.parse_move(&state, "g6xi8").unwrap())
                .promotes
        );
    }
    // A backward capture onto the own first row does not promote.
    let state = at_setup("Dc3 db2 dh4", 'w');
    let after = played(&standard(), &state, "c3xa1");
    assert_eq!(piece(&after, "a1"), Some((Player::White, Piece::Disk)));
    // A Sjek stays a Sjek; no move makes a disk of it.
    let state = at_setup("Se5 dh4", 'w');
    let after = played(&standard(), &state, "e5-a1");
    assert_eq!(piece(&after, "a1"), Some((Player::White, Piece::Sjek)));
}

#[test]
fn reaching_the_far_row_ends_a_checkers_chain() {
    // On i8 a Sjek could go on over h8, but the disk's move ends there.
    let g = checkers();
    let state = at_setup("Dg6 dh7 dh8", 'w');
    assert_eq!(texts(&g, &state), ["g6xi8"]);
    let after = played(&g, &state, "g6xi8");
    assert_eq!(after.to_move(), Player::Black);
    assert_eq!(piece(&after, "h8"), Some((Player::Black, Piece::Disk)));
    assert_eq!(piece(&after, "i8"), Some((Player::White, Piece::Sjek)));
}

// ---------------------------------------------------------------- the end

#[test]
fn a_player_who_cannot_move_passes() {
    for g in [standard(), sideways()] {
        let state = pos(WHITE_BLOCKED);
        assert_eq!(moves_of(&g, &state), [Move::PASS]);
        assert_eq!(texts(&g, &state), ["pass"]);
        assert_eq!(g.status(&state), Status::Ongoing);
        let after = played(&g, &state, "PASS");
        assert_eq!(after.to_move(), Player::Black);
        assert_eq!(g.position_text(&after), "dd3/1D4/7/8/9/8/7/6/5 b");
        assert_eq!(texts(&g, &after), ["i5xg5", "i6xg4"]);
        let counts: Vec<u64> = (1..=3).map(|d| perft(&g, &state, d)).collect();
        assert_eq!(counts, [1, 2, 0]);
        // A player who can move may not pass.
        assert!(matches!(
            g.parse_move(&g.start(), "pass"),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(
            g.parse_move(&state, "h5-i5"),
            Err(MoveError::Illegal { .. })
        ));
        let view = g.move_view(&state, Move::PASS);
        assert_eq!((view.from, view.to), (None, None));
    }
}

#[test]
fn neither_player_can_move_is_a_draw() {
    for g in [standard(), sideways()] {
        for side in ['w', 'b'] {
            let text = NOBODY_MOVES.replace(" w", &format!(" {side}"));
            let state = pos(&text);
            assert!(moves_of(&g, &state).is_empty(), "{text}");
            assert_eq!(
                g.status(&state),
                Status::Over(Outcome::draw(Reason::NoMoves))
            );
            assert!(matches!(
                g.parse_move(&state, "pass"),
                Err(MoveError::Illegal { .. })
            ));
        }
    }
}

#[test]
fn checkers_player_who_cannot_move_loses() {
    let g = checkers();
    let state = pos(WHITE_BLOCKED);
    assert!(moves_of(&g, &state).is_empty());
    assert_eq!(
        g.status(&state),
        Status::Over(Outcome::win(Player::Black, Reason::NoMoves))
    );
    let state = pos(&NOBODY_MOVES.replace(" w", " b"));
    assert_eq!(
        g.status(&state),
        Status::Over(Outcome::win(Player::White, Reason::NoMoves))
    );
}

#[test]
fn capturing_every_enemy_piece_wins() {
    for g in all_rulesets() {
        let state = at_setup("De5 df6", 'w');
        let after = played(&g, &state, "e5xg7");
        assert!(moves_of(&g, &after).is_empty());
        assert_eq!(
            g.status(&after),
            Status::Over(Outcome::win(Player::White, Reason::NoPieces))
        );
    }
    // Black's Sjek takes White's last piece.
    let state = at_setup("Db2 sf6", 'b');
    let after = played(&standard(), &state, "f6xa1");
    assert_eq!(
        standard().status(&after),
        Status::Over(Outcome::win(Player::Black, Reason::NoPieces))
    );
}

#[test]
fn status_agrees_with_the_legal_moves() {
    for g in all_rulesets() {
        let mut finished = 0;
        for state in random_states(&g, 14, 40, 400) {
            let moves = moves_of(&g, &state);
            let status = g.status(&state);
            assert_eq!(
                status.is_over(),
                moves.is_empty(),
                "{}",
                g.position_text(&state)
            );
            if let Status::Over(outcome) = status {
                finished += 1;
                let side = state.to_move();
                if state.count(side, Piece::Disk) + state.count(side, Piece::Sjek) == 0 {
                    assert_eq!(outcome, Outcome::win(!side, Reason::NoPieces));
                } else {
                    assert_eq!(outcome.reason, Reason::NoMoves);
                }
            }
        }
        assert!(finished > 0, "{}: random games should end", g.name());
    }
}

// ---------------------------------------------------------------- the checkers rules

#[test]
fn checkers_chain_must_continue() {
    let g = checkers();
    let state = at_setup("Dc3 dd4 df6 dh4", 'w');
    assert_eq!(texts(&g, &state), ["c3xe5xg7"]);
    let after = played(&g, &state, "c3xe5xg7");
    assert_eq!(piece(&after, "g7"), Some((Player::White, Piece::Disk)));
    assert_eq!(after.count(Player::Black, Piece::Disk), 1);
    // Stopping halfway is refused.
    let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&state, "c3xe5") else {
        panic!("a chain cut short must be illegal");
    };
    assert!(reason.contains("goes on"), "{reason}");
    // The start and end alone name it, there being one capture between them.
    assert_eq!(
        g.parse_move(&state, "c3xg7"),
        g.parse_move(&state, "c3xe5xg7")
    );
    let view = g.move_view(&state, g.parse_move(&state, "c3xg7").unwrap());
    assert_eq!(view.from, Some(sq("c3")));
    assert_eq!(view.via, [sq("e5")]);
    assert_eq!(view.to, Some(sq("g7")));
    assert_eq!(view.captured, [sq("d4"), sq("f6")]);
    assert!(!view.promotes);
}

#[test]
fn checkers_any_capture_sequence_may_be_chosen() {
    // Two pieces by c3's chain or one by c5's: either.
    let state = at_setup("Dc3 dd4 df6 Dc5 dd6 dh4", 'w');
    assert_eq!(texts(&checkers(), &state), ["c3xe5xg7", "c5xe7"]);
}

#[test]
fn checkers_disks_capture_forward_only() {
    let g = checkers();
    let state = at_setup("De5 dd4 dd5 de4 de6", 'w');
    assert_eq!(texts(&g, &state), ["e5-f5", "e5-f6"]);
    let state = at_setup("De5 df5 dh4", 'w');
    assert_eq!(texts(&g, &state), ["e5xg5"]);
}

#[test]
fn checkers_sjeks_step_and_capture_one_crossing_at_a_time() {
    let g = checkers();
    let state = at_setup("Se5 dh4", 'w');
    assert_eq!(
        texts(&g, &state),
        ["e5-d4", "e5-d5", "e5-e4", "e5-e6", "e5-f5", "e5-f6"]
    );
    // No flying capture: the enemy two crossings away is out of reach.
    let state = at_setup("Se5 dg7 dh4", 'w');
    assert!(moves_of(&g, &state).iter().all(|m| !m.is_capture()));
    // A chain sideways and then backward.
    let state = at_setup("Se5 de4 dd3 dh4", 'w');
    assert_eq!(texts(&g, &state), ["e5xe3xc3"]);
}

#[test]
fn checkers_routes_with_the_same_captures_are_one_move() {
    // Around the triangle f6, f7, e6 either way, back to e5.
    let g = checkers();
    let state = at_setup("Se5 df6 df7 de6 dh4", 'w');
    let moves = moves_of(&g, &state);
    assert_eq!(moves.len(), 1);
    assert_eq!(texts(&g, &state), ["e5xg7xe7xe5"]);
    assert_eq!(g.parse_move(&state, "e5xe7xg7xe5"), Ok(moves[0]));
    let after = played(&g, &state, "e5xe7xg7xe5");
    assert_eq!(piece(&after, "e5"), Some((Player::White, Piece::Sjek)));
    assert_eq!(after.count(Player::Black, Piece::Disk), 1);
    assert_eq!(g.hash(&after), after.compute_hash());
    assert_eq!(perft(&g, &state, 1), 1);
}

#[test]
fn checkers_different_captures_between_the_same_crossings_need_the_landings() {
    let g = checkers();
    let state = at_setup("Dc3 dd4 df5 dd3 df4 dh8", 'w');
    assert_eq!(texts(&g, &state), ["c3xe3xg5", "c3xe5xg5"]);
    let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&state, "c3xg5") else {
        panic!("c3xg5 is ambiguous");
    };
    assert!(reason.contains("landings"), "{reason}");
    assert_ne!(
        g.parse_move(&state, "c3xe3xg5").unwrap(),
        g.parse_move(&state, "c3xe5xg5").unwrap()
    );
    assert!(matches!(
        g.parse_move(&state, "c3xe4xg5"),
        Err(MoveError::Illegal { .. })
    ));
}

// ---------------------------------------------------------------- notation

#[test]
fn notation_round_trips_in_random_games() {
    for g in all_rulesets() {
        for state in random_states(&g, 21, 20, 400) {
            for mv in moves_of(&g, &state) {
                let text = g.move_text(&state, mv);
                assert_eq!(g.parse_move(&state, &text), Ok(mv), "{text}");
                assert_eq!(g.parse_move(&state, &text.to_uppercase()), Ok(mv), "{text}");
            }
        }
    }
}

#[test]
fn notation_syntax_errors() {
    for g in all_rulesets() {
        let start = g.start();
        for text in [
            "",
            "   ",
            "c3",
            "c3d4",
            "c3-",
            "c3-d",
            "j1-j2",
            "a6-b6",
            "f1-g1",
            "c0-d1",
            "c3-d44",
            "c3=d4",
            "c3-d4-e5",
            "c3xd4-e5",
            "passe",
            "3c-4d",
            "c3-d4 x",
            "\u{e9}3-d4",
            "c3-d\u{e9}",
            "c3-d4\u{e9}",
        ] {
            assert!(
                matches!(g.parse_move(&start, text), Err(MoveError::Syntax { .. })),
                "{text:?}: {:?}",
                g.parse_move(&start, text)
            );
        }
    }
}

#[test]
fn notation_illegal_errors() {
    let g = standard();
    let start = g.start();
    for text in [
        "c3-d5",    // not a move of c3
        "g3-f3",    // Black's disk
        "d3-e3",    // no piece
        "c3xd3",    // captures nothing
        "pass",     // White can move
        "a1-c1",    // the landing is occupied
        "c3xe5xg7", // no chains here
        "c3-c4",    // sideways
    ] {
        assert!(
            matches!(g.parse_move(&start, text), Err(MoveError::Illegal { .. })),
            "{text:?}: {:?}",
            g.parse_move(&start, text)
        );
    }
    // A capture written as a step, and a step as a capture.
    let state = at_setup("Dc3 dd4 df6", 'w');
    let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&state, "c3-e5") else {
        panic!("c3-e5 is written wrong");
    };
    assert!(reason.contains('x'), "{reason}");
    // After the game is over.
    let over = pos(NOBODY_MOVES);
    let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&over, "h4-i5") else {
        panic!("the game is over");
    };
    assert!(reason.contains("over"), "{reason}");
    // A rejected move leaves nothing changed (parse_move takes the state by reference).
    assert_eq!(g.position_text(&start), START);
}

#[test]
fn positions_round_trip_in_random_games() {
    for g in all_rulesets() {
        for state in random_states(&g, 22, 20, 400) {
            let text = g.position_text(&state);
            assert_eq!(pos(&text), state, "{text}");
        }
    }
}

#[test]
fn bad_position_strings_are_errors() {
    let g = standard();
    let invalid = |text: &str| matches!(g.parse_position(text), Err(PositionError::Invalid(_)));
    assert_eq!(g.parse_position(""), Err(PositionError::Empty));
    assert_eq!(g.parse_position("  "), Err(PositionError::Empty));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD w"),
        Err(PositionError::RowCount {
            expected: 9,
            found: 8
        })
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD/DDDDD/5 w"),
        Err(PositionError::RowCount { found: 10, .. })
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/8/8/8/DDDDDDD/DDDDDD/DDDDD w"),
        Err(PositionError::RowLength {
            row: 5,
            expected: 9,
            found: 8
        })
    ));
    assert!(matches!(
        g.parse_position("dddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD/DDDDD w"),
        Err(PositionError::RowLength { row: 1, .. })
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/9/9/8/DDDDDDD/DDDDDD/DDDDD w"),
        Err(PositionError::BadNumber { row: 4, .. })
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/0/9/8/DDDDDDD/DDDDDD/DDDDD w"),
        Err(PositionError::BadNumber { .. })
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/99999999999999999999999/9/8/DDDDDDD/DDDDDD/DDDDD w"),
        Err(PositionError::BadNumber { .. })
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddkdddd/8/9/8/DDDDDDD/DDDDDD/DDDDD w"),
        Err(PositionError::BadCharacter { row: 3, found: 'k' })
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD/DDDDD"),
        Err(PositionError::SideToMove(_))
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD/DDDDD x"),
        Err(PositionError::SideToMove(_))
    ));
    assert!(matches!(
        g.parse_position("ddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD/DDDDD w w"),
        Err(PositionError::SideToMove(_))
    ));
    // A disk on its own far row would have been promoted; a Sjek may stand there.
    assert!(invalid("D4/6/7/8/9/8/7/6/d4 w"));
    assert!(invalid("d4/6/7/8/9/8/7/6/d4 w"));
    assert!(g.parse_position("S4/6/7/8/9/8/7/6/s4 w").is_ok());
    assert!(g.parse_position("d4/6/7/8/9/8/7/6/D4 w").is_ok());
    // Too many pieces.
    assert!(invalid(
        "ddddd/dddddd/ddddddd/d7/9/8/DDDDDDD/DDDDDD/DDDDD w"
    ));
    // The side that has just moved has no pieces.
    assert!(invalid("5/6/7/8/9/8/7/6/D4 w"));
    assert!(invalid("5/6/7/8/9/8/7/6/5 w"));
    assert!(g.parse_position("5/6/7/8/9/8/7/6/D4 b").is_ok());
    // Garbage never panics.
    for text in [
        "/",
        "////////",
        "5/6/7/8/9/8/7/6/5",
        "d w",
        "\u{e9}",
        "5/6/7/8/9/8/7/6/\u{e9} w",
    ] {
        assert!(g.parse_position(text).is_err(), "{text:?}");
    }
}

// ---------------------------------------------------------------- views and hashing

#[test]
fn move_and_position_views() {
    let g = standard();
    let state = at_setup("Sa1 dc3 df6 dh4", 'w');
    let view = g.move_view(&state, g.parse_move(&state, "a1xe5").unwrap());
    assert_eq!(view.from, Some(sq("a1")));
    assert!(view.via.is_empty());
    assert_eq!(view.to, Some(sq("e5")));
    assert_eq!(view.captured, [sq("c3")]);
    assert!(!view.promotes);

    let view = g.position_view(&state, Viewer::Everyone);
    assert_eq!(view.pieces.len(), 4);
    assert_eq!(view.to_move, Player::White);
    assert!(view.absent.is_empty());
    let sjek = view.pieces.iter().find(|p| p.letter == 'S').unwrap();
    assert_eq!(
        (sjek.cell, sjek.owner, sjek.kind),
        (sq("a1"), Player::White, "sjek")
    );
    let disk = view.pieces.iter().find(|p| p.cell == sq("c3")).unwrap();
    assert_eq!(
        (disk.owner, disk.kind, disk.letter),
        (Player::Black, "disk", 'd')
    );
}

#[test]
fn hash_matches_recomputation_in_random_games() {
    for g in all_rulesets() {
        let states = random_states(&g, 31, 30, 400);
        for state in &states {
            assert_eq!(g.hash(state), state.compute_hash());
        }
        let distinct: BTreeSet<u64> = states.iter().map(|s| g.hash(s)).collect();
        let texts: BTreeSet<String> = states.iter().map(|s| g.position_text(s)).collect();
        assert_eq!(distinct.len(), texts.len());
    }
    let white = pos(WHITE_BLOCKED);
    let black = pos(&WHITE_BLOCKED.replace(" w", " b"));
    assert_ne!(standard().hash(&white), standard().hash(&black));
}

#[test]
fn observation_is_the_state_and_playout_value_counts_material() {
    let g = standard();
    let start = g.start();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    assert_eq!(g.observe(&start, Player::Black), start);
    assert_eq!(g.sample(&start, &mut rng), start);
    assert!((g.playout_value(&start) - 0.5).abs() < 1e-12);
    let ahead = at_setup("Se5 De6 dh4", 'w');
    let behind = at_setup("De5 sh5 dh4", 'w');
    assert!(g.playout_value(&ahead) > 0.7);
    assert!(g.playout_value(&behind) < 0.3);
    assert!((g.playout_value(&ahead) + g.playout_value(&behind) - 1.0).abs() < 1e-12);
}

// ---------------------------------------------------------------- a slow, obvious reference

/// The rules written the plain way over an array and core's board, to check the bitboards.
#[derive(Clone)]
struct Slow {
    cells: Vec<Option<(Player, Piece)>>,
}

/// A move as the reference sees it: start, end and the captured crossings.
type SlowMove = (u16, u16, Vec<u16>);

impl Slow {
    fn of(state: &State) -> Slow {
        Slow {
            cells: (0..61).map(|c| state.piece_at(Cell(c))).collect(),
        }
    }

    fn dir(board: &Board, name: &str) -> usize {
        board
            .directions()
            .iter()
            .position(|d| d.name == name)
            .unwrap()
    }

    fn forward(board: &Board, side: Player) -> Vec<usize> {
        match side {
            Player::White => vec![Self::dir(board, "ne"), Self::dir(board, "nw")],
            Player::Black => vec![Self::dir(board, "se"), Self::dir(board, "sw")],
        }
    }

    fn far_row(board: &Board, side: Player, cell: Cell) -> bool {
        let row = if side == Player::White { "i" } else { "a" };
        board.name(cell).starts_with(row)
    }

    fn owner(&self, cell: Cell) -> Option<Player> {
        self.cells[cell.index()].map(|(p, _)| p)
    }

    /// Every move of `side` (passes excluded) under `variant`.
    fn moves(&self, board: &Board, side: Player, variant: Variant) -> BTreeSet<SlowMove> {
        if variant == Variant::Checkers {
            self.checkers_moves(board, side)
        } else {
            self.flying_moves(board, side, variant == Variant::Sideways)
        }
    }

    fn flying_moves(&self, board: &Board, side: Player, sideways: bool) -> BTreeSet<SlowMove> {
        let mut captures = BTreeSet::new();
        let mut quiet = BTreeSet::new();
        let forward = Self::forward(board, side);
        let row_dirs = [Self::dir(board, "e"), Self::dir(board, "w")];
        for from in board.cell_ids() {
            let Some((owner, kind)) = self.cells[from.index()] else {
                continue;
            };
            if owner != side {
                continue;
            }
            for d in 0..6 {
                match kind {
                    Piece::Disk => {
                        if !sideways && row_dirs.contains(&d) {
                            continue;
                        }
                        let Some(over) = board.neighbour(from, d) else {
                            continue;
                        };
                        let Some(to) = board.neighbour(over, d) else {
                            continue;
                        };
                        if self.owner(over) == Some(!side) && self.owner(to).is_none() {
                            captures.insert((from.0, to.0, vec![over.0]));
                        }
                    }
                    Piece::Sjek => {
                        let mut ray = board.ray(from, d);
                        let Some(over) = ray.find(|&c| self.owner(c).is_some()) else {
                            continue;
                        };
                        if self.owner(over) != Some(!side) {
                            continue;
                        }
                        for to in board.ray(over, d) {
                            if self.owner(to).is_some() {
                                break;
                            }
                            captures.insert((from.0, to.0, vec![over.0]));
                        }
                    }
                }
            }
            // Steps and slides.
            for d in 0..6 {
                if kind == Piece::Disk && !forward.contains(&d) {
                    continue;
                }
                for to in board.ray(from, d) {
                    if self.owner(to).is_some() {
                        break;
                    }
                    quiet.insert((from.0, to.0, Vec::new()));
                    if kind == Piece::Disk {
                        break;
                    }
                }
            }
            // Jumps over own pieces.
            for &d in &forward {
                let Some(over) = board.neighbour(from, d) else {
                    continue;
                };
                let Some(to) = board.neighbour(over, d) else {
                    continue;
                };
                if self.owner(over) == Some(side) && self.owner(to).is_none() {
                    quiet.insert((from.0, to.0, Vec::new()));
                }
            }
        }
        if captures.is_empty() {
            quiet
        } else {
            captures
        }
    }

    fn checkers_moves(&self, board: &Board, side: Player) -> BTreeSet<SlowMove> {
        let mut captures = BTreeSet::new();
        let mut quiet = BTreeSet::new();
        for from in board.cell_ids() {
            let Some((owner, kind)) = self.cells[from.index()] else {
                continue;
            };
            if owner != side {
                continue;
            }
            let dirs = match kind {
                Piece::Disk => Self::forward(board, side),
                Piece::Sjek => (0..6).collect(),
            };
            let mut board_now = self.clone();
            board_now.cells[from.index()] = None;
            board_now.chain(
                board,
                side,
                kind,
                &dirs,
                from,
                from,
                &mut Vec::new(),
                &mut captures,
            );
            for &d in &dirs {
                if let Some(to) = board.neighbour(from, d) {
                    if self.owner(to).is_none() {
                        quiet.insert((from.0, to.0, Vec::new()));
                    }
                }
            }
        }
        if captures.is_empty() {
            quiet
        } else {
            captures
        }
    }

    /// Follows every capture chain from `at`; captured pieces stay on the board (and may not
    /// be jumped again) until the move ends.
    #[allow(clippy::too_many_arguments)]
    fn chain(
        &self,
        board: &Board,
        side: Player,
        kind: Piece,
        dirs: &[usize],
        from: Cell,
        at: Cell,
        taken: &mut Vec<u16>,
        found: &mut BTreeSet<SlowMove>,
    ) {
        let mut went_on = false;
        for &d in dirs {
            let Some(over) = board.neighbour(at, d) else {
                continue;
            };
            let Some(to) = board.neighbour(over, d) else {
                continue;
            };
            if self.owner(over) != Some(!side)
                || taken.contains(&over.0)
                || self.owner(to).is_some()
            {
                continue;
            }
            went_on = true;
            taken.push(over.0);
            if kind == Piece::Disk && Self::far_row(board, side, to) {
                let mut set = taken.clone();
                set.sort_unstable();
                found.insert((from.0, to.0, set));
            } else {
                self.chain(board, side, kind, dirs, from, to, taken, found);
            }
            taken.pop();
        }
        if !went_on && !taken.is_empty() {
            let mut set = taken.clone();
            set.sort_unstable();
            found.insert((from.0, at.0, set));
        }
    }

    fn has_pieces(&self, side: Player) -> bool {
        self.cells.iter().flatten().any(|&(p, _)| p == side)
    }

    /// The legal moves, a pass (as `(MAX, MAX, [])`) included.
    fn legal(&self, board: &Board, side: Player, variant: Variant) -> BTreeSet<SlowMove> {
        if !self.has_pieces(side) || !self.has_pieces(!side) {
            return BTreeSet::new();
        }
        let moves = self.moves(board, side, variant);
        if moves.is_empty()
            && variant != Variant::Checkers
            && !self.moves(board, !side, variant).is_empty()
        {
            return BTreeSet::from([(u16::MAX, u16::MAX, Vec::new())]);
        }
        moves
    }

    fn play(&mut self, side: Player, mv: &SlowMove) {
        let (from, to, taken) = mv;
        if *from == u16::MAX {
            return;
        }
        let (owner, mut kind) = self.cells[usize::from(*from)].take().unwrap();
        assert_eq!(owner, side);
        for &c in taken {
            self.cells[usize::from(c)] = None;
        }
        let row = if side == Player::White { 8 } else { 0 };
        if coords(*to as u8).0 == row {
            kind = Piece::Sjek;
        }
        self.cells[usize::from(*to)] = Some((side, kind));
    }

    fn perft(&self, board: &Board, side: Player, variant: Variant, depth: u32) -> u64 {
        let moves = self.legal(board, side, variant);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|mv| {
                let mut next = self.clone();
                next.play(side, mv);
                next.perft(board, !side, variant, depth - 1)
            })
            .sum()
    }
}

fn fast_as_slow(moves: &[Move]) -> BTreeSet<SlowMove> {
    moves
        .iter()
        .map(|m| match (m.from(), m.to()) {
            (Some(from), Some(to)) => (from.0, to.0, m.captured().map(|c| c.0).collect()),
            _ => (u16::MAX, u16::MAX, Vec::new()),
        })
        .collect()
}

#[test]
fn fast_generator_matches_the_slow_reference() {
    for g in all_rulesets() {
        let board = g.board();
        let (mut passes, mut captures, mut positions) = (0, 0, 0);
        for state in random_states(&g, 41, 40, 400) {
            let side = state.to_move();
            let slow = Slow::of(&state);
            let expected = slow.legal(board, side, g.variant());
            let fast = moves_of(&g, &state);
            let found = fast_as_slow(&fast);
            assert_eq!(found, expected, "{} {}", g.name(), g.position_text(&state));
            assert_eq!(found.len(), fast.len(), "duplicate moves");
            passes += usize::from(fast == [Move::PASS]);
            captures += usize::from(fast.iter().any(|m| m.is_capture()));
            positions += 1;
            // Playing agrees too.
            for &mv in fast.iter().take(3) {
                let mut next = state.clone();
                g.play(&mut next, mv);
                let mut slow_next = slow.clone();
                let key = fast_as_slow(&[mv]).into_iter().next().unwrap();
                slow_next.play(side, &key);
                assert_eq!(Slow::of(&next).cells, slow_next.cells);
            }
        }
        assert!(captures > positions / 20, "{}: too few captures", g.name());
        let _ = passes;
    }
}

#[test]
fn slow_reference_perft_agrees_on_hand_made_positions() {
    for (g, text, depth) in [
        (standard(), START, 3),
        (sideways(), START, 3),
        (checkers(), START, 4),
        (standard(), WHITE_BLOCKED, 4),
        (checkers(), "5/6/7/4d3/2ds3d1/3S4/1dD2D1/2D3/5 w", 3),
        (standard(), "5/6/7/4d3/2ds3d1/3S4/1dD2D1/2D3/5 w", 3),
        (sideways(), "5/6/7/4d3/2ds3d1/3S4/1dD2D1/2D3/5 b", 3),
    ] {
        let state = g.parse_position(text).unwrap();
        let slow = Slow::of(&state);
        for d in 1..=depth {
            assert_eq!(
                perft(&g, &state, d),
                slow.perft(g.board(), state.to_move(), g.variant(), d),
                "{} {text} depth {d}",
                g.name()
            );
        }
    }
}

/// Random play from a fixed seed: games end, some by capturing everything.
#[test]
fn random_games_reach_an_end() {
    for g in all_rulesets() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(51);
        let mut moves = Vec::new();
        let mut ended = 0;
        for _ in 0..50 {
            let mut state = g.start();
            for _ in 0..2000 {
                g.legal_moves(&state, &mut moves);
                if moves.is_empty() {
                    break;
                }
                g.play(&mut state, moves[rng.gen_range(0..moves.len())]);
            }
            ended += usize::from(g.status(&state).is_over());
        }
        assert!(ended > 0, "{}", g.name());
    }
}
