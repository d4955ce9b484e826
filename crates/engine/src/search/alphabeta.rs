//! One thread's alpha-beta search: principal variation search with a transposition table,
//! null-move pruning where the game allows it, late move reductions, extensions of forcing
//! positions and a quiescence search that resolves captures and checks (and, at the horizon,
//! a capture threatened against the side to move) before the evaluation is trusted.

use denkmeter_core::{Game, Player, RepetitionRule, Status, TableResult};

use super::eval::{self, WIN};
use super::ordering::{pick_next, Heuristics};
use super::time::Clock;
use super::tt::{Bound, Table};
use super::SearchOptions;

/// Plies beyond which the search stops extending and the quiescence search stops looking.
const MAX_SEARCH_PLY: usize = 128;
/// How far (per ply of depth left, at most two) a quiet move is assumed to move the score at
/// best: futility pruning's margin, a man.
const FUTILITY_MARGIN: i32 = 100;
/// How many plies a null move saves, beyond the one it spends.
const NULL_MOVE_REDUCTION: u32 = 2;

/// One search thread.
pub(crate) struct Worker<'a, G: Game> {
    game: &'a G,
    table: &'a Table,
    clock: &'a Clock,
    heuristics: Heuristics<G::Move>,
    /// Nodes not yet added to the clock's count.
    batch: u64,
    pub(crate) stopped: bool,
    /// The repetition hashes of the game so far and of the line being searched, one per
    /// position, the root last before the line.
    path: Vec<u64>,
    /// Whether a repeated position ends the game (and is scored by the game).
    repetition_ends: bool,
    /// Per ply: the move list and its ordering scores, kept to spare allocations.
    moves: Vec<Vec<G::Move>>,
    scored: Vec<Vec<(i32, Slot)>>,
    quiet_tried: Vec<Vec<G::Move>>,
    /// The principal variation from each ply (a triangular table).
    pub(crate) pv: Vec<Vec<G::Move>>,
    /// See [`SearchOptions::noise`].
    noise: u32,
    seed: u64,
    /// The error of the root move being searched, for the side to move at the root, and that
    /// side: every evaluation below that move carries it.
    root_error: i32,
    root_side: Option<Player>,
    /// See [`SearchOptions::quiet_ply_limit`].
    quiet_limit: Option<u32>,
    /// Per ply: how many plies in a row won nothing before that ply's position (kept only
    /// under a `quiet_limit`).
    quiet: Vec<u32>,
    /// Whether positions an endgame database holds end the search there (not at the
    /// computer's noisy levels, which misjudge on purpose).
    tables: bool,
    /// Whether a database draw ends the search too: not when the root itself is a database
    /// draw, where the search looks for the opponent's chances to go wrong.
    table_draws_end: bool,
    /// Whether the iteration so far met its horizon (or a table entry that may hide one): if
    /// not, every line ended and a deeper iteration would find the same.
    pub(crate) open_ended: bool,
}

impl<'a, G: Game> Worker<'a, G> {
    pub(crate) fn new(
        game: &'a G,
        table: &'a Table,
        clock: &'a Clock,
        history: &[u64],
        options: &SearchOptions,
    ) -> Self {
        Worker {
            game,
            table,
            clock,
            heuristics: Heuristics::new(),
            batch: 0,
            stopped: false,
            path: history.to_vec(),
            repetition_ends: game.facts().repetition == RepetitionRule::DrawOnThird,
            moves: Vec::new(),
            scored: Vec::new(),
            quiet_tried: Vec::new(),
            pv: Vec::new(),
            noise: options.noise,
            seed: options.seed,
            root_error: 0,
            root_side: None,
            quiet_limit: options.quiet_ply_limit,
            quiet: vec![options.quiet_plies],
            tables: options.uses_tables(),
            table_draws_end: true,
            open_ended: false,
        }
    }

    /// The worker for a root that an endgame database holds as a draw: database draws below
    /// it are searched on (see `table_draws_end`).
    pub(crate) fn below_drawn_table_root(mut self, drawn: bool) -> Self {
        self.table_draws_end = !drawn;
        self
    }

    /// The static evaluation, with the level's noise if any: the error of the root move it
    /// lies under, for the side that made that move.
    fn evaluate(&self, state: &G::State) -> i32 {
        let score = eval::evaluate(self.game, state);
        match self.root_side {
            Some(side) if self.noise > 0 && self.game.to_move(state) == side => {
                score + self.root_error
            }
            Some(_) if self.noise > 0 => score - self.root_error,
            _ => score,
        }
    }

