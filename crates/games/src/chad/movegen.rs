//! Move generation from the tables. Only rooks and queens give check, so the lines from the
//! king's square tell which pieces are pinned and which give check; only the king's own moves
//! are tested on the board.

use std::ops::ControlFlow;

use denkmeter_core::Player;

use super::state::{Kind, Move, Piece, State};
use super::tables::{direction, in_castle, king_targets, on_wall, ray, SquareName, CELLS};

/// Whether a piece of `by` gives check to (or would give check to) a king on `sq`: the first
/// piece along some line from `sq` is an enemy queen, or an enemy rook on a rank or file.
#[inline]
pub(crate) fn attacked(board: &[Option<Piece>; CELLS], sq: usize, by: Player) -> bool {
    let rook = Some(Piece::new(by, Kind::Rook));
    let queen = Some(Piece::new(by, Kind::Queen));
    for dir in 0..8 {
        let orthogonal = dir % 2 == 0;
        for &t in ray(sq, dir) {
            let p = board[t as usize];
            if p.is_some() {
                if p == queen || (orthogonal && p == rook) {
                    return true;
                }
                break;
            }
        }
    }
    false
}

/// Whether the side to move is in check.
pub(crate) fn in_check(state: &State) -> bool {
    let us = state.to_move;
    attacked(&state.board, state.kings[us] as usize, !us)
}

/// The capture right of rooks and queens: from the enemy wall into the enemy castle, or from
/// inside one's own castle onto one's own wall.
#[inline]
pub(crate) const fn may_capture(us: Player, from: usize, to: usize) -> bool {
    (on_wall(us.opponent(), from) && in_castle(us.opponent(), to))
        || (in_castle(us, from) && on_wall(us, to))
}

/// Whether `piece` going from `from` to `to` leaves its king (on `king`, or on `to` for the king
/// itself) out of check. `scratch` is the board before the move and is restored.
#[inline]
fn is_safe(
    scratch: &mut [Option<Piece>; CELLS],
    piece: Piece,
    from: usize,
    to: usize,
    king: usize,
) -> bool {
    let saved = scratch[to];
    scratch[from] = None;
    scratch[to] = Some(piece);
    let safe = !attacked(scratch, king, piece.owner().opponent());
    scratch[to] = saved;
    scratch[from] = Some(piece);
    safe
}

/// What the lines through the king of the side to move say about its moves: which of its
/// pieces are pinned, along which line, and which enemy pieces give check.
struct KingLines {
    /// `(square, direction from the king)` of each pinned piece.
    pinned: [(u8, u8); 8],
    pins: usize,
    /// The squares a piece other than the king may go to when in check by one piece: the
    /// checking line from the king (excluded) to the checker (included).
    block: &'static [u8],
    checks: usize,
}

impl KingLines {
    fn new(board: &[Option<Piece>; CELLS], king: usize, us: Player) -> KingLines {
        let mut lines = KingLines {
            pinned: [(0, 0); 8],
            pins: 0,
            block: &[],
            checks: 0,
        };
        for dir in 0..8 {
            let orthogonal = dir % 2 == 0;
            let gives_check = |p: Piece| {
                p.owner() != us
                    && (p.kind() == Kind::Queen || (orthogonal && p.kind() == Kind::Rook))
            };
            let line = ray(king, dir);
            let mut own: Option<u8> = None;
            for (i, &t) in line.iter().enumerate() {
                let Some(p) = board[t as usize] else { continue };
                match own {
                    None if p.owner() == us => own = Some(t),
                    None => {
                        if gives_check(p) {
                            lines.checks += 1;
                            lines.block = &line[..=i];
                        }
                        break;
                    }
                    Some(pinned) => {
                        if gives_check(p) {
                            lines.pinned[lines.pins] = (pinned, dir as u8);
                            lines.pins += 1;
                        }
                        break;
                    }
                }
            }
        }
        lines
    }

    /// The direction along which the piece on `sq` is pinned, if it is.
    fn pin(&self, sq: usize) -> Option<usize> {
        self.pinned[..self.pins]
            .iter()
            .find(|&&(p, _)| p as usize == sq)
            .map(|&(_, dir)| dir as usize)
    }
}

