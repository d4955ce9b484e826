//! `denkmeter`: play, analyse and study rediscovered board games from the command line.

/// Prints a line to standard output; a closed pipe (`denkmeter perft ... | head`) ends the
/// program quietly instead of panicking.
macro_rules! outln {
    () => {
        $crate::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Prints to standard output; see [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::write_out(format_args!($($arg)*))
    };
}

mod analyse;
mod draw;
mod dxp;
mod egtb;
mod hub;
mod lab;
mod list;
mod loadtest;
mod matches;
mod perft;
mod play;
mod puzzles;
mod record;
mod review;
mod rules;
mod serve;
mod solve;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, LazyLock};

use anyhow::{anyhow, bail, Context, Result};
use clap::{Parser, Subcommand};
use denkmeter_engine::dynamic::AnyGame;
use denkmeter_engine::Registry;

#[derive(Debug, Parser)]
#[command(
    name = "denkmeter",
    version,
    about = "Play, analyse and study rediscovered board games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The folder of the draughts endgame databases (`denkmeter egtb generate`): the
    /// search, the analysis and the server use those found there [default: egtb].
    #[arg(long, global = true)]
    egtb: Option<PathBuf>,
}

/// The databases' folder when `--egtb` is not given.
const DEFAULT_EGTB: &str = "egtb";

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the web application (the games are kept in a database).
    Serve(serve::ServeArgs),
    /// Every ruleset with a one-line description.
    List,
    /// The rules page of a ruleset's game.
    Rules { ruleset: String },
    /// The legal moves, one per line, in the game's notation.
    Moves {
        ruleset: String,
        /// A position string (default: the start position).
        #[arg(long)]
        position: Option<String>,
        /// A board file to play on, for games whose board is data (Schada).
        #[arg(long)]
        board: Option<PathBuf>,
        /// After each capture, the cells whose pieces it takes, by name (`37x17 takes d4 d6`):
        /// a capture written by its two ends does not say which pieces it takes.
        #[arg(long)]
        captured: bool,
    },
    /// A position written both ways: its position string, and its FEN where the ruleset has
    /// one (International draughts, English checkers). `--position` takes either.
    Position {
        ruleset: String,
        /// A position string or FEN (default: the start position).
        #[arg(long)]
        position: Option<String>,
        /// A board file to play on, for games whose board is data (Schada).
        #[arg(long)]
        board: Option<PathBuf>,
    },
    /// Count move sequences: one line `DEPTH COUNT` per depth.
    Perft(perft::PerftArgs),
    /// Solve a position near the end exactly: the final score difference under best play,
    /// every best move and a best line.
    ///
    /// The value is White's final score minus Black's when both play their best from here.
    /// Only games whose every line ends after the same number of plies can be solved (the
    /// Straat rulesets). The work, counted in positions searched (printed as `nodes` at the
    /// end), grows about four- to eightfold with each ply more to the end, and depends on the
    /// position: at the default limit of 10 plies it ranges from millions to hundreds of
    /// millions (747 million for one straat-diagonal position with 10 cells empty);
    /// straat-flip has twice the choices a cell. Lower --max-plies to bound it.
    Solve(solve::SolveArgs),
    /// Search a position with alpha-beta: a line per completed depth (depth, score, nodes,
    /// nodes per second, time, principal variation), then the best move.
    ///
    /// Scores are for the side to move, in the game's basic unit (a man or a rook is 1.00), or
    /// "win in N plies" / "loss in N plies" when the search sees the end.
    Analyse(analyse::AnalyseArgs),
    /// Analyse a whole recorded game: every position searched, every move judged, the
    /// inaccuracies, mistakes and blunders listed with the better move (docs/analysis.md).
    AnalyseGame(review::AnalyseGameArgs),
    /// Play a game in the terminal.
    Play(play::PlayArgs),
    /// Work with game records.
    Record {
        #[command(subcommand)]
        command: record::RecordCommand,
    },
    /// An SVG diagram of a position, on standard output.
    Diagram {
        ruleset: String,
        /// A position string (default: the start position).
        #[arg(long)]
        position: Option<String>,
        /// A board file to draw, for games whose board is data (Schada).
        #[arg(long)]
        board: Option<PathBuf>,
        /// Draw the back of a two-sided board (Straat's frame turned over), mirrored.
        #[arg(long)]
        back: bool,
    },
    /// Play two computer players against each other over many games and measure them.
    ///
    /// Each opening (--openings FILE or --random-plies N; by default the start position) is
    /// played twice, once with each player as White. A game still going at --max-plies is won
    /// by a lead in material of at least --adjudicate-margin, else drawn. The summary, from the
    /// first player's side: wins, draws and losses, score, the Elo difference with its 95%
    /// interval, the likelihood of superiority (LOS), draw rate, adjudications and mean
    /// length. --concurrency N plays N games at once with the same results; --pgn FILE keeps
    /// every game's record.
    Match(matches::MatchArgs),
    /// Self-play studies of rulesets: first-player score, draws, length, endings and branching
    /// with 95% intervals, from one process or many workers on one database.
    Lab(lab::LabArgs),
    /// Load-test a server on this machine: WebSocket players, spectators and HTTP readers;
    /// reports moves per second, move and delivery latency, lost and stale views and the
    /// server's memory and threads.
    Loadtest(loadtest::LoadtestArgs),
    /// An engine for draughts GUIs: the Hub protocol (version 2, as documented with Scan 3.1)
    /// on standard input and output, for International draughts and English checkers.
    ///
    /// Commands: hub, set-param name=variant value=international|english (also normal), init,
    /// pos pos=W... [moves="32-28 19-23"], level depth=|nodes=|move-time=|time= [inc=]
    /// [moves=]|infinite, go think|ponder|analyze, ponder-hit, stop, ping, new-game, quit.
    /// Moves are 32-28 and 28x19x23 (start, end, every captured square). Nothing is written
    /// to standard error.
    Hub(hub::HubArgs),
    /// International draughts over DamExchange (DXP), the TCP protocol draughts programs
    /// play each other by.
    ///
    /// `--listen [ADDRESS]` (default 127.0.0.1:27531) waits as the follower, one connection
    /// at a time, and prints `listening ADDRESS` first; `--connect HOST:PORT` asks for one
    /// game as the initiator. Both search for a share of the game's time (--time-minutes for
    /// --moves moves). Messages are at most 1024 bytes; a read waits at most
    /// --read-timeout-secs. Bad messages and illegal moves are logged and end the game with
    /// GAMEEND; taking moves back is not supported.
    Dxp(dxp::DxpArgs),
    /// Draughts endgame databases: build them, look positions up.
    Egtb {
        #[command(subcommand)]
        command: egtb::EgtbCommand,
    },
    /// Puzzles from games: mine them from self-play and records, or prove a puzzle file.
    Puzzles {
        #[command(subcommand)]
        command: puzzles::PuzzlesCommand,
    },
}

