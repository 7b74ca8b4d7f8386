//! Statistics over `results.csv`: per dataset × strategy summaries, and the
//! per-puzzle pairings the ladder chart needs.
//!
//! [`Aggregate`] is fed rows one at a time (from a run or from a CSV file) and
//! keeps, per group, one 24-byte [`Sample`] per measured run (nodes,
//! nanoseconds, clues, side, flags): exact medians and percentiles need the
//! values. Peak memory so grows by about 30 bytes per run (measured in
//! tests/compare_robustness.rs: 74 MiB for 1M puzzles × 2 strategies), while
//! the rows themselves stream to the CSV. Budget-exceeded runs are included with the
//! nodes and time they used, so for such groups the statistics are lower bounds
//! (the `budget_exceeded` column says how many).

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::run::{Row, RowOutcome};
use crate::Strategy;

/// Median, mean, 90th percentile and maximum of a list of counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    pub median: f64,
    pub mean: f64,
    pub p90: u64,
    pub max: u64,
}

/// Statistics of `values` (any order); `None` when empty.
/// Median of an even count is the mean of the two middle values; p90 is the
/// nearest-rank percentile (the smallest value with at least 90% at or below it).
pub fn stats(values: &[u64]) -> Option<Stats> {
    stats_of(values.to_vec())
}

/// [`stats`] of a vector it may reorder: no copy, so summarising a million
/// runs holds one column of 8-byte values at a time.
pub fn stats_of(mut v: Vec<u64>) -> Option<Stats> {
    if v.is_empty() {
        return None;
    }
    v.sort_unstable();
    Some(Stats {
        median: median_sorted(&v),
        mean: v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64,
        p90: percentile_sorted(&v, 90),
        max: v[v.len() - 1],
    })
}

/// Median of a sorted, non-empty slice.
pub fn median_sorted(v: &[u64]) -> f64 {
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2] as f64
    } else {
        (v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0
    }
}

/// Nearest-rank percentile of a sorted, non-empty slice.
pub fn percentile_sorted(v: &[u64], pct: u64) -> u64 {
    let n = v.len() as u64;
    let rank = (pct * n).div_ceil(100).max(1);
    v[(rank - 1) as usize]
}

/// One measured run, as kept for statistics and charts (24 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub nodes: u64,
    pub nanos: u64,
    pub clues: u16,
    /// Board side (4..=25).
    pub side: u8,
    pub solved: bool,
    /// The run hit the node budget: its nodes and time are lower bounds.
    pub over_budget: bool,
}

/// Everything kept for one dataset × strategy.
#[derive(Clone, Debug, Default)]
pub struct Group {
    pub puzzles: u64,
    pub solved: u64,
    pub no_solution: u64,
    pub budget_exceeded: u64,
    pub unsupported: u64,
    pub samples: Vec<Sample>,
}

/// Geometric-mean ratios of a slower strategy `a` over a faster `b`, over the
/// puzzles both solved. Per puzzle, time ratio = node ratio × per-node-cost
/// ratio exactly, so the geometric means multiply the same way.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairAcc {
    /// Puzzles both solved.
    pub pairs: u64,
    /// Puzzles `b` solved but `a` ran out of budget on (left out of the ratios).
    pub a_budget_only: u64,
    sum_ln_nodes: f64,
    sum_ln_time: f64,
}

impl PairAcc {
    /// How many times fewer nodes `b` visits than `a`.
    pub fn node_ratio(&self) -> f64 {
        (self.sum_ln_nodes / self.pairs as f64).exp()
    }
    /// How many times faster `b` is than `a`.
    pub fn speedup(&self) -> f64 {
        (self.sum_ln_time / self.pairs as f64).exp()
    }
    /// How many times cheaper a node of `b` is than one of `a`.
    pub fn cost_ratio(&self) -> f64 {
        ((self.sum_ln_time - self.sum_ln_nodes) / self.pairs as f64).exp()
    }
}

/// Running aggregate of a results table.
#[derive(Clone, Debug, Default)]
pub struct Aggregate {
    /// Dataset names in order of first appearance.
    pub datasets: Vec<String>,
    /// Keyed by (dataset position, strategy).
    pub groups: BTreeMap<(usize, Strategy), Group>,
    /// Keyed by (slower a, faster b) with a before b in ladder order.
    pub pairs: BTreeMap<(Strategy, Strategy), PairAcc>,
    pub rows: u64,
    /// Position of each dataset name in `datasets`.
    positions: HashMap<String, usize>,
    /// The puzzle being read (dataset position, index); its rows are consecutive.
    puzzle: Option<(usize, u64)>,
    /// Its runs not paired yet, at most one per strategy: so pairing costs at
    /// most (strategies choose 2) per row, however many rows a puzzle has.
    current: Vec<PuzzleRun>,
}

/// What pairing needs of one row.
#[derive(Clone, Copy, Debug)]
struct PuzzleRun {
    strategy: Strategy,
    outcome: RowOutcome,
    measured: Option<(u64, u64)>,
}

