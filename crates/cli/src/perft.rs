//! `denkmeter perft` and `denkmeter moves`.

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
}

pub fn run(args: &PerftArgs) -> Result<()> {
    let game = crate::find_ruleset(&args.ruleset)?;
    let table = game
        .perft(args.position.as_deref(), args.depth)
        .context("bad --position")?;
    for (depth, count) in table {
        outln!("{depth} {count}");
    }
    Ok(())
}

pub fn moves(ruleset: &str, position: Option<&str>) -> Result<()> {
    let game = crate::find_ruleset(ruleset)?;
    let session = game.new_game(position).context("bad --position")?;
    for mv in session.legal_moves() {
        outln!("{}", mv.text);
    }
    Ok(())
}

pub fn diagram(ruleset: &str, position: Option<&str>) -> Result<()> {
    let game = crate::find_ruleset(ruleset)?;
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
