//! Statistics, defined once for every command, chart and report.
//!
//! **Quantiles** use linear interpolation between the two nearest ranks
//! (Hyndman & Fan's type 7, the default of R, NumPy and spreadsheets'
//! `PERCENTILE.INC`): for sorted values `x[0..n]`, the q-quantile sits at
//! position `h = q·(n−1)` and is `x[⌊h⌋] + (h−⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])`.
//! So the median of an even count is the mean of the two middle values, the
//! 0- and 1-quantiles are the minimum and the maximum, and a quantile of
//! whole numbers may fall between two of them (shown rounded).
//!
//! **Means of ratios** are geometric (the mean of logarithms), so that "×4
//! faster on one puzzle, ×¼ on another" averages to ×1 and a time ratio is
//! exactly a node ratio times a cost-per-node ratio.
//!
//! **Intervals** are seeded percentile bootstraps ([`bootstrap()`]): 95% of
//! the statistic's values over resamples of the puzzles (or of one
//! puzzle's samples) lie inside.

use serde::{Deserialize, Serialize};

pub(crate) mod bootstrap;
pub(crate) use bootstrap::median_rank_interval;
pub use bootstrap::{Interval, bootstrap, mean_interval, median_interval, sum_interval};

/// The q-quantile (`0 <= q <= 1`) of sorted, non-empty values (see the
/// module docs for the definition).
pub(crate) fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    interpolate(sorted.len(), |i| sorted[i], q)
}

/// [`quantile_sorted`] of sorted whole numbers (node counts, nanoseconds).
pub(crate) fn quantile_sorted_u64(sorted: &[u64], q: f64) -> f64 {
    interpolate(sorted.len(), |i| sorted[i] as f64, q)
}

fn interpolate(n: usize, x: impl Fn(usize) -> f64, q: f64) -> f64 {
    assert!(n > 0, "quantile of no values");
    let h = q.clamp(0.0, 1.0) * (n - 1) as f64;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    x(lo) + (h - lo as f64) * (x(hi) - x(lo))
}

/// The median of values in any order (sorts them in place); `None` for none.
pub fn median(values: &mut [f64]) -> Option<f64> {
    (!values.is_empty()).then(|| quantile_sorted(sorted(values), 0.5))
}

/// The same median as [`median`] of non-empty values, found by selection
/// (linear time, `values` left partly ordered): a bootstrap takes a
/// thousand medians per interval, and sorting each draw was most of what a
/// `compare` run cost beside its searches.
pub(crate) fn median_unsorted(values: &mut [f64]) -> f64 {
    let n = values.len();
    let h = 0.5 * (n - 1) as f64;
    let lo = h.floor() as usize;
    let (_, &mut x_lo, above) = values.select_nth_unstable_by(lo, f64::total_cmp);
    let x_hi = above.iter().copied().min_by(f64::total_cmp).unwrap_or(x_lo);
    x_lo + (h - lo as f64) * (x_hi - x_lo)
}

/// Sorts `values` in place (total order: NaN last) and returns them.
pub fn sorted(values: &mut [f64]) -> &[f64] {
    values.sort_by(f64::total_cmp);
    values
}

/// The usual description of a list of values (all zero for none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// How many values.
    pub n: u64,
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
    pub mean: f64,
    pub total: f64,
}

impl Summary {
    /// Summarises values given in any order; `None` when there are none.
    /// Reorders the slice (no copy: a million values cost one column).
    pub fn of(values: &mut [f64]) -> Option<Summary> {
        if values.is_empty() {
            return None;
        }
        let v = sorted(values);
        let total: f64 = v.iter().sum();
        Some(Summary {
            n: v.len() as u64,
            min: v[0],
            q1: quantile_sorted(v, 0.25),
            median: quantile_sorted(v, 0.5),
            q3: quantile_sorted(v, 0.75),
            p90: quantile_sorted(v, 0.9),
            p99: quantile_sorted(v, 0.99),
            max: v[v.len() - 1],
            mean: total / v.len() as f64,
            total,
        })
    }

