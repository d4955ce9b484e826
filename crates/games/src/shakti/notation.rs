//! Shakti's notation: moves (`b2-b4`, `b2-b4(b3)`, `d2xc3`, `Kd2xc3`, `pass`) and position
//! strings (`-5-/1w1k1w1/7/7/7/1W1K1W1/-5- w`).

use denkmeter_core::{ByPlayer, Cell, Grid, GridCell, MoveError, Player, PositionError};

use super::movegen;
use super::state::{bit, Piece, State, NO_SQUARE, SIZE};
use super::Move;

/// The name of square `sq`, e.g. `b2`.
pub(crate) fn square_name(sq: u8) -> String {
    let file = (b'a' + sq % SIZE as u8) as char;
    let rank = sq / SIZE as u8 + 1;
    format!("{file}{rank}")
}

/// The move in notation: `pass`, `b2-b4` (a two-step move's removed tile is implied) or `d2xc3`
/// for a king's capture.
pub(crate) fn move_text(state: &State, mv: Move) -> String {
    if mv.is_pass() {
        return "pass".to_string();
    }
    let separator = if state.warriors[!state.to_move] & bit(mv.to) != 0 {
        'x'
    } else {
        '-'
    };
    format!("{}{separator}{}", square_name(mv.from), square_name(mv.to))
}

/// A move as read, before it is looked for among the legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Written {
    Pass,
    Step {
        piece: Option<Piece>,
        from: u8,
        capture: bool,
        to: u8,
        removed: Option<u8>,
    },
}

/// A small reader over the bytes of a move's text.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, wanted: impl Fn(u8) -> bool) -> Option<u8> {
        let b = self.peek().filter(|&b| wanted(b))?;
        self.at += 1;
        Some(b)
    }

    fn square(&mut self, text: &str, what: &str) -> Result<u8, MoveError> {
        let file = self
            .eat(|b| b.is_ascii_alphabetic())
            .ok_or_else(|| MoveError::syntax(text, format!("expected the {what} square")))?;
        let rank = self
            .eat(|b| b.is_ascii_digit())
            .ok_or_else(|| MoveError::syntax(text, format!("expected the {what} square's rank")))?;
        let file = file.to_ascii_lowercase();
        if !(b'a'..=b'g').contains(&file) || !(b'1'..=b'7').contains(&rank) {
            return Err(MoveError::syntax(
                text,
                format!(
                    "{}{} is not a square of the board (a1 to g7)",
                    file as char, rank as char
                ),
            ));
        }
        if self.peek().is_some_and(|b| b.is_ascii_digit()) {
            return Err(MoveError::syntax(text, "a rank has one digit (1 to 7)"));
        }
        Ok(file - b'a' + SIZE as u8 * (rank - b'1'))
    }
}

/// Reads a move's text without looking at the position.
fn read(text: &str) -> Result<Written, MoveError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(MoveError::syntax(text, "the move is empty"));
    }
    if trimmed.eq_ignore_ascii_case("pass") {
        return Ok(Written::Pass);
    }
    let mut r = Reader {
        bytes: trimmed.as_bytes(),
        at: 0,
    };
    let piece = match r.peek() {
        Some(b'K' | b'k') => Some(Piece::King),
        Some(b'W' | b'w') => Some(Piece::Warrior),
        _ => None,
    };
    if piece.is_some() {
        r.at += 1;
    }
    let from = r.square(text, "starting")?;
    let capture = match r.eat(|b| matches!(b, b'-' | b'x' | b'X')) {
        Some(b'-') => false,
        Some(_) => true,
        None => {
            return Err(MoveError::syntax(
                text,
                "expected `-` or `x` after the starting square",
            ))
        }
    };
    let to = r.square(text, "destination")?;
    let removed = if r.eat(|b| b == b'(').is_some() {
        let sq = r.square(text, "removed tile's")?;
        if r.eat(|b| b == b')').is_none() {
            return Err(MoveError::syntax(
                text,
                "expected `)` after the removed tile",
            ));
        }
        Some(sq)
    } else {
        None
    };
    let _ = r.eat(|b| matches!(b, b'+' | b'#'));
    if r.at != r.bytes.len() {
        return Err(MoveError::syntax(
            text,
            format!("unexpected {:?} after the move", &trimmed[r.at..]),
        ));
    }
    Ok(Written::Step {
        piece,
        from,
        capture,
        to,
        removed,
    })
}

