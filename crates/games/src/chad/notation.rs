//! Text: moves (`D3-D7`, `H7xH9`) and position strings (12 rows from rank 12, `K R Q k r q`).

use std::fmt;

use denkmeter_core::{Grid, GridCell, MoveError, Player, PositionError};

use super::movegen::{attacked, for_each_legal, has_legal_move, pseudo_legal_error};
use super::state::{Kind, Move, Piece, State};
use super::tables::{in_castle, SquareName, CELLS, SIZE};

/// The position string.
impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_grid(self).to_text())
    }
}

fn to_grid(state: &State) -> Grid {
    let rows = (0..SIZE)
        .rev()
        .map(|rank| {
            (0..SIZE)
                .map(|file| match state.board[file + rank * SIZE] {
                    Some(p) => GridCell::Char(p.letter()),
                    None => GridCell::Empty,
                })
                .collect()
        })
        .collect();
    Grid {
        rows,
        to_move: state.to_move,
    }
}

fn player_name(player: Player) -> &'static str {
    match player {
        Player::White => "White",
        Player::Black => "Black",
    }
}

/// Reads and checks a position string.
pub(crate) fn parse_position(text: &str) -> Result<State, PositionError> {
    let grid = Grid::parse(text, SIZE, SIZE, |c| Piece::from_letter(c).is_some())?;
    let mut board = [None; CELLS];
    for (r, row) in grid.rows.iter().enumerate() {
        let rank = SIZE - 1 - r;
        for (file, cell) in row.iter().enumerate() {
            if let GridCell::Char(c) = *cell {
                board[file + rank * SIZE] = Piece::from_letter(c);
            }
        }
    }
    let invalid = |reason: String| Err(PositionError::Invalid(reason));
    for player in Player::BOTH {
        let name = player_name(player);
        let king = Piece::new(player, Kind::King);
        let kings: Vec<usize> = (0..CELLS).filter(|&sq| board[sq] == Some(king)).collect();
        match kings[..] {
            [] => return invalid(format!("{name} has no king; each side has exactly one")),
            [sq] if !in_castle(player, sq) => {
                return invalid(format!(
                    "the {name} king on {} is outside its castle ({})",
                    SquareName(sq),
                    if player == Player::White {
                        "C3-E5"
                    } else {
                        "H8-J10"
                    }
                ))
            }
            [_] => {}
            _ => {
                return invalid(format!(
                    "{name} has {} kings; each side has exactly one",
                    kings.len()
                ))
            }
        }
        let rook = Piece::new(player, Kind::Rook);
        if let Some(sq) = (0..CELLS).find(|&sq| board[sq] == Some(rook) && in_castle(!player, sq)) {
            return invalid(format!(
                "the {name} rook on {} is inside the {} castle (it would have become a queen)",
                SquareName(sq),
                player_name(!player)
            ));
        }
    }
    let state = State::from_parts(board, grid.to_move);
    let waiting = !state.to_move;
    if attacked(&state.board, state.kings[waiting] as usize, state.to_move) {
        return invalid(format!(
            "{} is in check but it is {}'s turn",
            player_name(waiting),
            player_name(state.to_move)
        ));
    }
    Ok(state)
}

/// A move as read, before it is looked up among the legal moves.
struct Written {
    from: usize,
    to: usize,
    /// `Some(true)` for `x`, `Some(false)` for `-`, `None` when no separator was written.
    capture: Option<bool>,
    /// `=Q` was written.
    promotion: bool,
}

/// Reads a square name (`a1` to `l12`, any case) at `*at`, moving past it.
fn read_square(bytes: &[u8], at: &mut usize) -> Option<usize> {
    let file = match bytes.get(*at)? {
        c @ b'a'..=b'l' => c - b'a',
        c @ b'A'..=b'L' => c - b'A',
        _ => return None,
    };
    let mut i = *at + 1;
    let first = *bytes.get(i).filter(|c| (b'1'..=b'9').contains(c))?;
    let mut rank = usize::from(first - b'0');
    i += 1;
    if let Some(&d) = bytes.get(i).filter(|c| c.is_ascii_digit()) {
        rank = rank * 10 + usize::from(d - b'0');
        i += 1;
    }
    if rank > SIZE {
        return None;
    }
    *at = i;
    Some(usize::from(file) + (rank - 1) * SIZE)
}

/// Reads the syntax of a move: `FROM[-|x]TO[=Q][+|#]`, any case, surrounding blanks ignored.
fn read_move(text: &str) -> Result<Written, String> {
    let mut s = text.trim();
    if s.is_empty() {
        return Err("the move is empty".to_string());
    }
    if let Some(rest) = s.strip_suffix(['+', '#']) {
        s = rest;
    }
    let mut promotion = false;
    if let Some(rest) = s.strip_suffix("=Q").or_else(|| s.strip_suffix("=q")) {
        s = rest;
        promotion = true;
    } else if let Some(i) = s.find('=') {
        return Err(format!(
            "{:?} is not a promotion: a rook only becomes a queen (=Q)",
            &s[i..]
        ));
    }
    let bytes = s.as_bytes();
    let mut at = 0;
    let from = read_square(bytes, &mut at)
        .ok_or_else(|| "expected a start square from A1 to L12, such as D3".to_string())?;
    let capture = match bytes.get(at) {
        Some(b'-') => Some(false),
        Some(b'x' | b'X') => Some(true),
        _ => None,
    };
    if capture.is_some() {
        at += 1;
    }
    let to = read_square(bytes, &mut at).ok_or_else(|| {
        "expected `-` or `x` and an end square from A1 to L12, such as D3-D7".to_string()
    })?;
    if at != bytes.len() {
        return Err(format!("unexpected {:?} after the move", &s[at..]));
    }
    Ok(Written {
        from,
        to,
        capture,
        promotion,
    })
}

/// Reads a move and finds it among the legal moves, or says why it cannot be read or played.
pub(crate) fn parse_move(state: &State, text: &str) -> Result<Move, MoveError> {
    let written = read_move(text).map_err(|reason| MoveError::syntax(text, reason))?;
    let illegal = |reason: String| Err(MoveError::illegal(text, reason));
    if !has_legal_move(state) {
        return illegal("the game is over: the side to move has no legal move".to_string());
    }
    let mut found = None;
    let _ = for_each_legal(state, |m| {
        if m.start_index() == written.from && m.end_index() == written.to {
            found = Some(m);
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    });
    let Some(mv) = found else {
        return illegal(
            pseudo_legal_error(state, written.from, written.to)
                .unwrap_or_else(|| "it would leave the king in check".to_string()),
        );
    };
    if written.capture == Some(true) && !mv.is_capture() {
        return illegal(format!(
            "{} captures nothing: write {mv}",
            SquareName(written.to)
        ));
    }
    if written.promotion && !mv.is_promotion() {
        return illegal(format!("{mv} does not promote"));
    }
    Ok(mv)
}
