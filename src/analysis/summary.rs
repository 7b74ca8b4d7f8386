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
//! same puzzles, one board size at a time: [`Ladder`] holds the rule.

use std::collections::{BTreeMap, HashMap};

use crate::Strategy;
use crate::base::strategy::Outcome;
use crate::measure::results::Row;
use crate::measure::stats::{Interval, Summary, mean_interval};

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
fn outcome_index(outcome: Outcome) -> usize {
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

    /// The strategies that ran on some puzzle of board side `side`.
    fn ran(&self, side: u32) -> Vec<Strategy> {
        self.strategies()
            .into_iter()
            .filter(|&s| {
                let o = self.outcomes(side, s);
                o.iter().sum::<u64>() > count_kind(&o, Kind::NotRun)
            })
            .collect()
    }

    /// The ladder of one board side (see [`Ladder`] for the rule).
    pub fn ladder(&self, side: u32) -> Ladder {
        let candidates = self.ran(side);
        let not_run = self.not_run(side);
        // Pass 1: puzzles of this side measured, and those some rung solved.
        let (puzzles, solvable) = self.census(side, &candidates);
        let solved: Vec<u64> = candidates
            .iter()
            .map(|&s| self.outcomes(side, s)[outcome_index(Outcome::Solved)])
            .collect();
        let on: Vec<bool> = solved.iter().map(|&n| 2 * n >= solvable).collect();
        // Pass 2: the ladder set, and why the other puzzles are left out.
        let mut ladder = Ladder {
            side,
            puzzles,
            solvable,
            not_run,
            ..Ladder::default()
        };
        let on_count = on.iter().filter(|&&b| b).count();
        // Sized once for the set's upper bound (this size's puzzles), only
        // for the rungs on the ladder: no doubling past what is needed.
        let cap = usize::try_from(puzzles).unwrap_or(0);
        let mut logs: Vec<Vec<(f64, f64)>> = on
            .iter()
            .map(|&on| Vec::with_capacity(if on { cap } else { 0 }))
            .collect();
        ladder.set_datasets.reserve_exact(cap);
        let mut unfinished_by = vec![0u64; candidates.len()];
        self.for_each_puzzle(&candidates, |p| {
            if p.side != side {
                return;
            }
            let rungs = || {
                p.runs
                    .iter()
                    .zip(&on)
                    .filter(|&(_, &on)| on)
                    .map(|(r, _)| r)
            };
            if on_count > 0 && rungs().all(|r| r.is_some_and(|x| x.solved())) {
                ladder.set += 1;
                ladder.set_datasets.push(p.dataset);
                for ((r, &on), log) in p.runs.iter().zip(&on).zip(&mut logs) {
                    if let (Some(x), true) = (r, on) {
                        log.push((ln(x.nodes), ln(x.nanos)));
                    }
                }
            } else if p
                .runs
                .iter()
                .flatten()
                .any(|x| x.kind() == Kind::NoSolution)
            {
                ladder.no_solution += 1;
            } else if rungs().any(|r| r.is_some_and(|x| x.stopped())) {
                ladder.unfinished += 1;
                for ((r, &on), n) in p.runs.iter().zip(&on).zip(&mut unfinished_by) {
                    if on && r.is_some_and(|x| x.stopped()) {
                        *n += 1;
                    }
                }
            } else {
                ladder.missing += 1;
            }
        });
        for (k, &s) in candidates.iter().enumerate() {
            if on[k] {
                ladder.seat(s, solved[k], std::mem::take(&mut logs[k]), unfinished_by[k]);
            } else {
                ladder.off.push((s, solved[k]));
            }
        }
        ladder.compute_intervals();
        ladder
    }

    /// Strategies with rows at `side` where nothing ran.
    fn not_run(&self, side: u32) -> Vec<Strategy> {
        self.strategies()
            .into_iter()
            .filter(|&s| {
                let o = self.outcomes(side, s);
                o.iter().sum::<u64>() > 0 && o.iter().sum::<u64>() == count_kind(&o, Kind::NotRun)
            })
            .collect()
    }

    /// Puzzles of `side` measured by `candidates`, and how many of them
    /// some candidate solved.
    fn census(&self, side: u32, candidates: &[Strategy]) -> (u64, u64) {
        let (mut puzzles, mut solvable) = (0u64, 0u64);
        self.for_each_puzzle(candidates, |p| {
            if p.side == side {
                puzzles += 1;
                solvable += u64::from(p.runs.iter().flatten().any(Sample::solved));
            }
        });
        (puzzles, solvable)
    }

    /// The full-set ladder of one board side: every strategy that ran on
    /// it, over every puzzle where each of them either finished or was cut
    /// off with an estimate of its whole search (the estimate stands in for
    /// its nodes, and estimate × its time per node for its time). `None`
    /// when no cut-off run enters (it would repeat the like-for-like ladder)
    /// or no puzzle qualifies.
    pub fn full_ladder(&self, side: u32) -> Option<FullLadder> {
        let strategies = self.ran(side);
        // Per strategy: sums of ln(nodes), ln(low), ln(high), ln(time), and
        // runs estimated.
        let mut sums = vec![[0.0f64; 4]; strategies.len()];
        let mut estimated = vec![0u64; strategies.len()];
        let mut set = 0u64;
        let mut values = vec![[0.0f64; 4]; strategies.len()];
        self.for_each_puzzle(&strategies, |p| {
            if p.side != side {
                return;
            }
            for (i, run) in p.runs.iter().enumerate() {
                let Some(x) = run else { return };
                let nodes = x.nodes.max(1) as f64;
                let nanos = (x.nanos as f64).max(1.0);
                values[i] = if x.kind().finished() {
                    [nodes, nodes, nodes, nanos]
                } else {
                    let Some(e) = self.estimates.get(&(x.puzzle, strategies[i])) else {
                        return;
                    };
                    let per_node = nanos / nodes;
                    [e.estimate, e.low, e.high, e.estimate * per_node].map(|v| v.max(1.0))
                };
            }
            set += 1;
            for (i, v) in values.iter().enumerate() {
                if !p.runs[i].is_some_and(|x| x.kind().finished()) {
                    estimated[i] += 1;
                }
                for (sum, x) in sums[i].iter_mut().zip(v) {
                    *sum += x.ln();
                }
            }
        });
        if set == 0 || estimated.iter().all(|&n| n == 0) {
            return None;
        }
        let n = set as f64;
        let rungs = strategies
            .iter()
            .zip(&sums)
            .zip(&estimated)
            .map(|((&strategy, s), &estimated)| {
                let [nodes, low, high, time_ns] = s.map(|x| (x / n).exp());
                FullRung {
                    strategy,
                    nodes,
                    low,
                    high,
                    time_ns,
                    estimated,
                }
            })
            .collect();
        Some(FullLadder {
            side,
            set,
            puzzles: self.puzzles_by_side.get(&side).copied().unwrap_or_default(),
            rungs,
        })
    }

    /// The ladder of every board side present, smallest first.
    pub fn ladders(&self) -> Vec<Ladder> {
        self.sides().into_iter().map(|s| self.ladder(s)).collect()
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

/// The full-set ladder of one board side ([`Aggregate::full_ladder`]).
#[derive(Clone, Debug, PartialEq)]
pub struct FullLadder {
    pub side: u32,
    /// Puzzles in the full set, of `puzzles` of this side.
    pub set: u64,
    pub puzzles: u64,
    /// Every strategy that ran on this side, in ladder order.
    pub rungs: Vec<FullRung>,
}

/// One strategy on the full set: geometric means over the set, cut-off runs
/// entering with their estimates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FullRung {
    pub strategy: Strategy,
    pub nodes: f64,
    /// Geometric means of the runs' 95% intervals' ends (a finished run's
    /// interval is its count): if every interval holds its run's truth,
    /// the geometric mean of the truths lies between them.
    pub low: f64,
    pub high: f64,
    /// Time per solve: measured, or estimated as nodes × time per node.
    pub time_ns: f64,
    /// Runs of the set that entered with an estimate.
    pub estimated: u64,
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

/// The ladder of one board size: every rung compared on one set of puzzles.
///
/// **The rule.** A rung is on the ladder of a size when it solved, within
/// the budget, at least half of the puzzles of that size that any rung
/// solved (the others are listed in `off`: comparing on the few puzzles
/// they finish would only compare easy puzzles). The *ladder set* is the
/// puzzles every rung on the ladder solved. Every figure of the ladder is a
/// geometric mean over exactly that set, so a ratio between two rungs is
/// the geometric mean of their per-puzzle ratios, ratios chain (step by step
/// multiplies to bottom-to-top), and speed-up = fewer nodes × cheaper
/// nodes exactly.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ladder {
    pub side: u32,
    /// Puzzles of this size that at least one strategy ran.
    pub puzzles: u64,
    /// Puzzles of this size that at least one strategy solved.
    pub solvable: u64,
    /// On the ladder, in ladder order; the first is the baseline.
    pub rungs: Vec<Rung>,
    /// Ran this size but solved fewer than half of `solvable`: (strategy, solved).
    pub off: Vec<(Strategy, u64)>,
    /// Have rows of this size but ran none of them (e.g. unsupported).
    pub not_run: Vec<Strategy>,
    /// The ladder set: puzzles every rung solved.
    pub set: u64,
    /// Left out: some strategy proved the puzzle has no solution.
    pub no_solution: u64,
    /// Left out: some rung stopped at a limit (and none proved "no solution").
    pub unfinished: u64,
    /// Per rung, how many of `unfinished` it did not finish.
    pub unfinished_by: Vec<(Strategy, u64)>,
    /// Left out for another reason: a rung has no run of the puzzle.
    pub missing: u64,
    /// Per rung on the ladder (in `rungs` order), per puzzle of the set:
    /// (ln nodes, ln time). What the intervals resample; emptied once they
    /// are computed (memory stays one sample per run, see
    /// tests/compare_robustness.rs).
    logs: Vec<Vec<(f64, f64)>>,
    /// The dataset (position in [`Aggregate::datasets`]) of each puzzle of
    /// the set, in the order of `logs`.
    set_datasets: Vec<usize>,
    /// Per rung: intervals of its time and time per node.
    time_cis: Vec<Option<(Interval, Interval)>>,
    /// Per rung: its ratios over the base, and over the rung before.
    vs_base: Vec<Ratios>,
    vs_prev: Vec<Ratios>,
    /// Per rung after the first: its step's speed-up on each dataset.
    spreads: Vec<Vec<DatasetRatio>>,
}

/// One rung of a [`Ladder`]: means of logarithms over the ladder set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rung {
    pub strategy: Strategy,
    /// Puzzles of this size it solved (in or out of the set).
    pub solved: u64,
    pub ln_nodes: f64,
    pub ln_time: f64,
}

