//! Kamelen, from `kamelen.md` and the rulings (tests/reference/rulings.md) "Kamelen".

use super::{
    move_text, parse_position, result_text, side_of_letter, Position, Side, Square, EMPTY,
};

/// "Files a-k" (kamelen.md "Board").
pub const WIDTH: i32 = 11;

/// "C camel, D dromedary, X rock (neutral; `x` is accepted too, `X` is printed)".
pub const LETTERS: &str = "CDXcdx";

pub const ROCK: char = 'X';

/// A Kamelen board: 11 files, and 11, 12 or 13 ranks.
#[derive(Clone, Copy, Debug)]
pub struct Kamelen {
    pub height: i32,
}

/// The side of an animal; `None` for an empty square or a rock (rocks are neutral).
pub fn animal_side(letter: char) -> Option<Side> {
    if letter == EMPTY || letter == ROCK {
        None
    } else {
        side_of_letter(letter)
    }
}

pub fn is_camel(letter: char) -> bool {
    letter == 'C' || letter == 'c'
}

pub fn is_dromedary(letter: char) -> bool {
    letter == 'D' || letter == 'd'
}

/// the rulings (tests/reference/rulings.md): "colour = (file index + rank index) mod 2".
pub fn colour(square: Square) -> i32 {
    (square.0 + square.1) % 2
}

/// The camel paths from a square: each is (the two squares passed, the end square).
/// the rulings (tests/reference/rulings.md): "(1,3) leap, stepped: from (f, r) to e.g. (f±1, r+3) passing (f, r+1), (f, r+2); all 8
/// orientations (2 orthogonal squares in one of 4 directions, then one diagonal step that moves
/// further in that direction and one file/rank sideways)".
pub fn camel_paths(from: Square) -> Vec<([Square; 2], Square)> {
    let (f, r) = from;
    let mut paths = Vec::new();
    for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
        let passed = [(f + df, r + dr), (f + 2 * df, r + 2 * dr)];
        // The sideways step is perpendicular to the direction: (dr, df) and its negation.
        for sideways in [1, -1] {
            let end = (f + 3 * df + sideways * dr, r + 3 * dr + sideways * df);
            paths.push((passed, end));
        }
    }
    paths
}

/// The dromedary paths from a square: each is (the two squares passed, the end square).
/// the rulings (tests/reference/rulings.md): "2 diagonal squares then one orthogonal step further outward: from (f, r) to (f+3, r+2)
/// or (f+2, r+3) passing (f+1, r+1), (f+2, r+2); all 8 orientations".
pub fn dromedary_paths(from: Square) -> Vec<([Square; 2], Square)> {
    let (f, r) = from;
    let mut paths = Vec::new();
    for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let passed = [(f + df, r + dr), (f + 2 * df, r + 2 * dr)];
        paths.push((passed, (f + 3 * df, r + 2 * dr)));
        paths.push((passed, (f + 2 * df, r + 3 * dr)));
    }
    paths
}

impl Kamelen {
    /// the rulings (tests/reference/rulings.md): "South/White's home-field is f1, North/Black's is f-N".
    pub fn home_field(&self, side: Side) -> Square {
        match side {
            Side::White => (5, 0),
            Side::Black => (5, self.height - 1),
        }
    }

    /// kamelen.md "Pieces and start": South has dromedaries a1-e1 and g1-k1, camels b2-e2 and
    /// g2-j2, rocks c4 f4 i4; North is the mirror image across the middle (rank r -> N+1-r, same
    /// files).
    pub fn start(&self) -> Position {
        let mut position = Position::empty(WIDTH, self.height, Side::White);
        let mut south: Vec<(Square, char)> = Vec::new();
        for file in [0, 1, 2, 3, 4, 6, 7, 8, 9, 10] {
            south.push(((file, 0), 'D'));
        }
        for file in [1, 2, 3, 4, 6, 7, 8, 9] {
            south.push(((file, 1), 'C'));
        }
        for file in [2, 5, 8] {
            south.push(((file, 3), ROCK));
        }
        for ((file, rank), letter) in south {
            position.set((file, rank), letter);
            let mirrored = (file, self.height - 1 - rank);
            let north_letter = if letter == ROCK {
                ROCK
            } else {
                letter.to_ascii_lowercase()
            };
            position.set(mirrored, north_letter);
        }
        position
    }

