//! `denkmeter puzzles`: mine puzzles from self-play and recorded games, and prove a puzzle
//! file again.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use denkmeter_core::{split_records, Record};
use denkmeter_engine::dynamic::AnyGame;
use denkmeter_engine::puzzles::{
    self, mine, parse_set, positions_of, puzzles_in_game, write_set, FindLimits, MineOptions,
    Puzzle,
};
use denkmeter_engine::{Agent, SearchTable};
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug, Subcommand)]
pub enum PuzzlesCommand {
    /// Find puzzles: positions where the player to move forces a win within N of its moves
    /// and, at each of its turns along the loser's longest defence, exactly one move does.
    ///
    /// Self-play games (computer levels 1-4 from random openings, all drawn from --seed) are
    /// searched in order until --count puzzles are found; --records adds recorded games
    /// (Denkmeter records, e.g. downloaded from the web application), searched first. The
    /// same options give the same file.
    Mine(MineArgs),
    /// Prove every puzzle of the files again with the mate solver alone; exits non-zero if
    /// any fails.
    Verify {
        /// Puzzle files: one JSON object per line.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

#[derive(Debug, Args)]
pub struct MineArgs {
    /// Every ruleset of this family (as in `denkmeter list`'s rules pages, e.g. chad,
    /// scandinavian), played in turn.
    #[arg(long, conflicts_with = "ruleset")]
    family: Option<String>,
    /// A ruleset to play (repeat for several, played in turn).
    #[arg(long)]
    ruleset: Vec<String>,
    /// Puzzles wanted.
    #[arg(long, default_value_t = 200)]
    count: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The shortest win kept, in the winner's moves.
    #[arg(long, default_value_t = 1)]
    min_moves: u32,
    /// The longest win looked for, in the winner's moves (1-6).
    #[arg(long, default_value_t = 3)]
    max_moves: u32,
    /// Positions each call of the prover may visit before the position is given up.
    #[arg(long, default_value_t = 5_000_000)]
    solver_nodes: u64,
    /// Look only at the last this many positions of each game (where games end in a win):
    /// long wins cost the screening search most.
    #[arg(long)]
    last_plies: Option<usize>,
    /// The most puzzles taken from one game.
    #[arg(long, default_value_t = 1)]
    per_game: usize,
    /// The most self-play games before giving up.
    #[arg(long, default_value_t = 20_000)]
    max_games: u32,
    /// Games played and searched at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// A player to draw for each side of a self-play game (repeat for several; default: the
    /// computer's levels 1 to 4), as in `denkmeter match`: random, computer:LEVEL, ab:LIMITS...
    #[arg(long)]
    player: Vec<Agent>,
    /// Recorded games to search first (files of Denkmeter records).
    #[arg(long)]
    records: Vec<PathBuf>,
    /// Where to write the puzzles (default: standard output); OUT.partial holds those found
    /// so far while the run goes on.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The longest win `--max-moves` accepts: beyond it the solver's trees grow out of reach.
const MAX_MOVES: u32 = 6;

pub fn run(command: &PuzzlesCommand) -> Result<()> {
    match command {
        PuzzlesCommand::Mine(args) => run_mine(args),
        PuzzlesCommand::Verify { files } => run_verify(files),
    }
}

fn rulesets(args: &MineArgs) -> Result<Vec<Arc<dyn AnyGame>>> {
    let registry = crate::registry();
    if let Some(family) = &args.family {
        let found: Vec<_> = registry
            .rulesets()
            .iter()
            .filter(|g| g.facts().family == family)
            .cloned()
            .collect();
        if found.is_empty() {
            bail!("no ruleset is of the family {family:?} (try `denkmeter list`)");
        }
        return Ok(found);
    }
    if args.ruleset.is_empty() {
        bail!("name a --family or at least one --ruleset");
    }
    args.ruleset
        .iter()
        .map(|name| crate::find_ruleset_on(name, None))
        .collect()
}

fn run_mine(args: &MineArgs) -> Result<()> {
    if !(1..=MAX_MOVES).contains(&args.max_moves) {
        bail!("--max-moves is from 1 to {MAX_MOVES}");
    }
    if args.per_game == 0 || args.count == 0 {
        bail!("--per-game and --count are at least 1");
    }
    let rulesets = rulesets(args)?;
    if args.min_moves == 0 || args.min_moves > args.max_moves {
        bail!("--min-moves is from 1 to --max-moves");
    }
    let limits = FindLimits {
        min_moves: args.min_moves,
        max_moves: args.max_moves,
        solver_nodes: args.solver_nodes,
        last_plies: args.last_plies,
        ..FindLimits::default()
    };
    let started = Instant::now();
    let mut found: Vec<Puzzle> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut games_played = 0;
    for path in &args.records {
        for puzzle in record_puzzles(path, &rulesets, limits, args.per_game)? {
            if found.len() < args.count && seen.insert(puzzle.id.clone()) {
                found.push(puzzle);
            }
        }
    }
    let bar = ProgressBar::new(args.count as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles, {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(found.len() as u64);
    if found.len() < args.count {
        let options = MineOptions {
            rulesets,
            count: args.count - found.len(),
            seed: args.seed,
            limits,
            per_game: args.per_game,
            max_games: args.max_games,
            threads: args.threads,
            players: args.player.clone(),
        };
        let mut written = 0;
        let mut warned = false;
        let mined = mine(&options, &mut |games, puzzles| {
            games_played = games;
            bar.set_position((found.len() + puzzles.len()) as u64);
            bar.set_message(format!("{games} games"));
            // A long run keeps what it found so far in OUT.partial: a stopped run loses at
            // most a batch, and OUT itself is replaced only by a finished run.
            if let Some(path) = &args.out {
                if puzzles.len() > written {
                    written = puzzles.len();
                    let so_far = write_set(&merged(&found, puzzles));
                    if let Err(error) = std::fs::write(partial_path(path), so_far) {
                        if !warned {
                            bar.suspend(|| eprintln!("warning: cannot keep progress: {error}"));
                            warned = true;
                        }
                    }
                }
            }
        });
        found = merged(&found, &mined);
    }
    bar.finish_and_clear();
    let text = write_set(&found);
    match &args.out {
        Some(path) => {
            std::fs::write(path, text)
                .with_context(|| format!("cannot write {}", path.display()))?;
            let _ = std::fs::remove_file(partial_path(path));
        }
        None => crate::write_out(format_args!("{text}")),
    }
    let mut lengths = std::collections::BTreeMap::new();
    for puzzle in &found {
        *lengths.entry(puzzle.moves).or_insert(0) += 1;
    }
    let lengths: Vec<String> = lengths
        .iter()
        .map(|(moves, n)| format!("{n} in {moves}"))
        .collect();
    eprintln!(
        "{} puzzles ({}) from {games_played} self-play games in {:.1} s",
        found.len(),
        lengths.join(", "),
        started.elapsed().as_secs_f64()
    );
    if found.len() < args.count {
        bail!(
            "found {} of the {} puzzles wanted within {} games",
            found.len(),
            args.count,
            args.max_games
        );
    }
    Ok(())
}

/// `first`, then the puzzles of `more` whose ids are not already there.
fn merged(first: &[Puzzle], more: &[Puzzle]) -> Vec<Puzzle> {
    let mut seen: std::collections::HashSet<&str> = first.iter().map(|p| p.id.as_str()).collect();
    let mut all = first.to_vec();
    all.extend(more.iter().filter(|p| seen.insert(&p.id)).cloned());
    all
}

/// Where a run keeps the puzzles found so far: `OUT.partial`.
fn partial_path(path: &Path) -> std::path::PathBuf {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    partial.into()
}

/// The puzzles in a file of Denkmeter records whose rulesets are among `rulesets`.
fn record_puzzles(
    path: &Path,
    rulesets: &[Arc<dyn AnyGame>],
    limits: FindLimits,
    per_game: usize,
) -> Result<Vec<Puzzle>> {
    let text = crate::record::read_text(path)?;
    let mut table = SearchTable::new(4);
    let mut found = Vec::new();
    for (line, chunk) in split_records(&text) {
        let record: Record = chunk
            .parse()
            .map_err(|e| anyhow::anyhow!("{}:{line}: {e}", path.display()))?;
        let Some(game) = record
            .tag("Ruleset")
            .and_then(|name| rulesets.iter().find(|g| g.name() == name))
        else {
            continue;
        };
        let session = game
            .load_record(&record)
            .with_context(|| format!("{}:{line}", path.display()))?;
        let start = session.start_position();
        let positions = positions_of(game.as_ref(), Some(&start), session.moves());
        let source = format!("{}:{line}", path.display());
        found.extend(puzzles_in_game(
            game.as_ref(),
            &positions,
            limits,
            per_game,
            &source,
            &mut table,
        ));
    }
    Ok(found)
}

fn run_verify(files: &[PathBuf]) -> Result<()> {
    let registry = crate::registry();
    let mut failed = 0;
    let mut total = 0;
    for path in files {
        let text = crate::record::read_text(path)?;
        let set = parse_set(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        for puzzle in &set {
            total += 1;
            if let Err(defect) = puzzles::check(registry, puzzle) {
                failed += 1;
                eprintln!("{}: puzzle {}: {defect}", path.display(), puzzle.id);
            }
        }
        crate::write_out(format_args!("{}: {} puzzles\n", path.display(), set.len()));
    }
    if failed > 0 {
        bail!("{failed} of {total} puzzles failed");
    }
    crate::write_out(format_args!("all {total} puzzles proved\n"));
    Ok(())
}
