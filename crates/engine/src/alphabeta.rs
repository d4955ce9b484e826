//! Alpha-beta search: negamax with iterative deepening and a transposition table, for every
//! game. It evaluates positions with the game's own [`Game::playout_value`] (White's chance, 0
//! to 1), so it is as good as that heuristic; finished positions score as wins, losses and
//! draws, with shorter wins preferred.

use std::time::{Duration, Instant};

use denkmeter_core::{Game, Player, Status};

/// Scores at least this large are forced wins (minus the distance in plies).
pub const WIN: i32 = 1_000_000;

/// When a search stops: the first limit reached. A search always completes depth 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    pub time: Option<Duration>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    pub best: M,
    /// From the mover's side: positive is good, beyond `WIN - 1000` a forced win.
    pub score: i32,
    /// The deepest depth completed.
    pub depth: u32,
    pub nodes: u64,
}

#[derive(Clone, Copy, Debug)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    hash: u64,
    depth: u32,
    score: i32,
    bound: Bound,
    best: Option<M>,
}

struct Searcher<'a, G: Game> {
    game: &'a G,
    table: Vec<Option<Entry<G::Move>>>,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

const TABLE_BITS: u32 = 18;

impl<G: Game> Searcher<'_, G> {
    fn slot(&self, hash: u64) -> usize {
        (hash >> (64 - TABLE_BITS)) as usize
    }

    /// The static score of `state` for the side to move.
    fn evaluate(&self, state: &G::State) -> i32 {
        let white = ((self.game.playout_value(state) - 0.5) * 2000.0).round() as i32;
        match self.game.to_move(state) {
            Player::White => white,
            Player::Black => -white,
        }
    }

    fn negamax(
        &mut self,
        state: &G::State,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes % 1024 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if let Status::Over(outcome) = self.game.status(state) {
            let mover = self.game.to_move(state);
            return match outcome.winner {
                Some(w) if w == mover => WIN - ply,
                Some(_) => -(WIN - ply),
                None => 0,
            };
        }
        if depth == 0 {
            return self.evaluate(state);
        }
        let hash = self.game.hash(state);
        let slot = self.slot(hash);
        let mut first = None;
        if let Some(entry) = self.table[slot].filter(|e| e.hash == hash) {
            first = entry.best;
            if entry.depth >= depth {
                match entry.bound {
                    Bound::Exact => return entry.score,
                    Bound::Lower if entry.score >= beta => return entry.score,
                    Bound::Upper if entry.score <= alpha => return entry.score,
                    _ => {}
                }
            }
        }
        let mut moves = Vec::new();
        self.game.legal_moves(state, &mut moves);
        if let Some(at) = first.and_then(|m| moves.iter().position(|&x| x == m)) {
            moves.swap(0, at);
        }
        let alpha_in = alpha;
        let mut best = i32::MIN + 1;
        let mut best_move = None;
        for mv in moves {
            let mut next = state.clone();
            self.game.play(&mut next, mv);
            // A player who passes or moves again keeps the side: negate only across a turn.
            let same_side = self.game.to_move(&next) == self.game.to_move(state);
            let score = if same_side {
                self.negamax(&next, depth - 1, ply + 1, alpha, beta)
            } else {
                -self.negamax(&next, depth - 1, ply + 1, -beta, -alpha)
            };
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
        self.table[slot] = Some(Entry {
            hash,
            depth,
            score: best,
            bound,
            best: best_move,
        });
        best
    }
}

/// Searches `state` by iterative deepening until a limit; `None` if there is no legal move.
/// Depth 1 always completes, whatever the clock says.
pub fn search<G: Game>(
    game: &G,
    state: &G::State,
    limits: SearchLimits,
) -> Option<SearchResult<G::Move>> {
    let started = Instant::now();
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
        table: vec![None; 1 << TABLE_BITS],
        nodes: 0,
        deadline: None,
        stopped: false,
    };
    let mover = game.to_move(state);
    let max_depth = limits.depth.unwrap_or(u32::MAX).max(1);
    for depth in 1..=max_depth {
        let mut alpha = -WIN - 1;
        let mut best = None;
        for &mv in &moves {
            let mut next = state.clone();
            game.play(&mut next, mv);
            let score = if game.to_move(&next) == mover {
                searcher.negamax(&next, depth - 1, 1, alpha, WIN + 1)
            } else {
                -searcher.negamax(&next, depth - 1, 1, -WIN - 1, -alpha)
            };
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
            // Search the best move first at the next depth.
            if let Some(at) = moves.iter().position(|&m| m == mv) {
                moves[..=at].rotate_right(1);
            }
        }
        result.score = alpha;
        result.depth = depth;
        searcher.deadline = limits.time.map(|t| started + t);
        if alpha.abs() >= WIN - 1000
            || (limits.depth.is_none() && limits.time.is_none())
            || searcher.deadline.is_some_and(|d| Instant::now() >= d)
        {
            break;
        }
    }
    result.nodes = searcher.nodes;
    Some(result)
}
