//! Schada, from `schada.md`, `schada-board.txt` and the rulings (tests/reference/rulings.md) "Schada".

use std::collections::HashMap;

use super::{
    move_text, parse_position, parse_square, result_text, side_of_letter, square_name, Position,
    Side, Square, EMPTY,
};

/// The shipped reconstruction of the board markings, a byte-for-byte copy of
/// `/work/shared/rules/schada-board.txt`.
pub const DEFAULT_BOARD: &str = include_str!("schada-board.txt");

/// "8 rows of 8 cells" (schada.md "Position string").
pub const SIZE: i32 = 8;

/// "F Field Officer, O Officer, P pawn" (schada.md "Position string").
pub const LETTERS: &str = "FOPfop";

/// The unit steps of a board file (the rulings (tests/reference/rulings.md): N NE E SE S SW W NW), as (file, rank) offsets with N
/// towards rank 8.
pub fn step_offset(word: &str) -> Option<(i32, i32)> {
    // the rulings (tests/reference/rulings.md): steps are case-insensitive.
    match word.to_ascii_uppercase().as_str() {
        "N" => Some((0, 1)),
        "NE" => Some((1, 1)),
        "E" => Some((1, 0)),
        "SE" => Some((1, -1)),
        "S" => Some((0, -1)),
        "SW" => Some((-1, -1)),
        "W" => Some((-1, 0)),
        "NW" => Some((-1, 1)),
        _ => None,
    }
}

/// The board markings: for every square, its paths, each path the list of squares it passes
/// through in order; the last one is the path's end.
#[derive(Clone, Debug)]
pub struct Board {
    pub paths: HashMap<Square, Vec<Vec<Square>>>,
}

impl Board {
    /// Reads a board file (the rulings (tests/reference/rulings.md) "Schada", "Board file format"). Every error names its line.
    pub fn parse(text: &str) -> Result<Board, String> {
        // The square of each line read, with its line number and its paths as lists of steps.
        let mut listed: HashMap<Square, Vec<Vec<(i32, i32)>>> = HashMap::new();
        let mut order: Vec<Square> = Vec::new();
        let mut last_line = 0;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            last_line = line;
            // "`#` starts a comment (to end of line); blank lines ignored".
            let content = match raw.find('#') {
                Some(at) => &raw[..at],
                None => raw,
            };
            let content = content.trim();
            if content.is_empty() {
                continue;
            }
            // "unreadable line": anything but square names, step names, ';' and spaces.
            if !content
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c.is_whitespace() || c == ';')
            {
                return Err(format!("line {line}: unreadable line {content:?}"));
            }
            // "each other line is `SQUARE PATH ; PATH ; ...`".
            let (square_word, rest) = match content.find(char::is_whitespace) {
                Some(at) => (&content[..at], &content[at..]),
                None => (content, ""),
            };
            if square_word.contains(';') {
                return Err(format!(
                    "line {line}: unreadable line {content:?} (expected a square, then its paths)"
                ));
            }
            let Some(square) = parse_square(square_word, SIZE, SIZE) else {
                return Err(format!("line {line}: unknown square {square_word:?}"));
            };
            if listed.contains_key(&square) {
                return Err(format!("line {line}: duplicate square {square_word}"));
            }
            // "a square with no paths".
            if rest.trim().is_empty() {
                return Err(format!("line {line}: square {square_word} has no paths"));
            }
            let mut paths = Vec::new();
            for path_text in rest.split(';') {
                let words: Vec<&str> = path_text.split_whitespace().collect();
                // "empty path".
                if words.is_empty() {
                    return Err(format!("line {line}: empty path on {square_word}"));
                }
                let mut steps = Vec::new();
                for word in &words {
                    match step_offset(word) {
                        Some(step) => steps.push(step),
                        None => return Err(format!("line {line}: unknown step {word:?}")),
                    }
                }
                // Walk the path: "a step off the board", "a path ending on its own start".
                // the rulings (tests/reference/rulings.md): "A path may pass over its own start square".
                let mut at = square;
                for &(df, dr) in &steps {
                    at = (at.0 + df, at.1 + dr);
                    if at.0 < 0 || at.0 >= SIZE || at.1 < 0 || at.1 >= SIZE {
                        return Err(format!(
                            "line {line}: path {:?} of {square_word} steps off the board",
                            path_text.trim()
                        ));
                    }
                }
                if at == square {
                    return Err(format!(
                        "line {line}: path {:?} of {square_word} ends on its own start",
                        path_text.trim()
                    ));
                }
                paths.push(steps);
            }
            listed.insert(square, paths);
            order.push(square);
        }

        // "A file lists exactly the 32 squares of ranks 1-4 ..., or all 64 squares".
        let only_bottom_half = order.iter().all(|&(_, rank)| rank < 4);
        let needed_ranks = if only_bottom_half { 4 } else { SIZE };
        for rank in 0..needed_ranks {
            for file in 0..SIZE {
                if !listed.contains_key(&(file, rank)) {
                    // A missing square has no line of its own: name the last line of the file,
                    // where the reader notices it.
                    return Err(format!(
                        "line {}: missing square {}",
                        last_line.max(1),
                        square_name((file, rank))
                    ));
                }
            }
        }

        // Turn the steps into squares; with 32 squares, add the 180-degree rotation:
        // "square (f, r) -> (9-f, 9-r), every step reversed" (1-based; (7-f, 7-r) counted from 0).
        let mut board = Board {
            paths: HashMap::new(),
        };
        for &square in &order {
            let steps = &listed[&square];
            board.paths.insert(square, walk_all(square, steps, 1));
            if only_bottom_half {
                let rotated = (SIZE - 1 - square.0, SIZE - 1 - square.1);
                board.paths.insert(rotated, walk_all(rotated, steps, -1));
            }
        }
        Ok(board)
    }

    /// The paths of a square (empty for a square off the board).
    pub fn paths_of(&self, square: Square) -> &[Vec<Square>] {
        match self.paths.get(&square) {
            Some(paths) => paths,
            None => &[],
        }
    }
}

