//! Speed of the alpha-beta search on one thread: a fixed-depth search from a position (its
//! time, and its nodes per second as throughput), so that changes to the search or an
//! evaluation show as time to depth.
//!
//! Targets from issue 11: International from the start to depth 14 in under a second on one
//! core, at least 3 million nodes per second; the Chad example's mate in two in under 0.1 s.
//!
//! `cargo bench -p denkmeter-engine --bench search`, or a filter: `-- international`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use denkmeter_core::{Game, Player};
use denkmeter_engine::pimc;
use denkmeter_engine::search::{search, search_with, SearchOptions};
use denkmeter_engine::Limits;
use denkmeter_games::chad::Chad;
use denkmeter_games::draughts::{English, International, Scandinavian};
use denkmeter_games::trangalla::Trangalla;

/// Benchmarks a search of `state` to `depth`, its throughput the nodes that search visits.
fn bench_depth<G: Game>(c: &mut Criterion, label: &str, game: &G, state: &G::State, depth: u32) {
    let options = SearchOptions::new(Limits::depth(depth));
    let nodes = search_with(game, state, &options, &mut |_| {}).map_or(1, |r| r.nodes.max(1));
    let mut group = c.benchmark_group("alpha-beta");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function(format!("{label} depth {depth}"), |b| {
        b.iter(|| search_with(game, state, &options, &mut |_| {}))
    });
    group.finish();
}

fn draughts(c: &mut Criterion) {
    let international = International::new();
    bench_depth(
        c,
        "international start",
        &international,
        &international.start(),
        14,
    );
    let english = English::new();
    bench_depth(c, "english start", &english, &english.start(), 14);
    let scandinavian = Scandinavian::new();
    bench_depth(
        c,
        "scandinavian start",
        &scandinavian,
        &scandinavian.start(),
        10,
    );
}

/// A game in progress: 84 plies of depth-4 play from the International start, then a search
/// that knows them, as in a game on the server or in `match` (the repetition check looks back
/// over the game so far).
fn international_game(c: &mut Criterion) {
    let game = International::new();
    let mut state = game.start();
    let mut history = Vec::new();
    for _ in 0..84 {
        let Some(found) = search(&game, &state, Limits::depth(4)) else {
            panic!("the game ended early");
        };
        history.push(game.repetition_hash(&state));
        game.play_unchecked(&mut state, found.best);
    }
    let options = SearchOptions {
        history,
        ..SearchOptions::new(Limits::depth(14))
    };
    let nodes = search_with(&game, &state, &options, &mut |_| {}).map_or(1, |r| r.nodes.max(1));
    let mut group = c.benchmark_group("alpha-beta");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function("international ply 84 of a game depth 14", |b| {
        b.iter(|| search_with(&game, &state, &options, &mut |_| {}))
    });
    group.finish();
}

fn chad(c: &mut Criterion) {
    let game = Chad::new();
    let Ok(state) = game.parse_position("12/12/12/3R3rk3/12/7R4/12/12/2RKR7/12/4q7/12 w") else {
        panic!("the rules file's example position must read");
    };
    let mut group = c.benchmark_group("alpha-beta");
    group.sample_size(10);
    group.bench_function("chad example mate in two", |b| {
        b.iter(|| search(&game, &state, Limits::depth(3)))
    });
    group.finish();
}

/// Alpha-beta over drawings (Trangalla, Black's king hidden from White): passes of one more
/// ply up to `depth` over every (drawing, answer) search, as a timed search spends its time.
fn sampled(c: &mut Criterion) {
    let game = Trangalla::new();
    let Ok(truth) = game.parse_position("2ss1/3ks/S3s/SK3/1SS2 w") else {
        panic!("the Trangalla position must read");
    };
    let seen = game.observation(&truth, Player::White);
    let depth = 6;
    let options = SearchOptions {
        seed: 5,
        ..SearchOptions::new(Limits {
            depth: Some(depth),
            nodes: Some(u64::MAX),
            time: None,
            target: None,
        })
    };
    let nodes = pimc::search(&game, &seen, Player::White, &options).map_or(1, |r| r.nodes.max(1));
    let mut group = c.benchmark_group("alpha-beta over drawings");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function(format!("trangalla passes to depth {depth}"), |b| {
        b.iter(|| pimc::search(&game, &seen, Player::White, &options))
    });
    group.finish();
}

criterion_group!(benches, draughts, international_game, chad, sampled);
criterion_main!(benches);
