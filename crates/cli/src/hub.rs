//! `denkmeter hub`: an engine speaking the Hub protocol (version 2, as documented with Scan 3.1)
//! on standard input and output, for International draughts and English checkers.
//!
//! Standard input is read on the main thread; a search runs on a thread of its own and writes
//! its `info` lines and its one `done` line itself, so that `stop`, `ping` and `ponder-hit` are
//! answered while it runs; any other command ends the search first (it writes its `done` at
//! once), then is carried out, as in Scan. Every line written is flushed at once. Nothing is
//! written to standard error: GUIs such as pydraughts read it as protocol lines.
//!
//! The position and move formats are in `denkmeter_games::draughts` (`parse_hub_position`,
//! `hub_move`, `parse_hub_move`). A `pos` is read literally: `W` is the side with the light
//! pieces (the second player in English checkers).

use std::io::{BufRead, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use denkmeter_core::Game;
use denkmeter_engine::search::{
    eval, search_with_table, DepthReport, SearchOptions, SearchResult, SearchTable,
};
use denkmeter_engine::{Limits, TimeLeft, TimePlan, MAX_DEPTH};
use denkmeter_games::draughts::{Draughts, EnglishRules, InternationalRules, Move, State, Variant};

/// The longest input line read; a longer one is skipped with an error.
const MAX_LINE_BYTES: usize = 64 * 1024;
/// The most moves a `pos` command may replay (a whole game is far fewer).
const MAX_POS_MOVES: usize = 8192;
/// The longest error message written, in characters.
const MAX_ERROR_CHARS: usize = 300;
/// The most seconds a `level` accepts for any time.
const MAX_LEVEL_SECONDS: f64 = 1_000_000.0;
/// The largest `level nodes=`.
const MAX_LEVEL_NODES: u64 = 1_000_000_000_000;
/// The largest `level moves=` (moves to the next time control).
const MAX_MOVES_TO_GO: u32 = 1000;

/// A search's time when `go think` (or a `ponder-hit`) comes with no limit at all.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);
/// Kept back from the time left, for the GUI's reading and writing of the lines.
const TIME_SAFETY_MARGIN: Duration = Duration::from_millis(50);
/// The least time given to a move while the time left allows it.
const MIN_MOVE_TIME: Duration = Duration::from_millis(10);

/// A won game's score in hundredths of a man, less one per ply to the end (Scan writes about
/// 99.xx for the end of the game): a win in 7 plies is `99.93`.
const WIN_SCORE_HUNDREDTHS: i32 = 10_000;
/// The most plies taken off [`WIN_SCORE_HUNDREDTHS`]: a win further away is `99.01`.
const MAX_PLIES_IN_WIN_SCORE: i32 = 99;
/// The largest score of an unfinished game (89.99 men), so that it never reads as a win
/// (pydraughts takes scores above 90.00 as one).
const MAX_PLAIN_SCORE_HUNDREDTHS: i32 = 8_999;

const ENGINE_NAME: &str = "denkmeter";
const ENGINE_AUTHOR: &str = "Denkmeter";

/// The rulesets the engine plays, as the `variant` parameter names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HubRuleset {
    /// International draughts, 10x10, squares 1-50 (also `normal`, Scan's name).
    International,
    /// English checkers, 8x8, squares 1-32.
    English,
}

impl HubRuleset {
    fn name(self) -> &'static str {
        match self {
            HubRuleset::International => "international",
            HubRuleset::English => "english",
        }
    }

    /// The ruleset a `set-param name=variant` value names.
    fn from_param(value: &str) -> Option<HubRuleset> {
        match value {
            "international" | "normal" | "standard" => Some(HubRuleset::International),
            "english" => Some(HubRuleset::English),
            _ => None,
        }
    }
}

#[derive(Debug, Args)]
pub struct HubArgs {
    /// The variant at the start; a GUI may change it with `set-param name=variant` before a
    /// search.
    #[arg(long, value_enum, default_value_t = HubRuleset::International)]
    ruleset: HubRuleset,
}

