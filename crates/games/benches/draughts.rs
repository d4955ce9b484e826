//! Speed of the draughts rules: perft with bulk counting at the leaves (leaves per second) and
//! random playouts to the end or the playout limit (playouts per second), one thread, for
//! English checkers, International draughts and Scandinavian checkers on 8x8 and 10x10.
//!
//! Targets (twenty times Ludii): English perft 25 million leaves/s, International 10 million;
//! playouts 81,800/s English, 23,220/s International, 13,660/s Scandinavian.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use denkmeter_core::Game;
use denkmeter_engine::mcts::playout;
use denkmeter_engine::perft::perft;
use denkmeter_games::draughts::{English, International, Scandinavian, Scandinavian8x8};
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
    let mut group = c.benchmark_group("draughts perft");
    group.throughput(Throughput::Elements(leaves));
    group.sample_size(10);
    group.bench_function(format!("{} depth {depth}", game.name()), |b| {
        b.iter(|| perft(&game, black_box(&start), depth))
    });
    group.finish();
}

fn bench_playouts<G: Game>(c: &mut Criterion, game: G) {
    const PLAYOUTS: u64 = 1000;
    let start = game.start();
    let mut group = c.benchmark_group("draughts random playouts");
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

fn draughts(c: &mut Criterion) {
    // English and International: the published counts; Scandinavian: counts checked against
    // tools/reference_draughts.py at smaller depths (tests/perft/draughts.txt).
    bench_perft(c, English::new(), 10, 18_391_564);
    bench_perft(c, International::new(), 8, 6_483_961);
    bench_perft(c, Scandinavian8x8::new(), 10, 8_435_213);
    bench_perft(c, Scandinavian::new(), 9, 15_605_083);
    bench_playouts(c, English::new());
    bench_playouts(c, International::new());
    bench_playouts(c, Scandinavian8x8::new());
    bench_playouts(c, Scandinavian::new());
}

criterion_group!(benches, draughts);
criterion_main!(benches);
