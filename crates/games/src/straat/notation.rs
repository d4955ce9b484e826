//! Straat's notation: moves (`b3n`, `b3n*` with the solid face up) and position strings
//! (`4/1n2/4/N*3 w`).

use denkmeter_core::{Cell, MoveError, Player, PositionError};

use super::state::{Orientation, State, Tile, CELLS, SIZE};
use super::streets::Layout;
use super::Move;

/// The name of cell `cell` (0 to 15), e.g. `b3`.
pub(crate) fn cell_name(cell: u8) -> String {
    let file = (b'a' + cell % SIZE as u8) as char;
    let rank = cell / SIZE as u8 + 1;
    format!("{file}{rank}")
}

/// The move in notation: cell, orientation letter, `*` if the solid face is up.
pub(crate) fn move_text(mv: Move) -> String {
    let mut text = cell_name(mv.cell);
    text.push(mv.orientation().letter());
    if mv.solid_up() {
        text.push('*');
    }
    text
}

/// Reads a move (any case, surrounding blanks ignored) and checks it against the position:
/// the cell must be empty, the game not over, and `*` is only allowed when `flip` is.
pub(crate) fn parse_move(state: &State, text: &str, flip: bool) -> Result<Move, MoveError> {
    let written = text.trim().to_ascii_lowercase();
    let bytes = written.as_bytes();
    let (cell, orientation, solid_up) = match bytes {
        [file @ b'a'..=b'd', rank @ b'1'..=b'4', letter, rest @ ..] => {
            let orientation = Orientation::from_letter(char::from(*letter)).ok_or_else(|| {
                MoveError::syntax(text, "the orientation after the cell is n, e, s or w")
            })?;
            let solid_up = match rest {
                [] => false,
                [b'*'] => true,
                _ => {
                    return Err(MoveError::syntax(
                        text,
                        "only `*` (solid face up) may follow the orientation",
                    ))
                }
            };
            (
                (file - b'a') + SIZE as u8 * (rank - b'1'),
                orientation,
                solid_up,
            )
        }
        [b'a'..=b'd', b'1'..=b'4'] => {
            return Err(MoveError::syntax(
                text,
                "the cell must be followed by an orientation: n, e, s or w",
            ))
        }
        _ => {
            return Err(MoveError::syntax(
                text,
                "expected a cell a1..d4 and an orientation n, e, s or w, as in b3n",
            ))
        }
    };
    if state.is_full() {
        return Err(MoveError::illegal(
            text,
            "the game is over: the frame is full",
        ));
    }
    if state.empty & (1 << cell) == 0 {
        return Err(MoveError::illegal(
            text,
            format!("{} already holds a tile", cell_name(cell)),
        ));
    }
    if solid_up && !flip {
        return Err(MoveError::illegal(
            text,
            "tiles lie solid face up only in straat-flip",
        ));
    }
    Ok(Move::new(cell, orientation, solid_up))
}

/// The position string: rows from rank 4 down, `/` between them, runs of empty cells as
/// digits, a tile as its letter (uppercase for White's) and `*` if it lies solid face up.
pub(crate) fn position_text(state: &State) -> String {
    let mut out = String::new();
    for rank in (0..SIZE).rev() {
        let mut run = 0;
        for file in 0..SIZE {
            match state.tile(Cell((file + SIZE * rank) as u16)) {
                None => run += 1,
                Some(tile) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(tile.letter());
                    if tile.solid_up {
                        out.push('*');
                    }
                }
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(state.to_move.letter());
    out
}

/// Reads a position string; `flip` allows `*`; the front is drawn in `layout`.
pub(crate) fn parse_position(
    text: &str,
    flip: bool,
    layout: Layout,
) -> Result<State, PositionError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(PositionError::Empty);
    }
    let mut parts = text.split_whitespace();
    let board = parts.next().unwrap_or_default();
    let side = parts.next().unwrap_or_default();
    let to_move = match side {
        "w" | "W" => Player::White,
        "b" | "B" => Player::Black,
        other => return Err(PositionError::SideToMove(other.to_string())),
    };
    if let Some(extra) = parts.next() {
        return Err(PositionError::SideToMove(format!("{side} {extra}")));
    }
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != SIZE {
        return Err(PositionError::RowCount {
            expected: SIZE,
            found: rows.len(),
        });
    }
    let mut placed: Vec<(usize, Tile)> = Vec::with_capacity(CELLS);
    for (r, row_text) in rows.iter().enumerate() {
        let row = r + 1;
        let rank = SIZE - 1 - r;
        let mut file = 0;
        let mut chars = row_text.chars().peekable();
        while let Some(c) = chars.next() {
            if file > SIZE {
                break;
            }
            if c.is_ascii_digit() {
                let mut number = c.to_string();
                while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    number.push(d);
                    chars.next();
                }
                match number.parse::<usize>() {
                    Ok(n) if n > 0 && n <= SIZE => file += n,
                    _ => return Err(PositionError::BadNumber { row, found: number }),
                }
            } else if let Some(orientation) = Orientation::from_letter(c) {
                let owner = if c.is_ascii_uppercase() {
                    Player::White
                } else {
                    Player::Black
                };
                let solid_up = chars.next_if_eq(&'*').is_some();
                if solid_up && !flip {
                    return Err(PositionError::Invalid(format!(
                        "row {row}: `*` (a tile solid face up) is only allowed in straat-flip"
                    )));
                }
                if file < SIZE {
                    placed.push((
                        file + SIZE * rank,
                        Tile {
                            owner,
                            orientation,
                            solid_up,
                        },
                    ));
                }
                file += 1;
            } else {
                return Err(PositionError::BadCharacter { row, found: c });
            }
        }
        if file != SIZE {
            return Err(PositionError::RowLength {
                row,
                expected: SIZE,
                found: file,
            });
        }
    }
    let count = |p: Player| placed.iter().filter(|(_, t)| t.owner == p).count();
    let (white, black) = (count(Player::White), count(Player::Black));
    let consistent = match to_move {
        Player::White => white == black,
        Player::Black => white == black + 1,
    };
    if !consistent {
        return Err(PositionError::Invalid(format!(
            "White has placed {white} tiles and Black {black}, which cannot be with {to_move} \
             to move (White to move needs equal counts, Black to move White one ahead)"
        )));
    }
    let mut state = State::start();
    for (cell, tile) in placed {
        state.put(cell, tile, layout);
    }
    if to_move == Player::Black {
        state.switch_side();
    }
    Ok(state)
}
