//! Trangalla, from `/work/shared/rules/trangalla.md` (cited as "rules") and the shared rulings
//! `tests/reference/rulings-trangalla.md` (cited as "rulings"). Written without looking at the fast
//! implementation.
//!
//! Plain data throughout: the board is the shared char grid ([`Position`], 5x5, `cells[rank * 5 +
//! file]`), a point is `(file, rank)` counted from 0, and a jump route is found by trying every
//! direction from every landing point with a copy of the board that carries the effects made so
//! far. Moves are then grouped by (start, end, set of enemy pieces jumped) and each group is
//! written with its canonical route.

use std::collections::{BTreeMap, BTreeSet};

use super::{parse_position, print_position, result_text, square_name, Position, Side, Square};

/// rulings "Points": files a-e and ranks 1-5 are the lattice coordinates 0..4.
pub const SIZE: i32 = 5;

/// rules "Position string": "K king, S soldier" (uppercase White, lowercase Black).
pub const LETTERS: &str = "KSks";

const EMPTY: char = super::EMPTY;

/// rulings "Points": "a1 is White's home tip and Black's goal; e5 is Black's home tip and
/// White's goal".
pub fn home(side: Side) -> Square {
    match side {
        Side::White => (0, 0),
        Side::Black => (4, 4),
    }
}

pub fn goal(side: Side) -> Square {
    home(side.other())
}

/// rulings "Points": "White's start points: a2, b1 (next to the tip) and a3, b2, c1. Black's: d5,
/// e4 and c5, d4, e3." Listed in name order (a1 < a2 < ... < b1 < ...).
pub fn start_points(side: Side) -> Vec<Square> {
    match side {
        Side::White => vec![(0, 1), (0, 2), (1, 0), (1, 1), (2, 0)],
        Side::Black => vec![(2, 4), (3, 3), (3, 4), (4, 2), (4, 3)],
    }
}

/// rulings "Points": "For White: forward (+1, 0) and (0, +1); transverse (+1, -1) and (-1, +1);
/// backward (-1, 0) and (0, -1). For Black, forward and backward swap; transverse is the same."
pub fn forward(side: Side) -> [Square; 2] {
    match side {
        Side::White => [(1, 0), (0, 1)],
        Side::Black => [(-1, 0), (0, -1)],
    }
}

pub const TRANSVERSE: [Square; 2] = [(1, -1), (-1, 1)];

/// All six lines (rules "Board": "Marking lines join each point to its neighbours in 6
/// directions"). There are no straight-ahead lines (+1, +1), (-1, -1) (rules "Board": "Why not
/// also straight-ahead lines").
pub const ALL_DIRECTIONS: [Square; 6] = [(1, 0), (0, 1), (1, -1), (-1, 1), (-1, 0), (0, -1)];

/// The directions a step may take: rulings "Step": "in one of the mover's two forward or two
/// transverse directions" (rules: "never backward").
pub fn step_directions(side: Side) -> Vec<Square> {
    let mut directions = forward(side).to_vec();
    directions.extend(TRANSVERSE);
    directions
}

fn add(point: Square, direction: Square) -> Square {
    (point.0 + direction.0, point.1 + direction.1)
}

fn side_of(letter: char) -> Option<Side> {
    match letter {
        'K' | 'S' => Some(Side::White),
        'k' | 's' => Some(Side::Black),
        _ => None,
    }
}

fn is_king(letter: char) -> bool {
    letter == 'K' || letter == 'k'
}

fn soldier_of(side: Side) -> char {
    match side {
        Side::White => 'S',
        Side::Black => 's',
    }
}

fn king_of(side: Side) -> char {
    match side {
        Side::White => 'K',
        Side::Black => 'k',
    }
}

/// A position: the board, the side to move, and whether the setup is still going on (rulings
/// "Position strings": "Before the setup is over the string ends in ` setup`").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub board: Position,
    pub setup: bool,
}