/// Runs the protocol until `quit` or the end of standard input.
pub fn run(args: &HubArgs) -> Result<()> {
    // A panic's message would go to standard error; the GUI hears of it as a protocol error.
    std::panic::set_hook(Box::new(|info| {
        send_error(&format!("internal error: {info}"));
    }));
    let mut session = Session::new(args.ruleset);
    let mut input = std::io::stdin().lock();
    loop {
        match read_line(&mut input) {
            Input::End => break,
            Input::TooLong => send_error(&format!("line longer than {MAX_LINE_BYTES} bytes")),
            Input::Line(text) => {
                if session.handle(&text) == Flow::Quit {
                    break;
                }
            }
        }
    }
    session.end_search();
    Ok(())
}

// ---------------------------------------------------------------- reading lines

enum Input {
    Line(String),
    TooLong,
    End,
}

/// The next line without its line ending; a read error counts as the end of the input.
fn read_line(input: &mut impl BufRead) -> Input {
    let mut bytes = Vec::new();
    let limit = MAX_LINE_BYTES as u64 + 1;
    match Read::take(&mut *input, limit).read_until(b'\n', &mut bytes) {
        Ok(0) | Err(_) => return Input::End,
        Ok(_) => {}
    }
    if bytes.last() != Some(&b'\n') && bytes.len() > MAX_LINE_BYTES {
        // Skip the rest of the long line, a bounded piece at a time.
        loop {
            let mut rest = Vec::new();
            match Read::take(&mut *input, limit).read_until(b'\n', &mut rest) {
                Ok(0) | Err(_) => break,
                Ok(_) if rest.last() == Some(&b'\n') => break,
                Ok(_) => {}
            }
        }
        return Input::TooLong;
    }
    while matches!(bytes.last(), Some(b'\n' | b'\r')) {
        bytes.pop();
    }
    Input::Line(String::from_utf8_lossy(&bytes).into_owned())
}

/// One protocol line: `command name=value name="a value" flag ...`.
#[derive(Debug, PartialEq, Eq)]
struct Line {
    command: String,
    /// Each argument with its value; a flag has none.
    args: Vec<(String, Option<String>)>,
}

impl Line {
    /// The value of argument `name` (the first if it is given twice); "" for a flag.
    fn value(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(n, _)| n == name)
    }

    /// The value of an argument that must be there.
    fn required(&self, name: &str) -> Result<&str> {
        self.value(name)
            .ok_or_else(|| anyhow!("{} needs {name}=", self.command))
    }
}

/// Splits a line into its command and arguments; `None` for a blank line. A value is quoted
/// with `"` when it holds spaces; there is no escape inside quotes.
fn parse_line(text: &str) -> Result<Option<Line>> {
    let mut rest = text.trim_start();
    let mut words = Vec::new();
    while !rest.is_empty() {
        let name_end = rest
            .find(|c: char| c.is_whitespace() || c == '=' || c == '"')
            .unwrap_or(rest.len());
        let name = &rest[..name_end];
        if name.is_empty() {
            bail!("expected a name at {:?}", truncated(rest));
        }
        rest = &rest[name_end..];
        let value = if let Some(after) = rest.strip_prefix('=') {
            if let Some(quoted) = after.strip_prefix('"') {
                let close = quoted
                    .find('"')
                    .ok_or_else(|| anyhow!("the value of {name} has no closing quote"))?;
                rest = &quoted[close + 1..];
                Some(quoted[..close].to_string())
            } else {
                let end = after
                    .find(|c: char| c.is_whitespace() || c == '"' || c == '=')
                    .unwrap_or(after.len());
                rest = &after[end..];
                Some(after[..end].to_string())
            }
        } else {
            None
        };
        if rest.starts_with(|c: char| !c.is_whitespace()) {
            bail!("expected a space after {name}");
        }
        words.push((name.to_string(), value));
        rest = rest.trim_start();
    }
    let mut words = words.into_iter();
    let Some((command, value)) = words.next() else {
        return Ok(None);
    };
    if value.is_some() {
        bail!("a line starts with a command, not {command}=");
    }
    Ok(Some(Line {
        command,
        args: words.collect(),
    }))
}

// ---------------------------------------------------------------- writing lines

/// `error message="..."`: the GUI goes on, and so does the engine.
fn send_error(message: &str) {
    outln!("error message=\"{}\"", quotable(message));
}

