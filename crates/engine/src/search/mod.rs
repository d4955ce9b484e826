//! Alpha-beta search for every game: iterative deepening with aspiration windows over a
//! principal variation search, on one thread or several (lazy SMP: every thread searches the
//! same root and they share what they find through the transposition table). Its parts are in
//! separate files, so that each can grow on its own: [`eval`] (scores), `alphabeta` (one
//! thread's search), `ordering` (which moves first), `tt` (the transposition table) and `time`
//! (when to stop). The evaluation itself is each game's own ([`denkmeter_core::Game::evaluate`]).

mod alphabeta;
pub mod eval;
mod ordering;
mod time;
pub(crate) mod tt;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use denkmeter_core::{Game, TableResult};

use crate::Limits;
use alphabeta::Worker;
use eval::WIN;
use time::{Clock, Unrest};
use tt::Table;

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
    /// The expected line of play, starting with `best` (alpha-beta; Monte Carlo tree search
    /// gives `best` alone).
    pub pv: Vec<M>,
}

/// How to search, beyond the limits.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub limits: Limits,
    /// Threads searching together (lazy SMP); 1 is deterministic for a depth or node limit.
    pub threads: usize,
    /// The transposition table's size in megabytes.
    pub hash_mb: usize,
    /// The repetition hashes ([`Game::repetition_hash`]) of the positions before the one
    /// searched, oldest first: a line that repeats one of them may end the game by
    /// repetition. They are the positions the game's moves led through to the one searched,
    /// whose draw counts then agree with them: the search looks back only as far as
    /// [`Game::reversible_plies`] allows.
    pub history: Vec<u64>,
    /// The largest error added to each root move's score, either way (0: none): how the
    /// computer's low levels misjudge. The error is a hash of the position the move leads to
    /// and `seed`, so a search with the same seed misjudges the same way.
    pub noise: u32,
    pub seed: u64,
    /// A referee's draw rule that the game's own rules do not have: the game is drawn once
    /// this many plies in a row win nothing ([`Game::move_gain`] 0: no capture), as
    /// OpenSpiel's checkers does after 40. `None` (the default): no such rule.
    pub quiet_ply_limit: Option<u32>,
    /// Plies in a row that won nothing just before the position searched, for
    /// `quiet_ply_limit`.
    pub quiet_plies: u32,
    /// A stop asked from outside the search (a protocol's `stop` command), or `None`. Once the
    /// flag is set the search stops as at its time limit: it is read with the time, every
    /// [`SearchOptions::STOP_CHECK_NODES`] nodes per thread, so it costs nothing measurable.
    /// Depth 1 still completes, so that a stopped search always has a searched move. Compared
    /// by identity, not by value.
    pub stop: Option<Arc<AtomicBool>>,
    /// Whether the search uses the endgame databases installed ([`Game::table_value`]): at the
    /// root, for a won or lost position's fastest line, and below it, where a position they
    /// hold ends the line. On by default; a noisy search never uses them. Off, the search
    /// plays as if none were installed, to measure what they bring.
    pub endgame_tables: bool,
}

impl PartialEq for SearchOptions {
    fn eq(&self, other: &SearchOptions) -> bool {
        let SearchOptions {
            limits,
            threads,
            hash_mb,
            history,
            noise,
            seed,
            quiet_ply_limit,
            quiet_plies,
            stop,
            endgame_tables,
        } = self;
        let same_stop = match (stop, &other.stop) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        *limits == other.limits
            && *threads == other.threads
            && *hash_mb == other.hash_mb
            && *history == other.history
            && *noise == other.noise
            && *seed == other.seed
            && *quiet_ply_limit == other.quiet_ply_limit
            && *quiet_plies == other.quiet_plies
            && *endgame_tables == other.endgame_tables
            && same_stop
    }
}

impl Eq for SearchOptions {}

