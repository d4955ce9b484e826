//! Checks the reference endgame solver of `tests/egtb_reference/` against facts verified by hand
//! and against properties any correct table has (the minimax recursion holds at every position;
//! turning the board round and swapping the colours keeps the value), and counts its positions
//! against a count made from the rules texts (`/work/shared/rules/scandinavian.md`,
//! `draughts-reference.md`).
//!
//! The default tests solve every draughts ruleset with 2 pieces and `english` and
//! `scandinavian-8x8` with 3, and check the definition on every 2-piece table and on `english`
//! with 3 (some 15 to 30 s in a debug build). Ignored, since slower: the check of
//! `scandinavian-8x8` with 3 pieces, and `international` with 3 pieces (about a minute):
//! `cargo test -p denkmeter-games --test egtb_reference_selftest -- --ignored --nocapture`

mod egtb_reference;

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use denkmeter_core::{Game, Player, RulesetVisitor, Status};
use denkmeter_games::draughts::{English, International, Scandinavian8x8};
use egtb_reference::{grid_text, solve, Value};

type Table = HashMap<String, Value>;

fn english3() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| solve(&English::new(), 3))
}

fn scandinavian8x8_3() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| solve(&Scandinavian8x8::new(), 3))
}

fn international2() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| solve(&International::new(), 2))
}

fn value(table: &Table, text: &str) -> Value {
    *table
        .get(text)
        .unwrap_or_else(|| panic!("{text} is not in the table"))
}

// ---------------------------------------------------------------- Counting from the rules

/// The number of positions with at least one piece of each side and at most `max_pieces` in
/// all, both sides to move, counted from the rules: the dark squares of a `size` board are those
/// with file + rank even if `a1_dark`, else odd; a dame may stand on any of them, a man on any but
/// its own promotion row (White's the top rank, Black's rank 1).
fn count_from_rules(size: usize, a1_dark: bool, max_pieces: usize) -> usize {
    // ways[w][b]: placements of w White and b Black pieces on the squares seen so far.
    let mut ways = vec![vec![0usize; max_pieces + 1]; max_pieces + 1];
    ways[0][0] = 1;
    for rank in 0..size {
        for file in 0..size {
            if ((file + rank) % 2 == 0) != a1_dark {
                continue;
            }
            let white_kinds = if rank == size - 1 { 1 } else { 2 };
            let black_kinds = if rank == 0 { 1 } else { 2 };
            let mut next = ways.clone();
            for w in 0..=max_pieces {
                for b in 0..=max_pieces - w {
                    if w + 1 + b <= max_pieces {
                        next[w + 1][b] += ways[w][b] * white_kinds;
                    }
                    if w + b < max_pieces {
                        next[w][b + 1] += ways[w][b] * black_kinds;
                    }
                }
            }
            ways = next;
        }
    }
    let mut total = 0;
    for (w, row) in ways.iter().enumerate().skip(1) {
        for (b, &n) in row.iter().enumerate().skip(1) {
            if w + b <= max_pieces {
                total += n;
            }
        }
    }
    2 * total
}

/// (size, a1 dark) of a ruleset's board, from the rules texts.
fn board_of(name: &str) -> (usize, bool) {
    match name {
        "english" => (8, true),
        "international" => (10, true),
        n if n.starts_with("scandinavian-8x8") => (8, false),
        n if n.starts_with("scandinavian") => (10, false),
        other => panic!("{other} is not a draughts ruleset"),
    }
}

