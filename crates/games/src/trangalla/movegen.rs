//! Moves: the setup choice, steps, jump routes (never landing twice on a point), their effects,
//! and the endings read from the position.
//!
//! A jump moves a piece two points along a line, so a route lands only on points with its
//! start's file and rank parity and jumps only points without it: it never jumps a point twice
//! or lands where it jumped. So the effects of its jumps (a soldier flipped, a king removed)
//! never change where it can go, and a route can be followed on the position before the move.

use std::fmt;

use denkmeter_core::{Outcome, Player, Reason};

use super::state::{goal, home, points, step_directions, Phase, State, NEXT, NONE};

/// A Trangalla move: a setup choice, a step, a jump route or a pass. A jump is identified by
/// its start, its end and the enemy pieces it jumps (which fix every effect); two routes that
/// agree on these are one move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The start point, or [`NONE`] for a setup move or the pass.
    pub(crate) from: u8,
    /// The end point (the king's point for a setup move), or [`NONE`] for the pass.
    pub(crate) to: u8,
    /// The enemy pieces a jump route jumps, as a bit set of points.
    pub(crate) jumped: u32,
}

impl Move {
    /// The pass: the only move of a player who cannot move.
    pub const PASS: Move = Move {
        from: NONE,
        to: NONE,
        jumped: 0,
    };

    /// The setup move putting the king on `p`.
    pub(crate) const fn setup(p: u8) -> Move {
        Move {
            from: NONE,
            to: p,
            jumped: 0,
        }
    }

    /// Whether this is the pass.
    pub const fn is_pass(self) -> bool {
        self.from == NONE && self.to == NONE
    }

