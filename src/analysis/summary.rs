//! Statistics over `results.csv`: per dataset × strategy summaries, and the
//! per-size ladders every ratio of the report comes from.
//!
//! Statistics follow [`crate::measure::stats`] (one quantile definition, geometric
//! means of ratios).
//!
//! [`Aggregate`] is fed rows one at a time (from a run or from a CSV file) and
//! keeps, per group, one 24-byte [`Sample`] per measured run (nodes,
//! nanoseconds, puzzle, clues, side, outcome): exact medians and
//! percentiles need the values, and the puzzle number lets runs of
//! different strategies on the same puzzle be joined. Peak memory so grows
//! by about 30 bytes per run (measured in tests/compare_robustness.rs),
//! while the rows themselves stream to the CSV.
//!
//! **Like for like.** Ratios between strategies are only ever taken on the
//! same puzzles, one board size at a time: [`Ladder`](crate::analysis::ladder::Ladder) holds the rule.

use std::collections::{BTreeMap, HashMap};

use crate::base::strategy::Outcome;
use crate::base::strategy::Strategy;
use crate::measure::results::Row;
use crate::measure::stats::Summary;

/// How many outcomes a rung's row can have ([`Outcome::RUNG`]; outside
/// programs' outcomes live in `programs.csv`).
const OUTCOMES: usize = Outcome::RUNG.len();

/// What an outcome means for the statistics. Every outcome has exactly one
/// kind (an exhaustive match: a new outcome must say how it counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Finished with a verified solution.
    Solved,
    /// Finished: the whole tree was searched and holds no solution. A proof,
    /// not a failure.
    NoSolution,
    /// Stopped by a limit before finishing: its nodes and time are lower
    /// bounds.
    Stopped,
    /// Nothing ran (the strategy does not handle the board size).
    NotRun,
}

impl Kind {
    pub fn of(outcome: Outcome) -> Kind {
        match outcome {
            Outcome::Solved => Kind::Solved,
            Outcome::NoSolution => Kind::NoSolution,
            Outcome::BudgetExceeded => Kind::Stopped,
            Outcome::Unsupported => Kind::NotRun,
            // Outside programs' failures live in programs.csv: never in the
            // rungs' rows these statistics read (Row::from_fields refuses them).
            Outcome::WrongAnswer | Outcome::TimeLimit | Outcome::Crashed | Outcome::BadOutput => {
                Kind::NotRun
            }
        }
    }

    /// The search ran to its end (a solution, or a proof there is none).
    pub fn finished(self) -> bool {
        matches!(self, Kind::Solved | Kind::NoSolution)
    }
}

/// Position of an outcome in [`Outcome::RUNG`] (the order of every table).
pub(crate) fn outcome_index(outcome: Outcome) -> usize {
    Outcome::RUNG
        .iter()
        .position(|&o| o == outcome)
        .unwrap_or_default()
}

/// One measured run, as kept for statistics and charts (24 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub nodes: u64,
    /// Per-thread CPU time of one run, nanoseconds (rounded).
    pub nanos: u64,
    /// The puzzle, numbered in reading order: the runs of different
    /// strategies on one puzzle share it.
    pub puzzle: u32,
    pub clues: u16,
    /// Board side (4..=25).
    pub side: u8,
    /// Index into [`Outcome::RUNG`].
    outcome: u8,
}

impl Sample {
    pub fn outcome(&self) -> Outcome {
        Outcome::RUNG[usize::from(self.outcome)]
    }
    pub fn kind(&self) -> Kind {
        Kind::of(self.outcome())
    }
    pub fn solved(&self) -> bool {
        self.kind() == Kind::Solved
    }
    /// Hit a limit: nodes and time are lower bounds.
    pub fn stopped(&self) -> bool {
        self.kind() == Kind::Stopped
    }
    /// Share of the cells given (0..=1).
    pub fn fill(&self) -> f64 {
        fill(u32::from(self.clues), u32::from(self.side))
    }
}

/// Share of the cells of a `side`×`side` board that `clues` givens fill.
pub fn fill(clues: u32, side: u32) -> f64 {
    f64::from(clues) / f64::from(side * side).max(1.0)
}

/// Everything kept for one dataset × strategy.
#[derive(Clone, Debug, Default)]
pub struct Group {
    pub puzzles: u64,
    /// Rows per outcome, in [`Outcome::RUNG`] order.
    pub outcomes: [u64; OUTCOMES],
    /// Measured runs (every outcome but the not-run ones), in puzzle order.
    pub samples: Vec<Sample>,
    /// Samples beyond Tukey's fences, over the rows that say (`None`: no
    /// row does, e.g. a file from before the columns).
    pub outliers: Option<crate::measure::stats::Outliers>,
}

