//! Move generation: every legal move of one side, and playing a move on a state.

use std::ops::ControlFlow;

use denkmeter_core::Player;

use super::state::{
    attacked, bit, first_tile, king_key, sees, side_key, tile_key, warrior_key, Squares, State,
    NO_SQUARE, TABLES,
};
use super::Move;

/// Calls `emit` with every legal move of `side` in `state` (passes excluded), whoever is to
/// move, until `emit` breaks. Kings first, then warriors.
pub(crate) fn for_each_move(
    state: &State,
    side: Player,
    mut emit: impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let tiles = state.tiles;
    let king = state.kings[side];
    let enemy_king = state.kings[!side];
    let enemy_warriors = state.warriors[!side];
    let occupied = state.occupied();
    let in_check = attacked(king, enemy_warriors, tiles);

    // The king: tiles stay, so a destination is safe when no remaining enemy warrior and not
    // the enemy king sees it. The square it leaves keeps its tile and blocks as before.
    let safe_for_king = |to: u8| {
        let warriors = enemy_warriors & !bit(to);
        !attacked(to, warriors, tiles) && !sees(to, enemy_king, tiles)
    };
    if in_check {
        let targets = TABLES.adjacent[king as usize] & tiles & !(occupied & !enemy_warriors);
        for to in Squares(targets) {
            if safe_for_king(to) {
                emit(Move::new(king, to, NO_SQUARE))?;
            }
        }
    } else {
        for dir in 0..8 {
            if let Some(to) = first_tile(king, dir, tiles) {
                if occupied & bit(to) == 0 && safe_for_king(to) {
                    emit(Move::new(king, to, NO_SQUARE))?;
                }
            }
        }
    }

    // Warriors: a one-step move changes no tile and so keeps the king's safety as it is; a
    // two-step move removes a tile, which may open a line to the king (or between the kings).
    for from in Squares(state.warriors[side]) {
        for dir in 0..8 {
            let Some(first) = first_tile(from, dir, tiles) else {
                continue;
            };
            if occupied & bit(first) != 0 {
                continue;
            }
            if !in_check {
                emit(Move::new(from, first, NO_SQUARE))?;
            }
            let after = tiles & !bit(first);
            let Some(second) = first_tile(first, dir, tiles) else {
                continue;
            };
            if occupied & bit(second) == 0
                && !attacked(king, enemy_warriors, after)
                && !sees(king, enemy_king, after)
            {
                emit(Move::new(from, second, first))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Whether `side` has a legal move (not counting a pass) in `state`.
pub(crate) fn has_move(state: &State, side: Player) -> bool {
    for_each_move(state, side, |_| ControlFlow::Break(())).is_break()
}

/// Every legal move of the side to move: its moves, or a lone pass when it has none, is not in
/// check and the opponent can move; nothing when the game is over.
pub(crate) fn legal_moves(state: &State, moves: &mut Vec<Move>) {
    moves.clear();
    let side = state.to_move;
    let _ = for_each_move(state, side, |mv| {
        moves.push(mv);
        ControlFlow::Continue(())
    });
    if moves.is_empty() && !state.is_in_check(side) && has_move(state, !side) {
        moves.push(Move::PASS);
    }
}

/// Plays a legal move, keeping the hash up to date.
pub(crate) fn play(state: &mut State, mv: Move) {
    let side = state.to_move;
    if !mv.is_pass() {
        let (from, to) = (mv.from, mv.to);
        if state.kings[side] == from {
            state.kings[side] = to;
            state.hash ^= king_key(side, from) ^ king_key(side, to);
            if state.warriors[!side] & bit(to) != 0 {
                state.warriors[!side] &= !bit(to);
                state.hash ^= warrior_key(!side, to);
            }
        } else {
            state.warriors[side] ^= bit(from) | bit(to);
            state.hash ^= warrior_key(side, from) ^ warrior_key(side, to);
            if mv.removed != NO_SQUARE {
                state.tiles &= !bit(mv.removed);
                state.hash ^= tile_key(mv.removed);
            }
        }
    }
    state.to_move = !side;
    state.hash ^= side_key();
}
