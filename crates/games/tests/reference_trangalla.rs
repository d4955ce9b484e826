//! Hand-checked facts about the Trangalla reference (`tests/reference/trangalla.rs`), from
//! `/work/shared/rules/trangalla.md` ("rules") and `tests/reference/rulings-trangalla.md`
//! ("rulings"). These tests use only the reference, never the fast rules. Each says in a comment
//! how the expected answer was worked out on paper.
//!
//! Points are written `a1`..`e5` with (file, rank) = (i, j) counted from 0. White's forward
//! directions are (+1, 0) and (0, +1), transverse (+1, -1) and (-1, +1); Black's forward are
//! (-1, 0) and (0, -1), transverse the same. Jumps go in all six directions.
//!
//! Parity, used several times below: a jump moves two points along a line, so every landing
//! point of a route has the start's (file mod 2, rank mod 2), and a jumped point never has it.
//!
//! `print_perft` (ignored) prints perft counts:
//! `cargo test --release -p denkmeter-games --test reference_trangalla -- --ignored --nocapture print_perft`

mod reference;

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use reference::trangalla::{self, End, State};
use reference::{parse_square, Position, Reference, Side};

fn trangalla() -> Reference {
    Reference::new("trangalla", None).expect("the trangalla ruleset")
}

fn sorted(texts: &[&str]) -> Vec<String> {
    let mut all: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
    all.sort();
    all
}

fn moves(position: &str) -> Vec<String> {
    trangalla().moves(position).expect("a valid position")
}

/// The moves that start on one point.
fn moves_from(position: &str, point: &str) -> Vec<String> {
    moves(position)
        .into_iter()
        .filter(|m| m.starts_with(point))
        .collect()
}

fn play(position: &str, mv: &str) -> String {
    trangalla().play(position, mv).expect("a legal move")
}

fn outcome(position: &str) -> Option<String> {
    trangalla().outcome(position).expect("a valid position")
}

fn point(name: &str) -> (i32, i32) {
    parse_square(name, 5, 5).expect("a point name")
}

/// The example position of trangalla.md: White's king on b2, Black's on d4, White to move.
const EXAMPLE: &str = "2ss1/3ks/S3s/SK3/1SS2 w";

// ---------------------------------------------------------------- setup and perft

/// rulings "Setup" and "Position strings": the start string is `2ss1/3ss/S3s/SS3/1SS2 w setup`;
/// White names his king's point among a2, a3, b1, b2, c1, then Black among c5, d4, d5, e3, e4,
/// both written with an uppercase `K`; after `K@b2` the string is
/// `2ss1/3ss/S3s/SK3/1SS2 b setup`, after `K@d4` the example position.
#[test]
fn the_setup_moves() {
    let game = trangalla();
    let start = game.start();
    assert_eq!(start, "2ss1/3ss/S3s/SS3/1SS2 w setup");
    assert_eq!(outcome(&start), None, "no kings yet, but not a draw");
    assert_eq!(
        moves(&start),
        sorted(&["K@a2", "K@a3", "K@b1", "K@b2", "K@c1"])
    );
    let after_white = play(&start, "K@b2");
    assert_eq!(after_white, "2ss1/3ss/S3s/SK3/1SS2 b setup");
    assert_eq!(outcome(&after_white), None);
    assert_eq!(
        moves(&after_white),
        sorted(&["K@c5", "K@d4", "K@d5", "K@e3", "K@e4"])
    );
    assert_eq!(play(&after_white, "K@d4"), EXAMPLE);
}

/// Perft from the start. Depths 1 and 2: rules "so perft from the start counts 5 moves at
/// depth 1 and 25 at depth 2".
///
/// Depth 3 by hand: whatever the kings, White's first move is one of the 10 moves listed in
/// `the_example_position_moves_by_hand` (a king moves like a soldier, and no first move reaches
/// a Black piece, so Black's king does not matter either): 25 * 10 = 250.
///
/// Depth 4 by hand: every White first move ends on a3-d1's row or nearer (a4, b3, c2, d1 at most,
/// i + j <= 3), while Black stands on rows i + j >= 6, so no piece is next to an enemy piece and
/// no landing or step of Black's is taken or opened by White. Black's 10 first moves are White's
/// turned half round (e3-d3, e3-e2, d4-c4, d4-d3, c5-b5, c5-c4 and e4xc4, e4xe2, d5xb5, d5xd3),
/// and from c4, e2, b5, d3 they cannot jump on (the points to jump over are on rows 4-5, where
/// White cannot be yet). So 25 * 10 * 10 = 2500.
#[test]
fn perft_from_the_start() {
    let game = trangalla();
    let start = game.start();
    let counts: Vec<u64> = (1..=4)
        .map(|depth| game.perft(&start, depth).expect("counts"))
        .collect();
    assert_eq!(counts, vec![5, 25, 250, 2500]);
}

