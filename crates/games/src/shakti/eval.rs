//! The Shakti evaluation, in hundredths of a warrior. A king in check may only step to a
//! neighbouring tile, so what decides is how many tiles are left around each king, and which
//! warriors can land on a tile a king sees (checking it, maybe from afar across removed
//! tiles); then the material (a side without warriors cannot mate), mobility and how close the
//! warriors stand to the enemy king. Every term is counted alike for both sides, so the score
//! for the side to move is its own terms less the opponent's.

use denkmeter_core::Player;

use super::state::{bit, first_tile, Squares, State, SIZE, TABLES};
use super::Move;

/// A warrior: the only piece that gives check.
pub(crate) const WARRIOR: i32 = 100;
/// By the number of tiles around a king (0 to 8) that it could step to when checked: none of
/// its own warriors on them. Few tiles and the king is close to mate.
const SHELTER: [i32; 9] = [-160, -95, -50, -20, 0, 12, 20, 26, 30];
/// A warrior that can land, next move, on a tile the enemy king sees: a check threatened.
const CHECK_THREAT: i32 = 20;
/// Each tile the enemy king sees that a warrior can land on, beyond the first.
const MORE_CHECKS: i32 = 6;
/// Each square a piece can move to.
const MOBILITY: i32 = 2;
/// A warrior by its distance (in king steps, 1 to 6) from the enemy king.
const NEARNESS: [i32; 7] = [0, 16, 12, 8, 4, 0, 0];

/// What `mv` wins at once: the warrior a king takes.
#[inline]
pub(crate) fn move_gain(state: &State, mv: Move) -> i32 {
    if !mv.is_pass() && state.warriors[!state.to_move] & bit(mv.to) != 0 {
        WARRIOR
    } else {
        0
    }
}

/// The evaluation for the side to move.
pub(crate) fn evaluate(state: &State) -> i32 {
    let us = state.to_move;
    side(state, us) - side(state, !us)
}

/// The squares a king on `king` sees that a warrior may land on to check it: the first tile in
/// each direction, when empty.
#[inline]
fn checking_squares(king: u8, tiles: u64, occupied: u64) -> u64 {
    let mut squares = 0;
    for dir in 0..8 {
        if let Some(t) = first_tile(king, dir, tiles) {
            squares |= bit(t);
        }
    }
    squares & !occupied
}

/// The squares a warrior on `from` can move to: the first tile in each direction when it is
/// empty, and the second beyond it when that one is empty too (the tile it jumps is removed
/// then, which this count ignores).
#[inline]
fn warrior_reach(from: u8, tiles: u64, occupied: u64) -> u64 {
    let mut reach = 0;
    for dir in 0..8 {
        let Some(first) = first_tile(from, dir, tiles) else {
            continue;
        };
        if occupied & bit(first) != 0 {
            continue;
        }
        reach |= bit(first);
        if let Some(second) = first_tile(first, dir, tiles) {
            if occupied & bit(second) == 0 {
                reach |= bit(second);
            }
        }
    }
    reach
}

/// The distance in king steps between two squares.
#[inline]
fn distance(a: u8, b: u8) -> usize {
    let (a, b) = (usize::from(a), usize::from(b));
    (a % SIZE)
        .abs_diff(b % SIZE)
        .max((a / SIZE).abs_diff(b / SIZE))
}

/// One side's terms.
fn side(state: &State, p: Player) -> i32 {
    let tiles = state.tiles;
    let occupied = state.occupied();
    let king = state.kings[p];
    let enemy_king = state.kings[!p];
    let own = state.warriors[p];

    let mut score = own.count_ones() as i32 * WARRIOR;
    let around = TABLES.adjacent[usize::from(king)] & tiles & !own;
    score += SHELTER[around.count_ones() as usize];

    // The king's own moves when not in check: the first tile in each direction, if empty.
    let mut moves = 0;
    for dir in 0..8 {
        if let Some(t) = first_tile(king, dir, tiles) {
            moves += i32::from(occupied & bit(t) == 0);
        }
    }
    let targets = checking_squares(enemy_king, tiles, occupied);
    let mut threatened = 0u64;
    for w in Squares(own) {
        let reach = warrior_reach(w, tiles, occupied);
        moves += reach.count_ones() as i32;
        let checks = reach & targets;
        if checks != 0 {
            score += CHECK_THREAT;
            threatened |= checks;
        }
        score += NEARNESS[distance(w, enemy_king)];
    }
    score += MORE_CHECKS * (threatened.count_ones() as i32 - 1).max(0);
    score + MOBILITY * moves
}

/// The position with colours swapped and the board turned half round (for tests).
#[cfg(test)]
pub(crate) fn mirrored(state: &State) -> State {
    use super::state::SQUARES;
    use denkmeter_core::ByPlayer;
    let turn = |bb: u64| Squares(bb).fold(0u64, |m, sq| m | bit(SQUARES as u8 - 1 - sq));
    State::from_parts(
        turn(state.tiles),
        ByPlayer::new(turn(state.warriors.black), turn(state.warriors.white)),
        ByPlayer::new(
            SQUARES as u8 - 1 - state.kings.black,
            SQUARES as u8 - 1 - state.kings.white,
        ),
        !state.to_move,
    )
}
