//! Throughput measurement: how many puzzles per second each strategy solves,
//! and the work counters that explain the number.
//!
//! One [`measure`] call covers one dataset × one strategy and returns a plain
//! [`SpeedRow`]; exporters (`cli::speed`) turn rows into a table, CSV or
//! Markdown. The method, in order:
//!
//! 1. **Counted pass** (`Strategy::solve`, counters on, every solution
//!    verified): nodes, guesses, solved / no-solution / over-budget counts.
//! 2. If any puzzle exceeded the node budget the row gets **no throughput**:
//!    timing only the puzzles that finished would silently report a different,
//!    easier set. The row says how many puzzles were over budget instead.
//! 3. **Verification + warm-up**: one uncounted pass whose answers are all
//!    verified and must agree with the counted pass, then more untimed passes
//!    until the warm-up time is spent (caches, branch predictors, CPU clock).
//! 4. **Timed samples** with `NoCount`, the same code path as the counted
//!    pass minus the counters: each sample runs the whole set (repeated so a
//!    sample lasts at least [`MIN_SAMPLE`]) and checks it solved every puzzle
//!    it should have. Samples continue until `min_time` has elapsed and there
//!    are at least `min_samples`. The row reports the median and the spread
//!    (min, quartiles, max) of the per-puzzle time across samples.
//!
//! Single-threaded by design: a per-puzzle latency measured on one core.

use std::hint::black_box;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::counters::NoCount;
use crate::search::Limits;
use crate::strategy::{Outcome, Strategy, WrongSolution, verify};

/// Shortest timed sample: shorter passes are repeated inside one sample so
/// the clock's resolution and the loop overhead stay negligible.
pub const MIN_SAMPLE: Duration = Duration::from_millis(2);

/// How to measure one dataset × strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpeedOptions {
    /// Node budget per puzzle (`None`: unlimited).
    pub budget: Option<u64>,
    /// Untimed passes after the verification pass, until this much time is spent.
    pub warm_up: Duration,
    /// Keep taking timed samples until this much time has been spent timing...
    pub min_time: Duration,
    /// ...and at least this many samples were taken.
    pub min_samples: usize,
}

/// Whether a row carries a throughput.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Every puzzle finished within the budget: timed.
    Measured,
    /// Some puzzles exceeded the node budget: counters only, no throughput.
    OverBudget,
    /// The strategy does not handle some puzzle's size: nothing measured.
    Unsupported,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Measured => "measured",
            Status::OverBudget => "over-budget",
            Status::Unsupported => "unsupported",
        }
    }
}

/// Spread of the per-puzzle time over the timed samples, in microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Number of timed samples.
    pub samples: usize,
    /// Passes over the whole set inside one sample.
    pub passes_per_sample: usize,
    pub us_median: f64,
    pub us_min: f64,
    pub us_q1: f64,
    pub us_q3: f64,
    pub us_max: f64,
}

impl Timing {
    /// Puzzles per second at the median time.
    pub fn puzzles_per_sec(&self) -> f64 {
        1e6 / self.us_median
    }
    /// Puzzles per second at the slowest and fastest samples.
    pub fn puzzles_per_sec_range(&self) -> (f64, f64) {
        (1e6 / self.us_max, 1e6 / self.us_min)
    }
}

/// One dataset × strategy. Plain data: exporters decide how it looks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeedRow {
    pub dataset: String,
    pub strategy: Strategy,
    pub status: Status,
    pub puzzles: usize,
    pub solved: usize,
    pub no_solution: usize,
    pub over_budget: usize,
    /// Node budget per puzzle, if any.
    pub budget: Option<u64>,
    /// Puzzles solved with no guess at all (`guesses == 0`), over all puzzles.
    pub solved_without_guessing: usize,
    /// Sum over all puzzles (over-budget puzzles contribute the work done
    /// before the budget ran out, so then it is a lower bound).
    pub total_guesses: u64,
    /// Same, for nodes.
    pub total_nodes: u64,
    /// `None` unless `status == Measured`.
    pub timing: Option<Timing>,
}