impl Aggregate {
    /// Adds one row. Rows of one puzzle are consecutive; a second row of a
    /// strategy for the same puzzle (a repeated measurement) starts a new
    /// round of pairs, so each measurement is paired once.
    pub fn push(&mut self, row: &Row) {
        self.rows += 1;
        let d = match self.positions.get(&row.dataset) {
            Some(&d) => d,
            None => {
                self.datasets.push(row.dataset.clone());
                self.positions
                    .insert(row.dataset.clone(), self.datasets.len() - 1);
                self.datasets.len() - 1
            }
        };
        let puzzle = Some((d, row.index));
        if self.puzzle != puzzle || self.current.iter().any(|r| r.strategy == row.strategy) {
            self.flush_puzzle();
            self.puzzle = puzzle;
        }
        let g = self.groups.entry((d, row.strategy)).or_default();
        g.puzzles += 1;
        match row.outcome {
            RowOutcome::Solved => g.solved += 1,
            RowOutcome::NoSolution => g.no_solution += 1,
            RowOutcome::BudgetExceeded => g.budget_exceeded += 1,
            RowOutcome::Unsupported => g.unsupported += 1,
        }
        if let Some((nodes, nanos)) = row.measured() {
            let s = Sample {
                nodes,
                nanos,
                clues: u16::try_from(row.clues).unwrap_or(u16::MAX),
                side: u8::try_from(row.size).unwrap_or(u8::MAX),
                solved: row.outcome == RowOutcome::Solved,
                over_budget: row.outcome == RowOutcome::BudgetExceeded,
            };
            g.samples.push(s);
        }
        self.current.push(PuzzleRun {
            strategy: row.strategy,
            outcome: row.outcome,
            measured: row.measured(),
        });
    }

    /// Call after the last row.
    pub fn finish(&mut self) {
        self.flush_puzzle();
    }

    fn flush_puzzle(&mut self) {
        for a in &self.current {
            for b in &self.current {
                if a.strategy >= b.strategy {
                    continue;
                }
                let (Some((na, ta)), Some((nb, tb))) = (a.measured, b.measured) else {
                    continue;
                };
                let acc = self.pairs.entry((a.strategy, b.strategy)).or_default();
                match (a.outcome, b.outcome) {
                    (RowOutcome::Solved, RowOutcome::Solved) => {
                        acc.pairs += 1;
                        acc.sum_ln_nodes += ln(na) - ln(nb);
                        acc.sum_ln_time += ln(ta) - ln(tb);
                    }
                    (RowOutcome::BudgetExceeded, RowOutcome::Solved) => acc.a_budget_only += 1,
                    _ => {}
                }
            }
        }
        self.current.clear();
    }

    /// The strategies present, in ladder order.
    pub fn strategies(&self) -> Vec<Strategy> {
        let mut v: Vec<Strategy> = self.groups.keys().map(|&(_, s)| s).collect();
        v.sort();
        v.dedup();
        v
    }

    /// The `summary.csv` rows, dataset order then ladder order.
    pub fn summary(&self) -> Vec<SummaryRow> {
        let mut out = Vec::new();
        for (d, name) in self.datasets.iter().enumerate() {
            for s in self.strategies() {
                if let Some(g) = self.groups.get(&(d, s)) {
                    out.push(SummaryRow::new(name, s, g));
                }
            }
        }
        out
    }
}

/// Natural log of a count, with 0 treated as 1 (a zero-time reading on a
/// coarse clock must not produce infinities).
fn ln(x: u64) -> f64 {
    (x.max(1) as f64).ln()
}

/// Three decimals are plenty for rates derived from clock readings.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// One line of `summary.csv`. Node and time statistics cover measured runs
/// (solved, no-solution and budget-exceeded; not unsupported).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    pub dataset: String,
    pub strategy: String,
    pub puzzles: u64,
    pub solved: u64,
    pub no_solution: u64,
    pub budget_exceeded: u64,
    pub unsupported: u64,
    pub nodes_median: Option<f64>,
    pub nodes_mean: Option<f64>,
    pub nodes_p90: Option<u64>,
    pub nodes_max: Option<u64>,
    pub time_median_ns: Option<f64>,
    pub time_mean_ns: Option<f64>,
    pub time_p90_ns: Option<u64>,
    pub time_max_ns: Option<u64>,
    /// Measured runs per second of total solve time.
    pub puzzles_per_sec: Option<f64>,
    /// Total time over total nodes.
    pub ns_per_node: Option<f64>,
}

/// The `summary.csv` header, in order.
pub const SUMMARY_COLUMNS: [&str; 17] = [
    "dataset",
    "strategy",
    "puzzles",
    "solved",
    "no_solution",
    "budget_exceeded",
    "unsupported",
    "nodes_median",
    "nodes_mean",
    "nodes_p90",
    "nodes_max",
    "time_median_ns",
    "time_mean_ns",
    "time_p90_ns",
    "time_max_ns",
    "puzzles_per_sec",
    "ns_per_node",
];

