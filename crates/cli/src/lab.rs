//! `denkmeter lab`: self-play studies of rulesets, stored in a database and played by this
//! process and any number of workers.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use denkmeter_lab::{
    figures, play_study, report, work, Backend, LabStore, Prepared, StudyOpenings, StudyReport,
    StudyRuleset, StudySpec, Worker,
};
use indicatif::{ProgressBar, ProgressStyle};
use tokio::runtime::Runtime;

/// The database a study is kept in when none is named.
const DEFAULT_DATABASE: &str = "sqlite://denkmeter-lab.db";

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct LabArgs {
    #[command(subcommand)]
    command: Option<LabCommand>,
    #[command(flatten)]
    study: StudyArgs,
}

#[derive(Debug, Subcommand)]
enum LabCommand {
    /// Play the unplayed games of every study in a PostgreSQL database, oldest study first,
    /// beside any number of other workers on any machines.
    Worker(WorkerArgs),
    /// Print a stored study's report (the newest study if none is named), with its JSON, CSV
    /// and charts if asked.
    Report(ReportArgs),
    /// List the stored studies.
    List {
        #[arg(long, default_value = DEFAULT_DATABASE)]
        database: String,
    },
}

#[derive(Debug, Args)]
struct StudyArgs {
    /// The rulesets to compare; `RULESET@FILE` plays a ruleset whose board is data (Schada)
    /// on the board file FILE.
    #[arg(value_name = "RULESET[@BOARD_FILE]")]
    rulesets: Vec<String>,
    /// The players, each playing itself, weakest first, comma-separated: computer:LEVEL,
    /// mcts:LIMITS, ismcts:LIMITS or ab:LIMITS (e.g. ab:d4,ab:d8,ab:0.2s), or random.
    #[arg(long, value_delimiter = ',', default_value = "ab:d2,ab:d4")]
    players: Vec<String>,
    /// Games for each ruleset and player.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seeds the openings and the players' choices: the same study from the same seed plays
    /// the same games, on any number of workers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Each game starts from this many uniformly random legal plies (the same openings for
    /// every player of a ruleset).
    #[arg(long, value_name = "N", default_value_t = 4)]
    random_plies: u32,
    /// Keep only random openings that a short alpha-beta search (100,000 nodes) scores within
    /// MARGIN hundredths of the game's basic piece of even, so that a first-player advantage
    /// measured is the rules' and not the opening's.
    #[arg(long, value_name = "MARGIN", conflicts_with = "from_start")]
    balanced: Option<u32>,
    /// Every game from the start position, without random plies (players whose search does
    /// not depend on the seed then repeat one game: see the report's distinct games).
    #[arg(long)]
    from_start: bool,
    /// Games still going after this many plies from their opening are adjudicated on material.
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    /// At --max-plies, a lead in material of at least this much (hundredths of the basic
    /// piece) wins; less is a draw, as is every game without material.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
    adjudicate_margin: u32,
    /// Where the study is kept: a SQLite file (played by this process alone) or PostgreSQL
    /// (postgres://...), which `denkmeter lab worker` processes on other machines share.
    #[arg(long, default_value = DEFAULT_DATABASE)]
    database: String,
    /// Games played at once by this process [default: the number of cores]. 0 plays none here:
    /// the study is stored and its progress followed while workers play it (PostgreSQL).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=256))]
    concurrency: Option<u32>,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Debug, Args)]
struct OutputArgs {
    /// Write the report as JSON to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the report as CSV (a row per ruleset and player) to this file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Write the study's charts as SVG files into this directory (created if missing).
    #[arg(long, value_name = "DIR")]
    charts: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct WorkerArgs {
    /// The PostgreSQL database that holds the studies.
    #[arg(long)]
    database: String,
    /// Games played at once [default: the number of cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: Option<u32>,
    /// When no game is left, wait for new studies instead of stopping.
    #[arg(long)]
    wait: bool,
}

#[derive(Debug, Args)]
struct ReportArgs {
    /// The study's id (as `lab list` shows it); the newest study if omitted.
    study: Option<String>,
    #[arg(long, default_value = DEFAULT_DATABASE)]
    database: String,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: &LabArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .context("cannot start the database runtime")?;
    match &args.command {
        Some(LabCommand::Worker(worker)) => run_worker(&runtime, worker),
        Some(LabCommand::Report(report)) => run_report(&runtime, report),
        Some(LabCommand::List { database }) => run_list(&runtime, database),
        None => run_study(&runtime, &args.study),
    }
}

fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u32)
}

