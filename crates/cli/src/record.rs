//! `denkmeter record check FILE`.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};
use clap::Subcommand;
use denkmeter_core::{Record, Status};

#[derive(Debug, Subcommand)]
pub enum RecordCommand {
    /// Replay a record through the rules; report the first illegal move by its number.
    Check {
        file: PathBuf,
        /// The board file the record names in its Board tag, for games whose board is data
        /// (Schada) played on another board than the default.
        #[arg(long)]
        board: Option<PathBuf>,
    },
}

pub fn run(command: &RecordCommand) -> Result<()> {
    match command {
        RecordCommand::Check { file, board } => check(file, board.as_deref()),
    }
}

fn check(file: &PathBuf, board: Option<&Path>) -> Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let record: Record = text
        .parse()
        .with_context(|| format!("{}", file.display()))?;
    let name = record
        .tag("Ruleset")
        .ok_or_else(|| anyhow!("{}: the record has no [Ruleset] tag", file.display()))?;
    let game =
        crate::find_ruleset_on(name, board).with_context(|| format!("{}", file.display()))?;
    let session = game
        .load_record(&record)
        .with_context(|| format!("{}", file.display()))?;
    let status = match session.status() {
        Status::Ongoing => "game not finished".to_string(),
        Status::Over(outcome) => format!(
            "{} {}",
            outcome.result_token(),
            outcome.describe(game.facts().side_names)
        ),
    };
    outln!(
        "{}: ok, {} ({} moves, {status})",
        file.display(),
        name,
        session.moves().len()
    );
    Ok(())
}
