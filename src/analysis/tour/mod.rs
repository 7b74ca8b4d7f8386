//! Measurements for the guided tour (`docs/`) and the `ladder` command:
//! each strategy on each puzzle, measured by the one measurement
//! ([`crate::measure`]), and the distribution of a set's node counts.
//!
//! Only the counters are reproducible; times are medians of repeated
//! uncounted runs on the machine at hand.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Serialize;

use crate::base::board::Board;
use crate::base::format::Puzzle;
use crate::base::progress::Progress;
use crate::base::search::Limits;
use crate::base::strategy::{Outcome, Strategy};
use crate::io::dataset::Dataset;
use crate::io::sample::Sample;
use crate::measure::stats::Summary;
use crate::measure::{Conditions, Measurement, Method, measure_grouped};
use transform::Transform;

pub(crate) mod transform;

/// A measurement of one puzzle, with the label tables show.
#[derive(Clone, Debug)]
pub struct Labelled {
    /// Puzzle label: its name, or `file#index`, plus `@transform` if turned.
    pub puzzle: String,
    pub m: Measurement,
    /// A cut-off run's whole search, estimated ([`crate::analysis::estimate`]), or
    /// why there is no estimate; `None` for runs that finished.
    pub estimate: Option<Result<crate::analysis::estimate::Estimate, String>>,
}

impl Labelled {
    /// Time per node in nanoseconds (`None` before a first node or untimed).
    pub fn ns_per_node(&self) -> Option<f64> {
        let t = self.m.timing?;
        (self.m.counts.nodes > 0).then(|| t.ns() / self.m.counts.nodes as f64)
    }
}

/// What `ladder` runs: every strategy on every puzzle of every set (each
/// turned the given ways), one measurement each.
pub struct LadderPlan<'a> {
    pub strategies: &'a [Strategy],
    pub limits: Limits,
    pub method: &'a Method,
    /// At most this many puzzles of each set.
    pub first: usize,
    /// Also every puzzle turned and mirrored (8 ways) and with its bands reordered.
    pub symmetries: bool,
}

/// One set's measurements: its name and a row per puzzle (× turn) × strategy.
type SetRows = (String, Vec<Labelled>);

/// Measures the plan on the sets, in order, reporting progress per
/// measurement. Errors name the set's file, the puzzle's position and line.
pub fn ladder(
    plan: &LadderPlan,
    sets: &[(&Path, &Dataset)],
    progress: &dyn Progress,
) -> anyhow::Result<Vec<SetRows>> {
    let variants = |size| {
        if plan.symmetries {
            Transform::standard(size)
        } else {
            vec![Transform::Identity]
        }
    };
    let total: u64 = sets
        .iter()
        .flat_map(|(_, d)| d.puzzles.iter().take(plan.first))
        .map(|p| (variants(p.board.size()).len() * plan.strategies.len()) as u64)
        .sum();
    progress.start(total);
    let mut out = Vec::new();
    for (path, data) in sets {
        // Every puzzle (× turn) × strategy of the set, measured in groups
        // with their samples interleaved, as `compare` measures.
        let mut items = Vec::new();
        for (puzzle, position) in data.puzzles.iter().zip(&data.positions).take(plan.first) {
            let base = label(data, puzzle, *position);
            for t in &variants(puzzle.board.size()) {
                let label = match t {
                    Transform::Identity if !plan.symmetries => base.clone(),
                    _ => format!("{base} @{}", t.name()),
                };
                items.push((label, t.apply(&puzzle.board), position, puzzle.line));
            }
        }
        progress.say(&data.name);
        let tasks: Vec<(usize, Strategy)> = (0..items.len())
            .flat_map(|i| plan.strategies.iter().map(move |&s| (i, s)))
            .collect();
        let mut rows = Vec::with_capacity(tasks.len());
        let boards: Vec<(Strategy, &Board)> =
            tasks.iter().map(|&(i, s)| (s, &items[i].1)).collect();
        let measured = measure_grouped(&boards, plan.limits, plan.method, &mut |_, _| {
            progress.tick()
        });
        for (&(i, _), m) in tasks.iter().zip(measured) {
            let (label, _, position, line) = &items[i];
            let (m, _) =
                m.with_context(|| format!("{} puzzle {position} (line {line})", path.display()))?;
            let estimate = (m.outcome == Outcome::BudgetExceeded).then(|| {
                let budget = m.counts.nodes;
                let options = crate::analysis::estimate::Options::for_budget(budget);
                crate::analysis::estimate::estimate(
                    m.strategy,
                    &items[i].1,
                    plan.limits,
                    m.counts,
                    options,
                )
                .map_err(|e| e.to_string())
            });
            rows.push(Labelled {
                puzzle: label.clone(),
                m,
                estimate,
            });
        }
        out.push((data.name.clone(), rows));
    }
    Ok(out)
}

