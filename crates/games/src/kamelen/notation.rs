//! Kamelen's notation: moves (`d2-c5`, `e5xf8`, `pass`) and position strings
//! (`ddddd1ddddd/1cccc1cccc1/11/2X2X2X2/11/11/11/2X2X2X2/11/1CCCC1CCCC1/DDDDD1DDDDD w`).

use denkmeter_core::{ByPlayer, Grid, GridCell, MoveError, Player, PositionError};

use super::movegen;
use super::state::{
    owner_bit, square_name, Piece, State, Tables, BLACK, CAMEL, EMPTY, FILES, MAX_SQUARES, ROCK,
    WHITE,
};
use super::Move;

/// The most animals of each kind a side has (the whole box: 8 camels and 10 dromedaries a
/// side) and the most rocks (6).
const MOST_CAMELS: u32 = 8;
const MOST_DROMEDARIES: u32 = 10;
const MOST_ROCKS: usize = 6;

/// The move in notation: `pass`, `d2-c5`, or `e5xf8` when it captures.
pub(crate) fn move_text(state: &State, mv: Move) -> String {
    if mv.is_pass() {
        return "pass".to_string();
    }
    let target = state.cells[mv.to as usize];
    let separator = if target & owner_bit(!state.to_move) != 0 {
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
    Leap { from: u8, to: u8 },
}

/// Reads a square (`f11`, case-insensitive) at the start of `rest`, returning it and the
/// rest of the text.
fn read_square<'a>(
    text: &str,
    rest: &'a str,
    ranks: usize,
    what: &str,
) -> Result<(u8, &'a str), MoveError> {
    let bytes = rest.as_bytes();
    let Some(&file) = bytes.first().filter(|b| b.is_ascii_alphabetic()) else {
        return Err(MoveError::syntax(
            text,
            format!("expected the {what} square"),
        ));
    };
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Err(MoveError::syntax(
            text,
            format!("expected the {what} square's rank"),
        ));
    }
    let name = &rest[..1 + digits];
    let file = usize::from(file.to_ascii_lowercase().wrapping_sub(b'a'));
    let rank = name[1..].parse::<usize>().unwrap_or(0);
    if file >= FILES || rank == 0 || rank > ranks || digits > 2 || bytes[1] == b'0' {
        return Err(MoveError::syntax(
            text,
            format!("{name} is not a square of the board (a1 to k{ranks})"),
        ));
    }
    Ok(((file + FILES * (rank - 1)) as u8, &rest[1 + digits..]))
}

/// Reads a move's text without looking at the position.
fn read(text: &str, ranks: usize) -> Result<Written, MoveError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(MoveError::syntax(text, "the move is empty"));
    }
    if trimmed.eq_ignore_ascii_case("pass") {
        return Ok(Written::Pass);
    }
    let (from, rest) = read_square(text, trimmed, ranks, "starting")?;
    let rest = match rest.as_bytes().first() {
        Some(b'-' | b'x' | b'X') => &rest[1..],
        _ => {
            return Err(MoveError::syntax(
                text,
                "expected `-` or `x` after the starting square",
            ))
        }
    };
    let (to, rest) = read_square(text, rest, ranks, "destination")?;
    if !rest.is_empty() {
        return Err(MoveError::syntax(
            text,
            format!("unexpected {rest:?} after the move"),
        ));
    }
    Ok(Written::Leap { from, to })
}

/// Reads a move and finds it among the legal moves of `state`; `-` and `x` are read alike.
pub(crate) fn parse_move(t: &Tables, state: &State, text: &str) -> Result<Move, MoveError> {
    let written = read(text, t.ranks)?;
    let mut moves = Vec::new();
    movegen::legal_moves(t, state, &mut moves);
    let side = state.to_move;
    if moves.is_empty() {
        return Err(MoveError::illegal(text, "the game is over"));
    }
    let Written::Leap { from, to } = written else {
        return if moves == [Move::PASS] {
            Ok(Move::PASS)
        } else {
            Err(MoveError::illegal(
                text,
                format!("{side} has a move and may not pass"),
            ))
        };
    };
    if let Some(&mv) = moves.iter().find(|m| m.from == from && m.to == to) {
        return Ok(mv);
    }
    Err(MoveError::illegal(text, why_not(t, state, from, to)))
}