impl Rung {
    /// Geometric mean of nodes over the ladder set.
    pub fn nodes(&self) -> f64 {
        self.ln_nodes.exp()
    }
    /// Geometric mean of time (ns) over the ladder set.
    pub fn time(&self) -> f64 {
        self.ln_time.exp()
    }
    /// Geometric mean of time per node (ns).
    pub fn cost(&self) -> f64 {
        (self.ln_time - self.ln_nodes).exp()
    }
    /// How `self` compares with a slower rung `a`: (fewer nodes, cheaper
    /// nodes, speed-up), each "how many times".
    pub fn against(&self, a: &Rung) -> Ratios {
        Ratios {
            nodes: (a.ln_nodes - self.ln_nodes).exp(),
            cost: ((a.ln_time - a.ln_nodes) - (self.ln_time - self.ln_nodes)).exp(),
            speedup: (a.ln_time - self.ln_time).exp(),
            intervals: None,
        }
    }
}

/// Ratios of one rung over another on the same puzzles: speed-up = nodes × cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ratios {
    /// How many times fewer nodes.
    pub nodes: f64,
    /// How many times cheaper each node.
    pub cost: f64,
    /// How many times faster.
    pub speedup: f64,
    /// 95% intervals of the three, bootstrapped over the puzzles of the set
    /// (`None`: fewer than two puzzles, or not computed).
    pub intervals: Option<RatioIntervals>,
}