/// `text` made fit for a quoted value: no quotes or line breaks, at most
/// [`MAX_ERROR_CHARS`] characters.
fn quotable(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .take(MAX_ERROR_CHARS)
        .collect()
}

fn truncated(text: &str) -> String {
    text.chars().take(40).collect()
}

/// A score for the side to move in men with two decimals: `0.25`, `-1.07`, `99.93` for a win
/// in 7 plies, `-99.94` for a loss in 6.
fn hub_score(score: i32) -> String {
    let hundredths = if eval::is_decisive(score) {
        let plies = (eval::WIN - score.abs()).clamp(0, MAX_PLIES_IN_WIN_SCORE);
        (WIN_SCORE_HUNDREDTHS - plies) * score.signum()
    } else {
        score.clamp(-MAX_PLAIN_SCORE_HUNDREDTHS, MAX_PLAIN_SCORE_HUNDREDTHS)
    };
    let sign = if hundredths < 0 { "-" } else { "" };
    let abs = hundredths.abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// The moves in Hub form, separated by spaces.
fn hub_line<V: Variant>(game: &Draughts<V>, moves: &[Move]) -> String {
    moves
        .iter()
        .map_while(|&mv| game.hub_move(mv))
        .collect::<Vec<_>>()
        .join(" ")
}

fn info_line<V: Variant>(game: &Draughts<V>, report: &DepthReport<Move>) -> String {
    let seconds = report.elapsed.as_secs_f64();
    let mnps = report.nodes as f64 / seconds.max(1e-6) / 1e6;
    format!(
        "info depth={} score={} nodes={} time={seconds:.3} nps={mnps:.2} pv=\"{}\"",
        report.depth,
        hub_score(report.score),
        report.nodes,
        hub_line(game, &report.pv)
    )
}

/// `done move=X ponder=Y`, `move` first; the ponder move only if it is legal after `X`.
fn done_line<V: Variant>(game: &Draughts<V>, state: &State, result: &SearchResult<Move>) -> String {
    let Some(best) = game.hub_move(result.best) else {
        return "done".to_string();
    };
    let mut after = state.clone();
    game.play_unchecked(&mut after, result.best);
    let mut replies = Vec::new();
    game.legal_moves(&after, &mut replies);
    let ponder = result
        .pv
        .get(1)
        .filter(|reply| replies.contains(reply))
        .and_then(|&reply| game.hub_move(reply));
    match ponder {
        Some(ponder) => format!("done move={best} ponder={ponder}"),
        None => format!("done move={best}"),
    }
}

// ---------------------------------------------------------------- limits

/// What `level` commands asked for since the last `pos` or search.
#[derive(Clone, Debug, Default, PartialEq)]
struct Level {
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time: Option<Duration>,
    clock: Option<ClockLevel>,
    infinite: bool,
}

/// `level [moves=N] time=S [inc=S]`: the time left, and the increment each move earns (not
/// counted on for the move being searched). `denkmeter dxp` shares its game's time with the
/// same [`move_plan`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ClockLevel {
    pub(crate) time: Duration,
    pub(crate) increment: Duration,
    pub(crate) moves_to_go: Option<u32>,
}

/// The time to plan for one move after `moves_played` of the engine's own moves, by the
/// engine's time manager ([`TimeLeft::plan`]: about a share of the time left plus most of
/// the increment, more when the search is unsure), never more than the time left minus
/// [`TIME_SAFETY_MARGIN`], and at least [`MIN_MOVE_TIME`] while that much is left.
pub(crate) fn move_plan(clock: &ClockLevel, moves_played: u32) -> TimePlan {
    let ceiling = clock.time.saturating_sub(TIME_SAFETY_MARGIN);
    let plan = TimeLeft {
        left: ceiling,
        increment: clock.increment,
        moves_to_go: clock.moves_to_go,
        moves_played,
    }
    .plan();
    let least = MIN_MOVE_TIME.min(ceiling);
    TimePlan {
        target: plan.target.max(least),
        most: plan.most.max(least),
    }
}