/// Reads a move and finds it among the legal moves of `state`.
pub(crate) fn parse_move(state: &State, text: &str) -> Result<Move, MoveError> {
    let written = read(text)?;
    let mut moves = Vec::new();
    movegen::legal_moves(state, &mut moves);
    let side = state.to_move;
    let Written::Step {
        piece,
        from,
        capture,
        to,
        removed,
    } = written
    else {
        return if moves.contains(&Move::PASS) {
            Ok(Move::PASS)
        } else if moves.is_empty() {
            Err(MoveError::illegal(text, "the game is over"))
        } else {
            Err(MoveError::illegal(
                text,
                format!("{side} has a move and may not pass"),
            ))
        };
    };
    let (from_name, to_name) = (square_name(from), square_name(to));
    let owned = match state.piece_at(Cell(u16::from(from))) {
        Some((owner, kind)) if owner == side => kind,
        _ => {
            return Err(MoveError::illegal(
                text,
                format!("{side} has no piece on {from_name}"),
            ))
        }
    };
    if let Some(piece) = piece.filter(|&p| p != owned) {
        return Err(MoveError::illegal(
            text,
            format!(
                "{from_name} holds a {}, not a {}",
                owned.name(),
                piece.name()
            ),
        ));
    }
    let Some(mv) = moves.iter().copied().find(|m| m.from == from && m.to == to) else {
        let reason = if moves.contains(&Move::PASS) {
            format!("{side} cannot move and must pass")
        } else if moves.is_empty() {
            "the game is over".to_string()
        } else if state.is_in_check(side) && owned == Piece::Warrior {
            format!("{side} is in check and only the king may move")
        } else {
            format!("the {} on {from_name} cannot go to {to_name}", owned.name())
        };
        return Err(MoveError::illegal(text, reason));
    };
    let captures = state.warriors[!side] & bit(to) != 0;
    if capture && !captures {
        return Err(MoveError::illegal(
            text,
            format!("there is nothing to capture on {to_name}"),
        ));
    }
    if let Some(written) = removed {
        if mv.removed == NO_SQUARE {
            return Err(MoveError::illegal(
                text,
                format!("{from_name}-{to_name} removes no tile"),
            ));
        }
        if written != mv.removed {
            return Err(MoveError::illegal(
                text,
                format!(
                    "{from_name}-{to_name} removes the tile on {}, not on {}",
                    square_name(mv.removed),
                    square_name(written)
                ),
            ));
        }
    }
    Ok(mv)
}

/// The position string of `state`.
pub(crate) fn position_text(state: &State) -> String {
    let rows = (0..SIZE)
        .rev()
        .map(|rank| {
            (0..SIZE)
                .map(|file| {
                    let sq = (file + SIZE * rank) as u8;
                    if state.tiles & bit(sq) == 0 {
                        GridCell::Char('-')
                    } else {
                        match state.piece_at(Cell(u16::from(sq))) {
                            Some((owner, piece)) => GridCell::Char(piece.letter(owner)),
                            None => GridCell::Empty,
                        }
                    }
                })
                .collect()
        })
        .collect();
    Grid {
        rows,
        to_move: state.to_move,
    }
    .to_text()
}

/// Reads and validates a position string.
pub(crate) fn parse_position(text: &str) -> Result<State, PositionError> {
    let grid = Grid::parse(text, SIZE, SIZE, |c| "KWkw-".contains(c))?;
    let mut tiles = 0u64;
    let mut kings: ByPlayer<Vec<u8>> = ByPlayer::default();
    let mut warriors: ByPlayer<u64> = ByPlayer::default();
    for (row, cells) in grid.rows.iter().enumerate() {
        let rank = SIZE - 1 - row;
        for (file, cell) in cells.iter().enumerate() {
            let sq = (file + SIZE * rank) as u8;
            match cell {
                GridCell::Char('-') => continue,
                GridCell::Char('K') => kings.white.push(sq),
                GridCell::Char('k') => kings.black.push(sq),
                GridCell::Char('W') => warriors.white |= bit(sq),
                GridCell::Char('w') => warriors.black |= bit(sq),
                GridCell::Char(_) | GridCell::Empty => {}
            }
            tiles |= bit(sq);
        }
    }
    let mut king_squares = ByPlayer::new(0, 0);
    for side in Player::BOTH {
        king_squares[side] = match kings[side][..] {
            [sq] => sq,
            ref found => {
                return Err(PositionError::Invalid(format!(
                    "{side} must have exactly one king, found {}",
                    found.len()
                )))
            }
        };
        let count = warriors[side].count_ones();
        if count > 2 {
            return Err(PositionError::Invalid(format!(
                "{side} may have at most 2 warriors, found {count}"
            )));
        }
    }
    let state = State::from_parts(tiles, warriors, king_squares, grid.to_move);
    if state.kings_see_each_other() {
        return Err(PositionError::Invalid(format!(
            "the kings on {} and {} see each other",
            square_name(state.kings.white),
            square_name(state.kings.black)
        )));
    }
    let waiting = !state.to_move;
    if state.is_in_check(waiting) {
        return Err(PositionError::Invalid(format!(
            "{waiting} is in check but it is {}'s turn",
            state.to_move
        )));
    }
    Ok(state)
}
