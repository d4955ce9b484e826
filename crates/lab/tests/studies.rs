//! Studies end to end through the database: played, interrupted and resumed on SQLite, and
//! shared by two workers on PostgreSQL, always giving the same games from the same seed.
//!
//! The PostgreSQL test needs `DENKMETER_TEST_POSTGRES_URL` (see `crates/server/tests/api.rs`);
//! without it it is skipped, unless `DENKMETER_REQUIRE_POSTGRES=1`.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use denkmeter_engine::Registry;
use denkmeter_lab::store::Cursor;
use denkmeter_lab::{
    play_study, report, work, Backend, GameMeasure, LabStore, Prepared, StudyOpenings,
    StudyRuleset, StudySpec, Worker,
};
use sqlx::any::AnyPoolOptions;

// The command line's tests' fresh PostgreSQL database, shared rather than copied.
#[path = "../../cli/tests/support/postgres.rs"]
mod postgres;
use postgres::PostgresDatabase;

fn registry() -> Registry {
    Registry::from_list(denkmeter_games::visit_rulesets)
}

/// A small study whose players do not depend on the clock, so that its games repeat.
fn spec() -> StudySpec {
    StudySpec {
        rulesets: vec![
            StudyRuleset {
                ruleset: "scandinavian-8x8".to_string(),
                board: None,
            },
            StudyRuleset {
                ruleset: "kamelen".to_string(),
                board: None,
            },
        ],
        players: vec!["ab:d1".to_string(), "mcts:60".to_string()],
        games: 3,
        openings: StudyOpenings::RandomPlies { plies: 2 },
        max_plies: 120,
        adjudicate_margin: 200,
        seed: 11,
    }
}

fn worker(threads: usize, name: &str) -> Worker {
    Worker {
        threads,
        name: name.to_string(),
        wait: false,
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap()
}

async fn open(url: &str, backend: Backend) -> LabStore {
    sqlx::any::install_default_drivers();
    let pool = AnyPoolOptions::new()
        .max_connections(6)
        .connect(url)
        .await
        .unwrap();
    LabStore::new(pool, backend).await.unwrap()
}

/// The games without their times, which differ from run to run.
fn timeless(games: Vec<(u64, GameMeasure)>) -> BTreeMap<u64, GameMeasure> {
    games
        .into_iter()
        .map(|(n, g)| (n, GameMeasure { millis: 0, ..g }))
        .collect()
}

/// The study played without a stop on SQLite, by one thread.
fn reference(
    runtime: &tokio::runtime::Runtime,
    dir: &std::path::Path,
) -> BTreeMap<u64, GameMeasure> {
    let url = format!("sqlite://{}/reference.db?mode=rwc", dir.display());
    let store = runtime.block_on(open(&url, Backend::Sqlite));
    let prepared = Prepared::new(spec(), &registry()).unwrap();
    runtime
        .block_on(store.create(&prepared.spec, "test"))
        .unwrap();
    let stop = AtomicBool::new(false);
    let summary = play_study(
        &store,
        runtime.handle(),
        &prepared,
        &worker(1, "one"),
        &stop,
        &|_, _| {},
    )
    .unwrap();
    assert_eq!(summary.played, 12);
    timeless(runtime.block_on(store.games(&prepared.id)).unwrap())
}

#[test]
fn a_study_interrupted_on_sqlite_goes_on_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let runtime = runtime();
    let expected = reference(&runtime, dir.path());
    assert_eq!(expected.len(), 12);

    let url = format!("sqlite://{}/study.db?mode=rwc", dir.path().display());
    let store = runtime.block_on(open(&url, Backend::Sqlite));
    let prepared = Prepared::new(spec(), &registry()).unwrap();
    assert!(runtime
        .block_on(store.create(&prepared.spec, "test"))
        .unwrap());
    // Stopped after five games, on two threads.
    let stop = AtomicBool::new(false);
    let seen = AtomicU64::new(0);
    let first = play_study(
        &store,
        runtime.handle(),
        &prepared,
        &worker(2, "a"),
        &stop,
        &|_, _| {
            if seen.fetch_add(1, Ordering::Relaxed) + 1 >= 5 {
                stop.store(true, Ordering::Relaxed);
            }
        },
    )
    .unwrap();
    assert!((5..=6).contains(&first.played), "{first:?}");
    let played = runtime.block_on(store.played(&prepared.id)).unwrap();
    assert_eq!(played, first.played);
    // The same study again is the same study: not created twice, its games kept.
    assert!(!runtime
        .block_on(store.create(&prepared.spec, "test"))
        .unwrap());
    let unplayed = runtime.block_on(store.unplayed(&prepared.id)).unwrap();
    assert_eq!(unplayed.len() as u64, 12 - played);
    let stop = AtomicBool::new(false);
    let second = play_study(
        &store,
        runtime.handle(),
        &prepared,
        &worker(2, "b"),
        &stop,
        &|_, _| {},
    )
    .unwrap();
    assert_eq!(first.played + second.played, 12);
    let games = timeless(runtime.block_on(store.games(&prepared.id)).unwrap());
    assert_eq!(games, expected);

    // The report counts every game, and its figures are those of the games.
    let games: Vec<(u64, GameMeasure)> = games.into_iter().collect();
    let report = report(&prepared.spec, games.iter().map(|(n, g)| (*n, g)));
    assert_eq!(report.games, 12);
    for cell in &report.cells {
        assert_eq!(cell.games, 3);
        assert_eq!(cell.first_wins + cell.second_wins + cell.draws, 3);
        let ended: u64 = cell
            .endings
            .iter()
            .map(|e| e.first_wins + e.second_wins + e.draws)
            .sum();
        assert_eq!(ended, 3);
    }
    let listed = runtime.block_on(store.studies()).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!((listed[0].played, listed[0].total), (12, 12));
    assert_eq!(listed[0].spec, prepared.spec);
}

