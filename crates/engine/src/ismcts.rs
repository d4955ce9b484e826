//! Information-set Monte Carlo tree search (single observer): the search for games that hide
//! something. It is given an *observation* (what the searching player knows, see
//! [`Game::observation`]), never the true state. Every iteration draws a full state consistent
//! with it ([`Game::determinize`]) and walks one shared tree of moves, using only the moves
//! legal in that drawing; a move's statistics are therefore shared by every drawing where it is
//! possible. Selection is UCB1 with availability counts: a child's exploration term counts the
//! iterations in which it could have been chosen, not all of its parent's.
//!
//! The searching player does not know what the opponent hides, but the opponent does: at the
//! opponent's turns a move is chosen by statistics kept per information set of the opponent
//! (the hash of the drawing as the opponent observes it), so that the opponent is modelled as
//! knowing his own secret (his king), as in multiple-observer ISMCTS; the tree and the searching
//! player's statistics stay shared by every drawing.
//!
//! Reproducible: the same seed and iteration budget give the same move.

use std::collections::HashMap;
use std::time::Instant;

use denkmeter_core::{Game, Player, Status};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::mcts::{most_visited, only_move, playout, value_for, MctsConfig};
use crate::search::SearchResult;

/// A move's statistics in one of the opponent's information sets.
#[derive(Clone, Copy, Debug, Default)]
struct Keyed {
    visits: u32,
    available: u32,
    value: f64,
}

#[derive(Debug)]
struct Node<M> {
    mv: Option<M>,
    parent: u32,
    /// The player who made the move into this node.
    mover: Player,
    visits: u32,
    /// The iterations in which this node's move was legal when its parent was left.
    available: u32,
    /// Sum of rewards for `mover`.
    value: f64,
    children: Vec<u32>,
}

/// Runs ISMCTS for `player`, who knows `observation`, and returns the most visited move, or
/// `None` if the observation shows no legal move. `config.limits.nodes` counts iterations.
pub fn search<G: Game>(
    game: &G,
    observation: &G::State,
    player: Player,
    config: &MctsConfig,
) -> Option<SearchResult<G::Move>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    // The player's own moves do not depend on what he cannot see: any drawing gives them.
    let mut root_moves = Vec::new();
    game.legal_moves(
        &game.determinize(observation, player, &mut rng),
        &mut root_moves,
    );
    if root_moves.is_empty() {
        return None;
    }
    if root_moves.len() == 1 {
        return Some(only_move(root_moves[0]));
    }
    let mut nodes: Vec<Node<G::Move>> = vec![Node {
        mv: None,
        parent: u32::MAX,
        mover: player.opponent(),
        visits: 0,
        available: 0,
        value: 0.0,
        children: Vec::new(),
    }];
    let started = Instant::now();
    let mut moves = Vec::new();
    let mut untried = Vec::new();
    let mut iterations = 0u64;
    // The opponent's statistics per (child node, his information set), and the ones this
    // iteration went through.
    let mut keyed: HashMap<(u32, u64), Keyed> = HashMap::new();
    let mut through: Vec<(u32, u64)> = Vec::new();
    loop {
        if config.spent(iterations, started) {
            break;
        }
        iterations += 1;

        // A full state the player cannot tell from what he knows.
        let mut position = game.determinize(observation, player, &mut rng);
        let mut current = 0usize;
        through.clear();
        let mut terminal = None;
        loop {
            if let Status::Over(outcome) = game.status(&position) {
                terminal = Some(outcome.value_for(Player::White));
                break;
            }
            game.legal_moves(&position, &mut moves);
            if moves.is_empty() {
                break;
            }
            // Expansion: a move legal here that the tree does not hold yet.
            untried.clear();
            untried.extend(moves.iter().copied().filter(|&m| {
                !nodes[current]
                    .children
                    .iter()
                    .any(|&c| nodes[c as usize].mv == Some(m))
            }));
            let mover = game.to_move(&position);
            // What the opponent knows here, his own secret included.
            let key = (mover != player).then(|| game.hash(&game.observation(&position, mover)));
            if let Some(key) = key {
                for k in 0..nodes[current].children.len() {
                    let c = nodes[current].children[k];
                    if nodes[c as usize].mv.is_some_and(|m| moves.contains(&m)) {
                        keyed.entry((c, key)).or_default().available += 1;
                    }
                }
            }
            if let Some(&mv) = untried.choose(&mut rng) {
                let id = nodes.len() as u32;
                nodes.push(Node {
                    mv: Some(mv),
                    parent: current as u32,
                    mover,
                    visits: 0,
                    available: 1,
                    value: 0.0,
                    children: Vec::new(),
                });
                for k in 0..nodes[current].children.len() {
                    let c = nodes[current].children[k] as usize;
                    if nodes[c].mv.is_some_and(|m| moves.contains(&m)) {
                        nodes[c].available += 1;
                    }
                }
                nodes[current].children.push(id);
                if let Some(key) = key {
                    keyed.entry((id, key)).or_default().available += 1;
                    through.push((id, key));
                }
                game.play_unchecked(&mut position, mv);
                current = id as usize;
                break;
            }
            // Selection among the children legal in this drawing: by the shared statistics
            // for the searching player, by those of his information set for the opponent.
            let mut best = None;
            let mut best_score = f64::NEG_INFINITY;
            for k in 0..nodes[current].children.len() {
                let c = nodes[current].children[k];
                let child = &mut nodes[c as usize];
                let Some(mv) = child.mv else { continue };
                if !moves.contains(&mv) {
                    continue;
                }
                child.available += 1;
                let (visits, available, value) = match key {
                    None => (child.visits, child.available, child.value),
                    Some(key) => {
                        let stats = keyed.get(&(c, key)).copied().unwrap_or_default();
                        (stats.visits, stats.available, stats.value)
                    }
                };
                let score = if visits == 0 {
                    f64::INFINITY
                } else {
                    let n = f64::from(visits);
                    value / n + config.exploration * (f64::from(available.max(1)).ln() / n).sqrt()
                };
                if score > best_score {
                    best_score = score;
                    best = Some((c, mv));
                }
            }
            if let (Some(key), Some((c, _))) = (key, best) {
                through.push((c, key));
            }
            let Some((child, mv)) = best else { break };
            game.play_unchecked(&mut position, mv);
            current = child as usize;
        }

        // Simulation: the value for White.
        let white_value = match terminal {
            Some(v) => v,
            None => match game.status(&position) {
                Status::Over(o) => o.value_for(Player::White),
                Status::Ongoing => playout(game, &mut position, &mut moves, &mut rng),
            },
        };

        // Backpropagation.
        let mut at = current as u32;
        while at != u32::MAX {
            let node = &mut nodes[at as usize];
            node.visits += 1;
            node.value += value_for(node.mover, white_value);
            at = node.parent;
        }
        for &(c, key) in &through {
            let mover = nodes[c as usize].mover;
            let stats = keyed.entry((c, key)).or_default();
            stats.visits += 1;
            stats.value += value_for(mover, white_value);
        }
    }
    // The most visited move legal in the observation, ties broken by the mean value.
    let children = nodes[0].children.iter().filter_map(|&c| {
        let n = &nodes[c as usize];
        let mv = n.mv.filter(|m| root_moves.contains(m))?;
        Some((mv, n.visits, n.value))
    });
    most_visited(children, iterations).or(Some(only_move(root_moves[0])))
}