/// The example position `2ss1/3ks/S3s/SK3/1SS2 w`, worked out point by point.
///
/// Steps (forward (+1,0), (0,+1); transverse (+1,-1), (-1,+1)):
/// - a2: b2, a3, b1 are taken, (-1,2) is off: none.
/// - b1: c1, b2, a2 taken, (2,-1) off: none.
/// - a3: b3 and a4 empty; b2 taken; (-1,3) off: a3-b3, a3-a4.
/// - b2: c2 and b3 empty; c1, a3 taken: b2-c2, b2-b3.
/// - c1: d1 and c2 empty; b2 taken; (3,-1) off: c1-d1, c1-c2.
///
/// Jumps (six directions, over a piece to an empty point beyond):
/// - a2 over b2 to c2 (from c2 nothing: over b2 back to a2 is visited, the rest is empty or
///   leads off the board); a2 over a3 to a4 (from a4 only back over a3 to a2).
/// - b1 over c1 to d1 (from d1 only back over c1); b1 over b2 to b3 (from b3 over a3 leads off
///   the board, over b2 back to b1).
/// - a3 over a2 lands on a1, White's home: it may not stop there, and from a1 over b1 c1 is
///   taken and over a2 a3 is the start: no move. a3 over b2: c1 is taken.
/// - b2: every neighbour's far side is off the board or empty of pieces to jump: none.
/// - c1 over b1 lands on a1: from there over b1 back to c1 (start), over a2 to a3 (taken): none.
///
/// So 6 steps and 4 jumps.
#[test]
fn the_example_position_moves_by_hand() {
    assert_eq!(
        moves(EXAMPLE),
        sorted(&[
            "a3-b3", "a3-a4", "b2-c2", "b2-b3", "c1-d1", "c1-c2", "a2xc2", "a2xa4", "b1xd1",
            "b1xb3",
        ])
    );
    assert_eq!(outcome(EXAMPLE), None);
    // Black's replies are the same moves turned half round (see `perft_from_the_start`).
    let after = play(EXAMPLE, "b2-c2");
    assert_eq!(after, "2ss1/3ks/S3s/S1K2/1SS2 b");
    assert_eq!(
        moves(&after),
        sorted(&[
            "e3-d3", "e3-e2", "d4-c4", "d4-d3", "c5-b5", "c5-c4", "e4xc4", "e4xe2", "d5xb5",
            "d5xd3",
        ])
    );
}

// ---------------------------------------------------------------- routes

/// Position H: White soldiers on b2, c2, b3, d3, c4, White's king on e1, Black's king on a5.
const ROUTES_OWN: &str = "k4/2S2/1S1S1/1SS2/4K w";
/// Position H2: the same with a Black soldier on c2.
const ROUTES_ENEMY: &str = "k4/2S2/1S1S1/1Ss2/4K w";

/// Two routes with the same start, end and enemies jumped are one move (rulings "A move"),
/// written with the fewest jumps, then the smallest list of landing points.
///
/// In H the piece on b2 has six routes (its landing points are b2, b4, d2, d4 by parity):
/// - b2 over c2 to d2; on over d3 to d4; on over c4 to b4 (from b4 over b3 is the start b2).
/// - b2 over b3 to b4; on over c4 to d4; on over d3 to d2 (from d2 over c2 is the start).
///
/// (From d2 over e1 and from b4 over a5 lead off the board; everything else around is empty.)
/// Every jumped piece is White's, so each route's set is empty and routes with the same end are
/// one move:
/// - end d2: [d2] and [b4, d4, d2]: fewest jumps, `b2xd2`;
/// - end b4: [b4] and [d2, d4, b4]: `b2xb4`;
/// - end d4: [d2, d4] and [b4, d4], two jumps each: b4 < d2 (file b before d), `b2xb4xd4`.
///
/// Steps of b2: c2, b3 taken; c1 and a3 (transverse) empty.
#[test]
fn two_routes_with_the_same_effect_are_one_move() {
    assert_eq!(
        moves_from(ROUTES_OWN, "b2"),
        sorted(&["b2-a3", "b2-c1", "b2xb4", "b2xb4xd4", "b2xd2"])
    );
    // The reference found all six routes and grouped them.
    let state = trangalla::parse(ROUTES_OWN).expect("valid");
    let routes: BTreeSet<String> = trangalla::jump_routes(&state.board, point("b2"))
        .iter()
        .map(|route| route.text())
        .collect();
    let expected: BTreeSet<String> = [
        "b2xd2",
        "b2xd2xd4",
        "b2xd2xd4xb4",
        "b2xb4",
        "b2xb4xd4",
        "b2xb4xd4xd2",
    ]
    .iter()
    .map(|t| t.to_string())
    .collect();
    assert_eq!(routes, expected);
    // Another route of a move is not its text: the reference plays canonical texts only.
    assert!(trangalla().play(ROUTES_OWN, "b2xd2xd4").is_err());
    // b2 emptied, d4 taken, nothing flipped.
    assert_eq!(play(ROUTES_OWN, "b2xb4xd4"), "k4/2SS1/1S1S1/2S2/4K b");
}