impl SpeedRow {
    /// % of the puzzles solved without a single guess.
    pub fn pct_without_guessing(&self) -> f64 {
        ratio(self.solved_without_guessing as f64 * 100.0, self.puzzles)
    }
    pub fn guesses_per_puzzle(&self) -> f64 {
        ratio(self.total_guesses as f64, self.puzzles)
    }
    pub fn nodes_per_puzzle(&self) -> f64 {
        ratio(self.total_nodes as f64, self.puzzles)
    }
    /// True when the counter columns are exact averages (no puzzle was cut
    /// short by the budget) rather than lower bounds.
    pub fn counters_exact(&self) -> bool {
        self.over_budget == 0
    }
    /// The flat record written to CSV: one column per figure.
    pub fn record(&self) -> SpeedRecord {
        let t = self.timing;
        let (pps_min, pps_max) = t.map(|t| t.puzzles_per_sec_range()).unzip();
        SpeedRecord {
            dataset: self.dataset.clone(),
            strategy: self.strategy,
            status: self.status,
            puzzles: self.puzzles,
            solved: self.solved,
            no_solution: self.no_solution,
            over_budget: self.over_budget,
            budget: self.budget,
            puzzles_per_sec: t.map(|t| t.puzzles_per_sec()),
            puzzles_per_sec_min: pps_min,
            puzzles_per_sec_max: pps_max,
            us_per_puzzle: t.map(|t| t.us_median),
            us_min: t.map(|t| t.us_min),
            us_q1: t.map(|t| t.us_q1),
            us_q3: t.map(|t| t.us_q3),
            us_max: t.map(|t| t.us_max),
            samples: t.map(|t| t.samples),
            passes_per_sample: t.map(|t| t.passes_per_sample),
            pct_solved_without_guessing: self.pct_without_guessing(),
            guesses_per_puzzle: self.guesses_per_puzzle(),
            nodes_per_puzzle: self.nodes_per_puzzle(),
            counters_exact: self.counters_exact(),
        }
    }
}

/// [`SpeedRow`] flattened for CSV (the `csv` crate cannot nest).
/// Empty cells mean "not measured" (see `status`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeedRecord {
    pub dataset: String,
    pub strategy: Strategy,
    pub status: Status,
    pub puzzles: usize,
    pub solved: usize,
    pub no_solution: usize,
    pub over_budget: usize,
    pub budget: Option<u64>,
    pub puzzles_per_sec: Option<f64>,
    pub puzzles_per_sec_min: Option<f64>,
    pub puzzles_per_sec_max: Option<f64>,
    pub us_per_puzzle: Option<f64>,
    pub us_min: Option<f64>,
    pub us_q1: Option<f64>,
    pub us_q3: Option<f64>,
    pub us_max: Option<f64>,
    pub samples: Option<usize>,
    pub passes_per_sample: Option<usize>,
    pub pct_solved_without_guessing: f64,
    pub guesses_per_puzzle: f64,
    pub nodes_per_puzzle: f64,
    pub counters_exact: bool,
}

fn ratio(x: f64, n: usize) -> f64 {
    if n == 0 { 0.0 } else { x / n as f64 }
}

