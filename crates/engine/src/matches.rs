//! Matches: two agents over many games, each opening played once with each agent as White,
//! several games at a time, with score, Elo difference and its 95% interval, likelihood of
//! superiority, draw rate, adjudications and game length.
//!
//! A match is reproducible: game `i` is seeded by the match seed plus `i`, random openings by
//! the match seed and their number, and the report is the same however many games run at once
//! whenever the agents' limits do not depend on the clock.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use denkmeter_core::{ByPlayer, Outcome, Player, PositionError, Reason, Record, Status};
use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dynamic::{AnyGame, AnySession};
use crate::search::{SearchOptions, SearchTable};
use crate::{Agent, Limits, TimeLeft, TimePlan};

/// Where the games of a match start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// Every game from the ruleset's start, the agents taking White in turn.
    Start,
    /// These position strings: games `2k` and `2k + 1` start from position `k`, the list
    /// starting over when the games outnumber it twice over.
    Positions(Vec<String>),
    /// Games `2k` and `2k + 1` start from `n` uniformly random legal plies from the start,
    /// drawn from the match seed and `k` (see [`random_opening`]).
    RandomPlies(u32),
    /// As [`Openings::RandomPlies`], but only openings that a short search scores within
    /// `margin` of even (see [`balanced_random_opening`]): in a sharp game a few random plies
    /// often lose a piece, and such a pair of games is won by whoever has the lucky colour.
    BalancedRandomPlies { plies: u32, margin: u32 },
}

/// The settings of a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub first: Agent,
    pub second: Agent,
    /// The number of games. The first agent is White in the even-numbered games (counting from
    /// 0), the second in the odd ones, each pair from the same opening; so with openings other
    /// than [`Openings::Start`] the number must be even, every opening being played once with
    /// each agent as White.
    pub games: u32,
    pub openings: Openings,
    /// Games still going after this many plies from their opening are adjudicated (the rules
    /// have no such limit): see [`adjudicate`].
    pub max_plies: usize,
    /// At the ply limit, a lead in material ([`AnySession::material`]) of at least this much
    /// wins; anything less, or a game without material, is a draw.
    pub adjudicate_margin: u32,
    /// How many games are played at once, each on a thread of its own (0 counts as 1). The
    /// results do not depend on it.
    pub concurrency: usize,
    pub seed: u64,
    /// Play on a clock, or `None`: each agent searches within its own limits.
    pub clock: Option<MatchClock>,
}

/// The clock of a match's games: each player has `initial` for the game and earns `increment`
/// with every move; a player whose time runs out loses. On the clock an agent's own time
/// limit still bounds each move (give it none, e.g. `ab:d64`, to let the clock decide).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchClock {
    pub initial: Duration,
    pub increment: Duration,
    /// For the first and the second agent: whether it spends a fixed share of its time on
    /// every move ([`fixed_share`]) instead of the time manager's plan ([`TimeLeft::plan`]):
    /// the way the computer spent its clock before it had the manager, to measure it against.
    pub fixed_share: [bool; 2],
}

/// The time of a move spent as a fixed share: a twenty-fifth of the time left plus three
/// quarters of the increment, never more than half of the time left.
pub fn fixed_share(left: Duration, increment: Duration) -> Duration {
    (left / 25 + increment.mul_f64(0.75)).min(left / 2)
}

impl MatchConfig {
    /// A match of 20 games from the start position, adjudicated after 300 plies by a margin of
    /// two men, one game at a time, seed 1; change the rest with struct update syntax.
    pub fn new(first: Agent, second: Agent) -> MatchConfig {
        MatchConfig {
            first,
            second,
            games: 20,
            openings: Openings::Start,
            max_plies: 300,
            adjudicate_margin: 200,
            concurrency: 1,
            seed: 1,
            clock: None,
        }
    }
}