/// A puzzle's label in the tables: its name, or `set#position`.
pub fn label(data: &Dataset, puzzle: &Puzzle, position: u64) -> String {
    puzzle
        .name
        .clone()
        .unwrap_or_else(|| format!("{}#{position}", data.name))
}

/// The first `first` puzzles of each file, labelled (`estimate`'s puzzles).
pub fn labelled(files: &[PathBuf], first: usize) -> anyhow::Result<Vec<(String, Board)>> {
    let mut puzzles = Vec::new();
    for path in files {
        let data = Dataset::load(path)?;
        for (p, &position) in data.puzzles.iter().zip(&data.positions).take(first) {
            puzzles.push((label(&data, p, position), p.board.clone()));
        }
    }
    Ok(puzzles)
}

/// What the `ladder` command measured: each file's rows, and the machine's
/// conditions while it measured (its load before and after, the timings).
pub struct LadderRun {
    pub sets: Vec<SetRows>,
    pub conditions: Conditions,
}

/// The `ladder` command's work: loads the files (each sampled), measures
/// the plan on them ([`ladder`]) and notes the conditions; refuses a run in
/// which no chosen strategy supports the puzzles' size.
pub fn ladder_files(
    plan: &LadderPlan,
    files: &[PathBuf],
    sample: Option<Sample>,
    progress: &dyn Progress,
) -> anyhow::Result<LadderRun> {
    let sets = files
        .iter()
        .map(|p| Dataset::load_sampled(p, sample))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let named: Vec<(&Path, &Dataset)> = files.iter().map(PathBuf::as_path).zip(&sets).collect();
    let mut conditions = Conditions::new(1);
    conditions.sample_load();
    let measured = ladder(plan, &named, progress)?;
    conditions.sample_load();
    for (_, rows) in &measured {
        for t in rows.iter().filter_map(|l| l.m.timing.as_ref()) {
            conditions.add(t);
        }
    }
    let run = LadderRun {
        sets: measured,
        conditions,
    };
    if run
        .all()
        .iter()
        .all(|l| l.m.outcome == Outcome::Unsupported)
    {
        let sizes: Vec<String> = sets
            .iter()
            .flat_map(|d| d.puzzles.first())
            .map(|p| p.board.size().to_string())
            .collect();
        anyhow::bail!(
            "nothing to measure: no chosen strategy supports the puzzles' size ({})",
            sizes.join(", ")
        );
    }
    Ok(run)
}

impl LadderRun {
    /// Every row, set after set.
    pub fn all(&self) -> Vec<&Labelled> {
        self.sets.iter().flat_map(|(_, r)| r).collect()
    }

    /// Whether every run solved its puzzle (or was not run: size unsupported).
    pub fn all_solved(&self) -> bool {
        self.all()
            .iter()
            .all(|l| matches!(l.m.outcome, Outcome::Solved | Outcome::Unsupported))
    }
}

/// One row of `ladder`'s per-puzzle table as plain data (`ladder --json`):
/// the counters of the counted run (none when the size is unsupported) and
/// the median time of the uncounted runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LadderRow {
    pub puzzle: String,
    pub strategy: Strategy,
    pub outcome: Outcome,
    pub counts: Option<crate::base::counters::Counts>,
    pub time_ns: Option<f64>,
    pub ns_per_node: Option<f64>,
}

impl LadderRow {
    pub fn of(l: &Labelled) -> LadderRow {
        LadderRow {
            puzzle: l.puzzle.clone(),
            strategy: l.m.strategy,
            outcome: l.m.outcome,
            counts: (l.m.outcome != Outcome::Unsupported).then_some(l.m.counts),
            time_ns: l.m.timing.map(|t| t.ns()),
            ns_per_node: l.ns_per_node(),
        }
    }
}

