//! Estimates with 95 % intervals: proportions, means, medians and differences.

use crate::charts::{quantile, Estimate};

/// The normal quantile of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The share `k / n` with its Wilson score interval, which stays inside [0, 1] and is
/// honest at 0 and at `n` (where the normal approximation claims certainty). `None` when
/// `n` is 0.
pub fn proportion(k: u64, n: u64) -> Option<Estimate> {
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Estimate {
        value: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    })
}

/// The mean of `values` with a normal 95 % interval from their sample variance. `None` for
/// no values; a single value, or values all equal, give an interval of no width, so a score
/// should use [`score`] instead.
pub fn mean(values: &[f64]) -> Option<Estimate> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    let m = values.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return Some(Estimate {
            value: m,
            low: m,
            high: m,
        });
    }
    let variance = values.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (n - 1) as f64;
    let half = Z95 * (variance / n as f64).sqrt();
    Some(Estimate {
        value: m,
        low: m - half,
        high: m + half,
    })
}

/// The mean of results that are each 0, ½ or 1 (a player's score), with a 95 % interval:
/// the normal interval of the results with two wins and two losses added (the Agresti-Coull
/// adjustment), which at 5 wins in 5 games does not claim a score of exactly 1 as the plain
/// normal interval does, and which the draws narrow as they should. Kept inside [0, 1] and
/// around the score itself.
pub fn score(results: &[f64]) -> Option<Estimate> {
    if results.is_empty() {
        return None;
    }
    let value = results.iter().sum::<f64>() / results.len() as f64;
    let mut adjusted = results.to_vec();
    adjusted.extend([1.0, 1.0, 0.0, 0.0]);
    let interval = mean(&adjusted)?;
    Some(Estimate {
        value,
        low: interval.low.clamp(0.0, value),
        high: interval.high.clamp(value, 1.0),
    })
}

/// The median of `values` with a distribution-free 95 % interval between two order
/// statistics (the ranks a binomial(n, ½) puts 95 % between, by its normal approximation),
/// and the quartiles. `None` for no values.
pub fn median(values: &[f64]) -> Option<Quartiles> {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let value = quantile(&sorted, 0.5)?;
    let half = Z95 * (n as f64).sqrt() / 2.0;
    let low_rank = ((n as f64 / 2.0 - half).floor().max(1.0) as usize).min(n);
    let high_rank = ((n as f64 / 2.0 + 1.0 + half).ceil() as usize).clamp(1, n);
    Some(Quartiles {
        median: Estimate {
            value,
            low: sorted[low_rank - 1].min(value),
            high: sorted[high_rank - 1].max(value),
        },
        lower: quantile(&sorted, 0.25)?,
        upper: quantile(&sorted, 0.75)?,
        min: sorted[0],
        max: sorted[n - 1],
    })
}

/// A sample's median with its interval, quartiles and range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quartiles {
    pub median: Estimate,
    pub lower: f64,
    pub upper: f64,
    pub min: f64,
    pub max: f64,
}

/// `later - earlier` for two independent estimates, with Newcombe's interval: each side of it
/// from the matching sides of the two intervals, so that lopsided intervals (Wilson's near 0
/// or 1) stay lopsided. How a rate moved from one strength to another.
pub fn difference(earlier: Estimate, later: Estimate) -> Estimate {
    let value = later.value - earlier.value;
    let below = (later.value - later.low).hypot(earlier.high - earlier.value);
    let above = (later.high - later.value).hypot(earlier.value - earlier.low);
    Estimate {
        value,
        low: value - below,
        high: value + above,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn wilson_intervals_match_known_values() {
        // 8 of 10: 0.490 to 0.943 (the textbook Wilson interval).
        let e = proportion(8, 10).expect("an estimate");
        assert!(
            close(e.value, 0.8) && close(e.low, 0.4902) && close(e.high, 0.9433),
            "{e:?}"
        );
        // None of 20 is not certainly none.
        let e = proportion(0, 20).expect("an estimate");
        assert_eq!(e.low, 0.0);
        assert!(close(e.high, 0.1611), "{e:?}");
        assert_eq!(proportion(0, 0), None);
    }

    #[test]
    fn a_mean_has_the_normal_interval() {
        let e = mean(&[1.0, 2.0, 3.0, 4.0]).expect("an estimate");
        // s = 1.291, se = 0.6455.
        assert!(
            close(e.value, 2.5) && close(e.high - e.value, 1.2652),
            "{e:?}"
        );
        assert_eq!(mean(&[]), None);
    }

    #[test]
    fn a_perfect_score_is_not_a_certain_one() {
        let e = score(&[1.0; 5]).expect("an estimate");
        assert_eq!(e.value, 1.0);
        assert_eq!(e.high, 1.0);
        assert!(e.low < 0.6, "{e:?}");
        // Many games of mixed results: the sample variance decides.
        let results: Vec<f64> = (0..400).map(|i| [1.0, 0.5, 0.5, 0.0][i % 4]).collect();
        let e = score(&results).expect("an estimate");
        assert!(close(e.value, 0.5));
        // s = 0.354 for these results: a half-width of 1.96 * 0.354 / 20.
        assert!(close(e.high - e.value, 0.0346), "{e:?}");
    }

    #[test]
    fn a_median_lies_in_its_interval_between_order_statistics() {
        let values: Vec<f64> = (1..=100).map(f64::from).collect();
        let q = median(&values).expect("quartiles");
        assert!(close(q.median.value, 50.5));
        // Ranks 40 and 61 for n = 100.
        assert_eq!((q.median.low, q.median.high), (40.0, 61.0));
        assert!(close(q.lower, 25.75) && close(q.upper, 75.25));
        assert_eq!((q.min, q.max), (1.0, 100.0));
        let one = median(&[7.0]).expect("quartiles");
        assert_eq!(
            (one.median.low, one.median.value, one.median.high),
            (7.0, 7.0, 7.0)
        );
    }

    #[test]
    fn a_difference_adds_the_errors() {
        let a = Estimate {
            value: 0.5,
            low: 0.4,
            high: 0.6,
        };
        let b = Estimate {
            value: 0.7,
            low: 0.6,
            high: 0.8,
        };
        let d = difference(a, b);
        assert!(
            close(d.value, 0.2) && close(d.high - d.value, 0.1414),
            "{d:?}"
        );
    }
}
