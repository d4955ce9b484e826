//! Speed of the Sjekkers rules, one thread: perft from the start with bulk counting at the
//! leaves (leaves per second) and random playouts to the end or the playout limit (playouts
//! per second), for `sjekkers` (and perft for the two other rulesets).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use denkmeter_core::Game;
use denkmeter_engine::mcts::playout;
use denkmeter_engine::perft::perft;
use denkmeter_games::sjekkers::Sjekkers;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn bench_perft(c: &mut Criterion, game: Sjekkers, depth: u32, leaves: u64) {
    let start = game.start();
    assert_eq!(
        perft(&game, &start, depth),
        leaves,
        "{} perft {depth}",
        game.name()
    );
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(leaves));
    group.sample_size(10);
    group.bench_function(format!("{} depth {depth}", game.name()), |b| {
        b.iter(|| perft(&game, black_box(&start), depth))
    });
    group.finish();
}

fn bench_playouts(c: &mut Criterion, game: Sjekkers) {
    const PLAYOUTS: u64 = 100;
    let start = game.start();
    let mut group = c.benchmark_group("random playouts");
    group.throughput(Throughput::Elements(PLAYOUTS));
    group.sample_size(10);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut moves = Vec::new();
    group.bench_function(game.name().to_string(), |b| {
        b.iter(|| {
            let mut total = 0.0;
            for _ in 0..PLAYOUTS {
                let mut state = start.clone();
                total += playout(&game, &mut state, &mut moves, &mut rng);
            }
            total
        })
    });
    group.finish();
}

fn sjekkers(c: &mut Criterion) {
    bench_perft(c, Sjekkers::new(), 6, 313_109_946);
    bench_perft(c, Sjekkers::sideways(), 5, 12_446_308);
    bench_perft(c, Sjekkers::checkers(), 7, 125_853_308);
    bench_playouts(c, Sjekkers::new());
}

criterion_group!(benches, sjekkers);
criterion_main!(benches);
