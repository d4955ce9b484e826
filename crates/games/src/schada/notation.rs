//! Schada's notation: squares `a1`-`h8`, moves `d3-f5` or `d3xf5` (a capture), and position
//! strings (`F` Field Officer, `O` Officer, `P` pawn).

use denkmeter_core::{find_move_by_text, Grid, GridCell, MoveError, Player, PositionError};

use super::state::{bit, Piece, State};
use super::{Move, Schada};

/// The name of square `sq` (`file + 8 * rank`).
pub fn square_name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

pub(crate) fn move_text(state: &State, mv: Move) -> String {
    let capture = state.own[!state.to_move] & bit(mv.to) != 0;
    format!(
        "{}{}{}",
        square_name(mv.from),
        if capture { 'x' } else { '-' },
        square_name(mv.to)
    )
}

/// Whether `text` looks like `a1-b2` or `a1xb2`.
fn well_formed(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    b.len() == 5 && square(b[0], b[1]) && (b[2] == b'-' || b[2] == b'x') && square(b[3], b[4])
}

pub(crate) fn parse_move(game: &Schada, state: &State, text: &str) -> Result<Move, MoveError> {
    let normal = text.trim().to_ascii_lowercase();
    if !well_formed(&normal) {
        return Err(MoveError::syntax(
            text,
            "expected FROM-TO or FROMxTO with squares a1-h8, e.g. d3-f5",
        ));
    }
    find_move_by_text(game, state, &normal, |t| t.replace('x', "-"))
}

pub(crate) fn position_text(state: &State) -> String {
    let rows = (0..8)
        .rev()
        .map(|rank| {
            (0..8)
                .map(|file| match state.piece_at(file + 8 * rank) {
                    None => GridCell::Empty,
                    Some((owner, piece)) => GridCell::Char(match owner {
                        Player::White => piece.letter(),
                        Player::Black => piece.letter().to_ascii_lowercase(),
                    }),
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

pub(crate) fn parse_position(text: &str) -> Result<State, PositionError> {
    let grid = Grid::parse(text, 8, 8, |c| "FOPfop".contains(c))?;
    let mut state = State::empty(grid.to_move);
    for (row, cells) in grid.rows.iter().enumerate() {
        for (file, cell) in cells.iter().enumerate() {
            if let GridCell::Char(c) = *cell {
                let owner = if c.is_ascii_uppercase() {
                    Player::White
                } else {
                    Player::Black
                };
                let piece = Piece::ALL
                    .into_iter()
                    .find(|p| p.letter() == c.to_ascii_uppercase())
                    .ok_or(PositionError::BadCharacter {
                        row: row + 1,
                        found: c,
                    })?;
                state.put(owner, piece, (file + 8 * (7 - row)) as u8);
            }
        }
    }
    Ok(state)
}