impl SearchOptions {
    /// The most threads a search accepts.
    pub const MAX_THREADS: usize = 64;
    /// The transposition table's default size, in megabytes.
    pub const DEFAULT_HASH_MB: usize = Table::DEFAULT_MB;
    /// The largest transposition table accepted, in megabytes.
    pub const MAX_HASH_MB: usize = Table::MAX_MB;
    /// How many nodes a thread visits between two looks at [`SearchOptions::stop`].
    pub const STOP_CHECK_NODES: u64 = Clock::CHECK_EVERY;

    /// Whether the search uses the endgame databases: asked for, and not a noisy search
    /// (whose misjudgements are the point).
    pub(crate) fn uses_tables(&self) -> bool {
        self.endgame_tables && self.noise == 0
    }

    /// One thread, the default table, no history, the endgame databases used.
    pub fn new(limits: Limits) -> SearchOptions {
        SearchOptions {
            limits,
            threads: 1,
            hash_mb: Self::DEFAULT_HASH_MB,
            history: Vec::new(),
            noise: 0,
            seed: 0,
            quiet_ply_limit: None,
            quiet_plies: 0,
            stop: None,
            endgame_tables: true,
        }
    }
}

/// What one completed depth found: reported as the search goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthReport<M> {
    pub depth: u32,
    /// For the side to move, as in [`SearchResult::score`].
    pub score: i32,
    /// Positions visited so far by every thread.
    pub nodes: u64,
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<M>,
}

/// Searches `state` by iterative deepening on one thread until a limit; `None` if there is no
/// legal move. Depth 1 always completes, whatever the limits say; with no limit at all it
/// stops there.
pub fn search<G: Game>(
    game: &G,
    state: &G::State,
    limits: Limits,
) -> Option<SearchResult<G::Move>> {
    search_with(game, state, &SearchOptions::new(limits), &mut |_| {})
}

/// [`search`] with more options, calling `on_depth` after every completed depth.
pub fn search_with<G: Game>(
    game: &G,
    state: &G::State,
    options: &SearchOptions,
    on_depth: &mut dyn FnMut(&DepthReport<G::Move>),
) -> Option<SearchResult<G::Move>> {
    let mut table = Table::new(options.hash_mb);
    table.new_search();
    search_in(game, state, options, &table, on_depth)
}

/// A transposition table kept from one search to the next, as an engine playing a game keeps
/// one: each search starts from what the ones before it learnt, and no search spends its time
/// building a table (zeroing 32 MB takes longer than a bullet move may).
#[derive(Debug)]
pub struct SearchTable {
    table: Table,
    megabytes: usize,
}

impl SearchTable {
    /// A table of at most `megabytes` (1 to [`SearchOptions::MAX_HASH_MB`]; rounded down to a
    /// power of two).
    pub fn new(megabytes: usize) -> SearchTable {
        SearchTable {
            table: Table::new(megabytes),
            megabytes,
        }
    }

    /// The size asked for, in megabytes.
    pub fn megabytes(&self) -> usize {
        self.megabytes
    }

    /// How many positions the table holds (a pass over the whole table).
    pub fn stored_entries(&self) -> usize {
        self.table.stored_entries()
    }
}

/// [`search_with`] in a table kept between searches (`options.hash_mb` is ignored: the table
/// has its own size).
pub fn search_with_table<G: Game>(
    game: &G,
    state: &G::State,
    options: &SearchOptions,
    table: &mut SearchTable,
    on_depth: &mut dyn FnMut(&DepthReport<G::Move>),
) -> Option<SearchResult<G::Move>> {
    table.table.new_search();
    search_in(game, state, options, &table.table, on_depth)
}