/// Writes to standard output, exiting quietly when the reader has gone away.
pub fn write_out(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {error}");
        std::process::exit(1);
    }
}

/// Every ruleset of `denkmeter-games`, built once: the command line's registry, which it hands
/// to the server.
pub fn registry() -> &'static Arc<Registry> {
    static REGISTRY: LazyLock<Arc<Registry>> =
        LazyLock::new(|| Arc::new(Registry::from_list(denkmeter_games::visit_rulesets)));
    &REGISTRY
}

/// The ruleset with this name, on the board of `board` if given (see [`find_ruleset`]). The
/// board is named in records by its file name without the extension.
/// A board file's name (its file name without the extension) and text, read with the size
/// limit.
pub fn read_board_file(path: &Path) -> Result<(String, String)> {
    let size = std::fs::metadata(path)
        .with_context(|| format!("cannot read board file {}", path.display()))?
        .len();
    if size > denkmeter_core::MAX_BOARD_FILE as u64 {
        bail!(
            "board file {} is {size} bytes; the limit is {}",
            path.display(),
            denkmeter_core::MAX_BOARD_FILE
        );
    }
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read board file {}", path.display()))?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "board".to_string());
    Ok((name, text))
}

pub fn find_ruleset_on(name: &str, board: Option<&Path>) -> Result<Arc<dyn AnyGame>> {
    let game = find_ruleset(name)?;
    let Some(path) = board else {
        return Ok(game);
    };
    let (board_name, text) = read_board_file(path)?;
    let on_board = game
        .with_board_file(&board_name, &text)
        .with_context(|| format!("{}", path.display()))?;
    // The default board under another file name is the default board.
    let print = denkmeter_core::board_fingerprint;
    match game.board_file() {
        Some((_, default)) if print(default) == print(&text) => Ok(game),
        _ => Ok(on_board),
    }
}

