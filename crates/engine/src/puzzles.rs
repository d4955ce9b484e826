//! Puzzles from real games: positions where the player to move forces a win within N of their
//! own moves, and where at each of their turns on the way exactly one move does so.
//!
//! A puzzle is found in two steps. An alpha-beta search of `2N - 1` plies says cheaply whether
//! the position may hold a forced win at all (most do not); the mate prover of core
//! ([`denkmeter_core::solver::Prover`], an exhaustive search with a table) then finds the
//! shortest win, the one winning move at every turn of the winner, and the loser's longest
//! defence between them. [`check`] proves a puzzle again with nothing but the plain solver
//! (every line, no table, no heuristics), as the miner does before it keeps a puzzle and the
//! test over the shipped puzzles does again.
//!
//! Puzzles are mined from self-play ([`mine`]) or from any recorded game
//! ([`puzzles_in_game`]); a seed reproduces a mined set.

use std::fmt::Write as _;
use std::sync::Arc;

use denkmeter_core::{solver, Game, Player, PositionError};
use serde::{Deserialize, Serialize};

use crate::dynamic::AnyGame;
use crate::matches::{play_game, random_opening};
use crate::search::eval::{is_decisive, WIN};
use crate::search::{self, SearchOptions, SearchTable};
use crate::{Agent, Limits, Registry};

/// A puzzle as shipped: one JSON object per line of a family's file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// [`puzzle_id`] of the ruleset and position.
    pub id: String,
    pub ruleset: String,
    /// The position string, as the rules write it.
    pub position: String,
    /// The winner's moves in the solution, the last included: the puzzle is "wins in `moves`".
    pub moves: u32,
    /// The solution in the game's notation: the winner's moves, with the loser's longest
    /// defence between them.
    pub line: Vec<String>,
    /// Where the position was found: `self-play SEED/GAME ply P` or a record's name.
    pub source: String,
}

impl Puzzle {
    /// Who solves the puzzle: the player to move at its position.
    pub fn solver(&self, game: &dyn AnyGame) -> Result<Player, PositionError> {
        Ok(game.new_game(Some(&self.position))?.to_move())
    }
}

/// A short name for a puzzle that stays the same whenever it is mined again: twelve hex digits
/// of a 64-bit FNV-1a hash of the ruleset's name and the position string.
pub fn puzzle_id(ruleset: &str, position: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in ruleset.bytes().chain([b' ']).chain(position.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{:012x}", hash >> 16)
}

/// What is wrong with a puzzle: the reason [`check`] refuses it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleDefect {
    #[error("no ruleset is named {0:?}")]
    UnknownRuleset(String),
    #[error("its id should be {expected}")]
    WrongId { expected: String },
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error("the game is over at its position")]
    Over,
    #[error("the player to move has only one move")]
    NoChoice,
    #[error("the solution is empty or longer than {MAX_LINE} plies")]
    LineLength,
    #[error("ply {ply} of the solution, {text:?}, is written {written:?} by the rules")]
    NotAsWritten {
        ply: usize,
        text: String,
        written: String,
    },
    #[error("ply {ply} of the solution, {text:?}, is not a legal move")]
    Illegal { ply: usize, text: String },
    #[error("at ply {ply} the one move that wins within {moves} is {winning:?}, not the line's")]
    WrongMove {
        ply: usize,
        moves: u32,
        winning: String,
    },
    #[error("at ply {ply} the winner has {count} moves that win within {moves}, not one")]
    NotUnique {
        ply: usize,
        count: usize,
        moves: u32,
    },
    #[error("at ply {ply} the winner has a win in fewer than {moves} moves")]
    Shorter { ply: usize, moves: u32 },
    #[error("the solution has {found} moves of the winner, not {moves}")]
    Count { found: u32, moves: u32 },
    #[error("the solution does not end in the winner's win")]
    NoWin,
    #[error("at ply {ply} the solver needs more than {nodes} positions for one question")]
    Unproved { ply: usize, nodes: u64 },
}

/// The longest solution a puzzle may have, in plies.
pub const MAX_LINE: usize = 40;

/// The positions the finder's prover keeps in its table (about 40 MB), per thread.
pub const PROVER_ENTRIES: usize = 1 << 20;

/// Proves `puzzle` again with the mate solver alone: the position is read by its ruleset in
/// `registry`, the winner has no win in fewer than `moves` moves, at each of the winner's turns
/// in the line exactly one move wins within the moves left and it is the line's, the loser's
/// replies are legal and make the win no shorter, and the line ends in the winner's win.
pub fn check(registry: &Registry, puzzle: &Puzzle) -> Result<(), PuzzleDefect> {
    let game = registry
        .find(&puzzle.ruleset)
        .ok_or_else(|| PuzzleDefect::UnknownRuleset(puzzle.ruleset.clone()))?;
    let expected = puzzle_id(&puzzle.ruleset, &puzzle.position);
    if puzzle.id != expected {
        return Err(PuzzleDefect::WrongId { expected });
    }
    game.check_puzzle(&puzzle.position, puzzle.moves, &puzzle.line, u64::MAX)
}

