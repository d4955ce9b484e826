//! The exact endgame solver: the value under best play of a position whose every line ends
//! after the same known number of plies ([`Game::plies_to_end`]), with every best move and a
//! principal line. A placement game's last placements are its natural prey.
//!
//! The value is the final score difference for the side to move (its score minus the
//! opponent's, from [`Game::score_margin`]); a game that ends without a score counts a win as
//! [`WIN_VALUE`], a loss as minus that and a draw as 0. Maximising the difference also gets the
//! best result: a move that can win wins.
//!
//! The search is negamax alpha-beta to the end of the game (fail-soft), with transposition
//! tables by [`Game::hash`] that keep a lower and an upper bound of each position's value and
//! its best move: a small one, which stays in the processor's cache, for the positions one or
//! two plies from the end, and a large one for the rest. Moves are tried in the order: the
//! table's move, the two latest killer moves (moves that refuted a position as far from the
//! end), the rest as the game lists them; far from the end the children are first looked up
//! in the table in case one already refutes the position (enhanced transposition cutoffs).
//! Ordering by the game's evaluation after each move, tried too, cost more time than it saved
//! once the killer moves were in. The root is solved by null-window searches around a guess of
//! 0 (MTD(f)), which suits the narrow range of score differences. A node or time limit makes
//! the solver give up cleanly ([`SolveError::OutOfBudget`]).
//!
//! ```
//! use denkmeter_core::Game;
//! use denkmeter_engine::endgame::{solve, BestMoves};
//! use denkmeter_engine::Limits;
//! use denkmeter_games::straat::Straat;
//!
//! let game = Straat::new();
//! // Two cells are left: White lays its last tile, then Black.
//! let state = game.parse_position("NnNn/nNnN/NnNn/nN2 w").unwrap();
//! let solution = solve(&game, &state, Limits::default(), BestMoves::Every).unwrap();
//! assert_eq!(solution.line.len(), 2);
//! assert!(solution.best.contains(&solution.line[0]));
//! ```

use std::time::{Duration, Instant};

use denkmeter_core::{Game, Player, PositionError, Status};

use crate::Limits;

/// The value of a win in a game that ends without a score (a loss is minus this).
pub const WIN_VALUE: i32 = 1_000_000;

/// Beyond every value: the bounds of a full window.
const INFINITY: i32 = WIN_VALUE + 1;

/// Positions at most this many plies from the end go to a small table of their own, which
/// stays in the processor's cache; the rest to a large one. Measured on `straat` 10 plies from
/// the end: one large table of 2^20 entries took 1.5 s for four positions, the pair 0.8 s.
const NEAR_END: u32 = 2;
/// The small table's size, 2^16 entries (about 1.5 MiB for small moves).
const NEAR_END_BITS: u32 = 16;
/// The large table's largest size, 2^20 entries (about 24 MiB for small moves), from 11 plies
/// before the end; nearer the end it is smaller.
const FAR_BITS: u32 = 20;
/// From this many plies before the end on, the children of a position are looked up in the
/// table before any is searched, in case one of them already refutes it (enhanced
/// transposition cutoffs).
const LOOK_AHEAD: u32 = 4;
/// Moves that refuted a sibling position, kept per number of plies left (killer moves).
const KILLERS: usize = 2;

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// The player to move at the root.
    pub to_move: Player,
    /// The value for [`Solution::to_move`] under best play: its final score minus the
    /// opponent's (see the module's documentation for games without a score).
    pub value: i32,
    /// Every move that achieves the value, in the order of [`Game::legal_moves`].
    pub best: Vec<M>,
    /// One line of best play to the end of the game.
    pub line: Vec<M>,
    /// Positions visited, the leaves included.
    pub nodes: u64,
}

impl<M> Solution<M> {
    /// The value for White: White's final score minus Black's under best play.
    pub fn white_value(&self) -> i32 {
        match self.to_move {
            Player::White => self.value,
            Player::Black => -self.value,
        }
    }
}

