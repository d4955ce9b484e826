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

/// Prints the legal moves, one a line; with `captured`, each capture followed by ` takes` and
/// the names of the cells whose pieces it captures.
pub fn moves(
    ruleset: &str,
    position: Option<&str>,
    board: Option<&Path>,
    captured: bool,
) -> Result<()> {
    let game = crate::find_ruleset_on(ruleset, board)?;
    let session = game.new_game(position).context("bad --position")?;
    for mv in session.legal_moves() {
        if captured && !mv.view.captured.is_empty() {
            let names: Vec<&str> = mv
                .view
                .captured
                .iter()
                .map(|&cell| game.board().name(cell))
                .collect();
            outln!("{} takes {}", mv.text, names.join(" "));
        } else {
            outln!("{}", mv.text);
        }
    }
    Ok(())
}

/// Prints the position string, and the FEN where the ruleset has one.
pub fn position(ruleset: &str, position: Option<&str>, board: Option<&Path>) -> Result<()> {
    let game = crate::find_ruleset_on(ruleset, board)?;
    let session = game.new_game(position).context("bad --position")?;
    outln!("position {}", session.position());
    if let Some(fen) = session.fen() {
        outln!("fen {fen}");
    }
    Ok(())
}

pub fn diagram(
    ruleset: &str,
    position: Option<&str>,
    board: Option<&Path>,
    back: bool,
) -> Result<()> {
    use denkmeter_core::{svg, Side, Viewer};
    let game = crate::find_ruleset_on(ruleset, board)?;
    let session = game.new_game(position).context("bad --position")?;
    let (side, view) = if back {
        let view = session
            .back_view(Viewer::Everyone)
            .ok_or_else(|| anyhow::anyhow!("{} is played on a board with one side", game.name()))?;
        (Side::Back, view)
    } else {
        (Side::Front, session.view(Viewer::Everyone))
    };
    let highlights: Vec<_> = session
        .highlights(Viewer::Everyone)
        .into_iter()
        .filter(|h| h.side == side)
        .collect();
    let extras = svg::Extras {
        mirrored: back,
        highlights: &highlights,
        ..svg::Extras::default()
    };
    out!("{}", svg::diagram_with(game.board(), &view, &extras));
    Ok(())
}
