//! The position and move formats of the Hub protocol (version 2, as documented with Scan 3.1),
//! for the rulesets that number their squares (International draughts 1-50, English checkers
//! 1-32).
//!
//! A Hub position is the side to move, `W` or `B`, then one character per square in the order of
//! the square numbers: `w` and `b` for men, `W` and `B` for kings, `e` for an empty square. `W`
//! and `w` are the light pieces, as in a FEN: in English checkers the light pieces are the
//! second player's, so the start is `B` + 12 `b` + 8 `e` + 12 `w`. The International start is
//! `W` + 20 `b` + 10 `e` + 20 `w`.
//!
//! A quiet move is `32-28`. A capture is its start, its end, then every captured square, all
//! joined by `x` with the captured squares ascending and no landing squares between: `28x19x23`.
//! Reading, the captured squares may come in any order, `-` may stand for `x`, and a capture
//! given by its start and end alone (`28x19`) is accepted when exactly one legal capture has them.

use denkmeter_core::Player;

use super::fen::order;
use super::geometry::{bit, Squares};
use super::variant::{geometry, Variant};
use super::{movegen, Draughts, Move, State};

/// The longest move text read, in bytes: far more than the longest capture (a king taking every
/// piece of a full side, written with three-digit room to spare).
pub const MAX_HUB_MOVE_LEN: usize = 256;

/// Why a Hub position or move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HubError {
    #[error("this ruleset has no square numbers, so no Hub format")]
    Unnumbered,
    #[error("a position here has {expected} characters (the side to move, then one per square), found {found}")]
    PositionLength { expected: usize, found: usize },
    #[error("side to move: expected W or B, found {0:?}")]
    SideToMove(char),
    #[error("square {square}: expected w, b, W, B or e, found {found:?}")]
    SquareLetter { square: usize, found: char },
    #[error("square {0}: a man on its promotion row would have been crowned")]
    ManOnPromotionRow(usize),
    #[error("move {text:?}: {reason}")]
    MoveSyntax { text: String, reason: String },
    #[error("move {0:?} is not legal here")]
    Illegal(String),
    #[error("move {0:?} matches more than one legal move; name every captured square")]
    Ambiguous(String),
}

/// The number of squares of a numbered ruleset, or `None`.
fn square_count<V: Variant>() -> Option<usize> {
    V::NUMBERED.then(|| V::SIZE * V::SIZE / 2)
}

/// The player whose pieces are the light ones (`W`/`w` in Hub positions and FENs).
fn light<V: Variant>() -> Player {
    if V::FIRST_PLAYER_DARK {
        Player::Black
    } else {
        Player::White
    }
}

impl<V: Variant> Draughts<V> {
    /// The length of a Hub position: 51 in International draughts, 33 in English checkers;
    /// `None` for a ruleset without square numbers.
    pub fn hub_position_len(&self) -> Option<usize> {
        square_count::<V>().map(|n| n + 1)
    }

    /// The position in Hub form (`Wbbb...eee...www`), for the rulesets that number their
    /// squares.
    pub fn hub_position(&self, state: &State) -> Option<String> {
        let order = order::<V>()?;
        let light = light::<V>();
        let mut text = String::with_capacity(order.len() + 1);
        text.push(if state.to_move == light { 'W' } else { 'B' });
        for &sq in &order {
            text.push(match state.piece(sq) {
                None => 'e',
                Some((owner, kind)) => {
                    let letter = if owner == light { 'w' } else { 'b' };
                    if kind == super::Kind::Dame {
                        letter.to_ascii_uppercase()
                    } else {
                        letter
                    }
                }
            });
        }
        Some(text)
    }

    /// Reads a Hub position. Its length must be the ruleset's, and no man may stand on its
    /// promotion row.
    pub fn parse_hub_position(&self, text: &str) -> Result<State, HubError> {
        let order = order::<V>().ok_or(HubError::Unnumbered)?;
        let found = text.chars().count();
        if found != order.len() + 1 {
            return Err(HubError::PositionLength {
                expected: order.len() + 1,
                found,
            });
        }
        let light = light::<V>();
        let mut chars = text.chars();
        let to_move = match chars.next() {
            Some('W') => light,
            Some('B') => !light,
            Some(other) => return Err(HubError::SideToMove(other)),
            None => return Err(HubError::PositionLength { expected: 1, found }),
        };
        let mut pieces = denkmeter_core::ByPlayer::new(0u64, 0u64);
        let mut dames = 0u64;
        for (i, (letter, &sq)) in chars.zip(&order).enumerate() {
            let number = i + 1;
            let (owner, king) = match letter {
                'e' => continue,
                'w' => (light, false),
                'b' => (!light, false),
                'W' => (light, true),
                'B' => (!light, true),
                found => {
                    return Err(HubError::SquareLetter {
                        square: number,
                        found,
                    })
                }
            };
            if !king && geometry::<V>().far_row[owner.index()] & bit(sq) != 0 {
                return Err(HubError::ManOnPromotionRow(number));
            }
            pieces[owner] |= bit(sq);
            if king {
                dames |= bit(sq);
            }
        }
        Ok(State::new(pieces, dames, to_move))
    }

