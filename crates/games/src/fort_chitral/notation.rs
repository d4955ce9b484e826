//! Fort Chitral's notation: moves (`c1-c2`, a chain of jumps by its start and end `a1-e5`,
//! `pass`) and position strings (`pppppppppppppppppp/18/.../PPPPPPPPPPPPPPPPPP w`).

use denkmeter_core::{Grid, GridCell, MoveError, Player, PositionError};

use super::state::{at, file_rank, stone, State, EMPTY, MAX_PIECES, SIZE};
use super::Move;

/// The name of padded square `sq`, e.g. `i10`.
pub(crate) fn square_name(sq: u16) -> String {
    let (file, rank) = file_rank(sq);
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// The move in notation: `from-to`, or `pass`. Captures are not written (they follow from the
/// end square).
pub(crate) fn move_text(mv: Move) -> String {
    if mv.is_pass() {
        "pass".to_string()
    } else {
        format!("{}-{}", square_name(mv.from), square_name(mv.to))
    }
}

/// Reads a square's name at the start of `bytes`: a file letter `a` to `r` (either case) and a
/// rank from 1 to 18 without a leading zero. Returns the padded square and the bytes read.
fn read_square(text: &str, bytes: &[u8], what: &str) -> Result<(u16, usize), MoveError> {
    let expected = || {
        MoveError::syntax(
            text,
            format!("expected the {what} square (a file letter and a rank, like i10)"),
        )
    };
    let file = match bytes.first() {
        Some(b) if b.is_ascii_alphabetic() => b.to_ascii_lowercase(),
        _ => return Err(expected()),
    };
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Err(expected());
    }
    let rank_text = &bytes[1..=digits];
    let not_a_square = || {
        MoveError::syntax(
            text,
            format!(
                "{}{} is not a square of the board (a1 to r18)",
                file as char,
                String::from_utf8_lossy(rank_text)
            ),
        )
    };
    if digits > 2 || rank_text[0] == b'0' || !(b'a'..=b'r').contains(&file) {
        return Err(not_a_square());
    }
    let rank = rank_text
        .iter()
        .fold(0usize, |n, d| n * 10 + usize::from(d - b'0'));
    if rank > SIZE {
        return Err(not_a_square());
    }
    Ok((at(usize::from(file - b'a'), rank - 1), 1 + digits))
}

/// A move as read, before it is looked for among the legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Written {
    Pass,
    Move { from: u16, to: u16 },
}

/// Reads a move's text without looking at the position: `pass`, or two squares joined by `-`
/// or `x` (either case, surrounding spaces ignored).
fn read(text: &str) -> Result<Written, MoveError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(MoveError::syntax(text, "the move is empty"));
    }
    if trimmed.eq_ignore_ascii_case("pass") {
        return Ok(Written::Pass);
    }
    let bytes = trimmed.as_bytes();
    let (from, used) = read_square(text, bytes, "starting")?;
    let rest = &bytes[used..];
    match rest.first() {
        Some(b'-' | b'x' | b'X') => {}
        _ => {
            return Err(MoveError::syntax(
                text,
                "expected `-` or `x` after the starting square",
            ))
        }
    }
    let (to, used) = read_square(text, &rest[1..], "destination")?;
    if used + 1 != rest.len() {
        return Err(MoveError::syntax(
            text,
            format!(
                "unexpected {:?} after the move",
                String::from_utf8_lossy(&rest[1 + used..])
            ),
        ));
    }
    Ok(Written::Move { from, to })
}

/// Reads a move and finds it among `moves`, the legal moves of `state`.
pub(crate) fn parse_move(state: &State, text: &str, moves: &[Move]) -> Result<Move, MoveError> {
    let written = read(text)?;
    let side = state.to_move;
    if moves.is_empty() {
        return Err(MoveError::illegal(text, "the game is over"));
    }
    let must_pass = moves == [Move::PASS];
    let Written::Move { from, to } = written else {
        return if must_pass {
            Ok(Move::PASS)
        } else {
            Err(MoveError::illegal(
                text,
                format!("{side} has a move and may not pass"),
            ))
        };
    };
    if must_pass {
        return Err(MoveError::illegal(
            text,
            format!("{side} cannot move and must pass"),
        ));
    }
    let (from_name, to_name) = (square_name(from), square_name(to));
    if state.board[from as usize] != stone(side) {
        return Err(MoveError::illegal(
            text,
            format!("{side} has no piece on {from_name}"),
        ));
    }
    if let Some(&mv) = moves.iter().find(|m| m.from == from && m.to == to) {
        return Ok(mv);
    }
    let reason = if state.board[to as usize] != EMPTY {
        format!("{to_name} is not empty")
    } else {
        format!(
            "no step and no chain of jumps over {side}'s own pieces leads from {from_name} to \
             {to_name}"
        )
    };
    Err(MoveError::illegal(text, reason))
}

/// The position string of `state`: ranks 18 down to 1, files a to r.
pub(crate) fn position_text(state: &State) -> String {
    let rows = (0..SIZE)
        .rev()
        .map(|rank| {
            (0..SIZE)
                .map(|file| match state.board[at(file, rank) as usize] {
                    b if b == stone(Player::White) => GridCell::Char('P'),
                    b if b == stone(Player::Black) => GridCell::Char('p'),
                    _ => GridCell::Empty,
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

/// Reads and validates a position string: 18 rows of 18 cells from rank 18 down, `P` for a
/// White piece, `p` for a Black one, digits for runs of empty squares, then `w` or `b`.
/// Refused: more than 18 pieces of a side.
pub(crate) fn parse_position(text: &str) -> Result<State, PositionError> {
    let grid = Grid::parse(text, SIZE, SIZE, |c| c == 'P' || c == 'p')?;
    let mut white = Vec::new();
    let mut black = Vec::new();
    for (row, cells) in grid.rows.iter().enumerate() {
        let rank = SIZE - 1 - row;
        for (file, cell) in cells.iter().enumerate() {
            match cell {
                GridCell::Char('P') => white.push(file + SIZE * rank),
                GridCell::Char(_) => black.push(file + SIZE * rank),
                GridCell::Empty => {}
            }
        }
    }
    for (owner, cells) in [(Player::White, &white), (Player::Black, &black)] {
        if cells.len() > MAX_PIECES {
            return Err(PositionError::Invalid(format!(
                "{owner} has {} pieces, more than the {MAX_PIECES} of the start",
                cells.len()
            )));
        }
    }
    Ok(State::from_cells(&white, &black, grid.to_move))
}