/// Why a match cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    #[error("an odd number of games ({games}): each opening is played twice, once with each player as White, so the number of games must be even")]
    OddGames { games: u32 },
    #[error("no openings to play")]
    NoOpenings,
    /// An opening (counted from 1) that is not a position of the ruleset.
    #[error("opening {number}: {error}")]
    Position { number: usize, error: PositionError },
    /// An opening (counted from 1) in which the game is already over.
    #[error("opening {number}: the game is already over ({outcome})")]
    Over { number: usize, outcome: String },
    #[error(
        "found no opening of {plies} random plies that leaves the game going in {tries} tries"
    )]
    NoRandomOpening { plies: u32, tries: u32 },
    #[error("found no opening of {plies} random plies within {margin} of even in {tries} tries (a larger margin or fewer plies may do)")]
    NoBalancedOpening { plies: u32, margin: u32, tries: u32 },
}

/// A line of an openings file that is not a position to start from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    /// The line (counted from 1) and why it is refused.
    #[error("openings, line {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error("the openings hold no position (only blank lines and comments)")]
    Empty,
}

/// Reads openings, one position string a line; blank lines and lines starting with `#` are
/// skipped. Every position must be one of `game`'s in which the game goes on.
///
/// ```
/// use denkmeter_engine::matches::parse_openings;
/// use denkmeter_engine::Registry;
///
/// let registry = Registry::from_list(denkmeter_games::visit_rulesets);
/// let game = registry.find("scandinavian-8x8").unwrap();
/// let text = "# two dames against one\n\nD7/8/8/8/8/8/D7/1d6 w\n";
/// assert_eq!(parse_openings(game.as_ref(), text).unwrap(), ["D7/8/8/8/8/8/D7/1d6 w"]);
/// let error = parse_openings(game.as_ref(), "D7/8/8/8/8/8/D7/1d6 w\nx w\n").unwrap_err();
/// assert!(error.to_string().starts_with("openings, line 2:"), "{error}");
/// ```
pub fn parse_openings(game: &dyn AnyGame, text: &str) -> Result<Vec<String>, OpeningsError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        check_opening(game, line).map_err(|reason| OpeningsError::Line {
            line: i + 1,
            reason,
        })?;
        openings.push(line.to_string());
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(openings)
}

/// Why `position` cannot start a game of `game`, if it cannot.
fn check_opening(game: &dyn AnyGame, position: &str) -> Result<(), String> {
    let session = game.new_game(Some(position)).map_err(|e| e.to_string())?;
    match session.status() {
        Status::Over(outcome) => Err(format!("the game is already over here ({outcome})")),
        Status::Ongoing => Ok(()),
    }
}

/// A position a pair of games starts from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    /// The position string; `None` for the ruleset's start.
    pub position: Option<String>,
    /// The moves that lead to it from the start, when known (random openings).
    pub moves: Vec<String>,
}

/// How many times a random opening is drawn again before giving up.
const RANDOM_OPENING_TRIES: u32 = 1000;

/// `plies` uniformly random legal plies from the start, drawn from `seed`; a drawing in which
/// the game ends is drawn again, up to a thousand times.
pub fn random_opening(game: &dyn AnyGame, plies: u32, seed: u64) -> Result<Opening, MatchError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..RANDOM_OPENING_TRIES {
        let mut session = game
            .new_game(None)
            .map_err(|error| MatchError::Position { number: 1, error })?;
        let mut moves = Vec::new();
        while moves.len() < plies as usize && !session.status().is_over() {
            let Some(text) = session.choose_move(&Agent::Random, rng.next_u64()) else {
                break;
            };
            match session.play(&text) {
                Ok(text) => moves.push(text),
                Err(_) => break,
            }
        }
        if moves.len() == plies as usize && !session.status().is_over() {
            let position = (plies > 0).then(|| session.position());
            return Ok(Opening { position, moves });
        }
    }
    Err(MatchError::NoRandomOpening {
        plies,
        tries: RANDOM_OPENING_TRIES,
    })
}

/// How many random openings are searched, at most, for a balanced one.
const BALANCED_OPENING_TRIES: u32 = 200;

/// The nodes of the search that judges an opening's balance: enough to see a piece lost to a
/// short combination, little enough (a tenth of a second or so) to try many openings.
pub const BALANCE_SEARCH_NODES: u64 = 100_000;