/// With a Black soldier on c2 (H2) the same six routes differ in effect: those through d2 first
/// jump c2 (set {c2}), the others jump only White pieces (set {}). So six moves, each written
/// with its only route. The steps are b2-a3 and b2-c1 as before (c2 is still taken).
#[test]
fn routes_that_jump_different_enemies_are_different_moves() {
    assert_eq!(
        moves_from(ROUTES_ENEMY, "b2"),
        sorted(&[
            "b2-a3",
            "b2-c1",
            "b2xb4",
            "b2xb4xd4",
            "b2xb4xd4xd2",
            "b2xd2",
            "b2xd2xd4",
            "b2xd2xd4xb4",
        ])
    );
    // b2xd2 flips c2; b2xb4xd4xd2 ends on the same point but leaves c2 Black's.
    assert_eq!(play(ROUTES_ENEMY, "b2xd2"), "k4/2S2/1S1S1/2SS1/4K b");
    assert_eq!(play(ROUTES_ENEMY, "b2xb4xd4xd2"), "k4/2S2/1S1S1/2sS1/4K b");
}

/// Asked for: "a chain that flips a soldier and then jumps the same (now own) piece again". On
/// this board no route can jump a piece twice, so no such chain exists. Why: the jumped piece on
/// c2 (2, 1) and a mover from b2 (1, 1): the landing points of b2's routes are b2, b4, d2, d4,
/// and the only line through c2 joining two of them is b2-c2-d2. A second jump over c2 would go
/// d2 -> b2 (the start) or b2 -> d2 (visited). The same holds for any piece and any mover: the
/// one line through the jumped point that joins two points of the mover's parity has both ends
/// visited after the first jump. (The amended rulings forbid it anyway: "never jumps over the
/// same point twice".)
///
/// In H2 the longest route that flips c2, b2xd2xd4xb4, stops at b4: the jump on over b3 would land
/// on b2, the start. After it c2 is White's and b2 is empty.
#[test]
fn no_route_jumps_a_flipped_soldier_again() {
    let state = trangalla::parse(ROUTES_ENEMY).expect("valid");
    for route in trangalla::jump_routes(&state.board, point("b2")) {
        let over: BTreeSet<_> = route.jumped_over.iter().collect();
        assert_eq!(over.len(), route.jumped_over.len(), "{}", route.text());
        assert!(!route.landings.contains(&point("b2")), "{}", route.text());
    }
    assert_eq!(play(ROUTES_ENEMY, "b2xd2xd4xb4"), "k4/1SS2/1S1S1/2S2/4K b");
}

/// Asked for: "a chain that removes the enemy king and later lands on its emptied point". None
/// exists: a jumped point never has the mover's parity, so no later landing can be on it. (The
/// amended rulings forbid it anyway: "never lands on a point it has jumped over".)
///
/// Position D: as H but Black's king on c2 and White's king on a5, no other Black piece. The
/// routes of b2 are H's six; the three through d2 first jump c2 and remove the king. Landing
/// points are b2, b4, d2, d4 only, never c2 (2, 1). After b2xd2xd4xb4 the board has White's
/// king and four soldiers (b4, c4, b3, d3) and nothing of Black's: Black, to move, has no step
/// or jump and passes; the game is not over (White still has a king and moves).
#[test]
fn a_removed_king_point_is_never_landed_on() {
    let position = "K4/2S2/1S1S1/1Sk2/5 w";
    assert_eq!(
        moves_from(position, "b2"),
        sorted(&[
            "b2-a3",
            "b2-c1",
            "b2xb4",
            "b2xb4xd4",
            "b2xb4xd4xd2",
            "b2xd2",
            "b2xd2xd4",
            "b2xd2xd4xb4",
        ])
    );
    for mv in moves(position) {
        assert!(!mv[2..].contains("c2"), "{mv} lands on c2");
    }
    let after = play(position, "b2xd2xd4xb4");
    assert_eq!(after, "K4/1SS2/1S1S1/5/5 b");
    assert_eq!(outcome(&after), None);
    assert_eq!(moves(&after), vec!["pass".to_string()]);
    // Removing it by a single jump: the king is gone, d2 is the White soldier's.
    assert_eq!(play(position, "b2xd2"), "K4/2S2/1S1S1/3S1/5 b");
}

/// rulings "Jump": a route "may not stop on the mover's own home point (White a1, Black e5); it
/// may land there and jump on".
///
/// Position E: White soldiers a2, a3, b1, White's king c3, Black's king e4; White to move.
/// - a2: step b2 (a3, b1 taken); jump over a3 to a4 (from a4 only back over a3); over b1 leads
///   off the board.
/// - a3: steps b3, a4, b2 (transverse); jump over a2 to a1, the home point: not a move by
///   itself, but from a1 over b1 to c1 (empty) it goes on: a3xa1xc1 (from c1 nothing: d1, c2,
///   b2 are empty and over b1 is a1, visited).
/// - b1: steps c1, b2 (a2 taken); no jump (a2's far side is off the board, a1, b2, c1 empty).
/// - c3: steps d3, c4, d2, b4; no piece next to it.
///
/// 12 moves; a3xa1 is not one of them.
#[test]
fn a_route_may_pass_through_its_home_point_but_not_end_there() {
    let position = "5/4k/S1K2/S4/1S3 w";
    assert_eq!(
        moves(position),
        sorted(&[
            "a2-b2", "a2xa4", "a3-a4", "a3-b2", "a3-b3", "a3xa1xc1", "b1-b2", "b1-c1", "c3-b4",
            "c3-c4", "c3-d2", "c3-d3",
        ])
    );
    assert!(trangalla().play(position, "a3xa1").is_err());
    assert_eq!(play(position, "a3xa1xc1"), "5/4k/2K2/S4/1SS2 b");
}

