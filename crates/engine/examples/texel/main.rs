//! Learning the draughts evaluation (issues 11 and 30): self-play data, a logistic fit of the
//! weights (Texel's method) or of the pattern tables to the games' results, and a match between
//! the old and the new evaluation.
//!
//! ```text
//! cargo run --release -p denkmeter-engine --example texel -- RULESET COMMAND [--OPTION VALUE]...
//!
//! generate     --out FILE [--games 1000] [--random-plies 8] [--depth 4 | --nodes N]
//!              [--max-plies 300] [--seed 1] [--weights FILE] [--patterns FILE|none]
//!              [--threads N]
//! fit          --data FILE [--out FILE] [--fix TERM,...] [--epochs 400] [--rate 1.0]
//!              [--passes 30] [--start FILE]
//! fit-patterns --data FILE --out FILE [--epochs 12] [--batch 16384] [--rate 1.0] [--l2 1e-4]
//!              [--lambda 1] [--seed 1] [--threads N]
//! verify       [--new FILE] [--old FILE] [--new-patterns FILE|none] [--old-patterns FILE|none]
//!              [--games 400] [--random-plies 8] [--depth 4 | --nodes N | --time SECONDS]
//!              [--max-plies 300] [--seed 1] [--threads N]
//! show         [--weights FILE]
//! ```
//!
//! The evaluation a command plays with is the weights of `--weights` (`--new`, `--old`), by
//! default those the engine uses, plus the pattern tables of `--patterns` (`--new-patterns`,
//! `--old-patterns`), by default those the ruleset plays with (`patterns::shipped_for`),
//! `none` for none. `--threads` (default: the processors) plays games, or shares the fit's batches, on
//! that many threads; the data, the fitted tables, and a `verify` at a fixed depth or node
//! count do not depend on it (a `verify --time` depends on the machine's load anyway).
//!
//! `fit` fits the weights to the evaluation without pattern tables; where tables are shipped
//! (`patterns::shipped_bytes`), new weights call for tables fitted again on top of them.
//!
//! `generate` plays self-play games with alpha-beta at a fixed depth (or node count) on one
//! thread each, each from an opening of random plies drawn from the seed, and keeps the quiet
//! positions after the opening with the game's result. Quiet means that neither side could
//! capture, whoever were to move: in draughts the quiescence search of a position where the side
//! to move cannot capture is its static evaluation (only captures have a gain), so these are
//! positions whose quiescence score equals the evaluation, and whose evaluation no exchange
//! already on the board is about to overturn. A game longer than `--max-plies` is adjudicated a
//! draw (not by the evaluation: the data should not learn the old evaluation's opinion). The
//! file has a header line `# texel RULESET`, comment lines, and one position a line: the result
//! for White (1, 0.5 or 0), the game's number, the position text and the score for White of
//! the search that chose the move played there (left out where that search found a forced or
//! a database result), separated by tabs.
//!
//! `fit` reads such a file, holds out every tenth game to validate, finds the scale K of the
//! win-rate model `1 / (1 + exp(-K * eval))` that best fits the starting weights (`--start`,
//! by default those the evaluation uses now), and then, K fixed, the weights that minimise the
//! mean squared error between that win rate and the result: Adam on the linear part first (the
//! drawish-ending scale held as it falls), then Texel's local search of steps of one on the
//! integer weights, the real evaluation. A man is the unit: the weights found are scaled to
//! make it 100, and K the other way, before the local search. Terms named in `--fix`, and
//! terms the data never counts, are not fitted. It prints the errors before and after and the
//! weights as a Rust array to paste into `crates/games/src/draughts/eval.rs`, and writes that
//! array to `--out`.
//!
//! `fit-patterns` fits the pattern tables on top of the weights and writes them in the file
//! form the engine reads (`crates/games/data/patterns-RULESET.bin`); see `patterns.rs`.
//!
//! `verify` plays the new evaluation against the old: the engine's alpha-beta at a fixed depth
//! or node count on one thread a game, each random opening played twice with colours swapped,
//! and prints wins, draws and losses of the new evaluation with the Elo difference and its
//! 95 % interval. At a fixed depth or node count a slower evaluation costs nothing; `--time`
//! plays at equal time a move (games on `--threads` threads at once share the machine
//! equally), the measure that counts.
//!
//! A weights file is the array `fit` prints: the integers between `[` and `]`, in the order of
//! the terms' names, `//` comments ignored.

