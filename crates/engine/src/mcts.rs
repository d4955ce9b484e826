//! Monte Carlo tree search (UCT) with random playouts, for every game. Reproducible: the same
//! seed and iteration budget give the same move.

use std::time::{Duration, Instant};

use denkmeter_core::{Game, Player, Status};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// When a search stops: whichever limit is reached first. With no time limit the search is
/// deterministic for a given seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    pub iterations: Option<u64>,
    pub time: Option<Duration>,
}

impl Limits {
    pub fn iterations(n: u64) -> Limits {
        Limits {
            iterations: Some(n),
            time: None,
        }
    }

    pub fn time(t: Duration) -> Limits {
        Limits {
            iterations: None,
            time: Some(t),
        }
    }
}

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

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport<M> {
    pub best: M,
    pub iterations: u64,
    /// The root's moves with their visit counts and mean value for the player to move.
    pub children: Vec<(M, u32, f64)>,
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

/// Runs MCTS from `state` and returns the most visited move, or `None` if there is no legal
/// move.
pub fn search<G: Game>(
    game: &G,
    state: &G::State,
    config: &MctsConfig,
) -> Option<SearchReport<G::Move>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let mut root_moves = Vec::new();
    game.legal_moves(state, &mut root_moves);
    if root_moves.is_empty() {
        return None;
    }
    if root_moves.len() == 1 {
        return Some(SearchReport {
            best: root_moves[0],
            iterations: 0,
            children: vec![(root_moves[0], 0, 0.5)],
        });
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
        if config.limits.iterations.is_some_and(|n| iterations >= n) {
            break;
        }
        if iterations % 64 == 0 && config.limits.time.is_some_and(|t| started.elapsed() >= t) {
            break;
        }
        if config.limits.iterations.is_none() && config.limits.time.is_none() && iterations >= 1000
        {
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
                game.play(&mut position, mv);
            }
        }

        // Expansion.
        if nodes[current].terminal.is_none() {
            if let Some(mv) = nodes[current].untried.pop() {
                let mover = game.to_move(&position);
                game.play(&mut position, mv);
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
            node.value += match node.mover {
                Player::White => white_value,
                Player::Black => 1.0 - white_value,
            };
            at = node.parent;
        }
    }
    let children: Vec<_> = nodes[0]
        .children
        .iter()
        .map(|&c| {
            let n = &nodes[c as usize];
            let mv = n.mv.expect("every child node holds its move");
            (mv, n.visits, n.value / f64::from(n.visits.max(1)))
        })
        .collect();
    let best = children
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
        .map(|c| c.0)
        .or_else(|| nodes[0].untried.last().copied())?;
    Some(SearchReport {
        best,
        iterations,
        children,
    })
}

/// Plays random moves from `state` until the game ends or the playout limit, and returns the
/// value for White.
pub fn playout<G: Game>(
    game: &G,
    state: &mut G::State,
    moves: &mut Vec<G::Move>,
    rng: &mut impl Rng,
) -> f64 {
    for _ in 0..game.playout_limit() {
        game.legal_moves(state, moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        game.play(state, mv);
    }
    match game.status(state) {
        Status::Over(o) => o.value_for(Player::White),
        Status::Ongoing => game.playout_value(state),
    }
}