/// Seconds as a `level` gives them: a real number from 0 to [`MAX_LEVEL_SECONDS`].
fn seconds(name: &str, text: &str) -> Result<Duration> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && (0.0..=MAX_LEVEL_SECONDS).contains(s))
        .map(Duration::from_secs_f64)
        .ok_or_else(|| anyhow!("{name}={text}: expected seconds from 0 to {MAX_LEVEL_SECONDS}"))
}

fn whole<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    name: &str,
    text: &str,
    least: T,
    most: T,
) -> Result<T> {
    text.parse::<T>()
        .ok()
        .filter(|n| *n >= least && *n <= most)
        .ok_or_else(|| anyhow!("{name}={text}: expected a whole number from {least} to {most}"))
}

/// How a search was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Think,
    Ponder,
    Analyze,
}

/// The search's own limits after `moves_played` of the engine's own moves, and for a ponder
/// search the time it gets after `ponder-hit` (the planned time, as a fixed time: a search
/// that has pondered is well on already).
fn search_limits(level: &Level, mode: Mode, moves_played: u32) -> (Limits, Option<Duration>) {
    let plan = match (level.move_time, &level.clock) {
        (Some(time), _) => Some(TimePlan {
            target: time,
            most: time,
        }),
        (None, Some(clock)) => Some(move_plan(clock, moves_played)),
        (None, None) => None,
    };
    let unlimited = Limits::depth(MAX_DEPTH);
    let nothing_set = level.depth.is_none() && level.nodes.is_none() && plan.is_none();
    if level.infinite || (mode == Mode::Analyze && nothing_set) {
        return (unlimited, None);
    }
    let plan = if nothing_set {
        Some(TimePlan {
            target: DEFAULT_MOVE_TIME,
            most: DEFAULT_MOVE_TIME,
        })
    } else {
        plan
    };
    // A fixed time per move (`move-time=`) is spent as such; a clock's time is managed when
    // the engine thinks of its move (an analysis spends it all).
    let managed = mode == Mode::Think && level.move_time.is_none() && level.clock.is_some();
    let limits = Limits {
        depth: level.depth,
        nodes: level.nodes,
        time: plan.map(|p| p.most),
        target: plan.filter(|_| managed).map(|p| p.target),
    };
    match mode {
        // Until ponder-hit the search is not on the clock: the depth and nodes limits only.
        Mode::Ponder => (
            Limits {
                depth: level.depth.or(Some(MAX_DEPTH)),
                nodes: level.nodes,
                time: None,
                target: None,
            },
            plan.map(|p| p.target),
        ),
        Mode::Think | Mode::Analyze => (limits, None),
    }
}

// ---------------------------------------------------------------- the session

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The position to search: the state after `moves`, and the repetition hashes of the
/// positions before it, oldest first.
struct Setup {
    state: State,
    history: Vec<u64>,
}

struct RunningSearch {
    stop: Arc<AtomicBool>,
    /// The search, which gives the table back when it ends.
    thread: JoinHandle<SearchTable>,
    /// For `go ponder`: the time the search gets once `ponder-hit` comes.
    ponder_budget: Option<Duration>,
}

struct Session {
    ruleset: HubRuleset,
    hash_mb: usize,
    threads: usize,
    position: Option<Setup>,
    /// Whether the last pos was refused (the position is then unknown, not the start).
    bad_position: bool,
    /// The transposition table, kept from one search to the next and made before any search
    /// (at `hash` and `init`), so that no search spends its time on it; `None` while a search
    /// has it.
    table: Option<SearchTable>,
    level: Level,
    search: Option<RunningSearch>,
}

impl Session {
    fn new(ruleset: HubRuleset) -> Session {
        Session {
            ruleset,
            hash_mb: SearchOptions::DEFAULT_HASH_MB,
            threads: 1,
            position: None,
            bad_position: false,
            table: None,
            level: Level::default(),
            search: None,
        }
    }

    /// The start position of the ruleset in play.
    fn start(&self) -> Result<Setup> {
        let (setup, _) = match self.ruleset {
            HubRuleset::International => replay::<InternationalRules>(None, &[])?,
            HubRuleset::English => replay::<EnglishRules>(None, &[])?,
        };
        Ok(setup)
    }