/// Opens the lab's tables with room for `threads` games at once.
fn open(runtime: &Runtime, url: &str, threads: u32) -> Result<LabStore> {
    runtime.block_on(async {
        let (pool, postgres) = denkmeter_server::store::connect(url, threads + 2).await?;
        let backend = if postgres {
            Backend::Postgres
        } else {
            Backend::Sqlite
        };
        Ok(LabStore::new(pool, backend).await?)
    })
}

/// A name for this process in the games it writes: host and process id.
fn worker_name() -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_string());
    format!("{host}-{}", std::process::id())
}

fn parse_ruleset(text: &str) -> Result<StudyRuleset> {
    let Some((ruleset, path)) = text.split_once('@') else {
        return Ok(StudyRuleset {
            ruleset: text.to_string(),
            board: None,
        });
    };
    let (name, text) = crate::read_board_file(Path::new(path))?;
    Ok(StudyRuleset {
        ruleset: ruleset.to_string(),
        board: Some(denkmeter_lab::BoardFile { name, text }),
    })
}

fn run_study(runtime: &Runtime, args: &StudyArgs) -> Result<()> {
    if args.rulesets.is_empty() {
        bail!("name the rulesets to study, e.g. `denkmeter lab scandinavian-8x8 chad --players ab:d2,ab:d4` (`denkmeter list` names them all)");
    }
    let openings = match (args.from_start, args.balanced) {
        (true, _) => StudyOpenings::Start,
        (false, Some(margin)) => StudyOpenings::Balanced {
            plies: args.random_plies,
            margin,
        },
        (false, None) => StudyOpenings::RandomPlies {
            plies: args.random_plies,
        },
    };
    let spec = StudySpec {
        rulesets: args
            .rulesets
            .iter()
            .map(|r| parse_ruleset(r))
            .collect::<Result<_>>()?,
        players: args.players.iter().map(|p| p.trim().to_string()).collect(),
        games: args.games,
        openings,
        max_plies: args.max_plies,
        adjudicate_margin: args.adjudicate_margin,
        seed: args.seed,
    };
    let prepared = Prepared::new(spec, crate::registry())?;
    let threads = args.concurrency.unwrap_or_else(cores);
    let store = open(runtime, &args.database, threads.max(1))?;
    if threads == 0 && store.backend() == Backend::Sqlite {
        bail!("--concurrency 0 leaves the study to workers, which need PostgreSQL; a study in SQLite is played by this command");
    }
    let id = prepared.id.clone();
    let created = runtime.block_on(store.create(&prepared.spec, "cli"))?;
    let total = prepared.spec.total_games();
    let played = runtime.block_on(store.played(&id))?;
    if created {
        outln!("study {id}: {total} games in {}", args.database);
    } else {
        outln!(
            "study {id}: {played} of {total} games already played in {}, going on",
            args.database
        );
    }
    let bar = progress_bar(total, played);
    let stop = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        // The bar follows the database, so it counts other workers' games too.
        let follower = scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if let Ok(n) = runtime.block_on(store.played(&id)) {
                    bar.set_position(n);
                    if threads == 0 && n >= total {
                        break;
                    }
                }
                // Woken at once when the games are done.
                std::thread::park_timeout(Duration::from_millis(500));
            }
        });
        // However the games end (a panic included), the follower is told.
        let done_guard = Done(&done, follower.thread().clone());
        let result = if threads == 0 {
            // Wait for the workers.
            loop {
                match runtime.block_on(store.played(&id)) {
                    Ok(n) if n >= total => break Ok(()),
                    Ok(_) => std::thread::sleep(Duration::from_secs(1)),
                    Err(error) => break Err(error.into()),
                }
            }
        } else {
            play_study(
                &store,
                runtime.handle(),
                &prepared,
                &Worker {
                    threads: threads as usize,
                    name: worker_name(),
                    wait: false,
                },
                &stop,
                &|_, _| {},
            )
            .map(|_| ())
            .map_err(anyhow::Error::from)
        };
        drop(done_guard);
        result
    });
    bar.finish_and_clear();
    result?;
    let played = runtime.block_on(store.played(&id))?;
    if played < total {
        outln!("{played} of {total} games played; other workers are playing the rest");
    }
    let games = runtime.block_on(store.games(&id))?;
    let report = report(&prepared.spec, games.iter().map(|(n, g)| (*n, g)));
    print_and_write(&report, &games, &args.output)
}

