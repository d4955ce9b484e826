//! `denkmeter analyse-game RECORD`: every position of a recorded game searched, every move
//! judged against the engine's best (see `docs/analysis.md`), a table of the marked moves, and
//! on request the record again with the evaluations as comments.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use denkmeter_core::pdn::read_collection;
use denkmeter_core::{split_records, Record};
use denkmeter_engine::dynamic::{AnyGame, AnySession};
use denkmeter_engine::review::{self, GameReview};
use denkmeter_engine::{parse_time_limit, Limits};
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug, Args)]
pub struct AnalyseGameArgs {
    /// A game record (as `play --record` writes it) or a PDN draughts game; the first game of
    /// a file that holds several.
    record: PathBuf,
    /// The board file the record names in its Board tag (Schada on another board).
    #[arg(long)]
    board: Option<PathBuf>,
    /// The ruleset of a PDN game with neither a GameType nor a Ruleset tag.
    #[arg(long)]
    ruleset: Option<String>,
    /// Positions searched per position of the game (the default strength: 300000).
    #[arg(long)]
    nodes: Option<u64>,
    /// The longest search of one position, e.g. 1.5s or 800ms (default 1.5s).
    #[arg(long)]
    time: Option<String>,
    /// Search to this depth instead (with no node or time limit unless given).
    #[arg(long)]
    depth: Option<u32>,
    /// Positions searched at once (default: the machine's cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Write the record again with each move's evaluation and marks as comments.
    #[arg(long, value_name = "FILE")]
    annotate: Option<PathBuf>,
    /// Write the whole analysis as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

/// The game a record file holds: its ruleset, start and moves.
struct Loaded {
    game: Arc<dyn AnyGame>,
    session: Box<dyn AnySession>,
    record: Record,
}

fn load(path: &Path, board: Option<&Path>, ruleset: Option<&str>) -> Result<Loaded> {
    let text = crate::record::read_text(path)?;
    let first = split_records(&text)
        .first()
        .map(|(_, chunk)| *chunk)
        .unwrap_or(&text);
    // A Denkmeter record names its ruleset; anything else is read as PDN.
    if let Ok(record) = first.parse::<Record>() {
        if let Some(name) = record.tag("Ruleset") {
            let game = crate::find_ruleset_on(name, board)?;
            let session = game
                .load_record(&record)
                .with_context(|| format!("{}", path.display()))?;
            return Ok(Loaded {
                game,
                session,
                record,
            });
        }
    }
    let pdn = read_collection(&text)
        .into_iter()
        .next()
        .ok_or_else(|| anyhow!("{}: no game in the file", path.display()))?
        .map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let imported = denkmeter_engine::pdn::import(&pdn, crate::registry(), ruleset)
        .map_err(|e| anyhow!("{}: {e}", path.display()))?;
    Ok(Loaded {
        game: imported.game,
        session: imported.session,
        record: imported.record,
    })
}

pub fn run(args: &AnalyseGameArgs) -> Result<()> {
    let loaded = load(&args.record, args.board.as_deref(), args.ruleset.as_deref())?;
    let limits = limits(args)?;
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    if !(1..=64).contains(&threads) {
        bail!("--threads is from 1 to 64");
    }
    let moves = loaded.session.moves().to_vec();
    let start = loaded.session.start_position();
    let sessions = review::positions(loaded.game.as_ref(), Some(&start), &moves)?;
    let bar = ProgressBar::new(sessions.len() as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:30} {pos}/{len} positions [{elapsed} of ~{duration}]")
    {
        bar.set_style(style);
    }
    let options = review::position_options(limits);
    let names = loaded.game.facts().side_names;
    let evals = review::evaluate_all(&sessions, &options, names, threads, &|_| bar.inc(1));
    bar.finish_and_clear();
    let facts = loaded.game.facts();
    let result = review::review(facts.name, facts.family, &moves, evals);
    print_review(&result, loaded.game.as_ref(), &loaded.record);
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&result)?;
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.annotate {
        let annotated = annotate(&loaded.record, &result, facts.side_names);
        // A draughts game goes out as PDN when the file is named so.
        let as_pdn = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pdn"));
        let text = if as_pdn && facts.pdn.is_draughts() {
            denkmeter_engine::pdn::export(loaded.game.as_ref(), &annotated)?
        } else {
            annotated.to_string()
        };
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
        outln!("The annotated record is in {}.", path.display());
    }
    Ok(())
}

