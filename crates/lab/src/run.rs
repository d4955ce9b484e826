//! Playing a study's games on threads, the results going to the database as each game ends.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use denkmeter_engine::dynamic::AnyGame;
use denkmeter_engine::matches::Opening;
use denkmeter_engine::{Agent, Registry};
use tokio::runtime::Handle;

use crate::play::{play_slot, study_opening, GameMeasure, PlayError};
use crate::store::{Backend, Cursor, LabStore, LabStoreError};
use crate::study::{StudyError, StudySpec};

/// The most threads a process plays games on.
pub const MAX_THREADS: usize = 256;
/// How long a worker waiting for work sleeps between looks at the database.
pub const IDLE_POLL: Duration = Duration::from_secs(2);

/// Why games could not be played.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Store(#[from] LabStoreError),
    #[error(transparent)]
    Play(#[from] PlayError),
    #[error("study {id}: {error}")]
    Study { id: String, error: StudyError },
    #[error("no study {0} in this database")]
    NoStudy(String),
    #[error("a study in SQLite is played by the `lab` command that holds it; workers that share a study need PostgreSQL")]
    WorkersNeedPostgres,
    /// A game whose play panicked (a bug): its study, number and the panic's message.
    #[error("study {id}, game {number}: the game failed: {message}")]
    Panicked {
        id: String,
        number: u64,
        message: String,
    },
}

/// A study ready to play: its games resolved and its openings computed once.
#[derive(Debug)]
pub struct Prepared {
    pub id: String,
    pub spec: StudySpec,
    games: Vec<Arc<dyn AnyGame>>,
    agents: Vec<Agent>,
    /// Openings by ruleset and game index, shared by the players of a ruleset.
    openings: Mutex<HashMap<(usize, u32), SharedOpening>>,
}

/// An opening computed by the first game that needs it, the others waiting for it.
type SharedOpening = Arc<OnceLock<Result<Opening, PlayError>>>;

/// How a process plays games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worker {
    /// Games played at once, each on a thread (1 to [`MAX_THREADS`]).
    pub threads: usize,
    /// The name written with every game this process plays: host and process id.
    pub name: String,
    /// For [`work`]: when no game is left, wait for new studies until stopped.
    pub wait: bool,
}

impl Prepared {
    pub fn new(spec: StudySpec, registry: &Registry) -> Result<Prepared, RunError> {
        let id = spec.id();
        let study_error = |error| RunError::Study {
            id: id.clone(),
            error,
        };
        let games = spec.resolve(registry).map_err(study_error)?;
        let agents = spec.agents().map_err(study_error)?;
        Ok(Prepared {
            id,
            spec,
            games,
            agents,
            openings: Mutex::default(),
        })
    }