impl Group {
    pub fn count(&self, outcome: Outcome) -> u64 {
        self.outcomes[outcome_index(outcome)]
    }
    /// Rows of this kind.
    pub fn count_kind(&self, kind: Kind) -> u64 {
        count_kind(&self.outcomes, kind)
    }
}

/// Rows of one kind in a per-outcome table.
pub(crate) fn count_kind(outcomes: &[u64; OUTCOMES], kind: Kind) -> u64 {
    Outcome::RUNG
        .iter()
        .zip(outcomes)
        .filter(|&(&o, _)| Kind::of(o) == kind)
        .map(|(_, n)| n)
        .sum()
}

/// Running aggregate of a results table.
#[derive(Clone, Debug, Default)]
pub struct Aggregate {
    /// Dataset names in order of first appearance (or as registered).
    pub datasets: Vec<String>,
    /// Keyed by (dataset position, strategy).
    pub groups: BTreeMap<(usize, Strategy), Group>,
    pub rows: u64,
    /// Puzzles per board side, each counted once.
    pub puzzles_by_side: BTreeMap<u32, u64>,
    /// Rows per board side × strategy and outcome (not-run rows included:
    /// they have no sample to tell their size).
    pub outcomes_by_side: BTreeMap<(u32, Strategy), [u64; OUTCOMES]>,
    /// Position of each dataset name in `datasets`.
    positions: HashMap<String, usize>,
    /// The puzzle being read (dataset position, index), and its number.
    current: Option<(usize, u64)>,
    puzzle: u32,
    /// Strategies already read for the current puzzle: a second row of one
    /// (a repeated measurement) starts a new puzzle.
    seen: Vec<Strategy>,
    /// The estimated whole search of each cut-off run that has one, by
    /// (puzzle number, strategy): few rows, so kept beside the samples
    /// rather than in them ([`Aggregate::full_ladder`]).
    pub estimates: HashMap<(u32, Strategy), crate::measure::results::Estimate>,
}