/// Picks `n` puzzles with a seeded ChaCha RNG, keeping their file order.
/// Same seed, same input → same sample. `n >= len` keeps everything.
pub fn sample<T: Clone>(items: &[T], n: usize, seed: u64) -> Vec<T> {
    if n >= items.len() {
        return items.to_vec();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut picked = rand::seq::index::sample(&mut rng, items.len(), n).into_vec();
    picked.sort_unstable();
    picked.into_iter().map(|i| items[i].clone()).collect()
}

/// Measures one strategy on one set of puzzles (see the module docs for the
/// method). Fails loudly if a strategy returns a wrong solution or the timed
/// runs disagree with the counted one: both are bugs in the lab.
pub fn measure(
    dataset: &str,
    puzzles: &[Board],
    strategy: Strategy,
    opts: &SpeedOptions,
) -> anyhow::Result<SpeedRow> {
    let mut row = SpeedRow {
        dataset: dataset.to_string(),
        strategy,
        status: Status::Measured,
        puzzles: puzzles.len(),
        solved: 0,
        no_solution: 0,
        over_budget: 0,
        budget: opts.budget,
        solved_without_guessing: 0,
        total_guesses: 0,
        total_nodes: 0,
        timing: None,
    };
    if puzzles.iter().any(|p| !strategy.supports(p.size())) {
        row.status = Status::Unsupported;
        return Ok(row);
    }

    // 1. Counted, verified pass.
    for p in puzzles {
        let run = strategy.solve(p, opts.budget)?;
        row.total_nodes += run.counts.nodes;
        row.total_guesses += run.counts.guesses;
        match run.outcome {
            Outcome::Solved => {
                row.solved += 1;
                if run.counts.guesses == 0 {
                    row.solved_without_guessing += 1;
                }
            }
            Outcome::NoSolution => row.no_solution += 1,
            Outcome::BudgetExceeded => row.over_budget += 1,
        }
    }
    // 2. No throughput over a set the strategy did not finish.
    if row.over_budget > 0 {
        row.status = Status::OverBudget;
        return Ok(row);
    }
    if puzzles.is_empty() {
        bail!("dataset {dataset} has no puzzles to time");
    }
    row.timing = Some(time_passes(dataset, puzzles, strategy, opts, row.solved)?);
    Ok(row)
}

/// Steps 3 and 4: verification pass, warm-up, timed samples.
fn time_passes(
    dataset: &str,
    puzzles: &[Board],
    strategy: Strategy,
    opts: &SpeedOptions,
    expected_solved: usize,
) -> anyhow::Result<Timing> {
    let limits = Limits::solve(opts.budget);

    // 3. Verification pass: the uncounted path must give right answers too.
    let mut solved = 0;
    for p in puzzles {
        let report = strategy.run(p, limits, NoCount);
        if let Some(sol) = &report.first {
            verify(strategy, p, sol)?;
            solved += 1;
        }
    }
    if solved != expected_solved {
        bail!(
            "BUG: {strategy} on {dataset}: the uncounted pass solved {solved} puzzles, the counted pass {expected_solved}"
        );
    }

    // Warm-up; the fastest pass seen sizes the samples.
    let warm_start = Instant::now();
    let mut fastest = Duration::MAX;
    loop {
        let pass = timed_pass(puzzles, strategy, limits, 1);
        fastest = fastest.min(pass.0);
        if warm_start.elapsed() >= opts.warm_up {
            break;
        }
    }
    let reps = if fastest >= MIN_SAMPLE {
        1
    } else {
        let nanos = fastest.as_nanos().max(1);
        MIN_SAMPLE.as_nanos().div_ceil(nanos) as usize
    };

    // 4. Timed samples.
    let per_sample = (reps * puzzles.len()) as f64;
    let mut us = Vec::new();
    let mut timed = Duration::ZERO;
    while timed < opts.min_time || us.len() < opts.min_samples.max(1) {
        let (elapsed, solved) = timed_pass(puzzles, strategy, limits, reps);
        if solved != expected_solved * reps {
            bail!(
                "BUG: {strategy} on {dataset}: a timed pass solved {solved} puzzles, expected {}",
                expected_solved * reps
            );
        }
        timed += elapsed;
        us.push(elapsed.as_secs_f64() * 1e6 / per_sample);
    }
    us.sort_by(f64::total_cmp);
    Ok(Timing {
        samples: us.len(),
        passes_per_sample: reps,
        us_median: quantile(&us, 0.5),
        us_min: us[0],
        us_q1: quantile(&us, 0.25),
        us_q3: quantile(&us, 0.75),
        us_max: us[us.len() - 1],
    })
}

/// Runs the whole set `reps` times with counters compiled out; returns the
/// elapsed time and how many runs found a solution (checked by the caller,
/// outside the clock).
#[inline(never)]
fn timed_pass(
    puzzles: &[Board],
    strategy: Strategy,
    limits: Limits,
    reps: usize,
) -> (Duration, usize) {
    let mut solved = 0;
    let start = Instant::now();
    for _ in 0..reps {
        for p in puzzles {
            let report = strategy.run(black_box(p), limits, NoCount);
            solved += usize::from(report.solutions > 0);
            black_box(&report);
        }
    }
    (start.elapsed(), solved)
}

/// Linear-interpolated quantile of sorted, non-empty data.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Whether a strategy may be timed on a set (see [`check_sample`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SampleCheck {
    /// Every puzzle solved and verified; nodes of one counted pass.
    Solved { nodes: u64 },
    /// Puzzle `index` (0-based) was not solved: over budget or no solution.
    Unsolved { index: usize, outcome: Outcome },
    /// One pass needs more than the node cap (checking stopped there).
    OverCap { cap: u64 },
}

