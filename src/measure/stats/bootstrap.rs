//! The one interval of the lab: a seeded percentile bootstrap.
//!
//! A figure the lab prints is a statistic of a few values: a geometric mean
//! over the puzzles of a set, a median over a puzzle's timed samples, a sum
//! over a set's puzzles. Drawing as many values again, with replacement,
//! from the ones measured, [`crate::base::defaults::BOOTSTRAP_RESAMPLES`] times,
//! and taking the statistic of each draw shows how much the figure would
//! move had other puzzles (or other samples) of the same kind been
//! measured; the interval holds the middle `crate::base::defaults::CONFIDENCE`
//! of those values (type-7 quantiles, as every quantile of the lab).
//!
//! The draws come from ChaCha8 seeded with [`crate::base::defaults::SEED`], the
//! same seed for every statistic: a report redrawn from its CSV prints the
//! same intervals, and two ratios of one ladder are resampled over the same
//! draws of puzzles. Fewer than two values give no interval (`None`,
//! printed as n/a): one value says nothing of its spread.
//!
//! **Many values.** A bootstrap costs resamples × values; above
//! `BOOTSTRAP_MAX_VALUES` values the lab takes the limits the bootstrap
//! tends to instead, in one pass: for a mean (and a sum) the normal
//! interval `mean ± z·s/√n`, for a median the distribution-free one
//! between the order statistics of ranks `n/2 ∓ z·√n/2`. At that many
//! values the bootstrap's own spread from seed to seed is larger than the
//! difference (see the tests).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::base::defaults::{BOOTSTRAP_RESAMPLES, CONFIDENCE, SEED};

/// A confidence interval: `low <= high`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// The interval of `f(x)` for a rising `f` (`exp` turns an interval of
    /// a mean of logarithms into one of a geometric mean).
    pub fn map(self, f: impl Fn(f64) -> f64) -> Interval {
        Interval {
            low: f(self.low),
            high: f(self.high),
        }
    }

    /// The interval of `1/x` (for positive `x`): a time's interval as a
    /// rate's, a speed-up's as a slow-down's.
    pub fn recip(self) -> Interval {
        Interval {
            low: 1.0 / self.high,
            high: 1.0 / self.low,
        }
    }

    /// Whether `x` lies inside (ends included).
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }

    /// Half the width relative to `x`: how precise a figure `x` is.
    pub fn relative_half_width(&self, x: f64) -> f64 {
        if x == 0.0 {
            0.0
        } else {
            (self.high - self.low).abs() / 2.0 / x.abs()
        }
    }
}

/// The percentile bootstrap interval of `stat` over `values`: `resamples`
/// draws of `values.len()` values with replacement, each handed to `stat`
/// (which may reorder it), seeded with `seed`. `None` for fewer than two
/// values.
pub fn bootstrap(
    values: &[f64],
    resamples: usize,
    seed: u64,
    stat: impl FnMut(&mut [f64]) -> f64,
) -> Option<Interval> {
    bootstrap_at(values, resamples, CONFIDENCE, seed, stat)
}

/// [`bootstrap`] at another confidence `level` (`diff` lets its user set
/// one).
pub(crate) fn bootstrap_at(
    values: &[f64],
    resamples: usize,
    level: f64,
    seed: u64,
    mut stat: impl FnMut(&mut [f64]) -> f64,
) -> Option<Interval> {
    let n = values.len();
    if n < 2 || resamples == 0 {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut draw = vec![0.0; n];
    let mut stats = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        for slot in draw.iter_mut() {
            *slot = values[rng.random_range(0..n)];
        }
        stats.push(stat(&mut draw));
    }
    let s = super::sorted(&mut stats);
    let tail = (1.0 - level.clamp(0.0, 1.0)) / 2.0;
    Some(Interval {
        low: super::quantile_sorted(s, tail),
        high: super::quantile_sorted(s, 1.0 - tail),
    })
}

/// Above this many values the intervals take the bootstrap's limits (see
/// the module docs): a bootstrap of 5,000 values costs about 5M draws.
const BOOTSTRAP_MAX_VALUES: usize = 5_000;

/// The two-sided normal quantile of [`CONFIDENCE`] (95%: 1.96).
const Z: f64 = 1.959_963_984_540_054;

/// The lab's interval of a mean (defaults' resamples and seed). A mean of
/// logarithms gives, through [`Interval::map`] with `exp`, the interval of
/// a geometric mean or of a ratio of geometric means.
pub fn mean_interval(values: &[f64]) -> Option<Interval> {
    let n = values.len();
    if n > BOOTSTRAP_MAX_VALUES {
        let mean = values.iter().sum::<f64>() / n as f64;
        let var = values.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64;
        let h = Z * (var / n as f64).sqrt();
        return Some(Interval {
            low: mean - h,
            high: mean + h,
        });
    }
    bootstrap(values, BOOTSTRAP_RESAMPLES, SEED, |d| {
        d.iter().sum::<f64>() / d.len() as f64
    })
}

/// The lab's interval of a median (one puzzle's time over its samples).
pub fn median_interval(values: &[f64]) -> Option<Interval> {
    let n = values.len();
    if n > BOOTSTRAP_MAX_VALUES {
        let mut v = values.to_vec();
        return median_rank_interval(super::sorted(&mut v));
    }
    bootstrap(values, BOOTSTRAP_RESAMPLES, SEED, super::median_unsorted)
}

