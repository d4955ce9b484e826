//! `denkmeter match`: two computer players over many games.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use denkmeter_engine::matches::{
    match_openings, parse_openings, play_match, MatchClock, MatchConfig, Openings,
};
use denkmeter_engine::Agent;
use indicatif::{ProgressBar, ProgressStyle};

/// The largest openings file read, in bytes.
const MAX_OPENINGS_FILE: u64 = 16 * 1024 * 1024;

#[derive(Debug, Args)]
pub struct MatchArgs {
    ruleset: String,
    /// The first player: random, computer, computer:LEVEL, mcts:LIMITS, ismcts:LIMITS (hidden games) or ab:LIMITS (e.g. mcts:2000,
    /// ab:6, ab:d8,1.5s; ab:0.5s,no-egtb searches without the endgame databases). The report is
    /// from its side.
    #[arg(long)]
    first: String,
    /// The second player.
    #[arg(long, default_value = "random")]
    second: String,
    /// A board file to play on, for games whose board is data (Schada).
    #[arg(long)]
    board: Option<PathBuf>,
    /// Number of games [default: 20, or twice the number of openings in --openings]. With
    /// --openings or --random-plies it must be even: games 2k and 2k+1 play opening k, the
    /// first player White in 2k and Black in 2k+1 (a list of openings starts over when the
    /// games outnumber it). From the start position the players alternate colours.
    #[arg(long)]
    games: Option<u32>,
    /// Start the games from these positions: one position string a line; blank lines and
    /// lines starting with # are skipped.
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    openings: Option<PathBuf>,
    /// Start each pair of games from N uniformly random legal plies from the start, drawn from
    /// the seed (openings in which the game ends are drawn again).
    #[arg(long, value_name = "N")]
    random_plies: Option<u32>,
    /// With --random-plies: keep only openings that a short alpha-beta search (100,000 nodes)
    /// scores within MARGIN hundredths of the game's basic piece of even, drawing others again.
    /// In a sharp game a few random plies often lose a piece, and the pair of games from such
    /// an opening goes to whoever has the lucky colour.
    #[arg(long, value_name = "MARGIN", requires = "random_plies")]
    balanced: Option<u32>,
    /// Games still going after this many plies (from their opening) are adjudicated: on
    /// material (see --adjudicate-margin), or a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// At --max-plies, a side ahead in material by at least this much, in hundredths of the
    /// game's basic piece (a man, a rook, a warrior...), wins; less is a draw, as is every
    /// game without material (Straat, Trangalla).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
    adjudicate_margin: u32,
    /// Games played at once, each on its own thread. The results are the same for any number
    /// whenever the players' limits do not depend on the clock (iterations or depth, not time;
    /// the computer's levels stop at a time limit too).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    concurrency: u32,
    /// Append every game's record to this file (PGN-style; Round is the game's number, White
    /// and Black the players, Position the opening when it is not the start).
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Seeds the players' choices and the random openings; game i is seeded by SEED + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play on a clock: SECONDS for each player's game, and +INCREMENT seconds earned with
    /// every move (e.g. 60+0.5, or 120). Alpha-beta plans each move's time by the engine's
    /// time manager; the other searches spend its planned time. A player's own time limit
    /// (ab:2s) still bounds a move: give the players no time limit (ab:d64, computer levels
    /// aside) to let the clock decide. A player whose time runs out loses.
    #[arg(long, value_name = "SECONDS[+INCREMENT]", value_parser = parse_clock)]
    clock: Option<(Duration, Duration)>,
    /// With --clock: this player (first, second or both) spends a fixed share of its time on
    /// every move (a 25th of its time plus 3/4 of the increment, at most half of it) instead
    /// of the time manager's plan, as the computer did before it had one.
    #[arg(long, value_name = "PLAYER", requires = "clock", value_parser = ["first", "second", "both"])]
    fixed_share: Option<String>,
}

impl MatchArgs {
    /// The ruleset played.
    pub fn ruleset(&self) -> &str {
        &self.ruleset
    }
}

/// The longest game time and increment `--clock` accepts, in seconds.
const MAX_CLOCK_SECONDS: f64 = 24.0 * 60.0 * 60.0;

/// `SECONDS[+INCREMENT]`: the game's time and the increment.
pub(crate) fn parse_clock(text: &str) -> Result<(Duration, Duration), String> {
    let seconds = |part: &str| {
        part.trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && (0.0..=MAX_CLOCK_SECONDS).contains(s))
            .map(Duration::from_secs_f64)
            .ok_or_else(|| {
                format!("{part:?} is not a number of seconds from 0 to {MAX_CLOCK_SECONDS}")
            })
    };
    let (main, increment) = match text.split_once('+') {
        Some((main, increment)) => (seconds(main)?, seconds(increment)?),
        None => (seconds(text)?, Duration::ZERO),
    };
    if main.is_zero() {
        return Err("the game's time must be more than 0 seconds".to_string());
    }
    Ok((main, increment))
}

/// The text of an openings file, read with a size limit.
fn read_openings(path: &Path) -> Result<String> {
    let size = std::fs::metadata(path)
        .with_context(|| format!("cannot read openings file {}", path.display()))?
        .len();
    if size > MAX_OPENINGS_FILE {
        bail!(
            "openings file {} is {size} bytes; the limit is {MAX_OPENINGS_FILE}",
            path.display()
        );
    }
    std::fs::read_to_string(path)
        .with_context(|| format!("cannot read openings file {}", path.display()))
}