/// [`search_with`] in a table the caller keeps (its size is the caller's, not
/// `options.hash_mb`): many short searches of related positions, as alpha-beta over drawings
/// makes, share what each has learnt instead of zeroing a table apiece.
pub(crate) fn search_in<G: Game>(
    game: &G,
    state: &G::State,
    options: &SearchOptions,
    table: &Table,
    on_depth: &mut dyn FnMut(&DepthReport<G::Move>),
) -> Option<SearchResult<G::Move>> {
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let first = *moves.first()?;
    let tables = options.uses_tables();
    // The referee's quiet-ply rule is not the ruleset's: the databases know nothing of it.
    if tables && options.quiet_ply_limit.is_none() {
        if let Some(result) = table_move(game, state, &moves, &options.history) {
            on_depth(&DepthReport {
                depth: result.depth,
                score: result.score,
                nodes: result.nodes,
                elapsed: Duration::ZERO,
                pv: result.pv.clone(),
            });
            return Some(result);
        }
    }
    let clock = Clock::start(options.limits).with_external_stop(options.stop.clone());
    let mut history = options.history.clone();
    history.push(game.repetition_hash(state));
    let threads = options.threads.clamp(1, SearchOptions::MAX_THREADS);
    let drawn_table_root = tables
        && game
            .table_value(state, false)
            .is_some_and(|v| v.result == TableResult::Draw);

    let mut result = SearchResult {
        best: first,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![first],
    };
    std::thread::scope(|scope| {
        for id in 1..threads {
            let (clock, history) = (&clock, &history);
            scope.spawn(move || {
                let mut worker = Worker::new(game, table, clock, history, options)
                    .below_drawn_table_root(drawn_table_root);
                // Helpers start one ply apart, so that they fill the table ahead of the main
                // thread rather than repeat it.
                let mut depth = 1 + (id % 2) as u32;
                while !clock.stopped() && depth < eval::MAX_PLY as u32 {
                    worker.negamax(state, depth, 0, -WIN - 1, WIN + 1, true);
                    depth += 1;
                }
                worker.flush_nodes();
            });
        }
        let mut worker = Worker::new(game, table, &clock, &history, options)
            .below_drawn_table_root(drawn_table_root);
        let mut score = 0;
        let mut depth = 0;
        let mut unrest = Unrest::default();
        while depth == 0 || clock.may_deepen(depth) {
            depth += 1;
            let last = (result.best, score);
            worker.open_ended = false;
            score = aspiration(&mut worker, state, depth, score);
            if worker.stopped {
                // A root move that beat the others before time ran out is better than the last
                // depth's choice: the previous best was searched first, and only a move that
                // scored above it made it into the line.
                if let Some(&best) = worker.pv.first().and_then(|pv| pv.first()) {
                    if best != result.best {
                        result.best = best;
                        result.pv = worker.pv[0].clone();
                    }
                }
                break;
            }
            worker.flush_nodes();
            let pv = worker.pv.first().cloned().unwrap_or_default();
            if let Some(&best) = pv.first() {
                result.best = best;
                result.pv = pv;
            }
            result.score = score;
            result.depth = depth;
            clock.arm();
            on_depth(&DepthReport {
                depth,
                score,
                nodes: clock.nodes(),
                elapsed: clock.elapsed(),
                pv: result.pv.clone(),
            });
            let mate_seen = eval::is_decisive(score) && depth as i32 >= WIN - score.abs();
            // Every line ended (the game's end, the databases) before the horizon: a deeper
            // search finds the same.
            if mate_seen || !worker.open_ended || options.limits.is_unlimited() {
                break;
            }
            if clock.is_planned() {
                // On the clock a forced move is played at once, and the planned time is
                // stretched or shrunk by how sure the search is of its move.
                if moves.len() == 1 {
                    break;
                }
                let changed = depth > 1 && result.best != last.0;
                let fell = if depth > 1 { last.1 - score } else { 0 };
                clock.rescale(unrest.after_depth(depth, changed, fell));
            }
        }
        clock.stop();
        worker.flush_nodes();
    });
    result.nodes = clock.nodes();
    Some(result)
}

/// The longest line [`table_move`] follows.
const TABLE_LINE: usize = 24;