#[test]
fn counts_from_the_rules_match_hand_counts() {
    // Two pieces on 8x8: 32 dark squares, 4 of them on each promotion row. White piece on a
    // square (2 kinds, 1 on the top row) times Black piece on another (2 kinds, 1 on rank 1):
    // sum over ordered pairs of distinct squares = (60 * 60 - sum over squares of the product
    // on the same square) ... counted directly: kinds(W) sums to 2*28 + 4 = 60 and likewise for
    // Black; the same square would count 2*2 for 24 squares and 1*2 for 8: 112.
    assert_eq!(count_from_rules(8, true, 2), 2 * (60 * 60 - 112));
    assert_eq!(count_from_rules(8, false, 2), 2 * (60 * 60 - 112));
    // 10x10: 50 squares, 5 on each promotion row: 2*45 + 5 = 95; same square 2*2*40 + 1*2*10.
    assert_eq!(count_from_rules(10, true, 2), 2 * (95 * 95 - 180));
}

/// Every draughts ruleset: the squares that accept a piece are the dark ones, and men are refused
/// on their promotion row. (The tests that solve check the number of positions.)
#[test]
fn enumeration_follows_the_rules() {
    struct Check;
    impl RulesetVisitor for Check {
        fn visit<G: Game>(&mut self, game: G) {
            let name = game.name();
            let Some((size, a1_dark)) = is_draughts(name).then(|| board_of(name)) else {
                return;
            };
            let allowed = egtb_reference::allowed_letters(&game);
            assert_eq!(allowed.len(), size, "{name}: rows");
            for (row, cells) in allowed.iter().enumerate() {
                assert_eq!(cells.len(), size, "{name}: row {row}");
                let rank = size - 1 - row;
                for (file, letters) in cells.iter().enumerate() {
                    let dark = ((file + rank) % 2 == 0) == a1_dark;
                    let mut expected = Vec::new();
                    if dark {
                        if rank != size - 1 {
                            expected.push('M');
                        }
                        expected.push('D');
                        if rank != 0 {
                            expected.push('m');
                        }
                        expected.push('d');
                    }
                    assert_eq!(letters, &expected, "{name}: file {file} rank {rank}");
                    // The board's own marking agrees.
                    let cell = game.board().position_rows()[row][file];
                    let classes = &game.board().info(cell).classes;
                    assert_eq!(classes.contains(&"dark"), dark, "{name}: {classes:?}");
                }
            }
        }
    }
    denkmeter_games::visit_rulesets(&mut Check);
}

fn is_draughts(name: &str) -> bool {
    name == "english" || name == "international" || name.starts_with("scandinavian")
}

// ---------------------------------------------------------------- Properties of any table

/// The text of `text` turned half round with the colours and the side to move swapped: the
/// same position for the other side, so of the same value.
fn turned(text: &str) -> String {
    let (board, side) = text.split_once(' ').expect("a side to move");
    let mut rows: Vec<Vec<Option<char>>> = board
        .split('/')
        .map(|row| {
            let mut cells = Vec::new();
            let mut run = String::new();
            for c in row.chars() {
                if c.is_ascii_digit() {
                    run.push(c);
                    continue;
                }
                if !run.is_empty() {
                    let n: usize = run.parse().expect("a run of empty cells");
                    cells.extend(vec![None; n]);
                    run.clear();
                }
                let swapped = if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                };
                cells.push(Some(swapped));
            }
            if !run.is_empty() {
                let n: usize = run.parse().expect("a run of empty cells");
                cells.extend(vec![None; n]);
            }
            cells.reverse();
            cells
        })
        .collect();
    rows.reverse();
    grid_text(&rows, if side == "w" { 'b' } else { 'w' })
}

/// Checks every entry of `table` against the definition, move by move, through the public API
/// only: no legal move is `Loss(0)`; otherwise with a successor `Loss(m)`, `Win(1 + least m)`;
/// otherwise with every successor a `Win(m)`, `Loss(1 + greatest m)`; otherwise `Draw`. A
/// successor missing from the table must be a position whose side to move has no piece. Such a
/// table is the only one: by induction on the distance, every win and loss is forced to its
/// value, and what remains is drawn. Also checks the colour-swapped turned position has the same
/// value, and returns the number of each value.
fn check_table<G: Game>(game: &G, table: &Table, max_pieces: usize) -> BTreeMap<String, usize> {
    let entries: Vec<(&String, &Value)> = table.iter().collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = entries.len().div_ceil(threads).max(1);
    let mut summary = BTreeMap::new();
    std::thread::scope(|scope| {
        let handles: Vec<_> = entries
            .chunks(chunk)
            .map(|part| scope.spawn(move || check_entries(game, table, part, max_pieces)))
            .collect();
        for handle in handles {
            for (kind, n) in handle.join().expect("a checking thread panicked") {
                *summary.entry(kind).or_insert(0) += n;
            }
        }
    });
    summary
}

