//! Move generation: every legal move of one side, and playing a move on a state.
//!
//! The moves of a piece are its steps to empty neighbours and every square a chain of jumps over
//! its own pieces can reach. A chain never changes the board (captures come after the move), so
//! the squares a chain can reach are those reachable in a fixed graph of landings, found by a
//! breadth-first search that lists each once: exactly the moves (from, to), with no duplicate
//! routes. The piece's own start square never matters during a chain: every landing lies an
//! even number of files and ranks from the start, so the start is never the square jumped over,
//! and it cannot be landed on since it is not empty in the board the search reads.

use denkmeter_core::{Player, Reason};

use super::state::{
    piece_key, side_key, step, stone, Squares, State, DIRECTIONS, EMPTY, NO_SQUARE, ORTHOGONAL,
};
use super::Move;

/// How a finished game ended, read from the position alone (see [`ending`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The player holds all four Fort squares.
    Fort(Player),
    /// Both players have fewer than four pieces.
    BothBelowFour,
    /// The player has fewer than four pieces (and the other at least four).
    BelowFour(Player),
}

impl Ending {
    /// The winner (`None` for a draw) and the reason.
    pub(crate) fn result(self) -> (Option<Player>, Reason) {
        match self {
            Ending::Fort(p) => (Some(p), Reason::Goal),
            Ending::BothBelowFour => (None, Reason::TooFewPieces),
            Ending::BelowFour(p) => (Some(!p), Reason::TooFewPieces),
        }
    }
}

/// The fewest pieces a player may have and still play on for a win.
pub(crate) const FEWEST: u8 = 4;

/// Whether and how the game is over, by the rules' status order: a player on all four Fort
/// squares wins; both players below four pieces draw; unless `LOSS_AT_THREE` is off, a player
/// below four pieces loses.
#[inline]
pub(crate) fn ending<const LOSS_AT_THREE: bool>(state: &State) -> Option<Ending> {
    if let Some(p) = state.fort_holder() {
        return Some(Ending::Fort(p));
    }
    let (white, black) = (state.counts.white, state.counts.black);
    if white >= FEWEST && black >= FEWEST {
        return None;
    }
    if white < FEWEST && black < FEWEST {
        return Some(Ending::BothBelowFour);
    }
    if !LOSS_AT_THREE {
        return None;
    }
    Some(Ending::BelowFour(if white < FEWEST {
        Player::White
    } else {
        Player::Black
    }))
}

/// Appends every move of `side` (passes excluded) to `moves`: for each piece, lowest square
/// first, its steps in direction order, then its jump landings in the order found.
#[inline]
pub(crate) fn generate(state: &State, side: Player, moves: &mut Vec<Move>) {
    let board = &state.board;
    let own = stone(side);
    for from in state.pieces[side].iter() {
        let mut jumps = false;
        for d in DIRECTIONS {
            let next = step(from, d);
            let b = board[next as usize];
            if b == EMPTY {
                moves.push(Move::new(from, next));
            } else if b == own && board[step(next, d) as usize] == EMPTY {
                jumps = true;
            }
        }
        if !jumps {
            continue;
        }
        // Breadth-first over the landings, using the move list itself as the queue.
        let mut seen = Squares::EMPTY;
        let first = moves.len();
        let mut expand = |at: u16, moves: &mut Vec<Move>| {
            for d in DIRECTIONS {
                let over = step(at, d);
                if board[over as usize] != own {
                    continue;
                }
                let landing = step(over, d);
                if board[landing as usize] == EMPTY && !seen.contains(landing) {
                    seen.insert(landing);
                    moves.push(Move::new(from, landing));
                }
            }
        };
        expand(from, moves);
        let mut i = first;
        while i < moves.len() {
            let at = moves[i].to;
            expand(at, moves);
            i += 1;
        }
    }
}

/// Every legal move of the side to move: its moves, or a lone pass when it has none; nothing
/// when the game is over.
#[inline]
pub(crate) fn legal_moves<const LOSS_AT_THREE: bool>(state: &State, moves: &mut Vec<Move>) {
    moves.clear();
    if ending::<LOSS_AT_THREE>(state).is_some() {
        return;
    }
    generate(state, state.to_move, moves);
    if moves.is_empty() {
        moves.push(Move::PASS);
    }
}

/// The capture directions: all eight, or the four orthogonal ones.
#[inline(always)]
const fn capture_directions(diagonal: bool) -> &'static [isize] {
    if diagonal {
        &DIRECTIONS
    } else {
        &ORTHOGONAL
    }
}

/// The enemy pieces a move of the side to move from `from` to `to` captures: for each capture
/// direction, the enemy piece next to `to` if the square beyond it holds a piece of the mover
/// (with `from` already vacated).
pub(crate) fn captures(state: &State, from: u16, to: u16, diagonal: bool) -> Vec<u16> {
    let own = stone(state.to_move);
    let enemy = stone(!state.to_move);
    capture_directions(diagonal)
        .iter()
        .filter_map(|&d| {
            let next = step(to, d);
            let beyond = step(next, d);
            (state.board[next as usize] == enemy
                && state.board[beyond as usize] == own
                && beyond != from)
                .then_some(next)
        })
        .collect()
}

/// How many enemy pieces a move of the side to move from `from` to `to` captures: the count of
/// [`captures`], without building the list (alpha-beta asks for every move it orders).
#[inline]
pub(crate) fn capture_count(state: &State, from: u16, to: u16, diagonal: bool) -> i32 {
    let own = stone(state.to_move);
    let enemy = stone(!state.to_move);
    let mut count = 0;
    for &d in capture_directions(diagonal) {
        let next = step(to, d);
        if state.board[next as usize] == enemy {
            let beyond = step(next, d);
            count += i32::from(state.board[beyond as usize] == own && beyond != from);
        }
    }
    count
}

/// Plays a legal move, keeping the counts and the hash up to date: the piece moves, then every
/// enemy piece it sandwiches along a capture direction (all eight if `DIAGONAL`, else the
/// orthogonal four) is removed.
#[inline]
pub(crate) fn play<const DIAGONAL: bool>(state: &mut State, mv: Move) {
    let side = state.to_move;
    if mv.from != NO_SQUARE {
        let (from, to) = (mv.from, mv.to);
        let own = stone(side);
        let enemy = stone(!side);
        state.board[from as usize] = EMPTY;
        state.board[to as usize] = own;
        state.pieces[side].remove(from);
        state.pieces[side].insert(to);
        state.hash ^= piece_key(side, from) ^ piece_key(side, to);
        for &d in capture_directions(DIAGONAL) {
            let next = step(to, d);
            if state.board[next as usize] == enemy && state.board[step(next, d) as usize] == own {
                state.board[next as usize] = EMPTY;
                state.pieces[!side].remove(next);
                state.counts[!side] -= 1;
                state.hash ^= piece_key(!side, next);
            }
        }
    }
    state.to_move = !side;
    state.hash ^= side_key();
}