/// The squares each path passes through, stepping from `start`; `sign` -1 reverses every step.
fn walk_all(start: Square, paths: &[Vec<(i32, i32)>], sign: i32) -> Vec<Vec<Square>> {
    let mut walked = Vec::new();
    for steps in paths {
        let mut at = start;
        let mut squares = Vec::new();
        for &(df, dr) in steps {
            at = (at.0 + sign * df, at.1 + sign * dr);
            squares.push(at);
        }
        walked.push(squares);
    }
    walked
}

/// Field Officers and Officers are the "high pieces" (schada.md "Pieces and setup").
pub fn is_high(letter: char) -> bool {
    matches!(letter, 'F' | 'O' | 'f' | 'o')
}

pub fn is_field_officer(letter: char) -> bool {
    matches!(letter, 'F' | 'f')
}

/// "Base line: a player's own first rank": White rank 1, Black rank 8 (the rulings (tests/reference/rulings.md)).
pub fn base_rank(side: Side) -> i32 {
    match side {
        Side::White => 0,
        Side::Black => SIZE - 1,
    }
}

/// "goal line: the far rank": White rank 8, Black rank 1 (the rulings (tests/reference/rulings.md)).
pub fn goal_rank(side: Side) -> i32 {
    match side {
        Side::White => SIZE - 1,
        Side::Black => 0,
    }
}

/// "Start: `ofofofof/pppppppp/8/8/8/8/PPPPPPPP/FOFOFOFO w`" (schada.md).
pub fn start() -> Position {
    let mut position = Position::empty(SIZE, SIZE, Side::White);
    // White: FO a1 c1 e1 g1, O b1 d1 f1 h1, pawns a2-h2.
    for file in 0..SIZE {
        let white_high = if file % 2 == 0 { 'F' } else { 'O' };
        position.set((file, 0), white_high);
        position.set((file, 1), 'P');
        // Black: the 180-degree rotation: FO h8 f8 d8 b8, O g8 e8 c8 a8, pawns a7-h7.
        let rotated_file = SIZE - 1 - file;
        position.set((rotated_file, SIZE - 1), white_high.to_ascii_lowercase());
        position.set((rotated_file, SIZE - 2), 'p');
    }
    position
}

pub fn parse(text: &str) -> Result<Position, String> {
    parse_position(text, SIZE, SIZE, LETTERS)
}