    fn handle(&mut self, text: &str) -> Flow {
        let line = match parse_line(text) {
            Ok(Some(line)) => line,
            Ok(None) => return Flow::Continue,
            Err(error) => {
                send_error(&format!("{error:#}"));
                return Flow::Continue;
            }
        };
        if self
            .search
            .as_ref()
            .is_some_and(|search| search.thread.is_finished())
        {
            self.end_search();
        }
        let outcome = match line.command.as_str() {
            "ping" => {
                outln!("pong");
                Ok(())
            }
            "stop" => {
                if let Some(search) = &self.search {
                    search.stop.store(true, Ordering::Relaxed);
                }
                Ok(())
            }
            "ponder-hit" => self.ponder_hit(),
            "quit" => return Flow::Quit,
            command => {
                // Any other command ends a search still running, as in Scan: the search stops
                // now, writes its `done`, and then the command is carried out. Waiting for a
                // bounded search to end by itself would stop reading input for as long as it
                // runs (`level move-time=1000000`), and `stop` or `quit` would go unheard.
                self.end_search();
                match command {
                    "hub" => {
                        self.announce();
                        Ok(())
                    }
                    "set-param" => self.set_param(&line),
                    "init" => {
                        self.table = Some(SearchTable::new(self.hash_mb));
                        outln!("ready");
                        Ok(())
                    }
                    "new-game" => {
                        // The next game starts from the start until a pos says otherwise. The
                        // table stays: its entries age out as new searches store theirs, and
                        // building a new one would delay the next go.
                        self.level = Level::default();
                        self.bad_position = false;
                        self.start().map(|start| self.position = Some(start))
                    }
                    "pos" => self.set_position(&line),
                    "level" => self.set_level(&line),
                    "go" => self.go(&line),
                    other => Err(anyhow!("unknown command {:?}", truncated(other))),
                }
            }
        };
        if let Err(error) = outcome {
            send_error(&format!("{error:#}"));
        }
        Flow::Continue
    }