    /// Reads a position string; a lowercase `x` rock is read as `X`, so it prints as `X`.
    pub fn parse(&self, text: &str) -> Result<Position, String> {
        let mut position = parse_position(text, WIDTH, self.height, LETTERS)?;
        for cell in position.cells.iter_mut() {
            if *cell == 'x' {
                *cell = ROCK;
            }
        }
        Ok(position)
    }

    /// The moves of the animal on `from`, with the position after each. kamelen.md "Moves" and
    /// the rulings (tests/reference/rulings.md): passed squares must be empty (no animal of either side, no rock); the end square must
    /// be empty or hold an enemy animal (captured); never a rock.
    pub fn piece_moves(&self, position: &Position, from: Square) -> Vec<(String, Position)> {
        let mut moves = Vec::new();
        let Some(piece) = position.get(from) else {
            return moves;
        };
        let Some(side) = animal_side(piece) else {
            return moves;
        };
        let paths = if is_camel(piece) {
            camel_paths(from)
        } else if is_dromedary(piece) {
            dromedary_paths(from)
        } else {
            Vec::new()
        };
        for (passed, end) in paths {
            if !position.is_empty(passed[0]) || !position.is_empty(passed[1]) {
                continue;
            }
            let Some(target) = position.get(end) else {
                continue; // off the board
            };
            if target == ROCK {
                continue;
            }
            let captures = target != EMPTY;
            if captures && animal_side(target) == Some(side) {
                continue;
            }
            let mut after = position.clone();
            after.set(from, EMPTY);
            after.set(end, piece);
            after.to_move = side.other();
            moves.push((move_text(from, end, captures), after));
        }
        moves
    }

    /// A player's "able" camels: its camels standing on a square of the same colour as the ENEMY
    /// home-field (the rulings (tests/reference/rulings.md)).
    pub fn able_camels(&self, position: &Position, side: Side) -> Vec<Square> {
        let enemy_home_colour = colour(self.home_field(side.other()));
        position
            .squares()
            .into_iter()
            .filter(|&square| {
                let content = position.get(square).unwrap_or(EMPTY);
                is_camel(content)
                    && animal_side(content) == Some(side)
                    && colour(square) == enemy_home_colour
            })
            .collect()
    }

    /// True when `side` has a camel on the enemy home-field.
    fn camel_on_enemy_home(&self, position: &Position, side: Side) -> bool {
        let content = position.get(self.home_field(side.other())).unwrap_or(EMPTY);
        is_camel(content) && animal_side(content) == Some(side)
    }

    /// the rulings (tests/reference/rulings.md) "Status", first that applies: the winner and whether it is a double win.
    pub fn status(&self, position: &Position) -> Option<(Side, bool)> {
        let to_move = position.to_move;
        let just_moved = to_move.other();
        // 1. The player who has just moved has a camel on the enemy home-field: wins double.
        if self.camel_on_enemy_home(position, just_moved) {
            return Some((just_moved, true));
        }
        // 2. The player to move has a camel on the enemy home-field: wins double.
        if self.camel_on_enemy_home(position, to_move) {
            return Some((to_move, true));
        }
        // 3. The player to move has no able camels left: the other player wins.
        if self.able_camels(position, to_move).is_empty() {
            return Some((just_moved, false));
        }
        // 4. The player who has just moved has no able camels left: the player to move wins.
        if self.able_camels(position, just_moved).is_empty() {
            return Some((to_move, false));
        }
        None
    }

    /// The legal moves: none once the game is over; `pass` alone when the side to move has no
    /// move (the rulings (tests/reference/rulings.md)).
    pub fn successors(&self, position: &Position) -> Vec<(String, Position)> {
        if self.status(position).is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        for square in position.squares() {
            let content = position.get(square).unwrap_or(EMPTY);
            if animal_side(content) == Some(position.to_move) {
                moves.extend(self.piece_moves(position, square));
            }
        }
        if moves.is_empty() {
            let mut after = position.clone();
            after.to_move = position.to_move.other();
            moves.push(("pass".to_string(), after));
        }
        moves
    }

    /// `None` while the game goes on, else e.g. `1-0` or `0-1 double`.
    pub fn outcome(&self, position: &Position) -> Option<String> {
        let (winner, double) = self.status(position)?;
        let result = result_text(Some(winner));
        Some(if double {
            format!("{result} double")
        } else {
            result.to_string()
        })
    }
}
