//! Point names, move texts (`K@b2`, `b2-c2`, `b2xd2xd4`, `pass`) and position strings (with
//! ` setup` while the kings are being chosen).

use denkmeter_core::{Grid, GridCell, MoveError, Player, PositionError};

use super::movegen::{routes, Move};
use super::state::{coords, goal, home, point, start_set, Phase, State, POINTS};

/// The name of point `p`: file letter and rank digit, e.g. `b2`.
pub(crate) fn point_name(p: u8) -> String {
    let (i, j) = coords(p);
    format!("{}{}", (b'a' + i) as char, j + 1)
}

/// The point a name such as `b2` stands for.
fn read_point(text: &str, whole: &str) -> Result<u8, MoveError> {
    let bytes = text.as_bytes();
    match bytes {
        [f @ b'a'..=b'e', r @ b'1'..=b'5'] => Ok(point(f - b'a', r - b'1')),
        _ => Err(MoveError::syntax(
            whole,
            format!("{text:?} is not a point (a1 to e5)"),
        )),
    }
}

/// The route of `mv` that its text shows: the fewest jumps, then the smallest list of landing
/// points (ordered by file, then rank).
fn written_route(state: &State, mv: Move) -> Vec<u8> {
    let key = |p: u8| {
        let (i, j) = coords(p);
        (i, j)
    };
    routes(state, mv.from)
        .into_iter()
        .filter(|(path, enemy)| path.last() == Some(&mv.to) && *enemy == mv.jumped)
        .map(|(path, _)| path)
        .min_by(|a, b| {
            a.len()
                .cmp(&b.len())
                .then_with(|| a.iter().map(|&p| key(p)).cmp(b.iter().map(|&p| key(p))))
        })
        .unwrap_or_else(|| vec![mv.from, mv.to])
}

/// Whether `mv` is a step (one point along a line) rather than a jump.
fn is_step(mv: Move) -> bool {
    let (a, b) = (coords(mv.from), coords(mv.to));
    let (di, dj) = (
        i16::from(b.0) - i16::from(a.0),
        i16::from(b.1) - i16::from(a.1),
    );
    di.abs() <= 1 && dj.abs() <= 1 && di != dj
}

/// The move's text in `state` (where it is legal).
pub(crate) fn move_text(state: &State, mv: Move) -> String {
    if mv.is_pass() {
        return "pass".to_string();
    }
    if mv.is_setup() {
        return format!("K@{}", point_name(mv.to));
    }
    if is_step(mv) {
        return format!("{}-{}", point_name(mv.from), point_name(mv.to));
    }
    jump_route_text(&written_route(state, mv))
}

fn jump_route_text(path: &[u8]) -> String {
    path.iter()
        .map(|&p| point_name(p))
        .collect::<Vec<_>>()
        .join("x")
}

/// The landing points of the route a jump move's text shows, the start first (empty for a
/// setup move, a step or the pass).
pub(crate) fn route(state: &State, mv: Move) -> Vec<u8> {
    if mv.is_pass() || mv.is_setup() || is_step(mv) {
        Vec::new()
    } else {
        written_route(state, mv)
    }
}

/// Reads a move and finds it among `moves`, the legal moves of `state`.
pub(crate) fn parse_move(state: &State, text: &str, moves: &[Move]) -> Result<Move, MoveError> {
    let clean = text.trim().to_ascii_lowercase();
    if clean.is_empty() {
        return Err(MoveError::syntax(text, "the move is empty"));
    }
    let illegal = |why: &str| MoveError::illegal(text, why.to_string());
    if clean == "pass" {
        return moves
            .iter()
            .copied()
            .find(|m| m.is_pass())
            .ok_or_else(|| illegal("a player passes only when he cannot move"));
    }
    if let Some(at) = clean.strip_prefix("k@") {
        let p = read_point(at, text)?;
        return moves
            .iter()
            .copied()
            .find(|&m| m.is_setup() && m.to == p)
            .ok_or_else(|| {
                illegal(if state.phase == Phase::Setup {
                    "the king must be one of your own pieces"
                } else {
                    "the kings have been chosen"
                })
            });
    }
    let path = clean
        .split(['-', 'x'])
        .map(|part| read_point(part, text))
        .collect::<Result<Vec<u8>, _>>()?;
    if path.len() < 2 {
        return Err(MoveError::syntax(
            text,
            "expected K@point, pass, or points joined by - or x (b2-c2, b2xd2xd4)",
        ));
    }
    let (from, to) = (path[0], path[path.len() - 1]);
    if path.len() == 2 {
        let mut candidates = moves
            .iter()
            .copied()
            .filter(|m| !m.is_pass() && !m.is_setup() && m.from == from && m.to == to);
        let first = candidates.next();
        let second = candidates.next();
        match (first, second) {
            (Some(mv), None) => return Ok(mv),
            (Some(_), Some(_)) => {
                // Several jumps end there: the route must say which; a single jump's route is
                // the two points.
            }
            (None, _) => return Err(illegal("no legal move goes from there to there")),
        }
    }
    let found = routes(state, from)
        .into_iter()
        .find(|(route, _)| *route == path)
        .and_then(|(_, enemy)| {
            moves
                .iter()
                .copied()
                .find(|m| m.from == from && m.to == to && m.jumped == enemy)
        });
    found.ok_or_else(|| {
        illegal(if path.len() == 2 {
            "several jump routes end there; give the whole route (b2xd2xd4)"
        } else {
            "no legal jump route lands on these points in this order"
        })
    })
}

