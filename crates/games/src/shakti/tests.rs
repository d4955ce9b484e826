//! One test per rule of `shared/rules/shakti.md` and per fact it lists, plus cross-checks over
//! random games: a slow, obvious move generator, notation and position round trips, the hash.

use std::collections::BTreeSet;

use denkmeter_core::{
    Board, Cell, Game, MoveError, Outcome, Player, PositionError, Reason, Status,
};
use denkmeter_engine::perft::perft;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;

const START: &str = "-5-/1w1k1w1/7/7/7/1W1K1W1/-5- w";
/// The source's "check from a distance" position, with a Black king added on a7.
const FACT_CHECK: &str = "k6/2-2-w/5-1/4-2/1--K3/2-4/7 w";
/// The same with a White warrior on g6.
const FACT_NO_CHECK: &str = "k6/2-2-W/5-1/4-2/1--K3/2-4/7 w";

fn game() -> Shakti {
    Shakti::new()
}

fn pos(text: &str) -> State {
    game()
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Cell {
    game().board().cell_by_name(name).unwrap()
}

fn moves_of(state: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    game().legal_moves(state, &mut moves);
    moves
}

/// The legal moves in notation, sorted.
fn texts(state: &State) -> Vec<String> {
    let g = game();
    let mut list: Vec<String> = moves_of(state)
        .into_iter()
        .map(|m| g.move_text(state, m))
        .collect();
    list.sort();
    list
}

/// The destinations of the piece on `from`, sorted by name.
fn destinations(state: &State, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut list: Vec<String> = moves_of(state)
        .into_iter()
        .filter(|m| m.from() == Some(from))
        .map(|m| game().board().name(m.to().unwrap()).to_string())
        .collect();
    list.sort();
    list
}

fn played(state: &State, text: &str) -> State {
    let g = game();
    let mv = g
        .parse_move(state, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut next = state.clone();
    g.play(&mut next, mv);
    next
}

fn is_legal(state: &State, text: &str) -> bool {
    game().parse_move(state, text).is_ok()
}

/// Every state of `games` random games of at most `plies` plies (the start included).
fn random_states(seed: u64, games: usize, plies: usize) -> Vec<State> {
    let g = game();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut states = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut state = g.start();
        states.push(state.clone());
        for _ in 0..plies {
            g.legal_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            g.play(&mut state, mv);
            states.push(state.clone());
        }
    }
    states
}

// ---------------------------------------------------------------- the ruleset and its types

#[test]
fn move_fits_in_four_bytes() {
    assert!(std::mem::size_of::<Move>() <= 4);
}

#[test]
fn ruleset_names() {
    let g = game();
    assert_eq!(g.name(), "shakti");
    assert_eq!(g.family(), "shakti");
    assert!(!g.description().is_empty());
    assert_eq!(g.board().len(), 49);
    assert_eq!(
        g.repetition_rule(),
        denkmeter_core::RepetitionRule::DrawOnThird
    );
    assert!(!g.has_hidden_information());
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

// ---------------------------------------------------------------- the source's facts

#[test]
fn fact_check_from_a_distance() {
    let state = pos(FACT_CHECK);
    assert!(state.is_in_check(Player::White));
    assert_eq!(texts(&state), ["d3-c4", "d3-d2", "d3-d4", "d3-e2", "d3-e3"]);
}

#[test]
fn fact_own_warrior_gives_no_check_and_king_sees_through_gaps() {
    let state = pos(FACT_NO_CHECK);
    assert!(!state.is_in_check(Player::White));
    assert_eq!(
        destinations(&state, "d3"),
        ["a3", "b1", "c4", "d2", "d4", "e2", "e3"]
    );
}

// ---------------------------------------------------------------- the king

#[test]
fn king_not_in_check_moves_to_the_first_tile_in_each_direction() {
    // d3 sees a3 across the gaps at c3 and b3, and b1 across c2; c4, d4, e3, d2 and e2 are
    // neighbours; e4 is skipped to f5's gap and g6 holds its own warrior.
    let state = pos(FACT_NO_CHECK);
    let all = destinations(&state, "d3");
    assert!(all.contains(&"a3".to_string()) && all.contains(&"b1".to_string()));
    // An own piece on the first tile blocks that direction.
    let start = game().start();
    assert!(!is_legal(
        &played(&played(&start, "d2-c2"), "d6-d5"),
        "c2-b2"
    ));
}

#[test]
fn king_in_check_moves_only_to_adjacent_tiles() {
    // In check from g6 the king on d3 no longer reaches a3 or b1.
    let state = pos(FACT_CHECK);
    let all = destinations(&state, "d3");
    assert!(!all.contains(&"a3".to_string()) && !all.contains(&"b1".to_string()));
    // The checking warrior is not adjacent and cannot be taken.
    assert!(!is_legal(&state, "d3xg6"));
}

#[test]
fn king_in_check_captures_an_unprotected_adjacent_warrior() {
    let state = pos("-k4-/7/4w2/3K3/7/7/-5- w");
    assert!(state.is_in_check(Player::White));
    assert_eq!(
        texts(&state),
        ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-e3", "d4xe5"]
    );
    let after = played(&state, "d4xe5");
    assert_eq!(after.warriors(Player::Black).count(), 0);
    assert_eq!(after.king(Player::White), sq("e5"));
    assert!(after.has_tile(sq("e5")));
}

#[test]
fn king_cannot_capture_a_warrior_protected_by_a_warrior() {
    // Taking e5 would leave the king next to the warrior on f6.
    let state = pos("-k4-/5w1/4w2/3K3/7/7/-5- w");
    assert!(state.is_in_check(Player::White));
    assert_eq!(texts(&state), ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-e3"]);
    assert!(matches!(
        game().parse_move(&state, "d4xe5"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn king_cannot_capture_a_warrior_protected_by_the_enemy_king() {
    // Taking e5 would put the kings face to face (the evil stare).
    let state = pos("-5-/5k1/4w2/3K3/7/7/-5- w");
    assert_eq!(texts(&state), ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-e3"]);
}

#[test]
fn king_never_captures_unless_in_check_and_adjacent() {
    let g = game();
    for state in random_states(11, 40, 300) {
        let side = state.to_move();
        for mv in moves_of(&state) {
            if g.move_view(&state, mv).captured.is_empty() {
                continue;
            }
            assert!(state.is_in_check(side), "{}", g.position_text(&state));
            let (from, to) = (mv.from().unwrap(), mv.to().unwrap());
            assert_eq!(from, state.king(side));
            assert!((0..8).any(|d| g.board().neighbour(from, d) == Some(to)));
        }
    }
}

#[test]
fn king_may_not_move_where_the_kings_see_each_other() {
    // From d4 the king may not go to d5, under the Black king on d7 with d6 gone.
    let state = pos("-2k2-/3-3/7/3K3/7/7/-5- w");
    assert!(!destinations(&state, "d4").contains(&"d5".to_string()));
    assert!(destinations(&state, "d4").contains(&"c5".to_string()));
}

// ---------------------------------------------------------------- the warrior

#[test]
fn warrior_moves_to_the_first_or_the_second_tile() {
    let start = game().start();
    // North from b2: b3 (first tile) or b4 (second); the player chooses.
    let all = destinations(&start, "b2");
    assert!(all.contains(&"b3".to_string()) && all.contains(&"b4".to_string()));
    // The first tile skips gaps: with b3 gone, b2 reaches b4 in one step and b5 in two.
    let state = pos("-5-/1w1k1w1/7/7/1-5/1W1K1W1/-5- w");
    let b2 = destinations(&state, "b2");
    assert!(b2.contains(&"b4".to_string()) && b2.contains(&"b5".to_string()));
    assert_eq!(
        moves_of(&state)
            .into_iter()
            .find(|m| m.to() == Some(sq("b4")))
            .unwrap()
            .removed(),
        None
    );
}

#[test]
fn warrior_two_step_move_removes_the_jumped_tile() {
    let start = game().start();
    let after = played(&start, "b2-b4");
    assert!(!after.has_tile(sq("b3")));
    assert_eq!(after.tile_count(), 44);
    assert_eq!(
        game().position_text(&after),
        "-5-/1w1k1w1/7/1W5/1-5/3K1W1/-5- b"
    );
    // Beyond a gap the removed tile is not the middle square.
    let state = pos("-5-/1w1k1w1/7/7/1-5/1W1K1W1/-5- w");
    let after = played(&state, "b2-b5(b4)");
    assert!(!after.has_tile(sq("b4")) && after.has_tile(sq("b5")));
    // A one-step move removes nothing.
    assert_eq!(played(&start, "b2-b3").tile_count(), 45);
}

#[test]
fn warrior_needs_both_tiles_empty_for_the_second() {
    // f2-d4 over e3 is possible from the start, but not with a piece on e3 or d4.
    let start = game().start();
    assert!(is_legal(&start, "f2-d4"));
    let blocked = played(&played(&start, "d2-e3"), "d6-d5");
    assert!(!is_legal(&blocked, "f2-d4"));
}

#[test]
fn warrior_never_captures() {
    // Warriors next to each other cannot move onto (or over) each other.
    let state = pos("-5-/1w1k1w1/1W5/7/7/3K1W1/-5- b");
    assert!(!is_legal(&state, "b6-b5") && !is_legal(&state, "b6-b4"));
    let state = pos("-5-/1w1k3/1W5/7/7/3K1W1/-5- w");
    assert!(!destinations(&state, "b5").contains(&"b6".to_string()));
    let g = game();
    for state in random_states(12, 40, 300) {
        for mv in moves_of(&state) {
            if mv.is_pass() || mv.from() == Some(state.king(state.to_move())) {
                continue;
            }
            assert!(state.piece_at(mv.to().unwrap()).is_none());
            assert!(g.move_view(&state, mv).captured.is_empty());
        }
    }
}

// ---------------------------------------------------------------- check

#[test]
fn warrior_on_the_second_tile_gives_no_check() {
    // b2's first tile north is the empty b3: the king on b4 is not in check.
    let state = pos("-5-/7/7/1k5/7/1W1K3/-5- b");
    assert!(!state.is_in_check(Player::Black));
    // With b3 gone, b4 is b2's first tile: check.
    let state = pos("-5-/7/7/1k5/1-5/1W1K3/-5- b");
    assert!(state.is_in_check(Player::Black));
}

#[test]
fn a_two_step_move_gives_check_by_the_tile_it_removes() {
    // c4 jumps to e4 and removes d4: d6 then sees the warrior on d3 across d5 and d4.
    let state = pos("-5-/3k3/3-3/2W4/3W3/7/-K4- w");
    assert!(!state.is_in_check(Player::Black));
    let after = played(&state, "c4-e4");
    assert!(!after.has_tile(sq("d4")));
    assert!(after.is_in_check(Player::Black));
    assert_eq!(game().status(&after), Status::Ongoing);
}

#[test]
fn no_move_may_leave_the_own_king_in_check() {
    // Removing d4 would open the d-file between the warrior on d6 and the king on d1.
    let state = pos("-k4-/3w3/3-3/2W4/3-3/3-3/-2K2- w");
    assert!(!is_legal(&state, "c4-e4"));
    assert!(is_legal(&state, "c4-d4"));
    // In check, only the king moves: warriors cannot block (a piece stands on a tile, and a
    // checking line has none).
    let state = pos(FACT_CHECK);
    assert!(moves_of(&state)
        .into_iter()
        .all(|m| m.from() == Some(state.king(Player::White))));
}

#[test]
fn evil_stare_forbids_a_white_tile_removal() {
    // Removing d4 would leave the kings on d1 and d6 seeing each other.
    let state = pos("-5-/3k3/3-3/2W4/3-3/3-3/-2K2- w");
    assert!(!is_legal(&state, "c4-e4"));
    assert!(is_legal(&state, "c4-d4"));
}

#[test]
fn evil_stare_forbids_a_black_tile_removal() {
    let state = pos("-5-/3k3/3-3/2w4/3-3/3-3/-2K2- b");
    assert!(!is_legal(&state, "c4-e4"));
    assert!(is_legal(&state, "c4-d4"));
}

#[test]
fn no_legal_move_leaves_check_or_stare() {
    let g = game();
    for state in random_states(13, 40, 300) {
        let side = state.to_move();
        for mv in moves_of(&state) {
            let mut next = state.clone();
            g.play(&mut next, mv);
            assert!(!next.is_in_check(side));
            assert!(!next.kings_see_each_other());
        }
    }
}

// ---------------------------------------------------------------- results

#[test]
fn stalemated_player_passes() {
    // The White king on a1 sees no tile in any direction; Black can move.
    let state = pos("-5-/-2k1-1/-3-2/-2-3/-1-4/--5/K------ w");
    assert!(!state.is_in_check(Player::White));
    assert_eq!(moves_of(&state), [Move::PASS]);
    assert_eq!(texts(&state), ["pass"]);
    assert_eq!(game().status(&state), Status::Ongoing);
    let after = played(&state, "pass");
    assert_eq!(after.to_move(), Player::Black);
    assert_eq!(
        game().position_text(&after),
        "-5-/-2k1-1/-3-2/-2-3/-1-4/--5/K------ b"
    );
    let counts: Vec<u64> = (1..=3).map(|d| perft(&game(), &state, d)).collect();
    assert_eq!(counts, [1, 8, 8]);
    // Passing is not allowed while a move exists.
    assert!(matches!(
        game().parse_move(&game().start(), "pass"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn neither_player_can_move_is_a_draw() {
    let state = pos("--k----/----1-1/-1-1-2/-1--1-1/-1-3-/---4/K------ w");
    assert!(moves_of(&state).is_empty());
    assert_eq!(
        game().status(&state),
        Status::Over(Outcome::draw(Reason::NoMoves))
    );
    assert!(matches!(
        game().parse_move(&state, "pass"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn checkmate_wins() {
    // The king on a1 is in check from c3 across b2's gap and has no tile next to it.
    let state = pos("-3k1-/7/7/7/2w4/--5/K-4- w");
    assert!(state.is_in_check(Player::White));
    assert!(moves_of(&state).is_empty());
    assert_eq!(
        game().status(&state),
        Status::Over(Outcome::win(Player::Black, Reason::Checkmate))
    );
}

#[test]
fn status_agrees_with_the_legal_moves() {
    let g = game();
    let mut finished = 0;
    for state in random_states(14, 60, 400) {
        let moves = moves_of(&state);
        let status = g.status(&state);
        assert_eq!(status.is_over(), moves.is_empty());
        if let Status::Over(outcome) = status {
            finished += 1;
            let side = state.to_move();
            if state.is_in_check(side) {
                assert_eq!(outcome, Outcome::win(!side, Reason::Checkmate));
            } else {
                assert_eq!(outcome, Outcome::draw(Reason::NoMoves));
            }
        }
        if moves == [Move::PASS] {
            assert!(!state.is_in_check(state.to_move()));
        }
    }
    assert!(finished > 0);
}

// ---------------------------------------------------------------- notation

#[test]
fn notation_round_trips_in_random_games() {
    let g = game();
    for state in random_states(21, 30, 400) {
        for mv in moves_of(&state) {
            let text = g.move_text(&state, mv);
            assert_eq!(g.parse_move(&state, &text), Ok(mv), "{text}");
            if let Some(removed) = mv.removed() {
                let long = format!("{text}({})", g.board().name(removed));
                assert_eq!(g.parse_move(&state, &long), Ok(mv), "{long}");
            }
        }
    }
}

#[test]
fn notation_accepts_piece_letters_brackets_and_case() {
    let g = game();
    let start = g.start();
    let b4 = g.parse_move(&start, "b2-b4").unwrap();
    assert_eq!(b4.removed(), Some(sq("b3")));
    for text in [
        "b2-b4(b3)",
        "Wb2-b4",
        "wb2-b4(b3)",
        "B2-B4",
        " b2-b4 ",
        "b2-b4+",
    ] {
        assert_eq!(g.parse_move(&start, text), Ok(b4), "{text}");
    }
    let d3 = g.parse_move(&start, "d2-d3").unwrap();
    assert_eq!(g.parse_move(&start, "Kd2-d3"), Ok(d3));
    let state = pos("-k4-/7/4w2/3K3/7/7/-5- w");
    let capture = g.parse_move(&state, "d4xe5").unwrap();
    assert_eq!(g.move_text(&state, capture), "d4xe5");
    for text in ["Kd4xe5", "kd4xe5", "D4XE5", "d4-e5"] {
        assert_eq!(g.parse_move(&state, text), Ok(capture), "{text}");
    }
    let stalemate = pos("-5-/-2k1-1/-3-2/-2-3/-1-4/--5/K------ w");
    assert_eq!(g.parse_move(&stalemate, "PASS"), Ok(Move::PASS));
}

#[test]
fn notation_syntax_errors() {
    let g = game();
    let start = g.start();
    for text in [
        "",
        "   ",
        "b2",
        "b2b4",
        "b2-",
        "b2-b",
        "h2-h3",
        "b0-b1",
        "b2-b8",
        "b2-b44",
        "b2=b4",
        "b2-b4(b3",
        "b2-b4()",
        "b2-b4 x",
        "Qd2-d3",
        "passe",
        "2b-4b",
        "b2-b4\u{e9}",
        "\u{e9}2-b4",
        "K\u{e9}",
    ] {
        assert!(
            matches!(g.parse_move(&start, text), Err(MoveError::Syntax { .. })),
            "{text:?}: {:?}",
            g.parse_move(&start, text)
        );
    }
}

#[test]
fn notation_illegal_errors() {
    let g = game();
    let start = g.start();
    for text in [
        "b2-b5",     // not a warrior move
        "b6-b5",     // Black's warrior, White to move
        "c3-c4",     // no piece
        "Kb2-b3",    // b2 holds a warrior
        "Wd2-d3",    // d2 holds the king
        "b2xb3",     // nothing to capture
        "b2-b4(c3)", // the jumped tile is b3
        "b2-b3(b3)", // a one-step move removes nothing
        "pass",      // White can move
        "d2-d4",     // the king goes to the first tile only
    ] {
        assert!(
            matches!(g.parse_move(&start, text), Err(MoveError::Illegal { .. })),
            "{text:?}: {:?}",
            g.parse_move(&start, text)
        );
    }
    // A warrior move while in check names the reason.
    let state = pos(FACT_CHECK);
    let Err(MoveError::Illegal { reason, .. }) = g.parse_move(&state, "d3-a3") else {
        panic!("d3-a3 should be illegal");
    };
    assert!(!reason.is_empty());
}

#[test]
fn positions_round_trip_in_random_games() {
    let g = game();
    for state in random_states(22, 30, 400) {
        let text = g.position_text(&state);
        assert_eq!(pos(&text), state, "{text}");
    }
}

#[test]
fn fact_positions_round_trip() {
    // Corners may hold tiles in a position string.
    for text in [FACT_CHECK, FACT_NO_CHECK, START] {
        assert_eq!(game().position_text(&pos(text)), text);
    }
    assert!(pos(FACT_CHECK).has_tile(sq("a1")));
}

#[test]
fn bad_position_strings_are_errors() {
    let g = game();
    let invalid = |text: &str| matches!(g.parse_position(text), Err(PositionError::Invalid(_)));
    assert_eq!(g.parse_position(""), Err(PositionError::Empty));
    assert!(matches!(
        g.parse_position("-5-/1w1k1w1/7/7/7/1W1K1W1 w"),
        Err(PositionError::RowCount { .. })
    ));
    assert!(matches!(
        g.parse_position("-5-/1w1k1x1/7/7/7/1W1K1W1/-5- w"),
        Err(PositionError::BadCharacter { found: 'x', .. })
    ));
    assert!(matches!(
        g.parse_position("-5-/1w1k1w1/8/7/7/1W1K1W1/-5- w"),
        Err(PositionError::BadNumber { .. } | PositionError::RowLength { .. })
    ));
    assert!(matches!(
        g.parse_position("-5-/1w1k1w1/6/7/7/1W1K1W1/-5- w"),
        Err(PositionError::RowLength { .. })
    ));
    assert!(matches!(
        g.parse_position("-5-/1w1k1w1/7/7/7/1W1K1W1/-5-"),
        Err(PositionError::SideToMove(_))
    ));
    assert!(matches!(
        g.parse_position("-5-/1w1k1w1/7/7/7/1W1K1W1/-5- x"),
        Err(PositionError::SideToMove(_))
    ));
    // Two White kings, no White king, no Black king, three warriors.
    assert!(invalid("-5-/1w1k1w1/7/7/7/1WKK1W1/-5- w"));
    assert!(invalid("-5-/1w1k1w1/7/7/7/1W3W1/-5- w"));
    assert!(invalid("-5-/1w3w1/7/7/7/1W1K1W1/-5- w"));
    assert!(invalid("-5-/1w1k1w1/7/7/7/1WWK1W1/-5- w"));
    assert!(invalid("-5-/www1k2/7/7/7/1W1K1W1/-5- w"));
    // The kings see each other: adjacent, or across gaps.
    assert!(invalid("-5-/7/7/3k3/3K3/7/-5- w"));
    assert!(invalid("-5-/3k3/3-3/3-3/3-3/3K3/-5- b"));
    // The side not to move is in check.
    assert!(invalid("-3k1-/7/7/7/2w4/--5/K-4- b"));
    // Garbage never panics.
    for text in [
        "/",
        "///////",
        "7/7/7/7/7/7/7",
        "k w",
        "-5-/1w1k1w1/7/7/7/1W1K1W1/-5- w w",
        "\u{e9}",
    ] {
        assert!(g.parse_position(text).is_err(), "{text:?}");
    }
}

// ---------------------------------------------------------------- views and hashing

#[test]
fn move_and_position_views() {
    let g = game();
    let start = g.start();
    let mv = g.parse_move(&start, "b2-b4").unwrap();
    let view = g.move_view(&start, mv);
    assert_eq!(view.from, Some(sq("b2")));
    assert_eq!(view.to, Some(sq("b4")));
    assert_eq!(view.removed, [sq("b3")]);
    assert!(view.captured.is_empty());
    let state = pos("-k4-/7/4w2/3K3/7/7/-5- w");
    let view = g.move_view(&state, g.parse_move(&state, "d4xe5").unwrap());
    assert_eq!(view.captured, [sq("e5")]);
    assert!(view.removed.is_empty());
    let pass = g.move_view(&state, Move::PASS);
    assert_eq!((pass.from, pass.to), (None, None));

    let view = g.position_view(&start, Viewer::Everyone);
    assert_eq!(view.pieces.len(), 6);
    assert_eq!(view.to_move, Player::White);
    assert_eq!(view.absent, [sq("a1"), sq("g1"), sq("a7"), sq("g7")]);
    let king = view.pieces.iter().find(|p| p.letter == 'k').unwrap();
    assert_eq!(
        (king.cell, king.owner, king.kind),
        (sq("d6"), Player::Black, "king")
    );
    let warrior = view.pieces.iter().find(|p| p.letter == 'W').unwrap();
    assert_eq!((warrior.owner, warrior.kind), (Player::White, "warrior"));
}

#[test]
fn hash_matches_recomputation_in_random_games() {
    let g = game();
    let states = random_states(31, 40, 400);
    for state in &states {
        assert_eq!(g.hash(state), state.compute_hash());
    }
    let distinct: BTreeSet<u64> = states.iter().map(|s| g.hash(s)).collect();
    let texts: BTreeSet<String> = states.iter().map(|s| g.position_text(s)).collect();
    assert_eq!(distinct.len(), texts.len());
    // The side to move is part of the hash.
    let white = pos("-5-/-2k1-1/-3-2/-2-3/-1-4/--5/K------ w");
    let black = pos("-5-/-2k1-1/-3-2/-2-3/-1-4/--5/K------ b");
    assert_ne!(g.hash(&white), g.hash(&black));
}

#[test]
fn observation_is_the_state() {
    let g = game();
    let start = g.start();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    assert_eq!(g.observe(&start, Player::Black), start);
    assert_eq!(g.sample(&start, &mut rng), start);
}

// ---------------------------------------------------------------- a slow, obvious reference

/// The rules written the plain way over arrays and core's board rays, to check the bitboards.
#[derive(Clone)]
struct Slow {
    tiles: [bool; 49],
    pieces: [Option<(Player, Piece)>; 49],
}

impl Slow {
    fn of(state: &State) -> Slow {
        let mut slow = Slow {
            tiles: [false; 49],
            pieces: [None; 49],
        };
        for c in 0..49 {
            slow.tiles[c] = state.has_tile(Cell(c as u16));
            slow.pieces[c] = state.piece_at(Cell(c as u16));
        }
        slow
    }

    fn first_tile(&self, board: &Board, from: Cell, dir: usize) -> Option<Cell> {
        board.ray(from, dir).find(|c| self.tiles[c.index()])
    }

    fn king(&self, side: Player) -> Cell {
        Cell(
            (0..49)
                .find(|&c| self.pieces[c] == Some((side, Piece::King)))
                .unwrap() as u16,
        )
    }

    fn in_check(&self, board: &Board, side: Player) -> bool {
        let king = self.king(side);
        (0..8).any(|d| {
            self.first_tile(board, king, d)
                .is_some_and(|c| self.pieces[c.index()] == Some((!side, Piece::Warrior)))
        })
    }

    fn stare(&self, board: &Board) -> bool {
        let king = self.king(Player::White);
        (0..8).any(|d| {
            self.first_tile(board, king, d)
                .is_some_and(|c| self.pieces[c.index()] == Some((Player::Black, Piece::King)))
        })
    }

    /// (from, to, removed) of every legal move of `side`, passes excluded.
    fn moves(&self, board: &Board, side: Player) -> BTreeSet<(u16, u16, Option<u16>)> {
        let mut found = BTreeSet::new();
        let in_check = self.in_check(board, side);
        let mut try_move = |from: Cell, to: Cell, removed: Option<Cell>| {
            let mut next = self.clone();
            next.pieces[to.index()] = next.pieces[from.index()].take();
            if let Some(r) = removed {
                next.tiles[r.index()] = false;
            }
            if !next.in_check(board, side) && !next.stare(board) {
                found.insert((from.0, to.0, removed.map(|r| r.0)));
            }
        };
        for from in board.cell_ids() {
            match self.pieces[from.index()] {
                Some((owner, Piece::King)) if owner == side => {
                    for d in 0..8 {
                        if in_check {
                            let Some(to) = board.neighbour(from, d) else {
                                continue;
                            };
                            let target = self.pieces[to.index()];
                            if self.tiles[to.index()]
                                && (target.is_none() || target == Some((!side, Piece::Warrior)))
                            {
                                try_move(from, to, None);
                            }
                        } else if let Some(to) = self.first_tile(board, from, d) {
                            if self.pieces[to.index()].is_none() {
                                try_move(from, to, None);
                            }
                        }
                    }
                }
                Some((owner, Piece::Warrior)) if owner == side => {
                    for d in 0..8 {
                        let Some(first) = self.first_tile(board, from, d) else {
                            continue;
                        };
                        if self.pieces[first.index()].is_some() {
                            continue;
                        }
                        try_move(from, first, None);
                        let Some(second) = self.first_tile(board, first, d) else {
                            continue;
                        };
                        if self.pieces[second.index()].is_none() {
                            try_move(from, second, Some(first));
                        }
                    }
                }
                _ => {}
            }
        }
        found
    }
}

#[test]
fn fast_generator_matches_the_slow_reference() {
    let g = game();
    let board = g.board();
    let mut passes = 0;
    for state in random_states(41, 60, 400) {
        let side = state.to_move();
        let slow = Slow::of(&state);
        assert_eq!(slow.in_check(board, side), state.is_in_check(side));
        let mut expected = slow.moves(board, side);
        if expected.is_empty()
            && !slow.in_check(board, side)
            && !slow.moves(board, !side).is_empty()
        {
            expected.insert((u16::MAX, u16::MAX, None));
            passes += 1;
        }
        let fast: BTreeSet<(u16, u16, Option<u16>)> = moves_of(&state)
            .into_iter()
            .map(|m| {
                let pass = (u16::MAX, u16::MAX, None);
                m.from().map_or(pass, |from| {
                    (from.0, m.to().unwrap().0, m.removed().map(|r| r.0))
                })
            })
            .collect();
        assert_eq!(fast, expected, "{}", g.position_text(&state));
        assert_eq!(fast.len(), moves_of(&state).len(), "duplicate moves");
    }
    assert!(passes > 0, "random games should reach a pass");
}

/// Random play from a fixed seed, for sanity: games end, and rather often by checkmate.
#[test]
fn random_games_reach_every_ending() {
    let g = game();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(51);
    let mut moves = Vec::new();
    let (mut mates, mut draws) = (0, 0);
    for _ in 0..200 {
        let mut state = g.start();
        for _ in 0..g.playout_limit() {
            g.legal_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            g.play(&mut state, moves[rng.gen_range(0..moves.len())]);
        }
        match g.status(&state) {
            Status::Over(o) if o.reason == Reason::Checkmate => mates += 1,
            Status::Over(_) => draws += 1,
            Status::Ongoing => {}
        }
    }
    assert!(mates > 0);
    let _ = draws;
}
