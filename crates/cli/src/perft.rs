//! `denkmeter perft` and `denkmeter moves`.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

#[derive(Debug, Args)]
pub struct PerftArgs {
    ruleset: String,
    /// The deepest depth to count.
    #[arg(long)]
    depth: u32,
    /// A position string (default: the start position).
    #[arg(long)]
    position: Option<String>,
    /// A board file to play on, for games whose board is data (Schada).
    #[arg(long)]
    board: Option<PathBuf>,
}

pub fn run(args: &PerftArgs) -> Result<()> {
    let game = crate::find_ruleset_on(&args.ruleset, args.board.as_deref())?;
    let table = game
        .perft(args.position.as_deref(), args.depth)
        .context("bad --position")?;
    for (depth, count) in table {
        outln!("{depth} {count}");
    }
    Ok(())
}

pub fn moves(ruleset: &str, position: Option<&str>, board: Option<&Path>) -> Result<()> {
    let game = crate::find_ruleset_on(ruleset, board)?;
    let session = game.new_game(position).context("bad --position")?;
    for mv in session.legal_moves() {
        outln!("{}", mv.text);
    }
    Ok(())
}

pub fn diagram(ruleset: &str, position: Option<&str>, board: Option<&Path>) -> Result<()> {
    let game = crate::find_ruleset_on(ruleset, board)?;
    let session = game.new_game(position).context("bad --position")?;
    out!(
        "{}",
        denkmeter_core::svg::diagram(
            game.board(),
            &session.view(denkmeter_core::Viewer::Everyone),
            &[]
        )
    );
    Ok(())
}
