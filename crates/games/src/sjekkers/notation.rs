//! Sjekkers notation: moves (`c3-d3`, own jumps `b1-d1`, captures `e5xg7`, checkers chains
//! `c3xe5xg7` listing the landings, `pass`) and position strings
//! (`ddddd/dddddd/ddddddd/8/9/8/DDDDDDD/DDDDDD/DDDDD w`).

use std::fmt::Write;

use denkmeter_core::{ByPlayer, Cell, MoveError, Player, PositionError};

use super::board::cell_name;
use super::movegen::{checkers_route, LINES};
use super::state::{
    at, bit, next, Crossings, Piece, State, CELLS, FAR_ROW, FORWARD, NONE, ROWS, ROW_LEN, ROW_START,
};
use super::{Move, Variant};

/// Most pieces a side can have: its 18 at the start.
const MAX_PIECES: u32 = 18;

/// The move in notation: `pass`; `from-to` for a step, a slide or a jump over an own piece;
/// `fromxto` for a capture; in `sjekkers-checkers` a chain lists every landing (`c3xe5xg7`).
pub(crate) fn move_text(state: &State, mv: Move, variant: Variant) -> String {
    if mv.is_pass() {
        return "pass".to_string();
    }
    let mut text = cell_name(mv.from);
    if !mv.is_capture() {
        text.push('-');
        text.push_str(&cell_name(mv.to));
        return text;
    }
    let route = if variant == Variant::Checkers {
        checkers_route(state, mv)
    } else {
        Vec::new()
    };
    if route.is_empty() {
        text.push('x');
        text.push_str(&cell_name(mv.to));
    } else {
        for sq in route {
            text.push('x');
            text.push_str(&cell_name(sq));
        }
    }
    text
}

/// A move as read, before it is looked for among the legal moves.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Written {
    Pass,
    /// The start and every landing; `capture` if written with `x`.
    Path {
        cells: Vec<u8>,
        capture: bool,
    },
}

/// Reads a crossing's name at the start of `bytes`: a row letter `a` to `i` and one digit.
fn read_cell(text: &str, bytes: &[u8], what: &str) -> Result<u8, MoveError> {
    let (row, number) = match bytes {
        [row, number, ..] if row.is_ascii_alphabetic() && number.is_ascii_digit() => {
            (row.to_ascii_lowercase(), *number)
        }
        _ => {
            return Err(MoveError::syntax(
                text,
                format!("expected the {what} crossing (a row letter and a number, like e5)"),
            ))
        }
    };
    if bytes.get(2).is_some_and(u8::is_ascii_digit) {
        return Err(MoveError::syntax(
            text,
            "a crossing's number has one digit (1 to 9)",
        ));
    }
    let r = i32::from(row) - i32::from(b'a');
    let n = i32::from(number) - i32::from(b'0');
    at(r, n).ok_or_else(|| {
        MoveError::syntax(
            text,
            format!(
                "{}{} is not a crossing of the board (rows a to i: a1-a5, b1-b6, c1-c7, d1-d8, \
                 e1-e9, f2-f9, g3-g9, h4-h9, i5-i9)",
                row as char, number as char
            ),
        )
    })
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
    let bytes = trimmed.as_bytes();
    let mut cells = vec![read_cell(text, bytes, "starting")?];
    let mut at = 2;
    let mut separator = None;
    while at < bytes.len() {
        let sep = match bytes[at] {
            b'-' => b'-',
            b'x' | b'X' => b'x',
            _ => {
                return Err(MoveError::syntax(
                    text,
                    format!(
                        "expected `-` or `x` after {}, found {:?}",
                        cell_name(cells[cells.len() - 1]),
                        String::from_utf8_lossy(&bytes[at..])
                    ),
                ))
            }
        };
        if separator.is_some_and(|s| s != sep) {
            return Err(MoveError::syntax(text, "a move mixes `-` and `x`"));
        }
        separator = Some(sep);
        at += 1;
        let what = if cells.len() == 1 {
            "destination"
        } else {
            "next landing"
        };
        cells.push(read_cell(text, &bytes[at..], what)?);
        at += 2;
    }
    let Some(separator) = separator else {
        return Err(MoveError::syntax(
            text,
            "expected `-` or `x` after the starting crossing",
        ));
    };
    if separator == b'-' && cells.len() > 2 {
        return Err(MoveError::syntax(
            text,
            "only captures go on: a chain is written with `x` (c3xe5xg7)",
        ));
    }
    Ok(Written::Path {
        cells,
        capture: separator == b'x',
    })
}

