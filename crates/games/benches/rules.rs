//! Speed of the rules: perft with bulk counting at the leaves (leaves per second) and random
//! playouts to the end or the playout limit (playouts per second), one thread.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use denkmeter_core::Game;
use denkmeter_engine::mcts::playout;
use denkmeter_engine::perft::perft;
use denkmeter_games::chad::Chad;
use denkmeter_games::shakti::Shakti;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn bench_perft<G: Game>(c: &mut Criterion, game: G, depth: u32, leaves: u64) {
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

fn bench_playouts<G: Game>(c: &mut Criterion, game: G) {
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

fn rules(c: &mut Criterion) {
    bench_perft(c, Chad::new(), 3, 187_228);
    bench_perft(c, Shakti::new(), 5, 9_874_591);
    bench_playouts(c, Chad::new());
    bench_playouts(c, Shakti::new());
}

criterion_group!(benches, rules);
criterion_main!(benches);
