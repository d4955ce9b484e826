//! Draughts notation: moves `c3-d4`, captures `c3xe5xg3` naming every square the piece lands on
//! (the short form `c3xg3` is accepted when it names one move), and position strings with every
//! cell written (`M` man, `D` dame; lowercase for Black).

use denkmeter_core::{ByPlayer, Grid, GridCell, MoveError, Player, PositionError};

use super::fen;
use super::geometry::{bit, Geometry, NONE};
use super::movegen;
use super::state::{Kind, State};
use super::variant::{geometry, Variant};
use super::Move;

/// The name of square `sq`, e.g. `c3` or `j10`.
pub(crate) fn square_name(geo: &Geometry, sq: u8) -> String {
    let (file, rank) = geo.file_rank(sq);
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// The routes by which a capture is made: the landing squares of every complete sequence from
/// its start to its end that captures its pieces.
pub(crate) fn routes<V: Variant>(state: &State, mv: Move) -> Vec<Vec<u8>> {
    movegen::capture_routes::<V>(state, mv.from)
        .into_iter()
        .filter(|r| r.to == mv.to && r.captured == mv.captured)
        .map(|r| r.landings)
        .collect()
}

fn route_text(geo: &Geometry, from: u8, landings: &[u8]) -> String {
    let mut text = square_name(geo, from);
    for &sq in landings {
        text.push('x');
        text.push_str(&square_name(geo, sq));
    }
    text
}

/// The route shown for a capture: of all its routes, the one whose text comes first
/// alphabetically.
pub(crate) fn chosen_route<V: Variant>(state: &State, mv: Move) -> Vec<u8> {
    let geo = geometry::<V>();
    routes::<V>(state, mv)
        .into_iter()
        .min_by_key(|r| route_text(geo, mv.from, r))
        .unwrap_or_else(|| vec![mv.to])
}

/// The move in notation: `c3-d4`, or `c3xe5xg3` with every landing square.
pub(crate) fn move_text<V: Variant>(state: &State, mv: Move) -> String {
    let geo = geometry::<V>();
    if mv.captured == 0 {
        format!("{}-{}", square_name(geo, mv.from), square_name(geo, mv.to))
    } else {
        route_text(geo, mv.from, &chosen_route::<V>(state, mv))
    }
}

/// The move as the ruleset shows it: in numbers where it numbers its squares (`32-28`), else by
/// square names (`c3-d4`).
pub(crate) fn shown_text<V: Variant>(state: &State, mv: Move) -> String {
    fen::numeric_move::<V>(state, mv).unwrap_or_else(|| move_text::<V>(state, mv))
}

/// Reads a square of a move: its number where the ruleset numbers its squares (`32`), or its
/// name (`a1` to `h8` or `j10`). Light squares are accepted here (a move to one is illegal,
/// not unreadable).
fn read_square<V: Variant>(geo: &Geometry, text: &str, part: &str) -> Result<u8, MoveError> {
    if V::NUMBERED && !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
        let count = geo.size * geo.size / 2;
        // Written as players write them: no leading zero, as no square name has one.
        return Some(part)
            .filter(|p| !p.starts_with('0'))
            .and_then(|p| p.parse().ok())
            .and_then(fen::numbered::<V>)
            .ok_or_else(|| {
                MoveError::syntax(
                    text,
                    format!("{part:?} is not a square of the board (1 to {count})"),
                )
            });
    }
    let size = geo.size;
    let last = (b'a' + size as u8 - 1) as char;
    let numbers = if V::NUMBERED {
        format!("1 to {}, or ", size * size / 2)
    } else {
        String::new()
    };
    let bad = || {
        MoveError::syntax(
            text,
            format!("{part:?} is not a square of the board ({numbers}a1 to {last}{size})"),
        )
    };
    let mut chars = part.chars();
    let file = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
    let digits = chars.as_str();
    if !file.is_ascii_lowercase()
        || digits.is_empty()
        || digits.starts_with('0')
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let file = (file as u8 - b'a') as usize;
    let rank: usize = digits.parse().map_err(|_| bad())?;
    if file >= size || rank == 0 || rank > size {
        return Err(bad());
    }
    Ok(geo.square[file + (rank - 1) * size])
}