/// [`check_table`] for some of the entries.
fn check_entries<G: Game>(
    game: &G,
    table: &Table,
    entries: &[(&String, &Value)],
    max_pieces: usize,
) -> BTreeMap<String, usize> {
    let name = game.name();
    let mut summary = BTreeMap::new();
    let mut moves = Vec::new();
    for &(text, &found) in entries {
        let state = game.parse_position(text).expect("a table position parses");
        assert_eq!(&game.position_text(&state), text, "{name}: key");
        let pieces = text.chars().filter(|c| "MDmd".contains(*c)).count();
        assert!(pieces <= max_pieces, "{name}: {text} has too many pieces");
        assert!(
            text.contains(['M', 'D']) && text.contains(['m', 'd']),
            "{name}: {text} lacks a side"
        );
        moves.clear();
        game.legal_moves(&state, &mut moves);
        let mut fastest_loss: Option<u32> = None;
        let mut slowest_win: Option<u32> = None;
        let mut draw = false;
        for &mv in &moves {
            let mut after = state.clone();
            game.play_unchecked(&mut after, mv);
            let after_text = game.position_text(&after);
            let next = match table.get(&after_text) {
                Some(&v) => v,
                None => {
                    let fresh = game
                        .parse_position(&after_text)
                        .expect("a successor parses");
                    let mover = game.to_move(&fresh);
                    let own = if mover == Player::White { "MD" } else { "md" };
                    assert!(
                        !after_text.contains(|c| own.contains(c)),
                        "{name}: {text} -> {after_text} is missing from the table"
                    );
                    match game.status(&fresh) {
                        Status::Over(outcome) => {
                            assert_eq!(outcome.winner, Some(mover.opponent()), "{after_text}")
                        }
                        Status::Ongoing => panic!("{after_text}: no pieces but ongoing"),
                    }
                    Value::Loss(0)
                }
            };
            match next {
                Value::Loss(m) => fastest_loss = Some(fastest_loss.map_or(m, |f| f.min(m))),
                Value::Win(m) => slowest_win = Some(slowest_win.map_or(m, |s| s.max(m))),
                Value::Draw => draw = true,
            }
        }
        let expected = if moves.is_empty() {
            Value::Loss(0)
        } else if let Some(m) = fastest_loss {
            Value::Win(m + 1)
        } else if draw {
            Value::Draw
        } else {
            Value::Loss(slowest_win.expect("some successor") + 1)
        };
        assert_eq!(found, expected, "{name}: {text}");
        match found {
            Value::Win(n) => assert_eq!(n % 2, 1, "{name}: {text}"),
            Value::Loss(n) => assert_eq!(n % 2, 0, "{name}: {text}"),
            Value::Draw => {}
        }
        assert_eq!(
            table.get(&turned(text)),
            Some(&found),
            "{name}: {text} turned round"
        );
        let kind = match found {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        };
        *summary.entry(kind.to_string()).or_insert(0) += 1;
    }
    summary
}