    /// Stops the running search, if any, and waits for its `done`.
    fn end_search(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop.store(true, Ordering::Relaxed);
            match search.thread.join() {
                Ok(table) => self.table = Some(table),
                Err(_) => send_error("the search failed"),
            }
        }
    }

    fn announce(&self) {
        let values = [HubRuleset::International, HubRuleset::English]
            .map(HubRuleset::name)
            .join(" ");
        outln!(
            "id name={ENGINE_NAME} version={} author={ENGINE_AUTHOR}",
            env!("CARGO_PKG_VERSION")
        );
        outln!(
            "param name=variant value={} type=enum values=\"{values}\"",
            self.ruleset.name()
        );
        outln!(
            "param name=hash value={} type=int min=1 max={}",
            self.hash_mb,
            SearchOptions::MAX_HASH_MB
        );
        outln!(
            "param name=threads value={} type=int min=1 max={}",
            self.threads,
            SearchOptions::MAX_THREADS
        );
        outln!("wait");
    }

    fn set_param(&mut self, line: &Line) -> Result<()> {
        let name = line.required("name")?;
        let value = line.required("value")?;
        match name {
            "variant" => {
                let ruleset = HubRuleset::from_param(value).ok_or_else(|| {
                    anyhow!("unknown variant {value:?}; expected international or english")
                })?;
                if ruleset != self.ruleset {
                    self.ruleset = ruleset;
                    self.position = None;
                }
            }
            "hash" => {
                self.hash_mb = whole("hash", value, 1, SearchOptions::MAX_HASH_MB)?;
                self.table = Some(SearchTable::new(self.hash_mb));
            }
            "threads" => {
                self.threads = whole("threads", value, 1, SearchOptions::MAX_THREADS)?;
            }
            other => bail!("unknown parameter {:?}", truncated(other)),
        }
        Ok(())
    }

    fn set_position(&mut self, line: &Line) -> Result<()> {
        self.level = Level::default();
        self.position = None;
        self.bad_position = true;
        // Without pos= (or with the start flag alone) the search starts from the start.
        let pos = line.value("pos");
        let moves: Vec<&str> = line
            .value("moves")
            .unwrap_or("")
            .split_whitespace()
            .collect();
        if moves.len() > MAX_POS_MOVES {
            bail!("more than {MAX_POS_MOVES} moves");
        }
        let (setup, bad_move) = match self.ruleset {
            HubRuleset::International => replay::<InternationalRules>(pos, &moves)?,
            HubRuleset::English => replay::<EnglishRules>(pos, &moves)?,
        };
        // As Scan does: the position stands as far as the moves could be played.
        self.position = Some(setup);
        self.bad_position = false;
        match bad_move {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    fn set_level(&mut self, line: &Line) -> Result<()> {
        let mut level = self.level.clone();
        let mut understood = false;
        if line.has("infinite") {
            level.infinite = true;
            understood = true;
        }
        if let Some(text) = line.value("depth") {
            level.depth = Some(whole("depth", text, 1, MAX_DEPTH)?);
            understood = true;
        }
        if let Some(text) = line.value("nodes") {
            level.nodes = Some(whole("nodes", text, 1, MAX_LEVEL_NODES)?);
            understood = true;
        }
        if let Some(text) = line.value("move-time") {
            level.move_time = Some(seconds("move-time", text)?);
            understood = true;
        }
        match line.value("time") {
            Some(text) => {
                level.clock = Some(ClockLevel {
                    time: seconds("time", text)?,
                    increment: line
                        .value("inc")
                        .map(|inc| seconds("inc", inc))
                        .transpose()?
                        .unwrap_or(Duration::ZERO),
                    moves_to_go: line
                        .value("moves")
                        .map(|moves| whole("moves", moves, 1, MAX_MOVES_TO_GO))
                        .transpose()?,
                });
                understood = true;
            }
            None if line.has("inc") || line.has("moves") => {
                bail!("level: inc= and moves= need time=")
            }
            None => {}
        }
        if !understood {
            bail!("level: expected depth=, nodes=, move-time=, time= or infinite");
        }
        self.level = level;
        Ok(())
    }

    fn go(&mut self, line: &Line) -> Result<()> {
        let mode = if line.has("ponder") {
            Mode::Ponder
        } else if line.has("analyze") || line.has("analyse") {
            Mode::Analyze
        } else {
            Mode::Think
        };
        if self.position.is_none() && !self.bad_position {
            // Before any pos (as after new-game), as Scan does: from the start.
            self.position = Some(self.start()?);
        }
        let Some(setup) = self.position.as_ref() else {
            // A bad pos left no position: say so, and still end the search with a done, so
            // that a program waiting for one does not wait forever.
            send_error("no position: the last pos was refused");
            outln!("done");
            return Ok(());
        };
        // As Scan does, the level holds for one search.
        let level = std::mem::take(&mut self.level);
        let moves_played = u32::try_from(setup.history.len() / 2).unwrap_or(u32::MAX);
        let (limits, ponder_budget) = search_limits(&level, mode, moves_played);
        let stop = Arc::new(AtomicBool::new(false));
        if let Some(time) = limits.time {
            stop_after(&stop, time)?;
        }
        let options = SearchOptions {
            threads: self.threads,
            hash_mb: self.hash_mb,
            history: setup.history.clone(),
            stop: Some(stop.clone()),
            ..SearchOptions::new(limits)
        };
        let state = setup.state.clone();
        let hash_mb = self.hash_mb;
        let table = self
            .table
            .take()
            .filter(|t| t.megabytes() == hash_mb)
            .unwrap_or_else(|| SearchTable::new(hash_mb));
        let thread = match self.ruleset {
            HubRuleset::International => spawn_search::<InternationalRules>(state, options, table),
            HubRuleset::English => spawn_search::<EnglishRules>(state, options, table),
        }?;
        self.search = Some(RunningSearch {
            stop,
            thread,
            ponder_budget,
        });
        Ok(())
    }

    /// The pondering search is now on the clock: it stops after its time.
    fn ponder_hit(&mut self) -> Result<()> {
        let Some(search) = &mut self.search else {
            return Ok(());
        };
        let Some(budget) = search.ponder_budget.take() else {
            return Ok(());
        };
        stop_after(&search.stop, budget)
    }
}

/// Sets `stop` once `budget` has passed from now: a deadline counted from the command, so that
/// what comes before the search's own clock (setting up its table) is on the clock too.
fn stop_after(stop: &Arc<AtomicBool>, budget: Duration) -> Result<()> {
    let flag = stop.clone();
    let timer = std::thread::Builder::new()
        .name("hub-deadline".to_string())
        .spawn(move || {
            std::thread::sleep(budget);
            flag.store(true, Ordering::Relaxed);
        });
    if timer.is_err() {
        stop.store(true, Ordering::Relaxed);
        bail!("cannot start the search's deadline; stopping now");
    }
    Ok(())
}

/// The position of a `pos` command (the start position without one) with `moves` played, and
/// the error of the first move that could not be played, if any.
fn replay<V: Variant>(pos: Option<&str>, moves: &[&str]) -> Result<(Setup, Option<anyhow::Error>)> {
    let game = Draughts::<V>::new();
    let mut state = match pos {
        Some(text) => game
            .parse_hub_position(text)
            .with_context(|| format!("bad position {:?}", truncated(text)))?,
        None => game.start(),
    };
    let mut history = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let mv = match game.parse_hub_move(&state, text) {
            Ok(mv) => mv,
            Err(error) => {
                let error = anyhow!(error).context(format!("bad move {} in moves", i + 1));
                return Ok((Setup { state, history }, Some(error)));
            }
        };
        history.push(game.repetition_hash(&state));
        game.play_unchecked(&mut state, mv);
    }
    Ok((Setup { state, history }, None))
}