/// Runs a set once counted and once uncounted (the timed path), verifying
/// every solution, before anything is timed. A wrong solution is an error.
/// Stops at the first unsolved puzzle, or once the pass has used `pass_cap`
/// nodes, so checking an unaffordable strategy stays cheap.
pub fn check_sample(
    puzzles: &[Board],
    strategy: Strategy,
    budget: Option<u64>,
    pass_cap: Option<u64>,
) -> Result<SampleCheck, WrongSolution> {
    let cap = pass_cap.unwrap_or(u64::MAX);
    let mut nodes: u64 = 0;
    for (index, p) in puzzles.iter().enumerate() {
        let left = cap - nodes;
        let capped = budget.map_or(left, |b| b.min(left));
        let run = strategy.solve(p, Some(capped))?;
        match run.outcome {
            Outcome::Solved => {}
            Outcome::BudgetExceeded if budget.is_none_or(|b| capped < b) => {
                return Ok(SampleCheck::OverCap { cap });
            }
            outcome => return Ok(SampleCheck::Unsolved { index, outcome }),
        }
        nodes += run.counts.nodes;
        if strategy
            .run_timed(p, Limits::solve(budget))?
            .solution
            .is_none()
        {
            return Ok(SampleCheck::Unsolved {
                index,
                outcome: Outcome::NoSolution,
            });
        }
    }
    Ok(SampleCheck::Solved { nodes })
}

/// The boards of a dataset, in file order.
pub fn boards(dataset: &crate::dataset::Dataset) -> Vec<Board> {
    dataset.puzzles.iter().map(|p| p.board.clone()).collect()
}

/// Reads a dataset and optionally samples it (see [`sample`]).
pub fn load_sampled(
    path: &std::path::Path,
    n: Option<usize>,
    seed: u64,
) -> anyhow::Result<(String, Vec<Board>)> {
    let ds = crate::dataset::Dataset::load(path)
        .with_context(|| format!("cannot load dataset {}", path.display()))?;
    let all = boards(&ds);
    let picked = match n {
        Some(n) => sample(&all, n, seed),
        None => all,
    };
    Ok((ds.name, picked))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_is_seeded_ordered_and_bounded() {
        let items: Vec<u32> = (0..100).collect();
        let a = sample(&items, 10, 7);
        assert_eq!(a, sample(&items, 10, 7));
        assert_ne!(a, sample(&items, 10, 8));
        assert_eq!(a.len(), 10);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(sample(&items, 500, 7), items);
    }

    #[test]
    fn quantiles_interpolate() {
        let d = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&d, 0.0), 1.0);
        assert_eq!(quantile(&d, 0.5), 2.5);
        assert_eq!(quantile(&d, 1.0), 4.0);
        assert_eq!(quantile(&d, 0.25), 1.75);
    }
}