#[test]
fn workers_on_sqlite_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let runtime = runtime();
    let url = format!("sqlite://{}/w.db?mode=rwc", dir.path().display());
    let store = runtime.block_on(open(&url, Backend::Sqlite));
    let stop = AtomicBool::new(false);
    let error = work(
        &store,
        runtime.handle(),
        &registry(),
        &worker(1, "w"),
        &stop,
        &|_, _, _| {},
    )
    .unwrap_err();
    assert!(error.to_string().contains("PostgreSQL"), "{error}");
}

#[test]
fn two_workers_on_postgres_share_a_study_and_play_the_same_games() {
    let Some(database) = PostgresDatabase::create("lab_workers") else {
        return;
    };
    let runtime = runtime();
    let dir = tempfile::tempdir().unwrap();
    let expected = reference(&runtime, dir.path());

    let prepared = Prepared::new(spec(), &registry()).unwrap();
    let creator = runtime.block_on(open(&database.url, Backend::Postgres));
    assert!(runtime
        .block_on(creator.create(&prepared.spec, "test"))
        .unwrap());
    // Two workers, each with its own pool (as two processes would be), at once; the second
    // starts by creating the tables too, which must not race with the first.
    let stop = AtomicBool::new(false);
    let (a, b) = std::thread::scope(|scope| {
        let worker = |name: &'static str| {
            let (runtime, url, stop) = (&runtime, &database.url, &stop);
            scope.spawn(move || {
                let store = runtime.block_on(open(url, Backend::Postgres));
                let registry = registry();
                work(
                    &store,
                    runtime.handle(),
                    &registry,
                    &worker(2, name),
                    stop,
                    &|_, _, _| {},
                )
                .unwrap()
            })
        };
        let (a, b) = (worker("a"), worker("b"));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(a.played + b.played, 12, "{a:?} {b:?}");
    let games = timeless(runtime.block_on(creator.games(&prepared.id)).unwrap());
    assert_eq!(games, expected);
    // Nothing is left to take.
    assert!(runtime
        .block_on(creator.claim(&prepared.id, 0))
        .unwrap()
        .is_none());
    drop(creator);
}

#[test]
fn a_worker_that_dies_loses_only_its_game_in_hand() {
    let Some(database) = PostgresDatabase::create("lab_dies") else {
        return;
    };
    let runtime = runtime();
    // Claims are dropped here, as a worker's thread would, inside the runtime.
    let _runtime = runtime.enter();
    let prepared = Prepared::new(spec(), &registry()).unwrap();
    let store = runtime.block_on(open(&database.url, Backend::Postgres));
    runtime
        .block_on(store.create(&prepared.spec, "test"))
        .unwrap();
    // A worker takes a game and dies with it (its claim dropped: the connection's
    // transaction rolls back); another worker, meanwhile, skips the locked game.
    let claim = runtime
        .block_on(store.claim(&prepared.id, 0))
        .unwrap()
        .unwrap();
    assert_eq!(claim.number, 0);
    let other = runtime
        .block_on(store.claim(&prepared.id, 0))
        .unwrap()
        .unwrap();
    assert_eq!(other.number, 1);
    drop(other);
    drop(claim);
    // Both games are free again once the transactions have rolled back.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let again = loop {
        let claim = runtime
            .block_on(store.claim(&prepared.id, 0))
            .unwrap()
            .unwrap();
        if claim.number == 0 || std::time::Instant::now() > deadline {
            break claim;
        }
        drop(claim);
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(again.number, 0);
    let game = prepared.play(0).unwrap();
    runtime.block_on(store.finish(again, &game, "c")).unwrap();
    assert_eq!(runtime.block_on(store.played(&prepared.id)).unwrap(), 1);
    let next = runtime
        .block_on(store.claim(&prepared.id, 0))
        .unwrap()
        .unwrap();
    assert_eq!(next.number, 1);
    drop(next);

    // A worker's cursor goes on past the games it took, and comes back for a game whose
    // worker died.
    let mut cursor = Cursor::default();
    let take = |cursor: &mut Cursor| runtime.block_on(cursor.next(&store, None)).unwrap();
    let mut first = take(&mut cursor).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while first.number != 1 && std::time::Instant::now() < deadline {
        // Game 1's rollback is not through yet.
        drop(first);
        std::thread::sleep(std::time::Duration::from_millis(50));
        cursor = Cursor::default();
        first = take(&mut cursor).unwrap();
    }
    assert_eq!(first.number, 1);
    let second = take(&mut cursor).unwrap();
    assert_eq!(second.number, 2);
    drop(first);
    let mut order = vec![2];
    runtime
        .block_on(store.finish(second, &prepared.play(2).unwrap(), "c"))
        .unwrap();
    while let Some(claim) = take(&mut cursor) {
        order.push(claim.number);
        let game = prepared.play(claim.number).unwrap();
        runtime.block_on(store.finish(claim, &game, "c")).unwrap();
    }
    assert_eq!(order, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1], "{order:?}");
    assert_eq!(runtime.block_on(store.played(&prepared.id)).unwrap(), 12);
}
