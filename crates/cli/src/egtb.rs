//! `denkmeter egtb`: build the draughts endgame databases and look positions up in them.

use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use denkmeter_games::draughts::egtb::{self, Probe, Report, Wdl};

#[derive(Debug, Subcommand)]
pub enum EgtbCommand {
    /// Build the databases of every material up to --pieces pieces by retrograde analysis,
    /// each checked against the rules as it is built, into DIR/RULESET/ (DIR from --egtb).
    /// Materials an earlier run finished are read back instead of built again.
    Generate {
        /// A draughts ruleset (international, english, scandinavian-8x8, ...).
        ruleset: String,
        /// The most pieces, both sides together (2 to 7).
        #[arg(long)]
        pieces: usize,
        /// Threads for the passes that can share the work (default: the processors).
        #[arg(long)]
        threads: Option<usize>,
        /// The most memory the build may use, in GB; a larger build is refused before it
        /// starts (International needs about 7 GB for 5 pieces and far more for 6).
        #[arg(long, default_value_t = 16)]
        memory_gb: u64,
    },
    /// Check the databases in --egtb by search: positions drawn at random, each searched
    /// without the databases deep enough to see its end. A database win in N must be a
    /// search win in N or more (never fewer), a loss in N a search loss in N or fewer, and a
    /// draw must not be a win or loss the search sees.
    Verify {
        ruleset: String,
        /// Positions to check.
        #[arg(long, default_value_t = 100)]
        samples: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Only wins and losses this many plies from the end at most (the search goes two
        /// plies deeper).
        #[arg(long, default_value_t = 9)]
        max_plies: u32,
        /// The most nodes a search may spend; one that stops earlier is counted apart.
        #[arg(long, default_value_t = 20_000_000)]
        nodes: u64,
    },
    /// A position's value from the databases in --egtb, and every move's.
    Probe {
        ruleset: String,
        /// A position string; `--position=S` for one that starts with `-`.
        #[arg(long, allow_hyphen_values = true)]
        position: String,
    },
}

/// `win in 7 plies`, `draw`, `loss in 0 plies` (lost).
fn value_text(p: Probe) -> String {
    let unit = |n: u32| if n == 1 { "ply" } else { "plies" };
    match p.wdl {
        Wdl::Win => format!("win in {} {}", p.plies, unit(p.plies)),
        Wdl::Draw => "draw".to_string(),
        Wdl::Loss if p.plies == 0 => "lost".to_string(),
        Wdl::Loss => format!("loss in {} {}", p.plies, unit(p.plies)),
    }
}

pub fn run(command: &EgtbCommand, dir: &std::path::Path) -> Result<()> {
    match command {
        EgtbCommand::Generate {
            ruleset,
            pieces,
            threads,
            memory_gb,
        } => generate(
            ruleset,
            *pieces,
            *threads,
            memory_gb.saturating_mul(1_000_000_000),
            dir,
        ),
        EgtbCommand::Probe { ruleset, position } => probe(ruleset, position, dir),
        EgtbCommand::Verify {
            ruleset,
            samples,
            seed,
            max_plies,
            nodes,
        } => verify(
            ruleset,
            &egtb::Sampling {
                count: *samples,
                seed: *seed,
                max_plies: *max_plies,
                draws: 0.25,
            },
            *nodes,
            dir,
        ),
    }
}

fn verify(ruleset: &str, how: &egtb::Sampling, nodes: u64, dir: &std::path::Path) -> Result<()> {
    use denkmeter_engine::search::eval::{is_decisive, score_text, WIN};
    use denkmeter_engine::search::SearchOptions;
    use denkmeter_engine::Limits;
    let Some(tables) = egtb::open_ruleset(ruleset, dir)? else {
        bail!(
            "no {ruleset} databases in {}: build them with `denkmeter egtb generate {ruleset} --pieces 4`",
            dir.display()
        );
    };
    let game = crate::find_ruleset(ruleset)?;
    let samples = egtb::sample(ruleset, &tables, how)?;
    let (mut exact, mut agree, mut cut, mut wrong) = (0, 0, 0, Vec::new());
    for (position, value) in &samples {
        let session = game
            .new_game(Some(position))
            .map_err(|e| anyhow::anyhow!("{position}: {e}"))?;
        let depth = value.plies.max(6) + 2;
        let options = SearchOptions::new(Limits {
            nodes: Some(nodes),
            ..Limits::depth(depth)
        });
        let Some(line) = session.analyse(&options, &mut |_| {}) else {
            continue;
        };
        if line.depth < depth && !is_decisive(line.score) {
            cut += 1;
            continue;
        }
        let plies = (WIN - line.score.abs()) as u32;
        let fits = match value.wdl {
            Wdl::Win => line.score > 0 && is_decisive(line.score) && plies >= value.plies,
            Wdl::Loss => line.score < 0 && is_decisive(line.score) && plies <= value.plies,
            Wdl::Draw => !is_decisive(line.score),
        };
        if !fits {
            wrong.push(format!(
                "{position}: database {}, search {} at depth {}",
                value_text(*value),
                score_text(line.score),
                line.depth
            ));
        } else if value.wdl == Wdl::Draw || plies == value.plies {
            exact += 1;
        } else {
            agree += 1;
        }
    }
    outln!(
        "{} positions: {exact} with the same value and distance, {agree} won or lost at another distance the search found, {cut} not searched to the end within {nodes} nodes, {} disagree",
        samples.len(),
        wrong.len()
    );
    for line in &wrong {
        outln!("disagree {line}");
    }
    if !wrong.is_empty() {
        bail!(
            "{} of {} positions disagree with the search",
            wrong.len(),
            samples.len()
        );
    }
    Ok(())
}

fn generate(
    ruleset: &str,
    pieces: usize,
    threads: Option<usize>,
    memory_limit: u64,
    dir: &std::path::Path,
) -> Result<()> {
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 256);
    let started = Instant::now();
    let (mut positions, mut bytes) = (0u64, 0u64);
    outln!(
        "{:<12} {:>13} {:>7} {:>7} {:>7} {:>8} {:>11} {:>9}",
        "material",
        "positions",
        "wins",
        "draws",
        "losses",
        "longest",
        "bytes",
        "seconds"
    );
    let mut report = |r: &Report| {
        let t = &r.tally;
        let share = |n: u64| 100.0 * n as f64 / t.positions.max(1) as f64;
        positions += t.positions;
        bytes += r.bytes;
        outln!(
            "{:<12} {:>13} {:>6.1}% {:>6.1}% {:>6.1}% {:>8} {:>11} {:>9}",
            r.material.to_string(),
            t.positions,
            share(t.wins),
            share(t.draws),
            share(t.losses),
            t.longest,
            r.bytes,
            if r.reused {
                "(earlier)".to_string()
            } else {
                format!("{:.1}", r.elapsed.as_secs_f64())
            }
        );
    };
    egtb::generate_ruleset(ruleset, pieces, dir, threads, memory_limit, &mut report)
        .with_context(|| format!("cannot build the {ruleset} databases in {}", dir.display()))?;
    outln!(
        "total {positions} positions, {bytes} bytes in {}, {:.1} s on {threads} threads",
        dir.join(ruleset).display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn probe(ruleset: &str, position: &str, dir: &std::path::Path) -> Result<()> {
    let Some(tables) = egtb::open_ruleset(ruleset, dir)? else {
        bail!(
            "no {ruleset} databases in {}: build them with `denkmeter egtb generate {ruleset} --pieces 4`",
            dir.display()
        );
    };
    let description = egtb::describe(ruleset, &tables, position)?;
    if let Some(problem) = tables.problem() {
        bail!("cannot read the databases: {problem}");
    }
    let Some(value) = description.value else {
        bail!(
            "the position is not in the databases ({} holds up to {} pieces)",
            dir.join(ruleset).display(),
            tables.pieces()
        );
    };
    outln!("value {}", value_text(value));
    for (mv, value) in &description.moves {
        outln!("{mv} {}", value_text(*value));
    }
    Ok(())
}
