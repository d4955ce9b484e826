//! One test per rule of `docs/rules/chad.md` and per fact it lists, plus cross-checks: a slow
//! obvious move generator, hash recomputation, notation round trips and perft vectors.

use std::collections::HashSet;

use denkmeter_core::{Game, MoveError, Player, PositionError, Reason, Status};
use denkmeter_engine::perft::perft;
use denkmeter_engine::solver::winning_moves;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;

const EXAMPLE_WHITE: &str = "12/12/12/3R3rk3/12/7R4/12/12/2RKR7/12/4q7/12 w";
const EXAMPLE_BLACK: &str = "12/12/12/3R3rk3/12/7R4/12/12/2RKR7/12/4q7/12 b";

fn chad() -> Chad {
    Chad::new()
}

fn square(name: &str) -> usize {
    let b = name.as_bytes();
    let file = usize::from(b[0].to_ascii_uppercase() - b'A');
    let rank: usize = name[1..].parse().unwrap();
    file + (rank - 1) * 12
}

/// A position string from `"K:D4 r:H9 ..."` and the side to move.
fn setup(pieces: &str, side: char) -> String {
    let mut cells = [None; 144];
    for token in pieces.split_whitespace() {
        let (letter, name) = token.split_once(':').unwrap();
        cells[square(name)] = Some(letter.chars().next().unwrap());
    }
    let rows: Vec<String> = (0..12)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut run = 0;
            for file in 0..12 {
                match cells[file + rank * 12] {
                    None => run += 1,
                    Some(c) => {
                        if run > 0 {
                            row.push_str(&run.to_string());
                            run = 0;
                        }
                        row.push(c);
                    }
                }
            }
            if run > 0 {
                row.push_str(&run.to_string());
            }
            row
        })
        .collect();
    format!("{} {side}", rows.join("/"))
}