/// Every draughts ruleset with 2 pieces: the table has the counted number of positions and
/// satisfies the definition.
#[test]
fn every_ruleset_with_two_pieces() {
    struct Check;
    impl RulesetVisitor for Check {
        fn visit<G: Game>(&mut self, game: G) {
            let name = game.name();
            if !is_draughts(name) {
                return;
            }
            let (size, a1_dark) = board_of(name);
            let start = std::time::Instant::now();
            let table = solve(&game, 2);
            assert_eq!(table.len(), count_from_rules(size, a1_dark, 2), "{name}");
            let summary = check_table(&game, &table, 2);
            println!(
                "{name}: 2 pieces: {} positions {summary:?} ({:.1?}); 3 pieces: {} positions",
                table.len(),
                start.elapsed(),
                count_from_rules(size, a1_dark, 3)
            );
        }
    }
    denkmeter_games::visit_rulesets(&mut Check);
}

#[test]
fn english_three_pieces_satisfy_the_definition() {
    let table = english3();
    assert_eq!(table.len(), count_from_rules(8, true, 3));
    let summary = check_table(&English::new(), table, 3);
    println!("english: 3 pieces: {} positions {summary:?}", table.len());
}

#[test]
#[ignore = "about 15 s in a debug build; the solver's logic is the same for every ruleset and is checked on english"]
fn scandinavian_8x8_three_pieces_satisfy_the_definition() {
    let table = scandinavian8x8_3();
    assert_eq!(table.len(), count_from_rules(8, false, 3));
    let summary = check_table(&Scandinavian8x8::new(), table, 3);
    println!(
        "scandinavian-8x8: 3 pieces: {} positions {summary:?}",
        table.len()
    );
}

// ---------------------------------------------------------------- English checkers by hand
// a1 dark (file + rank even); White's men move up, Black's down; kings step one square.

#[test]
fn english_positions_checked_by_hand() {
    let t = english3();
    // Black man h2, White man g1, Black to move: h2 can only go to g1 (taken), and cannot jump
    // g1 (off the board): no move.
    assert_eq!(value(t, "8/8/8/8/8/8/7m/6M1 b"), Value::Loss(0));
    // White man c3 takes the last Black piece on d4 (c3xe5).
    assert_eq!(value(t, "8/8/8/8/3m4/2M5/8/8 w"), Value::Win(1));
    // Men do not capture backwards: White man d4 cannot take c3 (but the Black man can take d4
    // from c3 only forwards, i.e. downwards: it cannot either).
    assert_ne!(value(t, "8/8/8/8/3M4/2m5/8/8 w"), Value::Win(1));
    assert_ne!(value(t, "8/8/8/8/3M4/2m5/8/8 b"), Value::Win(1));
    // A king does not fly: White king a1, Black man e5, nothing between: no capture.
    assert_ne!(value(t, "8/8/8/4m3/8/8/8/D7 w"), Value::Win(1));
    // Black man a5 has one move, a5-b4, after which the White king on c3 takes it (c3xa5).
    assert_eq!(value(t, "8/8/8/m7/8/2D5/8/8 b"), Value::Loss(2));
    // White king d2 reaches c3 in one move and cannot capture at once: a win in 3.
    assert_eq!(value(t, "8/8/8/m7/8/8/3D4/8 w"), Value::Win(3));
    // King against king. Black king g7, White king e5, Black to move: g7-f6 is taken at once
    // (e5xg7), and after g7-h8, g7-h6 or g7-f8 White's e5-f6 leaves the Black king only squares
    // next to f6 with an empty square beyond (h8-g7, h6-g7/g5, f8-e7/g7): a loss in 4.
    assert_eq!(value(t, "8/6d1/8/4D3/8/8/8/8 b"), Value::Loss(4));
    assert_eq!(value(t, "7d/8/5D2/8/8/8/8/8 b"), Value::Loss(2));
    assert_eq!(value(t, "8/6d1/5D2/8/8/8/8/8 w"), Value::Win(1));
    // So a king caught near the single corner loses: a1 against h8, White to move.
    assert_eq!(value(t, "7d/8/8/8/8/8/8/D7 w"), Value::Win(11));
    // But a king in a double corner (h2/g1) cannot be caught: a king that comes next to it
    // (g3, f2) is taken, and from h2 or g1 it always has the other square. Drawn.
    assert_eq!(value(t, "8/D7/8/8/8/8/7d/8 w"), Value::Draw);
    assert_eq!(value(t, "8/D7/8/8/8/8/7d/8 b"), Value::Draw);
    // Kings next to each other with the square beyond empty: the side to move takes.
    assert_eq!(value(t, "8/8/8/4d3/3D4/8/8/8 w"), Value::Win(1));
    assert_eq!(value(t, "8/8/8/4d3/3D4/8/8/8 b"), Value::Win(1));
    // A Black man on b2 between White men on a1 and c1 is blocked (its steps are taken and its
    // jumps would leave the board).
    assert_eq!(value(t, "8/8/8/8/8/8/1m6/M1M5 b"), Value::Loss(0));
}