/// Reads a move and finds it among the legal moves of `state`.
pub(crate) fn parse_move<V: Variant>(state: &State, text: &str) -> Result<Move, MoveError> {
    let geo = geometry::<V>();
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(MoveError::syntax(text, "the move is empty"));
    }
    let parts: Vec<&str> = trimmed.split(['-', 'x', 'X']).collect();
    if parts.len() < 2 {
        return Err(MoveError::syntax(
            text,
            "expected squares separated by `-` (a move) or `x` (a capture)",
        ));
    }
    let squares = parts
        .iter()
        .map(|part| read_square::<V>(geo, text, part))
        .collect::<Result<Vec<u8>, MoveError>>()?;
    if let Some(pos) = squares.iter().position(|&sq| sq == NONE) {
        return Err(MoveError::illegal(
            text,
            format!("{} is a light square, never used in play", parts[pos]),
        ));
    }
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    let mut moves = Vec::new();
    movegen::legal_moves::<V>(state, &mut moves);
    let texts = |list: &[Move]| -> String {
        list.iter()
            .map(|&m| shown_text::<V>(state, m))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let candidates: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.from == from && m.to == to)
        .collect();
    if candidates.is_empty() {
        let reason = match state.piece(from) {
            None => format!("there is no piece on {}", parts[0]),
            Some((owner, _)) if owner != state.to_move => {
                format!("the piece on {} is not the mover's", parts[0])
            }
            _ if moves.iter().any(|m| m.captured != 0) => format!(
                "a capture is compulsory; the legal moves are {}",
                texts(&moves)
            ),
            _ => format!(
                "no legal move goes from {} to {}",
                parts[0],
                parts[parts.len() - 1]
            ),
        };
        return Err(MoveError::illegal(text, reason));
    }
    // The written landing squares, if they are a complete route of one move.
    let landings = &squares[1..];
    let exact: Vec<Move> = candidates
        .iter()
        .copied()
        .filter(|&m| {
            if m.captured == 0 {
                landings.len() == 1
            } else {
                routes::<V>(state, m).iter().any(|r| r == landings)
            }
        })
        .collect();
    match (exact.as_slice(), candidates.as_slice(), squares.len()) {
        ([mv], _, _) => Ok(*mv),
        (_, [mv], 2) => Ok(*mv),
        (_, _, 2) => Err(MoveError::illegal(
            text,
            format!(
                "ambiguous: name the landing squares of one of {}",
                texts(&candidates)
            ),
        )),
        _ => Err(MoveError::illegal(
            text,
            format!(
                "no legal capture lands on these squares; from {} the legal moves to {} are {}",
                parts[0],
                parts[parts.len() - 1],
                texts(&candidates)
            ),
        )),
    }
}

/// The position string.
pub(crate) fn position_text<V: Variant>(state: &State) -> String {
    let geo = geometry::<V>();
    let size = geo.size;
    let rows = (0..size)
        .rev()
        .map(|rank| {
            (0..size)
                .map(|file| match geo.square[file + rank * size] {
                    NONE => GridCell::Empty,
                    sq => match state.piece(sq) {
                        None => GridCell::Empty,
                        Some((owner, kind)) => GridCell::Char(kind.letter(owner)),
                    },
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

/// Reads a position string: every cell written, light squares empty, no man on its own
/// promotion row.
pub(crate) fn parse_position<V: Variant>(text: &str) -> Result<State, PositionError> {
    let geo = geometry::<V>();
    let size = geo.size;
    let grid = Grid::parse(text, size, size, |c| "MDmd".contains(c))?;
    let mut pieces = ByPlayer::new(0, 0);
    let mut dames = 0;
    for (row, cells) in grid.rows.iter().enumerate() {
        let rank = size - 1 - row;
        for (file, cell) in cells.iter().enumerate() {
            let GridCell::Char(c) = *cell else { continue };
            let name = format!("{}{}", (b'a' + file as u8) as char, rank + 1);
            let sq = geo.square[file + rank * size];
            if sq == NONE {
                return Err(PositionError::Invalid(format!(
                    "{c} on {name}: pieces stand on the dark squares only"
                )));
            }
            let owner = if c.is_ascii_uppercase() {
                Player::White
            } else {
                Player::Black
            };
            let kind = if c.eq_ignore_ascii_case(&'d') {
                Kind::Dame
            } else {
                Kind::Man
            };
            if kind == Kind::Man && geo.far_row[owner.index()] & bit(sq) != 0 {
                return Err(PositionError::Invalid(format!(
                    "{c} on {name}: a man on its promotion row would have been crowned"
                )));
            }
            pieces[owner] |= bit(sq);
            if kind == Kind::Dame {
                dames |= bit(sq);
            }
        }
    }
    Ok(State::new(pieces, dames, grid.to_move))
}