fn position(text: &str) -> State {
    chad()
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn state(pieces: &str, side: char) -> State {
    position(&setup(pieces, side))
}

fn legal(state: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    chad().legal_moves(state, &mut moves);
    moves
}

fn texts(state: &State) -> HashSet<String> {
    legal(state).iter().map(|m| m.to_string()).collect()
}

fn has(state: &State, text: &str) -> bool {
    texts(state).contains(text)
}

/// The legal moves starting on `from`, as texts, sorted.
fn moves_from(state: &State, from: &str) -> Vec<String> {
    let mut v: Vec<String> = legal(state)
        .iter()
        .filter(|m| m.start_index() == square(from))
        .map(|m| m.to_string())
        .collect();
    v.sort();
    v
}

fn play(state: &State, text: &str) -> State {
    let mv = chad()
        .parse_move(state, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut next = state.clone();
    chad().play(&mut next, mv);
    next
}

fn illegal_reason(state: &State, text: &str) -> String {
    match chad().parse_move(state, text) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: expected an illegal-move error, got {other:?}"),
    }
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Plays `games` random games of at most `plies` plies and calls `check` before every move.
fn random_games(seed: u64, games: usize, plies: usize, mut check: impl FnMut(&State, &[Move])) {
    let game = chad();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..games {
        let mut s = game.start();
        for _ in 0..plies {
            let moves = legal(&s);
            check(&s, &moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play(&mut s, mv);
        }
    }
}

// ---------------------------------------------------------------- board, setup, position strings

#[test]
fn castles_and_walls_are_the_listed_squares() {
    let listed = |names: &str| -> HashSet<usize> { names.split(' ').map(square).collect() };
    let zone = |f: fn(Player, usize) -> bool, p| -> HashSet<usize> {
        (0..144).filter(|&sq| f(p, sq)).collect()
    };
    assert_eq!(
        zone(tables::in_castle, Player::White),
        listed("C3 D3 E3 C4 D4 E4 C5 D5 E5")
    );
    assert_eq!(
        zone(tables::in_castle, Player::Black),
        listed("H8 I8 J8 H9 I9 J9 H10 I10 J10")
    );
    assert_eq!(
        zone(tables::on_wall, Player::White),
        listed("C2 D2 E2 B3 B4 B5 F3 F4 F5 C6 D6 E6")
    );
    assert_eq!(
        zone(tables::on_wall, Player::Black),
        listed("H7 I7 J7 G8 G9 G10 K8 K9 K10 H11 I11 J11")
    );
}

#[test]
fn board_marks_castles_and_walls_for_drawing() {
    let game = chad();
    let board = game.board();
    assert_eq!(board.len(), 144);
    let d4 = board.cell_by_name("D4").unwrap();
    assert!(board.info(d4).classes.contains(&"castle-white"));
    let k9 = board.cell_by_name("K9").unwrap();
    assert!(board.info(k9).classes.contains(&"wall-black"));
    let b2 = board.cell_by_name("B2").unwrap();
    assert!(!board.info(b2).classes.iter().any(|c| c.starts_with("wall")));
}

#[test]
fn names_and_description() {
    let game = Chad::default();
    assert_eq!(game.name(), "chad");
    assert_eq!(game.family(), "chad");
    assert!(!game.description().is_empty());
    assert!(!game.has_hidden_information());
    assert_eq!(game.playout_limit(), 200);
}

#[test]
fn start_position_round_trips() {
    let game = chad();
    let s = game.start();
    assert_eq!(game.position_text(&s), START);
    assert_eq!(game.parse_position(START).unwrap(), s);
    assert_eq!(s.to_move(), Player::White);
    assert_eq!(game.to_move(&s), Player::White);
    assert_eq!(s.king(Player::White), Cell(square("D4") as u16));
    assert_eq!(s.king(Player::Black), Cell(square("I9") as u16));
    assert_eq!(
        s.piece_at(Cell(square("C3") as u16)),
        Some(Piece::WhiteRook)
    );
    assert_eq!(
        s.piece_at(Cell(square("J10") as u16)),
        Some(Piece::BlackRook)
    );
    assert_eq!(s.piece_at(Cell(500)), None);
    assert_eq!(format!("{s:?}"), format!("State({START})"));
}

#[test]
fn example_position_strings_round_trip() {
    for text in [EXAMPLE_WHITE, EXAMPLE_BLACK] {
        assert_eq!(chad().position_text(&position(text)), text);
    }
}

#[test]
fn legal_moves_from_the_start() {
    let s = chad().start();
    let moves = texts(&s);
    assert_eq!(moves.len(), 54);
    let expected: HashSet<String> = [
        // C3: south and west
        "C3-C2", "C3-C1", "C3-B3", "C3-A3", //
        "C4-B4", "C4-A4", //
        "C5-B5", "C5-A5", "C5-C6", "C5-C7", "C5-C8", "C5-C9", "C5-C10", "C5-C11", "C5-C12",
        "D3-D2", "D3-D1", //
        "D5-D6", "D5-D7", "D5-D8", "D5-D9", "D5-D10", "D5-D11", "D5-D12", //
        "E3-E2", "E3-E1", "E3-F3", "E3-G3", "E3-H3", "E3-I3", "E3-J3", "E3-K3", "E3-L3", "E4-F4",
        "E4-G4", "E4-H4", "E4-I4", "E4-J4", "E4-K4", "E4-L4", //
        "E5-E6", "E5-E7", "E5-E8", "E5-E9", "E5-E10", "E5-E11", "E5-E12", //
        "E5-F5", "E5-G5", "E5-H5", "E5-I5", "E5-J5", "E5-K5", "E5-L5",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(moves, expected);
    assert_eq!(chad().status(&s), Status::Ongoing);
}

#[test]
fn black_answers_from_the_start_symmetrically() {
    let s = play(&chad().start(), "D5-D6");
    assert_eq!(s.to_move(), Player::Black);
    assert_eq!(legal(&s).len(), 54);
    assert!(has(&s, "I8-I1"));
    assert!(has(&s, "H10-A10"));
}

// ---------------------------------------------------------------- perft

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
    let file = include_str!("../../tests/perft/chad.txt");
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

// ---------------------------------------------------------------- facts from the source

#[test]
fn example_white_mates_in_two_only_by_h7xh9() {
    let game = chad();
    let s = position(EXAMPLE_WHITE);
    let wins = winning_moves(&game, &s, 2);
    let wins: Vec<String> = wins.iter().map(|&m| game.move_text(&s, m)).collect();
    assert_eq!(wins, ["H7xH9"]);
    let mv = game.parse_move(&s, "H7xH9").unwrap();
    assert!(mv.is_capture());
    assert!(mv.is_promotion());
    assert!(winning_moves(&game, &s, 1).is_empty());
}

#[test]
fn example_white_h7xh9_promotes_and_checks() {
    let s = play(&position(EXAMPLE_WHITE), "H7xH9");
    assert_eq!(
        s.piece_at(Cell(square("H9") as u16)),
        Some(Piece::WhiteQueen)
    );
    assert!(movegen::in_check(&s));
    // The king cannot take the queen: the rook on D9 would then check along rank 9.
    assert!(!has(&s, "I9xH9"));
}

#[test]
fn example_black_mates_in_two() {
    let game = chad();
    let s = position(EXAMPLE_BLACK);
    let wins: HashSet<String> = winning_moves(&game, &s, 2)
        .iter()
        .map(|&m| game.move_text(&s, m))
        .collect();
    assert!(wins.contains("E2-D2"), "{wins:?}");
    assert!(wins.contains("E2-D1"), "{wins:?}");
    assert!(winning_moves(&game, &s, 1).is_empty());
}

#[test]
fn example_black_line_e2_d2_ends_in_mate() {
    let game = chad();
    let s = play(&position(EXAMPLE_BLACK), "E2-D2");
    assert!(movegen::in_check(&s));
    assert_eq!(
        moves_from(&s, "D4"),
        sorted(&["D4-C5", "D4-E5"]),
        "only C5 and E5 escape the check"
    );
    assert_eq!(legal(&s).len(), 2, "nothing can interpose on D3");
    for escape in ["D4-C5", "D4-E5"] {
        let after = play(&play(&s, escape), "D2-D6");
        assert_eq!(
            game.status(&after),
            Status::Over(Outcome::win(Player::Black, Reason::Checkmate)),
            "{escape} D2-D6"
        );
    }
}

// ---------------------------------------------------------------- the king

#[test]
fn king_is_confined_to_its_castle() {
    let s = state("K:C3 k:I9", 'w');
    assert_eq!(
        moves_from(&s, "C3"),
        sorted(&["C3-D3", "C3-C4", "C3-D4", "C3-D5", "C3-E4"])
    );
    let s = state("K:D4 k:J10", 'b');
    assert_eq!(
        moves_from(&s, "J10"),
        sorted(&["J10-I10", "J10-J9", "J10-I9", "J10-H9", "J10-I8"])
    );
    assert_eq!(
        illegal_reason(&state("K:C3 k:I9", 'w'), "C3-B3"),
        "the king may not leave its castle"
    );
}

#[test]
fn king_moves_as_king_and_knight() {
    let s = state("K:D4 k:I9", 'w');
    assert_eq!(
        moves_from(&s, "D4").len(),
        8,
        "the centre covers the whole castle"
    );
    let s = state("K:D5 k:I9", 'w');
    assert_eq!(
        moves_from(&s, "D5"),
        sorted(&["D5-C5", "D5-E5", "D5-C4", "D5-D4", "D5-E4", "D5-C3", "D5-E3"]),
        "a side square misses only the opposite side square"
    );
    // The knight's move jumps over pieces.
    let s = state("K:C3 R:D3 R:C4 R:D4 k:I9", 'w');
    assert_eq!(moves_from(&s, "C3"), sorted(&["C3-D5", "C3-E4"]));
    assert_eq!(
        illegal_reason(&state("K:C3 k:I9", 'w'), "C3-E5"),
        "the king moves one step or a knight's jump"
    );
}

#[test]
fn king_captures_only_inside_its_castle() {
    // The queen on D5 (inside White's castle, a knight's jump away) is taken by the king; the
    // rook on B4 (White's wall) is not, although it is next to the king.
    let s = state("K:C3 q:D5 r:B4 k:I9", 'w');
    assert!(has(&s, "C3xD5"));
    assert!(!has(&s, "C3xB4"));
    assert!(moves_from(&s, "C3").iter().all(|m| !m.ends_with("B4")));
    assert_eq!(
        illegal_reason(&s, "C3xB4"),
        "the king may not leave its castle"
    );
    let after = play(&s, "C3xD5");
    assert_eq!(
        after.piece_at(Cell(square("D5") as u16)),
        Some(Piece::WhiteKing)
    );
    assert_eq!(after.king(Player::White), Cell(square("D5") as u16));
}

#[test]
fn king_may_not_capture_into_check() {
    // Taking the queen on D5 would put the king on the D file of the rook on D12.
    let s = state("K:C3 R:A1 q:D5 r:D12 k:I9", 'w');
    assert!(!has(&s, "C3xD5"));
    assert_eq!(
        illegal_reason(&s, "C3xD5"),
        "it would leave the king in check"
    );
}

#[test]
fn kings_are_never_captured() {
    // A king in line with an enemy rook on its wall is in check: that side must move, so the
    // capture never comes. A position where it could is rejected.
    let text = setup("K:D4 R:H7 k:H8", 'w');
    assert!(matches!(
        chad().parse_position(&text),
        Err(PositionError::Invalid(_))
    ));
    // No king is ever taken in random games.
    random_games(7, 20, 300, |s, moves| {
        for m in moves {
            if m.is_capture() {
                let target = s.piece_at(m.to()).unwrap();
                assert_ne!(target.kind(), Kind::King, "{s:?} {m}");
            }
        }
    });
}

#[test]
fn kings_block_lines() {
    // The rook on A4 stops before the White king on D4.
    let s = state("K:D4 R:A4 k:I9", 'w');
    let along_rank: Vec<String> = moves_from(&s, "A4")
        .into_iter()
        .filter(|m| !m.starts_with("A4-A"))
        .collect();
    assert_eq!(along_rank, sorted(&["A4-B4", "A4-C4"]));
    // Black's own king stops the rook on I12 at I10.
    let s = state("K:D4 k:I9 r:I12", 'b');
    let down_the_file: Vec<String> = moves_from(&s, "I12")
        .into_iter()
        .filter(|m| m.starts_with("I12-I"))
        .collect();
    assert_eq!(down_the_file, sorted(&["I12-I10", "I12-I11"]));
}

// ---------------------------------------------------------------- captures

#[test]
fn wall_piece_captures_into_the_castle() {
    let s = state("K:D4 R:H7 r:H9 k:J10", 'w');
    assert!(has(&s, "H7xH9"));
    // Through an empty castle square, still the first piece on the line.
    let s = state("K:D4 R:H7 r:H10 k:J8", 'w');
    assert!(has(&s, "H7xH10"));
    // A queen on the wall captures along a diagonal.
    let s = state("K:D4 Q:G8 r:I10 k:J9", 'w');
    assert!(has(&s, "G8xI10"));
    // Black does the same against White's castle.
    let s = state("K:C3 R:E4 q:F4 k:I9", 'b');
    assert!(has(&s, "F4xE4"));
}

#[test]
fn wall_piece_cannot_capture_past_the_castle() {
    // The first piece on the line is beyond the castle (on the far wall).
    let s = state("K:D4 R:H7 r:H11 k:J8", 'w');
    assert!(!has(&s, "H7xH11"));
    assert!(has(&s, "H7-H10"));
    // A piece next to the wall, but not on it, has no right.
    let s = state("K:D4 R:H6 r:H8 k:J10", 'w');
    assert!(!has(&s, "H6xH8"));
}

#[test]
fn castle_defender_captures_onto_its_own_wall() {
    let s = state("K:D4 R:I7 k:J10 r:I8", 'b');
    assert!(has(&s, "I8xI7"));
    let s = state("K:D4 R:E3 r:F3 k:I9", 'w');
    assert!(has(&s, "E3xF3"));
    // Across the castle: C3 sees the rook on F3 when D3 and E3 are empty.
    let s = state("K:D4 R:C3 r:F3 k:I9", 'w');
    assert!(has(&s, "C3xF3"));
    // A piece beyond the wall is out of reach.
    let s = state("K:D4 R:E3 r:G3 k:I9", 'w');
    assert!(!has(&s, "E3xG3"));
    assert!(has(&s, "E3-F3"));
}

#[test]
fn no_other_captures() {
    // Facing each other in the open board, rooks only block.
    let s = state("K:D4 R:A1 r:A12 k:I9", 'w');
    assert!(!has(&s, "A1xA12"));
    assert_eq!(moves_from(&s, "A1").len(), 10 + 11);
    assert_eq!(
        illegal_reason(&s, "A1xA12"),
        "rooks cannot capture outside the wall/castle right (only from the enemy wall into the \
         enemy castle, or from inside their own castle onto their own wall)"
    );
    // An enemy on one's own wall, but the capturer is outside its castle.
    let s = state("K:D4 R:F2 r:F3 k:I9", 'w');
    assert!(!has(&s, "F2xF3"));
    // Both on the enemy wall.
    let s = state("K:D4 R:G8 r:G10 k:I9", 'w');
    assert!(!has(&s, "G8xG10"));
    // An attacker inside the enemy castle cannot capture the defenders.
    let s = state("K:D4 Q:H8 r:H10 k:I10", 'w');
    assert!(!has(&s, "H8xH10"));
    // A piece on its own wall can never be captured.
    let s = state("K:D4 R:E6 r:E12 k:I9", 'b');
    assert!(!has(&s, "E12xE6"));
}

#[test]
fn a_captured_piece_leaves_the_board() {
    let s = play(&state("K:D4 R:H7 r:H9 k:J10", 'w'), "H7xH9");
    let black: Vec<Piece> = s
        .board
        .iter()
        .flatten()
        .filter(|p| p.owner() == Player::Black)
        .copied()
        .collect();
    assert_eq!(black, [Piece::BlackKing]);
}

// ---------------------------------------------------------------- promotion

#[test]
fn rook_ending_in_the_enemy_castle_becomes_a_queen() {
    let s = state("K:D4 R:H1 k:J10", 'w');
    let mv = chad().parse_move(&s, "H1-H8").unwrap();
    assert!(mv.is_promotion());
    assert!(!chad().parse_move(&s, "H1-H7").unwrap().is_promotion());
    let after = play(&s, "H1-H8");
    assert_eq!(
        after.piece_at(Cell(square("H8") as u16)),
        Some(Piece::WhiteQueen)
    );
    // Once a queen, always a queen, even outside the castle.
    let after = play(&play(&after, "J10-J9"), "H8-A8");
    assert_eq!(
        after.piece_at(Cell(square("A8") as u16)),
        Some(Piece::WhiteQueen)
    );
}

#[test]
fn promotion_by_capture() {
    let s = state("K:D4 R:G9 r:H9 k:J10", 'w');
    let mv = chad().parse_move(&s, "G9xH9").unwrap();
    assert!(mv.is_capture() && mv.is_promotion());
    let after = play(&s, "G9xH9");
    assert_eq!(
        after.piece_at(Cell(square("H9") as u16)),
        Some(Piece::WhiteQueen)
    );
    // Black promotes in White's castle.
    let s = state("K:C3 R:E4 r:F4 k:I9", 'b');
    let after = play(&s, "F4xE4");
    assert_eq!(
        after.piece_at(Cell(square("E4") as u16)),
        Some(Piece::BlackQueen)
    );
}

#[test]
fn passing_through_a_castle_does_not_promote() {
    let s = state("K:D4 R:H1 k:J10", 'w');
    for target in ["H11", "H12"] {
        let mv = chad().parse_move(&s, &format!("H1-{target}")).unwrap();
        assert!(!mv.is_promotion());
        let after = play(&s, &format!("H1-{target}"));
        assert_eq!(after.piece_at(mv.to()), Some(Piece::WhiteRook));
    }
}

#[test]
fn a_rook_at_home_does_not_promote() {
    let s = chad().start();
    assert!(legal(&s).iter().all(|m| !m.is_promotion()));
}

#[test]
fn a_queen_entering_a_castle_is_not_a_promotion() {
    let s = state("K:D4 Q:A8 k:J10", 'w');
    let mv = chad().parse_move(&s, "A8-H8").unwrap();
    assert!(!mv.is_promotion());
    assert_eq!(illegal_reason(&s, "A8-H8=Q"), "A8-H8 does not promote");
}

#[test]
fn a_queen_returned_home_is_an_ordinary_defender() {
    // Back in her own castle, the queen captures onto her wall, along files and diagonals.
    let s = state("K:E5 Q:D3 r:D2 k:I9", 'w');
    assert!(has(&s, "D3xD2"));
    let s = state("K:E3 Q:C4 r:B5 k:I9", 'w');
    assert!(has(&s, "C4xB5"));
    assert!(!chad().parse_move(&s, "C4xB5").unwrap().is_promotion());
    // And she can be captured there from the enemy side's wall.
    let s = state("K:E5 Q:C4 r:B4 k:I9", 'b');
    assert!(has(&s, "B4xC4"));
}

// ---------------------------------------------------------------- check and mate

#[test]
fn check_passes_through_walls() {
    // The rook on D12 checks across the wall square D6 and the empty D5.
    let s = state("K:D4 k:I9 r:D12", 'w');
    assert!(movegen::in_check(&s));
    // A queen checks along a diagonal.
    let s = state("K:D4 k:I9 q:A7", 'w');
    assert!(movegen::in_check(&s));
    // A rook does not check along a diagonal.
    let s = state("K:D4 k:I9 r:A7", 'w');
    assert!(!movegen::in_check(&s));
    // Capture rights play no part: the rook on L4 cannot capture, but checks.
    let s = state("K:D4 k:I9 r:L4", 'w');
    assert!(movegen::in_check(&s));
    // Any piece between blocks.
    let s = state("K:D4 k:I9 r:L4 R:H4", 'w');
    assert!(!movegen::in_check(&s));
}

#[test]
fn check_must_be_answered() {
    let s = state("K:D4 R:A6 k:I9 r:D12", 'w');
    let mut moves: Vec<String> = texts(&s).into_iter().collect();
    moves.sort();
    // The king steps off the D file, or the rook on A6 interposes on D6.
    assert_eq!(
        moves,
        sorted(&["A6-D6", "D4-C3", "D4-C4", "D4-C5", "D4-E3", "D4-E4", "D4-E5"])
    );
}

#[test]
fn a_pinned_piece_cannot_leave_the_line() {
    let s = state("K:D4 R:D5 k:I9 r:D12", 'w');
    let from_d5 = moves_from(&s, "D5");
    assert_eq!(
        from_d5,
        sorted(&["D5-D6", "D5-D7", "D5-D8", "D5-D9", "D5-D10", "D5-D11"])
    );
    assert_eq!(
        illegal_reason(&s, "D5-E5"),
        "it would leave the king in check"
    );
    // Diagonal pins by a queen too.
    let s = state("K:D4 R:E5 k:I9 q:H8", 'w');
    assert!(moves_from(&s, "E5").is_empty());
}

#[test]
fn the_king_may_not_step_along_the_checking_line() {
    let s = state("K:D4 k:I9 r:D12", 'w');
    assert!(!has(&s, "D4-D3"));
    assert!(!has(&s, "D4-D5"));
}

#[test]
fn stalemate_is_a_draw() {
    let s = state("K:D4 r:C12 r:E12 r:A3 r:L5 k:I9", 'w');
    assert!(!movegen::in_check(&s));
    assert!(legal(&s).is_empty());
    assert_eq!(
        chad().status(&s),
        Status::Over(Outcome::draw(Reason::Stalemate))
    );
}

#[test]
fn checkmate_wins() {
    let s = state("K:D4 r:C12 r:D12 r:E12 r:A3 r:L5 k:I9", 'w');
    assert!(movegen::in_check(&s));
    assert!(legal(&s).is_empty());
    assert_eq!(
        chad().status(&s),
        Status::Over(Outcome::win(Player::Black, Reason::Checkmate))
    );
    assert_eq!(
        illegal_reason(&s, "D4-C4"),
        "the game is over: the side to move has no legal move"
    );
}

#[test]
fn there_is_no_pass() {
    let s = chad().start();
    assert!(matches!(
        chad().parse_move(&s, "pass"),
        Err(MoveError::Syntax { .. })
    ));
}

#[test]
fn threefold_repetition_draws_through_the_playthrough() {
    let mut game = denkmeter_core::Playthrough::new(chad());
    for _ in 0..2 {
        for text in ["D5-D6", "I8-I7", "D6-D5", "I7-I8"] {
            assert_eq!(game.status(), Status::Ongoing);
            game.play_text(text).unwrap();
        }
    }
    assert_eq!(
        game.status(),
        Status::Over(Outcome::draw(Reason::Repetition))
    );
}

// ---------------------------------------------------------------- notation

#[test]
fn move_text_format() {
    let s = position(EXAMPLE_WHITE);
    let game = chad();
    let mv = game.parse_move(&s, "H7xH9").unwrap();
    assert_eq!(game.move_text(&s, mv), "H7xH9");
    let mv = game.parse_move(&s, "D9-D12").unwrap();
    assert_eq!(game.move_text(&s, mv), "D9-D12");
}

#[test]
fn parse_accepts_case_suffixes_and_missing_separator() {
    let game = chad();
    let s = position(EXAMPLE_WHITE);
    let h7xh9 = game.parse_move(&s, "H7xH9").unwrap();
    for text in [
        "h7xh9", "H7XH9", "h7xh9=Q", "H7xH9=q", "H7xH9+", "H7xH9=Q+", "H7xH9#", " H7xH9 ", "H7-H9",
        "h7h9",
    ] {
        assert_eq!(game.parse_move(&s, text), Ok(h7xh9), "{text}");
    }
}

#[test]
fn syntax_errors_are_not_illegal_moves() {
    let s = chad().start();
    for text in [
        "", "   ", "D3", "D3-", "-D7", "M3-M4", "D0-D1", "D13-D1", "D3-D7x", "D3--D7", "D3-D7=R",
        "D3-D7=", "D3-D7++", "e5-e6!", "Z9", "é5-e6", "D03-D7", "pass", "D3 D7",
    ] {
        assert!(
            matches!(chad().parse_move(&s, text), Err(MoveError::Syntax { .. })),
            "{text:?}: {:?}",
            chad().parse_move(&s, text)
        );
    }
}

#[test]
fn illegal_moves_say_why() {
    let s = chad().start();
    assert_eq!(
        illegal_reason(&s, "D6-D7"),
        "no piece of the side to move on D6"
    );
    assert_eq!(
        illegal_reason(&s, "I8-I7"),
        "no piece of the side to move on I8"
    );
    assert_eq!(
        illegal_reason(&s, "D3-E2"),
        "a rook moves along a rank or file"
    );
    assert_eq!(
        illegal_reason(&s, "D3-D5"),
        "D5 is occupied by a piece of the side to move"
    );
    assert_eq!(illegal_reason(&s, "C4-F4"), "the way is blocked on D4");
    assert_eq!(
        illegal_reason(&s, "D4-D5"),
        "D5 is occupied by a piece of the side to move"
    );
    assert_eq!(
        illegal_reason(&s, "D5xD7"),
        "D7 captures nothing: write D5-D7"
    );
    assert_eq!(illegal_reason(&s, "D5-D7=Q"), "D5-D7 does not promote");
    let s = state("K:D4 Q:A1 k:I9", 'w');
    assert_eq!(
        illegal_reason(&s, "A1-B3"),
        "a queen moves along a rank, file or diagonal"
    );
    // A rejected move leaves the state unchanged (parse_move takes it by reference).
    assert_eq!(s, state("K:D4 Q:A1 k:I9", 'w'));
}

#[test]
fn every_legal_move_text_parses_back() {
    let game = chad();
    let mut promotions = 0;
    let mut captures = 0;
    random_games(1, 30, 250, |s, moves| {
        for &m in moves {
            let text = game.move_text(s, m);
            assert_eq!(game.parse_move(s, &text), Ok(m), "{s:?} {text}");
            assert_eq!(game.parse_move(s, &text.to_lowercase()), Ok(m));
            if m.is_promotion() {
                promotions += 1;
                assert_eq!(game.parse_move(s, &format!("{text}=Q")), Ok(m));
            }
            if m.is_capture() {
                captures += 1;
            }
        }
    });
    assert!(promotions > 0 && captures > 0, "{promotions} {captures}");
}

#[test]
fn move_is_small() {
    assert!(std::mem::size_of::<Move>() <= 4);
    assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
}

// ---------------------------------------------------------------- position strings

#[test]
fn malformed_positions_are_errors() {
    let game = chad();
    assert_eq!(game.parse_position(""), Err(PositionError::Empty));
    for text in [
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/12",
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/12 x",
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12 w",
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/11 w",
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/13 w",
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/11N w",
        "12/12/7rrr2/7rkr2/7rrr2/12/12/2RRR7/2RKR7/2RRR7/12/12 w w",
    ] {
        assert!(game.parse_position(text).is_err(), "{text}");
    }
}

fn invalid(text: &str) -> String {
    match chad().parse_position(text) {
        Err(PositionError::Invalid(reason)) => reason,
        other => panic!("{text}: expected an invalid position, got {other:?}"),
    }
}

#[test]
fn each_side_needs_exactly_one_king() {
    assert_eq!(
        invalid(&setup("k:I9", 'w')),
        "White has no king; each side has exactly one"
    );
    assert_eq!(
        invalid(&setup("K:D4 K:C3 k:I9", 'w')),
        "White has 2 kings; each side has exactly one"
    );
    assert_eq!(
        invalid(&setup("K:D4", 'w')),
        "Black has no king; each side has exactly one"
    );
}

#[test]
fn kings_must_stand_in_their_castles() {
    assert_eq!(
        invalid(&setup("K:F4 k:I9", 'w')),
        "the White king on F4 is outside its castle (C3-E5)"
    );
    assert_eq!(
        invalid(&setup("K:D4 k:D5", 'w')),
        "the Black king on D5 is outside its castle (H8-J10)"
    );
}

#[test]
fn rooks_cannot_stand_in_the_enemy_castle() {
    assert_eq!(
        invalid(&setup("K:D4 R:H8 k:J10", 'b')),
        "the White rook on H8 is inside the Black castle (it would have become a queen)"
    );
    assert_eq!(
        invalid(&setup("K:D4 r:E3 k:J10", 'w')),
        "the Black rook on E3 is inside the White castle (it would have become a queen)"
    );
    // Queens may stand anywhere.
    state("K:D4 Q:H8 k:J10", 'b');
    state("K:C3 q:E3 k:J10", 'w');
}

#[test]
fn the_side_not_to_move_may_not_be_in_check() {
    assert_eq!(
        invalid(&setup("K:D4 k:I9 r:D12", 'b')),
        "White is in check but it is Black's turn"
    );
    state("K:D4 k:I9 r:D12", 'w');
}

proptest! {
    #[test]
    fn arbitrary_position_strings_never_panic(text in "\\PC{0,80}") {
        let _ = chad().parse_position(&text);
    }

    #[test]
    fn position_like_strings_never_panic(text in "([0-9]{1,2}|[KRQkrqx]){0,14}(/([0-9]{1,2}|[KRQkrq]){0,14}){0,13} [wbx]?") {
        if let Ok(s) = chad().parse_position(&text) {
            let again = chad().position_text(&s);
            prop_assert_eq!(chad().parse_position(&again), Ok(s));
        }
    }

    #[test]
    fn arbitrary_move_texts_never_panic(text in "\\PC{0,12}") {
        let _ = chad().parse_move(&chad().start(), &text);
    }

    #[test]
    fn move_like_texts_never_panic(text in "[a-mA-M][0-9]{1,3}[-xX]?[a-mA-M][0-9]{1,3}(=[qQr])?[+#]?") {
        let _ = chad().parse_move(&chad().start(), &text);
        let _ = chad().parse_move(&position(EXAMPLE_BLACK), &text);
    }
}

#[test]
fn random_game_positions_round_trip() {
    let game = chad();
    random_games(3, 10, 200, |s, _| {
        let text = game.position_text(s);
        assert_eq!(game.parse_position(&text).as_ref(), Ok(s), "{text}");
    });
}

// ---------------------------------------------------------------- state bookkeeping

#[test]
fn hash_equals_a_fresh_recomputation() {
    let game = chad();
    let mut seen = HashSet::new();
    random_games(2, 30, 300, |s, _| {
        assert_eq!(game.hash(s), s.fresh_hash(), "{s:?}");
        seen.insert(game.hash(s));
        for p in Player::BOTH {
            let king = Piece::new(p, Kind::King);
            assert_eq!(s.piece_at(s.king(p)), Some(king), "{s:?}");
        }
    });
    assert!(seen.len() > 1000);
    let s = game.start();
    let mut black = s.clone();
    black.to_move = Player::Black;
    black.hash = black.fresh_hash();
    assert_ne!(
        game.hash(&s),
        game.hash(&black),
        "the side to move is hashed"
    );
}

#[test]
fn views_show_pieces_and_moves() {
    let game = chad();
    let s = position(EXAMPLE_WHITE);
    let view = game.position_view(&s, Viewer::Everyone);
    assert_eq!(view.pieces.len(), 8);
    assert_eq!(view.to_move, Player::White);
    let queen = view
        .pieces
        .iter()
        .find(|p| p.cell == Cell(square("E2") as u16))
        .unwrap();
    assert_eq!(
        (queen.kind, queen.letter, queen.owner),
        ("queen", 'q', Player::Black)
    );
    assert!(view
        .pieces
        .iter()
        .any(|p| p.kind == "king" && p.letter == 'K'));
    assert!(view
        .pieces
        .iter()
        .any(|p| p.kind == "rook" && p.letter == 'r'));
    let mv = game.parse_move(&s, "H7xH9").unwrap();
    let mv_view = game.move_view(&s, mv);
    assert_eq!(mv_view.from, Some(Cell(square("H7") as u16)));
    assert_eq!(mv_view.to, Some(Cell(square("H9") as u16)));
    assert_eq!(mv_view.captured, [Cell(square("H9") as u16)]);
    assert!(mv_view.promotes);
    let quiet = game.move_view(&s, game.parse_move(&s, "D9-D12").unwrap());
    assert!(quiet.captured.is_empty() && !quiet.promotes);
}

#[test]
fn observation_is_the_state() {
    let game = chad();
    let s = position(EXAMPLE_BLACK);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    assert_eq!(game.observe(&s, Player::White), s);
    assert_eq!(game.sample(&s, &mut rng), s);
}

#[test]
fn playout_value_follows_material() {
    let game = chad();
    assert!((game.playout_value(&game.start()) - 0.5).abs() < 1e-12);
    let white_queen = game.playout_value(&state("K:D4 Q:A1 r:A12 k:I9", 'w'));
    let white_rook = game.playout_value(&state("K:D4 R:A1 k:I9", 'w'));
    let black_queen = game.playout_value(&state("K:D4 q:A1 k:I9", 'w'));
    assert!(white_queen > white_rook && white_rook > 0.5 && black_queen < 0.5);
    assert!((0.0..=1.0).contains(&black_queen));
}

// ---------------------------------------------------------------- slow reference generator

/// The rules written the obvious way, on (file, rank) pairs and squares named in the rules
/// file: the reference the fast generator is checked against.
mod slow {
    use super::*;

    const WHITE_CASTLE: &str = "C3 D3 E3 C4 D4 E4 C5 D5 E5";
    const BLACK_CASTLE: &str = "H8 I8 J8 H9 I9 J9 H10 I10 J10";
    const WHITE_WALL: &str = "C2 D2 E2 B3 B4 B5 F3 F4 F5 C6 D6 E6";
    const BLACK_WALL: &str = "H7 I7 J7 G8 G9 G10 K8 K9 K10 H11 I11 J11";

    fn member(list: &str, f: i32, r: i32) -> bool {
        list.split(' ').any(|n| square(n) as i32 == f + 12 * r)
    }

    fn castle(p: Player, f: i32, r: i32) -> bool {
        member(
            if p == Player::White {
                WHITE_CASTLE
            } else {
                BLACK_CASTLE
            },
            f,
            r,
        )
    }

    fn wall(p: Player, f: i32, r: i32) -> bool {
        member(
            if p == Player::White {
                WHITE_WALL
            } else {
                BLACK_WALL
            },
            f,
            r,
        )
    }

    type Grid = [[Option<Piece>; 12]; 12];

    fn at(g: &Grid, f: i32, r: i32) -> Option<Option<Piece>> {
        ((0..12).contains(&f) && (0..12).contains(&r)).then(|| g[f as usize][r as usize])
    }

    fn checked(g: &Grid, p: Player) -> bool {
        let king = (0..144)
            .find(|&sq| g[sq % 12][sq / 12] == Some(Piece::new(p, Kind::King)))
            .unwrap();
        let (kf, kr) = ((king % 12) as i32, (king / 12) as i32);
        for df in -1..=1 {
            for dr in -1..=1 {
                if (df, dr) == (0, 0) {
                    continue;
                }
                let (mut f, mut r) = (kf + df, kr + dr);
                while let Some(c) = at(g, f, r) {
                    if let Some(piece) = c {
                        let line = piece.kind() == Kind::Queen
                            || (piece.kind() == Kind::Rook && (df == 0 || dr == 0));
                        if piece.owner() != p && line {
                            return true;
                        }
                        break;
                    }
                    f += df;
                    r += dr;
                }
            }
        }
        false
    }

    /// (from, to, capture, promotion) of every legal move.
    pub(super) fn moves(s: &State) -> HashSet<(usize, usize, bool, bool)> {
        let us = s.to_move();
        let mut g: Grid = [[None; 12]; 12];
        for sq in 0..144 {
            g[sq % 12][sq / 12] = s.piece_at(Cell(sq as u16));
        }
        let mut out = HashSet::new();
        for f in 0..12i32 {
            for r in 0..12i32 {
                let Some(piece) = g[f as usize][r as usize] else {
                    continue;
                };
                if piece.owner() != us {
                    continue;
                }
                let mut targets = Vec::new();
                if piece.kind() == Kind::King {
                    for df in -2..=2i32 {
                        for dr in -2..=2i32 {
                            let king_step = df.abs() <= 1 && dr.abs() <= 1 && (df, dr) != (0, 0);
                            let knight = df.abs() * dr.abs() == 2;
                            let (tf, tr) = (f + df, r + dr);
                            if !(king_step || knight) || !castle(us, tf, tr) {
                                continue;
                            }
                            match at(&g, tf, tr).unwrap() {
                                None => targets.push((tf, tr, false)),
                                Some(t) if t.owner() != us && t.kind() != Kind::King => {
                                    targets.push((tf, tr, true))
                                }
                                Some(_) => {}
                            }
                        }
                    }
                } else {
                    for df in -1..=1 {
                        for dr in -1..=1 {
                            if (df, dr) == (0, 0)
                                || (piece.kind() == Kind::Rook && df != 0 && dr != 0)
                            {
                                continue;
                            }
                            let (mut tf, mut tr) = (f + df, r + dr);
                            while let Some(c) = at(&g, tf, tr) {
                                match c {
                                    None => targets.push((tf, tr, false)),
                                    Some(t) => {
                                        let right = (wall(!us, f, r) && castle(!us, tf, tr))
                                            || (castle(us, f, r) && wall(us, tf, tr));
                                        if t.owner() != us && t.kind() != Kind::King && right {
                                            targets.push((tf, tr, true));
                                        }
                                        break;
                                    }
                                }
                                tf += df;
                                tr += dr;
                            }
                        }
                    }
                }
                for (tf, tr, capture) in targets {
                    let promotion = piece.kind() == Kind::Rook && castle(!us, tf, tr);
                    let mut after = g;
                    after[f as usize][r as usize] = None;
                    after[tf as usize][tr as usize] = Some(if promotion {
                        Piece::new(us, Kind::Queen)
                    } else {
                        piece
                    });
                    if !checked(&after, us) {
                        out.insert((
                            (f + 12 * r) as usize,
                            (tf + 12 * tr) as usize,
                            capture,
                            promotion,
                        ));
                    }
                }
            }
        }
        out
    }
}

#[test]
fn fast_generator_agrees_with_the_slow_one() {
    let check = |s: &State, moves: &[Move]| {
        let fast: HashSet<_> = moves
            .iter()
            .map(|m| {
                (
                    m.start_index(),
                    m.end_index(),
                    m.is_capture(),
                    m.is_promotion(),
                )
            })
            .collect();
        assert_eq!(fast.len(), moves.len(), "no duplicates: {s:?}");
        assert_eq!(fast, slow::moves(s), "{s:?}");
    };
    random_games(5, 12, 250, check);
    for text in [EXAMPLE_WHITE, EXAMPLE_BLACK] {
        let s = position(text);
        check(&s, &legal(&s));
    }
}

#[test]
fn status_agrees_with_the_move_list() {
    let game = chad();
    random_games(9, 20, 300, |s, moves| {
        assert_eq!(game.status(s).is_over(), moves.is_empty(), "{s:?}");
    });
}