/// The moves of the piece on `from`, whoever is to move, with the position after each; the
/// game's end is not looked at here. the rulings (tests/reference/rulings.md) "Moves":
/// - along one path of the square to its end (schada.md: "it may not stop early");
/// - every square before the end must be empty, except that a Field Officer may pass over its own
///   pieces (never over enemy pieces); the start square is empty once the piece has left;
/// - the end square is empty or holds an enemy piece (captured), but an enemy high piece on its
///   own goal line cannot be captured;
/// - a high piece not on its own base line may not end a move on its base line;
/// - a high piece on its own goal line may only make moves that end on the goal line.
pub fn piece_moves(board: &Board, position: &Position, from: Square) -> Vec<(String, Position)> {
    let mut moves = Vec::new();
    let Some(piece) = position.get(from) else {
        return moves;
    };
    let Some(side) = side_of_letter(piece) else {
        return moves;
    };
    // The piece leaves its square first ("it is empty once the piece has left").
    let mut lifted = position.clone();
    lifted.set(from, EMPTY);
    for path in board.paths_of(from) {
        let Some((&end, before)) = path.split_last() else {
            continue;
        };
        let mut passable = true;
        for &square in before {
            let content = lifted.get(square).unwrap_or(EMPTY);
            if content == EMPTY {
                continue;
            }
            if is_field_officer(piece) && side_of_letter(content) == Some(side) {
                continue;
            }
            passable = false;
        }
        if !passable {
            continue;
        }
        let target = lifted.get(end).unwrap_or(EMPTY);
        let captures = target != EMPTY;
        if captures {
            let target_side = side_of_letter(target);
            // "No piece ever lands on a friendly piece."
            if target_side == Some(side) {
                continue;
            }
            // "an enemy HIGH piece standing on ITS OWN goal line cannot be captured".
            if is_high(target) && end.1 == goal_rank(side.other()) {
                continue;
            }
        }
        if is_high(piece) {
            // "a high piece not on its own base line may not end a move on its base line".
            if from.1 != base_rank(side) && end.1 == base_rank(side) {
                continue;
            }
            // "a high piece on its own goal line may only make moves that end on the goal line".
            if from.1 == goal_rank(side) && end.1 != goal_rank(side) {
                continue;
            }
        }
        let mut after = lifted.clone();
        after.set(end, piece);
        after.to_move = side.other();
        moves.push((move_text(from, end, captures), after));
    }
    moves
}

/// Every move of the side to move, ignoring whether the game is over.
pub fn all_moves(board: &Board, position: &Position) -> Vec<(String, Position)> {
    let mut moves = Vec::new();
    for square in position.squares() {
        let content = position.get(square).unwrap_or(EMPTY);
        if content != EMPTY && side_of_letter(content) == Some(position.to_move) {
            moves.extend(piece_moves(board, position, square));
        }
    }
    moves
}

/// The squares of a side's high pieces.
fn high_pieces(position: &Position, side: Side) -> Vec<Square> {
    position
        .squares()
        .into_iter()
        .filter(|&square| {
            let content = position.get(square).unwrap_or(EMPTY);
            is_high(content) && side_of_letter(content) == Some(side)
        })
        .collect()
}

/// the rulings (tests/reference/rulings.md) status 1: "A player all of whose high pieces (possibly none) stand on that player's goal
/// line".
pub fn all_high_on_goal(position: &Position, side: Side) -> bool {
    high_pieces(position, side)
        .iter()
        .all(|&(_, rank)| rank == goal_rank(side))
}

/// the rulings (tests/reference/rulings.md) status 2: "A player with at least one high piece off the goal line none of which could
/// move if all that player's OTHER pieces were lifted off the board (enemy pieces stay; the
/// high-piece restrictions and the uncapturable enemy goal-line pieces still apply)".
pub fn blocked(board: &Board, position: &Position, side: Side) -> bool {
    let off_goal: Vec<Square> = high_pieces(position, side)
        .into_iter()
        .filter(|&(_, rank)| rank != goal_rank(side))
        .collect();
    if off_goal.is_empty() {
        return false;
    }
    for &square in &off_goal {
        // Lift every other piece of this side.
        let mut alone = position.clone();
        for other in position.squares() {
            let content = position.get(other).unwrap_or(EMPTY);
            if other != square && content != EMPTY && side_of_letter(content) == Some(side) {
                alone.set(other, EMPTY);
            }
        }
        if !piece_moves(board, &alone, square).is_empty() {
            return false;
        }
    }
    true
}