/// rulings "Jump": "landing on the mover's goal point (White e5, Black a1) ends the route";
/// "The goal": "a soldier is removed from the board; a king wins the game".
///
/// Position F1: White soldier c5, White's king a4; Black soldiers d5, e4, Black's king b1.
/// - c5: steps: d5 taken, (2,5) and (1,5) off, d4 empty: c5-d4. Jump over d5 (Black) to e5,
///   White's goal: the route ends there although from e5 over e4 to e3 would be open. The
///   soldier is removed and d5 is flipped.
/// - a4: steps b4, a5, b3; no neighbour holds a piece.
#[test]
fn landing_on_the_goal_ends_the_route_and_removes_a_soldier() {
    let position = "2Ss1/K3s/5/5/1k3 w";
    assert_eq!(
        moves(position),
        sorted(&["a4-a5", "a4-b3", "a4-b4", "c5-d4", "c5xe5"])
    );
    assert!(trangalla().play(position, "c5xe5xe3").is_err());
    let after = play(position, "c5xe5");
    // c5 empty, d5 White's, e5 empty (the soldier is gone), e4 still Black's.
    assert_eq!(after, "3S1/K3s/5/5/1k3 b");
    assert_eq!(outcome(&after), None);
    // Black's king on b1 steps forward onto a1, Black's goal, and wins.
    assert!(moves(&after).contains(&"b1-a1".to_string()));
    let black_wins = play(&after, "b1-a1");
    assert_eq!(black_wins, "3S1/K3s/5/5/k4 w");
    assert_eq!(outcome(&black_wins), Some("0-1".to_string()));
    assert!(moves(&black_wins).is_empty());
}

/// The same with White's king on c5 (and a soldier on a4): c5xe5 puts the king on e5 and White
/// has won (rulings "End" 1).
#[test]
fn a_king_landing_on_its_goal_wins() {
    let position = "2Ks1/S3s/5/5/1k3 w";
    assert!(!moves(position).contains(&"c5xe5xe3".to_string()));
    let after = play(position, "c5xe5");
    assert_eq!(after, "3SK/S3s/5/5/1k3 b");
    assert_eq!(outcome(&after), Some("1-0".to_string()));
    assert!(moves(&after).is_empty());
    let state = trangalla::parse(&after).expect("valid");
    assert_eq!(
        trangalla::status(&state),
        Some((Some(Side::White), End::Goal))
    );
    // A step onto the goal: a soldier on d5 steps to e5 and is removed.
    let step = "3S1/K3s/5/5/1k3 w";
    assert_eq!(play(step, "d5-e5"), "5/K3s/5/5/1k3 b");
}

/// rules "Moves": a step goes "forward or transversely (never backward)"; jumps go "in any
/// direction, backward included".
///
/// White's king c3 and soldier b3, Black's king a5 (far away), White to move:
/// - c3 (2,2): steps d3 (+1,0), c4 (0,+1), d2 (+1,-1), b4 (-1,+1); not b3 (taken anyway) or c2
///   (backward). Jump backward over b3 to a3 (from a3 only back over b3 to c3).
/// - b3 (1,2): steps b4, c2 (transverse), a4 (transverse); c3 taken; not a3 or b2 (backward).
///   Jump over c3 to d3 (from d3 only back over c3).
#[test]
fn steps_never_go_backward_but_jumps_may() {
    let white = "k4/5/1SK2/5/5 w";
    assert_eq!(
        moves(white),
        sorted(&["b3-a4", "b3-b4", "b3-c2", "b3xd3", "c3-b4", "c3-c4", "c3-d2", "c3-d3", "c3xa3",])
    );
    // Black's king alone on c3 (White's on a5): Black's forward is (-1,0) b3 and (0,-1) c2,
    // transverse d2 and b4; d3 and c4 are backward for Black.
    let black = "K4/5/2k2/5/5 b";
    assert_eq!(moves(black), sorted(&["c3-b3", "c3-b4", "c3-c2", "c3-d2"]));
}

/// rules "Board": with straight-ahead lines White would win on move 1 whenever his king starts
/// on a3 (a3-a1-c3-e5, jumping a2, b2 and d4). Our board has no such lines: after `K@a3` and
/// `K@d4` White has the same 10 moves as in the example (a king moves like a soldier), none of
/// them reaches e5, and a3xa1xc3xe5 is not a move (a1 to c3 is (+2,+2), not along a line).
#[test]
fn white_does_not_win_on_move_one_from_a3() {
    let game = trangalla();
    let position = play(&play(&game.start(), "K@a3"), "K@d4");
    assert_eq!(position, "2ss1/3ks/K3s/SS3/1SS2 w");
    assert_eq!(moves(&position), moves(EXAMPLE));
    assert!(moves(&position).iter().all(|m| !m.ends_with("e5")));
    assert!(game.play(&position, "a3xa1xc3xe5").is_err());
    assert!(game.play(&position, "a3-a1-c3-e5").is_err());
    // The same from c1 (the other start named by the rules).
    let position = play(&play(&game.start(), "K@c1"), "K@d4");
    assert!(moves(&position).iter().all(|m| !m.ends_with("e5")));
}