/// rulings "Setup": "A new game starts before the setup: all ten pieces stand on their start
/// points, none is a king yet, White to move." The string is `2ss1/3ss/S3s/SS3/1SS2 w setup`.
pub fn start() -> State {
    let mut board = Position::empty(SIZE, SIZE, Side::White);
    for side in [Side::White, Side::Black] {
        for point in start_points(side) {
            board.set(point, soldier_of(side));
        }
    }
    State { board, setup: true }
}

/// rulings "Position strings": the shared form, with ` setup` appended while the setup goes on.
pub fn print(state: &State) -> String {
    let text = print_position(&state.board);
    if state.setup {
        format!("{text} setup")
    } else {
        text
    }
}

/// The points holding a letter.
fn points_with(board: &Position, letter: char) -> Vec<Square> {
    board
        .squares()
        .into_iter()
        .filter(|&point| board.get(point) == Some(letter))
        .collect()
}

/// Reads a position string, refusing what rulings "Position strings" lists as refused.
pub fn parse(text: &str) -> Result<State, String> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    // rulings: "Before the setup is over the string ends in ` setup`".
    let (shared, setup) = match parts.as_slice() {
        [rows, side] => (format!("{rows} {side}"), false),
        [rows, side, "setup"] => (format!("{rows} {side}"), true),
        _ => {
            return Err(format!(
                "position {text:?}: expected ROWS SIDE or ROWS SIDE setup"
            ))
        }
    };
    // Refused: "a wrong row count or length, an unknown letter, ... a missing or unknown side"
    // (the shared reader checks these).
    let board = parse_position(&shared, SIZE, SIZE, LETTERS)?;
    let count = |letter: char| points_with(&board, letter).len();
    // Refused: "more than one king of a colour".
    if count('K') > 1 || count('k') > 1 {
        return Err(format!("position {text:?}: more than one king of a colour"));
    }
    // Refused: "more than ten pieces".
    let pieces = board.cells.iter().filter(|&&c| c != EMPTY).count();
    if pieces > 10 {
        return Err(format!("position {text:?}: {pieces} pieces, at most 10"));
    }
    for side in [Side::White, Side::Black] {
        // Refused: "a piece on its own home point (White on a1, Black on e5)".
        if let Some(letter) = board.get(home(side)) {
            if side_of(letter) == Some(side) {
                return Err(format!(
                    "position {text:?}: a piece on its own home point {}",
                    square_name(home(side))
                ));
            }
        }
        // Refused: "a soldier on its owner's goal point (it would have been removed)".
        if board.get(goal(side)) == Some(soldier_of(side)) {
            return Err(format!(
                "position {text:?}: a soldier on its goal point {}",
                square_name(goal(side))
            ));
        }
    }
    if setup {
        // rulings: "A setup string must show every piece on its start point (White's king chosen
        // iff Black is to move, Black's never)."
        for point in board.squares() {
            let letter = board.get(point).unwrap_or(EMPTY);
            let expected_side = [Side::White, Side::Black]
                .into_iter()
                .find(|&side| start_points(side).contains(&point));
            if side_of(letter) != expected_side {
                return Err(format!(
                    "position {text:?}: a setup position must have every piece on its start point"
                ));
            }
        }
        let white_kings = count('K');
        let wanted = usize::from(board.to_move == Side::Black);
        if white_kings != wanted || count('k') != 0 {
            return Err(format!(
                "position {text:?}: in the setup White's king is chosen iff Black is to move, \
                 Black's never"
            ));
        }
    }
    Ok(State { board, setup })
}

/// One jump route: its start, its landing points in order, the points of the enemy pieces it
/// jumped (enemy at the moment of the jump), and the board after it (side to move changed).
#[derive(Clone, Debug)]
pub struct Route {
    pub start: Square,
    pub landings: Vec<Square>,
    pub enemies_jumped: BTreeSet<Square>,
    /// Every point jumped over, in order, own pieces included.
    pub jumped_over: Vec<Square>,
    pub after: Position,
}