/// The ruleset with this name, or an error listing the known names.
pub fn find_ruleset(name: &str) -> Result<Arc<dyn AnyGame>> {
    registry().find(name).ok_or_else(|| {
        anyhow!(
            "unknown ruleset {name:?}; known rulesets: {}",
            registry().names().join(", ")
        )
    })
}

impl Command {
    /// The rulesets a command may search, whose endgame databases it installs: `None` for
    /// any.
    fn searched_rulesets(&self) -> Option<Vec<&str>> {
        match self {
            Command::Analyse(args) => Some(vec![args.ruleset()]),
            Command::Play(args) => Some(vec![args.ruleset()]),
            Command::Match(args) => Some(vec![args.ruleset()]),
            Command::Solve(args) => Some(vec![args.ruleset()]),
            Command::Dxp(_) => Some(vec!["international"]),
            Command::Hub(_) => Some(vec!["international", "english"]),
            Command::List
            | Command::Rules { .. }
            | Command::Moves { .. }
            | Command::Position { .. }
            | Command::Perft(_)
            | Command::Diagram { .. }
            | Command::Loadtest(_)
            | Command::Record { .. }
            | Command::Egtb { .. } => Some(Vec::new()),
            _ => None,
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    let egtb_dir = cli
        .egtb
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_EGTB));
    // `egtb` reads its databases itself; its `verify` searches without them.
    let searched = cli.command.searched_rulesets();
    if egtb_dir.is_dir() && !matches!(cli.command, Command::Egtb { .. }) {
        let wanted = |name: &str| searched.as_ref().map_or(true, |list| list.contains(&name));
        for (ruleset, pieces) in denkmeter_games::draughts::egtb::install_only(&egtb_dir, wanted) {
            tracing::info!(
                "endgame databases: {ruleset} up to {pieces} pieces, from {}",
                egtb_dir.display()
            );
        }
    } else if cli.egtb.is_some() && !matches!(cli.command, Command::Egtb { .. }) {
        tracing::warn!(
            "no endgame databases: {} is not a folder (build them with `denkmeter egtb generate`)",
            egtb_dir.display()
        );
    }
    match cli.command {
        Command::Serve(args) => serve::run(&args),
        Command::List => list::run(),
        Command::Rules { ruleset } => rules::run(&ruleset),
        Command::Moves {
            ruleset,
            position,
            board,
            captured,
        } => perft::moves(&ruleset, position.as_deref(), board.as_deref(), captured),
        Command::Position {
            ruleset,
            position,
            board,
        } => perft::position(&ruleset, position.as_deref(), board.as_deref()),
        Command::Perft(args) => perft::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Analyse(args) => analyse::run(&args),
        Command::AnalyseGame(args) => review::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Record { command } => record::run(&command),
        Command::Diagram {
            ruleset,
            position,
            board,
            back,
        } => perft::diagram(&ruleset, position.as_deref(), board.as_deref(), back),
        Command::Match(args) => matches::run(&args),
        Command::Lab(args) => lab::run(&args),
        Command::Loadtest(args) => loadtest::run(&args),
        Command::Hub(args) => hub::run(&args),
        Command::Dxp(args) => dxp::run(&args),
        Command::Puzzles { command } => puzzles::run(&command),
        Command::Egtb { command } => egtb::run(&command, &egtb_dir),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // A Hub engine's standard error reaches the GUI as protocol lines (pydraughts merges it
    // into standard output), so nothing is logged there.
    if !matches!(cli.command, Command::Hub(_)) {
        tracing_subscriber::fmt()
            .with_env_filter(
                tracing_subscriber::EnvFilter::try_from_default_env()
                    .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
            )
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init();
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
