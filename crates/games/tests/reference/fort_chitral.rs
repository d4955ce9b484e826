//! Fort Chitral, from `fort-chitral.md` and the rulings (tests/reference/rulings.md) "Fort Chitral".

use std::collections::{BTreeSet, VecDeque};

use super::{
    move_text, parse_position, result_text, side_of_letter, Position, Side, Square, EMPTY,
};

/// "18x18 squares ..., files a-r, ranks 1-18" (fort-chitral.md "Board and setup").
pub const SIZE: i32 = 18;

/// "P piece" (fort-chitral.md "Position string").
pub const LETTERS: &str = "Pp";

/// "The Fort is the central 2x2: i9, j9, i10, j10" (files i, j are 8, 9 counted from 0).
pub const FORT: [Square; 4] = [(8, 8), (9, 8), (8, 9), (9, 9)];

/// All 8 directions: "Steps and jumps are in 8 directions in every ruleset" (the rulings (tests/reference/rulings.md)).
pub const ALL_DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Ranks and files only, for `fort-chitral-orthogonal` captures.
pub const ORTHOGONAL_DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// The options of the three rulesets (the rulings (tests/reference/rulings.md) "Rulesets").
#[derive(Clone, Copy, Debug)]
pub struct FortChitral {
    /// `fort-chitral-orthogonal`: "captures only along ranks and files".
    pub orthogonal_captures_only: bool,
    /// Off in `fort-chitral-no-loss-at-three`: "A player with fewer than four pieces loses".
    pub loss_below_four: bool,
}

/// "White: all 18 squares of rank 1. Black: all 18 squares of rank 18".
pub fn start() -> Position {
    let mut position = Position::empty(SIZE, SIZE, Side::White);
    for file in 0..SIZE {
        position.set((file, 0), 'P');
        position.set((file, SIZE - 1), 'p');
    }
    position
}

pub fn parse(text: &str) -> Result<Position, String> {
    parse_position(text, SIZE, SIZE, LETTERS)
}

fn side_on(position: &Position, square: Square) -> Option<Side> {
    match position.get(square) {
        Some(EMPTY) | None => None,
        Some(letter) => side_of_letter(letter),
    }
}

fn count(position: &Position, side: Side) -> usize {
    position
        .squares()
        .into_iter()
        .filter(|&square| side_on(position, square) == Some(side))
        .count()
}

impl FortChitral {
    fn capture_directions(&self) -> &'static [(i32, i32)] {
        if self.orthogonal_captures_only {
            &ORTHOGONAL_DIRECTIONS
        } else {
            &ALL_DIRECTIONS
        }
    }

    /// The end squares the piece on `from` can reach (the rulings (tests/reference/rulings.md) "A move"): one step to an adjacent
    /// empty square, or a chain of one or more jumps, each over an adjacent OWN piece to the empty
    /// square directly beyond; a chain never lands on a square twice nor on its start square; any
    /// prefix of a chain is a move.
    pub fn destinations(&self, position: &Position, from: Square) -> BTreeSet<Square> {
        let mut ends = BTreeSet::new();
        let Some(side) = side_on(position, from) else {
            return ends;
        };
        // The moving piece has left its square: it is not a piece to jump over.
        let mut lifted = position.clone();
        lifted.set(from, EMPTY);
        // Steps.
        for (df, dr) in ALL_DIRECTIONS {
            let to = (from.0 + df, from.1 + dr);
            if lifted.is_empty(to) {
                ends.insert(to);
            }
        }
        // Jump chains: every square a chain can reach without landing twice anywhere. The board
        // does not change during a chain, so a breadth-first search that never lands on a square
        // it has seen (the start included) finds exactly these squares.
        let mut landed: BTreeSet<Square> = BTreeSet::new();
        landed.insert(from);
        let mut waiting = VecDeque::new();
        waiting.push_back(from);
        while let Some(at) = waiting.pop_front() {
            for (df, dr) in ALL_DIRECTIONS {
                let over = (at.0 + df, at.1 + dr);
                let beyond = (at.0 + 2 * df, at.1 + 2 * dr);
                if side_on(&lifted, over) == Some(side)
                    && lifted.is_empty(beyond)
                    && !landed.contains(&beyond)
                {
                    landed.insert(beyond);
                    ends.insert(beyond);
                    waiting.push_back(beyond);
                }
            }
        }
        ends
    }

    /// The position after the piece on `from` moves to `to`, with its custodian captures (the rulings (tests/reference/rulings.md)):
    /// "for each capture direction d: if the square next to the end square in direction d holds an
    /// enemy piece and the square beyond it holds a piece of the mover, that enemy piece is removed
    /// (all directions at once). Nothing else is captured."
    pub fn after_move(&self, position: &Position, from: Square, to: Square) -> Position {
        let piece = position.get(from).unwrap_or(EMPTY);
        let side = position.to_move;
        let mut after = position.clone();
        after.set(from, EMPTY);
        after.set(to, piece);
        let mut captured = Vec::new();
        for &(df, dr) in self.capture_directions() {
            let next = (to.0 + df, to.1 + dr);
            let beyond = (to.0 + 2 * df, to.1 + 2 * dr);
            if side_on(&after, next) == Some(side.other()) && side_on(&after, beyond) == Some(side)
            {
                captured.push(next);
            }
        }
        for square in captured {
            after.set(square, EMPTY);
        }
        after.to_move = side.other();
        after
    }

    /// the rulings (tests/reference/rulings.md) "Status", first that applies: `Some(Some(winner))`, `Some(None)` for a draw, `None`
    /// while the game goes on.
    pub fn status(&self, position: &Position) -> Option<Option<Side>> {
        // 1. A player occupies all four Fort squares: that player wins.
        for side in [Side::White, Side::Black] {
            if FORT
                .iter()
                .all(|&square| side_on(position, square) == Some(side))
            {
                return Some(Some(side));
            }
        }
        let white = count(position, Side::White);
        let black = count(position, Side::Black);
        // 2. Both players have fewer than four pieces: draw.
        if white < 4 && black < 4 {
            return Some(None);
        }
        // 3. (not in no-loss-at-three) A player with fewer than four pieces loses.
        if self.loss_below_four {
            if white < 4 {
                return Some(Some(Side::Black));
            }
            if black < 4 {
                return Some(Some(Side::White));
            }
        }
        None
    }

    /// The legal moves: none once the game is over; `pass` alone when the side to move has no
    /// move (the rulings (tests/reference/rulings.md)). Moves are always written `FROM-TO` (captures are not written).
    pub fn successors(&self, position: &Position) -> Vec<(String, Position)> {
        if self.status(position).is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        for from in position.squares() {
            if side_on(position, from) != Some(position.to_move) {
                continue;
            }
            for to in self.destinations(position, from) {
                moves.push((
                    move_text(from, to, false),
                    self.after_move(position, from, to),
                ));
            }
        }
        if moves.is_empty() {
            let mut after = position.clone();
            after.to_move = position.to_move.other();
            moves.push(("pass".to_string(), after));
        }
        moves
    }

    pub fn outcome(&self, position: &Position) -> Option<String> {
        let winner = self.status(position)?;
        Some(result_text(winner).to_string())
    }
}