    /// The move in Hub form: `32-28`, or `28x19x23` (start, end, then every captured square in
    /// ascending order). `None` for a ruleset without square numbers.
    pub fn hub_move(&self, mv: Move) -> Option<String> {
        let (from, to, captured) = numbered_move::<V>(mv)?;
        if captured.is_empty() {
            return Some(format!("{from}-{to}"));
        }
        let mut text = format!("{from}x{to}");
        for n in captured {
            text.push('x');
            text.push_str(&n.to_string());
        }
        Some(text)
    }

    /// Finds the legal move of `state` that a Hub move names: its start, its end and the set of
    /// its captured squares (in any order; `-` and `x` both separate). A capture named by start
    /// and end alone must be the only legal capture with them.
    pub fn parse_hub_move(&self, state: &State, text: &str) -> Result<Move, HubError> {
        let order = order::<V>().ok_or(HubError::Unnumbered)?;
        let syntax = |reason: String| HubError::MoveSyntax {
            text: text.chars().take(MAX_HUB_MOVE_LEN).collect(),
            reason,
        };
        if text.len() > MAX_HUB_MOVE_LEN {
            return Err(syntax(format!("longer than {MAX_HUB_MOVE_LEN} characters")));
        }
        let parts: Vec<&str> = text.split(['-', 'x', 'X']).collect();
        if parts.len() < 2 {
            return Err(syntax(
                "expected square numbers joined by `-` or `x`".to_string(),
            ));
        }
        let mut numbers = Vec::with_capacity(parts.len());
        for part in &parts {
            let n = Some(*part)
                .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|p| p.parse::<usize>().ok())
                .ok_or_else(|| syntax(format!("{part:?} is not a square number")))?;
            numbers.push(n);
        }
        let captured = (numbers.len() > 2).then_some(&numbers[2..]);
        resolve_numbered::<V>(state, numbers[0], numbers[1], captured).map_err(
            |error| match error {
                NumberedError::OutOfRange(n) => syntax(format!(
                    "\"{n}\" is not a square number from 1 to {}",
                    order.len()
                )),
                NumberedError::Twice => syntax("a captured square is named twice".to_string()),
                NumberedError::Ambiguous => HubError::Ambiguous(text.to_string()),
                NumberedError::Illegal => HubError::Illegal(text.to_string()),
            },
        )
    }
}

/// Why square numbers name no legal move ([`resolve_numbered`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NumberedError {
    /// A number that is not a square of the ruleset.
    OutOfRange(usize),
    /// A captured square named twice.
    Twice,
    Ambiguous,
    Illegal,
}

/// The legal move of `state` from square number `from` to `to` that captures exactly the
/// squares numbered `captured` (in any order), or with `None` any legal move between the two
/// squares, which must then be the only one. Shared by the Hub and DXP formats.
pub(super) fn resolve_numbered<V: Variant>(
    state: &State,
    from: usize,
    to: usize,
    captured: Option<&[usize]>,
) -> Result<Move, NumberedError> {
    let order = order::<V>().unwrap_or_default();
    let square = |n: usize| {
        n.checked_sub(1)
            .and_then(|i| order.get(i).copied())
            .ok_or(NumberedError::OutOfRange(n))
    };
    let (from, to) = (square(from)?, square(to)?);
    let captured = match captured {
        None => None,
        Some(numbers) => {
            let mut set = 0u64;
            for &n in numbers {
                let sq = bit(square(n)?);
                if set & sq != 0 {
                    return Err(NumberedError::Twice);
                }
                set |= sq;
            }
            Some(set)
        }
    };
    match find_move::<V>(state, from, to, captured) {
        Found::One(mv) => Ok(mv),
        Found::Many => Err(NumberedError::Ambiguous),
        Found::None => Err(NumberedError::Illegal),
    }
}

/// A move as square numbers: its start, its end and its captured squares in ascending order;
/// `None` for a ruleset without square numbers. Shared by the Hub and DXP formats.
pub(super) fn numbered_move<V: Variant>(mv: Move) -> Option<(usize, usize, Vec<usize>)> {
    let order = order::<V>()?;
    let number = |sq: u8| order.iter().position(|&s| s == sq).map(|i| i + 1);
    let (from, to) = (number(mv.from)?, number(mv.to)?);
    let mut captured = Squares(mv.captured)
        .map(number)
        .collect::<Option<Vec<usize>>>()?;
    captured.sort_unstable();
    Some((from, to, captured))
}

/// What [`find_move`] found.
enum Found {
    One(Move),
    Many,
    None,
}

/// The legal move of `state` from `from` to `to` (squares of the padded layout) that captures
/// exactly `captured`, or with `None` any legal move between the two squares.
fn find_move<V: Variant>(state: &State, from: u8, to: u8, captured: Option<u64>) -> Found {
    let mut moves = Vec::new();
    movegen::legal_moves::<V>(state, &mut moves);
    let mut matching = moves
        .into_iter()
        .filter(|m| m.from == from && m.to == to && captured.map_or(true, |c| m.captured == c));
    match (matching.next(), matching.next()) {
        (Some(mv), None) => Found::One(mv),
        (Some(_), Some(_)) => Found::Many,
        (None, _) => Found::None,
    }
}