/// The distribution-free interval of the median of `sorted` values: the
/// order statistics of ranks `n/2 ∓ z·√n/2` (for 5 values, the lowest and
/// the highest). Cheap (no resampling), so the timer can ask it after every
/// sample whether a task's median is known well enough.
pub(crate) fn median_rank_interval(sorted: &[f64]) -> Option<Interval> {
    let n = sorted.len();
    if n < 2 {
        return None;
    }
    let h = Z * (n as f64).sqrt() / 2.0;
    let rank = |r: f64| sorted[(r.round().max(0.0) as usize).min(n - 1)];
    Some(Interval {
        low: rank(n as f64 / 2.0 - h - 0.5),
        high: rank(n as f64 / 2.0 + h - 0.5),
    })
}

/// The lab's interval of a sum (a set's time: Σ over its puzzles).
pub fn sum_interval(values: &[f64]) -> Option<Interval> {
    let n = values.len() as f64;
    mean_interval(values).map(|i| i.map(|x| x * n))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mean of 0..100: its standard error is σ/√n = 2.887, so a 95%
    /// interval is about 49.5 ± 1.96 × 2.887 = [43.84, 55.16].
    #[test]
    fn the_mean_of_a_known_sample() {
        let v: Vec<f64> = (0..100).map(f64::from).collect();
        let i = mean_interval(&v).unwrap();
        assert!((i.low - 43.84).abs() < 0.7, "{i:?}");
        assert!((i.high - 55.16).abs() < 0.7, "{i:?}");
        assert!(i.contains(49.5));
    }

    #[test]
    fn seeded_so_repeatable_and_none_without_spread_to_stand_on() {
        let v = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0];
        assert_eq!(mean_interval(&v), mean_interval(&v));
        assert_ne!(
            bootstrap(&v, 1000, 1, |d| d.iter().sum()),
            bootstrap(&v, 1000, 2, |d| d.iter().sum())
        );
        assert_eq!(mean_interval(&[7.0]), None);
        assert_eq!(mean_interval(&[]), None);
        // Equal values: no spread, the interval is the point.
        let c = mean_interval(&[2.0; 5]).unwrap();
        assert_eq!((c.low, c.high), (2.0, 2.0));
        // A median of samples stays within the samples.
        let m = median_interval(&v).unwrap();
        assert!(m.low >= 1.0 && m.high <= 9.0 && m.low <= m.high, "{m:?}");
        // A sum's interval is n times the mean's.
        let (s, a) = (sum_interval(&v).unwrap(), mean_interval(&v).unwrap());
        assert!((s.low - 8.0 * a.low).abs() < 1e-9 && (s.high - 8.0 * a.high).abs() < 1e-9);
    }

    /// The defaults' thousand resamples put the ends within a tenth of the
    /// interval's width of where twenty thousand put them.
    #[test]
    fn a_thousand_resamples_are_enough() {
        let v: Vec<f64> = (0..300)
            .map(|i| f64::from((i * 37) % 101).ln_1p())
            .collect();
        let mean = |d: &mut [f64]| d.iter().sum::<f64>() / d.len() as f64;
        let few = bootstrap(&v, BOOTSTRAP_RESAMPLES, SEED, mean).unwrap();
        let many = bootstrap(&v, 20_000, SEED, mean).unwrap();
        let width = many.high - many.low;
        assert!((few.low - many.low).abs() < 0.1 * width, "{few:?} {many:?}");
        assert!(
            (few.high - many.high).abs() < 0.1 * width,
            "{few:?} {many:?}"
        );
    }

    /// Past the bootstrap's limit the closed forms take over, and agree
    /// with a bootstrap of the same values to well within its width.
    #[test]
    fn many_values_take_the_limits() {
        let n = BOOTSTRAP_MAX_VALUES + 1;
        let v: Vec<f64> = (0..n)
            .map(|i| f64::from((i as u32 * 7919) % 1000))
            .collect();
        let mean = |d: &mut [f64]| d.iter().sum::<f64>() / d.len() as f64;
        let boot = bootstrap(&v, 400, SEED, mean).unwrap();
        let closed = mean_interval(&v).unwrap();
        let w = boot.high - boot.low;
        assert!(
            (boot.low - closed.low).abs() < 0.15 * w,
            "{boot:?} {closed:?}"
        );
        assert!(
            (boot.high - closed.high).abs() < 0.15 * w,
            "{boot:?} {closed:?}"
        );
        let med = |d: &mut [f64]| super::super::median(d).unwrap();
        let boot = bootstrap(&v, 200, SEED, med).unwrap();
        let closed = median_interval(&v).unwrap();
        assert!(closed.low <= 500.0 && 499.0 <= closed.high, "{closed:?}");
        assert!((boot.low - closed.low).abs() <= 10.0, "{boot:?} {closed:?}");
        assert!(
            (boot.high - closed.high).abs() <= 10.0,
            "{boot:?} {closed:?}"
        );
    }

    #[test]
    fn maps_and_reciprocals() {
        let i = Interval {
            low: 2.0,
            high: 4.0,
        };
        assert_eq!(
            i.recip(),
            Interval {
                low: 0.25,
                high: 0.5
            }
        );
        assert_eq!(
            i.map(|x| x * 2.0),
            Interval {
                low: 4.0,
                high: 8.0
            }
        );
        assert!((i.relative_half_width(3.0) - 1.0 / 3.0).abs() < 1e-12);
    }
}