/// A found puzzle's solution: the winner's moves and the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<M> {
    pub moves: u32,
    pub line: Vec<M>,
}

/// How hard [`find`] tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FindLimits {
    /// The shortest win kept, in the winner's moves (problems ask for long wins).
    pub min_moves: u32,
    /// The longest win looked for, in the winner's moves.
    pub max_moves: u32,
    /// Positions each call of the prover may visit before the position is given up (a
    /// position takes a few calls: one per length tried, one per reply of the loser).
    pub solver_nodes: u64,
    /// Positions the screening search may visit.
    pub search_nodes: u64,
    /// Only the last this many positions of a game are looked at ([`puzzles_in_game`]), where
    /// games end in a win: long wins cost the screening search most.
    pub last_plies: Option<usize>,
}

impl Default for FindLimits {
    fn default() -> FindLimits {
        FindLimits {
            min_moves: 1,
            max_moves: 3,
            solver_nodes: 5_000_000,
            search_nodes: 200_000,
            last_plies: None,
        }
    }
}

/// A puzzle at `state`, if there is one within `limits`: the side to move has a choice of
/// moves, forces a win within `limits.max_moves` of its moves and no sooner than
/// `limits.min_moves` (the shortest such win is the puzzle's length), and at each of its turns
/// along the loser's longest defence exactly one move keeps that win. `table` is the screening
/// search's, kept between calls.
pub fn find<G: Game>(
    game: &G,
    state: &G::State,
    limits: FindLimits,
    table: &mut SearchTable,
) -> Option<Found<G::Move>> {
    if game.status(state).is_over() || limits.max_moves == 0 {
        return None;
    }
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    if moves.len() < 2 {
        return None;
    }
    // Screening: a search that sees no win within the plies cannot hide a puzzle often enough
    // to pay for the solver's full trees in every position.
    let mut options = SearchOptions::new(Limits {
        depth: Some(2 * limits.max_moves - 1),
        nodes: Some(limits.search_nodes),
        time: None,
        target: None,
    });
    options.hash_mb = table.megabytes();
    let result = search::search_with_table(game, state, &options, table, &mut |_| {})?;
    if !(is_decisive(result.score) && result.score > 0) {
        return None;
    }
    let plies = u32::try_from(WIN - result.score).ok()?;
    let bound = plies.div_ceil(2).clamp(1, limits.max_moves);
    if bound < limits.min_moves {
        // The shortest win is no longer than the search's, already too short.
        return None;
    }
    let attacker = game.to_move(state);
    let mut prover = solver::Prover::new(game, attacker, limits.solver_nodes, PROVER_ENTRIES);
    let shortest = prover.shortest(state, bound)??;
    if shortest < limits.min_moves {
        return None;
    }
    let mut position = state.clone();
    let mut left = shortest;
    let mut line = Vec::new();
    while !game.status(&position).is_over() {
        if game.to_move(&position) == attacker {
            // The winner's turn: one move, and only one, wins within the moves left.
            let winning = prover.winning_moves(&position, left)?;
            let [mv] = winning[..] else {
                return None;
            };
            game.play_unchecked(&mut position, mv);
            line.push(mv);
            left = left.checked_sub(1)?;
        } else {
            // The loser's turn: the reply after which the win is longest (the first such).
            let mut replies = Vec::new();
            game.legal_moves(&position, &mut replies);
            let mut best: Option<(u32, G::Move)> = None;
            for reply in replies {
                let mut next = position.clone();
                game.play_unchecked(&mut next, reply);
                let length = prover.shortest(&next, left)??;
                if best.map_or(true, |(most, _)| length > most) {
                    best = Some((length, reply));
                }
            }
            let (length, reply) = best?;
            game.play_unchecked(&mut position, reply);
            line.push(reply);
            left = length;
        }
        if line.len() > MAX_LINE {
            return None;
        }
    }
    let won = game
        .status(&position)
        .outcome()
        .is_some_and(|o| o.winner == Some(attacker));
    won.then_some(Found {
        moves: shortest,
        line,
    })
}

/// Proves a puzzle's line on a game's own types; see [`check`].
pub fn check_line<G: Game>(
    game: &G,
    position: &str,
    moves: u32,
    line: &[String],
) -> Result<(), PuzzleDefect> {
    check_line_within(game, position, moves, line, u64::MAX)
}