impl Aggregate {
    /// An aggregate whose datasets come in this order, whatever order their
    /// rows arrive in (a run measures datasets interleaved).
    pub fn with_datasets<'a>(names: impl IntoIterator<Item = &'a str>) -> Aggregate {
        let mut agg = Aggregate::default();
        for name in names {
            agg.position(name);
        }
        agg
    }

    fn position(&mut self, name: &str) -> usize {
        match self.positions.get(name) {
            Some(&d) => d,
            None => {
                self.datasets.push(name.to_string());
                self.positions
                    .insert(name.to_string(), self.datasets.len() - 1);
                self.datasets.len() - 1
            }
        }
    }

    /// Adds one row. The rows of one puzzle are consecutive; a second row of
    /// a strategy for the same puzzle (a repeated measurement) counts as a
    /// new puzzle, so each measurement is joined once.
    pub fn push(&mut self, row: &Row) {
        let d = self.position(&row.puzzle.dataset);
        let key = Some((d, row.puzzle.index));
        if self.rows == 0 {
            self.start_puzzle(key, row.puzzle.size);
        } else if self.current != key || self.seen.contains(&row.strategy) {
            self.puzzle = self.puzzle.saturating_add(1);
            self.start_puzzle(key, row.puzzle.size);
        }
        self.rows += 1;
        self.seen.push(row.strategy);
        let o = outcome_index(row.outcome);
        let g = self.groups.entry((d, row.strategy)).or_default();
        g.puzzles += 1;
        g.outcomes[o] += 1;
        if let (Some(e), Some(_), Kind::Stopped) =
            (row.estimate, row.measured(), Kind::of(row.outcome))
        {
            self.estimates.insert((self.puzzle, row.strategy), e);
        }
        if let Some(o) = row.outliers {
            *g.outliers.get_or_insert_default() += o;
        }
        if let Some((nodes, nanos)) = row.measured() {
            g.samples.push(Sample {
                nodes,
                nanos,
                puzzle: self.puzzle,
                clues: u16::try_from(row.puzzle.clues).unwrap_or(u16::MAX),
                side: u8::try_from(row.puzzle.size).unwrap_or(u8::MAX),
                outcome: o as u8,
            });
        }
        self.outcomes_by_side
            .entry((row.puzzle.size, row.strategy))
            .or_insert([0; OUTCOMES])[o] += 1;
    }

    fn start_puzzle(&mut self, key: Option<(usize, u64)>, side: u32) {
        self.current = key;
        self.seen.clear();
        *self.puzzles_by_side.entry(side).or_default() += 1;
    }

    /// The strategies present, in ladder order.
    pub fn strategies(&self) -> Vec<Strategy> {
        let mut v: Vec<Strategy> = self.groups.keys().map(|&(_, s)| s).collect();
        v.sort();
        v.dedup();
        v
    }

    /// The board sides present, smallest first.
    pub fn sides(&self) -> Vec<u32> {
        self.puzzles_by_side.keys().copied().collect()
    }

    /// Rows of `strategy` on `side` per outcome ([`Outcome::RUNG`] order).
    pub fn outcomes(&self, side: u32, strategy: Strategy) -> [u64; OUTCOMES] {
        self.outcomes_by_side
            .get(&(side, strategy))
            .copied()
            .unwrap_or([0; OUTCOMES])
    }

    /// The measured runs of `strategy` on boards of side `side`, dataset by
    /// dataset.
    pub(crate) fn runs(&self, strategy: Strategy, side: u32) -> impl Iterator<Item = &Sample> {
        self.groups
            .iter()
            .filter(move |&(&(_, s), _)| s == strategy)
            .flat_map(|(_, g)| g.samples.iter())
            .filter(move |x| u32::from(x.side) == side)
    }

    /// Calls `f` once per puzzle with the run of each of `strategies` on it
    /// (`None`: not measured), dataset by dataset, in puzzle order. Puzzles
    /// no strategy measured are skipped. Allocates one small buffer.
    pub fn for_each_puzzle(&self, strategies: &[Strategy], mut f: impl FnMut(&PuzzleRuns<'_>)) {
        let mut runs: Vec<Option<Sample>> = vec![None; strategies.len()];
        for d in 0..self.datasets.len() {
            let mut cursors: Vec<(usize, &[Sample])> = strategies
                .iter()
                .enumerate()
                .filter_map(|(i, &s)| Some((i, self.groups.get(&(d, s))?.samples.as_slice())))
                .collect();
            while let Some(next) = cursors
                .iter()
                .filter_map(|(_, v)| v.first().map(|x| x.puzzle))
                .min()
            {
                runs.iter_mut().for_each(|r| *r = None);
                let mut any = None;
                for (i, v) in &mut cursors {
                    if let Some((first, rest)) = v.split_first()
                        && first.puzzle == next
                    {
                        runs[*i] = Some(*first);
                        any = Some(*first);
                        *v = rest;
                    }
                }
                if let Some(x) = any {
                    f(&PuzzleRuns {
                        dataset: d,
                        side: u32::from(x.side),
                        clues: u32::from(x.clues),
                        runs: &runs,
                    });
                }
            }
        }
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

/// One puzzle and the run of each strategy on it.
#[derive(Clone, Copy, Debug)]
pub struct PuzzleRuns<'a> {
    pub dataset: usize,
    pub side: u32,
    pub clues: u32,
    /// One entry per strategy asked for, in that order.
    pub runs: &'a [Option<Sample>],
}

/// Natural log of a count, with 0 treated as 1 (a zero-time reading on a
/// coarse clock must not produce infinities).
pub fn ln(x: u64) -> f64 {
    (x.max(1) as f64).ln()
}

/// Three decimals are plenty for rates derived from clock readings.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// One line of `summary.csv`. Node and time statistics cover measured runs
/// (every outcome where something ran). As JSON (`compare --json`), the
/// outcomes are an object by outcome name and each statistic a [`Summary`].
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SummaryRow {
    pub dataset: String,
    pub strategy: String,
    pub puzzles: u64,
    /// Rows per outcome, in [`Outcome::RUNG`] order.
    #[serde(serialize_with = "outcome_counts")]
    pub outcomes: [u64; OUTCOMES],
    pub nodes: Option<Summary>,
    pub time: Option<Summary>,
    /// Measured runs per second of their total time; `None` unless every
    /// run finished (solved or proved no solution): the rule of `speed`,
    /// whose throughput of a set with a stopped puzzle would be another,
    /// easier set's.
    pub puzzles_per_sec: Option<f64>,
    /// 95% interval of the median time, bootstrapped over the runs.
    pub time_median_interval: Option<crate::measure::stats::Interval>,
    /// Total time over total nodes (weighted towards the largest searches).
    pub ns_per_node: Option<f64>,
    /// Samples beyond Tukey's fences within their puzzle's samples, mild
    /// and severe, summed over the puzzles.
    pub outliers: Option<crate::measure::stats::Outliers>,
}

/// Outcome counts as an object by outcome name (`{"solved": 3, ...}`).
fn outcome_counts<S: serde::Serializer>(
    counts: &[u64; OUTCOMES],
    ser: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap as _;
    let mut map = ser.serialize_map(Some(OUTCOMES))?;
    for (o, n) in Outcome::RUNG.iter().zip(counts) {
        map.serialize_entry(o.name(), n)?;
    }
    map.end()
}

/// The `summary.csv` header: dataset, strategy, puzzles, one column per
/// outcome (its name with `_` for `-`), then the statistics.
pub fn columns() -> Vec<String> {
    let mut c: Vec<String> = ["dataset", "strategy", "puzzles"]
        .map(String::from)
        .to_vec();
    c.extend(Outcome::RUNG.iter().map(|o| o.name().replace('-', "_")));
    c.extend(
        [
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
            "time_median_low_ns",
            "time_median_high_ns",
            "outliers_mild",
            "outliers_severe",
        ]
        .map(String::from),
    );
    c
}

impl SummaryRow {
    pub fn new(dataset: &str, strategy: Strategy, g: &Group) -> SummaryRow {
        // One column at a time: peak memory during summaries is 8 bytes per
        // run of one group (see tests/compare_robustness.rs).
        let nodes = Summary::of_counts(g.samples.iter().map(|s| s.nodes));
        let time = Summary::of_counts(g.samples.iter().map(|s| s.nanos));
        let total_nodes: u128 = g.samples.iter().map(|s| u128::from(s.nodes)).sum();
        let total_nanos: u128 = g.samples.iter().map(|s| u128::from(s.nanos)).sum();
        let measured = g.samples.len();
        let finished = measured > 0
            && g.count_kind(Kind::Stopped) == 0
            && g.samples.iter().all(|s| s.kind().finished());
        let times: Vec<f64> = g.samples.iter().map(|s| s.nanos as f64).collect();
        SummaryRow {
            dataset: dataset.to_string(),
            strategy: strategy.name().to_string(),
            puzzles: g.puzzles,
            outcomes: g.outcomes,
            nodes,
            time,
            puzzles_per_sec: (finished && total_nanos > 0)
                .then(|| round3(measured as f64 * 1e9 / total_nanos as f64)),
            time_median_interval: crate::measure::stats::median_interval(&times)
                .map(|i| i.map(round3)),
            ns_per_node: (total_nodes > 0).then(|| round3(total_nanos as f64 / total_nodes as f64)),
            outliers: g.outliers,
        }
    }

    pub fn count(&self, outcome: Outcome) -> u64 {
        self.outcomes[outcome_index(outcome)]
    }

    /// The CSV fields, in [`columns`] order.
    pub fn record(&self) -> Vec<String> {
        let num = |v: Option<f64>| v.map(|v| format!("{v:?}")).unwrap_or_default();
        let mut f = vec![
            self.dataset.clone(),
            self.strategy.clone(),
            self.puzzles.to_string(),
        ];
        f.extend(self.outcomes.iter().map(u64::to_string));
        for s in [self.nodes, self.time] {
            f.extend([
                num(s.map(|s| s.median)),
                num(s.map(|s| s.mean)),
                num(s.map(|s| s.p90)),
                num(s.map(|s| s.max)),
            ]);
        }
        f.push(num(self.puzzles_per_sec));
        f.push(num(self.ns_per_node));
        f.push(num(self.time_median_interval.map(|i| i.low)));
        f.push(num(self.time_median_interval.map(|i| i.high)));
        let count = |n: Option<u64>| n.map(|n| n.to_string()).unwrap_or_default();
        f.push(count(self.outliers.map(|o| o.mild)));
        f.push(count(self.outliers.map(|o| o.severe)));
        f
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
        puzzle: crate::io::rows::PuzzleId {
            dataset: dataset.into(),
            index,
            line: index,
            name: String::new(),
            size,
            clues: 20,
        },
        strategy,
        outcome: Outcome::Solved,
        counts: Some(crate::base::counters::Counts {
            nodes,
            ..Default::default()
        }),
        absent: Default::default(),
        timing: Some(crate::measure::Timing {
            runs: 1,
            samples: 1,
            cpu_ns: nanos as f64,
            cpu_min_ns: nanos as f64,
            cpu_max_ns: nanos as f64,
            wall_ns: nanos as f64,
            retaken: 0,
            slow: 0,
            pace: 1.0,
        }),
        estimate: None,
        time_interval: None,
        outliers: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_stay_small() {
        assert_eq!(std::mem::size_of::<Sample>(), 24);
    }

    /// Every outcome has a kind, and the tables follow `Outcome::RUNG`.
    #[test]
    fn outcome_tables_follow_the_registry() {
        let cols = columns();
        for (i, o) in Outcome::RUNG.iter().enumerate() {
            assert_eq!(outcome_index(*o), i);
            assert_eq!(cols[3 + i], o.name().replace('-', "_"));
            let _ = Kind::of(*o);
        }
    }
}