    /// The error a noisy search gives to the root move leading to `next`: a hash of the
    /// position and the seed, from `-noise` to `noise`. One error per root move, not per
    /// evaluated position: errors drawn at every leaf would make the search prefer moves that
    /// leave the opponent few replies (the least of many errors is low), such as handing him a
    /// capture he must take, and so blunder material.
    fn root_move_error(&self, next: &G::State) -> i32 {
        let mut h = (self.game.hash(next) ^ self.seed).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 31;
        let span = 2 * u64::from(self.noise) + 1;
        (h % span) as i32 - self.noise as i32
    }

    /// Adds the nodes not yet counted to the clock's total.
    pub(crate) fn flush_nodes(&mut self) {
        if self.batch > 0 {
            self.clock.tick(self.batch);
            self.batch = 0;
        }
    }

    fn visit(&mut self) -> bool {
        self.batch += 1;
        if self.batch >= Clock::CHECK_EVERY {
            let batch = std::mem::take(&mut self.batch);
            if self.clock.tick(batch) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn ensure_ply(&mut self, ply: usize) {
        while self.moves.len() <= ply {
            self.moves.push(Vec::new());
            self.scored.push(Vec::new());
            self.quiet_tried.push(Vec::new());
            self.pv.push(Vec::new());
        }
        while self.quiet.len() <= ply {
            self.quiet.push(0);
        }
    }

    /// Before playing `mv` from the position at `ply`: counts the plies in a row that won
    /// nothing for the position it leads to, under a quiet-ply limit.
    fn count_quiet(&mut self, state: &G::State, mv: Option<G::Move>, ply: usize) {
        if self.quiet_limit.is_some() {
            self.ensure_ply(ply + 1);
            let gains = mv.is_some_and(|mv| self.game.move_gain(state, mv) > 0);
            self.quiet[ply + 1] = if gains { 0 } else { self.quiet[ply] + 1 };
        }
    }

    /// Whether the quiet-ply limit has drawn the game at `ply` (never at the root).
    fn drawn_by_quiet_plies(&self, ply: usize) -> bool {
        ply > 0
            && self
                .quiet_limit
                .is_some_and(|limit| self.quiet[ply] >= limit)
    }

    /// The position repeats one earlier in the game or the line (same side to move is part of
    /// the hash), so the repetition rule may end it; `reversible` is how far back an equal
    /// position may stand ([`Game::reversible_plies`]).
    fn repeats(&self, hash: u64, reversible: Option<u32>) -> bool {
        let n = self.path.len();
        if n < 2 {
            return false;
        }
        let back = reversible.map_or(n - 1, |plies| (plies as usize).min(n - 1));
        self.path[n - 1 - back..n - 1]
            .iter()
            .rev()
            .any(|&h| h == hash)
    }

    /// Counts a node at `ply`: its score if the search stops here (time is up: 0, ignored) or
    /// the game is over.
    fn enter(&mut self, state: &G::State, ply: usize) -> Option<i32> {
        self.ensure_ply(ply);
        self.pv[ply].clear();
        if self.visit() {
            return Some(0);
        }
        match self.game.status(state) {
            Status::Over(outcome) => Some(eval::final_score(
                &outcome,
                self.game.to_move(state),
                ply as i32,
            )),
            Status::Ongoing => None,
        }
    }

    /// The score of `state` for its side to move, searched `depth` plies deep, `ply` plies from
    /// the root; `pv_node` when the window may still hold the exact value.
    pub(crate) fn negamax(
        &mut self,
        state: &G::State,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv_node: bool,
    ) -> i32 {
        if let Some(score) = self.enter(state, ply) {
            return score;
        }
        let game = self.game;
        if ply > 0
            && self.repetition_ends
            && self.repeats(
                *self.path.last().unwrap_or(&0),
                game.reversible_plies(state),
            )
        {
            let outcome = game.ending_by_repetition(state);
            return eval::final_score(&outcome, game.to_move(state), ply as i32);
        }
        if self.drawn_by_quiet_plies(ply) {
            return eval::DRAW;
        }
        if ply > 0 && self.tables {
            if let Some(value) = game.table_value(state, false) {
                if value.result != TableResult::Draw || self.table_draws_end {
                    return eval::table_score(&value, ply as i32);
                }
            }
        }
        if depth == 0 || ply >= MAX_SEARCH_PLY {
            self.open_ended = true;
            return self.quiescence(state, ply, alpha, beta, true);
        }
        // No line from here can do better than winning at once or worse than losing at once.
        if ply > 0 {
            alpha = alpha.max(-(WIN - ply as i32));
            beta = beta.min(WIN - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let hash = game.hash(state);
        let entry = self.table.probe(hash);
        if let Some(entry) = entry {
            if !pv_node {
                if let Some(score) = entry.cutoff(depth, ply as i32, alpha, beta) {
                    self.open_ended = true;
                    return score;
                }
            }
        }

        let forcing = game.forcing(state);
        if !pv_node && !forcing && depth >= 3 && beta.abs() < WIN - eval::MAX_PLY {
            if let Some(passed) = game.null_move(state) {
                if self.evaluate(state) >= beta {
                    let reduced = depth - 1 - NULL_MOVE_REDUCTION.min(depth - 1);
                    self.path.push(game.repetition_hash(&passed));
                    self.count_quiet(state, None, ply);
                    let score = -self.negamax(&passed, reduced, ply + 1, -beta, -beta + 1, false);
                    self.path.pop();
                    if self.stopped {
                        return 0;
                    }
                    if score >= beta {
                        return beta;
                    }
                }
            }
        }

        let mut moves = std::mem::take(&mut self.moves[ply]);
        game.legal_moves(state, &mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return self.evaluate(state);
        }
        let side = game.to_move(state).index();
        let hash_move = entry
            .and_then(|e| e.best)
            .and_then(|i| moves.get(usize::from(i)).copied());
        // No table move to try first: the search here will be poorly ordered, so it is
        // worth less; search it a ply shallower (internal iterative reduction).
        let depth = if depth >= 4 && hash_move.is_none() && !forcing {
            depth - 1
        } else {
            depth
        };
        // Near the leaves, a quiet move cannot lift a position far below alpha above it.
        let futile = !pv_node
            && !forcing
            && depth <= 2
            && alpha.abs() < WIN - eval::MAX_PLY
            && self.evaluate(state) + FUTILITY_MARGIN * depth as i32 <= alpha;
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        for (i, &mv) in moves.iter().enumerate() {
            let gain = game.move_gain(state, mv);
            let score = self.heuristics.score(mv, gain, side, ply, hash_move);
            scored.push((
                score,
                Slot {
                    index: i as u16,
                    quiet: gain <= 0,
                },
            ));
        }
        let mut quiet_tried = std::mem::take(&mut self.quiet_tried[ply]);
        quiet_tried.clear();

        // A forced reply costs no depth, within reason: the only move, or an answer to a
        // check (a forcing position whose moves are not all captures). Where captures are
        // compulsory every capture position is forcing, and extending each would double the
        // tree; the quiescence search resolves those.
        let all_gains = scored.iter().all(|(_, slot)| !slot.quiet);
        let extension =
            u32::from(forcing && (moves.len() == 1 || !all_gains) && (ply as u32) < 2 * depth + 8);
        let alpha_in = alpha;
        let mut best = -WIN - 1;
        let mut best_index = None;
        for n in 0..scored.len() {
            let Slot { index, quiet } = pick_next(&mut scored, n);
            let mv = moves[usize::from(index)];
            if futile && quiet && n > 0 && best > -WIN + eval::MAX_PLY && !self.checks(state, mv) {
                continue;
            }
            let new_depth = depth - 1 + extension;
            let score = if n == 0 {
                self.child(state, mv, new_depth, ply, alpha, beta, pv_node)
            } else {
                let reduction = if depth >= 3
                    && n >= 3
                    && quiet
                    && !forcing
                    && !self.heuristics.is_killer(mv, ply)
                {
                    late_move_reduction(depth, n, pv_node).min(new_depth - 1)
                } else {
                    0
                };
                let mut score = self.child(
                    state,
                    mv,
                    new_depth - reduction,
                    ply,
                    alpha,
                    alpha + 1,
                    false,
                );
                if score > alpha && reduction > 0 && !self.stopped {
                    score = self.child(state, mv, new_depth, ply, alpha, alpha + 1, false);
                }
                if score > alpha && score < beta && pv_node && !self.stopped {
                    score = self.child(state, mv, new_depth, ply, alpha, beta, true);
                }
                score
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_index = Some(index);
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(mv);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if alpha >= beta {
                        if quiet {
                            self.heuristics.cutoff(mv, side, ply, depth, &quiet_tried);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiet_tried.push(mv);
            }
        }
        self.moves[ply] = moves;
        self.scored[ply] = scored;
        self.quiet_tried[ply] = quiet_tried;
        if self.stopped {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_in {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table
            .store(hash, ply as i32, best, depth, bound, best_index);
        best
    }

    /// Whether `mv` leaves the opponent a position to answer at once (a check; in draughts a
    /// capture it must make): such a quiet move is never pruned as futile.
    fn checks(&self, state: &G::State, mv: G::Move) -> bool {
        let mut next = state.clone();
        self.game.play_unchecked(&mut next, mv);
        self.game.forcing(&next)
    }

    /// The score of playing `mv` in `state`, for the side to move in `state`. A player who
    /// passes or moves again keeps the side: the score is negated only across a turn.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        state: &G::State,
        mv: G::Move,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> i32 {
        let game = self.game;
        self.count_quiet(state, Some(mv), ply);
        let mut next = state.clone();
        game.play_unchecked(&mut next, mv);
        if ply == 0 && self.noise > 0 {
            self.root_error = self.root_move_error(&next);
            self.root_side = Some(game.to_move(state));
        }
        self.path.push(game.repetition_hash(&next));
        let score = if game.to_move(&next) == game.to_move(state) {
            self.negamax(&next, depth, ply + 1, alpha, beta, pv_node)
        } else {
            -self.negamax(&next, depth, ply + 1, -beta, -alpha, pv_node)
        };
        self.path.pop();
        score
    }

    /// The score of `state` once the captures (and, where the side to move must answer
    /// something, every reply) have been played out: the side to move may stand on the
    /// evaluation unless it is bound to answer or, at the `horizon` (the first position past
    /// the search's depth) of a game where only captures gain, the other side threatens one.
    fn quiescence(
        &mut self,
        state: &G::State,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        horizon: bool,
    ) -> i32 {
        if let Some(score) = self.enter(state, ply) {
            return score;
        }
        if self.drawn_by_quiet_plies(ply) {
            return eval::DRAW;
        }
        let game = self.game;
        let forcing = game.forcing(state);
        // At the horizon, a side whose piece is threatened may not stand on the evaluation: it
        // must move, and its moves are searched one ply on (the threat is then carried out or
        // not).
        let threatened = horizon
            && !forcing
            && game.gains_only_when_forcing()
            && ply < MAX_SEARCH_PLY
            && game.threatened(state);
        let mut best = -WIN - 1;
        if (!forcing && !threatened) || ply >= MAX_SEARCH_PLY {
            best = self.evaluate(state);
            if best >= beta || ply >= MAX_SEARCH_PLY {
                return best;
            }
            if game.gains_only_when_forcing() {
                // Nothing to win at once: no move to resolve.
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        game.legal_moves(state, &mut moves);
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        for (i, &mv) in moves.iter().enumerate() {
            let gain = game.move_gain(state, mv);
            if forcing || threatened || gain > 0 {
                let quiet = gain <= 0;
                scored.push((
                    gain,
                    Slot {
                        index: i as u16,
                        quiet,
                    },
                ));
            }
        }
        for n in 0..scored.len() {
            let mv = moves[usize::from(pick_next(&mut scored, n).index)];
            self.count_quiet(state, Some(mv), ply);
            let mut next = state.clone();
            game.play_unchecked(&mut next, mv);
            let score = if game.to_move(&next) == game.to_move(state) {
                self.quiescence(&next, ply + 1, alpha, beta, false)
            } else {
                -self.quiescence(&next, ply + 1, -beta, -alpha, false)
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if best == -WIN - 1 {
            // Bound to answer and no reply: the status would have said so; trust the
            // evaluation.
            best = self.evaluate(state);
        }
        self.moves[ply] = moves;
        self.scored[ply] = scored;
        if self.stopped {
            return 0;
        }
        best
    }
}

/// A move's place in the position's move list, and whether it wins nothing at once.
#[derive(Clone, Copy, Debug)]
struct Slot {
    index: u16,
    quiet: bool,
}

/// How many plies to take off the `n`th move (from 0) of a search `depth` deep: more for later
/// moves and deeper searches, less on the principal variation.
fn late_move_reduction(depth: u32, n: usize, pv_node: bool) -> u32 {
    let r = (f64::from(depth).ln() * (n as f64).ln() / 2.0) as u32;
    let r = r.max(1);
    if pv_node {
        r.saturating_sub(1)
    } else {
        r
    }
}