/// The pieces a checkers chain of the piece on `cells[0]` written through `cells` captures,
/// if each step is a capture jump: along one of the piece's lines over an enemy piece not yet
/// captured, to the empty crossing directly beyond.
fn written_chain(state: &State, cells: &[u8]) -> Option<u64> {
    let side = state.to_move;
    let from = cells[0];
    let lines: &[usize] = if state.sjeks & bit(from) != 0 {
        &LINES
    } else {
        &FORWARD[side]
    };
    let empty = !state.occupied() | bit(from);
    let mut captured = 0;
    for pair in cells.windows(2) {
        let (here, there) = (pair[0], pair[1]);
        let over = lines.iter().find_map(|&d| {
            let over = next(here, d);
            (over != NONE && next(over, d) == there).then_some(over)
        })?;
        if state.pieces[!side] & !captured & bit(over) == 0 || empty & bit(there) == 0 {
            return None;
        }
        captured |= bit(over);
    }
    Some(captured)
}

/// Reads a move and finds it among `moves`, the legal moves of `state` in `variant`.
pub(crate) fn parse_move(
    state: &State,
    text: &str,
    variant: Variant,
    moves: &[Move],
) -> Result<Move, MoveError> {
    let written = read(text)?;
    let side = state.to_move;
    if moves.is_empty() {
        return Err(MoveError::illegal(text, "the game is over"));
    }
    let must_pass = moves == [Move::PASS];
    let Written::Path { cells, capture } = written else {
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
    let (from, to) = (cells[0], cells[cells.len() - 1]);
    let (from_name, to_name) = (cell_name(from), cell_name(to));
    let piece = match state.piece_at(Cell(u16::from(from))) {
        Some((owner, piece)) if owner == side => piece,
        _ => {
            return Err(MoveError::illegal(
                text,
                format!("{side} has no piece on {from_name}"),
            ))
        }
    };
    let must_capture = moves[0].is_capture();
    let cannot = || {
        let reason = if must_capture {
            format!(
                "{side} must capture, and the {} on {from_name} has no capture ending on \
                 {to_name}",
                piece.name()
            )
        } else {
            format!("the {} on {from_name} cannot go to {to_name}", piece.name())
        };
        MoveError::illegal(text, reason)
    };
    let mut candidates = moves
        .iter()
        .copied()
        .filter(|m| m.from == from && m.to == to);

    if variant != Variant::Checkers || !capture {
        if cells.len() > 2 {
            return Err(MoveError::illegal(
                text,
                "one jump a turn: this ruleset has no capture chains",
            ));
        }
        // In these cases the start and end name the move.
        let mv = candidates.next().ok_or_else(cannot)?;
        return match (capture, mv.is_capture()) {
            (true, false) => Err(MoveError::illegal(
                text,
                format!("{from_name}-{to_name} captures nothing: write it with `-`"),
            )),
            (false, true) => Err(MoveError::illegal(
                text,
                format!(
                    "{from_name}x{to_name} is a capture: write it with `x`{}",
                    if variant == Variant::Checkers {
                        " and its landings"
                    } else {
                        ""
                    }
                ),
            )),
            _ => Ok(mv),
        };
    }

    // A checkers capture: the landings written name the captured pieces; the start and end
    // alone suffice when only one capture joins them.
    if let Some(captured) = written_chain(state, &cells) {
        let mv = Move::new(from, to, captured);
        if moves.contains(&mv) {
            return Ok(mv);
        }
        if moves
            .iter()
            .any(|m| m.from == from && m.captured & captured == captured)
        {
            return Err(MoveError::illegal(
                text,
                "a capture chain goes on while the piece can capture",
            ));
        }
        return Err(cannot());
    } else if cells.len() > 2 {
        return Err(MoveError::illegal(
            text,
            format!(
                "the {} on {from_name} has no such capture chain",
                piece.name()
            ),
        ));
    }
    let mv = candidates.next().ok_or_else(cannot)?;
    if candidates.next().is_some() {
        return Err(MoveError::illegal(
            text,
            format!(
                "several captures go from {from_name} to {to_name}: list the landings \
                 ({from_name}x...x{to_name})"
            ),
        ));
    }
    Ok(mv)
}

/// The position string of `state`: rows i down to a, each by ascending number.
pub(crate) fn position_text(state: &State) -> String {
    let mut out = String::new();
    for r in (0..ROWS).rev() {
        if r < ROWS - 1 {
            out.push('/');
        }
        let mut run = 0;
        for i in 0..ROW_LEN[r] {
            let sq = ROW_START[r] + i;
            match state.piece_at(Cell(u16::from(sq))) {
                None => run += 1,
                Some((owner, piece)) => {
                    if run > 0 {
                        let _ = write!(out, "{run}");
                        run = 0;
                    }
                    out.push(piece.letter(owner));
                }
            }
        }
        if run > 0 {
            let _ = write!(out, "{run}");
        }
    }
    out.push(' ');
    out.push(state.to_move.letter());
    out
}

/// Reads the side to move: `w` or `b`, and nothing after it.
fn read_side(side: &str, extra: Option<&str>) -> Result<Player, PositionError> {
    if let Some(extra) = extra {
        return Err(PositionError::SideToMove(format!("{side} {extra}")));
    }
    let mut chars = side.chars();
    match (chars.next().and_then(Player::from_letter), chars.next()) {
        (Some(p), None) => Ok(p),
        _ => Err(PositionError::SideToMove(side.to_string())),
    }
}

/// Reads and validates a position string: nine rows i to a of 5, 6, 7, 8, 9, 8, 7, 6 and 5
/// crossings, `D`/`d` disks, `S`/`s` Sjeks, digits for runs of empty crossings, then `w` or
/// `b`. Refused: a disk on its own far row (it would have been promoted), more than 18 pieces
/// a side, and no pieces for the side that just moved.
pub(crate) fn parse_position(text: &str) -> Result<State, PositionError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(PositionError::Empty);
    }
    let mut parts = text.split_whitespace();
    let board = parts.next().unwrap_or_default();
    let side = parts.next().unwrap_or_default();
    let to_move = read_side(side, parts.next())?;
    let texts: Vec<&str> = board.split('/').collect();
    if texts.len() != ROWS {
        return Err(PositionError::RowCount {
            expected: ROWS,
            found: texts.len(),
        });
    }
    let mut pieces = ByPlayer::new(0u64, 0u64);
    let mut sjeks = 0u64;
    for (i, row_text) in texts.iter().enumerate() {
        let row = i + 1;
        let r = ROWS - 1 - i;
        let expected = usize::from(ROW_LEN[r]);
        let mut found = 0usize;
        let mut chars = row_text.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                let mut number = c.to_string();
                while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    number.push(d);
                    chars.next();
                }
                match number.parse::<usize>() {
                    Ok(n) if n > 0 && n <= expected => found += n,
                    _ => return Err(PositionError::BadNumber { row, found: number }),
                }
            } else if let Some((owner, piece)) = Piece::from_letter(c) {
                if found < expected {
                    let sq = ROW_START[r] + found as u8;
                    pieces[owner] |= bit(sq);
                    if piece == Piece::Sjek {
                        sjeks |= bit(sq);
                    }
                }
                found += 1;
            } else {
                return Err(PositionError::BadCharacter { row, found: c });
            }
            if found > expected {
                break;
            }
        }
        if found != expected {
            return Err(PositionError::RowLength {
                row,
                expected,
                found,
            });
        }
    }
    for owner in Player::BOTH {
        let disks = pieces[owner] & !sjeks;
        if let Some(sq) = Crossings(disks & FAR_ROW[owner]).next() {
            return Err(PositionError::Invalid(format!(
                "the {owner} disk on {} stands on its far row and would have been promoted",
                cell_name(sq)
            )));
        }
        let count = pieces[owner].count_ones();
        if count > MAX_PIECES {
            return Err(PositionError::Invalid(format!(
                "{owner} has {count} pieces, more than the {MAX_PIECES} of the start"
            )));
        }
    }
    if pieces[!to_move] == 0 {
        return Err(PositionError::Invalid(format!(
            "{} has no pieces but has just moved",
            !to_move
        )));
    }
    debug_assert!(pieces.white & pieces.black == 0 && (pieces.white | pieces.black) < 1 << CELLS);
    Ok(State::from_parts(pieces, sjeks, to_move))
}