/// Why the leap from `from` to `to` is not a legal move of the side to move.
fn why_not(t: &Tables, state: &State, from: u8, to: u8) -> String {
    let side = state.to_move;
    let (from_name, to_name) = (square_name(from), square_name(to));
    let contents = state.cells[from as usize];
    if contents == ROCK {
        return format!("{from_name} holds a rock, which never moves");
    }
    if contents & owner_bit(side) == 0 {
        return format!("{side} has no animal on {from_name}");
    }
    let kind = if contents & CAMEL != 0 {
        Piece::Camel
    } else {
        Piece::Dromedary
    };
    let Some(leap) = t.leaps(contents, from).iter().find(|l| l.to == to) else {
        return format!(
            "a {} cannot leap from {from_name} to {to_name}",
            kind.name()
        );
    };
    if let Some(&blocker) = [leap.a, leap.b]
        .iter()
        .find(|&&sq| state.cells[sq as usize] != EMPTY)
    {
        return format!(
            "the {}'s way from {from_name} to {to_name} is blocked on {}",
            kind.name(),
            square_name(blocker)
        );
    }
    match state.cells[to as usize] {
        ROCK => format!("{to_name} holds a rock"),
        c if c & owner_bit(side) != 0 => format!("{to_name} holds {side}'s own animal"),
        _ => "not among the legal moves".to_string(),
    }
}

/// The position string of `state` on a board of `ranks` ranks.
pub(crate) fn position_text(state: &State, ranks: usize) -> String {
    let rows = (0..ranks)
        .rev()
        .map(|rank| {
            (0..FILES)
                .map(|file| match state.cells[file + FILES * rank] {
                    EMPTY => GridCell::Empty,
                    ROCK => GridCell::Char(Piece::Rock.letter()),
                    c => {
                        let owner = if c & WHITE != 0 {
                            Player::White
                        } else {
                            Player::Black
                        };
                        let piece = if c & CAMEL != 0 {
                            Piece::Camel
                        } else {
                            Piece::Dromedary
                        };
                        GridCell::Char(piece.letter_of(owner))
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

/// Reads and validates a position string for a board of `ranks` ranks: `C` camel, `D`
/// dromedary (uppercase White, lowercase Black), `X` or `x` rock. No side may have more
/// animals of a kind than the box holds, nor the board more than six rocks.
pub(crate) fn parse_position(text: &str, ranks: usize) -> Result<State, PositionError> {
    let grid = Grid::parse(text, ranks, FILES, |c| "CDcdXx".contains(c))?;
    let mut cells = [EMPTY; MAX_SQUARES];
    for (row, line) in grid.rows.iter().enumerate() {
        let rank = ranks - 1 - row;
        for (file, cell) in line.iter().enumerate() {
            cells[file + FILES * rank] = match cell {
                GridCell::Empty => EMPTY,
                GridCell::Char('C') => WHITE | CAMEL,
                GridCell::Char('D') => WHITE | super::state::DROMEDARY,
                GridCell::Char('c') => BLACK | CAMEL,
                GridCell::Char('d') => BLACK | super::state::DROMEDARY,
                GridCell::Char(_) => ROCK,
            };
        }
    }
    let state = State::from_cells(cells, grid.to_move);
    let counts = ByPlayer::from_fn(|side| {
        (
            state.camels[side].count(),
            state.animals[side].count() - state.camels[side].count(),
        )
    });
    for side in Player::BOTH {
        let (camels, dromedaries) = counts[side];
        if camels > MOST_CAMELS {
            return Err(PositionError::Invalid(format!(
                "{side} has {camels} camels; a side has at most {MOST_CAMELS}"
            )));
        }
        if dromedaries > MOST_DROMEDARIES {
            return Err(PositionError::Invalid(format!(
                "{side} has {dromedaries} dromedaries; a side has at most {MOST_DROMEDARIES}"
            )));
        }
    }
    let rocks = state.rocks().count();
    if rocks > MOST_ROCKS {
        return Err(PositionError::Invalid(format!(
            "the board has {rocks} rocks; there are at most {MOST_ROCKS}"
        )));
    }
    Ok(state)
}
