//! Speed of the draughts evaluation, one thread: the weighted terms alone, and with pattern
//! tables (random values, the size of the shipped ones), over the positions of self-play-like
//! random games of International draughts and English checkers (positions a second). The
//! weights are passed at run time, as the tuning tool passes them; the engine's own evaluation
//! has them as constants, which lets the compiler drop the terms weighted 0.
//!
//! `cargo bench -p denkmeter-games --bench evaluation`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use denkmeter_core::{Game, Status};
use denkmeter_games::draughts::patterns::{self, Patterns, PATTERNS};
use denkmeter_games::draughts::tuning;
use denkmeter_games::draughts::{Draughts, EnglishRules, InternationalRules, State, Variant};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The positions of random games from the start, up to `count`.
fn positions<V: Variant>(count: usize) -> Vec<State> {
    let game = Draughts::<V>::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut state = game.start();
        while game.status(&state) == Status::Ongoing && out.len() < count {
            out.push(state.clone());
            game.legal_moves(&state, &mut moves);
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play_unchecked(&mut state, mv);
        }
    }
    out
}

fn random_tables<V: Variant>() -> Patterns {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let windows = patterns::windows::<V>();
    let mut p = Patterns::zero(windows);
    for u in 0..windows {
        for i in 0..PATTERNS {
            p.set(u, i, [rng.gen_range(-50..=50), rng.gen_range(-50..=50)]);
        }
    }
    p
}

fn bench<V: Variant>(c: &mut Criterion) {
    let states = positions::<V>(10_000);
    let w = *tuning::weights::<V>();
    let tables = random_tables::<V>();
    let mut group = c.benchmark_group("evaluation");
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function(format!("{} weighted terms", V::NAME), |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| tuning::evaluate_with::<V>(black_box(s), &w))
                .fold(0i32, i32::wrapping_add)
        })
    });
    group.bench_function(format!("{} with pattern tables", V::NAME), |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| tuning::evaluate_with_patterns::<V>(black_box(s), &w, Some(&tables)))
                .fold(0i32, i32::wrapping_add)
        })
    });
    group.bench_function(format!("{} pattern tables alone", V::NAME), |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| tables.score::<V>(black_box(s)))
                .fold(0i32, i32::wrapping_add)
        })
    });
    group.finish();
}

fn evaluation(c: &mut Criterion) {
    bench::<InternationalRules>(c);
    bench::<EnglishRules>(c);
}

criterion_group!(benches, evaluation);
criterion_main!(benches);