/// A per-puzzle figure of two rungs' (ln nodes, ln time).
type PairFn = dyn Fn(&(f64, f64), &(f64, f64)) -> f64;

/// The intervals of a [`Ratios`] (see [`crate::measure::stats::bootstrap()`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioIntervals {
    pub nodes: Interval,
    pub cost: Interval,
    pub speedup: Interval,
}

/// The speed-up of one step of a ladder on each dataset of its set.
#[derive(Clone, Debug, PartialEq)]
pub struct DatasetRatio {
    /// Position in [`Aggregate::datasets`].
    pub dataset: usize,
    /// Puzzles of the ladder set from this dataset.
    pub puzzles: u64,
    /// Geometric mean of the per-puzzle speed-ups on them.
    pub speedup: f64,
    /// Its 95% interval over those puzzles.
    pub interval: Option<Interval>,
}

impl Ladder {
    /// The rung every other is compared with: the first on the ladder.
    /// Puts `strategy` on the ladder with its (ln nodes, ln time) per
    /// puzzle of the set, and how many puzzles it did not finish.
    fn seat(&mut self, strategy: Strategy, solved: u64, logs: Vec<(f64, f64)>, unfinished: u64) {
        let n = self.set.max(1) as f64;
        let sum = logs.iter().fold((0.0, 0.0), |a, x| (a.0 + x.0, a.1 + x.1));
        self.rungs.push(Rung {
            strategy,
            solved,
            ln_nodes: sum.0 / n,
            ln_time: sum.1 / n,
        });
        self.logs.push(logs);
        if unfinished > 0 {
            self.unfinished_by.push((strategy, unfinished));
        }
    }