// ---------------------------------------------------------------- end and pass

/// rulings "End" 2: "Neither player has a king (both were removed): draw." The start's board
/// without ` setup` is such a position: all soldiers, no king.
#[test]
fn no_kings_is_a_draw() {
    for position in ["2ss1/3ss/S3s/SS3/1SS2 w", "5/5/2S2/5/2s2 b"] {
        assert_eq!(outcome(position), Some("1/2-1/2".to_string()));
        assert!(moves(position).is_empty());
        let state = trangalla::parse(position).expect("valid");
        assert_eq!(trangalla::status(&state), Some((None, End::NoKings)));
    }
    // Checked before "no moves" and after "goal": a king on its goal wins even without the
    // other king.
    assert_eq!(outcome("4K/5/5/5/5 b"), Some("1-0".to_string()));
}

/// rulings "Pass": "when the game is not over and the side to move has no step or jump, `pass`
/// is its only move."
///
/// White's soldier on e1 (4,0) with Black on d2, e2, e3 and Black's king on c3: its step
/// points e2 (0,+1) and d2 (-1,+1) are taken, (5,0) and (5,-1) are off the board; jumping e2
/// lands on e3 (taken), d2 on c3 (taken), d1 is empty, the rest leads off the board. White has
/// no king but Black has, so no draw; Black can move (c3 steps), so the game goes on.
#[test]
fn a_player_who_cannot_move_passes() {
    let position = "5/5/2k1s/3ss/4S w";
    assert_eq!(moves(position), vec!["pass".to_string()]);
    assert_eq!(outcome(position), None);
    assert_eq!(play(position, "pass"), "5/5/2k1s/3ss/4S b");
    // A side with no pieces at all passes too.
    assert_eq!(moves("5/5/2k2/5/5 w"), vec!["pass".to_string()]);
}

/// rulings "End" 3: "Neither player has a step or jump: draw (no moves)." No position a string
/// may describe (at most ten pieces) has it: this test goes through every board whose pieces
/// (at most ten, a1 and e5 empty) all have their step points taken or off the board (a piece
/// with a free step point can move), and the reference finds a step or jump for one of the
/// sides on each. (A search by hand-written backtracking found the smallest board where no
/// piece of either side can move to need all 23 points other than the tips.)
///
/// The rule itself is checked on such a full board, built without the string reader (which
/// refuses more than ten pieces): 23 pieces, a king among them, nobody can move.
#[test]
fn neither_side_stuck_happens_only_on_a_full_board() {
    let mut boards = Vec::new();
    let mut cells = vec![None; 25];
    fill_step_blocked(&mut cells, 0, 0, &mut boards);
    // 23 boards; a separate throwaway script (Python, same idea) counted 23 too.
    assert_eq!(boards.len(), 23);
    for board in &boards {
        let white = trangalla::steps_and_jumps(board, Side::White);
        let black = trangalla::steps_and_jumps(board, Side::Black);
        assert!(
            !white.is_empty() || !black.is_empty(),
            "{}",
            reference::print_position(board)
        );
    }
    // Found by the search (see above): White fills the lower left, Black the upper right.
    let full = "ssss1/SSSSs/SSSSs/SSSSS/1SSSS w".replacen('S', "K", 1);
    assert!(trangalla::parse(&full).is_err(), "more than ten pieces");
    let board = reference::parse_position(&full, 5, 5, trangalla::LETTERS).expect("a grid");
    let state = State {
        board,
        setup: false,
    };
    assert_eq!(trangalla::status(&state), Some((None, End::NoMoves)));
    assert_eq!(trangalla::outcome(&state), Some("1/2-1/2".to_string()));
    assert!(trangalla::successors(&state).is_empty());
}

