//! Monte Carlo tree search (UCT) with random playouts, for every game. Reproducible: the same
//! seed and iteration budget give the same move.

use std::time::Instant;

use denkmeter_core::{Game, Player, Status};

use crate::search::eval::{score_of_value, white_value};
use crate::search::SearchResult;
use crate::Limits;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The MCTS parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    pub limits: Limits,
    /// The UCT exploration constant.
    pub exploration: f64,
    pub seed: u64,
}

impl MctsConfig {
    pub fn new(limits: Limits, seed: u64) -> MctsConfig {
        MctsConfig {
            limits,
            exploration: 1.0,
            seed,
        }
    }
}

#[derive(Debug)]
struct Node<M> {
    mv: Option<M>,
    parent: u32,
    /// The player who made the move into this node.
    mover: Player,
    visits: u32,
    /// Sum of rewards for `mover`.
    value: f64,
    children: Vec<u32>,
    untried: Vec<M>,
    /// The value for `mover` if the position is final.
    terminal: Option<f64>,
}

/// The iterations a search runs when no limit is given.
pub const DEFAULT_ITERATIONS: u64 = 1000;

/// Runs MCTS from `state` and returns the most visited move, or `None` if there is no legal
/// move. `config.limits.nodes` counts iterations; the depth limit means nothing here. The
/// score is the win-rate model's evaluation of the chosen move's mean value.
pub fn search<G: Game>(
    game: &G,
    state: &G::State,
    config: &MctsConfig,
) -> Option<SearchResult<G::Move>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let mut root_moves = Vec::new();
    game.legal_moves(state, &mut root_moves);
    if root_moves.is_empty() {
        return None;
    }
    if root_moves.len() == 1 {
        return Some(only_move(root_moves[0]));
    }
    root_moves.shuffle(&mut rng);
    let root_player = game.to_move(state);
    let mut nodes: Vec<Node<G::Move>> = vec![Node {
        mv: None,
        parent: u32::MAX,
        mover: root_player.opponent(),
        visits: 0,
        value: 0.0,
        children: Vec::new(),
        untried: root_moves,
        terminal: None,
    }];
    let started = Instant::now();
    let mut moves = Vec::new();
    let mut iterations = 0u64;
    loop {
        if config.spent(iterations, started) {
            break;
        }
        iterations += 1;

        // Selection.
        let mut current = 0usize;
        let mut position = state.clone();
        while nodes[current].untried.is_empty()
            && !nodes[current].children.is_empty()
            && nodes[current].terminal.is_none()
        {
            let parent_visits = f64::from(nodes[current].visits.max(1));
            let log_n = parent_visits.ln();
            let mut best = 0u32;
            let mut best_score = f64::NEG_INFINITY;
            for &child in &nodes[current].children {
                let c = &nodes[child as usize];
                let n = f64::from(c.visits.max(1));
                let score = c.value / n + config.exploration * (log_n / n).sqrt();
                if score > best_score {
                    best_score = score;
                    best = child;
                }
            }
            current = best as usize;
            if let Some(mv) = nodes[current].mv {
                game.play_unchecked(&mut position, mv);
            }
        }

        // Expansion.
        if nodes[current].terminal.is_none() {
            if let Some(mv) = nodes[current].untried.pop() {
                let mover = game.to_move(&position);
                game.play_unchecked(&mut position, mv);
                let terminal = match game.status(&position) {
                    Status::Over(o) => Some(o.value_for(mover)),
                    Status::Ongoing => None,
                };
                let mut untried = Vec::new();
                if terminal.is_none() {
                    game.legal_moves(&position, &mut untried);
                    untried.shuffle(&mut rng);
                }
                let id = nodes.len() as u32;
                nodes.push(Node {
                    mv: Some(mv),
                    parent: current as u32,
                    mover,
                    visits: 0,
                    value: 0.0,
                    children: Vec::new(),
                    untried,
                    terminal,
                });
                nodes[current].children.push(id);
                current = id as usize;
            }
        }

        // Simulation: the value of the leaf for White.
        let white_value = match nodes[current].terminal {
            Some(v) => match nodes[current].mover {
                Player::White => v,
                Player::Black => 1.0 - v,
            },
            None => playout(game, &mut position, &mut moves, &mut rng),
        };

        // Backpropagation.
        let mut at = current as u32;
        while at != u32::MAX {
            let node = &mut nodes[at as usize];
            node.visits += 1;
            node.value += value_for(node.mover, white_value);
            at = node.parent;
        }
    }
    let children = nodes[0].children.iter().filter_map(|&c| {
        let n = &nodes[c as usize];
        Some((n.mv?, n.visits, n.value))
    });
    match most_visited(children, iterations) {
        Some(found) => Some(found),
        None => Some(only_move(*nodes[0].untried.last()?)),
    }
}

impl MctsConfig {
    /// Whether a search that has run `iterations` iterations since `started` has spent its
    /// budget: the iteration limit, the time limit (read every 64 iterations), or
    /// [`DEFAULT_ITERATIONS`] when neither is given.
    pub(crate) fn spent(&self, iterations: u64, started: Instant) -> bool {
        let limits = &self.limits;
        limits.nodes.is_some_and(|n| iterations >= n)
            || (iterations % 64 == 0 && limits.time.is_some_and(|t| started.elapsed() >= t))
            || (limits.nodes.is_none() && limits.time.is_none() && iterations >= DEFAULT_ITERATIONS)
    }
}

/// The answer when there is one move only: no search.
pub(crate) fn only_move<M: Copy>(best: M) -> SearchResult<M> {
    SearchResult {
        best,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![best],
    }
}

/// `mover`'s share of a result worth `white_value` to White.
pub(crate) fn value_for(mover: Player, white_value: f64) -> f64 {
    match mover {
        Player::White => white_value,
        Player::Black => 1.0 - white_value,
    }
}

/// The answer of a search from its root children `(move, visits, sum of values)`: the most
/// visited move, ties broken by the mean value for the mover; `None` if there is no child.
pub(crate) fn most_visited<M: Copy>(
    children: impl Iterator<Item = (M, u32, f64)>,
    iterations: u64,
) -> Option<SearchResult<M>> {
    let (best, _, value) = children
        .map(|(mv, visits, sum)| (mv, visits, sum / f64::from(visits.max(1))))
        .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))?;
    Some(SearchResult {
        best,
        score: score_of_value(value),
        depth: 0,
        nodes: iterations,
        pv: vec![best],
    })
}

/// Plays random moves from `state` until the game ends or the playout limit, and returns the
/// value for White: the result, or the win rate of the evaluation where the playout stopped.
pub fn playout<G: Game>(
    game: &G,
    state: &mut G::State,
    moves: &mut Vec<G::Move>,
    rng: &mut impl Rng,
) -> f64 {
    for _ in 0..game.facts().playout_limit {
        game.legal_moves(state, moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        game.play_unchecked(state, mv);
    }
    match game.status(state) {
        Status::Over(o) => o.value_for(Player::White),
        Status::Ongoing => white_value(game, state),
    }
}