    /// Plays game `number` of the study; a panic in the game (a bug) is an error, not the end
    /// of the thread.
    pub fn play(&self, number: u64) -> Result<GameMeasure, RunError> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.play_unguarded(number)))
            .unwrap_or_else(|panic| {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".to_string());
                Err(RunError::Panicked {
                    id: self.id.clone(),
                    number,
                    message,
                })
            })
    }

    fn play_unguarded(&self, number: u64) -> Result<GameMeasure, RunError> {
        let slot = self
            .spec
            .slot(number)
            .ok_or_else(|| LabStoreError::Corrupt {
                study: self.id.clone(),
                what: format!("game {number}"),
                reason: "no such game in the study".to_string(),
            })?;
        let game = self.games[slot.ruleset].as_ref();
        let cell = {
            let mut openings = self.openings.lock().unwrap_or_else(|e| e.into_inner());
            openings
                .entry((slot.ruleset, slot.index))
                .or_default()
                .clone()
        };
        let opening = cell.get_or_init(|| study_opening(&self.spec, game, slot));
        let opening = opening.as_ref().map_err(Clone::clone)?;
        let measure = play_slot(&self.spec, game, self.agents[slot.player], slot, opening)?;
        // Every player of this opening has had it: forget it.
        let players = self.spec.players.len() as u64;
        if number % players == players - 1 {
            let mut openings = self.openings.lock().unwrap_or_else(|e| e.into_inner());
            openings.remove(&(slot.ruleset, slot.index));
        }
        Ok(measure)
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunSummary {
    /// Games this process played and wrote.
    pub played: u64,
    /// The time its threads waited for the database (taking games and writing results), in
    /// all: the database's cost of the games, as a worker sees it.
    pub database: Duration,
}

/// Runs `f`, adding the time it took to `total` (microseconds).
fn timed<T>(total: &AtomicU64, f: impl FnOnce() -> T) -> T {
    let started = std::time::Instant::now();
    let result = f();
    let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
    total.fetch_add(micros, Ordering::Relaxed);
    result
}

/// Plays the unplayed games of one study on `worker.threads` threads, writing each result as it
/// ends; `on_game` is called after each game written. On SQLite the games are handed out
/// among the threads; on PostgreSQL each is claimed from the database, so that other workers
/// can play the same study at once. Returns when no game is left to take, or at the first
/// error, or when `stop` is set (games in hand are finished first).
pub fn play_study(
    store: &LabStore,
    handle: &Handle,
    prepared: &Prepared,
    worker: &Worker,
    stop: &AtomicBool,
    on_game: &(dyn Fn(u64, &GameMeasure) + Sync),
) -> Result<RunSummary, RunError> {
    let threads = worker.threads.clamp(1, MAX_THREADS);
    let worker = worker.name.as_str();
    let played = AtomicU64::new(0);
    let database = AtomicU64::new(0);
    let failure: Mutex<Option<RunError>> = Mutex::new(None);
    let fail = |error: RunError| {
        stop.store(true, Ordering::Relaxed);
        let mut failure = failure.lock().unwrap_or_else(|e| e.into_inner());
        failure.get_or_insert(error);
    };
    match store.backend() {
        Backend::Sqlite => {
            let numbers = timed(&database, || handle.block_on(store.unplayed(&prepared.id)))?;
            let next = AtomicUsize::new(0);
            std::thread::scope(|scope| {
                for _ in 0..threads.min(numbers.len().max(1)) {
                    scope.spawn(|| {
                        while !stop.load(Ordering::Relaxed) {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&number) = numbers.get(i) else {
                                break;
                            };
                            let result = prepared.play(number).and_then(|game| {
                                timed(&database, || {
                                    handle.block_on(store.save(&prepared.id, number, &game, worker))
                                })?;
                                Ok(game)
                            });
                            match result {
                                Ok(game) => {
                                    played.fetch_add(1, Ordering::Relaxed);
                                    on_game(number, &game);
                                }
                                Err(error) => fail(error),
                            }
                        }
                    });
                }
            });
        }
        Backend::Postgres => {
            std::thread::scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(|| {
                        // A claim dropped unfinished (a game that fails) rolls back through
                        // the runtime.
                        let _runtime = handle.enter();
                        let mut cursor = Cursor::default();
                        while !stop.load(Ordering::Relaxed) {
                            let claim = match timed(&database, || {
                                handle.block_on(cursor.next(store, Some(&prepared.id)))
                            }) {
                                Ok(Some(claim)) => claim,
                                Ok(None) => break,
                                Err(error) => {
                                    fail(error.into());
                                    break;
                                }
                            };
                            let number = claim.number;
                            let result = prepared.play(number).and_then(|game| {
                                timed(&database, || {
                                    handle.block_on(store.finish(claim, &game, worker))
                                })?;
                                Ok(game)
                            });
                            match result {
                                Ok(game) => {
                                    played.fetch_add(1, Ordering::Relaxed);
                                    on_game(number, &game);
                                }
                                Err(error) => fail(error),
                            }
                        }
                    });
                }
            });
        }
    }
    match failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(error) => Err(error),
        None => Ok(RunSummary {
            played: played.into_inner(),
            database: Duration::from_micros(database.into_inner()),
        }),
    }
}

