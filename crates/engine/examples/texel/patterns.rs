//! `fit-patterns`: the pattern tables of the learned evaluation (see the games crate's
//! `draughts::patterns`), fitted to the self-play data on top of the weighted terms, which stay
//! as they are.
//!
//! The model is the win-rate model of `fit`, `1 / (1 + exp(-K * eval))`, with the evaluation
//! the weighted terms plus, for each window, the value of the pattern White sees less the value
//! of the pattern Black sees, each value a blend of a full-board and a no-men value by the men
//! on the board, and the drawish-ending scale applied to the sum. K is fitted to the weighted
//! terms alone and then held. The fit's target is the game's result, or with `--lambda L` below
//! 1 a blend: L times the result plus 1 - L times the win rate of the score the generating
//! search gave the position (where it kept one), a label that says more of the position itself
//! than a weak game's result. The tables start at zero and minimise the mean squared error plus
//! an L2 penalty (`--l2`, per position, on every value) by Adam on mini-batches drawn in an
//! order fixed by `--seed`. Each batch is cut into [`SHARDS`] shards whose gradients are
//! summed in order, the shards shared out over `--threads` threads, so that the tables do not
//! depend on the thread count (floating-point sums depend on their grouping). The
//! values are then rounded to integers, the evaluation's units (a man is 100), and the errors
//! of the integer evaluation, on the data fitted and on every tenth game held out, are printed
//! before and after.

use std::time::Instant;

use denkmeter_core::{ByPlayer, Game};
use denkmeter_games::draughts::patterns::{self, Patterns, Seen, PATTERNS};
use denkmeter_games::draughts::tuning::{self, Group, Weights};
use denkmeter_games::draughts::{Draughts, Variant};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{best_scale, read_data, sigmoid, Options};

/// A position as the pattern fit sees it.
#[derive(Clone, Debug)]
pub struct PatternSample {
    /// The weighted terms' sum for White, before the drawish scale.
    pub hand: f64,
    pub drawish: [bool; 2],
    pub seen: Seen,
    pub result: f64,
    /// The search's score for White where the data kept one.
    pub searched: Option<f64>,
    /// What the fit aims at: the result, or a blend with the search's score ([`set_targets`]).
    pub target: f64,
    pub game: u32,
}

/// Sets every sample's target: `lambda` times the result plus `1 - lambda` times the win rate
/// at scale `k` of the search's score, or the result alone where no score was kept.
pub fn set_targets(samples: &mut [PatternSample], lambda: f64, k: f64) {
    for s in samples {
        s.target = match s.searched {
            Some(score) => lambda * s.result + (1.0 - lambda) * sigmoid(k * score),
            None => s.result,
        };
    }
}

impl PatternSample {
    fn scale(&self, sum: f64) -> f64 {
        let ahead = usize::from(sum <= 0.0);
        if self.drawish[ahead] {
            0.25
        } else {
            1.0
        }
    }

    /// The integer evaluation for White with tables `p`, as the engine computes it.
    fn score(&self, p: &Patterns) -> i32 {
        let drawish = ByPlayer::new(self.drawish[0], self.drawish[1]);
        tuning::scaled(self.hand as i32 + p.white_score(&self.seen), drawish)
    }
}

/// Real-valued tables: `[window * PATTERNS + pattern][phase]`, phase 0 the full board.
type Real = Vec<[f64; 2]>;

/// The evaluation for White with real tables, before the drawish scale, and the blend weight of
/// the full board.
fn real_sum(s: &PatternSample, t: &Real) -> (f64, f64) {
    let a = f64::from(s.seen.men.min(s.seen.full)) / f64::from(s.seen.full);
    let mut learned = 0.0;
    for u in 0..s.seen.windows {
        let w = t[u * PATTERNS + usize::from(s.seen.white[u])];
        let b = t[u * PATTERNS + usize::from(s.seen.black[u])];
        learned += a * (w[0] - b[0]) + (1.0 - a) * (w[1] - b[1]);
    }
    (s.hand + learned, a)
}