/// Why the solver gave no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The game does not know how many plies remain ([`Game::plies_to_end`] is `None`).
    #[error("{ruleset} has no fixed end: its lines of play differ in length, so it cannot be solved to the end")]
    NoFixedEnd { ruleset: &'static str },
    /// The game is over: there is nothing to choose.
    #[error("the game is over")]
    Over,
    /// More plies remain than the caller allows.
    #[error("{plies} plies remain; the limit is {max}")]
    TooDeep { plies: u32, max: u32 },
    /// The node or time limit came first.
    #[error("gave up after {nodes} positions: the node or time limit came first")]
    OutOfBudget { nodes: u64 },
    /// The position string could not be read (the object-safe layer's [`solve_text`]).
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// Which best moves [`solve`] lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMoves {
    /// The first move of the principal line: the move the search proved best, the same
    /// whenever the limits let the search finish. Cheaper.
    One,
    /// Every move that achieves the value: a null-window search of each root move.
    Every,
}

/// The value of `state` under best play, its best moves (one or every one, as `which` says)
/// and one line of best play, within the node and time limits of `limits` (its depth is
/// ignored).
pub fn solve<G: Game>(
    game: &G,
    state: &G::State,
    limits: Limits,
    which: BestMoves,
) -> Result<Solution<G::Move>, SolveError> {
    let mut solver = Solver::new(game, state, limits)?;
    let value = solver.root_value(state)?;
    let line = solver.line(state, value)?;
    let best = match which {
        BestMoves::One => line.first().copied().into_iter().collect(),
        BestMoves::Every => solver.best_moves(state, value)?,
    };
    Ok(Solution {
        to_move: game.to_move(state),
        value,
        best,
        line,
        nodes: solver.nodes,
    })
}

/// A [`Solution`] in the game's notation, for the object-safe layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolutionText {
    pub to_move: Player,
    /// The plies left to the end.
    pub plies: u32,
    /// White's final score minus Black's under best play ([`Solution::white_value`]).
    pub white_value: i32,
    /// Every best move, in move generation order.
    pub best: Vec<String>,
    /// One line of best play to the end.
    pub line: Vec<String>,
    pub nodes: u64,
}

/// [`solve`] with every best move, written in the game's notation for the object-safe layer;
/// refused with [`SolveError::TooDeep`] if more than `max_plies` plies remain.
pub fn solve_text<G: Game>(
    game: &G,
    state: &G::State,
    max_plies: u32,
    limits: Limits,
) -> Result<SolutionText, SolveError> {
    let plies = game.plies_to_end(state).ok_or(SolveError::NoFixedEnd {
        ruleset: game.name(),
    })?;
    if plies > max_plies {
        return Err(SolveError::TooDeep {
            plies,
            max: max_plies,
        });
    }
    let solution = solve(game, state, limits, BestMoves::Every)?;
    let best = solution
        .best
        .iter()
        .map(|&mv| game.move_text(state, mv))
        .collect();
    let mut line = Vec::with_capacity(solution.line.len());
    let mut position = state.clone();
    for &mv in &solution.line {
        line.push(game.move_text(&position, mv));
        game.play_unchecked(&mut position, mv);
    }
    Ok(SolutionText {
        to_move: solution.to_move,
        plies,
        white_value: solution.white_value(),
        best,
        line,
        nodes: solution.nodes,
    })
}

/// The most positions the computer's solver visits before it gives up and searches as usual.
pub const AGENT_NODES: u64 = 4_000_000;