/// A [`random_opening`] of `plies` plies whose score, by an alpha-beta search of
/// [`BALANCE_SEARCH_NODES`] nodes on one thread, is within `margin` hundredths of the game's
/// basic piece of even for the side to move; openings are drawn from `seed` until one is, up to
/// two hundred. The same seed gives the same opening.
pub fn balanced_random_opening(
    game: &dyn AnyGame,
    plies: u32,
    margin: u32,
    seed: u64,
) -> Result<Opening, MatchError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..BALANCED_OPENING_TRIES {
        let opening = random_opening(game, plies, rng.next_u64())?;
        let session = game
            .new_game(opening.position.as_deref())
            .map_err(|error| MatchError::Position { number: 1, error })?;
        let options = SearchOptions::new(Limits::nodes(BALANCE_SEARCH_NODES));
        let score = session
            .analyse(&options, &mut |_| {})
            .map_or(0, |line| line.score);
        if score.unsigned_abs() <= margin {
            return Ok(opening);
        }
    }
    Err(MatchError::NoBalancedOpening {
        plies,
        margin,
        tries: BALANCED_OPENING_TRIES,
    })
}

/// The openings of a match, one per pair of games (one only for [`Openings::Start`]); game `i`
/// plays opening `(i / 2) % len`. Checks that the games can be played from them.
pub fn match_openings(
    game: &dyn AnyGame,
    config: &MatchConfig,
) -> Result<Vec<Opening>, MatchError> {
    let pairs = config.games.div_ceil(2);
    match &config.openings {
        Openings::Start => Ok(vec![Opening::default()]),
        _ if config.games % 2 == 1 => Err(MatchError::OddGames {
            games: config.games,
        }),
        Openings::Positions(positions) if positions.is_empty() => Err(MatchError::NoOpenings),
        Openings::Positions(positions) => positions
            .iter()
            .enumerate()
            .map(|(i, position)| {
                let session =
                    game.new_game(Some(position))
                        .map_err(|error| MatchError::Position {
                            number: i + 1,
                            error,
                        })?;
                if let Status::Over(outcome) = session.status() {
                    return Err(MatchError::Over {
                        number: i + 1,
                        outcome: outcome.to_string(),
                    });
                }
                Ok(Opening {
                    position: Some(position.clone()),
                    moves: Vec::new(),
                })
            })
            .collect(),
        &Openings::RandomPlies(plies) => (0..pairs)
            .map(|k| random_opening(game, plies, opening_seed(config.seed, k)))
            .collect(),
        &Openings::BalancedRandomPlies { plies, margin } => (0..pairs)
            .map(|k| balanced_random_opening(game, plies, margin, opening_seed(config.seed, k)))
            .collect(),
    }
}

/// The seed of the random opening of pair `k`: apart from the games' seeds (the match seed plus
/// the game's number), so that no opening repeats a game's choices.
fn opening_seed(seed: u64, k: u32) -> u64 {
    let mut z = (seed ^ 0x6f70_656e_696e_6773)
        .wrapping_add(u64::from(k).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The ending of a game stopped at the ply limit with `material` (White's minus Black's): a
/// win for the side ahead by at least `margin`, else a draw.
///
/// ```
/// use denkmeter_core::{Outcome, Player, Reason};
/// use denkmeter_engine::matches::adjudicate;
///
/// assert_eq!(adjudicate(Some(-300), 200), Outcome::win(Player::Black, Reason::Adjudication));
/// assert_eq!(adjudicate(Some(100), 200), Outcome::draw(Reason::MoveLimit));
/// assert_eq!(adjudicate(None, 200), Outcome::draw(Reason::MoveLimit));
/// ```
pub fn adjudicate(material: Option<i32>, margin: u32) -> Outcome {
    match material {
        Some(m) if m != 0 && m.unsigned_abs() >= margin => {
            let ahead = if m > 0 { Player::White } else { Player::Black };
            Outcome::win(ahead, Reason::Adjudication)
        }
        _ => Outcome::draw(Reason::MoveLimit),
    }
}

/// A game played to its end, or to the ply limit and adjudicated.
#[derive(Debug)]
pub struct PlayedGame {
    /// The game, ended: its status is the outcome.
    pub session: Box<dyn AnySession>,
    pub outcome: Outcome,
    /// Plies played from the opening.
    pub plies: usize,
    /// Whether the game was stopped at the ply limit and adjudicated, rather than ended by
    /// its rules.
    pub adjudicated: bool,
    /// On the clock, each player's thinking: the time spent and the moves made.
    pub thinking: Option<ByPlayer<Thinking>>,
}

/// A player's thinking in one game on the clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Thinking {
    pub spent: Duration,
    pub moves: u32,
}

/// The clock of one game: each player's time, and how it spends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    pub initial: Duration,
    pub increment: Duration,
    /// For White and Black: whether it spends a [`fixed_share`] of its time on every move.
    pub fixed_share: ByPlayer<bool>,
}