    pub fn base(&self) -> Option<&Rung> {
        self.rungs.first()
    }
    /// Each rung after the first with its ratios against the base and
    /// against the rung before it.
    pub fn steps(&self) -> Vec<(&Rung, Ratios, Ratios)> {
        if self.base().is_none() {
            return Vec::new();
        }
        (1..self.rungs.len())
            .map(|k| {
                let cached =
                    |v: &[Ratios], a| v.get(k).copied().unwrap_or_else(|| self.ratios(a, k));
                (
                    &self.rungs[k],
                    cached(&self.vs_base, 0),
                    cached(&self.vs_prev, k - 1),
                )
            })
            .collect()
    }

    /// Intervals of rung `k`'s geometric mean time and time per node (ns).
    pub fn time_intervals(&self, k: usize) -> Option<(Interval, Interval)> {
        self.time_cis.get(k).copied().flatten()
    }

    /// The speed-up of rung `k` over rung `k - 1` on each dataset of the
    /// set (datasets in order of first appearance in the set).
    pub fn spread(&self, k: usize) -> &[DatasetRatio] {
        self.spreads.get(k).map_or(&[], Vec::as_slice)
    }

    /// Every interval the ladder shows, then the per-puzzle values dropped.
    fn compute_intervals(&mut self) {
        let n = self.rungs.len();
        self.time_cis = (0..n).map(|k| self.compute_time_intervals(k)).collect();
        self.vs_base = (0..n).map(|k| self.ratios(0, k)).collect();
        self.vs_prev = (0..n)
            .map(|k| self.ratios(k.saturating_sub(1), k))
            .collect();
        self.spreads = (0..n)
            .map(|k| {
                if k == 0 {
                    Vec::new()
                } else {
                    self.by_dataset(k - 1, k)
                }
            })
            .collect();
        self.logs = Vec::new();
        self.set_datasets = Vec::new();
    }

    /// Rung `b` against rung `a` (positions in `rungs`), with intervals
    /// bootstrapped over the puzzles of the set.
    fn ratios(&self, a: usize, b: usize) -> Ratios {
        let mut r = self.rungs[b].against(&self.rungs[a]);
        if let (Some(la), Some(lb)) = (self.logs.get(a), self.logs.get(b)) {
            let per = |f: &PairFn| -> Option<Interval> {
                let v: Vec<f64> = la.iter().zip(lb).map(|(x, y)| f(x, y)).collect();
                Some(mean_interval(&v)?.map(f64::exp))
            };
            r.intervals = (|| {
                Some(RatioIntervals {
                    nodes: per(&|x, y| x.0 - y.0)?,
                    cost: per(&|x, y| (x.1 - x.0) - (y.1 - y.0))?,
                    speedup: per(&|x, y| x.1 - y.1)?,
                })
            })();
        }
        r
    }