pub fn run(args: &MatchArgs) -> Result<()> {
    let game = crate::find_ruleset_on(&args.ruleset, args.board.as_deref())?;
    let first: Agent = args.first.parse().context("--first")?;
    let second: Agent = args.second.parse().context("--second")?;
    let (openings, games, from) = match (&args.openings, args.random_plies) {
        (Some(path), _) => {
            let positions = parse_openings(game.as_ref(), &read_openings(path)?)
                .with_context(|| path.display().to_string())?;
            let count = positions.len();
            let games = match args.games {
                Some(games) => games,
                None => u32::try_from(2 * count).context("too many openings")?,
            };
            let pairs = games as usize / 2;
            let file = path.display();
            let from = if pairs < count {
                format!("the first {pairs} of {count} openings in {file}")
            } else if pairs > count {
                format!("{count} openings in {file}, repeated")
            } else {
                format!("{count} openings in {file}")
            };
            (Openings::Positions(positions), games, from)
        }
        (None, Some(plies)) => {
            let games = args.games.unwrap_or(20);
            match args.balanced {
                Some(margin) => {
                    let from = format!(
                        "{} random openings of {plies} plies scored within {margin} of even",
                        games / 2
                    );
                    (Openings::BalancedRandomPlies { plies, margin }, games, from)
                }
                None => {
                    let from = format!("{} random openings of {plies} plies", games / 2);
                    (Openings::RandomPlies(plies), games, from)
                }
            }
        }
        (None, None) => (
            Openings::Start,
            args.games.unwrap_or(20),
            "the start position".to_string(),
        ),
    };
    let config = MatchConfig {
        first,
        second,
        games,
        openings,
        max_plies: args.max_plies,
        adjudicate_margin: args.adjudicate_margin,
        concurrency: args.concurrency as usize,
        seed: args.seed,
        clock: args.clock.map(|(initial, increment)| MatchClock {
            initial,
            increment,
            fixed_share: match args.fixed_share.as_deref() {
                Some("first") => [true, false],
                Some("second") => [false, true],
                Some("both") => [true, true],
                _ => [false, false],
            },
        }),
    };
    // Refuse a match that cannot be played before touching the records file.
    match_openings(game.as_ref(), &config)?;
    let mut pgn = match &args.pgn {
        Some(path) => Some((
            BufWriter::new(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .with_context(|| format!("cannot open {} to append records", path.display()))?,
            ),
            path,
        )),
        None => None,
    };
    let colours = if config.openings == Openings::Start {
        "colours alternating"
    } else {
        "each with both colours"
    };
    // The players as typed, with what a short form stands for (`computer (computer:3)`).
    let named = |typed: &str, agent: &Agent| {
        let canonical = agent.to_string();
        if typed == canonical {
            canonical
        } else {
            format!("{typed} ({canonical})")
        }
    };
    let (first_name, second_name) = (named(&args.first, &first), named(&args.second, &second));
    outln!(
        "{}: {first_name} vs {second_name}, {games} games from {from}, {colours}",
        game.name()
    );
    outln!(
        "a game still going after {} plies is won by a material lead of {} or more, else drawn",
        args.max_plies,
        args.adjudicate_margin
    );
    if let Some((initial, increment)) = args.clock {
        let spends = |fixed: bool| {
            if fixed {
                "a fixed share"
            } else {
                "the time manager's plan"
            }
        };
        let [first_fixed, second_fixed] = config.clock.map_or([false; 2], |c| c.fixed_share);
        outln!(
            "on the clock: {:.3} s a game and {:.3} s a move; the first spends {}, the second {}",
            initial.as_secs_f64(),
            increment.as_secs_f64(),
            spends(first_fixed),
            spends(second_fixed)
        );
    }
    // On a terminal a bar that ticks every second (a game may take minutes), with the running
    // score; elsewhere (a pipe, a log file) a line per game.
    let on_terminal = std::io::stderr().is_terminal();
    let bar = if on_terminal {
        ProgressBar::new(u64::from(games))
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) =
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed}, {eta} left]")
    {
        bar.set_style(style);
    }
    bar.set_message("playing the first game");
    bar.enable_steady_tick(PROGRESS_TICK);
    let mut pgn_error = None;
    let report = play_match(game.as_ref(), &config, |r, played| {
        bar.inc(1);
        // The first player's results so far and his score.
        let score = format!(
            "+{} ={} -{} ({:.1}%)",
            r.wins,
            r.draws,
            r.losses,
            100.0 * r.score()
        );
        bar.set_message(score.clone());
        if !on_terminal {
            eprintln!(
                "game {}/{games}: {} ({score})",
                r.games(),
                played.record.result
            );
        }
        if let (Some((file, path)), None) = (&mut pgn, &pgn_error) {
            if let Err(error) = write_record(file, &played.record.to_string()) {
                pgn_error = Some(format!("cannot write to {}: {error}", path.display()));
            }
        }
    })?;
    bar.finish_and_clear();
    outln!("results for {first_name}:");
    outln!("{report:#}");
    if let Some(error) = pgn_error {
        bail!(error);
    }
    if let Some((mut file, path)) = pgn {
        file.flush()
            .with_context(|| format!("cannot write to {}", path.display()))?;
    }
    Ok(())
}

/// How often the progress bar is drawn again, so that its clock runs during a long game.
const PROGRESS_TICK: Duration = Duration::from_secs(1);

/// Appends one record and a blank line, flushed so that an interrupted match keeps its games.
fn write_record(file: &mut BufWriter<File>, record: &str) -> std::io::Result<()> {
    writeln!(file, "{record}")?;
    file.flush()
}