mod patterns;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use denkmeter_core::{
    Board, ByPlayer, Facts, Game, MoveError, MoveView, Player, PositionError, PositionView, Status,
    Viewer,
};
use denkmeter_engine::matches::MatchReport;
use denkmeter_engine::search::eval::{is_decisive, is_table_result};
use denkmeter_engine::search::{search_with, SearchOptions};
use denkmeter_engine::Limits;
use denkmeter_games::draughts::patterns::Patterns;
use denkmeter_games::draughts::tuning::{self, Features, Group, Weights, N, NAMES};
use denkmeter_games::draughts::{Draughts, Move, State, Variant};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const USAGE: &str =
    "usage: texel RULESET (generate|fit|fit-patterns|verify|show) [--OPTION VALUE]...
  generate     --out FILE [--games 1000] [--random-plies 8] [--depth 4 | --nodes N]
               [--max-plies 300] [--seed 1] [--weights FILE] [--patterns FILE|none]
               [--threads N]
  fit          --data FILE [--out FILE] [--fix TERM,...] [--epochs 400] [--rate 1.0]
               [--passes 30] [--start FILE]
  fit-patterns --data FILE --out FILE [--epochs 12] [--batch 16384] [--rate 1.0] [--l2 1e-4]
               [--lambda 1] [--seed 1] [--threads N]
  verify       [--new FILE] [--old FILE] [--new-patterns FILE|none] [--old-patterns FILE|none]
               [--games 400] [--random-plies 8] [--depth 4 | --nodes N | --time SECONDS]
               [--max-plies 300] [--seed 1] [--threads N]
  show         [--weights FILE]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [ruleset, command, rest @ ..] => {
            Options::parse(rest).and_then(|options| by_name(ruleset, command, &options))
        }
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("texel: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `command` for the ruleset called `name`.
fn by_name(name: &str, command: &str, options: &Options) -> Result<(), String> {
    macro_rules! rulesets {
        ($($v:ty),*) => {
            $(if name == <$v as Variant>::NAME {
                return run::<$v>(command, options);
            })*
        };
    }
    denkmeter_games::for_draughts_variants!(rulesets);
    Err(format!("{name}: not a draughts ruleset\n{USAGE}"))
}

fn run<V: Variant>(command: &str, options: &Options) -> Result<(), String> {
    match command {
        "generate" => {
            options.only(&[
                "out",
                "games",
                "random-plies",
                "depth",
                "nodes",
                "max-plies",
                "seed",
                "weights",
                "patterns",
                "threads",
            ])?;
            generate::<V>(options)
        }
        "fit" => {
            options.only(&["data", "out", "fix", "epochs", "rate", "passes", "start"])?;
            fit::<V>(options)
        }
        "fit-patterns" => {
            options.only(&[
                "data", "out", "epochs", "batch", "rate", "l2", "lambda", "seed", "threads",
            ])?;
            patterns::fit_patterns::<V>(options)
        }
        "verify" => {
            options.only(&[
                "new",
                "old",
                "new-patterns",
                "old-patterns",
                "threads",
                "time",
                "games",
                "random-plies",
                "depth",
                "nodes",
                "max-plies",
                "seed",
            ])?;
            verify::<V>(options)
        }
        "show" => {
            options.only(&["weights"])?;
            let w = weights_option::<V>(options, "weights")?;
            print!("{}", weights_text(Group::of::<V>(), &w));
            Ok(())
        }
        _ => Err(format!("{command}: not a command\n{USAGE}")),
    }
}

// ---------------------------------------------------------------- options

/// `--name value` pairs.
#[derive(Debug, Default)]
struct Options(HashMap<String, String>);

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut map = HashMap::new();
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            let Some(name) = arg.strip_prefix("--") else {
                return Err(format!("{arg}: expected --OPTION VALUE\n{USAGE}"));
            };
            let value = rest.next().ok_or(format!("--{name} needs a value"))?;
            map.insert(name.to_string(), value.clone());
        }
        Ok(Options(map))
    }

    /// Refuses options outside `known`.
    fn only(&self, known: &[&str]) -> Result<(), String> {
        match self.0.keys().find(|k| !known.contains(&k.as_str())) {
            Some(k) => Err(format!("--{k}: not an option of this command\n{USAGE}")),
            None => Ok(()),
        }
    }

    fn text(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    fn required(&self, name: &str) -> Result<&str, String> {
        self.text(name)
            .ok_or(format!("--{name} is required\n{USAGE}"))
    }

    fn number<T: FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        match self.text(name) {
            None => Ok(default),
            Some(text) => text
                .parse()
                .map_err(|_| format!("--{name} {text}: not a number")),
        }
    }

    /// `--threads`, by default the processors: 1 to 256.
    fn threads(&self) -> Result<usize, String> {
        let processors = std::thread::available_parallelism().map_or(1, |n| n.get());
        let n: usize = self.number("threads", processors)?;
        if !(1..=256).contains(&n) {
            return Err(format!("--threads {n}: 1 to 256"));
        }
        Ok(n)
    }

    /// The search limit: `--time` (seconds a move) if given, else `--nodes`, else `--depth` (4
    /// by default).
    fn limits(&self) -> Result<Limits, String> {
        if self.text("time").is_some() {
            let seconds: f64 = self.number("time", 0.0)?;
            if !(0.001..=60.0).contains(&seconds) {
                return Err(format!("--time {seconds}: 0.001 to 60 seconds a move"));
            }
            Ok(Limits::time(std::time::Duration::from_secs_f64(seconds)))
        } else if self.text("nodes").is_some() {
            Ok(Limits::nodes(self.number("nodes", 0)?))
        } else {
            Ok(Limits::depth(self.number("depth", 4)?))
        }
    }
}

/// The weights in file `--name`, or the evaluation's current ones.
fn weights_option<V: Variant>(options: &Options, name: &str) -> Result<Weights, String> {
    match options.text(name) {
        None => Ok(*tuning::weights::<V>()),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            parse_weights(&text).map_err(|e| format!("{path}: {e}"))
        }
    }
}

/// The pattern tables of file `--name`: by default those the ruleset plays with (if any), none
/// for `none`.
fn patterns_option<V: Variant>(
    options: &Options,
    name: &str,
) -> Result<Option<Arc<Patterns>>, String> {
    let group = Group::of::<V>();
    match options.text(name) {
        None => Ok(denkmeter_games::draughts::patterns::shipped_for::<V>()
            .cloned()
            .map(Arc::new)),
        Some("none") => Ok(None),
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            let p = Patterns::from_bytes(&bytes, group).map_err(|e| format!("{path}: {e}"))?;
            if p.windows() != denkmeter_games::draughts::patterns::windows::<V>() {
                return Err(format!("{path}: tables of another board"));
            }
            Ok(Some(Arc::new(p)))
        }
    }
}

