//! The `estimate` command's runs: each puzzle × strategy searched within the
//! budget, estimated where the budget cut it off, and — with `exact` — also
//! searched to the end, so the estimate can be held against the truth (the
//! validation of `tests/estimate.rs` and `docs/lesson-estimate.md`).

use serde::Serialize;

use super::{Estimate, EstimateError, Interval, Options, estimate};
use crate::base::board::Board;
use crate::base::progress::Progress;
use crate::base::search::{End, Limits};
use crate::base::strategy::Strategy;
use crate::measure::stats::Summary;

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    pub strategies: Vec<Strategy>,
    /// The node budget whose cut-off runs are estimated.
    pub budget: u64,
    /// Estimate every run, and search each to the end for the truth.
    pub exact: bool,
    /// Seed of the probes.
    pub seed: u64,
}

/// One puzzle × strategy.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub puzzle: String,
    pub strategy: Strategy,
    /// Nodes the budgeted search counted (the budget, when cut off).
    pub nodes: u64,
    pub cut_off: bool,
    /// The estimate of the full search (cut-off runs, or every run with `exact`).
    pub estimate: Option<Interval>,
    /// Probes run, and nodes they entered or skipped.
    pub runs: u64,
    pub effort: u64,
    /// Why there is no estimate.
    pub unestimated: Option<String>,
    /// The full search's nodes (with `exact`).
    pub truth: Option<u64>,
}

impl Row {
    /// estimate ÷ truth, when both are known.
    pub fn ratio(&self) -> Option<f64> {
        Some(self.estimate?.estimate / self.truth? as f64)
    }

    /// Whether the interval holds the truth, when both are known.
    pub fn covered(&self) -> Option<bool> {
        Some(self.estimate?.covers(self.truth? as f64))
    }
}

/// Runs the plan on named puzzles, in order (strategies that do not support
/// a puzzle's size are left out). A wrong answer or a rung that breaks the
/// estimator's contract is an error; a puzzle whose visited tree is not
/// known (several solutions, a rung that is not row-major) or a rung whose
/// tree depends on the order of its search is a row without an estimate,
/// saying why.
pub fn run(
    plan: &Plan,
    puzzles: &[(String, Board)],
    progress: &dyn Progress,
) -> anyhow::Result<Vec<Row>> {
    progress.start((puzzles.len() * plan.strategies.len()) as u64);
    let mut rows = Vec::new();
    for (name, board) in puzzles {
        for &strategy in &plan.strategies {
            progress.tick();
            if !strategy.supports(board.size()) {
                continue;
            }
            let limits = Limits::solve(Some(plan.budget));
            let cut = strategy.run_counted(board, limits)?;
            let cut_off = cut.end == End::BudgetExceeded;
            let mut row = Row {
                puzzle: name.clone(),
                strategy,
                nodes: cut.counts.nodes,
                cut_off,
                estimate: None,
                runs: 0,
                effort: 0,
                unestimated: None,
                truth: None,
            };
            if cut_off || plan.exact {
                let options = Options {
                    seed: plan.seed,
                    ..Options::for_budget(plan.budget)
                };
                let floor = if cut_off {
                    cut.counts
                } else {
                    Default::default()
                };
                match estimate(strategy, board, limits, floor, options) {
                    Ok(e) => fill(&mut row, &e),
                    Err(
                        e @ (EstimateError::FirstSolutionUnknown(_)
                        | EstimateError::LaterSolution(_)
                        | EstimateError::OrderDependent(_)),
                    ) => row.unestimated = Some(e.to_string()),
                    Err(e) => {
                        return Err(anyhow::Error::new(e).context(format!("{name}, {strategy}")));
                    }
                }
            }
            if plan.exact {
                row.truth = Some(if cut_off {
                    strategy.solve(board, None)?.counts.nodes
                } else {
                    cut.counts.nodes
                });
            }
            rows.push(row);
        }
    }
    Ok(rows)
}

fn fill(row: &mut Row, e: &Estimate) {
    row.estimate = Some(e.nodes());
    row.runs = e.runs;
    row.effort = e.effort;
}

/// How the estimates of rows with a known truth fared.
#[derive(Clone, Debug, Serialize)]
pub struct Validation {
    /// Rows with both an estimate and the truth.
    pub cases: usize,
    /// Of them, rows whose interval holds the truth.
    pub covered: usize,
    /// estimate ÷ truth over the cases.
    pub ratio: Option<Summary>,
    /// Cases within a factor of 2 of the truth (and of 1.1).
    pub within_2x: usize,
    pub within_10pct: usize,
    /// Probes' effort ÷ true nodes, largest over the cases.
    pub max_effort_share: Option<f64>,
}

/// Summarises the rows that have an estimate and a truth.
pub fn validate(rows: &[Row]) -> Validation {
    let known: Vec<&Row> = rows.iter().filter(|r| r.ratio().is_some()).collect();
    let mut ratios: Vec<f64> = known.iter().filter_map(|r| r.ratio()).collect();
    let within = |f: f64| ratios.iter().filter(|&&x| x <= f && x >= 1.0 / f).count();
    Validation {
        cases: known.len(),
        covered: known.iter().filter(|r| r.covered() == Some(true)).count(),
        within_2x: within(2.0),
        within_10pct: within(1.1),
        max_effort_share: known
            .iter()
            .filter_map(|r| Some(r.effort as f64 / r.truth? as f64))
            .reduce(f64::max),
        ratio: Summary::of(&mut ratios),
    }
}