/// Plays one game between two agents from `position` (the start if `None`), stopping after
/// `max_plies` plies to adjudicate it by `margin` (see [`adjudicate`]).
pub fn play_game(
    game: &dyn AnyGame,
    position: Option<&str>,
    white: Agent,
    black: Agent,
    max_plies: usize,
    margin: u32,
    seed: u64,
) -> Result<PlayedGame, PositionError> {
    let session = game.new_game(position)?;
    let players = ByPlayer::new(white, black);
    Ok(play_on(session, players, max_plies, margin, seed, |_| {}))
}

/// [`play_on`] on a clock: before each move the agent gets the time its clock allows
/// ([`TimeLeft::plan`], or a [`fixed_share`]); the time it takes, measured, comes off its
/// clock and the increment goes on. A player whose clock runs out loses on time.
pub fn play_on_clock(
    session: Box<dyn AnySession>,
    players: ByPlayer<Agent>,
    max_plies: usize,
    margin: u32,
    seed: u64,
    clock: GameClock,
) -> PlayedGame {
    play(
        session,
        players,
        max_plies,
        margin,
        seed,
        Some(clock),
        |_| {},
    )
}

/// Plays `session` on to its end between two agents (`players`), stopping after `max_plies`
/// more plies to adjudicate it by `margin` (see [`adjudicate`]); `observe` sees the game
/// before every move the agents choose. Ply `p` (counted from here) is chosen with a seed
/// drawn from `seed` and `p`, so a seeded game repeats whenever the agents' limits do not
/// depend on the clock.
pub fn play_on(
    session: Box<dyn AnySession>,
    players: ByPlayer<Agent>,
    max_plies: usize,
    margin: u32,
    seed: u64,
    observe: impl FnMut(&dyn AnySession),
) -> PlayedGame {
    play(session, players, max_plies, margin, seed, None, observe)
}

/// [`play_on`], on `clock` if given.
fn play(
    mut session: Box<dyn AnySession>,
    players: ByPlayer<Agent>,
    max_plies: usize,
    margin: u32,
    seed: u64,
    clock: Option<GameClock>,
    mut observe: impl FnMut(&dyn AnySession),
) -> PlayedGame {
    let mut plies = 0;
    let mut adjudicated = false;
    let mut left = clock.map(|c| ByPlayer::new(c.initial, c.initial));
    let mut thinking = ByPlayer::new(Thinking::default(), Thinking::default());
    // An alpha-beta player keeps its transposition table through the game, as an engine does
    // (see `AnySession::choose_move_within`).
    let mut tables = ByPlayer::from_fn(|player| {
        matches!(players[player], Agent::AlphaBeta { .. })
            .then(|| SearchTable::new(SearchOptions::DEFAULT_HASH_MB))
    });
    let outcome = loop {
        if let Status::Over(outcome) = session.status() {
            break outcome;
        }
        if plies >= max_plies {
            adjudicated = true;
            break adjudicate(session.material(), margin);
        }
        observe(session.as_ref());
        let agent = players[session.to_move()];
        let seed = seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(plies as u64);
        let mover = session.to_move();
        let plan = match (clock, &left) {
            (Some(clock), Some(left)) if clock.fixed_share[mover] => {
                let time = fixed_share(left[mover], clock.increment);
                Some(TimePlan {
                    target: time,
                    most: time,
                })
            }
            (Some(clock), Some(left)) => Some(
                TimeLeft {
                    left: left[mover],
                    increment: clock.increment,
                    moves_to_go: None,
                    moves_played: thinking[mover].moves,
                }
                .plan(),
            ),
            _ => None,
        };
        let started = Instant::now();
        let Some(mv) = session.choose_move_within(&agent, seed, plan, tables[mover].as_mut())
        else {
            break Outcome::draw(Reason::NoMoves);
        };
        if let (Some(clock), Some(left)) = (clock, &mut left) {
            let spent = started.elapsed();
            thinking[mover].spent += spent;
            thinking[mover].moves += 1;
            if spent > left[mover] {
                break Outcome::win(!mover, Reason::TimeForfeit);
            }
            left[mover] = left[mover] - spent + clock.increment;
        }
        if session.play(&mv).is_err() {
            // An agent that offers an illegal move loses; this never happens with our agents.
            break Outcome::win(!session.to_move(), Reason::Resignation);
        }
        plies += 1;
    };
    session.end(outcome.clone());
    PlayedGame {
        session,
        outcome,
        plies,
        adjudicated,
        thinking: clock.map(|_| thinking),
    }
}