fn limits(args: &AnalyseGameArgs) -> Result<Limits> {
    let time = args
        .time
        .as_deref()
        .map(parse_time_limit)
        .transpose()
        .map_err(|e| anyhow!("--time: {e}"))?;
    if args.nodes == Some(0) {
        bail!("--nodes is at least 1");
    }
    if let Some(depth) = args.depth {
        if !(1..=denkmeter_engine::MAX_DEPTH).contains(&depth) {
            bail!("--depth is from 1 to {}", denkmeter_engine::MAX_DEPTH);
        }
        return Ok(Limits {
            depth: Some(depth),
            nodes: args.nodes,
            time,
            target: None,
        });
    }
    let default = review::default_limits();
    Ok(Limits {
        depth: None,
        nodes: args.nodes.or(default.nodes),
        time: time.or(default.time),
        target: None,
    })
}

/// The summary per side and a table of the marked moves.
fn print_review(review: &GameReview, game: &dyn AnyGame, record: &Record) {
    let names = game.facts().side_names;
    let t = &review.thresholds;
    outln!(
        "{} moves analysed. Scores are in hundredths of {} for the side to move; a move is an inaccuracy from {}, a mistake from {}, a blunder from {}.",
        review.moves.len(),
        review.unit,
        t.inaccuracy,
        t.mistake,
        t.blunder
    );
    for (name, side) in [
        (names[denkmeter_core::Player::White], &review.white),
        (names[denkmeter_core::Player::Black], &review.black),
    ] {
        outln!(
            "{name}: {}, {}, {}, mean loss {}",
            count(side.inaccuracies, "inaccuracy", "inaccuracies"),
            count(side.mistakes, "mistake", "mistakes"),
            count(side.blunders, "blunder", "blunders"),
            side.mean_loss
        );
    }
    let marked: Vec<_> = review
        .moves
        .iter()
        .filter(|m| m.judgement.is_some())
        .collect();
    if marked.is_empty() {
        outln!("No move is marked.");
        return;
    }
    outln!();
    outln!(
        "{:<10} {:<14} {:<11} {:>6}  {:<14} {:<16} {:<16} line",
        "move",
        "played",
        "mark",
        "loss",
        "better",
        "before",
        "after"
    );
    for m in marked {
        let number = record
            .numbered(m.ply - 1)
            .unwrap_or_else(|| m.ply.to_string());
        let number = number.split_whitespace().next().unwrap_or("").to_string();
        let before = &review.positions[m.ply - 1];
        let after = &review.positions[m.ply];
        let after_text = if after.to_move == m.mover || after.over {
            after.score_text.clone()
        } else {
            flip_text(&after.score_text)
        };
        outln!(
            "{:<10} {:<14} {:<11} {:>6}  {:<14} {:<16} {:<16} {}",
            number,
            format!("{}{}", m.played, m.judgement.map_or("", |j| j.glyph())),
            m.judgement.map_or("", |j| j.word()),
            m.loss,
            m.best.as_deref().unwrap_or(""),
            before.score_text,
            after_text,
            m.line.join(" ")
        );
    }
}

/// `1 mistake`, `2 mistakes`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A score text for the other side: `+0.35` becomes `-0.35`, a win a loss.
fn flip_text(text: &str) -> String {
    if text == "+0.00" {
        text.to_string()
    } else if let Some(rest) = text.strip_prefix('+') {
        format!("-{rest}")
    } else if let Some(rest) = text.strip_prefix('-') {
        format!("+{rest}")
    } else if let Some(rest) = text.strip_prefix("win") {
        format!("loss{rest}")
    } else if let Some(rest) = text.strip_prefix("loss") {
        format!("win{rest}")
    } else {
        text.to_string()
    }
}

/// The record with a comment after every move: White's evaluation after it, and the mark and
/// better line of a marked move.
fn annotate(record: &Record, review: &GameReview, names: denkmeter_core::ByPlayer<&str>) -> Record {
    let mut out = record.clone();
    for m in &review.moves {
        let after = &review.positions[m.ply];
        let mut text = after.white_text.clone();
        if !after.over && !text.contains(" wins in ") {
            text.push_str(&format!(" for {}", names[denkmeter_core::Player::White]));
        }
        if let Some(j) = m.judgement {
            text.push_str(&format!(
                "; {} {}: {} was better ({})",
                j.glyph(),
                j.word(),
                m.best.as_deref().unwrap_or("?"),
                m.line.join(" ")
            ));
        }
        out.comments.push((m.ply, text));
    }
    out.set_tag(
        "Annotator",
        format!(
            "Denkmeter analyse-game, thresholds {}/{}/{} hundredths of {}",
            review.thresholds.inaccuracy,
            review.thresholds.mistake,
            review.thresholds.blunder,
            review.unit
        ),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::flip_text;

    #[test]
    fn score_texts_turn_round() {
        assert_eq!(flip_text("+0.35"), "-0.35");
        assert_eq!(flip_text("-1.00"), "+1.00");
        assert_eq!(flip_text("win in 3 plies"), "loss in 3 plies");
        assert_eq!(flip_text("loss in 1 ply"), "win in 1 ply");
        assert_eq!(flip_text("+0.00"), "+0.00");
    }
}
