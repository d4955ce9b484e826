//! The Chad evaluation, in hundredths of a rook: material, then the pressure on the enemy
//! castle's wall (a piece standing on it may capture into the castle, and one that can reach it
//! is about to), the rooks that can slide into the enemy castle and become queens, and the
//! king's room to step or jump inside its castle. Every term is counted alike for both sides,
//! so the score for the side to move is its own terms less the opponent's.

use denkmeter_core::Player;

use super::movegen::attacked;
use super::state::{Kind, Move, Piece, State};
use super::tables::{in_castle, king_targets, on_wall, ray};

/// A rook.
pub(crate) const ROOK: i32 = 100;
/// A queen: she slides along diagonals too, gives check from afar, and inside the enemy castle
/// only the king can take her.
pub(crate) const QUEEN: i32 = 300;
/// A piece standing on the enemy wall, where it may capture into the castle and where the
/// defenders inside may capture it.
const ON_ENEMY_WALL: i32 = 12;
/// A piece on the enemy wall that faces an enemy defender inside the castle it may capture.
const CAPTURE_THREAT: i32 = 15;
/// A piece off the enemy wall that can slide onto it next move.
const REACHES_WALL: i32 = 4;
/// A rook that can slide into the enemy castle next move and become a queen there.
const PROMOTION_PATH: i32 = 18;
/// A piece inside its own castle: it guards the wall, the only squares it may capture on.
const DEFENDER: i32 = 6;
/// Each king step or jump onto a free (or capturable) castle square that no enemy piece faces.
const KING_ROOM: i32 = 5;
/// A king without any such square.
const KING_SHUT_IN: i32 = 30;

/// The value of a piece as material (a king counts nothing: kings are never taken).
#[inline]
pub(crate) const fn value(piece: Piece) -> i32 {
    match piece.kind() {
        Kind::King => 0,
        Kind::Rook => ROOK,
        Kind::Queen => QUEEN,
    }
}

/// What `mv` wins at once: the piece it captures, and a queen's worth over a rook when it
/// promotes.
#[inline]
pub(crate) fn move_gain(state: &State, mv: Move) -> i32 {
    let mut gain = 0;
    if mv.is_capture() {
        gain += state.board[mv.end_index()].map_or(0, value);
    }
    if mv.is_promotion() {
        gain += QUEEN - ROOK;
    }
    gain
}

/// The evaluation for the side to move.
pub(crate) fn evaluate(state: &State) -> i32 {
    let mut score = [0i32; 2];
    for (sq, piece) in state.board.iter().enumerate() {
        let Some(piece) = *piece else { continue };
        let us = piece.owner();
        let kind = piece.kind();
        if kind == Kind::King {
            continue;
        }
        score[us.index()] += value(piece) + piece_terms(state, sq, us, kind == Kind::Rook);
    }
    for p in Player::BOTH {
        score[p.index()] += king_terms(state, p);
    }
    let us = state.to_move.index();
    score[us] - score[1 - us]
}

/// The wall, promotion and defence terms of a rook (`rook`) or queen of `us` on `sq`.
#[inline]
fn piece_terms(state: &State, sq: usize, us: Player, rook: bool) -> i32 {
    let them = !us;
    let mut terms = 0;
    if in_castle(us, sq) {
        terms += DEFENDER;
    }
    let on_enemy_wall = on_wall(them, sq);
    if on_enemy_wall {
        terms += ON_ENEMY_WALL;
    }
    let (mut reaches_wall, mut promotes, mut threat) = (false, false, false);
    let step = if rook { 2 } else { 1 };
    for dir in (0..8).step_by(step) {
        for &t in ray(sq, dir) {
            let t = usize::from(t);
            match state.board[t] {
                None => {
                    reaches_wall |= !on_enemy_wall && on_wall(them, t);
                    promotes |= rook && in_castle(them, t);
                }
                Some(p) => {
                    threat |= on_enemy_wall
                        && p.owner() == them
                        && p.kind() != Kind::King
                        && in_castle(them, t);
                    break;
                }
            }
        }
    }
    if reaches_wall {
        terms += REACHES_WALL;
    }
    if promotes {
        terms += PROMOTION_PATH;
    }
    if threat {
        terms += CAPTURE_THREAT;
    }
    terms
}

/// The room of `p`'s king: the castle squares it may step or jump to (free, or holding an enemy
/// piece it could take) that no enemy piece faces.
#[inline]
fn king_terms(state: &State, p: Player) -> i32 {
    let king = usize::from(state.kings[p]);
    let mut board = state.board;
    board[king] = None;
    let room = king_targets(king)
        .iter()
        .filter(|&&t| {
            let t = usize::from(t);
            board[t].map_or(true, |piece| piece.owner() != p) && !attacked(&board, t, !p)
        })
        .count() as i32;
    if room == 0 {
        -KING_SHUT_IN
    } else {
        KING_ROOM * room
    }
}

/// The position with colours swapped and the board turned half round: the same game seen
/// from the other side (for tests).
#[cfg(test)]
pub(crate) fn mirrored(state: &State) -> State {
    use super::tables::CELLS;
    let mut board = [None; CELLS];
    for (sq, piece) in state.board.iter().enumerate() {
        if let Some(piece) = piece {
            board[CELLS - 1 - sq] = Some(Piece::new(!piece.owner(), piece.kind()));
        }
    }
    State::from_parts(board, !state.to_move)
}