/// The computer's move from the solver: a best move if `state` lies within the ruleset's exact
/// endgame ([`denkmeter_core::Facts::exact_endgame`]) and the solver finishes within
/// [`AGENT_NODES`] positions and half the time of `limits` (of its planned time, on the clock);
/// otherwise the limits left for an ordinary search (the time the solver spent taken off). Games with hidden information are
/// never solved (the searcher sees a guessed position).
pub fn agent_move<G: Game>(game: &G, state: &G::State, limits: Limits) -> Result<G::Move, Limits> {
    let facts = game.facts();
    let within = game
        .plies_to_end(state)
        .is_some_and(|plies| plies > 0 && plies <= facts.exact_endgame);
    if facts.hidden_information || !within {
        return Err(limits);
    }
    let started = Instant::now();
    let budget = Limits {
        depth: None,
        nodes: Some(AGENT_NODES),
        time: limits.target.or(limits.time).map(|t| t / 2),
        target: None,
    };
    match solve(game, state, budget, BestMoves::One) {
        Ok(solution) => solution.best.first().copied().ok_or(limits),
        Err(_) => {
            let left = |t: Duration| t.saturating_sub(started.elapsed()).max(t / 4);
            Err(Limits {
                time: limits.time.map(left),
                target: limits.target.map(left),
                ..limits
            })
        }
    }
}

/// What the table knows of a position: bounds of its value and the best move found.
#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    hash: u64,
    lower: i32,
    upper: i32,
    best: Option<M>,
}

/// A transposition table: `2^bits` entries by the hash's top bits. A position's value does not
/// depend on how it was reached or searched, so bounds found for one position are merged and a
/// new position always takes the slot.
#[derive(Debug)]
struct Table<M> {
    entries: Vec<Option<Entry<M>>>,
    shift: u32,
}

impl<M: Copy> Table<M> {
    fn new(bits: u32) -> Table<M> {
        Table {
            entries: vec![None; 1 << bits],
            shift: 64 - bits,
        }
    }

    #[inline]
    fn slot(&self, hash: u64) -> usize {
        (hash >> self.shift) as usize
    }

    #[inline]
    fn probe(&self, hash: u64) -> Option<Entry<M>> {
        self.entries[self.slot(hash)].filter(|e| e.hash == hash)
    }

    /// Records that the value of `hash` is at least `lower` and at most `upper`.
    #[inline]
    fn store(&mut self, hash: u64, lower: i32, upper: i32, best: Option<M>) {
        let slot = self.slot(hash);
        let entry = match self.entries[slot] {
            Some(old) if old.hash == hash => Entry {
                hash,
                lower: lower.max(old.lower),
                upper: upper.min(old.upper),
                best: best.or(old.best),
            },
            _ => Entry {
                hash,
                lower,
                upper,
                best,
            },
        };
        self.entries[slot] = Some(entry);
    }
}

struct Solver<'a, G: Game> {
    game: &'a G,
    /// Positions near the end (at most [`NEAR_END`] plies), then the others.
    near: Table<G::Move>,
    far: Table<G::Move>,
    /// The plies left at the root.
    plies: u32,
    nodes: u64,
    limits: Limits,
    started: Instant,
    /// When to look at the limits next, in nodes.
    next_check: u64,
    stopped: bool,
    /// Killer moves per number of plies left.
    killers: Vec<[Option<G::Move>; KILLERS]>,
    /// One move list per number of plies left, reused.
    lists: Vec<Vec<G::Move>>,
}

impl<'a, G: Game> Solver<'a, G> {
    fn new(game: &'a G, state: &G::State, limits: Limits) -> Result<Self, SolveError> {
        let plies = game.plies_to_end(state).ok_or(SolveError::NoFixedEnd {
            ruleset: game.name(),
        })?;
        if plies == 0 {
            return Err(SolveError::Over);
        }
        // The positions stored grow about fourfold a ply; a table larger than the search
        // needs only costs its filling and the cache (9 plies from the end of straat: 2^16
        // entries solved 20 positions in 1.0 s, 2^20 in 1.25 s).
        let far_bits = (2 * plies).saturating_sub(2).clamp(10, FAR_BITS);
        Ok(Solver {
            game,
            near: Table::new(NEAR_END_BITS),
            far: Table::new(far_bits),
            plies,
            nodes: 0,
            limits,
            started: Instant::now(),
            next_check: 0,
            stopped: false,
            killers: vec![[None; KILLERS]; plies as usize + 1],
            lists: (0..=plies).map(|_| Vec::new()).collect(),
        })
    }