impl Route {
    pub fn end(&self) -> Square {
        *self.landings.last().expect("a route has at least one jump")
    }

    /// rulings "A move": "Written as the start and every landing point joined by `x`".
    pub fn text(&self) -> String {
        let mut names = vec![square_name(self.start)];
        names.extend(self.landings.iter().map(|&p| square_name(p)));
        names.join("x")
    }
}

/// The board after the moving piece has come to rest on `end` (its start already emptied):
/// rulings "The goal": "if the moving piece ends its move on its owner's goal point, a soldier is
/// removed from the board; a king wins the game" (so the king stays there and the game is over).
fn finish(mut board: Position, piece: char, end: Square, side: Side) -> Position {
    if end != goal(side) || is_king(piece) {
        board.set(end, piece);
    }
    board.to_move = side.other();
    board
}

/// Every jump route of the piece on `start` that may stop where it ends (the prefixes of longer
/// routes included), in the order found.
pub fn jump_routes(board: &Position, start: Square) -> Vec<Route> {
    jump_routes_with(board, start, true)
}

/// [`jump_routes`], with or without the two limits that the amended rulings add ("never jumps
/// over the same point twice, and never lands on a point it has jumped over"). Without them is
/// only for the test that shows they never change anything.
pub fn jump_routes_with(board: &Position, start: Square, extra_limits: bool) -> Vec<Route> {
    let piece = board.get(start).unwrap_or(EMPTY);
    let Some(side) = side_of(piece) else {
        return Vec::new();
    };
    // The mover has left its start: that point is empty during the route (so nothing jumps over
    // it) and counts as visited (rulings "Jump": "its start counts as visited").
    let mut during = board.clone();
    during.set(start, EMPTY);
    let mut routes = Vec::new();
    let mut landings = Vec::new();
    let mut jumped_over = Vec::new();
    let mut enemies = BTreeSet::new();
    let mut route = RouteSoFar {
        piece,
        side,
        start,
        extra_limits,
        landings: &mut landings,
        jumped_over: &mut jumped_over,
        enemies: &mut enemies,
    };
    extend_route(&during, start, &mut route, &mut routes);
    routes
}

/// What a route being built carries: the moving piece, its side and start, and what it has done.
struct RouteSoFar<'a> {
    piece: char,
    side: Side,
    start: Square,
    extra_limits: bool,
    landings: &'a mut Vec<Square>,
    jumped_over: &'a mut Vec<Square>,
    enemies: &'a mut BTreeSet<Square>,
}

/// Tries every jump from `at` (the current end of the route, with `during` the board carrying
/// the effects made so far), records each route that may stop there, and goes on.
fn extend_route(
    during: &Position,
    at: Square,
    route: &mut RouteSoFar<'_>,
    routes: &mut Vec<Route>,
) {
    let (piece, side, start) = (route.piece, route.side, route.start);
    // rulings "Jump": "in any of the six directions" (rules: "in any direction, backward
    // included").
    for direction in ALL_DIRECTIONS {
        let over = add(at, direction);
        let land = add(over, direction);
        // "over an adjacent occupied point (any piece, any colour)".
        let Some(over_letter) = during.get(over) else {
            continue;
        };
        if over_letter == EMPTY {
            continue;
        }
        // "to the empty point directly beyond (in the same direction)".
        if !during.is_empty(land) {
            continue;
        }
        // "A route never lands on a point it has already visited (its start counts as visited)".
        if land == start || route.landings.contains(&land) {
            continue;
        }
        // rulings "Jump" (as amended in the worktree): a route "never jumps over the same point
        // twice, and never lands on a point it has jumped over". On this lattice neither can
        // happen anyway: every landing point of a route has the (file, rank) parity of the start,
        // a jumped point never has it, and only one line through a jumped point joins two points
        // of the start's parity, so jumping it again would land on a visited point. The checks
        // are written out all the same, and `reference_trangalla.rs` shows they never bind.
        if route.extra_limits
            && (route.jumped_over.contains(&over) || route.jumped_over.contains(&land))
        {
            continue;
        }
        // "Effects, as each jump is made": a jumped enemy soldier is flipped at once; a jumped
        // enemy king is revealed and removed at once; "Jumping one's own piece does nothing. 'Enemy' is judged
        // at the moment of the jump."
        let mut next = during.clone();
        let mut newly_enemy = false;
        if side_of(over_letter) == Some(side.other()) {
            newly_enemy = route.enemies.insert(over);
            if is_king(over_letter) {
                next.set(over, EMPTY);
            } else {
                next.set(over, soldier_of(side));
            }
        }
        route.landings.push(land);
        route.jumped_over.push(over);
        // "it may not stop on the mover's own home point (White a1, Black e5); it may land there
        // and jump on".
        if land != home(side) {
            routes.push(Route {
                start,
                landings: route.landings.clone(),
                enemies_jumped: route.enemies.clone(),
                jumped_over: route.jumped_over.clone(),
                after: finish(next.clone(), piece, land, side),
            });
        }
        // "landing on the mover's goal point (White e5, Black a1) ends the route: no further
        // jump."
        if land != goal(side) {
            extend_route(&next, land, route, routes);
        }
        route.landings.pop();
        route.jumped_over.pop();
        if newly_enemy {
            route.enemies.remove(&over);
        }
    }
}