/// [`check_line`], giving up ([`PuzzleDefect::Unproved`]) where one of the solver's questions
/// (a win within N at a position, or the winning moves there) needs more than `nodes`
/// positions. The miner keeps only puzzles proved this way within its budget, so that every
/// shipped puzzle proves again quickly.
pub fn check_line_within<G: Game>(
    game: &G,
    position: &str,
    moves: u32,
    line: &[String],
    nodes: u64,
) -> Result<(), PuzzleDefect> {
    let state = game.parse_position(position)?;
    if game.status(&state).is_over() {
        return Err(PuzzleDefect::Over);
    }
    let mut first = Vec::new();
    game.legal_moves(&state, &mut first);
    if first.len() < 2 {
        return Err(PuzzleDefect::NoChoice);
    }
    if line.is_empty() || line.len() > MAX_LINE {
        return Err(PuzzleDefect::LineLength);
    }
    let attacker = game.to_move(&state);
    let mut position = state;
    let mut left = moves;
    let mut found = 0;
    for (ply, text) in line.iter().enumerate() {
        if game.status(&position).is_over() {
            return Err(PuzzleDefect::LineLength);
        }
        let mv = game
            .parse_move(&position, text)
            .map_err(|_| PuzzleDefect::Illegal {
                ply,
                text: text.clone(),
            })?;
        // The server compares what a player plays, as the rules write it, with the line's text.
        let written = game.move_text(&position, mv);
        if written != *text {
            return Err(PuzzleDefect::NotAsWritten {
                ply,
                text: text.clone(),
                written,
            });
        }
        if game.to_move(&position) == attacker {
            if left == 0 {
                return Err(PuzzleDefect::Count {
                    found: found + 1,
                    moves,
                });
            }
            let unproved = PuzzleDefect::Unproved { ply, nodes };
            if left > 1
                && solver::wins_within_budgeted(game, &position, left - 1, nodes)
                    .ok_or(unproved.clone())?
            {
                return Err(PuzzleDefect::Shorter { ply, moves: left });
            }
            let winning =
                solver::winning_moves_budgeted(game, &position, left, nodes).ok_or(unproved)?;
            if let [only] = winning[..] {
                if only != mv {
                    return Err(PuzzleDefect::WrongMove {
                        ply,
                        moves: left,
                        winning: game.move_text(&position, only),
                    });
                }
            } else {
                return Err(PuzzleDefect::NotUnique {
                    ply,
                    count: winning.len(),
                    moves: left,
                });
            }
            left -= 1;
            found += 1;
        }
        game.play_unchecked(&mut position, mv);
    }
    if found != moves {
        return Err(PuzzleDefect::Count { found, moves });
    }
    let won = game
        .status(&position)
        .outcome()
        .is_some_and(|o| o.winner == Some(attacker));
    if !won {
        return Err(PuzzleDefect::NoWin);
    }
    Ok(())
}

/// A puzzle set that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct PuzzleSetError {
    pub line: usize,
    pub reason: String,
}

/// Reads a puzzle file: one JSON object per line ([`Puzzle`]); blank lines are skipped.
pub fn parse_set(text: &str) -> Result<Vec<Puzzle>, PuzzleSetError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(number, line)| {
            serde_json::from_str(line).map_err(|error| PuzzleSetError {
                line: number + 1,
                reason: error.to_string(),
            })
        })
        .collect()
}

/// Writes puzzles as [`parse_set`] reads them.
pub fn write_set(puzzles: &[Puzzle]) -> String {
    let mut text = String::new();
    for puzzle in puzzles {
        // A struct of strings and numbers always serialises.
        if let Ok(line) = serde_json::to_string(puzzle) {
            let _ = writeln!(text, "{line}");
        }
    }
    text
}

/// The puzzles of one recorded game: every position from `positions` (position strings, the
/// game's order; only the last [`FindLimits::last_plies`] if set) that holds a puzzle, found
/// by [`find`] and proved again by [`check_line`], at most
/// `per_game` of them, the longest first. After a puzzle, the game's next plies, as many as
/// its solution has, are not looked at (they are mostly its own continuation).
pub fn puzzles_in_game(
    game: &dyn AnyGame,
    positions: &[String],
    limits: FindLimits,
    per_game: usize,
    source: &str,
    table: &mut SearchTable,
) -> Vec<Puzzle> {
    let mut found = Vec::new();
    let mut ply = match limits.last_plies {
        Some(last) => positions.len().saturating_sub(last),
        None => 0,
    };
    while ply < positions.len() {
        let position = &positions[ply];
        match game.find_puzzle(position, limits, table) {
            // The prover's table trusts hashes: the plain solver proves the puzzle again.
            Ok(Some((moves, line)))
                if game
                    .check_puzzle(position, moves, &line, limits.solver_nodes)
                    .is_ok() =>
            {
                let skip = line.len();
                found.push(Puzzle {
                    id: puzzle_id(game.name(), position),
                    ruleset: game.name().to_string(),
                    position: position.clone(),
                    moves,
                    line,
                    source: format!("{source} ply {ply}"),
                });
                ply += skip.max(1);
            }
            _ => ply += 1,
        }
    }
    // The longest first, then the earliest; the sort is stable.
    found.sort_by_key(|p| std::cmp::Reverse(p.moves));
    found.truncate(per_game);
    found
}