    /// The table of positions `plies` plies from the end.
    #[inline]
    fn table(&mut self, plies: u32) -> &mut Table<G::Move> {
        if plies <= NEAR_END {
            &mut self.near
        } else {
            &mut self.far
        }
    }

    /// How many nodes pass between two looks at the clock.
    const CHECK_EVERY: u64 = 4096;

    /// Stops the search if a limit has passed; otherwise looks again a little later.
    #[cold]
    fn check_limits(&mut self) {
        let out_of_nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
        let out_of_time = self
            .limits
            .time
            .is_some_and(|t| self.started.elapsed() >= t);
        self.stopped |= out_of_nodes || out_of_time;
        let step = match self.limits.nodes {
            Some(n) => Self::CHECK_EVERY.min(n.saturating_sub(self.nodes).max(1)),
            None => Self::CHECK_EVERY,
        };
        self.next_check = self.nodes + step;
    }

    fn budget(&self) -> Result<(), SolveError> {
        if self.stopped {
            Err(SolveError::OutOfBudget { nodes: self.nodes })
        } else {
            Ok(())
        }
    }

    /// The exact value of the root, by MTD(f): null-window searches that move a bound towards
    /// the value until the two bounds meet, starting from a guess of 0 (even).
    fn root_value(&mut self, state: &G::State) -> Result<i32, SolveError> {
        let (mut lower, mut upper) = (-INFINITY, INFINITY);
        let mut guess = 0;
        while lower < upper {
            let beta = if guess == lower { guess + 1 } else { guess };
            guess = self.negamax(state, self.plies, beta - 1, beta);
            self.budget()?;
            if guess < beta {
                upper = guess;
            } else {
                lower = guess;
            }
        }
        Ok(lower)
    }

    /// The value for the side to move in `state` of playing `mv`, `plies` plies from the end,
    /// as far as the window `(alpha, beta)` needs to know it (fail-soft).
    fn child_value(
        &mut self,
        state: &G::State,
        mv: G::Move,
        plies: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut next = state.clone();
        self.game.play_unchecked(&mut next, mv);
        if self.game.to_move(&next) == self.game.to_move(state) {
            self.negamax(&next, plies - 1, alpha, beta)
        } else {
            -self.negamax(&next, plies - 1, -beta, -alpha)
        }
    }

    /// Every root move whose value is `value` (none is higher), in move generation order.
    fn best_moves(&mut self, state: &G::State, value: i32) -> Result<Vec<G::Move>, SolveError> {
        let mut moves = Vec::new();
        self.game.legal_moves(state, &mut moves);
        let mut best = Vec::new();
        for mv in moves {
            let score = self.child_value(state, mv, self.plies, value - 1, value);
            self.budget()?;
            if score >= value {
                best.push(mv);
            }
        }
        Ok(best)
    }

    /// One line of best play from `state`, whose value is `value`, to the end: at each step
    /// the table's move if it keeps the value, else the first move that does.
    fn line(&mut self, state: &G::State, value: i32) -> Result<Vec<G::Move>, SolveError> {
        let mut line = Vec::new();
        let mut state = state.clone();
        let mut value = value;
        let mut moves = Vec::new();
        for plies in (1..=self.plies).rev() {
            self.game.legal_moves(&state, &mut moves);
            let hash = self.game.hash(&state);
            let hinted = self.table(plies).probe(hash).and_then(|e| e.best);
            move_to_front(&mut moves, hinted);
            let mut found = None;
            for &mv in &moves {
                let score = self.child_value(&state, mv, plies, value - 1, value);
                self.budget()?;
                if score >= value {
                    found = Some(mv);
                    break;
                }
            }
            // The value was proved, so some move keeps it; none only if the game broke its
            // promise of plies to the end.
            let Some(mv) = found else { break };
            let mover = self.game.to_move(&state);
            self.game.play_unchecked(&mut state, mv);
            if self.game.to_move(&state) != mover {
                value = -value;
            }
            line.push(mv);
        }
        Ok(line)
    }

