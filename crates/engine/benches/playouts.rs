//! Speed of random playouts, one thread, for every ruleset of the list: playouts from the start
//! to the end or the ruleset's playout limit (playouts per second), as Monte Carlo tree search
//! runs them.
//!
//! Targets from issue 4 (twenty times Ludii): 81,800/s English, 23,220/s International,
//! 13,660/s Scandinavian.
//!
//! `cargo bench -p denkmeter-engine`, or a filter: `cargo bench -p denkmeter-engine -- english`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use denkmeter_core::{Game, RulesetVisitor};
use denkmeter_engine::mcts::playout;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Playouts per measured iteration.
const PLAYOUTS: u64 = 200;

struct PlayoutBench<'a>(&'a mut Criterion);

impl RulesetVisitor for PlayoutBench<'_> {
    fn visit<G: Game>(&mut self, game: G) {
        let start = game.start();
        let mut group = self.0.benchmark_group("random playouts");
        group.throughput(Throughput::Elements(PLAYOUTS));
        group.sample_size(10);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut moves = Vec::new();
        group.bench_function(game.name(), |b| {
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
}

fn playouts(criterion: &mut Criterion) {
    denkmeter_games::visit_rulesets(&mut PlayoutBench(criterion));
}

criterion_group!(benches, playouts);
criterion_main!(benches);
