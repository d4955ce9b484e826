//! A mate solver for problems: which moves force a win within N of the mover's moves.
//!
//! It searches every line to the depth asked, with no heuristics and no table: slow, but plain
//! enough to serve as the proof of a puzzle or a problem. The `_budgeted` forms give up (`None`)
//! after visiting a given number of positions, for callers that try many positions.

use crate::{Game, Player, Status};

/// Whether the player to move in `state` can force a win within `moves` of their own moves,
/// whatever the opponent replies. Draws and unfinished lines count as failure.
pub fn wins_within<G: Game>(game: &G, state: &G::State, moves: u32) -> bool {
    wins_within_budgeted(game, state, moves, u64::MAX).unwrap_or(false)
}

/// [`wins_within`], or `None` once `node_limit` positions have been visited.
pub fn wins_within_budgeted<G: Game>(
    game: &G,
    state: &G::State,
    moves: u32,
    node_limit: u64,
) -> Option<bool> {
    let mut budget = Budget { left: node_limit };
    let attacker = game.to_move(state);
    attacker_wins(game, state, attacker, moves, &mut budget)
}

/// The moves of the player to move that force a win within `moves` of that player's moves
/// (the move itself counted), in move generation order.
pub fn winning_moves<G: Game>(game: &G, state: &G::State, moves: u32) -> Vec<G::Move> {
    winning_moves_budgeted(game, state, moves, u64::MAX).unwrap_or_default()
}

/// [`winning_moves`], or `None` once `node_limit` positions have been visited.
pub fn winning_moves_budgeted<G: Game>(
    game: &G,
    state: &G::State,
    moves: u32,
    node_limit: u64,
) -> Option<Vec<G::Move>> {
    if moves == 0 {
        return Some(Vec::new());
    }
    let mut budget = Budget { left: node_limit };
    let attacker = game.to_move(state);
    let mut list = Vec::new();
    game.legal_moves(state, &mut list);
    let mut winning = Vec::new();
    for mv in list {
        let mut next = state.clone();
        game.play_unchecked(&mut next, mv);
        if defender_loses(game, &next, attacker, moves - 1, &mut budget)? {
            winning.push(mv);
        }
    }
    Some(winning)
}

/// The fewest own moves within which the player to move forces a win, searching up to `limit`.
pub fn shortest_win<G: Game>(game: &G, state: &G::State, limit: u32) -> Option<u32> {
    (1..=limit).find(|&n| wins_within(game, state, n))
}

/// Positions still to visit before giving up.
struct Budget {
    left: u64,
}

impl Budget {
    /// Counts one position; `None` once the budget is spent.
    fn visit(&mut self) -> Option<()> {
        self.left = self.left.checked_sub(1)?;
        Some(())
    }
}

fn won_by(status: &Status, attacker: Player) -> Option<bool> {
    status.outcome().map(|o| o.winner == Some(attacker))
}

fn attacker_wins<G: Game>(
    game: &G,
    state: &G::State,
    attacker: Player,
    moves: u32,
    budget: &mut Budget,
) -> Option<bool> {
    budget.visit()?;
    if let Some(won) = won_by(&game.status(state), attacker) {
        return Some(won);
    }
    if game.to_move(state) != attacker {
        // The attacker passed (or has no turn): the defender moves again.
        return defender_loses(game, state, attacker, moves, budget);
    }
    if moves == 0 {
        return Some(false);
    }
    let mut list = Vec::new();
    game.legal_moves(state, &mut list);
    for mv in list {
        let mut next = state.clone();
        game.play_unchecked(&mut next, mv);
        if defender_loses(game, &next, attacker, moves - 1, budget)? {
            return Some(true);
        }
    }
    Some(false)
}

fn defender_loses<G: Game>(
    game: &G,
    state: &G::State,
    attacker: Player,
    moves: u32,
    budget: &mut Budget,
) -> Option<bool> {
    budget.visit()?;
    if let Some(won) = won_by(&game.status(state), attacker) {
        return Some(won);
    }
    if game.to_move(state) == attacker {
        // The defender passed (or has no turn): the attacker moves again.
        return attacker_wins(game, state, attacker, moves, budget);
    }
    let mut list = Vec::new();
    game.legal_moves(state, &mut list);
    for mv in list {
        let mut next = state.clone();
        game.play_unchecked(&mut next, mv);
        if !attacker_wins(game, &next, attacker, moves, budget)? {
            return Some(false);
        }
    }
    Some(true)
}
