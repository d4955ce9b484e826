//! Move generation for both families of rules, and playing a move on a state.
//!
//! The flying rules (`sjekkers`, `sjekkers-sideways`) are one generator with the sideways
//! captures of disks as a const parameter; the checkers rules (`sjekkers-checkers`) have their
//! own generator of capture chains. Both write into the caller's vector and allocate nothing
//! else.

use std::ops::ControlFlow;

use denkmeter_core::Player;

use super::state::{
    bit, nearest, next, piece_key, ray, side_key, Crossings, State, ALL, E, FAR_ROW, FORWARD, NE,
    NONE, NW, SE, SW, TABLES, W,
};
use super::Move;

/// The four non-sideways lines, along which disks capture in `sjekkers`.
const DIAGONALS: [usize; 4] = [NE, SE, SW, NW];
/// All six lines.
pub(crate) const LINES: [usize; 6] = [NE, E, SE, SW, W, NW];

/// The lines along which a disk captures: with `SIDEWAYS` also along its row.
#[inline]
const fn disk_capture_lines<const SIDEWAYS: bool>() -> &'static [usize] {
    if SIDEWAYS {
        &LINES
    } else {
        &DIAGONALS
    }
}

// ------------------------------------------------------------------------ the flying rules

/// Calls `emit` with every capture of `side` under the flying rules, until `emit` breaks.
fn flying_captures<const SIDEWAYS: bool>(
    state: &State,
    side: Player,
    emit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let own = state.pieces[side];
    let enemy = state.pieces[!side];
    let occupied = own | enemy;
    let empty = ALL & !occupied;

    // Disks: over an adjacent enemy to the empty crossing directly beyond.
    for from in Crossings(own & !state.sjeks) {
        if TABLES.around[from as usize] & enemy == 0 {
            continue;
        }
        for &d in disk_capture_lines::<SIDEWAYS>() {
            let over = next(from, d);
            if over == NONE || enemy & bit(over) == 0 {
                continue;
            }
            let to = next(over, d);
            if to != NONE && empty & bit(to) != 0 {
                emit(Move::new(from, to, bit(over)))?;
            }
        }
    }

    // Sjeks: along a line over empty crossings, one enemy piece, and on to any empty crossing
    // before the next piece.
    for from in Crossings(own & state.sjeks) {
        for d in LINES {
            let blockers = ray(from, d) & occupied;
            if blockers == 0 {
                continue;
            }
            let over = nearest(blockers, d);
            if enemy & bit(over) == 0 {
                continue;
            }
            let beyond = ray(over, d);
            let stops = beyond & occupied;
            let landings = if stops == 0 {
                beyond
            } else {
                let stop = nearest(stops, d);
                beyond & !(ray(stop, d) | bit(stop))
            };
            for to in Crossings(landings) {
                emit(Move::new(from, to, bit(over)))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Calls `emit` with every move of `side` that captures nothing under the flying rules (legal
/// only when no capture is), until `emit` breaks.
fn flying_quiet_moves(
    state: &State,
    side: Player,
    emit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let own = state.pieces[side];
    let occupied = own | state.pieces[!side];
    let empty = ALL & !occupied;
    let forward = &TABLES.forward[side.index()];

    for from in Crossings(own) {
        if state.sjeks & bit(from) == 0 {
            // A disk steps to an empty crossing ahead.
            for to in Crossings(forward[from as usize] & empty) {
                emit(Move::new(from, to, 0))?;
            }
        } else {
            // A Sjek slides along any line up to the first piece.
            for d in LINES {
                let line = ray(from, d);
                let blockers = line & occupied;
                let open = if blockers == 0 {
                    line
                } else {
                    let stop = nearest(blockers, d);
                    line & !(ray(stop, d) | bit(stop))
                };
                for to in Crossings(open) {
                    emit(Move::new(from, to, 0))?;
                }
            }
        }
        // Either jumps forward over an adjacent own piece to the empty crossing beyond.
        if forward[from as usize] & own != 0 {
            for d in FORWARD[side] {
                let over = next(from, d);
                if over == NONE || own & bit(over) == 0 {
                    continue;
                }
                let to = next(over, d);
                if to != NONE && empty & bit(to) != 0 {
                    emit(Move::new(from, to, 0))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Whether `side` has a move (a pass not counted) under the flying rules.
pub(crate) fn flying_has_move<const SIDEWAYS: bool>(state: &State, side: Player) -> bool {
    let mut found = |_| ControlFlow::Break(());
    flying_captures::<SIDEWAYS>(state, side, &mut found).is_break()
        || flying_quiet_moves(state, side, &mut found).is_break()
}

/// Whether the side to move must capture under the flying rules.
pub(crate) fn flying_has_capture<const SIDEWAYS: bool>(state: &State) -> bool {
    let mut found = |_| ControlFlow::Break(());
    flying_captures::<SIDEWAYS>(state, state.to_move, &mut found).is_break()
}

/// Every legal move of the side to move under the flying rules: its captures if it has any,
/// else its other moves, else a lone pass if the opponent can move; nothing when the game is
/// over (a side without pieces, or neither side able to move).
pub(crate) fn flying_legal_moves<const SIDEWAYS: bool>(state: &State, moves: &mut Vec<Move>) {
    moves.clear();
    let side = state.to_move;
    if state.pieces[side] == 0 || state.pieces[!side] == 0 {
        return;
    }
    let mut push = |mv| {
        moves.push(mv);
        ControlFlow::<()>::Continue(())
    };
    let _ = flying_captures::<SIDEWAYS>(state, side, &mut push);
    if !moves.is_empty() {
        return;
    }
    let mut push = |mv| {
        moves.push(mv);
        ControlFlow::<()>::Continue(())
    };
    let _ = flying_quiet_moves(state, side, &mut push);
    if moves.is_empty() && flying_has_move::<SIDEWAYS>(state, !side) {
        moves.push(Move::PASS);
    }
}

// ------------------------------------------------------------------------ the checkers rules

/// What a capture chain of one piece needs to know.
struct Chain<'a> {
    from: u8,
    /// The lines it captures along: its side's two forward lines for a disk, all six for a
    /// Sjek.
    lines: &'a [usize],
    enemy: u64,
    /// Empty crossings, the chain's starting crossing included.
    empty: u64,
    /// Crossings where the chain stops: the far row for a disk, none for a Sjek.
    stops: u64,
}

impl Chain<'_> {
    /// Extends the chain standing on `at` having captured `captured`; at its end adds the move
    /// unless the same move (start, end, captures) was found by another route.
    fn extend(&self, at: u8, captured: u64, moves: &mut Vec<Move>, first: usize) {
        let mut extended = false;
        for &d in self.lines {
            let over = next(at, d);
            if over == NONE || self.enemy & !captured & bit(over) == 0 {
                continue;
            }
            let to = next(over, d);
            if to == NONE || self.empty & bit(to) == 0 {
                continue;
            }
            extended = true;
            let captured = captured | bit(over);
            if self.stops & bit(to) != 0 {
                push_new(moves, first, Move::new(self.from, to, captured));
            } else {
                self.extend(to, captured, moves, first);
            }
        }
        if !extended && captured != 0 {
            push_new(moves, first, Move::new(self.from, at, captured));
        }
    }
}

/// Adds `mv` unless it is already among `moves[first..]`.
#[inline]
fn push_new(moves: &mut Vec<Move>, first: usize, mv: Move) {
    if !moves[first..].contains(&mv) {
        moves.push(mv);
    }
}

/// The lines along which the piece on `from` of `side` moves and captures in the checkers
/// rules.
#[inline]
fn checkers_lines(state: &State, side: Player, from: u8) -> &'static [usize] {
    if state.sjeks & bit(from) != 0 {
        &LINES
    } else {
        match side {
            Player::White => &FORWARD.white,
            Player::Black => &FORWARD.black,
        }
    }
}

/// Whether `side` has a move under the checkers rules.
pub(crate) fn checkers_has_move(state: &State, side: Player) -> bool {
    let own = state.pieces[side];
    let enemy = state.pieces[!side];
    let empty = ALL & !(own | enemy);
    let forward = &TABLES.forward[side.index()];
    Crossings(own).any(|from| {
        let sjek = state.sjeks & bit(from) != 0;
        let steps = if sjek {
            TABLES.around[from as usize]
        } else {
            forward[from as usize]
        };
        steps & empty != 0
            || checkers_lines(state, side, from).iter().any(|&d| {
                let over = next(from, d);
                over != NONE && enemy & bit(over) != 0 && {
                    let to = next(over, d);
                    to != NONE && empty & bit(to) != 0
                }
            })
    })
}

/// Whether the side to move must capture under the checkers rules: one of its pieces has an
/// enemy piece next to it along a line it captures along, with the crossing beyond empty.
pub(crate) fn checkers_has_capture(state: &State) -> bool {
    let side = state.to_move;
    let own = state.pieces[side];
    let enemy = state.pieces[!side];
    let empty = ALL & !(own | enemy);
    Crossings(own).any(|from| {
        let sjek = state.sjeks & bit(from) != 0;
        let reach = if sjek {
            TABLES.around[from as usize]
        } else {
            TABLES.forward[side.index()][from as usize]
        };
        reach & enemy != 0
            && checkers_lines(state, side, from).iter().any(|&d| {
                let over = next(from, d);
                over != NONE && enemy & bit(over) != 0 && {
                    let to = next(over, d);
                    to != NONE && empty & bit(to) != 0
                }
            })
    })
}

/// Every legal move of the side to move under the checkers rules: its complete capture chains
/// if it has any, else its steps; nothing when it cannot move (and so has lost).
pub(crate) fn checkers_legal_moves(state: &State, moves: &mut Vec<Move>) {
    moves.clear();
    let side = state.to_move;
    let own = state.pieces[side];
    let enemy = state.pieces[!side];
    let empty = ALL & !(own | enemy);
    let forward = &TABLES.forward[side.index()];
    for from in Crossings(own) {
        let sjek = state.sjeks & bit(from) != 0;
        let reach = if sjek {
            TABLES.around[from as usize]
        } else {
            forward[from as usize]
        };
        if reach & enemy == 0 {
            continue;
        }
        let chain = Chain {
            from,
            lines: checkers_lines(state, side, from),
            enemy,
            empty: empty | bit(from),
            stops: if sjek { 0 } else { FAR_ROW[side] },
        };
        let first = moves.len();
        chain.extend(from, 0, moves, first);
    }
    if !moves.is_empty() {
        return;
    }
    for from in Crossings(own) {
        let steps = if state.sjeks & bit(from) != 0 {
            TABLES.around[from as usize]
        } else {
            forward[from as usize]
        };
        for to in Crossings(steps & empty) {
            moves.push(Move::new(from, to, 0));
        }
    }
}

/// The crossings where a checkers capture chain lands, in order (its end included): the first
/// route, in direction order, from `mv`'s start to its end that captures exactly its pieces.
/// Empty for a move that captures nothing.
pub(crate) fn checkers_route(state: &State, mv: Move) -> Vec<u8> {
    fn search(
        lines: &[usize],
        empty: u64,
        mv: Move,
        at: u8,
        left: u64,
        route: &mut Vec<u8>,
    ) -> bool {
        if left == 0 {
            return at == mv.to;
        }
        for &d in lines {
            let over = next(at, d);
            if over == NONE || left & bit(over) == 0 {
                continue;
            }
            let to = next(over, d);
            if to == NONE || empty & bit(to) == 0 {
                continue;
            }
            route.push(to);
            if search(lines, empty, mv, to, left & !bit(over), route) {
                return true;
            }
            route.pop();
        }
        false
    }
    let mut route = Vec::new();
    if mv.is_pass() || mv.captured == 0 {
        return route;
    }
    let side = state.to_move;
    let lines = checkers_lines(state, side, mv.from);
    let empty = (ALL & !state.occupied()) | bit(mv.from);
    if !search(lines, empty, mv, mv.from, mv.captured, &mut route) {
        route.clear();
    }
    route
}

// ------------------------------------------------------------------------ playing

/// Plays a legal move (of any ruleset), keeping the hash up to date: the piece goes from its
/// crossing to its destination, the captured pieces leave, and a disk ending on its far row
/// becomes a Sjek.
pub(crate) fn play(state: &mut State, mv: Move) {
    let side = state.to_move;
    if !mv.is_pass() {
        let (from, to) = (bit(mv.from), bit(mv.to));
        let was_sjek = state.sjeks & from != 0;
        let is_sjek = was_sjek || FAR_ROW[side] & to != 0;
        // A chain may end where it started, so clear before setting.
        state.pieces[side] = (state.pieces[side] & !from) | to;
        state.sjeks &= !from;
        if is_sjek {
            state.sjeks |= to;
        }
        state.hash ^= piece_key(side, was_sjek, mv.from) ^ piece_key(side, is_sjek, mv.to);
        for sq in Crossings(mv.captured) {
            state.hash ^= piece_key(!side, state.sjeks & bit(sq) != 0, sq);
        }
        state.pieces[!side] &= !mv.captured;
        state.sjeks &= !mv.captured;
    }
    state.to_move = !side;
    state.hash ^= side_key();
}