/// Reads the array [`weights_text`] writes.
fn parse_weights(text: &str) -> Result<Weights, String> {
    let code: String = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let start = code.find('[').ok_or("no `[`")?;
    let end = code[start..].find(']').ok_or("no `]`")? + start;
    let values: Vec<i32> = code[start + 1..end]
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().map_err(|_| format!("{s}: not an integer")))
        .collect::<Result<_, _>>()?;
    values
        .try_into()
        .map_err(|v: Vec<i32>| format!("{} weights, expected {N}", v.len()))
}

/// The weights as a Rust constant of the group's name, one term a line.
fn weights_text(group: Group, w: &Weights) -> String {
    let name = match group {
        Group::International => "INTERNATIONAL",
        Group::Scandinavian10 => "SCANDINAVIAN_10",
        Group::Scandinavian8 => "SCANDINAVIAN_8",
        Group::English => "ENGLISH",
    };
    let mut text = format!("const {name}: Weights = [\n");
    for (value, term) in w.iter().zip(NAMES) {
        let _ = writeln!(text, "    {value}, // {term}");
    }
    text.push_str("];\n");
    text
}

// ---------------------------------------------------------------- the data file

/// One position of the data: its game's result for White (1, 0.5 or 0), the game's number,
/// the position text, and the score for White of the search that chose the move played there
/// (`None` where it found a forced or a database result, and in data written before scores
/// were kept).
#[derive(Clone, Debug, PartialEq)]
struct Record {
    result: f64,
    game: u32,
    position: String,
    score: Option<i32>,
}

/// Writes the header, `comment` lines and the records.
fn write_records(
    out: &mut impl Write,
    ruleset: &str,
    comment: &str,
    records: &[Record],
) -> io::Result<()> {
    writeln!(out, "# texel {ruleset}")?;
    for line in comment.lines() {
        writeln!(out, "# {line}")?;
    }
    for r in records {
        write_record(out, r)?;
    }
    Ok(())
}

fn write_record(out: &mut impl Write, r: &Record) -> io::Result<()> {
    write!(out, "{}\t{}\t{}", r.result, r.game, r.position)?;
    match r.score {
        Some(score) => writeln!(out, "\t{score}"),
        None => writeln!(out),
    }
}

/// Reads what [`write_records`] wrote for `ruleset`.
fn read_records(input: impl BufRead, ruleset: &str) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    let mut header = false;
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let at = |what: &str| format!("line {}: {what}", i + 1);
        if let Some(comment) = line.strip_prefix('#') {
            if let Some(name) = comment.trim().strip_prefix("texel ") {
                if name != ruleset {
                    return Err(at(&format!("data of {name}, not {ruleset}")));
                }
                header = true;
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let mut fields = line.splitn(4, '\t');
        let (Some(result), Some(game), Some(position)) =
            (fields.next(), fields.next(), fields.next())
        else {
            return Err(at(
                "expected result, game and position (then a score, if kept), separated by tabs",
            ));
        };
        let score = fields
            .next()
            .map(|score| {
                score
                    .parse()
                    .map_err(|_| at(&format!("{score:?}: not a score")))
            })
            .transpose()?;
        let result: f64 = result
            .parse()
            .map_err(|_| at(&format!("{result}: not a result")))?;
        if ![0.0, 0.5, 1.0].contains(&result) {
            return Err(at(&format!("{result}: not 1, 0.5 or 0")));
        }
        let game = game
            .parse()
            .map_err(|_| at(&format!("{game}: not a game number")))?;
        records.push(Record {
            result,
            game,
            position: position.to_string(),
            score,
        });
    }
    if !header {
        return Err(format!("no `# texel {ruleset}` header"));
    }
    Ok(records)
}

// ---------------------------------------------------------------- a ruleset with other weights

/// Ruleset `V` evaluated with other weights and pattern tables: the engine's alpha-beta plays
/// it as it plays the ruleset itself.
#[derive(Clone, Debug)]
struct Weighted<V: Variant> {
    rules: Draughts<V>,
    weights: Weights,
    patterns: Option<Arc<Patterns>>,
}

impl<V: Variant> Weighted<V> {
    fn new(weights: Weights, patterns: Option<Arc<Patterns>>) -> Self {
        Weighted {
            rules: Draughts::new(),
            weights,
            patterns,
        }
    }
}

impl<V: Variant> Game for Weighted<V> {
    type Move = Move;
    type State = State;

    fn facts(&self) -> &Facts {
        self.rules.facts()
    }
    fn board(&self) -> &Board {
        self.rules.board()
    }
    fn start(&self) -> State {
        self.rules.start()
    }
    fn to_move(&self, state: &State) -> Player {
        self.rules.to_move(state)
    }
    fn legal_moves(&self, state: &State, moves: &mut Vec<Move>) {
        self.rules.legal_moves(state, moves);
    }
    fn play_unchecked(&self, state: &mut State, mv: Move) {
        self.rules.play_unchecked(state, mv);
    }
    fn status(&self, state: &State) -> Status {
        self.rules.status(state)
    }
    fn hash(&self, state: &State) -> u64 {
        self.rules.hash(state)
    }
    fn evaluate(&self, state: &State) -> i32 {
        tuning::evaluate_with_patterns::<V>(state, &self.weights, self.patterns.as_deref())
    }
    fn move_gain(&self, state: &State, mv: Move) -> i32 {
        tuning::move_gain_with(state, mv, &self.weights)
    }
    fn gains_only_when_forcing(&self) -> bool {
        self.rules.gains_only_when_forcing()
    }
    fn forcing(&self, state: &State) -> bool {
        self.rules.forcing(state)
    }
    fn threatened(&self, state: &State) -> bool {
        self.rules.threatened(state)
    }
    fn move_text(&self, state: &State, mv: Move) -> String {
        self.rules.move_text(state, mv)
    }
    fn parse_move(&self, state: &State, text: &str) -> Result<Move, MoveError> {
        self.rules.parse_move(state, text)
    }
    fn position_text(&self, state: &State) -> String {
        self.rules.position_text(state)
    }
    fn parse_position(&self, text: &str) -> Result<State, PositionError> {
        self.rules.parse_position(text)
    }
    fn move_view(&self, state: &State, mv: Move) -> MoveView {
        self.rules.move_view(state, mv)
    }
    fn position_view(&self, state: &State, viewer: Viewer) -> PositionView {
        self.rules.position_view(state, viewer)
    }
}