/// A worker on PostgreSQL: plays the unplayed games of every study in the database, oldest
/// study first, on `worker.threads` threads, until none is left (or, with `worker.wait`, until
/// `stop` is set, looking for new studies every [`IDLE_POLL`]). `on_game` is called with the study's
/// id after each game written.
pub fn work(
    store: &LabStore,
    handle: &Handle,
    registry: &Registry,
    worker: &Worker,
    stop: &AtomicBool,
    on_game: &(dyn Fn(&str, u64, &GameMeasure) + Sync),
) -> Result<RunSummary, RunError> {
    if store.backend() != Backend::Postgres {
        return Err(RunError::WorkersNeedPostgres);
    }
    let threads = worker.threads.clamp(1, MAX_THREADS);
    let wait = worker.wait;
    let worker = worker.name.as_str();
    let studies: Mutex<HashMap<String, Arc<Prepared>>> = Mutex::default();
    let played = AtomicU64::new(0);
    let database = AtomicU64::new(0);
    let failure: Mutex<Option<RunError>> = Mutex::new(None);
    let fail = |error: RunError| {
        stop.store(true, Ordering::Relaxed);
        let mut failure = failure.lock().unwrap_or_else(|e| e.into_inner());
        failure.get_or_insert(error);
    };
    let prepared = |id: &str| -> Result<Arc<Prepared>, RunError> {
        if let Some(p) = studies.lock().unwrap_or_else(|e| e.into_inner()).get(id) {
            return Ok(p.clone());
        }
        let study = handle
            .block_on(store.study(id))?
            .ok_or_else(|| RunError::NoStudy(id.to_string()))?;
        let p = Arc::new(Prepared::new(study.spec, registry)?);
        studies
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_string(), p.clone());
        Ok(p)
    };
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                // A claim dropped unfinished (a game that fails) rolls back through the
                // runtime.
                let _runtime = handle.enter();
                let mut cursor = Cursor::default();
                while !stop.load(Ordering::Relaxed) {
                    let claim = match timed(&database, || handle.block_on(cursor.next(store, None)))
                    {
                        Ok(Some(claim)) => claim,
                        Ok(None) if wait => {
                            std::thread::sleep(IDLE_POLL);
                            continue;
                        }
                        Ok(None) => break,
                        Err(error) => {
                            fail(error.into());
                            break;
                        }
                    };
                    let (study, number) = (claim.study.clone(), claim.number);
                    let result = match prepared(&study).and_then(|p| p.play(number)) {
                        // A study this worker cannot play (made by a newer program, an
                        // opening that cannot be found, a bug) is left to others: its game
                        // goes back (the claim rolls back) and the worker goes on.
                        Err(
                            error @ (RunError::Study { .. }
                            | RunError::NoStudy(_)
                            | RunError::Play(_)
                            | RunError::Panicked { .. }),
                        ) => {
                            tracing::warn!(study, %error, "a study this worker cannot play: skipped");
                            drop(claim);
                            cursor.skip(&study);
                            continue;
                        }
                        Err(error) => Err(error),
                        Ok(game) => {
                            timed(&database, || handle.block_on(store.finish(claim, &game, worker)))
                                .map(|()| game)
                                .map_err(RunError::from)
                        }
                    };
                    match result {
                        Ok(game) => {
                            played.fetch_add(1, Ordering::Relaxed);
                            on_game(&study, number, &game);
                        }
                        Err(error) => fail(error),
                    }
                }
            });
        }
    });
    match failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(error) => Err(error),
        None => Ok(RunSummary {
            played: played.into_inner(),
            database: Duration::from_micros(database.into_inner()),
        }),
    }
}