/// The principal line from `start`: the winner's fastest, the loser's slowest moves, each step
/// one ply nearer the end, ending where the side to move has no move.
fn principal_line<G: Game>(game: &G, table: &Table, start: &str) -> Vec<String> {
    let mut line = vec![start.to_string()];
    let mut moves = Vec::new();
    loop {
        let text = line.last().expect("a position").clone();
        let wanted = match table.get(&text).copied().unwrap_or(Value::Loss(0)) {
            Value::Win(n) => Value::Loss(n - 1),
            Value::Loss(n) if n > 0 => Value::Win(n - 1),
            _ => return line,
        };
        let state = game.parse_position(&text).expect("parses");
        moves.clear();
        game.legal_moves(&state, &mut moves);
        let next = moves
            .iter()
            .map(|&mv| {
                let mut after = state.clone();
                game.play_unchecked(&mut after, mv);
                game.position_text(&after)
            })
            .find(|t| table.get(t).copied().unwrap_or(Value::Loss(0)) == wanted)
            .unwrap_or_else(|| panic!("{text}: no move to {wanted:?}"));
        line.push(next);
    }
}

#[test]
fn english_king_catches_a_far_man() {
    let game = English::new();
    let t = english3();
    // White king h2 against a Black man c7 far away, White to move: the king gets in front of
    // the man before it reaches the first rank.
    let start = "8/2m5/8/8/8/8/7D/8 w";
    let Value::Win(n) = value(t, start) else {
        panic!("{start}: {:?}", value(t, start))
    };
    let line = principal_line(&game, t, start);
    assert_eq!(line.len(), n as usize + 1);
    let last = line.last().expect("a position");
    assert!(!last.contains(['m', 'd']), "{line:?}");
    // With the king on a1 instead, the man gets through to be crowned: drawn.
    assert_eq!(value(t, "8/2m5/8/8/8/8/8/D7 w"), Value::Draw);
}

// ---------------------------------------------------------------- International by hand
// 10x10, a1 dark; men capture backwards too; dames fly.

#[test]
fn international_positions_checked_by_hand() {
    let t = international2();
    // The dame on a1 flies over seven empty squares, jumps i9 and lands on j10.
    assert_eq!(value(t, "10/8m1/10/10/10/10/10/10/10/D9 w"), Value::Win(1));
    // With the man on j10 there is no square beyond: no capture.
    assert_ne!(value(t, "9m/10/10/10/10/10/10/10/10/D9 w"), Value::Win(1));
    // The dame takes e5 from a1 and may land on f6 to j10.
    assert_eq!(value(t, "10/10/10/10/10/4m5/10/10/10/D9 w"), Value::Win(1));
    // Men capture backwards: White d4 takes Black c3 (d4xb2), and Black c3 takes d4 (c3xe5).
    assert_eq!(value(t, "10/10/10/10/10/10/3M6/2m7/10/10 w"), Value::Win(1));
    assert_eq!(value(t, "10/10/10/10/10/10/3M6/2m7/10/10 b"), Value::Win(1));
    // Black a3 jumps White b2, landing on c1 (and is crowned there).
    assert_eq!(value(t, "10/10/10/10/10/10/10/m9/1M8/10 b"), Value::Win(1));
    // White a1 jumps Black b2, landing on c3.
    assert_eq!(value(t, "10/10/10/10/10/10/10/10/1m8/M9 w"), Value::Win(1));
    // Black b2 cannot jump the dame on a1 (off the board) but has b2-c1: not lost at once.
    assert_ne!(value(t, "10/10/10/10/10/10/10/10/1m8/D9 b"), Value::Loss(0));
}

