//! `denkmeter match`: two computer players over many games.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use denkmeter_engine::matches::{play_match, MatchConfig};
use denkmeter_engine::Agent;
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug, Args)]
pub struct MatchArgs {
    ruleset: String,
    /// The first player: random, computer, computer:LEVEL, mcts:LIMITS, ismcts:LIMITS (hidden games) or ab:LIMITS (e.g. mcts:2000,
    /// ab:6, ab:d8,1.5s).
    #[arg(long)]
    first: String,
    /// The second player.
    #[arg(long, default_value = "random")]
    second: String,
    /// A board file to play on, for games whose board is data (Schada).
    #[arg(long)]
    board: Option<PathBuf>,
    /// Number of games; the players alternate colours.
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Games longer than this many plies are adjudicated a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: &MatchArgs) -> Result<()> {
    let game = crate::find_ruleset_on(&args.ruleset, args.board.as_deref())?;
    let first: Agent = args.first.parse().context("--first")?;
    let second: Agent = args.second.parse().context("--second")?;
    let config = MatchConfig {
        first,
        second,
        games: args.games,
        max_plies: args.max_plies,
        seed: args.seed,
    };
    let bar = ProgressBar::new(u64::from(args.games));
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed}]")
    {
        bar.set_style(style);
    }
    let report = play_match(game.as_ref(), &config, |r| {
        bar.inc(1);
        bar.set_message(format!("+{} ={} -{}", r.wins, r.draws, r.losses));
    });
    bar.finish_and_clear();
    outln!("{} {first} vs {second}: {report}", game.name());
    Ok(())
}
