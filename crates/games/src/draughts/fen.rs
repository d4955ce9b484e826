//! Square numbers and FEN, as draughts players write them for International draughts (squares
//! 1 to 50) and English checkers (1 to 32).
//!
//! The dark squares are numbered left to right, top to bottom, as the board is seen from the
//! side of the light pieces: in International draughts the first player's (White's) side, so 1
//! is b10 and 46 is a1; in English checkers the second player's (White's, since the first
//! player has the dark men), so 1 is g1 and 32 is b8 in Denkmeter's coordinates, and the first
//! move `c3-d4` is `11-15`.
//!
//! A FEN names the side to move and each side's pieces by square number, kings marked `K`:
//! `W:W31,32,K45:B1,2`. `W` and `B` are the light and the dark pieces: in English checkers the
//! dark ones are the rules' first player (`B:W21-32:B1-12` is the start).

use denkmeter_core::{ByPlayer, Player, PositionError};

use super::geometry::{bit, Squares, NONE};
use super::state::State;
use super::variant::{geometry, Variant};
use super::{movegen, notation, Move};

/// Where square (`file`, `rank`) is seen from the light side, as `(row, column)` from the top
/// left: from the first player's side unless its men are the dark ones.
fn seen_from_light<V: Variant>(file: usize, rank: usize) -> (usize, usize) {
    let size = V::SIZE;
    if V::FIRST_PLAYER_DARK {
        (rank, size - 1 - file)
    } else {
        (size - 1 - rank, file)
    }
}

/// The square numbered `n`, if the ruleset numbers its squares and has that number. Each row
/// holds `SIZE / 2` dark squares, numbered left to right, rows top to bottom.
pub(crate) fn numbered<V: Variant>(n: usize) -> Option<u8> {
    if !V::NUMBERED {
        return None;
    }
    let geo = geometry::<V>();
    let size = V::SIZE;
    let per_row = size / 2;
    let index = n.checked_sub(1).filter(|&i| i < per_row * size)?;
    let row = index / per_row;
    // The row's dark squares are every other column, starting at 0 or 1.
    [0, 1].into_iter().find_map(|offset| {
        let column = 2 * (index % per_row) + offset;
        let (file, rank) = if V::FIRST_PLAYER_DARK {
            (size - 1 - column, row)
        } else {
            (column, size - 1 - row)
        };
        let sq = geo.square[file + rank * size];
        (sq != NONE).then_some(sq)
    })
}

/// The number of square `sq`, if the ruleset numbers its squares.
pub(crate) fn number_of<V: Variant>(sq: u8) -> Option<usize> {
    if !V::NUMBERED {
        return None;
    }
    let (file, rank) = geometry::<V>().file_rank(sq);
    let (row, column) = seen_from_light::<V>(file, rank);
    Some(row * (V::SIZE / 2) + column / 2 + 1)
}

/// The dark squares in the order of their numbers (square `n` is `order[n - 1]`), or `None`
/// for a ruleset without customary numbers.
pub(crate) fn order<V: Variant>() -> Option<Vec<u8>> {
    V::NUMBERED.then(|| {
        (1..=square_count::<V>())
            .filter_map(numbered::<V>)
            .collect()
    })
}

/// How many squares the ruleset numbers (0 if it has no numbers).
pub(crate) fn square_count<V: Variant>() -> usize {
    if V::NUMBERED {
        V::SIZE * V::SIZE / 2
    } else {
        0
    }
}

/// A move as draughts players write it with numbers: `32-28`, a capture `19x30` from its start
/// to its end, or with every landing square (`19x28x37`) when another legal capture shares its
/// start and end. `None` for a ruleset without numbers.
pub(crate) fn numeric_move<V: Variant>(state: &State, mv: Move) -> Option<String> {
    let number = |sq: u8| number_of::<V>(sq).map(|n| n.to_string());
    if mv.captured == 0 {
        return Some(format!("{}-{}", number(mv.from)?, number(mv.to)?));
    }
    let mut moves = Vec::new();
    movegen::legal_moves::<V>(state, &mut moves);
    let shared = moves
        .iter()
        .any(|m| m.from == mv.from && m.to == mv.to && *m != mv);
    let squares = if shared {
        let mut all = vec![mv.from];
        all.extend(notation::chosen_route::<V>(state, mv));
        all
    } else {
        vec![mv.from, mv.to]
    };
    squares
        .into_iter()
        .map(number)
        .collect::<Option<Vec<_>>>()
        .map(|parts| parts.join("x"))
}

/// The player whose pieces are the light ones (`W` in a FEN).
fn light<V: Variant>() -> Player {
    if V::FIRST_PLAYER_DARK {
        Player::Black
    } else {
        Player::White
    }
}