/// Adds the batch's gradient of the squared error to `grad` (not yet divided by its size).
fn accumulate(batch: &[&PatternSample], t: &Real, k: f64, grad: &mut Real) {
    for s in batch {
        let (sum, a) = real_sum(s, t);
        let scale = s.scale(sum);
        let p = sigmoid(k * scale * sum);
        let g = 2.0 * (p - s.target) * p * (1.0 - p) * k * scale;
        let (gf, ge) = (g * a, g * (1.0 - a));
        for u in 0..s.seen.windows {
            let w = &mut grad[u * PATTERNS + usize::from(s.seen.white[u])];
            w[0] += gf;
            w[1] += ge;
            let b = &mut grad[u * PATTERNS + usize::from(s.seen.black[u])];
            b[0] -= gf;
            b[1] -= ge;
        }
    }
}

/// The parts each batch's gradient is computed in, whatever the threads.
const SHARDS: usize = 8;

/// How the tables are fitted.
#[derive(Clone, Copy, Debug)]
pub struct Fitting {
    pub epochs: u32,
    pub batch: usize,
    pub rate: f64,
    pub l2: f64,
    pub seed: u64,
    pub threads: usize,
}

/// Fits real tables of `windows` windows to `samples` with K fixed at `k`; reports each epoch's
/// error to `progress`.
pub fn fit_tables(
    samples: &[PatternSample],
    windows: usize,
    k: f64,
    how: Fitting,
    progress: &mut dyn FnMut(u32, f64),
) -> Real {
    let size = windows * PATTERNS;
    let mut t: Real = vec![[0.0; 2]; size];
    let (mut m, mut v): (Real, Real) = (vec![[0.0; 2]; size], vec![[0.0; 2]; size]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut order: Vec<&PatternSample> = samples.iter().collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(how.seed);
    let threads = how.threads.clamp(1, SHARDS);
    let mut grads: Vec<Real> = (0..SHARDS).map(|_| vec![[0.0; 2]; size]).collect();
    let mut step = 0i32;
    let batch = how.batch.max(1);
    for epoch in 1..=how.epochs {
        order.shuffle(&mut rng);
        // The rate falls linearly to a tenth over the epochs, so that the last ones settle.
        let lr = how.rate * (1.0 - 0.9 * f64::from(epoch - 1) / f64::from(how.epochs.max(1)));
        for chunk in order.chunks(batch) {
            step += 1;
            let share = chunk.len().div_ceil(SHARDS);
            let mut work: Vec<Vec<(&[&PatternSample], &mut Real)>> =
                (0..threads).map(|_| Vec::new()).collect();
            for (i, shard) in chunk.chunks(share).zip(grads.iter_mut()).enumerate() {
                work[i % threads].push(shard);
            }
            std::thread::scope(|scope| {
                for shards in work {
                    let t = &t;
                    scope.spawn(move || {
                        for (part, grad) in shards {
                            accumulate(part, t, k, grad);
                        }
                    });
                }
            });
            let n = chunk.len() as f64;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for i in 0..size {
                for ph in 0..2 {
                    let mut g = 0.0;
                    for grad in &mut grads {
                        g += grad[i][ph];
                        grad[i][ph] = 0.0;
                    }
                    let g = g / n + 2.0 * how.l2 * t[i][ph];
                    if g == 0.0 && m[i][ph] == 0.0 {
                        continue;
                    }
                    m[i][ph] = b1 * m[i][ph] + (1.0 - b1) * g;
                    v[i][ph] = b2 * v[i][ph] + (1.0 - b2) * g * g;
                    t[i][ph] -= lr * (m[i][ph] / c1) / ((v[i][ph] / c2).sqrt() + eps);
                }
            }
        }
        progress(epoch, real_error(samples, &t, k));
    }
    t
}

/// The mean squared error from the targets with real tables.
fn real_error(samples: &[PatternSample], t: &Real, k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let (sum, _) = real_sum(s, t);
            let p = sigmoid(k * s.scale(sum) * sum);
            (s.target - p) * (s.target - p)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The mean squared error from the games' results of the integer evaluation with tables `p`.
pub fn error(samples: &[PatternSample], p: &Patterns, k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let q = sigmoid(k * f64::from(s.score(p)));
            (s.result - q) * (s.result - q)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The real tables rounded to the evaluation's integers.
pub fn rounded(t: &Real, windows: usize) -> Patterns {
    let mut p = Patterns::zero(windows);
    for u in 0..windows {
        for i in 0..PATTERNS {
            let [f, e] = t[u * PATTERNS + i];
            let round = |x: f64| x.round().clamp(-30_000.0, 30_000.0) as i16;
            p.set(u, i, [round(f), round(e)]);
        }
    }
    p
}

/// The scale K that best fits the weighted terms alone (every table zero).
fn fit_k(samples: &[PatternSample], windows: usize) -> f64 {
    let zero = Patterns::zero(windows);
    best_scale(|ln_k| error(samples, &zero, ln_k.exp()), 1e-5)
}

/// The samples of the data file at `path` for ruleset `V`, with weights `w`.
fn samples<V: Variant>(path: &str, w: &Weights) -> Result<Vec<PatternSample>, String> {
    let game = Draughts::<V>::new();
    read_data::<V, _>(path, |r| {
        let state = game
            .parse_position(&r.position)
            .map_err(|e| format!("{path}: {}: {e}", r.position))?;
        let d = tuning::drawish::<V>(&state);
        Ok(PatternSample {
            hand: f64::from(tuning::dot(&tuning::features::<V>(&state), w)),
            drawish: [d.white, d.black],
            seen: patterns::seen::<V>(&state),
            result: r.result,
            searched: r.score.map(f64::from),
            target: r.result,
            game: r.game,
        })
    })
}

pub fn fit_patterns<V: Variant>(options: &Options) -> Result<(), String> {
    let path = options.required("data")?;
    let out = options.required("out")?;
    let how = Fitting {
        epochs: options.number("epochs", 12)?,
        batch: options.number("batch", 16384)?,
        rate: options.number("rate", 1.0)?,
        l2: options.number("l2", 1e-4)?,
        seed: options.number("seed", 1)?,
        threads: options.threads()?,
    };
    let lambda: f64 = options.number("lambda", 1.0)?;
    if !(0.0..=1.0).contains(&lambda) {
        return Err(format!(
            "--lambda {lambda}: the result's weight is from 0 to 1"
        ));
    }
    let weights = *tuning::weights::<V>();
    let all = samples::<V>(path, &weights)?;
    if lambda < 1.0 && all.iter().all(|s| s.searched.is_none()) {
        return Err(format!(
            "--lambda {lambda}: {path} keeps no search scores (data from before they were \
             kept): generate it again, or leave --lambda at 1"
        ));
    }
    let (validate, mut train): (Vec<PatternSample>, Vec<PatternSample>) =
        all.into_iter().partition(|s| s.game % 10 == 9);
    let windows = patterns::windows::<V>();
    println!(
        "{} positions to fit, {} held out; {windows} windows of {PATTERNS} patterns, two phases",
        train.len(),
        validate.len()
    );
    let started = Instant::now();
    let k = fit_k(&train, windows);
    set_targets(&mut train, lambda, k);
    if lambda < 1.0 {
        let scored = train.iter().filter(|s| s.searched.is_some()).count();
        println!(
            "targets: {lambda} x result + {} x the search's win rate ({scored} of the positions \
             to fit have a score; the others aim at the result); the errors below are from the \
             results, the epochs' from the targets",
            1.0 - lambda
        );
    }
    let zero = Patterns::zero(windows);
    println!(
        "K = {k:.6}; the weighted terms alone: error {:.6}, held out {:.6}",
        error(&train, &zero, k),
        error(&validate, &zero, k)
    );
    let real = fit_tables(&train, windows, k, how, &mut |epoch, e| {
        println!(
            "epoch {epoch}: error from the targets {e:.6} ({:.0} s)",
            started.elapsed().as_secs_f64()
        );
    });
    let tables = rounded(&real, windows);
    println!(
        "with the tables: error {:.6}, held out {:.6} ({:.0} s)",
        error(&train, &tables, k),
        error(&validate, &tables, k),
        started.elapsed().as_secs_f64()
    );
    if let Some(shipped) = patterns::shipped_for::<V>() {
        println!(
            "with the shipped tables: error {:.6}, held out {:.6}",
            error(&train, shipped, k),
            error(&validate, shipped, k)
        );
    }
    let used = (0..windows)
        .flat_map(|u| (0..PATTERNS).map(move |i| (u, i)))
        .filter(|&(u, i)| tables.get(u, i) != [0, 0])
        .count();
    let bytes = tables.to_bytes(Group::of::<V>());
    std::fs::write(out, &bytes).map_err(|e| format!("{out}: {e}"))?;
    println!(
        "{used} of {} patterns have a value; {} bytes written to {out}",
        windows * PATTERNS,
        bytes.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use denkmeter_games::draughts::InternationalRules;
    use rand::Rng;

    /// Positions of random openings labelled by the win rate of known tables: the fit finds
    /// tables that predict them about as well as the truth.
    #[test]
    fn the_fit_learns_known_tables() {
        let windows = patterns::windows::<InternationalRules>();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let mut truth = Patterns::zero(windows);
        for u in 0..windows {
            for i in 0..PATTERNS {
                truth.set(u, i, [rng.gen_range(-40..=40), rng.gen_range(-40..=40)]);
            }
        }
        let k = 0.01;
        let mut samples = Vec::new();
        for g in 0..3000u32 {
            let state = super::super::random_opening::<InternationalRules>(&mut rng, 12);
            let seen = patterns::seen::<InternationalRules>(&state);
            let mut s = PatternSample {
                hand: f64::from(rng.gen_range(-50..=50)),
                drawish: [false, false],
                seen,
                result: 0.0,
                searched: None,
                target: 0.0,
                game: g,
            };
            s.result = sigmoid(k * f64::from(s.score(&truth)));
            s.target = s.result;
            samples.push(s);
        }
        let zero = Patterns::zero(windows);
        let before = error(&samples, &zero, k);
        let how = Fitting {
            epochs: 30,
            batch: 256,
            rate: 2.0,
            l2: 0.0,
            seed: 1,
            threads: 2,
        };
        let fitted = rounded(
            &fit_tables(&samples, windows, k, how, &mut |_, _| {}),
            windows,
        );
        let after = error(&samples, &fitted, k);
        assert!(before > 0.01, "{before}");
        assert!(after < before / 20.0, "{before} to {after}");
        // The same seed fits the same tables, on any number of threads: the real values
        // themselves are the same.
        let real = fit_tables(&samples, windows, k, how, &mut |_, _| {});
        for threads in [1, 3] {
            let other = fit_tables(
                &samples,
                windows,
                k,
                Fitting { threads, ..how },
                &mut |_, _| {},
            );
            assert!(other == real, "{threads} threads");
        }
        assert_eq!(rounded(&real, windows), fitted);
    }

    /// The targets blend the result with the search's win rate by `--lambda`, and fall back to
    /// the result where no score was kept.
    #[test]
    fn targets_blend_the_result_and_the_search() {
        let state = super::super::random_opening::<InternationalRules>(
            &mut Xoshiro256PlusPlus::seed_from_u64(1),
            4,
        );
        let sample = |result: f64, searched: Option<f64>| PatternSample {
            hand: 0.0,
            drawish: [false, false],
            seen: patterns::seen::<InternationalRules>(&state),
            result,
            searched,
            target: -1.0,
            game: 0,
        };
        let k = 0.01;
        let won = sigmoid(k * 200.0);
        for (lambda, want) in [
            (1.0, [1.0, 0.0]),
            (0.0, [won, 0.0]),
            (0.25, [0.25 + 0.75 * won, 0.0]),
        ] {
            let mut samples = vec![sample(1.0, Some(200.0)), sample(0.0, None)];
            set_targets(&mut samples, lambda, k);
            for (s, want) in samples.iter().zip(want) {
                assert!(
                    (s.target - want).abs() < 1e-12,
                    "{lambda}: {} not {want}",
                    s.target
                );
            }
        }
    }
}