    /// Whether this is a setup move (the choice of the king).
    pub const fn is_setup(self) -> bool {
        self.from == NONE && self.to != NONE
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Move({} -> {}, jumped {:#x})",
            self.from, self.to, self.jumped
        )
    }
}

/// Calls `found(landings, enemy_jumped)` for every jump route of `mover`'s piece on `from` that
/// may stop where it is (`landings` starts with `from`), depth first. Stops early when `found`
/// returns `true`; returns whether it did.
fn jump_routes(
    state: &State,
    mover: Player,
    from: u8,
    found: &mut impl FnMut(&[u8], u32) -> bool,
) -> bool {
    let occupied = state.occupied() & !(1 << from);
    let mut path = [0u8; 25];
    path[0] = from;
    explore(state, mover, occupied, &mut path, 1, 1 << from, 0, found)
}

#[allow(clippy::too_many_arguments)]
fn explore(
    state: &State,
    mover: Player,
    occupied: u32,
    path: &mut [u8; 25],
    len: usize,
    visited: u32,
    enemy: u32,
    found: &mut impl FnMut(&[u8], u32) -> bool,
) -> bool {
    let at = path[len - 1];
    let enemies = state.pieces[!mover];
    for (d, &over) in NEXT[at as usize].iter().enumerate() {
        if over == NONE || occupied & 1 << over == 0 {
            continue;
        }
        let land = NEXT[over as usize][d];
        if land == NONE || (occupied | visited) & 1 << land != 0 {
            continue;
        }
        let enemy = enemy | (enemies & 1 << over);
        path[len] = land;
        if land != home(mover) && found(&path[..=len], enemy) {
            return true;
        }
        // Reaching the goal ends the route.
        if land != goal(mover)
            && explore(
                state,
                mover,
                occupied,
                path,
                len + 1,
                visited | 1 << land,
                enemy,
                found,
            )
        {
            return true;
        }
    }
    false
}

/// Every jump route of the piece on `from` that may end where it stops: its landing points
/// (the start first) and the enemy pieces it jumps. The slow path of notation.
pub(crate) fn routes(state: &State, from: u8) -> Vec<(Vec<u8>, u32)> {
    let mut out = Vec::new();
    if let Some(mover) = state.owner(from) {
        jump_routes(state, mover, from, &mut |path, enemy| {
            out.push((path.to_vec(), enemy));
            false
        });
    }
    out
}

/// Adds `mover`'s steps and jumps to `moves`.
fn generate(state: &State, mover: Player, moves: &mut Vec<Move>) {
    let occupied = state.occupied();
    for from in points(state.pieces[mover]) {
        for d in step_directions(mover) {
            let to = NEXT[from as usize][d];
            if to != NONE && occupied & 1 << to == 0 {
                moves.push(Move {
                    from,
                    to,
                    jumped: 0,
                });
            }
        }
        let first = moves.len();
        jump_routes(state, mover, from, &mut |path, enemy| {
            let to = path[path.len() - 1];
            let mv = Move {
                from,
                to,
                jumped: enemy,
            };
            if !moves[first..].contains(&mv) {
                moves.push(mv);
            }
            false
        });
    }
}

/// Whether `mover` has a step or a jump.
fn can_move(state: &State, mover: Player) -> bool {
    let occupied = state.occupied();
    points(state.pieces[mover]).any(|from| {
        step_directions(mover).into_iter().any(|d| {
            let to = NEXT[from as usize][d];
            to != NONE && occupied & 1 << to == 0
        }) || jump_routes(state, mover, from, &mut |_, _| true)
    })
}

/// How the game has ended, if it has, by the position alone: a king on its goal wins; no
/// kings left is a draw; neither side able to move is a draw.
pub(crate) fn ending(state: &State) -> Option<Outcome> {
    if state.phase == Phase::Setup {
        return None;
    }
    for player in Player::BOTH {
        if state.kings & state.pieces[player] & 1 << goal(player) != 0 {
            return Some(Outcome::win(player, Reason::Goal));
        }
    }
    if !state.has_king(Player::White) && !state.has_king(Player::Black) {
        return Some(Outcome::draw(Reason::NoKings));
    }
    if !can_move(state, Player::White) && !can_move(state, Player::Black) {
        return Some(Outcome::draw(Reason::NoMoves));
    }
    None
}

/// Every legal move (see [`denkmeter_core::Game::legal_moves`]).
pub(crate) fn legal_moves(state: &State, moves: &mut Vec<Move>) {
    moves.clear();
    match state.phase {
        Phase::Setup => moves.extend(points(state.pieces[state.to_move]).map(Move::setup)),
        Phase::Play => {
            if ending(state).is_some() {
                return;
            }
            generate(state, state.to_move, moves);
            if moves.is_empty() {
                moves.push(Move::PASS);
            }
        }
    }
}

/// Plays a legal move.
pub(crate) fn play(state: &mut State, mv: Move) {
    let mover = state.to_move;
    state.to_move = !mover;
    if mv.is_pass() {
        return;
    }
    if mv.is_setup() {
        state.kings |= 1 << mv.to;
        if mover == Player::Black {
            state.phase = Phase::Play;
        }
        return;
    }
    let from = 1u32 << mv.from;
    let king = state.kings & from != 0;
    let unflipped = state.unflipped & from != 0;
    state.pieces[mover] &= !from;
    state.kings &= !from;
    state.unflipped &= !from;
    for p in points(mv.jumped) {
        let bit = 1u32 << p;
        state.pieces[!mover] &= !bit;
        state.unflipped &= !bit;
        if state.kings & bit != 0 {
            // A jumped king is revealed and removed.
            state.kings &= !bit;
        } else {
            // A jumped soldier is flipped: it is the mover's now.
            state.pieces[mover] |= bit;
        }
    }
    // A soldier that reaches its goal leaves the board; a king stays there and has won.
    if mv.to == goal(mover) && !king {
        return;
    }
    let to = 1u32 << mv.to;
    state.pieces[mover] |= to;
    if king {
        state.kings |= to;
    }
    if unflipped {
        state.unflipped |= to;
    }
}