/// Backtracking over the 25 points (a1, b1, ..., e1, a2, ...): each is empty, White's or
/// Black's (a1 and e5 always empty), at most ten pieces, and a piece is kept only if none of its
/// step points (White: (+1,0), (0,+1), (+1,-1), (-1,+1); Black: (-1,0), (0,-1), same
/// transverse) is an empty point. A piece's step points all come before it or at most 6 points
/// after it, so a piece is checked once the point 6 after it is decided.
fn fill_step_blocked(
    cells: &mut Vec<Option<char>>,
    next: usize,
    pieces: usize,
    out: &mut Vec<Position>,
) {
    let blocked = |cells: &Vec<Option<char>>, index: usize| -> bool {
        let (file, rank) = ((index % 5) as i32, (index / 5) as i32);
        let directions: [(i32, i32); 4] = match cells[index] {
            Some('S') => [(1, 0), (0, 1), (1, -1), (-1, 1)],
            Some('s') => [(-1, 0), (0, -1), (1, -1), (-1, 1)],
            _ => return true,
        };
        directions.iter().all(|&(df, dr)| {
            let (f, r) = (file + df, rank + dr);
            !(0..5).contains(&f) || !(0..5).contains(&r) || cells[(r * 5 + f) as usize] != Some('.')
        })
    };
    if next == 25 {
        if pieces == 0 || !(0..25).all(|i| blocked(cells, i)) {
            return;
        }
        let mut board = Position::empty(5, 5, Side::White);
        for (index, cell) in cells.iter().enumerate() {
            board.set(
                ((index % 5) as i32, (index / 5) as i32),
                cell.unwrap_or('.'),
            );
        }
        out.push(board);
        return;
    }
    let options: &[char] = if next == 0 || next == 24 || pieces >= 10 {
        &['.']
    } else {
        &['.', 'S', 's']
    };
    for &option in options {
        cells[next] = Some(option);
        let ok = next < 6 || blocked(cells, next - 6);
        if ok {
            fill_step_blocked(cells, next + 1, pieces + usize::from(option != '.'), out);
        }
        cells[next] = None;
    }
}

// ---------------------------------------------------------------- position strings

/// rulings "Position strings", "Refused": each case once, and a few that are fine.
#[test]
fn position_strings_refused_and_accepted() {
    let game = trangalla();
    for bad in [
        "2ss1/3ks/S3s/SK3 w",            // four rows
        "2ss1/3ks/S3s/SK3/1SS3 w",       // a row of six
        "2ss1/3ks/S3s/SK3/1SS1 w",       // a row of four
        "2ss1/3ks/S3x/SK3/1SS2 w",       // unknown letter
        "2ss1/3ks/S3s/KK3/1SS2 w",       // two White kings
        "2sk1/3ks/S3s/SK3/1SS2 w",       // two Black kings
        "2ss1/2sks/S3s/SK3/1SS2 w",      // eleven pieces
        "2ss1/3ks/S3s/1K3/SSS2 w",       // a White piece on a1
        "2sss/3k1/S3s/SK3/1SS2 w",       // a Black piece on e5
        "4S/3k1/5/1K3/5 w",              // a White soldier on e5 (White's goal)
        "5/3k1/5/1K3/s4 w",              // a Black soldier on a1 (Black's goal)
        "2ss1/3ks/S3s/SK3/1SS2",         // no side
        "2ss1/3ks/S3s/SK3/1SS2 x",       // unknown side
        "2ss1/3ks/S3s/SK3/1SS2 w done",  // unknown suffix
        "2ss1/3ss/S3s/SK3/1SS2 w setup", // White's king chosen, White to move
        "2ss1/3ss/S3s/SS3/1SS2 b setup", // Black to move, White's king not chosen
        "2ss1/3ks/S3s/SK3/1SS2 b setup", // Black's king chosen in the setup
        "2ss1/3ss/S3s/SK3/2SS1 b setup", // a piece off its start point
        "2ss1/3ss/S3s/SK3/1S3 b setup",  // a piece missing
    ] {
        assert!(game.moves(bad).is_err(), "{bad} was accepted");
    }
    for good in [
        "2ss1/3ks/S3s/SK3/1SS2 w",
        "2ss1/3ss/S3s/SK3/1SS2 b setup",
        "4K/5/5/5/5 b", // a king on its goal: a finished game
        "5/5/5/5/k4 w", // the same for Black
        "5/5/5/5/5 w",  // empty: no kings, a draw
    ] {
        assert!(game.moves(good).is_ok(), "{good} was refused");
    }
}

// ---------------------------------------------------------------- a second, independent count

/// A second implementation of the move rules, written separately in this file with another
/// board layout (rows as printed, rank 5 first) and another idea of what a move is: it never
/// groups routes or chooses a canonical one; it collects the set of positions the routes lead
/// to. Two different moves (start, end, enemies jumped) always give different positions (the
/// start is emptied, the end filled unless a soldier reached its goal, and each enemy jumped is
/// flipped or removed), so the number of different positions is the number of moves.
mod brute {
    use std::collections::BTreeSet;

    /// `rows[0]` is rank 5, `rows[4]` rank 1; `rows[r][c]` has file c.
    #[derive(Clone)]
    pub struct Board {
        pub rows: [[char; 5]; 5],
        pub white_to_move: bool,
        pub setup: bool,
    }

    pub fn parse(text: &str) -> Board {
        let parts: Vec<&str> = text.split_whitespace().collect();
        let mut rows = [['.'; 5]; 5];
        for (r, row) in parts[0].split('/').enumerate() {
            let mut c = 0;
            for ch in row.chars() {
                if let Some(n) = ch.to_digit(10) {
                    c += n as usize;
                } else {
                    rows[r][c] = ch;
                    c += 1;
                }
            }
        }
        Board {
            rows,
            white_to_move: parts[1] == "w",
            setup: parts.len() == 3,
        }
    }