impl SummaryRow {
    pub fn new(dataset: &str, strategy: Strategy, g: &Group) -> SummaryRow {
        // One column at a time: peak memory during summaries is 8 bytes per
        // run of one group, not 32 (see tests/compare_robustness.rs).
        let ns = stats_of(g.samples.iter().map(|s| s.nodes).collect());
        let ts = stats_of(g.samples.iter().map(|s| s.nanos).collect());
        let total_nodes: u128 = g.samples.iter().map(|s| u128::from(s.nodes)).sum();
        let total_nanos: u128 = g.samples.iter().map(|s| u128::from(s.nanos)).sum();
        let measured = g.samples.len();
        SummaryRow {
            dataset: dataset.to_string(),
            strategy: strategy.name().to_string(),
            puzzles: g.puzzles,
            solved: g.solved,
            no_solution: g.no_solution,
            budget_exceeded: g.budget_exceeded,
            unsupported: g.unsupported,
            nodes_median: ns.map(|s| s.median),
            nodes_mean: ns.map(|s| s.mean),
            nodes_p90: ns.map(|s| s.p90),
            nodes_max: ns.map(|s| s.max),
            time_median_ns: ts.map(|s| s.median),
            time_mean_ns: ts.map(|s| s.mean),
            time_p90_ns: ts.map(|s| s.p90),
            time_max_ns: ts.map(|s| s.max),
            puzzles_per_sec: (measured > 0 && total_nanos > 0)
                .then(|| round3(measured as f64 * 1e9 / total_nanos as f64)),
            ns_per_node: (total_nodes > 0).then(|| round3(total_nanos as f64 / total_nodes as f64)),
        }
    }
}

/// A solved row for unit tests (counters other than nodes are 0).
#[cfg(test)]
pub(crate) fn solved_row(
    dataset: &str,
    index: u64,
    size: u32,
    strategy: Strategy,
    nodes: u64,
    nanos: u64,
) -> Row {
    Row {
        dataset: dataset.into(),
        index,
        line: index,
        name: String::new(),
        size,
        clues: 20,
        strategy,
        outcome: RowOutcome::Solved,
        nodes: Some(nodes),
        placements: Some(0),
        backtracks: Some(0),
        probes: Some(0),
        guesses: Some(0),
        dead_ends: Some(0),
        forced: Some(0),
        nanos: Some(nanos),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_exact_values() {
        let s = stats(&[5, 1, 3, 2, 4]).unwrap();
        assert_eq!(s.median, 3.0);
        assert_eq!(s.mean, 3.0);
        assert_eq!(s.p90, 5);
        assert_eq!(s.max, 5);
        let s = stats(&[10, 20, 30, 40]).unwrap();
        assert_eq!(s.median, 25.0);
        assert_eq!(s.mean, 25.0);
        assert_eq!(s.p90, 40);
        let v: Vec<u64> = (1..=10).collect();
        assert_eq!(percentile_sorted(&v, 90), 9);
        assert_eq!(percentile_sorted(&v, 10), 1);
        let v: Vec<u64> = (1..=20).collect();
        assert_eq!(percentile_sorted(&v, 90), 18);
        assert_eq!(stats(&[]), None);
        assert_eq!(stats(&[7]).unwrap().p90, 7);
        assert_eq!(stats_of(vec![5, 1, 3, 2, 4]), stats(&[5, 1, 3, 2, 4]));
        assert_eq!(stats_of(Vec::new()), None);
    }

    fn row(dataset: &str, index: u64, strategy: Strategy, nodes: u64, nanos: u64) -> Row {
        solved_row(dataset, index, 9, strategy, nodes, nanos)
    }

    /// One row per strategy per puzzle: every pair of strategies is paired
    /// once per puzzle. Repeated rows of one puzzle pair round by round
    /// (each measurement once), not every row with every other row.
    #[test]
    fn pairs_per_puzzle_and_per_round_of_repeats() {
        let (a, b) = (Strategy::ALL[0], Strategy::ALL[1]);
        let mut agg = Aggregate::default();
        for i in 1..=3 {
            agg.push(&row("d", i, a, 400, 800));
            agg.push(&row("d", i, b, 100, 100));
        }
        agg.finish();
        let acc = agg.pairs[&(a, b)];
        assert_eq!(acc.pairs, 3);
        assert!((acc.node_ratio() - 4.0).abs() < 1e-9);
        assert!((acc.speedup() - 8.0).abs() < 1e-9);

        let mut agg = Aggregate::default();
        for _ in 0..1000 {
            agg.push(&row("d", 1, a, 400, 800));
            agg.push(&row("d", 1, b, 100, 100));
        }
        agg.finish();
        assert_eq!(agg.rows, 2000);
        assert_eq!(agg.pairs[&(a, b)].pairs, 1000);
        assert_eq!(agg.groups[&(0, a)].puzzles, 1000);
        // A new dataset with the same index is a new puzzle.
        let mut agg = Aggregate::default();
        agg.push(&row("d", 1, a, 400, 800));
        agg.push(&row("e", 1, b, 100, 100));
        agg.finish();
        assert!(agg.pairs.get(&(a, b)).is_none_or(|p| p.pairs == 0));
        assert_eq!(agg.datasets, vec!["d", "e"]);
    }
}