/// The FEN of a position: `W:W31,32,K45:B1,2`, or `None` for a ruleset without numbers.
pub(crate) fn write<V: Variant>(state: &State) -> Option<String> {
    if !V::NUMBERED {
        return None;
    }
    let letter = |p: Player| if p == light::<V>() { 'W' } else { 'B' };
    let list = |p: Player| -> String {
        let mut numbers: Vec<(usize, bool)> = Squares(state.pieces[p])
            .map(|sq| {
                let n = number_of::<V>(sq).unwrap_or(0);
                (n, state.dames & bit(sq) != 0)
            })
            .collect();
        numbers.sort_unstable();
        numbers
            .iter()
            .map(|&(n, king)| format!("{}{n}", if king { "K" } else { "" }))
            .collect::<Vec<_>>()
            .join(",")
    };
    let light = light::<V>();
    Some(format!(
        "{}:W{}:B{}",
        letter(state.to_move),
        list(light),
        list(!light)
    ))
}

/// Whether `text` is meant as a FEN rather than a position string (only a FEN has a colon).
pub(crate) fn looks_like_fen(text: &str) -> bool {
    text.contains(':')
}

/// Reads a FEN (optionally inside `[FEN "..."]`, with ranges such as `31-50` or `K1-3`, a
/// trailing `.` and spaces anywhere): the same checks as a position string.
pub(crate) fn parse<V: Variant>(text: &str) -> Result<State, PositionError> {
    let invalid = |what: String| PositionError::Invalid(format!("FEN: {what}"));
    let count = square_count::<V>();
    if count == 0 {
        return Err(invalid("this ruleset has no square numbers".to_string()));
    }
    let mut body: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some(inner) = body
        .strip_prefix("[FEN\"")
        .and_then(|rest| rest.strip_suffix("\"]"))
    {
        body = inner.to_string();
    }
    let body = body.trim_end_matches('.');
    let mut fields = body.split(':');
    let side = fields.next().unwrap_or_default();
    let light = light::<V>();
    let to_move = match side.to_ascii_uppercase().as_str() {
        "W" => light,
        "B" => !light,
        _ => {
            return Err(invalid(format!(
                "side to move: expected W or B, found {side:?}"
            )))
        }
    };
    let mut pieces = ByPlayer::new(0u64, 0u64);
    let mut dames = 0u64;
    let mut seen = [false; 2];
    for field in fields {
        let Some(colour) = field.chars().next() else {
            return Err(invalid("an empty field between colons".to_string()));
        };
        let counter = field[colour.len_utf8()..]
            .bytes()
            .all(|b| b.is_ascii_digit());
        let owner = match colour.to_ascii_uppercase() {
            'W' => light,
            'B' => !light,
            // Lidraughts' move counters (`:H0:F1`), which a position does not keep.
            'H' | 'F' if counter => continue,
            _ => {
                return Err(invalid(format!(
                    "{field:?}: a piece list starts with W or B"
                )))
            }
        };
        if std::mem::replace(&mut seen[owner.index()], true) {
            return Err(invalid(format!("{colour}: two lists of the same pieces")));
        }
        let list = &field[colour.len_utf8()..];
        for item in list.split(',').filter(|i| !i.is_empty()) {
            let (king, numbers) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let number = |t: &str| -> Result<usize, PositionError> {
                Some(t)
                    .filter(|t| t.bytes().all(|b| b.is_ascii_digit()) && !t.starts_with('0'))
                    .and_then(|t| t.parse::<usize>().ok())
                    .filter(|n| (1..=count).contains(n))
                    .ok_or_else(|| {
                        invalid(format!("{item:?}: expected square numbers 1 to {count}"))
                    })
            };
            let (first, last) = match numbers.split_once('-') {
                Some((a, b)) => (number(a)?, number(b)?),
                None => (number(numbers)?, number(numbers)?),
            };
            if first > last {
                return Err(invalid(format!("{item:?}: a range runs upwards")));
            }
            for n in first..=last {
                let Some(sq) = numbered::<V>(n) else { continue };
                if (pieces.white | pieces.black) & bit(sq) != 0 {
                    return Err(invalid(format!("square {n} is given twice")));
                }
                if !king && geometry::<V>().far_row[owner.index()] & bit(sq) != 0 {
                    return Err(invalid(format!(
                        "a man on {n}, its promotion row, would have been crowned"
                    )));
                }
                pieces[owner] |= bit(sq);
                if king {
                    dames |= bit(sq);
                }
            }
        }
    }
    Ok(State::new(pieces, dames, to_move))
}