    /// [`Summary::of`] whole numbers (node counts and the like).
    pub fn of_counts(values: impl IntoIterator<Item = u64>) -> Option<Summary> {
        let mut v: Vec<f64> = values.into_iter().map(|x| x as f64).collect();
        Summary::of(&mut v)
    }
}

/// The geometric mean of positive values (`None` when there are none).
/// Zeros and negative values are not allowed: ratios of counts start at 1.
pub(crate) fn geometric_mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0u64);
    for x in values {
        debug_assert!(x > 0.0, "geometric mean of {x}");
        sum += x.ln();
        n += 1;
    }
    (n > 0).then(|| (sum / n as f64).exp())
}

/// A seeded percentile-bootstrap interval for the mean of `values`: the
/// `(1 − level)/2` and `(1 + level)/2` quantiles of the means of `resamples`
/// resamples (drawn with replacement, same size) from a ChaCha8 stream
/// seeded with `seed`, so the same values give the same interval on every
/// machine. Over logarithms it is the interval of a geometric mean (exponentiate
/// both ends). `None` for no values; one value gives `(v, v)`.
pub(crate) fn bootstrap_mean(
    values: &[f64],
    resamples: usize,
    level: f64,
    seed: u64,
) -> Option<(f64, f64)> {
    match values {
        [] => None,
        [v] => Some((*v, *v)),
        _ => bootstrap::bootstrap_at(values, resamples, level, seed, |d| {
            d.iter().sum::<f64>() / d.len() as f64
        })
        .map(|i| (i.low, i.high)),
    }
}

/// Samples of one measurement beyond Tukey's fences, criterion's way:
/// *mild* between 1.5 and 3 interquartile ranges outside the quartiles,
/// *severe* beyond 3 (either side). A few mild ones are the usual tail of
/// a timed run; severe ones are runs something else disturbed (a
/// preemption, a migration, a frequency change).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outliers {
    pub mild: u64,
    pub severe: u64,
}

impl Outliers {
    /// The classes of `values` (any order; fewer than four values have no
    /// quartiles worth fencing: none are outliers).
    pub fn of(values: &[f64]) -> Outliers {
        let mut out = Outliers::default();
        if values.len() < 4 {
            return out;
        }
        let mut v = values.to_vec();
        let v = sorted(&mut v);
        let (q1, q3) = (quantile_sorted(v, 0.25), quantile_sorted(v, 0.75));
        let iqr = q3 - q1;
        for &x in v {
            let beyond = if x < q1 { q1 - x } else { (x - q3).max(0.0) };
            if beyond > 3.0 * iqr {
                out.severe += 1;
            } else if beyond > 1.5 * iqr {
                out.mild += 1;
            }
        }
        out
    }

    /// Both classes.
    pub fn total(self) -> u64 {
        self.mild + self.severe
    }
}

impl std::ops::AddAssign for Outliers {
    fn add_assign(&mut self, o: Outliers) {
        self.mild += o.mild;
        self.severe += o.severe;
    }
}