    pub fn print(board: &Board) -> String {
        let mut out = Vec::new();
        for row in &board.rows {
            let mut text = String::new();
            let mut run = 0;
            for &ch in row {
                if ch == '.' {
                    run += 1;
                } else {
                    if run > 0 {
                        text += &run.to_string();
                        run = 0;
                    }
                    text.push(ch);
                }
            }
            if run > 0 {
                text += &run.to_string();
            }
            out.push(text);
        }
        let side = if board.white_to_move { "w" } else { "b" };
        let setup = if board.setup { " setup" } else { "" };
        format!("{} {side}{setup}", out.join("/"))
    }

    fn white(ch: char) -> bool {
        ch == 'K' || ch == 'S'
    }

    fn black(ch: char) -> bool {
        ch == 'k' || ch == 's'
    }

    fn mine(ch: char, white_side: bool) -> bool {
        if white_side {
            white(ch)
        } else {
            black(ch)
        }
    }

    fn get(board: &Board, r: i32, c: i32) -> Option<char> {
        if (0..5).contains(&r) && (0..5).contains(&c) {
            Some(board.rows[r as usize][c as usize])
        } else {
            None
        }
    }

    /// (row, column) steps. On the printed rows a rank up is a row up: White's forward (file +1)
    /// is (0, +1) and (rank +1) is (-1, 0); transverse (file +1, rank -1) is (+1, +1) and
    /// (file -1, rank +1) is (-1, -1).
    fn step_dirs(white_side: bool) -> [(i32, i32); 4] {
        if white_side {
            [(0, 1), (-1, 0), (1, 1), (-1, -1)]
        } else {
            [(0, -1), (1, 0), (1, 1), (-1, -1)]
        }
    }

    const ALL: [(i32, i32); 6] = [(0, 1), (-1, 0), (1, 1), (-1, -1), (0, -1), (1, 0)];

    /// White's home a1 is row 4 column 0; Black's e5 is row 0 column 4.
    fn home(white_side: bool) -> (i32, i32) {
        if white_side {
            (4, 0)
        } else {
            (0, 4)
        }
    }

    fn goal(white_side: bool) -> (i32, i32) {
        home(!white_side)
    }

    /// The positions after every step and jump of one side, as printed strings (side to move
    /// switched).
    fn play_moves(board: &Board, white_side: bool) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for r in 0..5 {
            for c in 0..5 {
                let piece = board.rows[r as usize][c as usize];
                if !mine(piece, white_side) {
                    continue;
                }
                let mut b = board.clone();
                b.rows[r as usize][c as usize] = '.';
                b.white_to_move = !white_side;
                for (dr, dc) in step_dirs(white_side) {
                    if get(&b, r + dr, c + dc) == Some('.') {
                        out.insert(arrive(&b, piece, (r + dr, c + dc), white_side));
                    }
                }
                let mut seen = vec![(r, c)];
                jumps(&b, piece, (r, c), white_side, &mut seen, &mut out);
            }
        }
        out
    }

    fn arrive(b: &Board, piece: char, at: (i32, i32), white_side: bool) -> String {
        let mut b = b.clone();
        let is_king = piece == 'K' || piece == 'k';
        if at != goal(white_side) || is_king {
            b.rows[at.0 as usize][at.1 as usize] = piece;
        }
        print(&b)
    }

    fn jumps(
        b: &Board,
        piece: char,
        at: (i32, i32),
        white_side: bool,
        seen: &mut Vec<(i32, i32)>,
        out: &mut BTreeSet<String>,
    ) {
        for (dr, dc) in ALL {
            let over = (at.0 + dr, at.1 + dc);
            let to = (at.0 + 2 * dr, at.1 + 2 * dc);
            let Some(jumped) = get(b, over.0, over.1) else {
                continue;
            };
            if jumped == '.' || get(b, to.0, to.1) != Some('.') || seen.contains(&to) {
                continue;
            }
            let mut next = b.clone();
            if mine(jumped, !white_side) {
                next.rows[over.0 as usize][over.1 as usize] = match jumped {
                    'k' | 'K' => '.',
                    _ if white_side => 'S',
                    _ => 's',
                };
            }
            if to != home(white_side) {
                out.insert(arrive(&next, piece, to, white_side));
            }
            if to != goal(white_side) {
                seen.push(to);
                jumps(&next, piece, to, white_side, seen, out);
                seen.pop();
            }
        }
    }

    /// Every position after a legal move; empty when the game is over.
    pub fn successors(board: &Board) -> BTreeSet<String> {
        let side = board.white_to_move;
        if board.setup {
            let mut out = BTreeSet::new();
            for r in 0..5 {
                for c in 0..5 {
                    if mine(board.rows[r][c], side) {
                        let mut b = board.clone();
                        b.rows[r][c] = if side { 'K' } else { 'k' };
                        b.white_to_move = !side;
                        b.setup = side;
                        out.insert(print(&b));
                    }
                }
            }
            return out;
        }
        let flat: Vec<char> = board.rows.iter().flatten().copied().collect();
        if board.rows[0][4] == 'K' || board.rows[4][0] == 'k' {
            return BTreeSet::new();
        }
        if !flat.contains(&'K') && !flat.contains(&'k') {
            return BTreeSet::new();
        }
        let own = play_moves(board, side);
        if own.is_empty() {
            if play_moves(board, !side).is_empty() {
                return BTreeSet::new();
            }
            let mut b = board.clone();
            b.white_to_move = !side;
            return [print(&b)].into_iter().collect();
        }
        own
    }

    pub fn perft(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let next = successors(board);
        if depth == 1 {
            return next.len() as u64;
        }
        next.iter().map(|text| perft(&parse(text), depth - 1)).sum()
    }
}