/// One game of a match, as [`play_match`] hands it on.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The game's number, from 0.
    pub index: u32,
    /// The number of its opening among [`match_openings`], from 0.
    pub opening: usize,
    /// Whether the first agent had White.
    pub first_is_white: bool,
    pub outcome: Outcome,
    /// Plies played from the opening.
    pub plies: usize,
    /// On the clock, the first agent's thinking and then the second's.
    pub thinking: Option<[Thinking; 2]>,
    /// The game's record: tags `Event`, `Round` (the number from 1), `White` and `Black` (the
    /// agents' text), and `[Position]` when the opening is not the start.
    pub record: Record,
}

impl GameResult {
    /// The first agent's result: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn first_score(&self) -> f64 {
        let first = if self.first_is_white {
            Player::White
        } else {
            Player::Black
        };
        self.outcome.value_for(first)
    }
}

/// Plays a match, `config.concurrency` games at a time. `progress` is called after each game,
/// in the order of the games' numbers, with the report so far and the game.
pub fn play_match(
    game: &dyn AnyGame,
    config: &MatchConfig,
    mut progress: impl FnMut(&MatchReport, &GameResult),
) -> Result<MatchReport, MatchError> {
    let openings = match_openings(game, config)?;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let workers = config.concurrency.clamp(1, (config.games as usize).max(1));
    let mut report = MatchReport::default();
    let mut error = None;
    std::thread::scope(|scope| {
        let (sender, results) = mpsc::channel();
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, stop, openings) = (&next, &stop, &openings);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= config.games as usize || stop.load(Ordering::Relaxed) {
                    break;
                }
                let result = play_one(game, config, openings, i as u32);
                if sender.send((i as u32, result)).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        // Results arrive as games finish; they are counted and handed on in game order.
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        'results: for (i, result) in results {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&due) {
                due += 1;
                match result {
                    Ok(game) => {
                        report.add(&game);
                        progress(&report, &game);
                    }
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        error = Some(e);
                        break 'results;
                    }
                }
            }
        }
    });
    match error {
        Some(e) => Err(e),
        None => Ok(report),
    }
}

/// Game `i` of a match.
fn play_one(
    game: &dyn AnyGame,
    config: &MatchConfig,
    openings: &[Opening],
    i: u32,
) -> Result<GameResult, MatchError> {
    let opening = (i as usize / 2) % openings.len();
    let first_is_white = i % 2 == 0;
    let (white, black) = if first_is_white {
        (config.first, config.second)
    } else {
        (config.second, config.first)
    };
    let position = openings[opening].position.as_deref();
    let seed = config.seed.wrapping_add(u64::from(i));
    let played = match config.clock {
        None => play_game(
            game,
            position,
            white,
            black,
            config.max_plies,
            config.adjudicate_margin,
            seed,
        ),
        Some(clock) => game.new_game(position).map(|session| {
            let [first, second] = clock.fixed_share;
            let fixed_share = if first_is_white {
                ByPlayer::new(first, second)
            } else {
                ByPlayer::new(second, first)
            };
            let clock = GameClock {
                initial: clock.initial,
                increment: clock.increment,
                fixed_share,
            };
            let players = ByPlayer::new(white, black);
            play_on_clock(
                session,
                players,
                config.max_plies,
                config.adjudicate_margin,
                seed,
                clock,
            )
        }),
    }
    .map_err(|error| MatchError::Position {
        number: opening + 1,
        error,
    })?;
    let thinking = played.thinking.map(|t| {
        if first_is_white {
            [t.white, t.black]
        } else {
            [t.black, t.white]
        }
    });
    let round = (u64::from(i) + 1).to_string();
    let (white, black) = (white.to_string(), black.to_string());
    let record = played.session.record(&[
        ("Event", "denkmeter match"),
        ("Round", &round),
        ("White", &white),
        ("Black", &black),
    ]);
    Ok(GameResult {
        index: i,
        opening,
        first_is_white,
        outcome: played.outcome,
        plies: played.plies,
        thinking,
        record,
    })
}

