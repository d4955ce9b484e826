//! `denkmeter record check|import|export`: records checked through the rules, and draughts
//! games brought in from PDN and written out as PDN.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::Subcommand;
use denkmeter_core::pdn::read_collection;
use denkmeter_core::{split_records, Record, Status};
use denkmeter_engine::pdn::{export, import};
use indicatif::{ProgressBar, ProgressStyle};

/// The largest file read, in bytes.
const MAX_FILE: u64 = 256 * 1024 * 1024;

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
    /// Check a PDN collection of draughts games, game by game, through the rules, and convert
    /// it: every game that replays goes to --out as a Denkmeter record (or, with --pdn, as
    /// clean PDN). A game that does not is reported with its number, line, move and reason,
    /// and the rest still come in. Exits with failure if any game was refused.
    Import {
        /// The PDN file (many games, any PDN 3.0 draughts).
        file: PathBuf,
        /// The ruleset of games with neither a GameType nor a Ruleset tag (the Open Checker
        /// Archive's English games have none), e.g. `english`.
        #[arg(long)]
        ruleset: Option<String>,
        /// Write the games that replay to this file, one record after another.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write them as PDN rather than as Denkmeter records.
        #[arg(long, requires = "out")]
        pdn: bool,
    },
    /// Write Denkmeter records of draughts games (one or many in a file, as `play --record`
    /// and `match --pgn` write them) as PDN, on standard output or to --out.
    Export {
        file: PathBuf,
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

pub fn run(command: &RecordCommand) -> Result<()> {
    match command {
        RecordCommand::Check { file, board } => check(file, board.as_deref()),
        RecordCommand::Import {
            file,
            ruleset,
            out,
            pdn,
        } => import_collection(file, ruleset.as_deref(), out.as_deref(), *pdn),
        RecordCommand::Export { file, out } => export_records(file, out.as_deref()),
    }
}

/// A file's text, refused past [`MAX_FILE`] bytes.
pub(crate) fn read_text(file: &Path) -> Result<String> {
    let size = std::fs::metadata(file)
        .with_context(|| format!("cannot read {}", file.display()))?
        .len();
    if size > MAX_FILE {
        bail!(
            "{}: {size} bytes is more than the {} MiB a file may have",
            file.display(),
            MAX_FILE / (1024 * 1024)
        );
    }
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    // Old PDN files are often Latin-1: a line that is not UTF-8 is read byte by byte as
    // Latin-1, so that one stray byte garbles no other line.
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => error
            .into_bytes()
            .split_inclusive(|&b| b == b'\n')
            .map(|line| match std::str::from_utf8(line) {
                Ok(text) => text.to_string(),
                Err(_) => line.iter().map(|&b| char::from(b)).collect(),
            })
            .collect(),
    })
}

/// Checks every record in the file (`match --pgn`, `record import --out` and `cat` write
/// several): a line each, and failure if any does not replay.
fn check(file: &Path, board: Option<&Path>) -> Result<()> {
    let text = read_text(file)?;
    let records = split_records(&text);
    if records.len() <= 1 {
        let line = check_one(&text, board).with_context(|| format!("{}", file.display()))?;
        outln!("{}: ok, {line}", file.display());
        return Ok(());
    }
    let mut refused = 0;
    for (i, (line, chunk)) in records.iter().enumerate() {
        let place = format!("{}: record {} (line {line})", file.display(), i + 1);
        match check_one(chunk, board) {
            Ok(text) => outln!("{place}: ok, {text}"),
            Err(error) => {
                refused += 1;
                outln!("{place}: {error:#}");
            }
        }
    }
    if refused > 0 {
        bail!(
            "{}: {refused} of {} records do not replay",
            file.display(),
            records.len()
        );
    }
    outln!("{}: all {} records ok", file.display(), records.len());
    Ok(())
}

/// One record replayed through the rules: `RULESET (N moves, RESULT)`.
fn check_one(text: &str, board: Option<&Path>) -> Result<String> {
    let record: Record = text.parse()?;
    let name = record
        .tag("Ruleset")
        .ok_or_else(|| anyhow!("the record has no [Ruleset] tag"))?;
    let game = crate::find_ruleset_on(name, board)?;
    let session = game.load_record(&record)?;
    let status = match session.status() {
        Status::Ongoing => "game not finished".to_string(),
        Status::Over(outcome) => format!(
            "{} {}",
            outcome.result_token(),
            outcome.describe(game.facts().side_names)
        ),
    };
    Ok(format!(
        "{name} ({} moves, {status})",
        session.moves().len()
    ))
}

fn import_collection(
    file: &Path,
    ruleset: Option<&str>,
    out: Option<&Path>,
    as_pdn: bool,
) -> Result<()> {
    if let Some(name) = ruleset {
        crate::find_ruleset(name)?;
    }
    let text = read_text(file)?;
    let games = read_collection(&text);
    if games.is_empty() {
        bail!("{}: no games in the file", file.display());
    }
    let mut writer = match out {
        Some(path) => Some((
            std::io::BufWriter::new(
                std::fs::File::create(path)
                    .with_context(|| format!("cannot write {}", path.display()))?,
            ),
            path,
        )),
        None => None,
    };
    let bar = ProgressBar::new(games.len() as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed}]")
    {
        bar.set_style(style);
    }
    let (mut imported, mut refused) = (0usize, 0usize);
    for game in &games {
        bar.inc(1);
        let outcome = game.as_ref().map_err(|e| e.to_string()).and_then(|pdn| {
            import(pdn, crate::registry(), ruleset).map_err(|e| format!("{}: {e}", pdn.label()))
        });
        match outcome {
            Ok(done) => {
                imported += 1;
                if let Some((writer, path)) = &mut writer {
                    let text = if as_pdn {
                        export(&*done.game, &done.record).map_err(|e| anyhow!("{e}"))?
                    } else {
                        done.record.to_string()
                    };
                    writeln!(writer, "{text}")
                        .with_context(|| format!("cannot write {}", path.display()))?;
                }
            }
            Err(reason) => {
                refused += 1;
                bar.suspend(|| eprintln!("{}: {reason}", file.display()));
            }
        }
        bar.set_message(format!("{imported} in, {refused} refused"));
    }
    bar.finish_and_clear();
    if let Some((writer, path)) = &mut writer {
        writer
            .flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let written = match out {
        Some(path) => format!(", written to {}", path.display()),
        None => String::new(),
    };
    outln!(
        "{}: {imported} of {} games replay through the rules{written}; {refused} refused",
        file.display(),
        games.len()
    );
    if refused > 0 {
        bail!(
            "{refused} of {} games were refused (see above)",
            games.len()
        );
    }
    Ok(())
}

fn export_records(file: &Path, out: Option<&Path>) -> Result<()> {
    let text = read_text(file)?;
    let records = split_records(&text);
    if records.is_empty() {
        bail!("{}: no records in the file", file.display());
    }
    let mut pdn = String::new();
    for (line, chunk) in records {
        let place = || format!("{} (the record at line {line})", file.display());
        let record: Record = chunk.parse().with_context(place)?;
        let name = record
            .tag("Ruleset")
            .ok_or_else(|| anyhow!("{}: the record has no [Ruleset] tag", place()))?;
        let game = crate::find_ruleset(name).with_context(place)?;
        let text = export(&*game, &record).with_context(place)?;
        if !pdn.is_empty() {
            pdn.push('\n');
        }
        pdn.push_str(&text);
    }
    match out {
        Some(path) => {
            std::fs::write(path, pdn).with_context(|| format!("cannot write {}", path.display()))
        }
        None => {
            out!("{pdn}");
            Ok(())
        }
    }
}