/// Share of `part` in `whole`, 0 when `whole` is 0.
pub fn share(part: f64, whole: f64) -> f64 {
    if whole == 0.0 { 0.0 } else { part / whole }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Selection and sorting give the same median, to the bit, for odd and
    /// even counts, ties and a lone value.
    #[test]
    fn the_median_by_selection_is_the_sorted_median() {
        let mut x: u64 = 7;
        for n in 1..60 {
            let v: Vec<f64> = (0..n)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((x >> 40) % 17) as f64 * 1.5
                })
                .collect();
            let sorted = median(&mut v.clone()).unwrap();
            assert_eq!(
                median_unsorted(&mut v.clone()).to_bits(),
                sorted.to_bits(),
                "{v:?}"
            );
        }
    }

    #[test]
    fn quantiles_interpolate_between_ranks() {
        let d = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile_sorted(&d, 0.0), 1.0);
        assert_eq!(quantile_sorted(&d, 0.25), 1.75);
        assert_eq!(quantile_sorted(&d, 0.5), 2.5);
        assert_eq!(quantile_sorted(&d, 1.0), 4.0);
        assert_eq!(quantile_sorted(&[7.0], 0.9), 7.0);
        // The median of an odd count is the middle value.
        assert_eq!(quantile_sorted(&[1.0, 5.0, 9.0], 0.5), 5.0);
        assert_eq!(median(&mut [9.0, 1.0, 5.0, 3.0]), Some(4.0));
        assert_eq!(median(&mut []), None);
    }

    #[test]
    fn summary_of_a_hand_made_list() {
        // 99 tens and one 9,010.
        let s = Summary::of_counts((0..99).map(|_| 10).chain([9_010])).unwrap();
        assert_eq!(
            (s.n, s.min, s.median, s.p90, s.max),
            (100, 10.0, 10.0, 10.0, 9_010.0)
        );
        assert!((s.mean - 100.0).abs() < 1e-9);
        // p99 sits at position 98.01: 1% of the way from 10 to 9,010.
        assert!((s.p99 - 100.0).abs() < 1e-9, "{}", s.p99);
        assert_eq!(s.total, 10_000.0);
        assert_eq!(Summary::of(&mut []), None);
    }

    #[test]
    fn bootstrap_intervals_are_seeded_and_hold_the_mean() {
        let v: Vec<f64> = (0..40).map(|i| f64::from(i % 7) - 3.0).collect();
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let (lo, hi) = bootstrap_mean(&v, 2000, 0.95, 1).unwrap();
        assert!(lo < mean && mean < hi, "{lo} {mean} {hi}");
        assert_eq!(bootstrap_mean(&v, 2000, 0.95, 1), Some((lo, hi)));
        assert_ne!(bootstrap_mean(&v, 2000, 0.95, 2), Some((lo, hi)));
        assert_eq!(bootstrap_mean(&[2.5], 100, 0.95, 1), Some((2.5, 2.5)));
        assert_eq!(bootstrap_mean(&[], 100, 0.95, 1), None);
        // Equal values: no spread, whatever the draw.
        assert_eq!(bootstrap_mean(&[0.5; 9], 100, 0.95, 1), Some((0.5, 0.5)));
    }

    #[test]
    fn tukey_fences_classify_mild_and_severe() {
        // Quartiles 10 and 20 (IQR 10): mild beyond 35 or below -5, severe
        // beyond 50 or below -20.
        let mut v: Vec<f64> = (0..=20).map(|i| 10.0 + f64::from(i) / 2.0).collect();
        assert_eq!(Outliers::of(&v), Outliers::default());
        v.extend([36.0, 49.0, 51.0, 100.0, -6.0, -21.0]);
        let o = Outliers::of(&v);
        // Six values added move the quartiles a little: recompute them.
        let mut s = v.clone();
        let s = sorted(&mut s);
        let (q1, q3) = (quantile_sorted(s, 0.25), quantile_sorted(s, 0.75));
        let iqr = q3 - q1;
        let severe = v
            .iter()
            .filter(|&&x| x > q3 + 3.0 * iqr || x < q1 - 3.0 * iqr)
            .count();
        let mild = v
            .iter()
            .filter(|&&x| x > q3 + 1.5 * iqr || x < q1 - 1.5 * iqr)
            .count()
            - severe;
        assert_eq!((o.mild, o.severe), (mild as u64, severe as u64));
        assert!(o.severe >= 2 && o.mild >= 1, "{o:?}");
        // Too few values to fence, or all equal: none.
        assert_eq!(Outliers::of(&[1.0, 2.0, 100.0]), Outliers::default());
        assert_eq!(Outliers::of(&[5.0; 9]), Outliers::default());
    }

    #[test]
    fn geometric_means_of_ratios_cancel() {
        let g = geometric_mean([4.0, 0.25]).unwrap();
        assert!((g - 1.0).abs() < 1e-12);
        assert_eq!(geometric_mean(std::iter::empty()), None);
    }
}