    /// The value of a finished game for its side to move.
    fn final_value(&self, state: &G::State) -> i32 {
        let mover = self.game.to_move(state);
        if let Some(margin) = self.game.score_margin(state) {
            let limit = i64::from(WIN_VALUE - 1);
            let margin = margin.clamp(-limit, limit) as i32;
            return match mover {
                Player::White => margin,
                Player::Black => -margin,
            };
        }
        match self.game.status(state) {
            Status::Over(outcome) => match outcome.winner {
                Some(winner) if winner == mover => WIN_VALUE,
                Some(_) => -WIN_VALUE,
                None => 0,
            },
            // The game broke its promise of plies to the end; count the line as even.
            Status::Ongoing => 0,
        }
    }

    /// The value of `state` for its side to move, `plies` plies from the end, as far as the
    /// window `(alpha, beta)` needs to know it (fail-soft).
    fn negamax(&mut self, state: &G::State, plies: u32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if plies == 0 {
            return self.final_value(state);
        }
        if self.nodes >= self.next_check {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        let hash = self.game.hash(state);
        let mut hinted = None;
        if let Some(entry) = self.table(plies).probe(hash) {
            if entry.lower >= beta || entry.lower == entry.upper {
                return entry.lower;
            }
            if entry.upper <= alpha {
                return entry.upper;
            }
            alpha = alpha.max(entry.lower);
            beta = beta.min(entry.upper);
            hinted = entry.best;
        }
        let mut moves = std::mem::take(&mut self.lists[plies as usize]);
        self.game.legal_moves(state, &mut moves);
        if moves.is_empty() {
            self.lists[plies as usize] = moves;
            return self.final_value(state);
        }
        if plies >= LOOK_AHEAD {
            if let Some((bound, mv)) = self.refutation_in_table(state, &moves, plies, beta) {
                self.lists[plies as usize] = moves;
                self.table(plies).store(hash, bound, INFINITY, Some(mv));
                return bound;
            }
        }
        for killer in self.killers[plies as usize].into_iter().rev() {
            move_to_front(&mut moves, killer);
        }
        move_to_front(&mut moves, hinted);
        let alpha_in = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for &mv in &moves {
            let score = self.child_value(state, mv, plies, alpha, beta);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        self.remember_killer(plies, mv);
                        break;
                    }
                }
            }
        }
        self.lists[plies as usize] = moves;
        if self.stopped {
            return 0;
        }
        let (lower, upper) = if best <= alpha_in {
            (-INFINITY, best)
        } else if best >= beta {
            (best, INFINITY)
        } else {
            (best, best)
        };
        self.table(plies).store(hash, lower, upper, best_move);
        best
    }

    /// A move whose position the table already knows to be worth at least `beta` to the side
    /// to move in `state`, with that bound.
    fn refutation_in_table(
        &mut self,
        state: &G::State,
        moves: &[G::Move],
        plies: u32,
        beta: i32,
    ) -> Option<(i32, G::Move)> {
        let mover = self.game.to_move(state);
        for &mv in moves {
            let mut next = state.clone();
            self.game.play_unchecked(&mut next, mv);
            let hash = self.game.hash(&next);
            let Some(entry) = self.table(plies - 1).probe(hash) else {
                continue;
            };
            let bound = if self.game.to_move(&next) == mover {
                entry.lower
            } else {
                -entry.upper
            };
            if bound >= beta {
                return Some((bound, mv));
            }
        }
        None
    }

    fn remember_killer(&mut self, plies: u32, mv: G::Move) {
        let killers = &mut self.killers[plies as usize];
        if killers[0] != Some(mv) {
            killers.rotate_right(1);
            killers[0] = Some(mv);
        }
    }
}

/// Moves `mv`, if given and among `moves`, to the front, keeping the others' order.
#[inline]
fn move_to_front<M: Copy + Eq>(moves: &mut [M], mv: Option<M>) {
    if let Some(at) = mv.and_then(|m| moves.iter().position(|&x| x == m)) {
        moves[..=at].rotate_right(1);
    }
}
