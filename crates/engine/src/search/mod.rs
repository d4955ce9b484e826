//! Alpha-beta search for every game: negamax with iterative deepening, a transposition table
//! and the game's own integer evaluation. Its parts are in separate files, so that each can grow
//! on its own: [`eval`] (scores), `ordering` (which moves first), `tt` (the transposition
//! table) and `time` (when to stop).

pub mod eval;
mod ordering;
mod time;
mod tt;

use denkmeter_core::{Game, Status};

use crate::Limits;
use eval::WIN;
use time::Clock;
use tt::{Bound, Entry, Table};

/// What a search found: the one result type of every search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    pub best: M,
    /// For the side to move, in the evaluation's units: positive is good; see
    /// [`eval::is_decisive`] for forced wins and losses.
    pub score: i32,
    /// The deepest depth completed (alpha-beta), or 0 (Monte Carlo tree search).
    pub depth: u32,
    /// Positions visited (alpha-beta) or iterations run (Monte Carlo tree search).
    pub nodes: u64,
}

struct Searcher<'a, G: Game> {
    game: &'a G,
    table: Table<G::Move>,
    nodes: u64,
    clock: Clock,
    stopped: bool,
}

impl<G: Game> Searcher<'_, G> {
    /// The score of `state` for its side to move, searched `depth` plies deep.
    fn negamax(
        &mut self,
        state: &G::State,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.clock.must_stop(self.nodes) {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if let Status::Over(outcome) = self.game.status(state) {
            return eval::final_score(&outcome, self.game.to_move(state), ply);
        }
        if depth == 0 {
            return eval::evaluate(self.game, state);
        }
        let hash = self.game.hash(state);
        let mut hash_move = None;
        if let Some(entry) = self.table.probe(hash) {
            hash_move = entry.best;
            if let Some(score) = entry.cutoff(depth, alpha, beta) {
                return score;
            }
        }
        let mut moves = Vec::new();
        self.game.legal_moves(state, &mut moves);
        ordering::hash_move_first(&mut moves, hash_move);
        let alpha_in = alpha;
        let mut best = i32::MIN + 1;
        let mut best_move = None;
        for mv in moves {
            let score = self.child_score(state, mv, depth - 1, ply + 1, alpha, beta);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha_in {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(Entry {
            hash,
            depth,
            score: best,
            bound,
            best: best_move,
        });
        best
    }

    /// The score of playing `mv` in `state`, for the side to move in `state`. A player who
    /// passes or moves again keeps the side: the score is negated only across a turn.
    fn child_score(
        &mut self,
        state: &G::State,
        mv: G::Move,
        depth: u32,
        ply: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut next = state.clone();
        self.game.play_unchecked(&mut next, mv);
        if self.game.to_move(&next) == self.game.to_move(state) {
            self.negamax(&next, depth, ply, alpha, beta)
        } else {
            -self.negamax(&next, depth, ply, -beta, -alpha)
        }
    }
}

/// Searches `state` by iterative deepening until a limit; `None` if there is no legal move.
/// Depth 1 always completes, whatever the limits say; with no limit at all it stops there.
pub fn search<G: Game>(
    game: &G,
    state: &G::State,
    limits: Limits,
) -> Option<SearchResult<G::Move>> {
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let mut result = SearchResult {
        best: *moves.first()?,
        score: 0,
        depth: 0,
        nodes: 0,
    };
    let mut searcher = Searcher {
        game,
        table: Table::new(),
        nodes: 0,
        clock: Clock::start(limits),
        stopped: false,
    };
    let max_depth = limits.depth.unwrap_or(u32::MAX).max(1);
    for depth in 1..=max_depth {
        let mut alpha = -WIN - 1;
        let mut best = None;
        for &mv in &moves {
            let score = searcher.child_score(state, mv, depth - 1, 1, alpha, WIN + 1);
            if searcher.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                best = Some(mv);
            }
        }
        if searcher.stopped {
            break;
        }
        if let Some(mv) = best {
            result.best = mv;
            ordering::best_move_first(&mut moves, mv);
        }
        result.score = alpha;
        result.depth = depth;
        searcher.clock.arm();
        if eval::is_decisive(alpha)
            || limits.is_unlimited()
            || searcher.clock.out_of_time()
            || limits.nodes.is_some_and(|n| searcher.nodes >= n)
        {
            break;
        }
    }
    result.nodes = searcher.nodes;
    Some(result)
}
