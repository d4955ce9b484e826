//! A mate solver for problems: which moves force a win within N of the mover's moves.
//!
//! The free functions search every line to the depth asked, with no heuristics and no table:
//! slow, but plain enough to serve as the proof of a puzzle or a problem. The `_budgeted` forms
//! give up (`None`) after visiting a given number of positions, for callers that try many
//! positions. [`Prover`] answers the same questions far faster, for finding problems: it keeps
//! what it proved in a table and tries first the moves that leave the defender fewest replies.

use std::collections::HashMap;

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

/// A mate solver with memory, for finding long wins: [`Prover::wins_within`] answers what
/// [`wins_within`] answers, for one attacker, but
/// - keeps in a table, by [`Game::hash`], the win lengths it proved and refuted at each
///   position (most lines of a problem meet again: moves in another order), so that asking
///   for N+1 after N, or again for the same position, costs little;
/// - tries first, at each of the attacker's turns, the moves after which the defender has the
///   fewest replies (checks, in the chess-like games), and the move that won last time at
///   that depth; at the defender's turns, the reply that refuted last time.
///
/// The table trusts [`Game::hash`] to stand for the whole state, as the engine's search does
/// (a collision could only make it wrong where two states share all 64 bits): a puzzle it finds
/// is proved again by the plain functions above before it ships. Every call visits at most the
/// node limit, then gives up (`None`); the table keeps at most `table_entries` positions and is
/// cleared when full.
#[derive(Debug)]
pub struct Prover<'g, G: Game> {
    game: &'g G,
    attacker: Player,
    table: HashMap<u64, Known>,
    table_entries: usize,
    node_limit: u64,
    left: u64,
    /// By moves left: the attacker's move that last won, the defender's that last refuted.
    killers: Vec<Killers<G::Move>>,
}

/// The moves that last decided a position at one depth.
#[derive(Clone, Copy, Debug)]
struct Killers<M> {
    win: Option<M>,
    refutation: Option<M>,
}

/// What the table knows of a position: the attacker wins within `wins_from` moves or more,
/// and within none of fewer than `fails_below`.
#[derive(Clone, Copy, Debug)]
struct Known {
    wins_from: Option<u32>,
    fails_below: u32,
}

/// The depths (moves left) for which the prover remembers killer moves.
const KILLER_DEPTHS: usize = 64;

impl<'g, G: Game> Prover<'g, G> {
    /// A prover for `attacker` that visits at most `node_limit` positions per call and keeps
    /// at most `table_entries` positions.
    pub fn new(game: &'g G, attacker: Player, node_limit: u64, table_entries: usize) -> Self {
        Prover {
            game,
            attacker,
            table: HashMap::new(),
            table_entries,
            node_limit,
            left: node_limit,
            killers: Vec::new(),
        }
    }

    /// Whether the attacker forces a win within `moves` of its moves from `state`, whoever is
    /// to move; `None` if the node limit is reached first.
    pub fn wins_within(&mut self, state: &G::State, moves: u32) -> Option<bool> {
        self.left = self.node_limit;
        self.wins(state, moves)
    }

    /// The fewest moves within which the attacker wins from `state` (0 if it has won), up to
    /// `most`: `Some(None)` if there is no such win, `None` if the node limit is reached.
    pub fn shortest(&mut self, state: &G::State, most: u32) -> Option<Option<u32>> {
        if let Some(won) = won_by(&self.game.status(state), self.attacker) {
            return Some(won.then_some(0));
        }
        for k in 1..=most {
            if self.wins_within(state, k)? {
                return Some(Some(k));
            }
        }
        Some(None)
    }

    /// The attacker's moves at `state` (its turn) that win within `moves` of its moves, the
    /// move itself counted, in move generation order; `None` if the node limit is reached.
    pub fn winning_moves(&mut self, state: &G::State, moves: u32) -> Option<Vec<G::Move>> {
        self.left = self.node_limit;
        let mut winning = Vec::new();
        if moves == 0 || self.game.to_move(state) != self.attacker {
            return Some(winning);
        }
        let mut list = Vec::new();
        self.game.legal_moves(state, &mut list);
        for mv in list {
            let mut next = state.clone();
            self.game.play_unchecked(&mut next, mv);
            if self.wins(&next, moves - 1)? {
                winning.push(mv);
            }
        }
        Some(winning)
    }

    fn wins(&mut self, state: &G::State, moves: u32) -> Option<bool> {
        self.left = self.left.checked_sub(1)?;
        let game = self.game;
        if let Some(won) = won_by(&game.status(state), self.attacker) {
            return Some(won);
        }
        let attacking = game.to_move(state) == self.attacker;
        if attacking && moves == 0 {
            return Some(false);
        }
        let key = game.hash(state);
        if let Some(known) = self.table.get(&key) {
            if known.wins_from.is_some_and(|n| moves >= n) {
                return Some(true);
            }
            if moves < known.fails_below {
                return Some(false);
            }
        }
        let level = (moves as usize).min(KILLER_DEPTHS - 1);
        if self.killers.len() <= level {
            self.killers.resize(
                level + 1,
                Killers {
                    win: None,
                    refutation: None,
                },
            );
        }
        let mut list = Vec::new();
        game.legal_moves(state, &mut list);
        let won = if attacking {
            self.order_attacks(state, &mut list, moves);
            let mut won = false;
            for mv in list {
                let mut next = state.clone();
                game.play_unchecked(&mut next, mv);
                if self.wins(&next, moves - 1)? {
                    self.killers[level].win = Some(mv);
                    won = true;
                    break;
                }
            }
            won
        } else {
            if let Some(killer) = self.killers[level].refutation {
                if let Some(i) = list.iter().position(|&m| m == killer) {
                    list[..=i].rotate_right(1);
                }
            }
            let mut won = true;
            for mv in list {
                let mut next = state.clone();
                game.play_unchecked(&mut next, mv);
                if !self.wins(&next, moves)? {
                    self.killers[level].refutation = Some(mv);
                    won = false;
                    break;
                }
            }
            won
        };
        if self.table.len() >= self.table_entries {
            self.table.clear();
        }
        let known = self.table.entry(key).or_insert(Known {
            wins_from: None,
            fails_below: 0,
        });
        if won {
            known.wins_from = Some(known.wins_from.map_or(moves, |n| n.min(moves)));
        } else {
            known.fails_below = known.fails_below.max(moves.saturating_add(1));
        }
        Some(won)
    }

    /// Puts first the move that won last at this depth, then the moves that leave the defender
    /// fewest replies (a win on the spot has none). Not worth it for the last move, where every
    /// move is tried for a win on the spot anyway.
    fn order_attacks(&self, state: &G::State, list: &mut [G::Move], moves: u32) {
        if moves < 2 {
            return;
        }
        let game = self.game;
        let killer = self.killers[(moves as usize).min(KILLER_DEPTHS - 1)].win;
        let mut replies = Vec::new();
        let mut keyed: Vec<(usize, G::Move)> = list
            .iter()
            .map(|&mv| {
                if Some(mv) == killer {
                    return (0, mv);
                }
                let mut next = state.clone();
                game.play_unchecked(&mut next, mv);
                game.legal_moves(&next, &mut replies);
                (replies.len() + 1, mv)
            })
            .collect();
        keyed.sort_by_key(|&(count, _)| count);
        for (slot, (_, mv)) in list.iter_mut().zip(keyed) {
            *slot = mv;
        }
    }
}