/// The distributions `ladder --dist` shows: per set, per strategy (in the
/// given order) that ran on at least one of its puzzles.
pub(crate) fn distributions(
    sets: &[(String, Vec<Labelled>)],
    strategies: &[Strategy],
) -> Vec<Distribution> {
    let mut dists = Vec::new();
    for (name, rows) in sets {
        for &s in strategies {
            let mine: Vec<&Measurement> = rows
                .iter()
                .map(|l| &l.m)
                .filter(|m| m.strategy == s && m.outcome != Outcome::Unsupported)
                .collect();
            if !mine.is_empty() {
                dists.push(Distribution::of(name, s, &mine));
            }
        }
    }
    dists
}

/// Node counts of one strategy over one set, summarised as a distribution.
#[derive(Clone, Debug, Serialize)]
pub struct Distribution {
    pub set: String,
    pub strategy: Strategy,
    pub puzzles: usize,
    pub solved: usize,
    /// Puzzles that hit the node budget (their count is the budget: a lower bound).
    pub budget_exceeded: usize,
    /// Puzzles solved without a single guess (for `mrv`: by naked singles alone).
    pub no_guess: usize,
    /// Nodes per puzzle ([`crate::measure::stats`] quantiles).
    pub nodes: Summary,
    /// Share of all nodes spent on the 1% of puzzles that needed the most.
    pub top1_share: f64,
    /// Puzzles per decade of nodes: `decades[k]` = puzzles with
    /// `10^k <= nodes < 10^(k+1)`.
    pub decades: Vec<usize>,
    /// Σ per-puzzle times, in nanoseconds.
    pub total_nanos: f64,
}

impl Distribution {
    /// Summarises measurements of one strategy on one set (at least one).
    pub fn of(set: &str, strategy: Strategy, rows: &[&Measurement]) -> Distribution {
        let mut nodes: Vec<u64> = rows.iter().map(|m| m.counts.nodes).collect();
        nodes.sort_unstable();
        let n = nodes.len();
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
        let count = |o: Outcome| rows.iter().filter(|m| m.outcome == o).count();
        Distribution {
            set: set.to_string(),
            strategy,
            puzzles: n,
            solved: count(Outcome::Solved),
            budget_exceeded: count(Outcome::BudgetExceeded),
            no_guess: rows
                .iter()
                .filter(|m| m.outcome == Outcome::Solved && m.counts.guesses == 0)
                .count(),
            nodes: Summary::of_counts(nodes.iter().copied()).unwrap_or_default(),
            top1_share: crate::measure::stats::share(top_sum as f64, total as f64),
            decades,
            total_nanos: rows.iter().filter_map(|m| m.timing).map(|t| t.ns()).sum(),
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
    use crate::base::counters::Counts;
    use crate::base::search::End;
    use crate::measure::Timing;

    fn row(nodes: u64) -> Measurement {
        Measurement {
            strategy: Strategy::Mrv,
            outcome: Outcome::Solved,
            end: End::SolutionLimit,
            solutions: 1,
            counts: Counts {
                nodes,
                ..Counts::default()
            },
            samples: vec![10.0],
            timing: Some(Timing {
                runs: 1,
                samples: 1,
                cpu_ns: 10.0,
                cpu_min_ns: 10.0,
                cpu_max_ns: 10.0,
                wall_ns: 10.0,
                retaken: 0,
                slow: 0,
                pace: 1.0,
            }),
        }
    }

    #[test]
    fn distribution_of_a_hand_made_set() {
        // 100 puzzles: 99 need 10 nodes, one needs 9,010.
        let rows: Vec<Measurement> = (0..99).map(|_| row(10)).chain([row(9_010)]).collect();
        let refs: Vec<&Measurement> = rows.iter().collect();
        let d = Distribution::of("s", Strategy::Mrv, &refs);
        assert_eq!((d.puzzles, d.solved, d.budget_exceeded), (100, 100, 0));
        assert_eq!(d.no_guess, 100);
        assert_eq!(
            (d.nodes.median, d.nodes.p90, d.nodes.max),
            (10.0, 10.0, 9_010.0)
        );
        assert!((d.nodes.mean - 100.0).abs() < 1e-9);
        assert!((d.top1_share - 0.901).abs() < 1e-9);
        assert_eq!(d.decades, vec![0, 99, 0, 1]);
        assert_eq!(d.total_nanos, 1000.0);
    }

    #[test]
    fn decades() {
        assert_eq!(decade(0), 0);
        assert_eq!(decade(9), 0);
        assert_eq!(decade(10), 1);
        assert_eq!(decade(69_175_317), 7);
    }
}