/// How a game went: the winner (`None` a draw), its length, whether the ply limit ended it,
/// and the quiet positions after the opening, each with its search's score for White (`None`
/// for a forced or a database result).
struct Played {
    winner: Option<Player>,
    plies: usize,
    adjudicated: bool,
    quiet: Vec<(String, Option<i32>)>,
}

/// Plays a game from `opening` with `white` and `black` searching to `limits`; longer than
/// `max_plies` is a draw.
fn play<V: Variant>(
    white: &Weighted<V>,
    black: &Weighted<V>,
    opening: &State,
    limits: Limits,
    max_plies: usize,
) -> Played {
    let mut game = denkmeter_core::Playthrough::from_state(white.clone(), opening.clone());
    let mut seen = HashSet::new();
    let mut quiet = Vec::new();
    loop {
        let state = game.state();
        if let Status::Over(outcome) = game.status() {
            return Played {
                winner: outcome.winner,
                plies: game.moves().len(),
                adjudicated: false,
                quiet,
            };
        }
        if game.moves().len() >= max_plies {
            return Played {
                winner: None,
                plies: game.moves().len(),
                adjudicated: true,
                quiet,
            };
        }
        let keep = tuning::is_quiet::<V>(state) && seen.insert(white.hash(state));
        let hashes = game.repetition_hashes();
        let options = SearchOptions {
            history: hashes[..hashes.len() - 1].to_vec(),
            hash_mb: 2,
            ..SearchOptions::new(limits)
        };
        let mover = match state.to_move() {
            Player::White => white,
            Player::Black => black,
        };
        let Some(found) = search_with(mover, state, &options, &mut |_| {}) else {
            // No move: the status above would have ended the game.
            unreachable!("an unfinished game has a move");
        };
        if keep {
            let exact = is_decisive(found.score) || is_table_result(found.score);
            let for_white = match state.to_move() {
                Player::White => found.score,
                Player::Black => -found.score,
            };
            quiet.push((white.position_text(state), (!exact).then_some(for_white)));
        }
        if let Err(e) = game.play(found.best) {
            unreachable!("the search offered an illegal move: {e}");
        }
    }
}

/// Plays games `0..games` with `play_one` on `threads` threads and hands each result to
/// `consume` in the games' order, so that what is written does not depend on the threads.
fn in_order<T: Send>(
    games: u32,
    threads: usize,
    play_one: impl Fn(u32) -> T + Sync,
    mut consume: impl FnMut(u32, T) -> Result<(), String>,
) -> Result<(), String> {
    let next = AtomicU32::new(0);
    let (sender, receiver) = mpsc::channel::<(u32, T)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let sender = sender.clone();
            let (next, play_one) = (&next, &play_one);
            scope.spawn(move || loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                // A failed send means the consumer stopped on an error: stop too.
                if g >= games || sender.send((g, play_one(g))).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut due = 0u32;
        for (g, result) in receiver {
            waiting.insert(g, result);
            while let Some(result) = waiting.remove(&due) {
                if let Err(e) = consume(due, result) {
                    // Make the players stop drawing games.
                    next.store(games, Ordering::Relaxed);
                    return Err(e);
                }
                due += 1;
            }
        }
        Ok(())
    })
}

/// A position after `plies` random moves from the start, none of them ending the game.
fn random_opening<V: Variant>(rng: &mut impl Rng, plies: usize) -> State {
    let game = Draughts::<V>::new();
    let mut moves = Vec::new();
    'again: loop {
        let mut state = game.start();
        for _ in 0..plies {
            game.legal_moves(&state, &mut moves);
            if moves.is_empty() {
                continue 'again;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play_unchecked(&mut state, mv);
        }
        if game.status(&state) == Status::Ongoing {
            return state;
        }
    }
}

fn limits_text(limits: Limits) -> String {
    match (limits.depth, limits.nodes, limits.time) {
        (_, _, Some(t)) => format!("{} s a move", t.as_secs_f64()),
        (_, Some(n), _) => format!("nodes {n}"),
        (Some(d), _, _) => format!("depth {d}"),
        _ => "no limit".to_string(),
    }
}

// ---------------------------------------------------------------- generate