/// the rulings (tests/reference/rulings.md) "Status", first that applies (3 and 4 need history; perft and the reference ignore them):
/// (1) a player has all high pieces on the goal line, (2) a player is blocked, (5) the side to
/// move has no legal move. Every ending is scored the same way, so the order does not matter here.
pub fn is_over(board: &Board, position: &Position) -> bool {
    for side in [Side::White, Side::Black] {
        if all_high_on_goal(position, side) {
            return true;
        }
        if blocked(board, position, side) {
            return true;
        }
    }
    all_moves(board, position).is_empty()
}

/// The legal moves: none once the game is over.
pub fn successors(board: &Board, position: &Position) -> Vec<(String, Position)> {
    if is_over(board, position) {
        return Vec::new();
    }
    all_moves(board, position)
}

/// schada.md "Scoring" / the rulings (tests/reference/rulings.md): goal-line points (FO 2, O 1 on own goal line).
pub fn goal_points(position: &Position, side: Side) -> i32 {
    high_pieces(position, side)
        .iter()
        .filter(|&&(_, rank)| rank == goal_rank(side))
        .map(|&square| high_value(position, square))
        .sum()
}

/// "off-goal material (FO 2, O 1 off the goal line)".
pub fn off_goal_material(position: &Position, side: Side) -> i32 {
    high_pieces(position, side)
        .iter()
        .filter(|&&(_, rank)| rank != goal_rank(side))
        .map(|&square| high_value(position, square))
        .sum()
}

/// "advancement x7 (for each high piece off the goal line: ranks advanced from its base line x 2
/// for a FO, x 1 for an O)".
pub fn advancement_times_seven(position: &Position, side: Side) -> i32 {
    high_pieces(position, side)
        .iter()
        .filter(|&&(_, rank)| rank != goal_rank(side))
        .map(|&square| {
            let advanced = (square.1 - base_rank(side)).abs();
            advanced * high_value(position, square)
        })
        .sum()
}

/// FO 2, O 1.
fn high_value(position: &Position, square: Square) -> i32 {
    if is_field_officer(position.get(square).unwrap_or(EMPTY)) {
        2
    } else {
        1
    }
}

/// The winner by the scoring rules: goal-line points; tie -> off-goal material; tie ->
/// advancement; tie -> draw (`None`).
pub fn score_winner(position: &Position) -> Option<Side> {
    let comparisons = [
        (
            goal_points(position, Side::White),
            goal_points(position, Side::Black),
        ),
        (
            off_goal_material(position, Side::White),
            off_goal_material(position, Side::Black),
        ),
        (
            advancement_times_seven(position, Side::White),
            advancement_times_seven(position, Side::Black),
        ),
    ];
    for (white, black) in comparisons {
        if white > black {
            return Some(Side::White);
        }
        if black > white {
            return Some(Side::Black);
        }
    }
    None
}

/// `None` while the game goes on, else the result and the goal-line points, e.g. `1-0 5-3`.
pub fn outcome(board: &Board, position: &Position) -> Option<String> {
    if !is_over(board, position) {
        return None;
    }
    Some(format!(
        "{} {}-{}",
        result_text(score_winner(position)),
        goal_points(position, Side::White),
        goal_points(position, Side::Black)
    ))
}

/// The destinations of the piece on `from` (helper for tests).
pub fn destinations(board: &Board, position: &Position, from: Square) -> Vec<String> {
    // A Schada move text is FROM, then `-` or `x`, then TO; every square name has two letters.
    let mut names: Vec<String> = piece_moves(board, position, from)
        .into_iter()
        .map(|(text, _)| text[3..].to_string())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The board file with all 64 squares written out (the rotation applied), for tests.
pub fn full_board_text(board: &Board) -> String {
    let mut text = String::new();
    for rank in 0..SIZE {
        for file in 0..SIZE {
            let square = (file, rank);
            let mut paths = Vec::new();
            for path in board.paths_of(square) {
                let mut at = square;
                let mut steps = Vec::new();
                for &next in path {
                    let step = match (next.0 - at.0, next.1 - at.1) {
                        (0, 1) => "N",
                        (1, 1) => "NE",
                        (1, 0) => "E",
                        (1, -1) => "SE",
                        (0, -1) => "S",
                        (-1, -1) => "SW",
                        (-1, 0) => "W",
                        _ => "NW",
                    };
                    steps.push(step);
                    at = next;
                }
                paths.push(steps.join(" "));
            }
            text.push_str(&format!("{} {}\n", square_name(square), paths.join(" ; ")));
        }
    }
    text
}