#[test]
#[ignore = "about a minute in a debug build"]
fn international_three_pieces() {
    let game = International::new();
    let start = std::time::Instant::now();
    let table = solve(&game, 3);
    assert_eq!(table.len(), count_from_rules(10, true, 3));
    // The dame on a1 takes c3 (landing d4) and then e3 (landing f2 or g1): both in one move.
    assert_eq!(
        value(&table, "10/10/10/10/10/10/10/2m1m5/10/D9 w"),
        Value::Win(1)
    );
    let summary = check_table(&game, &table, 3);
    println!(
        "international: 3 pieces: {} positions {summary:?} ({:.1?})",
        table.len(),
        start.elapsed()
    );
}

// ---------------------------------------------------------------- Scandinavian 8x8 by hand
// a1 light (dark squares: file + rank odd); strong men capture in 8 directions, orthogonally
// over the next dark square of the rank or file; dames fly in 8 directions.

#[test]
fn scandinavian_8x8_positions_checked_by_hand() {
    let t = scandinavian8x8_3();
    // White man c4 jumps Black c6 northwards, landing on c8.
    assert_eq!(value(t, "8/8/2m5/8/2M5/8/8/8 w"), Value::Win(1));
    // Backwards along the file: White c6 jumps Black c4 to c2; Black c4 jumps White c6 to c8.
    assert_eq!(value(t, "8/8/2M5/8/2m5/8/8/8 w"), Value::Win(1));
    assert_eq!(value(t, "8/8/2M5/8/2m5/8/8/8 b"), Value::Win(1));
    // Along the rank: White a4 jumps Black c4 to e4.
    assert_eq!(value(t, "8/8/8/8/M1m5/8/8/8 w"), Value::Win(1));
    // Diagonally backwards: White d5 takes Black c4, landing b3.
    assert_eq!(value(t, "8/8/8/3M4/2m5/8/8/8 w"), Value::Win(1));
    // The dame on a2 slides over c2, jumps e2 and lands on g2.
    assert_eq!(value(t, "8/8/8/8/8/8/D3m3/8 w"), Value::Win(1));
    // A dame cannot jump two pieces in a row: White dame a2, Black men c2 and e2 (the landing
    // square after c2 is taken): no capture along the rank, and none elsewhere.
    assert_ne!(value(t, "8/8/8/8/8/8/D1m1m3/8 w"), Value::Win(1));
    // The rules text: two dames against one, the two dames to move: 14,792 of the 14,880
    // positions are won, and `8/8/8/8/8/8/2D5/1d1D4 w` is one of the drawn ones.
    assert_eq!(value(t, "8/8/8/8/8/8/2D5/1d1D4 w"), Value::Draw);
    let two_against_one: Vec<Value> = t
        .iter()
        .filter(|(text, _)| {
            let (board, side) = text.split_once(' ').expect("a side");
            side == "w"
                && board.matches('D').count() == 2
                && board.matches('d').count() == 1
                && !board.contains(['M', 'm'])
        })
        .map(|(_, &v)| v)
        .collect();
    assert_eq!(two_against_one.len(), 14_880);
    let won = two_against_one
        .iter()
        .filter(|v| matches!(v, Value::Win(_)))
        .count();
    let drawn = two_against_one
        .iter()
        .filter(|v| matches!(v, Value::Draw))
        .count();
    assert_eq!((won, drawn), (14_792, 88));
}
