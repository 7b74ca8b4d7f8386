//! The per-size ladders every ratio of the report comes from, and the
//! full-set ladders where cut-off runs enter with their estimates: built
//! from an [`Aggregate`] (see [`Ladder`] for the rule: like for like, one
//! board size at a time).

use crate::analysis::summary::{Aggregate, Kind, Sample, count_kind, ln, outcome_index};
use crate::base::strategy::Outcome;
use crate::base::strategy::Strategy;
use crate::measure::stats::{Interval, mean_interval};

impl Aggregate {
    /// The strategies whose rows of board side `side` pass `keep(rows, rows
    /// where nothing ran)`.
    fn strategies_at(&self, side: u32, keep: fn(u64, u64) -> bool) -> Vec<Strategy> {
        self.strategies()
            .into_iter()
            .filter(|&s| {
                let o = self.outcomes(side, s);
                keep(o.iter().sum(), count_kind(&o, Kind::NotRun))
            })
            .collect()
    }

    /// The strategies that ran on some puzzle of board side `side`.
    fn ran(&self, side: u32) -> Vec<Strategy> {
        self.strategies_at(side, |rows, not_run| rows > not_run)
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
        self.strategies_at(side, |rows, not_run| rows > 0 && rows == not_run)
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
        crate::analysis::first_seen(self.set_datasets.iter().copied())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::summary::solved_row;
    use crate::measure::results::Row;

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