/// The position string.
pub(crate) fn position_text(state: &State) -> String {
    let rows: Vec<Vec<Option<char>>> = (0..5u8)
        .rev()
        .map(|j| {
            (0..5u8)
                .map(|i| {
                    let p = point(i, j);
                    let side = state.owner(p)?;
                    let letter = if state.kings & 1 << p != 0 { 'K' } else { 'S' };
                    Some(match side {
                        Player::White => letter,
                        Player::Black => letter.to_ascii_lowercase(),
                    })
                })
                .collect()
        })
        .collect();
    let mut text = Grid::from_chars(&rows, state.to_move).to_text();
    if state.phase == Phase::Setup {
        text.push_str(" setup");
    }
    text
}

/// Reads a position string (see the rules page), refusing positions the rules cannot reach.
pub(crate) fn parse_position(text: &str) -> Result<State, PositionError> {
    let trimmed = text.trim();
    let (board, setup) = match trimmed.strip_suffix("setup") {
        Some(rest) if rest.ends_with(char::is_whitespace) => (rest.trim_end(), true),
        _ => (trimmed, false),
    };
    let grid = Grid::parse(board, 5, 5, |c| matches!(c, 'K' | 'k' | 'S' | 's'))?;
    let mut state = State {
        pieces: denkmeter_core::ByPlayer::new(0, 0),
        kings: 0,
        unflipped: 0,
        hidden: denkmeter_core::ByPlayer::new(false, false),
        phase: if setup { Phase::Setup } else { Phase::Play },
        to_move: grid.to_move,
    };
    let invalid = |why: String| Err(PositionError::Invalid(why));
    for (r, row) in grid.rows.iter().enumerate() {
        for (i, cell) in row.iter().enumerate() {
            let GridCell::Char(c) = *cell else { continue };
            let p = point(i as u8, 4 - r as u8);
            let side = if c.is_ascii_uppercase() {
                Player::White
            } else {
                Player::Black
            };
            let king = c.eq_ignore_ascii_case(&'k');
            if p == home(side) {
                return invalid(format!(
                    "{side} has a piece on {}, his own home point, where no move ends",
                    point_name(p)
                ));
            }
            if p == goal(side) && !king {
                return invalid(format!(
                    "a {side} soldier on {}, his goal, would have been removed",
                    point_name(p)
                ));
            }
            if king && state.kings & state.pieces[side] != 0 {
                return invalid(format!("{side} has more than one king"));
            }
            state.pieces[side] |= 1 << p;
            if king {
                state.kings |= 1 << p;
            }
        }
    }
    let total = state.occupied().count_ones();
    if total > 10 {
        return invalid(format!("{total} pieces; the game has ten"));
    }
    state.unflipped = state.occupied();
    let on_goal = |side: Player| state.kings & state.pieces[side] & 1 << goal(side) != 0;
    if on_goal(Player::White) && on_goal(Player::Black) {
        return invalid("both kings stand on their goals".to_string());
    }
    if setup {
        for side in Player::BOTH {
            if state.pieces[side] != start_set(side) {
                return invalid(format!(
                    "during the setup {side}'s pieces stand on their start points"
                ));
            }
        }
        let white_chose = state.kings & state.pieces[Player::White] != 0;
        if state.kings & state.pieces[Player::Black] != 0
            || white_chose != (state.to_move == Player::Black)
        {
            return invalid(
                "during the setup White's king is chosen exactly when Black is to move, and \
                 Black's never"
                    .to_string(),
            );
        }
    }
    debug_assert!(state.occupied() < 1 << POINTS);
    Ok(state)
}
