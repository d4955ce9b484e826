//! Speed of the exact endgame solver, one thread: Straat positions 8 to 12 placements from
//! the end (`straat`), 6 to 8 (`straat-flip`) and 10 to 11 (`straat-diagonal`), each reached
//! by random placements from the start with a fixed seed, solved with one best move (what the
//! computer asks for); and 10 from the end of `straat` with every best move (what
//! `denkmeter solve` prints). Each solution's line is played out to check its value.
//!
//! The reach, the most placements from the end solved within a second, is read from the
//! medians: `cargo bench -p denkmeter-engine --bench endgame`, or a filter such as
//! `cargo bench -p denkmeter-engine --bench endgame -- "straat/10"`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use denkmeter_core::Game;
use denkmeter_engine::endgame::{solve, BestMoves};
use denkmeter_engine::Limits;
use denkmeter_games::straat::{State, Straat};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A position `empty` placements from the end, by random placements with seed `seed`.
fn position(game: &Straat, empty: u32, seed: u64) -> State {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut state = game.start();
    let mut moves = Vec::new();
    while game.plies_to_end(&state) > Some(empty) {
        game.legal_moves(&state, &mut moves);
        let mv = moves[rng.gen_range(0..moves.len())];
        game.play_unchecked(&mut state, mv);
    }
    state
}

/// Solves `state` and checks that the line reaches the value.
fn solved(game: &Straat, state: &State, which: BestMoves) -> i32 {
    let solution = solve(game, state, Limits::default(), which).expect("solvable");
    let mut end = state.clone();
    for &mv in &solution.line {
        game.play_unchecked(&mut end, mv);
    }
    let margin = game.score_margin(&end).expect("the line ends the game");
    let white_value = solution.white_value();
    assert_eq!(
        margin,
        i64::from(white_value),
        "{}",
        game.position_text(state)
    );
    white_value
}

/// Benchmarks `positions` seeded positions of `game` at each number of placements in
/// `depths`, with `which` best moves.
fn bench_solves(
    criterion: &mut Criterion,
    game: &Straat,
    depths: &[(u32, u64)],
    which: BestMoves,
    label: &str,
) {
    let mut group = criterion.benchmark_group(format!("endgame {}{label}", game.name()));
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for &(empty, positions) in depths {
        for seed in 0..positions {
            let state = position(game, empty, seed);
            group.bench_function(format!("{empty} plies #{seed}"), |b| {
                b.iter(|| solved(game, &state, which))
            });
        }
    }
    group.finish();
}

fn endgame(criterion: &mut Criterion) {
    let one = BestMoves::One;
    bench_solves(
        criterion,
        &Straat::new(),
        &[(8, 5), (9, 5), (10, 5), (11, 5), (12, 3)],
        one,
        "",
    );
    bench_solves(
        criterion,
        &Straat::new(),
        &[(10, 3)],
        BestMoves::Every,
        " every best move",
    );
    bench_solves(
        criterion,
        &Straat::flip(),
        &[(6, 3), (7, 3), (8, 3)],
        one,
        "",
    );
    bench_solves(criterion, &Straat::diagonal(), &[(10, 3), (11, 3)], one, "");
}

criterion_group!(benches, endgame);
criterion_main!(benches);