/// Tells the progress thread that the games are over when dropped.
struct Done<'a>(&'a AtomicBool, std::thread::Thread);

impl Drop for Done<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        self.1.unpark();
    }
}

fn progress_bar(total: u64, played: u64) -> ProgressBar {
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(total)
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) =
        ProgressStyle::with_template("{bar:30} {pos}/{len} games [{elapsed}, {eta} left]")
    {
        bar.set_style(style);
    }
    bar.set_position(played);
    bar.enable_steady_tick(Duration::from_secs(1));
    bar
}

fn print_and_write(
    report: &StudyReport,
    games: &[(u64, denkmeter_lab::GameMeasure)],
    output: &OutputArgs,
) -> Result<()> {
    out!("{}", report.to_text());
    if let Some(path) = &output.json {
        let json = serde_json::to_string_pretty(report)?;
        std::fs::write(path, json + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
        outln!("report written to {}", path.display());
    }
    if let Some(path) = &output.csv {
        std::fs::write(path, report.to_csv())
            .with_context(|| format!("cannot write {}", path.display()))?;
        outln!("table written to {}", path.display());
    }
    if let Some(dir) = &output.charts {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the directory {}", dir.display()))?;
        let figures = figures(report, games);
        for figure in &figures {
            let path = dir.join(&figure.file);
            std::fs::write(&path, &figure.svg)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        outln!("{} charts written to {}", figures.len(), dir.display());
    }
    Ok(())
}

fn run_worker(runtime: &Runtime, args: &WorkerArgs) -> Result<()> {
    let threads = args.concurrency.unwrap_or_else(cores);
    let store = open(runtime, &args.database, threads)?;
    let worker = worker_name();
    tracing::info!(worker, threads, "lab worker started");
    let stop = AtomicBool::new(false);
    let on_terminal = std::io::stderr().is_terminal();
    let summary = work(
        &store,
        runtime.handle(),
        crate::registry(),
        &Worker {
            threads: threads as usize,
            name: worker.clone(),
            wait: args.wait,
        },
        &stop,
        &|study, number, game| {
            if !on_terminal {
                eprintln!(
                    "study {study} game {number}: {} ({}, {} plies)",
                    match game.winner {
                        Some(denkmeter_lab::Side::First) => "first player won",
                        Some(denkmeter_lab::Side::Second) => "second player won",
                        None => "draw",
                    },
                    game.reason,
                    game.plies
                );
            }
        },
    )?;
    let per_game = if summary.played == 0 {
        0.0
    } else {
        summary.database.as_secs_f64() * 1000.0 / summary.played as f64
    };
    outln!(
        "worker {worker}: {} games played, {per_game:.2} ms of database time a game (taking it and writing its result)",
        summary.played
    );
    Ok(())
}

fn run_report(runtime: &Runtime, args: &ReportArgs) -> Result<()> {
    let store = open(runtime, &args.database, 1)?;
    let study = match &args.study {
        Some(id) => runtime.block_on(store.study(id))?,
        None => runtime.block_on(store.studies())?.into_iter().next(),
    };
    let Some(study) = study else {
        match &args.study {
            Some(id) => bail!("no study {id} in {}", args.database),
            None => bail!("no study in {}", args.database),
        }
    };
    let games = runtime.block_on(store.games(&study.id))?;
    let report = report(&study.spec, games.iter().map(|(n, g)| (*n, g)));
    print_and_write(&report, &games, &args.output)
}

fn run_list(runtime: &Runtime, database: &str) -> Result<()> {
    let store = open(runtime, database, 1)?;
    let studies = runtime.block_on(store.studies())?;
    if studies.is_empty() {
        outln!("no studies in {database}");
    }
    for s in studies {
        let rulesets: Vec<String> = s.spec.rulesets.iter().map(|r| r.label()).collect();
        outln!(
            "{}  {}/{} games  {}  players {}  seed {}",
            s.id,
            s.played,
            s.total,
            rulesets.join(" "),
            s.spec.players.join(","),
            s.spec.seed
        );
    }
    Ok(())
}