    fn compute_time_intervals(&self, k: usize) -> Option<(Interval, Interval)> {
        let l = self.logs.get(k)?;
        let time: Vec<f64> = l.iter().map(|x| x.1).collect();
        let cost: Vec<f64> = l.iter().map(|x| x.1 - x.0).collect();
        Some((
            mean_interval(&time)?.map(f64::exp),
            mean_interval(&cost)?.map(f64::exp),
        ))
    }

    fn by_dataset(&self, a: usize, b: usize) -> Vec<DatasetRatio> {
        let (Some(la), Some(lb)) = (self.logs.get(a), self.logs.get(b)) else {
            return Vec::new();
        };
        let mut order: Vec<usize> = Vec::new();
        for &d in &self.set_datasets {
            if !order.contains(&d) {
                order.push(d);
            }
        }
        order
            .into_iter()
            .map(|d| {
                let v: Vec<f64> = la
                    .iter()
                    .zip(lb)
                    .zip(&self.set_datasets)
                    .filter(|&(_, &sd)| sd == d)
                    .map(|((x, y), _)| x.1 - y.1)
                    .collect();
                DatasetRatio {
                    dataset: d,
                    puzzles: v.len() as u64,
                    speedup: (v.iter().sum::<f64>() / v.len() as f64).exp(),
                    interval: mean_interval(&v).map(|i| i.map(f64::exp)),
                }
            })
            .collect()
    }
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
        counts: Some(crate::Counts {
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

    fn row(dataset: &str, index: u64, strategy: Strategy, nodes: u64, nanos: u64) -> Row {
        solved_row(dataset, index, 9, strategy, nodes, nanos)
    }

    fn with(mut r: Row, outcome: Outcome) -> Row {
        r.outcome = outcome;
        if outcome == Outcome::Unsupported {
            r.counts = None;
            r.timing = None;
        }
        r
    }

    /// Cut-off runs with an estimate enter the full-set ladder; a cut-off run
    /// without one keeps its puzzle out.
    #[test]
    fn full_ladder_takes_estimates_of_cut_off_runs() {
        let mut agg = Aggregate::default();
        let cut = |index, nodes, nanos, e: Option<(f64, f64, f64)>| {
            let mut r = with(
                row("d", index, Strategy::Naive, nodes, nanos),
                Outcome::BudgetExceeded,
            );
            r.estimate = e.map(|(estimate, low, high)| crate::measure::results::Estimate {
                estimate,
                low,
                high,
            });
            r
        };
        agg.push(&row("d", 1, Strategy::Naive, 10, 100));
        agg.push(&row("d", 1, Strategy::Fast, 1, 50));
        agg.push(&cut(2, 1000, 2000, Some((4000.0, 1000.0, 16000.0))));
        agg.push(&row("d", 2, Strategy::Fast, 4, 50));
        agg.push(&cut(3, 1000, 2000, None));
        agg.push(&row("d", 3, Strategy::Fast, 9, 50));
        // naive solved one puzzle of three: it is not on the like-for-like
        // ladder, but it is on the full set.
        assert!(
            agg.ladder(9)
                .rungs
                .iter()
                .all(|r| r.strategy != Strategy::Naive)
        );
        let full = agg.full_ladder(9).unwrap();
        assert_eq!((full.set, full.puzzles), (2, 3));
        let naive = full.rungs[0];
        assert_eq!(naive.strategy, Strategy::Naive);
        assert_eq!(naive.estimated, 1);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9 * b;
        assert!(close(naive.nodes, (10.0f64 * 4000.0).sqrt()));
        assert!(close(naive.low, (10.0f64 * 1000.0).sqrt()));
        assert!(close(naive.high, (10.0f64 * 16000.0).sqrt()));
        // Time: 4000 nodes × 2 ns per node.
        assert!(close(naive.time_ns, (100.0f64 * 8000.0).sqrt()));
        let fast = full.rungs.last().unwrap();
        assert_eq!((fast.strategy, fast.estimated), (Strategy::Fast, 0));
        assert!(close(fast.nodes, 2.0));
        // Nothing estimated: no full-set ladder.
        let mut plain = Aggregate::default();
        plain.push(&row("d", 1, Strategy::Naive, 10, 100));
        assert_eq!(plain.full_ladder(9), None);
    }

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

    /// One row per strategy per puzzle: a puzzle is joined once. Repeated
    /// rows of one puzzle are new puzzles (each measurement joined once).
    #[test]
    fn ladder_joins_runs_per_puzzle_and_per_round_of_repeats() {
        let (a, b) = (Strategy::ALL[0], Strategy::ALL[1]);
        let mut agg = Aggregate::default();
        for i in 1..=3 {
            agg.push(&row("d", i, a, 400, 800));
            agg.push(&row("d", i, b, 100, 100));
        }
        let l = agg.ladder(9);
        assert_eq!((l.puzzles, l.set), (3, 3));
        let (rung, vs_base, _) = l.steps()[0];
        assert_eq!(rung.strategy, b);
        assert!((vs_base.nodes - 4.0).abs() < 1e-9);
        assert!((vs_base.speedup - 8.0).abs() < 1e-9);
        assert!((vs_base.cost - 2.0).abs() < 1e-9);

        let mut agg = Aggregate::default();
        for _ in 0..1000 {
            agg.push(&row("d", 1, a, 400, 800));
            agg.push(&row("d", 1, b, 100, 100));
        }
        assert_eq!(agg.rows, 2000);
        assert_eq!(agg.ladder(9).set, 1000);
        assert_eq!(agg.groups[&(0, a)].puzzles, 1000);
        // A new dataset with the same index is a new puzzle.
        let mut agg = Aggregate::default();
        agg.push(&row("d", 1, a, 400, 800));
        agg.push(&row("e", 1, b, 100, 100));
        let l = agg.ladder(9);
        assert_eq!((l.puzzles, l.set), (2, 0));
        assert_eq!(l.missing, 2);
        assert_eq!(agg.datasets, vec!["d", "e"]);
    }

    /// The rule: rungs that solved under half of what was solvable are off
    /// the ladder; the set is what every other rung solved; no-solution and
    /// unfinished puzzles are left out and counted by reason.
    #[test]
    fn ladder_rule() {
        let (a, b, c) = (Strategy::ALL[0], Strategy::ALL[1], Strategy::ALL[2]);
        let mut agg = Aggregate::default();
        // Puzzle 1-4: b and c solve; a solves 1 and 2 only (stopped on 3 and 4).
        // Puzzle 5: no solution. Puzzle 6: c stops, b solves, a stops.
        for i in 1..=6u64 {
            let a_out = match i {
                1 | 2 => Outcome::Solved,
                5 => Outcome::NoSolution,
                _ => Outcome::BudgetExceeded,
            };
            let b_out = if i == 5 {
                Outcome::NoSolution
            } else {
                Outcome::Solved
            };
            let c_out = match i {
                5 => Outcome::NoSolution,
                6 => Outcome::BudgetExceeded,
                _ => Outcome::Solved,
            };
            agg.push(&with(row("d", i, a, 100, 1000), a_out));
            agg.push(&with(row("d", i, b, 10, 1000), b_out));
            agg.push(&with(row("d", i, c, 10, 100), c_out));
        }
        let l = agg.ladder(9);
        assert_eq!((l.puzzles, l.solvable), (6, 5));
        // a solved 2 of 5: off. b and c on; set = 1..4.
        assert_eq!(l.off, vec![(a, 2)]);
        let on: Vec<Strategy> = l.rungs.iter().map(|r| r.strategy).collect();
        assert_eq!(on, vec![b, c]);
        assert_eq!(
            (l.set, l.no_solution, l.unfinished, l.missing),
            (4, 1, 1, 0)
        );
        assert_eq!(l.unfinished_by, vec![(c, 1)]);
        let (_, r, step) = l.steps()[0];
        assert!((r.speedup - 10.0).abs() < 1e-9 && r == step);
        assert!((r.nodes - 1.0).abs() < 1e-9);
    }

    #[test]
    fn not_run_strategies_are_named_per_size() {
        let (a, b) = (Strategy::ALL[0], Strategy::ALL[1]);
        let mut agg = Aggregate::default();
        agg.push(&solved_row("d", 1, 4, a, 5, 50));
        agg.push(&with(solved_row("d", 1, 4, b, 5, 50), Outcome::Unsupported));
        let l = agg.ladder(4);
        assert_eq!(l.not_run, vec![b]);
        assert_eq!(l.rungs.len(), 1);
        assert_eq!(l.set, 1);
        assert!(l.steps().is_empty());
    }
}