/// The key of a route's move: rulings "A move is its start point, its end point and the set of
/// enemy pieces it jumps".
type MoveKey = (Square, Square, BTreeSet<Square>);

/// rulings "A move": "using, among the routes of that move, the one with the fewest jumps; ties
/// go to the route whose list of landing points is smallest, comparing point by point, a point's
/// name ordered by file letter, then rank digit". A point is (file, rank), so comparing the
/// tuples is exactly that order.
fn better_route(candidate: &Route, kept: &Route) -> bool {
    (candidate.landings.len(), &candidate.landings) < (kept.landings.len(), &kept.landings)
}

/// The jump moves of the piece on `start`: one per (start, end, set of enemies jumped), written
/// with its canonical route, with the board after it.
pub fn jump_moves(board: &Position, start: Square) -> Vec<(String, Position)> {
    let mut chosen: BTreeMap<MoveKey, Route> = BTreeMap::new();
    for route in jump_routes(board, start) {
        let key = (route.start, route.end(), route.enemies_jumped.clone());
        match chosen.get(&key) {
            Some(kept) => {
                // Two routes of one move must have the same effect; if not, the move identity of
                // the rulings would be wrong, and the reference says so loudly.
                assert_eq!(
                    kept.after,
                    route.after,
                    "routes {} and {} differ in effect",
                    kept.text(),
                    route.text()
                );
                if better_route(&route, kept) {
                    chosen.insert(key, route);
                }
            }
            None => {
                chosen.insert(key, route);
            }
        }
    }
    chosen
        .into_values()
        .map(|route| (route.text(), route.after))
        .collect()
}

/// The steps of the piece on `start`: rulings "Step": "to an adjacent empty point in one of the
/// mover's two forward or two transverse directions. Written `b2-c2`."
pub fn step_moves(board: &Position, start: Square) -> Vec<(String, Position)> {
    let piece = board.get(start).unwrap_or(EMPTY);
    let Some(side) = side_of(piece) else {
        return Vec::new();
    };
    let mut moves = Vec::new();
    for direction in step_directions(side) {
        let to = add(start, direction);
        if board.is_empty(to) {
            let mut after = board.clone();
            after.set(start, EMPTY);
            // A step onto the goal removes a soldier too (rules: "A soldier that reaches its goal
            // point (its current owner's goal) is removed").
            let after = finish(after, piece, to, side);
            moves.push((format!("{}-{}", square_name(start), square_name(to)), after));
        }
    }
    moves
}