/// The results of a match, from the first agent's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchReport {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Of the wins, how many were adjudicated on material at the ply limit.
    pub adjudicated_wins: u32,
    /// Of the draws, how many were adjudicated at the ply limit.
    pub adjudicated_draws: u32,
    /// Of the losses, how many were adjudicated on material at the ply limit.
    pub adjudicated_losses: u32,
    pub total_plies: u64,
    /// On the clock: games lost on time by the first agent, and by the second.
    pub time_losses: [u32; 2],
    /// On the clock: the first agent's thinking over every game, and the second's.
    pub thinking: [Thinking; 2],
}

impl MatchReport {
    /// Counts one more game.
    pub fn add(&mut self, game: &GameResult) {
        self.total_plies += game.plies as u64;
        let first = if game.first_is_white {
            Player::White
        } else {
            Player::Black
        };
        let (total, adjudicated) = match game.outcome.winner {
            Some(winner) if winner == first => (&mut self.wins, &mut self.adjudicated_wins),
            Some(_) => (&mut self.losses, &mut self.adjudicated_losses),
            None => (&mut self.draws, &mut self.adjudicated_draws),
        };
        *total += 1;
        if game.outcome.reason == Reason::TimeForfeit {
            let loser = usize::from(game.outcome.winner == Some(first));
            self.time_losses[loser] += 1;
        }
        for (sum, game) in self.thinking.iter_mut().zip(game.thinking.iter().flatten()) {
            sum.spent += game.spent;
            sum.moves += game.moves;
        }
        if matches!(
            game.outcome.reason,
            Reason::Adjudication | Reason::MoveLimit
        ) {
            *adjudicated += 1;
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The games adjudicated at the ply limit, whatever their result.
    pub fn adjudicated(&self) -> u32 {
        self.adjudicated_wins + self.adjudicated_draws + self.adjudicated_losses
    }

    /// The first agent's score, 0 to 1.
    pub fn score(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n
    }

    pub fn draw_rate(&self) -> f64 {
        f64::from(self.draws) / f64::from(self.games().max(1))
    }

    pub fn mean_length(&self) -> f64 {
        self.total_plies as f64 / f64::from(self.games().max(1))
    }

    /// The Elo difference (first minus second) and the half-width of its 95% interval.
    pub fn elo(&self) -> (f64, f64) {
        let (low, high) = self.elo_interval();
        (elo_of(self.score()), (high - low) / 2.0)
    }

    /// The 95% interval of the Elo difference: the score's normal interval (mean plus or minus
    /// 1.96 standard errors, from the games' own spread of results) turned into Elo, so it is
    /// not symmetric around the estimate.
    pub fn elo_interval(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        let mean_sq = (f64::from(self.wins) + 0.25 * f64::from(self.draws)) / n;
        let deviation = ((mean_sq - s * s).max(0.0) / n).sqrt();
        (elo_of(s - 1.96 * deviation), elo_of(s + 1.96 * deviation))
    }

    /// Whether one side won every game, so that the Elo difference has no finite estimate.
    pub fn is_one_sided(&self) -> bool {
        self.games() > 0 && (self.wins == self.games() || self.losses == self.games())
    }

    /// The likelihood of superiority: the probability that the first agent is the stronger,
    /// given the wins and losses (draws say nothing), `0.5 * (1 + erf((W - L) / sqrt(2 (W +
    /// L))))`; one half without a decisive game.
    pub fn los(&self) -> f64 {
        let (w, l) = (f64::from(self.wins), f64::from(self.losses));
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    // Plus zero: an even score is +0, not -0.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// The error function (the standard library has none), by the series `erf(x) = 2/sqrt(pi)
/// e^(-x^2) sum 2^n x^(2n+1) / (1 3 5 ... (2n+1))`, whose terms are all of one sign, so it
/// keeps its precision (to about 1e-15); beyond 6 it is 1 to within a double's precision.
fn erf(x: f64) -> f64 {
    if x.abs() >= 6.0 {
        return 1f64.copysign(x);
    }
    let x2 = x * x;
    let (mut term, mut sum) = (x, x);
    for n in 1..1000 {
        term *= 2.0 * x2 / f64::from(2 * n + 1);
        sum += term;
        if term.abs() <= sum.abs() * 1e-17 {
            break;
        }
    }
    std::f64::consts::FRAC_2_SQRT_PI * (-x2).exp() * sum
}

/// One line, or with `{:#}` one line per measure.
impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let elo = if self.is_one_sided() {
            "unbounded (one side won every game)".to_string()
        } else {
            let (low, high) = self.elo_interval();
            format!(
                "{:+.0}, 95% interval {low:+.0} to {high:+.0}",
                elo_of(self.score())
            )
        };
        let adjudicated = format!(
            "{} ({} won, {} drawn, {} lost)",
            self.adjudicated(),
            self.adjudicated_wins,
            self.adjudicated_draws,
            self.adjudicated_losses
        );
        let n = self.games();
        let (w, d, l) = (self.wins, self.draws, self.losses);
        let score = 100.0 * self.score();
        let los = 100.0 * self.los();
        let draws = 100.0 * self.draw_rate();
        let length = self.mean_length();
        if f.alternate() {
            writeln!(f, "games        {n}: +{w} ={d} -{l}, score {score:.1}%")?;
            writeln!(f, "Elo          {elo}")?;
            writeln!(f, "LOS          {los:.1}%")?;
            writeln!(f, "draws        {draws:.1}%")?;
            writeln!(f, "adjudicated  {adjudicated}")?;
            write!(f, "mean length  {length:.1} plies")?;
            let [first, second] = self.thinking;
            if first.moves + second.moves > 0 {
                let per_move = |t: Thinking| t.spent.as_secs_f64() / f64::from(t.moves.max(1));
                write!(
                    f,
                    "\nthinking     {:.3} s a move against {:.3} s; lost on time {} and {}",
                    per_move(first),
                    per_move(second),
                    self.time_losses[0],
                    self.time_losses[1]
                )?;
            }
            Ok(())
        } else {
            write!(
                f,
                "+{w} ={d} -{l} of {n} games, score {score:.1}%, Elo {elo}, LOS {los:.1}%, \
                 draws {draws:.1}%, adjudicated {adjudicated}, mean length {length:.1} plies"
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(wins: u32, draws: u32, losses: u32) -> MatchReport {
        MatchReport {
            wins,
            draws,
            losses,
            ..Default::default()
        }
    }

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn erf_matches_its_table_values() {
        assert_eq!(erf(0.0), 0.0);
        assert!(close(erf(0.5), 0.520_499_877_813_046_5, 1e-14));
        assert!(close(erf(1.0), 0.842_700_792_949_714_9, 1e-14));
        assert!(close(erf(2.0), 0.995_322_265_018_952_7, 1e-14));
        assert!(close(erf(-1.0), -0.842_700_792_949_714_9, 1e-14));
        assert!(close(erf(3.5), 0.999_999_256_901_627_7, 1e-14));
        assert!(close(erf(5.9), 1.0, 1e-14));
        assert_eq!(erf(6.0), 1.0);
        assert_eq!(erf(-40.0), -1.0);
    }

    /// +6 =4 -2: score 8/12 = 2/3, Elo 400 log10(2) = 120.4; LOS 0.5 (1 + erf(4 / sqrt(16)))
    /// = 0.5 (1 + erf(1)) = 0.9214.
    #[test]
    fn elo_and_los_of_six_four_two() {
        let r = report(6, 4, 2);
        assert!(close(r.score(), 2.0 / 3.0, 1e-12));
        assert!(close(r.elo().0, 400.0 * 2f64.log10(), 1e-9), "{r}");
        assert!(
            close(r.los(), 0.921_350_396_474_857_5, 1e-12),
            "{}",
            r.los()
        );
        // The spread: mean of squares (6 + 4/4) / 12 = 7/12, variance 7/12 - 4/9 = 5/36, the
        // score's standard error sqrt(5/36/12) = 0.10758; 2/3 -+ 1.96 * 0.10758 = 0.45581
        // and 0.87752, which are -30.8 and +342.1 Elo.
        let (low, high) = r.elo_interval();
        assert!(
            close(low, -30.79, 0.01) && close(high, 342.09, 0.01),
            "{low} {high}"
        );
        assert!(close(r.elo().1, (342.09 + 30.79) / 2.0, 0.01));
    }

    /// +10 -10: even, Elo 0 and LOS one half; the interval 0.5 -+ 1.96 sqrt(0.25 / 20) = 0.5
    /// -+ 0.21913 is -+163.3 Elo.
    #[test]
    fn elo_and_los_of_an_even_match() {
        let r = report(10, 0, 10);
        assert!(r.elo().0.abs() < 1e-9);
        assert!(
            r.to_string().contains("Elo +0, 95% interval -163 to +163"),
            "{r}"
        );
        assert_eq!(r.los(), 0.5);
        let (low, high) = r.elo_interval();
        assert!(
            close(low, -163.32, 0.01) && close(high, 163.32, 0.01),
            "{low} {high}"
        );
        // +5 -3: 0.5 (1 + erf(2 / sqrt(16))) = 0.5 (1 + erf(0.5)) = 0.76025.
        assert!(close(report(5, 7, 3).los(), 0.760_249_938_906_523_2, 1e-12));
        assert!(close(
            report(3, 7, 5).los(),
            1.0 - 0.760_249_938_906_523_2,
            1e-12
        ));
        // Draws alone say nothing.
        assert_eq!(report(0, 9, 0).los(), 0.5);
        assert_eq!(report(0, 9, 0).elo_interval(), (0.0, 0.0));
    }

    #[test]
    fn a_clean_sweep_has_no_finite_elo() {
        let r = report(8, 0, 0);
        assert!(r.is_one_sided());
        assert!(r.to_string().contains("Elo unbounded"), "{r}");
        // 0.5 (1 + erf(8 / sqrt(16))) = 0.5 (1 + erf(2)).
        assert!(
            close(r.los(), 0.997_661_132_509_476_3, 1e-12),
            "{}",
            r.los()
        );
        assert!(!report(8, 1, 0).is_one_sided());
    }

    #[test]
    fn the_report_shows_every_measure() {
        let r = MatchReport {
            adjudicated_wins: 1,
            adjudicated_draws: 2,
            total_plies: 1200,
            ..report(6, 4, 2)
        };
        assert_eq!(
            r.to_string(),
            "+6 =4 -2 of 12 games, score 66.7%, Elo +120, 95% interval -31 to +342, LOS 92.1%, \
             draws 33.3%, adjudicated 3 (1 won, 2 drawn, 0 lost), mean length 100.0 plies"
        );
        let long = format!("{r:#}");
        assert_eq!(long.lines().count(), 6, "{long}");
        assert!(
            long.starts_with("games        12: +6 =4 -2, score 66.7%\n"),
            "{long}"
        );
    }

    #[test]
    fn adjudication_needs_the_margin() {
        let win = |p| Outcome::win(p, Reason::Adjudication);
        let draw = Outcome::draw(Reason::MoveLimit);
        assert_eq!(adjudicate(Some(200), 200), win(Player::White));
        assert_eq!(adjudicate(Some(199), 200), draw);
        assert_eq!(adjudicate(Some(-200), 200), win(Player::Black));
        assert_eq!(adjudicate(Some(0), 0), draw);
        assert_eq!(adjudicate(Some(1), 0), win(Player::White));
        assert_eq!(adjudicate(None, 0), draw);
    }
}
