//! `denkmeter analyse`: alpha-beta search of a position, a line per completed depth.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use denkmeter_engine::search::eval::score_text;
use denkmeter_engine::{parse_time_limit, Limits, SearchOptions, MAX_DEPTH};

/// The time limit when no limit is given.
const DEFAULT_TIME: &str = "5s";

#[derive(Debug, Args)]
pub struct AnalyseArgs {
    ruleset: String,
    /// A position string (default: the start position); `--position=S` for one that starts
    /// with `-`.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Moves played from the position before the search, separated by spaces (the game so
    /// far: the search then knows which positions already occurred).
    #[arg(long, allow_hyphen_values = true)]
    moves: Option<String>,
    /// A board file to play on, for games whose board is data (Schada).
    #[arg(long)]
    board: Option<PathBuf>,
    /// Stop after this long, e.g. 2s, 1.5s, 300ms (default 5s when no limit is given).
    #[arg(long)]
    time: Option<String>,
    /// Stop after this depth in plies (1 to 64).
    #[arg(long)]
    depth: Option<u32>,
    /// Stop after about this many positions.
    #[arg(long)]
    nodes: Option<u64>,
    /// Threads searching together.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The transposition table's size in megabytes.
    #[arg(long, default_value_t = SearchOptions::DEFAULT_HASH_MB)]
    hash: usize,
    /// Search as if the game were drawn after this many plies in a row without a capture (a
    /// referee's rule that no ruleset here has, such as OpenSpiel's 40 at checkers); the
    /// plies of --moves count.
    #[arg(long, value_name = "PLIES")]
    draw_after_quiet_plies: Option<u32>,
}

impl AnalyseArgs {
    /// The ruleset played.
    pub fn ruleset(&self) -> &str {
        &self.ruleset
    }
}

pub fn run(args: &AnalyseArgs) -> Result<()> {
    let game = crate::find_ruleset_on(&args.ruleset, args.board.as_deref())?;
    let mut session = game
        .new_game(args.position.as_deref())
        .context("bad --position")?;
    for (i, text) in args
        .moves
        .iter()
        .flat_map(|m| m.split_whitespace())
        .enumerate()
    {
        session
            .play(text)
            .with_context(|| format!("--moves: move {} ({text:?})", i + 1))?;
    }
    let limits = limits(args)?;
    if !(1..=SearchOptions::MAX_THREADS).contains(&args.threads) {
        bail!("--threads is from 1 to {}", SearchOptions::MAX_THREADS);
    }
    if !(1..=SearchOptions::MAX_HASH_MB).contains(&args.hash) {
        bail!(
            "--hash is from 1 to {} (megabytes)",
            SearchOptions::MAX_HASH_MB
        );
    }
    if args.draw_after_quiet_plies == Some(0) {
        bail!("--draw-after-quiet-plies is at least 1");
    }
    let options = SearchOptions {
        threads: args.threads,
        hash_mb: args.hash,
        quiet_ply_limit: args.draw_after_quiet_plies,
        ..SearchOptions::new(limits)
    };
    let last = session.analyse(&options, &mut |line| {
        let seconds = line.elapsed.as_secs_f64();
        let nps = line.nodes as f64 / seconds.max(1e-6);
        outln!(
            "depth {} score {} nodes {} nps {} time {:.3}s pv {}",
            line.depth,
            score_text(line.score),
            line.nodes,
            per_second(nps),
            seconds,
            line.pv.join(" ")
        );
    });
    match last.as_ref().and_then(|l| l.pv.first()) {
        Some(best) => outln!("best {best}"),
        None => bail!("the game is over in this position: there is nothing to analyse"),
    }
    Ok(())
}

fn limits(args: &AnalyseArgs) -> Result<Limits> {
    let time = match (&args.time, args.depth, args.nodes) {
        (Some(text), _, _) => Some(text.as_str()),
        (None, None, None) => Some(DEFAULT_TIME),
        _ => None,
    };
    let time = time
        .map(|t| parse_time_limit(t).map_err(anyhow::Error::msg))
        .transpose()
        .context("--time")?;
    if let Some(depth) = args.depth {
        if !(1..=MAX_DEPTH).contains(&depth) {
            bail!("--depth is from 1 to {MAX_DEPTH}");
        }
    }
    if args.nodes == Some(0) {
        bail!("--nodes must be positive");
    }
    Ok(Limits {
        depth: args.depth,
        nodes: args.nodes,
        time,
        target: None,
    })
}

/// A rate with an SI prefix: `950`, `12.3k`, `2.95M`.
fn per_second(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.2}M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1}k", rate / 1e3)
    } else {
        format!("{rate:.0}")
    }
}