/// The reference's perft against the brute-force count (see [`brute`]), from the start to depth
/// 5 and from the example to depth 4.
#[test]
fn perft_agrees_with_a_brute_force_count() {
    let game = trangalla();
    for (position, depth) in [(game.start(), 5), (EXAMPLE.to_string(), 4)] {
        for d in 1..=depth {
            let slow = brute::perft(&brute::parse(&position), d);
            assert_eq!(
                game.perft(&position, d).expect("counts"),
                slow,
                "{position} depth {d}"
            );
        }
    }
}

/// The position turned half round with the colours swapped: (i, j) -> (4 - i, 4 - j), White
/// <-> Black. The rules are the same for both players seen from their own side, so the turned
/// position's successors are the turned successors.
fn turned(text: &str) -> String {
    let board = brute::parse(text);
    let mut rows = [['.'; 5]; 5];
    for (r, row) in board.rows.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            let swapped = if ch.is_ascii_uppercase() {
                ch.to_ascii_lowercase()
            } else {
                ch.to_ascii_uppercase()
            };
            rows[4 - r][4 - c] = swapped;
        }
    }
    brute::print(&brute::Board {
        rows,
        white_to_move: !board.white_to_move,
        setup: board.setup,
    })
}

/// On positions of random games (each move chosen at random among the reference's moves): the
/// reference's moves lead to exactly the positions the brute force finds; the turned position
/// has the turned successors and outcome; every route's landing points keep the start's parity
/// and its jumped points never do; and the routes without the amended rulings' two extra limits
/// are the same routes (the limits never bind).
#[test]
fn random_games_agree_with_the_brute_force_and_are_symmetric() {
    let game = trangalla();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x7a4e);
    let (mut positions, mut jumps, mut endings) = (0, 0, 0);
    for _ in 0..150 {
        let mut position = game.start();
        for _ in 0..200 {
            positions += 1;
            let state = trangalla::parse(&position).expect("a reachable position reads");
            assert_eq!(trangalla::print(&state), position);
            let successors = trangalla::successors(&state);
            let reached: BTreeSet<String> = successors
                .iter()
                .map(|(_, after)| trangalla::print(after))
                .collect();
            assert_eq!(reached.len(), successors.len(), "{position}");
            assert_eq!(
                reached,
                brute::successors(&brute::parse(&position)),
                "{position}"
            );
            if !state.setup {
                let turned_position = turned(&position);
                let turned_reached: BTreeSet<String> = trangalla::successors(
                    &trangalla::parse(&turned_position).expect("turned reads"),
                )
                .iter()
                .map(|(_, after)| turned(&trangalla::print(after)))
                .collect();
                assert_eq!(turned_reached, reached, "{position} turned");
                assert_eq!(
                    outcome(&turned_position).map(|o| swap_result(&o)),
                    outcome(&position)
                );
                for start in state.board.squares() {
                    let limited = trangalla::jump_routes_with(&state.board, start, true);
                    let free = trangalla::jump_routes_with(&state.board, start, false);
                    let texts = |routes: &[trangalla::Route]| -> Vec<String> {
                        routes.iter().map(|r| r.text()).collect()
                    };
                    assert_eq!(texts(&limited), texts(&free), "{position}");
                    for route in &limited {
                        jumps += 1;
                        let parity = |p: (i32, i32)| (p.0 % 2, p.1 % 2);
                        for &landing in &route.landings {
                            assert_eq!(parity(landing), parity(start), "{}", route.text());
                        }
                        for &over in &route.jumped_over {
                            assert_ne!(parity(over), parity(start), "{}", route.text());
                        }
                    }
                }
            }
            if successors.is_empty() {
                endings += 1;
                break;
            }
            let index = rng.gen_range(0..successors.len());
            position = trangalla::print(&successors[index].1);
        }
    }
    assert!(positions > 5000, "{positions}");
    assert!(jumps > 1000, "{jumps}");
    assert!(endings > 20, "{endings}");
}

fn swap_result(result: &str) -> String {
    match result {
        "1-0" => "0-1".to_string(),
        "0-1" => "1-0".to_string(),
        other => other.to_string(),
    }
}

#[test]
#[ignore]
fn print_perft() {
    let game = trangalla();
    for (name, position, max) in [
        ("start", game.start(), 7),
        ("example", EXAMPLE.to_string(), 6),
    ] {
        for depth in 1..=max {
            let time = std::time::Instant::now();
            let count = game.perft(&position, depth).expect("counts");
            println!("{name} {depth} {count} ({:?})", time.elapsed());
        }
    }
}
