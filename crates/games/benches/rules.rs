//! Speed of the rules, one thread: perft with bulk counting at the leaves (leaves per second)
//! and random playouts to the end or the playout limit (playouts per second). Every perft count
//! is asserted: the published counts for English and International, counts cross-checked with
//! the Python references in `tools/` at smaller depths for the others.
//!
//! Targets from issue 4 (twenty times Ludii): English perft 25 million leaves/s, International
//! 10 million; playouts 81,800/s English, 23,220/s International, 13,660/s Scandinavian.
//!
//! `cargo bench -p denkmeter-games`, or a filter: `cargo bench -p denkmeter-games -- english`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use denkmeter_core::Game;
use denkmeter_engine::mcts::playout;
use denkmeter_engine::perft::perft;
use denkmeter_games::chad::Chad;
use denkmeter_games::draughts::{English, International, Scandinavian, Scandinavian8x8};
use denkmeter_games::shakti::Shakti;
use denkmeter_games::sjekkers::Sjekkers;
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

fn bench_playouts<G: Game>(c: &mut Criterion, game: G, playouts: u64) {
    let start = game.start();
    let mut group = c.benchmark_group("random playouts");
    group.throughput(Throughput::Elements(playouts));
    group.sample_size(10);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut moves = Vec::new();
    group.bench_function(game.name().to_string(), |b| {
        b.iter(|| {
            let mut total = 0.0;
            for _ in 0..playouts {
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
    bench_perft(c, English::new(), 10, 18_391_564);
    bench_perft(c, International::new(), 8, 6_483_961);
    bench_perft(c, Scandinavian8x8::new(), 10, 8_435_213);
    bench_perft(c, Scandinavian::new(), 9, 15_605_083);
    bench_perft(c, Sjekkers::new(), 6, 313_109_946);
    bench_perft(c, Sjekkers::sideways(), 5, 12_446_308);
    bench_perft(c, Sjekkers::checkers(), 7, 125_853_308);
    bench_playouts(c, Chad::new(), 100);
    bench_playouts(c, Shakti::new(), 100);
    bench_playouts(c, English::new(), 1000);
    bench_playouts(c, International::new(), 1000);
    bench_playouts(c, Scandinavian8x8::new(), 1000);
    bench_playouts(c, Scandinavian::new(), 1000);
    bench_playouts(c, Sjekkers::new(), 1000);
}

criterion_group!(benches, rules);
criterion_main!(benches);
