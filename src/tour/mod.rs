//! Measurements for the guided tour (`docs/`) and the `ladder` command:
//! each strategy on each puzzle, counted once and timed separately, and the
//! distribution of a set's node counts.
//!
//! Counting and timing are separate runs of the same code: the counted run
//! gives exact, deterministic counters; the timed run (`NoCount`, counters
//! compiled away) gives the time. Only the counters are reproducible.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::board::Board;
use crate::counters::Counts;
use crate::search::Limits;
use crate::strategy::{Outcome, Strategy, WrongSolution};

pub mod transform;

/// Timed runs of one puzzle are repeated in batches until a batch adds up to
/// this much, and averaged, so that sub-microsecond solves still get a
/// meaningful time.
pub const MIN_BATCH: Duration = Duration::from_millis(2);
/// At most this many runs in one batch.
pub const MAX_REPEATS: u32 = 1000;
/// Up to this many batches for a per-puzzle table; the fastest batch is
/// reported (the least disturbed by other processes), but no new batch starts
/// after [`TIME_CAP`]. Distributions over whole sets use one batch per puzzle.
pub const BATCHES: u32 = 3;
/// Total timing effort per measurement after which no further batch starts.
pub const TIME_CAP: Duration = Duration::from_millis(500);

/// One strategy on one puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct Measurement {
    /// Puzzle label: its name, or `file#index`, plus `@transform` if turned.
    pub puzzle: String,
    pub strategy: Strategy,
    pub outcome: Outcome,
    #[serde(flatten)]
    pub counts: Counts,
    /// Mean wall time of the fastest batch of timed (uncounted) runs, in nanoseconds.
    pub nanos: u64,
    /// How many timed runs that batch held.
    pub repeats: u32,
}

impl Measurement {
    /// Time per node in nanoseconds (`None` before a first node).
    pub fn ns_per_node(&self) -> Option<f64> {
        (self.counts.nodes > 0).then(|| self.nanos as f64 / self.counts.nodes as f64)
    }
}

/// Counts `strategy` on `puzzle` (one counted run, verified), then times it
/// with counters off (every run verified too): the mean of the fastest batch.
pub fn measure(
    strategy: Strategy,
    puzzle: &Board,
    label: String,
    budget: Option<u64>,
    batches: u32,
) -> Result<Measurement, WrongSolution> {
    let run = strategy.solve(puzzle, budget)?;
    let overall = Instant::now();
    let (mut best, mut best_repeats) = (u64::MAX, 1u32);
    for _ in 0..batches.max(1) {
        let mut repeats = 0u32;
        let start = Instant::now();
        loop {
            strategy.run_timed(puzzle, Limits::solve(budget))?;
            repeats += 1;
            if start.elapsed() >= MIN_BATCH || repeats >= MAX_REPEATS {
                break;
            }
        }
        let mean = (start.elapsed().as_nanos() / u128::from(repeats)) as u64;
        if mean < best {
            (best, best_repeats) = (mean, repeats);
        }
        if overall.elapsed() >= TIME_CAP {
            break;
        }
    }
    let (nanos, repeats) = (best, best_repeats);
    Ok(Measurement {
        puzzle: label,
        strategy,
        outcome: run.outcome,
        counts: run.counts,
        nanos,
        repeats,
    })
}

/// Node counts of one strategy over one set, summarised as a distribution.
#[derive(Clone, Debug, Serialize)]
pub struct Distribution {
    pub set: String,
    pub strategy: Strategy,
    pub puzzles: usize,
    pub solved: usize,
    /// Puzzles that hit the node budget (their count is the budget: a lower bound).
    pub over_budget: usize,
    /// Puzzles solved without a single guess (for `mrv`: by naked singles alone).
    pub no_guess: usize,
    /// Nearest-rank percentiles of nodes per puzzle.
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    pub max: u64,
    pub mean: f64,
    /// Share of all nodes spent on the 1% of puzzles that needed the most.
    pub top1_share: f64,
    /// Puzzles per decade of nodes: `decades[k]` = puzzles with
    /// `10^k <= nodes < 10^(k+1)`.
    pub decades: Vec<usize>,
    /// Sum of the mean timed runs, in nanoseconds.
    pub total_nanos: u64,
}

impl Distribution {
    /// Summarises measurements of one strategy on one set (at least one).
    pub fn of(set: &str, strategy: Strategy, rows: &[&Measurement]) -> Distribution {
        let mut nodes: Vec<u64> = rows.iter().map(|m| m.counts.nodes).collect();
        nodes.sort_unstable();
        let n = nodes.len();
        let rank = |p: f64| -> u64 {
            if n == 0 {
                return 0;
            }
            let k = ((p / 100.0) * n as f64).ceil() as usize;
            nodes[k.clamp(1, n) - 1]
        };
        let total: u64 = nodes.iter().sum();
        let top = n.div_ceil(100);
        let top_sum: u64 = nodes.iter().rev().take(top).sum();
        let mut decades = Vec::new();
        for &x in &nodes {
            let k = decade(x);
            if decades.len() <= k {
                decades.resize(k + 1, 0);
            }
            decades[k] += 1;
        }
        Distribution {
            set: set.to_string(),
            strategy,
            puzzles: n,
            solved: rows.iter().filter(|m| m.outcome == Outcome::Solved).count(),
            over_budget: rows
                .iter()
                .filter(|m| m.outcome == Outcome::BudgetExceeded)
                .count(),
            no_guess: rows
                .iter()
                .filter(|m| m.outcome == Outcome::Solved && m.counts.guesses == 0)
                .count(),
            p50: rank(50.0),
            p90: rank(90.0),
            p99: rank(99.0),
            max: nodes.last().copied().unwrap_or(0),
            mean: if n == 0 { 0.0 } else { total as f64 / n as f64 },
            top1_share: if total == 0 {
                0.0
            } else {
                top_sum as f64 / total as f64
            },
            decades,
            total_nanos: rows.iter().map(|m| m.nanos).sum(),
        }
    }
}

/// `floor(log10(x))` for `x >= 1` (0 for 0).
fn decade(mut x: u64) -> usize {
    let mut k = 0;
    while x >= 10 {
        x /= 10;
        k += 1;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(nodes: u64) -> Measurement {
        Measurement {
            puzzle: String::new(),
            strategy: Strategy::Mrv,
            outcome: Outcome::Solved,
            counts: Counts {
                nodes,
                ..Counts::default()
            },
            nanos: 10,
            repeats: 1,
        }
    }

    #[test]
    fn distribution_of_a_hand_made_set() {
        // 100 puzzles: 99 need 10 nodes, one needs 9,010.
        let rows: Vec<Measurement> = (0..99).map(|_| row(10)).chain([row(9_010)]).collect();
        let refs: Vec<&Measurement> = rows.iter().collect();
        let d = Distribution::of("s", Strategy::Mrv, &refs);
        assert_eq!((d.puzzles, d.solved, d.over_budget), (100, 100, 0));
        assert_eq!(d.no_guess, 100);
        assert_eq!((d.p50, d.p90, d.p99, d.max), (10, 10, 10, 9_010));
        assert!((d.mean - 100.0).abs() < 1e-9);
        assert!((d.top1_share - 0.901).abs() < 1e-9);
        assert_eq!(d.decades, vec![0, 99, 0, 1]);
        assert_eq!(d.total_nanos, 1000);
    }

    #[test]
    fn decades() {
        assert_eq!(decade(0), 0);
        assert_eq!(decade(9), 0);
        assert_eq!(decade(10), 1);
        assert_eq!(decade(69_175_317), 7);
    }
}