fn generate<V: Variant>(options: &Options) -> Result<(), String> {
    let out_path = options.required("out")?;
    let games: u32 = options.number("games", 1000)?;
    let random_plies: usize = options.number("random-plies", 8)?;
    let max_plies: usize = options.number("max-plies", 300)?;
    let seed: u64 = options.number("seed", 1)?;
    let limits = options.limits()?;
    let threads = options.threads()?;
    let weights = weights_option::<V>(options, "weights")?;
    let player = Weighted::<V>::new(weights, patterns_option::<V>(options, "patterns")?);

    let file = File::create(out_path).map_err(|e| format!("{out_path}: {e}"))?;
    let mut out = BufWriter::new(file);
    let comment = format!(
        "games {games} random-plies {random_plies} {} max-plies {max_plies} seed {seed}{}\n\
         result for White, game, position, the search's score for White (none for a forced \
         or database result); quiet positions after the opening; the ply limit is a draw",
        limits_text(limits),
        if player.patterns.is_some() {
            " with pattern tables"
        } else {
            ""
        }
    );
    let io_error = |e: io::Error| format!("{out_path}: {e}");
    write_records(&mut out, V::NAME, &comment, &[]).map_err(io_error)?;

    let started = Instant::now();
    let (mut positions, mut score) = (0usize, ByPlayer::new(0u32, 0u32));
    let (mut draws, mut adjudicated, mut plies) = (0u32, 0u32, 0usize);
    let play_one = |g: u32| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed.wrapping_add(u64::from(g)));
        let opening = random_opening::<V>(&mut rng, random_plies);
        play(&player, &player, &opening, limits, max_plies)
    };
    in_order(games, threads, play_one, |g, played| {
        let result = match played.winner {
            Some(Player::White) => 1.0,
            Some(Player::Black) => 0.0,
            None => 0.5,
        };
        match played.winner {
            Some(p) => score[p] += 1,
            None => draws += 1,
        }
        adjudicated += u32::from(played.adjudicated);
        plies += played.plies;
        positions += played.quiet.len();
        for (position, score) in played.quiet {
            let record = Record {
                result,
                game: g,
                position,
                score,
            };
            write_record(&mut out, &record).map_err(io_error)?;
        }
        if (g + 1) % 500 == 0 || g + 1 == games {
            eprintln!(
                "{} games, {positions} positions, White +{} ={draws} -{} ({adjudicated} at the \
                 ply limit), {:.0} plies a game, {:.0} s",
                g + 1,
                score.white,
                score.black,
                plies as f64 / f64::from(g + 1),
                started.elapsed().as_secs_f64()
            );
        }
        Ok(())
    })?;
    out.flush().map_err(io_error)?;
    println!("{positions} positions from {games} games written to {out_path}");
    Ok(())
}

// ---------------------------------------------------------------- fit

/// The records of the data file at `path` for ruleset `V`, each turned into a `T` by `each`.
fn read_data<V: Variant, T>(
    path: &str,
    mut each: impl FnMut(&Record) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    let file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let records =
        read_records(BufReader::new(file), V::NAME).map_err(|e| format!("{path}: {e}"))?;
    records.iter().map(&mut each).collect()
}

/// A position as the fit sees it: the counts of its terms, the drawish flags (White ahead,
/// Black ahead), its result for White and its game.
#[derive(Clone, Debug)]
struct Sample {
    f: Features,
    drawish: [bool; 2],
    result: f64,
    game: u32,
}

impl Sample {
    /// The real evaluation for White with integer weights.
    fn score(&self, w: &Weights) -> i32 {
        let drawish = ByPlayer::new(self.drawish[0], self.drawish[1]);
        tuning::white_score(&self.f, drawish, w)
    }

