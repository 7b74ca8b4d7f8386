//! Statistics over `results.csv`: per dataset × strategy summaries, and the
//! per-puzzle pairings the ladder chart needs.
//!
//! Statistics follow [`crate::stats`] (one quantile definition for the lab).
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

use super::run::Row;
use crate::Strategy;
use crate::stats::Summary;
use crate::strategy::Outcome;

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
    outcome: Outcome,
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
            Outcome::Solved => g.solved += 1,
            Outcome::NoSolution => g.no_solution += 1,
            Outcome::BudgetExceeded => g.budget_exceeded += 1,
            Outcome::Unsupported => g.unsupported += 1,
            // Outside programs' outcomes: compare's rows are rungs' rows.
            Outcome::WrongAnswer | Outcome::TimeLimit | Outcome::Crashed | Outcome::BadOutput => {}
        }
        if let Some((nodes, nanos)) = row.measured() {
            let s = Sample {
                nodes,
                nanos,
                clues: u16::try_from(row.clues).unwrap_or(u16::MAX),
                side: u8::try_from(row.size).unwrap_or(u8::MAX),
                solved: row.outcome == Outcome::Solved,
                over_budget: row.outcome == Outcome::BudgetExceeded,
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
                    (Outcome::Solved, Outcome::Solved) => {
                        acc.pairs += 1;
                        acc.sum_ln_nodes += ln(na) - ln(nb);
                        acc.sum_ln_time += ln(ta) - ln(tb);
                    }
                    (Outcome::BudgetExceeded, Outcome::Solved) => acc.a_budget_only += 1,
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
    pub nodes_p90: Option<f64>,
    pub nodes_max: Option<f64>,
    pub time_median_ns: Option<f64>,
    pub time_mean_ns: Option<f64>,
    pub time_p90_ns: Option<f64>,
    pub time_max_ns: Option<f64>,
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
        let ns = Summary::of_counts(g.samples.iter().map(|s| s.nodes));
        let ts = Summary::of_counts(g.samples.iter().map(|s| s.nanos));
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
        outcome: Outcome::Solved,
        counts: Some(crate::Counts {
            nodes,
            ..Default::default()
        }),
        timing: Some(crate::measure::Timing {
            runs: 1,
            samples: 1,
            cpu_ns: nanos as f64,
            cpu_min_ns: nanos as f64,
            cpu_max_ns: nanos as f64,
            wall_ns: nanos as f64,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