/// Where an endgame database holds a won or lost position with its distance: the move that
/// wins quickest or loses slowest, without a search, with the database's line. A drawn
/// position is left to the search, which sees the database's values below the root and may
/// find the opponent a way to go wrong.
fn table_move<G: Game>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    history: &[u64],
) -> Option<SearchResult<G::Move>> {
    let root = game.table_value(state, true)?;
    if root.result == TableResult::Draw {
        return None;
    }
    let plies = root.plies?;
    let best = best_table_move(game, state, moves, history)?;
    let score = match (root.result, root.exact) {
        (TableResult::Win, true) => WIN - plies as i32,
        (TableResult::Loss, true) => -(WIN - plies as i32),
        (TableResult::Win, false) => eval::TABLE_WIN,
        _ => -eval::TABLE_WIN,
    };
    let mut pv = vec![best];
    let mut at = state.clone();
    let mut line_moves = Vec::new();
    game.play_unchecked(&mut at, best);
    while pv.len() < TABLE_LINE && pv.len() < plies as usize {
        game.legal_moves(&at, &mut line_moves);
        let Some(next) = best_table_move(game, &at, &line_moves, &[]) else {
            break;
        };
        pv.push(next);
        game.play_unchecked(&mut at, next);
    }
    Some(SearchResult {
        best,
        score,
        depth: 1,
        nodes: moves.len() as u64,
        pv,
    })
}

/// The move of `moves` that wins quickest, else draws, else loses slowest, by the database's
/// values of the positions they lead to; `None` if one of those is not in the database. A win
/// the counting rules cannot take away comes before a quicker one they might; a loss they
/// might save before a longer one they cannot. A move to a position that `history` (the game's
/// repetition hashes) holds twice already would draw by repetition, and counts as a draw.
fn best_table_move<G: Game>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    history: &[u64],
) -> Option<G::Move> {
    let mut best: Option<((u8, bool, i64), G::Move)> = None;
    for &mv in moves {
        let mut child = state.clone();
        game.play_unchecked(&mut child, mv);
        let repeated = {
            let hash = game.repetition_hash(&child);
            history.iter().filter(|&&h| h == hash).count() >= 2
        };
        let rank = match game.status(&child) {
            denkmeter_core::Status::Over(outcome) => match outcome.winner {
                Some(w) if w != game.to_move(&child) => (0, false, 0),
                Some(_) => (2, false, 0),
                None => (1, false, 0),
            },
            denkmeter_core::Status::Ongoing if repeated => (1, false, 0),
            denkmeter_core::Status::Ongoing => {
                let value = game.table_value(&child, true)?;
                let plies = i64::from(value.plies?);
                match value.result {
                    TableResult::Loss => (0, !value.exact, plies),
                    TableResult::Draw => (1, false, 0),
                    TableResult::Win => (2, value.exact, -plies),
                }
            }
        };
        if best.as_ref().map_or(true, |(r, _)| rank < *r) {
            best = Some((rank, mv));
        }
    }
    best.map(|(_, mv)| mv)
}

/// One depth of the root, first in a narrow window around the last depth's score, widened
/// on the side where it fails until the score falls inside.
fn aspiration<G: Game>(worker: &mut Worker<'_, G>, state: &G::State, depth: u32, last: i32) -> i32 {
    if depth < 4 || eval::is_decisive(last) {
        return worker.negamax(state, depth, 0, -WIN - 1, WIN + 1, true);
    }
    let mut delta = 30;
    let (mut alpha, mut beta) = (last - delta, last + delta);
    loop {
        let score = worker.negamax(state, depth, 0, alpha, beta, true);
        if worker.stopped {
            return score;
        }
        if score <= alpha {
            alpha = (score - delta).max(-WIN - 1);
        } else if score >= beta {
            beta = (score + delta).min(WIN + 1);
        } else {
            return score;
        }
        delta *= 2;
        if delta > 1000 {
            (alpha, beta) = (-WIN - 1, WIN + 1);
        }
    }
}
