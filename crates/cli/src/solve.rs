//! `denkmeter solve`: the exact value of a position near the end of a game, its best moves and
//! a line of best play.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use denkmeter_engine::endgame::{SolveError, WIN_VALUE};
use denkmeter_engine::Limits;

/// The default of `--max-plies`.
const DEFAULT_MAX_PLIES: u32 = 10;

#[derive(Debug, Args)]
pub struct SolveArgs {
    ruleset: String,
    /// A position string (default: the start position); `--position=S` for one that starts
    /// with `-`.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// A board file to play on, for games whose board is data (Schada).
    #[arg(long)]
    board: Option<PathBuf>,
    /// Refuse positions more than this many plies from the end (the solver's work grows about
    /// fourfold to eightfold a ply).
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    max_plies: u32,
}

impl SolveArgs {
    /// The ruleset played.
    pub fn ruleset(&self) -> &str {
        &self.ruleset
    }
}

pub fn run(args: &SolveArgs) -> Result<()> {
    let game = crate::find_ruleset_on(&args.ruleset, args.board.as_deref())?;
    let started = Instant::now();
    let solution = match game.solve(args.position.as_deref(), args.max_plies, Limits::default()) {
        Ok(solution) => solution,
        Err(SolveError::Position(error)) => return Err(error).context("bad --position"),
        Err(error @ SolveError::TooDeep { .. }) => {
            return Err(error).context("too far from the end (raise --max-plies to wait longer)")
        }
        Err(error) => return Err(error).context(format!("cannot solve {}", game.name())),
    };
    let elapsed = started.elapsed();
    let value = match solution.white_value {
        WIN_VALUE => "White wins".to_string(),
        v if v == -WIN_VALUE => "Black wins".to_string(),
        v => format!("{v:+}"),
    };
    let plies = match solution.plies {
        1 => "1 ply".to_string(),
        n => format!("{n} plies"),
    };
    outln!(
        "value {value} (White's final score minus Black's under best play; {} to move, {plies} to the end)",
        solution.to_move
    );
    outln!("best {}", solution.best.join(" "));
    outln!("line {}", solution.line.join(" "));
    outln!("nodes {} in {:.3} s", solution.nodes, elapsed.as_secs_f64());
    Ok(())
}