    /// The scale of the drawish ending for a linear score `dot`.
    fn scale(&self, dot: f64) -> f64 {
        let ahead = usize::from(dot <= 0.0);
        if self.drawish[ahead] {
            0.25
        } else {
            1.0
        }
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean squared error of the win-rate model with scale `k` and the real evaluation.
fn error(samples: &[Sample], w: &Weights, k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(k * f64::from(s.score(w)));
            (s.result - p) * (s.result - p)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The scale K that minimises [`error`] for weights `w`: a golden-section search on ln K.
fn fit_k(samples: &[Sample], w: &Weights) -> f64 {
    let scores: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| (f64::from(s.score(w)), s.result))
        .collect();
    let error_at = |ln_k: f64| {
        let k = ln_k.exp();
        scores
            .iter()
            .map(|&(e, r)| (r - sigmoid(k * e)).powi(2))
            .sum::<f64>()
    };
    best_scale(error_at, 1e-6)
}

/// The K between 1e-5 and 1 that minimises `error_at(ln K)`: a golden-section search on ln K,
/// to `tolerance` in ln K.
fn best_scale(error_at: impl Fn(f64) -> f64, tolerance: f64) -> f64 {
    let (mut a, mut b) = (1e-5f64.ln(), 1.0f64.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (error_at(c), error_at(d));
    while b - a > tolerance {
        if fc < fd {
            (b, d, fd) = (d, c, fc);
            c = b - ratio * (b - a);
            fc = error_at(c);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + ratio * (b - a);
            fd = error_at(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// Adam on the mean squared error, the drawish scale held as it falls for the current
/// weights: real-valued weights from `start`, those not `free` unchanged.
fn descend(
    samples: &[Sample],
    k: f64,
    start: &Weights,
    free: &[bool; N],
    epochs: u32,
    rate: f64,
) -> [f64; N] {
    let mut w: [f64; N] = start.map(f64::from);
    let (mut m, mut v) = ([0.0; N], [0.0; N]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12);
    let n = samples.len().max(1) as f64;
    for epoch in 1..=epochs {
        let mut grad = [0.0; N];
        for s in samples {
            let dot: f64 = s.f.iter().zip(&w).map(|(&c, &w)| f64::from(c) * w).sum();
            let scale = s.scale(dot);
            let p = sigmoid(k * scale * dot);
            let g = 2.0 * (p - s.result) * p * (1.0 - p) * k * scale;
            for (gi, &c) in grad.iter_mut().zip(&s.f) {
                *gi += g * f64::from(c);
            }
        }
        // The rate falls linearly to a tenth, so that the last epochs settle.
        let lr = rate * (1.0 - 0.9 * f64::from(epoch - 1) / f64::from(epochs));
        for i in 0..N {
            if !free[i] {
                continue;
            }
            let g = grad[i] / n;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let m_hat = m[i] / (1.0 - b1.powi(epoch as i32));
            let v_hat = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= lr * m_hat / (v_hat.sqrt() + eps);
        }
    }
    w
}

/// Texel's local search: each free weight a step of one either way while the real error
/// falls, for at most `passes` passes over the weights.
fn local_search(
    samples: &[Sample],
    k: f64,
    start: &Weights,
    free: &[bool; N],
    passes: u32,
) -> Weights {
    let mut w = *start;
    let mut best = error(samples, &w, k);
    for _ in 0..passes {
        let mut improved = false;
        for i in (0..N).filter(|&i| free[i]) {
            for step in [1, -1] {
                let mut trial = w;
                trial[i] += step;
                let e = error(samples, &trial, k);
                if e < best {
                    (w, best) = (trial, e);
                    improved = true;
                    break;
                }
            }
        }
        if !improved {
            break;
        }
    }
    w
}

/// The weights that minimise the error with K fixed at `k`, from `start`, those not `free`
/// kept: Adam, then Texel's local search on the integers. The unit is a man: if the man's
/// weight was free, all the weights are scaled to make it 100 before the local search, and K
/// the other way, which changes no prediction. Returns the weights and that K.
fn fit_weights(
    samples: &[Sample],
    k: f64,
    start: &Weights,
    free: &[bool; N],
    epochs: u32,
    rate: f64,
    passes: u32,
) -> (Weights, f64) {
    let mut real = descend(samples, k, start, free, epochs, rate);
    let mut k = k;
    let mut free = *free;
    if free[tuning::MAN] && real[tuning::MAN] > 1.0 {
        let c = 100.0 / real[tuning::MAN];
        for w in &mut real {
            *w *= c;
        }
        k /= c;
        real[tuning::MAN] = 100.0;
        free[tuning::MAN] = false;
    }
    let rounded: Weights = real.map(|x| x.round() as i32);
    (local_search(samples, k, &rounded, &free, passes), k)
}

fn fit<V: Variant>(options: &Options) -> Result<(), String> {
    let path = options.required("data")?;
    let epochs: u32 = options.number("epochs", 400)?;
    let rate: f64 = options.number("rate", 1.0)?;
    let passes: u32 = options.number("passes", 30)?;
    let old = *tuning::weights::<V>();
    let start = weights_option::<V>(options, "start")?;
    let mut free = [true; N];
    for name in options.text("fix").unwrap_or("").split(',') {
        let name = name.trim();
        if name.is_empty() {
            continue;
        }
        let i = NAMES
            .iter()
            .position(|&n| n == name)
            .ok_or(format!("--fix {name}: not a term ({})", NAMES.join(", ")))?;
        free[i] = false;
    }

    let records = read_data::<V, _>(path, |r| Ok(r.clone()))?;
    let game = Draughts::<V>::new();
    let mut train = Vec::new();
    let mut validate = Vec::new();
    for r in &records {
        let state = game
            .parse_position(&r.position)
            .map_err(|e| format!("{path}: {}: {e}", r.position))?;
        let d = tuning::drawish::<V>(&state);
        let sample = Sample {
            f: tuning::features::<V>(&state),
            drawish: [d.white, d.black],
            result: r.result,
            game: r.game,
        };
        if sample.game % 10 == 9 {
            validate.push(sample);
        } else {
            train.push(sample);
        }
    }
    let games: HashSet<u32> = records.iter().map(|r| r.game).collect();
    let mean: f64 = records.iter().map(|r| r.result).sum::<f64>() / records.len().max(1) as f64;
    println!(
        "{} positions from {} games ({} to fit, {} held out), mean result for White {mean:.3}",
        records.len(),
        games.len(),
        train.len(),
        validate.len()
    );
    for (i, name) in NAMES.iter().enumerate() {
        if train.iter().all(|s| s.f[i] == 0) {
            println!("{name}: never counted in the data; kept");
            free[i] = false;
        }
    }

    let started = Instant::now();
    let k = fit_k(&train, &start);
    println!(
        "K = {k:.6} (a man ahead: {:.1} %)",
        100.0 * sigmoid(k * f64::from(start[tuning::MAN]))
    );
    let before = (error(&train, &start, k), error(&validate, &start, k));
    if start != old {
        println!(
            "the evaluation's weights: error {:.6}, held out {:.6}",
            error(&train, &old, k),
            error(&validate, &old, k)
        );
    }
    println!("start: error {:.6}, held out {:.6}", before.0, before.1);
    let (fitted, k_fitted) = fit_weights(&train, k, &start, &free, epochs, rate, passes);
    let after = (
        error(&train, &fitted, k_fitted),
        error(&validate, &fitted, k_fitted),
    );
    println!(
        "fitted: error {:.6}, held out {:.6}, K = {k_fitted:.6} ({:.0} s)",
        after.0,
        after.1,
        started.elapsed().as_secs_f64()
    );
    println!(
        "K refitted to the new weights: {:.6}",
        fit_k(&train, &fitted)
    );
    println!(
        "\n{:>14} {:>6} {:>6} {:>9}",
        "term", "start", "fitted", "positions"
    );
    for i in 0..N {
        let mark = if free[i] { "" } else { "  (kept)" };
        let counted = train.iter().filter(|s| s.f[i] != 0).count();
        println!(
            "{:>14} {:>6} {:>6} {counted:>9}{mark}",
            NAMES[i], start[i], fitted[i]
        );
    }
    let text = weights_text(Group::of::<V>(), &fitted);
    println!("\n{text}");
    if let Some(out) = options.text("out") {
        std::fs::write(out, &text).map_err(|e| format!("{out}: {e}"))?;
        println!("written to {out}");
    }
    Ok(())
}

// ---------------------------------------------------------------- verify

/// Mixed into `verify`'s seeds.
const VERIFY_SALT: u64 = 0x7665_7269_6679;

fn verify<V: Variant>(options: &Options) -> Result<(), String> {
    if options.text("new").is_none() && options.text("new-patterns").is_none() {
        return Err(format!("--new or --new-patterns is required\n{USAGE}"));
    }
    let new = Weighted::<V>::new(
        weights_option::<V>(options, "new")?,
        patterns_option::<V>(options, "new-patterns")?,
    );
    let old = Weighted::<V>::new(
        weights_option::<V>(options, "old")?,
        patterns_option::<V>(options, "old-patterns")?,
    );
    let threads = options.threads()?;
    let games: u32 = options.number("games", 400)?;
    let random_plies: usize = options.number("random-plies", 8)?;
    let max_plies: usize = options.number("max-plies", 300)?;
    let seed: u64 = options.number("seed", 1)?;
    let limits = options.limits()?;
    println!(
        "{}: new evaluation against old, {games} games, {}, openings of {random_plies} random \
         plies each played twice, seed {seed}, a draw after {max_plies} plies",
        V::NAME,
        limits_text(limits)
    );
    let started = Instant::now();
    let mut report = MatchReport::default();
    let colour = |g: u32| {
        if g % 2 == 0 {
            Player::White
        } else {
            Player::Black
        }
    };
    let play_one = |g: u32| {
        // Each opening twice; salted, so that the openings differ from those `generate` draws
        // from a seed.
        let opening_seed = seed.wrapping_add(u64::from(g / 2)) ^ VERIFY_SALT;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(opening_seed);
        let start = random_opening::<V>(&mut rng, random_plies);
        match colour(g) {
            Player::White => play(&new, &old, &start, limits, max_plies),
            Player::Black => play(&old, &new, &start, limits, max_plies),
        }
    };
    in_order(games, threads, play_one, |g, played| {
        let new_colour = colour(g);
        report.total_plies += played.plies as u64;
        match played.winner {
            Some(w) if w == new_colour => report.wins += 1,
            Some(_) => report.losses += 1,
            None => {
                report.draws += 1;
                report.adjudicated_draws += u32::from(played.adjudicated);
            }
        }
        if (g + 1) % 50 == 0 {
            eprintln!("{report} ({:.0} s)", started.elapsed().as_secs_f64());
        }
        Ok(())
    })?;
    println!("new evaluation: {report}");
    println!("{:.0} s", started.elapsed().as_secs_f64());
    Ok(())
}

// ---------------------------------------------------------------- tests

#[cfg(test)]
mod tests {
    use super::*;
    use denkmeter_games::draughts::InternationalRules;

    #[test]
    fn the_data_file_round_trips() {
        let game = Draughts::<InternationalRules>::new();
        let start = game.start();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let records: Vec<Record> = (0..5)
            .map(|i| Record {
                result: [0.0, 0.5, 1.0][i % 3],
                game: i as u32 * 7,
                position: game
                    .position_text(&random_opening::<InternationalRules>(&mut rng, 2 * i)),
                score: [Some(-35), None, Some(120), Some(0)][i % 4],
            })
            .collect();
        assert_eq!(records[0].position, game.position_text(&start));
        let mut bytes = Vec::new();
        write_records(
            &mut bytes,
            "international",
            "a comment\nand another",
            &records,
        )
        .unwrap();
        let back = read_records(bytes.as_slice(), "international").unwrap();
        assert_eq!(back, records);
        assert!(read_records(bytes.as_slice(), "english").is_err());
        assert!(read_records(&b"1\t0\tx\n"[..], "english").is_err());
        assert!(read_records(&b"# texel english\n2\t0\tx\n"[..], "english").is_err());
        assert!(read_records(&b"# texel english\n1\t0\tx\t1.5\n"[..], "english").is_err());
        // A line without a score (data written before scores were kept) reads as no score.
        let old = read_records(&b"# texel english\n1\t4\tx y\n"[..], "english").unwrap();
        assert_eq!(old[0].score, None);
        assert_eq!((old[0].game, old[0].position.as_str()), (4, "x y"));
    }

    /// The score kept with a position is for White, whoever is to move there; none is kept
    /// where the search found a forced result.
    #[test]
    fn a_kept_score_is_for_white() {
        let game = Draughts::<InternationalRules>::new();
        let player =
            Weighted::<InternationalRules>::new(*tuning::weights::<InternationalRules>(), None);
        let start = game.position_text(&game.start());
        // The start without Black's man on square 1 (b10).
        let man_down = start.replacen("1m1m1m1m1m", "3m1m1m1m", 1);
        assert_ne!(man_down, start);
        for side in ["w", "b"] {
            let text = format!("{} {side}", man_down.rsplit_once(' ').unwrap().0);
            let opening = game.parse_position(&text).unwrap();
            let played = play(&player, &player, &opening, Limits::depth(2), 1);
            let (position, score) = &played.quiet[0];
            assert_eq!(position, &text);
            let score = score.expect("no forced result at depth 2");
            assert!(score > 50, "{side} to move: {score}");
        }
        // White to move wins at once: whatever the man on j4 does, Black's man on a3 is left
        // without a move (b2 taken, and the jump to c1 blocked).
        let won = game
            .parse_position("10/10/10/10/10/10/9M/m9/1M8/2M7 w")
            .unwrap();
        let played = play(&player, &player, &won, Limits::depth(2), 1);
        assert_eq!(played.quiet.len(), 1);
        assert_eq!(played.quiet[0].1, None, "a forced win kept as a score");
    }

    /// Games played on several threads come out in order and the same as on one: the data
    /// depends on the seed alone.
    #[test]
    fn games_on_threads_come_out_as_on_one() {
        let player =
            Weighted::<InternationalRules>::new(*tuning::weights::<InternationalRules>(), None);
        let play_one = |g: u32| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(40 + u64::from(g));
            let opening = random_opening::<InternationalRules>(&mut rng, 8);
            let played = play(&player, &player, &opening, Limits::depth(2), 60);
            (played.winner, played.plies, played.quiet)
        };
        let collect = |threads: usize| {
            let mut out = Vec::new();
            in_order(7, threads, play_one, |g, result| {
                out.push((g, result));
                Ok(())
            })
            .expect("no error");
            out
        };
        let one = collect(1);
        assert_eq!(one.len(), 7);
        assert!(one.iter().enumerate().all(|(i, (g, _))| *g as usize == i));
        assert!(one.iter().any(|(_, (_, _, quiet))| !quiet.is_empty()));
        assert_eq!(collect(3), one);
        // An error from the consumer stops the run and is returned.
        let mut seen = 0;
        let stopped = in_order(7, 2, play_one, |_, _| {
            seen += 1;
            if seen == 2 {
                Err("enough".to_string())
            } else {
                Ok(())
            }
        });
        assert_eq!(stopped, Err("enough".to_string()));
        assert_eq!(seen, 2);
    }

    #[test]
    fn the_weights_file_round_trips() {
        for group in Group::ALL {
            let text = weights_text(group, group.weights());
            assert_eq!(parse_weights(&text).unwrap(), *group.weights());
        }
        assert!(parse_weights("[1, 2, 3]").is_err());
    }

    /// Positions with random counts and the results the model with `weights` and `k` gives
    /// them (win rates, not drawn results, so that the fit can be exact).
    fn synthetic(weights: &Weights, k: f64, n: usize) -> Vec<Sample> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        (0..n)
            .map(|i| {
                let mut f = [0; N];
                for c in &mut f {
                    *c = rng.gen_range(-3..=3);
                }
                let mut s = Sample {
                    f,
                    drawish: [rng.gen_bool(0.1), rng.gen_bool(0.1)],
                    result: 0.0,
                    game: i as u32,
                };
                s.result = sigmoid(k * f64::from(s.score(weights)));
                s
            })
            .collect()
    }

    #[test]
    fn the_fit_finds_the_scale_of_known_weights() {
        let w = *Group::International.weights();
        let samples = synthetic(&w, 0.004, 4000);
        let k = fit_k(&samples, &w);
        assert!((k - 0.004).abs() < 0.0002, "{k}");
    }

    #[test]
    fn the_fit_recovers_known_weights() {
        let mut truth = [0; N];
        for (i, t) in truth.iter_mut().enumerate() {
            *t = (i as i32 * 37) % 61 - 30;
        }
        truth[tuning::MAN] = 100;
        let k = 0.004;
        let samples = synthetic(&truth, k, 4000);
        let mut start = [0; N];
        start[tuning::MAN] = 60;
        // The man's weight fitted too, then the unit restored; or kept at 100 from the start.
        let mut kept = start;
        kept[tuning::MAN] = 100;
        let mut man_kept = [true; N];
        man_kept[tuning::MAN] = false;
        for (start, free) in [(start, [true; N]), (kept, man_kept)] {
            assert!(error(&samples, &start, k) > 1e-3);
            let (fitted, k_fitted) = fit_weights(&samples, k, &start, &free, 300, 2.0, 50);
            for i in 0..N {
                assert!(
                    (fitted[i] - truth[i]).abs() <= 1,
                    "{}: {} for {}",
                    NAMES[i],
                    fitted[i],
                    truth[i]
                );
            }
            assert!((k_fitted - k).abs() < 1e-4, "{k_fitted}");
            assert!(error(&samples, &fitted, k_fitted) < 1e-6);
        }
    }

    #[test]
    fn a_weighted_ruleset_plays_as_the_ruleset_with_its_weights() {
        let rules = Draughts::<InternationalRules>::new();
        let same = Weighted::<InternationalRules>::new(
            *tuning::weights::<InternationalRules>(),
            denkmeter_games::draughts::patterns::shipped_for::<InternationalRules>()
                .cloned()
                .map(Arc::new),
        );
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        for plies in [0, 5, 10, 20] {
            let s = random_opening::<InternationalRules>(&mut rng, plies);
            assert_eq!(same.evaluate(&s), rules.evaluate(&s));
            let a = search_with(
                &same,
                &s,
                &SearchOptions::new(Limits::depth(3)),
                &mut |_| {},
            );
            let b = search_with(
                &rules,
                &s,
                &SearchOptions::new(Limits::depth(3)),
                &mut |_| {},
            );
            assert_eq!(a, b);
        }
    }
}