/// Calls `f` with every legal move of the side to move, in a fixed order (by start square, then
/// direction, then distance), until `f` breaks.
///
/// Only the king's moves are tried on the board for safety. Another piece's move is legal
/// unless the piece is pinned and leaves its line, or the king is in check and the move
/// neither blocks nor takes the checker (in double check only the king moves).
pub(crate) fn for_each_legal(
    state: &State,
    mut f: impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let us = state.to_move;
    let them = !us;
    let board = &state.board;
    let king = state.kings[us] as usize;
    let lines = KingLines::new(board, king, us);
    let mut scratch = *board;
    for from in 0..CELLS {
        let Some(piece) = board[from] else { continue };
        if piece.owner() != us {
            continue;
        }
        match piece.kind() {
            Kind::King => {
                for &to in king_targets(from) {
                    let to = to as usize;
                    let capture = match board[to] {
                        None => false,
                        Some(t) if t.owner() == them && t.kind() != Kind::King => true,
                        Some(_) => continue,
                    };
                    if is_safe(&mut scratch, piece, from, to, to) {
                        f(Move::new(from, to, capture, false))?;
                    }
                }
            }
            kind => {
                if lines.checks > 1 {
                    continue;
                }
                let pin = lines.pin(from);
                if pin.is_some() && lines.checks > 0 {
                    // A pinned piece stays on a line through the king: it cannot meet another.
                    continue;
                }
                let rook = kind == Kind::Rook;
                let step = if rook { 2 } else { 1 };
                for dir in (0..8).step_by(step) {
                    if pin.is_some_and(|p| dir != p && dir != (p + 4) % 8) {
                        continue;
                    }
                    for &to in ray(from, dir) {
                        let to = to as usize;
                        let target = board[to];
                        let capture = match target {
                            None => false,
                            Some(t)
                                if t.owner() == them
                                    && t.kind() != Kind::King
                                    && may_capture(us, from, to) =>
                            {
                                true
                            }
                            Some(_) => break,
                        };
                        let promotion = rook && in_castle(them, to);
                        if lines.checks == 0 || lines.block.contains(&(to as u8)) {
                            f(Move::new(from, to, capture, promotion))?;
                        }
                        if capture {
                            break;
                        }
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Whether the side to move has a legal move.
pub(crate) fn has_legal_move(state: &State) -> bool {
    for_each_legal(state, |_| ControlFlow::Break(())).is_break()
}

/// Why a move from `from` to `to` by the side to move is not pseudo-legal, or `None` if it is
/// (then it can only be illegal by leaving the king in check). For error messages.
pub(crate) fn pseudo_legal_error(state: &State, from: usize, to: usize) -> Option<String> {
    let us = state.to_move;
    let (f, t) = (SquareName(from), SquareName(to));
    let Some(piece) = state.board[from].filter(|p| p.owner() == us) else {
        return Some(format!("no piece of the side to move on {f}"));
    };
    if from == to {
        return Some("the piece must leave its square".to_string());
    }
    let target = state.board[to];
    if target.is_some_and(|p| p.owner() == us) {
        return Some(format!("{t} is occupied by a piece of the side to move"));
    }
    if target.is_some_and(|p| p.kind() == Kind::King) {
        return Some("kings are never captured".to_string());
    }
    match piece.kind() {
        Kind::King => {
            if !in_castle(us, to) {
                Some("the king may not leave its castle".to_string())
            } else if !king_targets(from).contains(&(to as u8)) {
                Some("the king moves one step or a knight's jump".to_string())
            } else {
                None
            }
        }
        kind => {
            let Some(dir) = direction(from, to, kind == Kind::Rook) else {
                return Some(if kind == Kind::Rook {
                    "a rook moves along a rank or file".to_string()
                } else {
                    "a queen moves along a rank, file or diagonal".to_string()
                });
            };
            let path = ray(from, dir);
            for &sq in path.iter().take_while(|&&sq| sq as usize != to) {
                if state.board[sq as usize].is_some() {
                    return Some(format!("the way is blocked on {}", SquareName(sq as usize)));
                }
            }
            if target.is_some() && !may_capture(us, from, to) {
                return Some(format!(
                    "{}s cannot capture outside the wall/castle right (only from the enemy wall \
                     into the enemy castle, or from inside their own castle onto their own wall)",
                    kind.name()
                ));
            }
            None
        }
    }
}