/// Every step and jump of one side, whoever is to move (pass not included).
pub fn steps_and_jumps(board: &Position, side: Side) -> Vec<(String, Position)> {
    let mut moves = Vec::new();
    for point in board.squares() {
        if side_of(board.get(point).unwrap_or(EMPTY)) == Some(side) {
            moves.extend(step_moves(board, point));
            moves.extend(jump_moves(board, point));
        }
    }
    moves
}

/// Why a game has ended (the fast side's reasons: goal, no-kings, no-moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Goal,
    NoKings,
    NoMoves,
}

/// rulings "End (checked in this order by the position alone)": the winner (`None` for a draw)
/// and why; `None` while the game goes on (always during the setup).
pub fn status(state: &State) -> Option<(Option<Side>, End)> {
    if state.setup {
        return None;
    }
    let board = &state.board;
    // "1. A king stands on its owner's goal point: that player has won (reason: goal)."
    let on_goal: Vec<Side> = [Side::White, Side::Black]
        .into_iter()
        .filter(|&side| board.get(goal(side)) == Some(king_of(side)))
        .collect();
    match on_goal.as_slice() {
        [] => {}
        [side] => return Some((Some(*side), End::Goal)),
        _ => {
            // Both kings on their goals cannot arise in play (the first ends the game). The
            // rulings do not say; chosen: the player who has just moved, the only one who can
            // have arrived there on the last move.
            return Some((Some(board.to_move.other()), End::Goal));
        }
    }
    // "2. Neither player has a king (both were removed): draw."
    if points_with(board, 'K').is_empty() && points_with(board, 'k').is_empty() {
        return Some((None, End::NoKings));
    }
    // "3. Neither player has a step or jump: draw (no moves)."
    if steps_and_jumps(board, Side::White).is_empty()
        && steps_and_jumps(board, Side::Black).is_empty()
    {
        return Some((None, End::NoMoves));
    }
    None
}

/// Every legal move once, with the state after it.
pub fn successors(state: &State) -> Vec<(String, State)> {
    let board = &state.board;
    let side = board.to_move;
    if state.setup {
        // rulings "Setup": "The first move is White's setup move `K@x`, naming the point x of
        // White's king (one of White's five start points); then Black's `K@x`; then White
        // plays." "The setup moves are written with an uppercase `K` for both players."
        return start_points(side)
            .into_iter()
            .map(|point| {
                let mut after = board.clone();
                after.set(point, king_of(side));
                after.to_move = side.other();
                let text = format!("K@{}", square_name(point));
                (
                    text,
                    State {
                        board: after,
                        setup: side == Side::White,
                    },
                )
            })
            .collect();
    }
    // README "Conventions": "A finished game has no legal moves."
    if status(state).is_some() {
        return Vec::new();
    }
    let moves = steps_and_jumps(board, side);
    if moves.is_empty() {
        // rulings "Pass": "when the game is not over and the side to move has no step or jump,
        // `pass` is its only move."
        let mut after = board.clone();
        after.to_move = side.other();
        return vec![(
            "pass".to_string(),
            State {
                board: after,
                setup: false,
            },
        )];
    }
    let texts: BTreeSet<&String> = moves.iter().map(|(text, _)| text).collect();
    assert_eq!(texts.len(), moves.len(), "two moves share a text");
    moves
        .into_iter()
        .map(|(text, after)| {
            (
                text,
                State {
                    board: after,
                    setup: false,
                },
            )
        })
        .collect()
}

/// Perft (README "Conventions": a forced pass counts, a finished game has no moves).
pub fn perft(state: &State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let next = successors(state);
    if depth == 1 {
        return next.len() as u64;
    }
    next.iter().map(|(_, after)| perft(after, depth - 1)).sum()
}

/// `None` while the game goes on, else `1-0`, `0-1` or `1/2-1/2` (no score, no ` double`).
pub fn outcome(state: &State) -> Option<String> {
    let (winner, _) = status(state)?;
    Some(result_text(winner).to_string())
}