/// Starts the search of `state` on a thread of its own, which writes the `info` lines and the
/// `done` line.
fn spawn_search<V: Variant>(
    state: State,
    options: SearchOptions,
    mut table: SearchTable,
) -> Result<JoinHandle<SearchTable>> {
    std::thread::Builder::new()
        .name("hub-search".to_string())
        .spawn(move || {
            let game = Draughts::<V>::new();
            let result = search_with_table(&game, &state, &options, &mut table, &mut |report| {
                outln!("{}", info_line(&game, report));
            });
            match result {
                Some(result) => outln!("{}", done_line(&game, &state, &result)),
                None => {
                    send_error("no legal move: the game is over");
                    outln!("done");
                }
            }
            table
        })
        .context("cannot start the search thread")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        parse_line(text).expect("well formed").expect("not blank")
    }

    #[test]
    fn lines_split_into_command_and_arguments() {
        let pos = line(r#"pos pos=Wbe moves="32-28 19-23" start"#);
        assert_eq!(pos.command, "pos");
        assert_eq!(pos.value("pos"), Some("Wbe"));
        assert_eq!(pos.value("moves"), Some("32-28 19-23"));
        assert_eq!(pos.value("start"), Some(""));
        assert!(pos.has("start") && !pos.has("level"));
        let empty = line(r#"  set-param   name=x value=""  "#);
        assert_eq!(empty.value("value"), Some(""));
        assert_eq!(parse_line("   ").expect("blank"), None);
        for bad in [
            r#"pos moves="32-28"#,
            "=x",
            "pos=x",
            r#"pos moves="a"b"#,
            "level depth==3",
        ] {
            assert!(parse_line(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn scores_are_in_men_and_wins_near_a_hundred() {
        assert_eq!(hub_score(25), "0.25");
        assert_eq!(hub_score(-107), "-1.07");
        assert_eq!(hub_score(-1), "-0.01");
        assert_eq!(hub_score(0), "0.00");
        assert_eq!(hub_score(eval::WIN - 7), "99.93");
        assert_eq!(hub_score(-(eval::WIN - 6)), "-99.94");
        assert_eq!(hub_score(eval::WIN - 500), "99.01");
        assert_eq!(hub_score(20_000), "89.99");
    }

    #[test]
    fn the_clock_gives_a_share_and_keeps_a_margin() {
        let clock = |time: f64, inc: f64, moves: Option<u32>| ClockLevel {
            time: Duration::from_secs_f64(time),
            increment: Duration::from_secs_f64(inc),
            moves_to_go: moves,
        };
        let close = |a: Duration, b: f64| (a.as_secs_f64() - b).abs() < 1e-6;
        // 60 s less the margin and the reserve (0.3 s), over 35 moves at the start of a game;
        // at most four times that.
        let plan = move_plan(&clock(60.0, 0.0, None), 0);
        assert!(close(plan.target, 59.65 / 35.0), "{plan:?}");
        assert!(close(plan.most, 4.0 * 59.65 / 35.0), "{plan:?}");
        // Later in the game the time is planned for fewer moves, never fewer than 20.
        let later = move_plan(&clock(60.0, 0.0, None), 20);
        assert!(close(later.target, 59.65 / 25.0), "{later:?}");
        let late = move_plan(&clock(60.0, 0.0, None), 200);
        assert!(close(late.target, 59.65 / 20.0), "{late:?}");
        // Three quarters of the increment on top.
        let plan = move_plan(&clock(60.0, 1.0, None), 0);
        assert!(close(plan.target, 59.65 / 35.0 + 0.75), "{plan:?}");
        // Five moves to the control: a fifth each, at most 30 % of the time on one.
        let plan = move_plan(&clock(10.0, 0.0, Some(5)), 0);
        assert!(close(plan.target, 9.65 / 5.0), "{plan:?}");
        assert!(close(plan.most, 9.65 * 0.3), "{plan:?}");
        // The last move before the control: half of the time as the plan, 80 % at most.
        let plan = move_plan(&clock(1.0, 0.0, Some(1)), 0);
        assert!(close(plan.target, 0.9025 / 2.0), "{plan:?}");
        assert!(close(plan.most, 0.9025 * 0.8), "{plan:?}");
        // Almost no time: never more than is left.
        let plan = move_plan(&clock(0.02, 0.0, None), 0);
        assert_eq!((plan.target, plan.most), (Duration::ZERO, Duration::ZERO));
        let plan = move_plan(&clock(0.055, 0.0, None), 0);
        assert!(close(plan.most, 0.005), "{plan:?}");
        for time in [0.05, 0.1, 0.5, 1.0, 5.0, 60.0, 600.0] {
            for moves in [None, Some(1), Some(2), Some(40)] {
                let plan = move_plan(&clock(time, 0.5, moves), 10);
                assert!(plan.target <= plan.most, "{time} {moves:?}: {plan:?}");
                assert!(
                    plan.most.as_secs_f64() <= time - 0.05 + 1e-9,
                    "{time}: {plan:?}"
                );
            }
        }
    }

    #[test]
    fn limits_follow_the_level_and_the_mode() {
        let depth = Level {
            depth: Some(5),
            ..Level::default()
        };
        assert_eq!(
            search_limits(&depth, Mode::Think, 0),
            (Limits::depth(5), None)
        );
        let none = Level::default();
        assert_eq!(
            search_limits(&none, Mode::Think, 0),
            (Limits::time(DEFAULT_MOVE_TIME), None)
        );
        assert_eq!(
            search_limits(&none, Mode::Analyze, 0),
            (Limits::depth(MAX_DEPTH), None)
        );
        let infinite = Level {
            infinite: true,
            ..Level::default()
        };
        assert_eq!(
            search_limits(&infinite, Mode::Think, 0),
            (Limits::depth(MAX_DEPTH), None)
        );
        let timed = Level {
            move_time: Some(Duration::from_millis(300)),
            ..Level::default()
        };
        assert_eq!(
            search_limits(&timed, Mode::Ponder, 0),
            (Limits::depth(MAX_DEPTH), Some(Duration::from_millis(300)))
        );
        // A fixed time per move is a hard limit alone; a clock's time is planned.
        assert_eq!(
            search_limits(&timed, Mode::Think, 0).0,
            Limits::time(Duration::from_millis(300))
        );
        let clocked = Level {
            clock: Some(ClockLevel {
                time: Duration::from_secs(60),
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Level::default()
        };
        let plan = move_plan(clocked.clock.as_ref().unwrap(), 3);
        let (limits, ponder) = search_limits(&clocked, Mode::Think, 3);
        assert_eq!(
            (limits.target, limits.time),
            (Some(plan.target), Some(plan.most))
        );
        assert_eq!(ponder, None);
        let (limits, _) = search_limits(&clocked, Mode::Analyze, 3);
        assert_eq!((limits.target, limits.time), (None, Some(plan.most)));
        let (limits, ponder) = search_limits(&clocked, Mode::Ponder, 3);
        assert_eq!((limits.target, limits.time), (None, None));
        assert_eq!(ponder, Some(plan.target));
    }
}