/// How [`mine`] plays its games.
#[derive(Clone, Debug)]
pub struct MineOptions {
    /// The rulesets of the family, played in turn.
    pub rulesets: Vec<Arc<dyn AnyGame>>,
    /// Puzzles wanted.
    pub count: usize,
    pub seed: u64,
    pub limits: FindLimits,
    /// The most puzzles taken from one game.
    pub per_game: usize,
    /// The most games played before giving up.
    pub max_games: u32,
    /// Threads playing and searching games side by side.
    pub threads: usize,
    /// The players drawn for each side of each game (by default the computer's levels 1-4,
    /// whose misjudgements make the chances).
    pub players: Vec<Agent>,
}

/// The players [`mine`] draws from by default: the computer's levels 1 to 4.
pub fn default_players() -> Vec<Agent> {
    (1..=4).map(Agent::Computer).collect()
}

/// The most plies of a self-play game.
pub const SELF_PLAY_PLIES: usize = 400;

/// Mines puzzles from self-play: game `k` is played in ruleset `k mod rulesets` from a random
/// opening of 2-7 plies by two of [`MineOptions::players`], all drawn from the seed and `k`;
/// the games are searched in order, and the puzzles of the first games up to `count` are kept,
/// one id once. The same options give the
/// same puzzles whatever the threads. `progress` hears the games played and the puzzles found so
/// far, after every batch of games (one per thread).
pub fn mine(options: &MineOptions, progress: &mut dyn FnMut(u32, &[Puzzle])) -> Vec<Puzzle> {
    let mut puzzles: Vec<Puzzle> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let threads = options.threads.clamp(1, 64) as u32;
    let mut next = 0u32;
    while puzzles.len() < options.count && next < options.max_games && !options.rulesets.is_empty()
    {
        let batch: Vec<u32> = (next..(next + threads).min(options.max_games)).collect();
        next += batch.len() as u32;
        let results: Vec<Vec<Puzzle>> = std::thread::scope(|scope| {
            let handles: Vec<_> = batch
                .iter()
                .map(|&k| scope.spawn(move || self_play_puzzles(options, k)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        for found in results {
            for puzzle in found {
                if puzzles.len() < options.count && seen.insert(puzzle.id.clone()) {
                    puzzles.push(puzzle);
                }
            }
        }
        progress(next, &puzzles);
    }
    puzzles
}

/// SplitMix64 of the seed and a game's number: the game's own seed.
fn game_seed(seed: u64, k: u32) -> u64 {
    let mut z = seed ^ (u64::from(k).wrapping_add(1)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn self_play_puzzles(options: &MineOptions, k: u32) -> Vec<Puzzle> {
    let game = &options.rulesets[k as usize % options.rulesets.len()];
    let seed = game_seed(options.seed, k);
    let plies = 2 + (seed % 6) as u32;
    let players = if options.players.is_empty() {
        default_players()
    } else {
        options.players.clone()
    };
    let white = players[((seed >> 8) % players.len() as u64) as usize];
    let black = players[((seed >> 16) % players.len() as u64) as usize];
    let Ok(opening) = random_opening(game.as_ref(), plies, seed) else {
        return Vec::new();
    };
    let Ok(played) = play_game(
        game.as_ref(),
        opening.position.as_deref(),
        white,
        black,
        SELF_PLAY_PLIES,
        u32::MAX,
        seed,
    ) else {
        return Vec::new();
    };
    let positions = positions_of(
        game.as_ref(),
        opening.position.as_deref(),
        played.session.moves(),
    );
    let mut table = SearchTable::new(4);
    let source = format!("self-play {}/{k}", options.seed);
    puzzles_in_game(
        game.as_ref(),
        &positions,
        options.limits,
        options.per_game,
        &source,
        &mut table,
    )
}

/// The position strings before each move of a game from `start` (the start if `None`); the
/// replay stops at a move the rules refuse.
pub fn positions_of(game: &dyn AnyGame, start: Option<&str>, moves: &[String]) -> Vec<String> {
    let Ok(mut session) = game.new_game(start) else {
        return Vec::new();
    };
    let mut positions = Vec::with_capacity(moves.len());
    for mv in moves {
        positions.push(session.position());
        if session.play(mv).is_err() {
            break;
        }
    }
    positions
}
