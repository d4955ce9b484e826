//! Move generation: every legal move of one side, playing a move, and the questions the
//! status and the evaluation ask (is the game over, is a square attacked).

use std::ops::ControlFlow;

use denkmeter_core::Player;

use super::state::{key, owner_bit, side_key, State, Tables, BLACK, CAMEL, EMPTY, ROCK, WHITE};
use super::Move;

/// Whether the position is finished: a camel on the enemy home-field, or a side without
/// able camels.
#[inline]
pub(crate) fn is_finished(t: &Tables, state: &State) -> bool {
    state.cells[t.home.black as usize] == WHITE | CAMEL
        || state.cells[t.home.white as usize] == BLACK | CAMEL
        || !has_able_camel(t, state, Player::White)
        || !has_able_camel(t, state, Player::Black)
}

/// Whether `side` has a camel on a square of the enemy home-field's colour.
#[inline]
pub(crate) fn has_able_camel(t: &Tables, state: &State, side: Player) -> bool {
    !state.camels[side].and(t.able[side]).is_empty()
}

/// Calls `emit` with every move of `side`'s animals (passes excluded), whoever is to move,
/// until `emit` breaks. A leap is legal when both squares it passes are empty and it lands on
/// an empty square or an enemy animal (never a rock, never an own animal).
#[inline(always)]
pub(crate) fn for_each_move(
    t: &Tables,
    state: &State,
    side: Player,
    mut emit: impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let cells = &state.cells;
    let blocked = ROCK | owner_bit(side);
    for from in state.animals[side].squares() {
        for leap in t.leaps(cells[from as usize], from) {
            if cells[leap.a as usize] | cells[leap.b as usize] == EMPTY
                && cells[leap.to as usize] & blocked == 0
            {
                emit(Move::new(from, leap.to))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The number of moves of `side`'s animals (passes excluded), whoever is to move.
pub(crate) fn count_moves(t: &Tables, state: &State, side: Player) -> i32 {
    let mut n = 0;
    let _ = for_each_move(t, state, side, |_| {
        n += 1;
        ControlFlow::Continue(())
    });
    n
}

/// Every legal move of the side to move: nothing when the game is over, else its moves, or a
/// lone pass when it has none.
pub(crate) fn legal_moves(t: &Tables, state: &State, moves: &mut Vec<Move>) {
    moves.clear();
    if is_finished(t, state) {
        return;
    }
    let _ = for_each_move(t, state, state.to_move, |mv| {
        moves.push(mv);
        ControlFlow::Continue(())
    });
    if moves.is_empty() {
        moves.push(Move::PASS);
    }
}

/// Plays a legal move, keeping the sets and the hash up to date.
#[inline]
pub(crate) fn play(state: &mut State, mv: Move) {
    let side = state.to_move;
    state.to_move = !side;
    state.hash ^= side_key();
    if mv.is_pass() {
        return;
    }
    let (from, to) = (mv.from, mv.to);
    let piece = state.cells[from as usize];
    let target = state.cells[to as usize];
    if target != EMPTY {
        // An enemy animal: captured.
        state.hash ^= key(target, to);
        state.animals[!side].remove(to);
        state.camels[!side].remove(to);
    }
    state.cells[from as usize] = EMPTY;
    state.cells[to as usize] = piece;
    state.hash ^= key(piece, from) ^ key(piece, to);
    state.animals[side].remove(from);
    state.animals[side].insert(to);
    if piece & CAMEL != 0 {
        state.camels[side].remove(from);
        state.camels[side].insert(to);
    }
}

/// Whether an animal of `by` could capture on `sq` now (the square's own contents aside).
pub(crate) fn is_attacked(t: &Tables, state: &State, sq: u8, by: Player) -> bool {
    let cells = &state.cells;
    [CAMEL, super::state::DROMEDARY].into_iter().any(|kind| {
        let wanted = owner_bit(by) | kind;
        t.arrivals(kind, sq).iter().any(|leap| {
            cells[leap.to as usize] == wanted
                && cells[leap.a as usize] | cells[leap.b as usize] == EMPTY
        })
    })
}
