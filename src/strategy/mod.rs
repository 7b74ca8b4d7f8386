//! The strategy ladder. [`Strategy`] is the single registry: the CLI, the CSV
//! files and the charts all take their names, order and summaries from it.

use std::time::{Duration, Instant};

use clap::ValueEnum;
use clap::builder::PossibleValue;
use serde::{Deserialize, Serialize};

use crate::board::{Board, BoxSize, VerifyError};
use crate::counters::{Counter, Counts, NoCount};
use crate::search::{Ctx, End, Limits, Report};

pub mod bitmask;
pub mod blank_list;
pub mod dlx;
pub mod fast;
pub mod mrv;
pub mod naive;
pub mod propagate;
pub mod used_tables;

/// One rung of the ladder. Declaration order is ladder order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    Naive,
    BlankList,
    UsedTables,
    Bitmask,
    Mrv,
    Propagate,
    Dlx,
    Fast,
}

impl Strategy {
    /// Every strategy, in ladder order.
    pub const ALL: &'static [Strategy] = &[
        Strategy::Naive,
        Strategy::BlankList,
        Strategy::UsedTables,
        Strategy::Bitmask,
        Strategy::Mrv,
        Strategy::Propagate,
        Strategy::Dlx,
        Strategy::Fast,
    ];

    /// The strategy used when none is named: the fastest. It is 9×9 only;
    /// [`Strategy::default_for`] picks the fallback for other sizes.
    pub const DEFAULT: Strategy = Strategy::Fast;

    /// The strategy used for a board of this size when none is named:
    /// [`Strategy::DEFAULT`] where it applies, else `propagate` (the fastest
    /// rung for every size). This is the one place that decides defaults for
    /// `solve`, `count` and the generator's uniqueness checks.
    pub fn default_for(size: BoxSize) -> Strategy {
        if Strategy::DEFAULT.supports(size) {
            Strategy::DEFAULT
        } else {
            Strategy::Propagate
        }
    }

    /// The CLI/CSV name, e.g. `blank-list`.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Naive => "naive",
            Strategy::BlankList => "blank-list",
            Strategy::UsedTables => "used-tables",
            Strategy::Bitmask => "bitmask",
            Strategy::Mrv => "mrv",
            Strategy::Propagate => "propagate",
            Strategy::Dlx => "dlx",
            Strategy::Fast => "fast",
        }
    }

    /// One line: what this rung changes.
    pub fn summary(self) -> &'static str {
        match self {
            Strategy::Naive => {
                "rescan the board for the first empty cell at every node; check digits by scanning row, column and box"
            }
            Strategy::BlankList => {
                "list the empty cells once and walk the list by index; same scanning checks"
            }
            Strategy::UsedTables => {
                "per-row/column/box 'digit is used' tables: a check is three table reads"
            }
            Strategy::Bitmask => {
                "one bit set per unit: candidates = complement of the union, lowest bit first"
            }
            Strategy::Mrv => {
                "bitmasks, and branch on the empty cell with the fewest candidates (MRV)"
            }
            Strategy::Propagate => {
                "per-cell candidate masks; naked and hidden singles to a fixpoint before each MRV guess"
            }
            Strategy::Dlx => {
                "exact cover with dancing links (Algorithm X): branch on the constraint with the fewest options"
            }
            Strategy::Fast => {
                "9x9 only: per-digit band bitboards, singles and locked candidates by table, guess on a bivalue cell"
            }
        }
    }

    /// Whether this strategy handles boards of this size.
    pub fn supports(self, size: BoxSize) -> bool {
        match self {
            Strategy::Fast => size == BoxSize::NINE,
            _ => true,
        }
    }

    /// `Err` with a user-facing message when this strategy cannot run on boards of `size`.
    pub fn check_size(self, size: BoxSize) -> Result<(), String> {
        if self.supports(size) {
            Ok(())
        } else {
            Err(format!("strategy {self} does not support {size} boards"))
        }
    }

    /// True for the rungs that keep `naive`'s cell and digit order and so
    /// visit exactly the same tree.
    pub fn is_row_major(self) -> bool {
        matches!(
            self,
            Strategy::Naive | Strategy::BlankList | Strategy::UsedTables | Strategy::Bitmask
        )
    }

    /// Runs the search with any counter. This is the one code path for
    /// timed (`NoCount`) and counted (`Counts`) runs. The solution in the
    /// report is not yet verified.
    ///
    /// Panics if the strategy does not support the board's size: callers
    /// check [`Strategy::supports`] (the CLI via [`Strategy::check_size`]),
    /// so a report is never silently produced by another strategy.
    pub fn run<C: Counter>(self, puzzle: &Board, limits: Limits, counter: C) -> Report<C> {
        assert!(
            self.supports(puzzle.size()),
            "strategy {self} does not support {} boards",
            puzzle.size()
        );
        let mut ctx = Ctx::new(puzzle.size(), limits, counter);
        let flow = match self {
            Strategy::Naive => naive::search(puzzle, &mut ctx),
            Strategy::BlankList => blank_list::search(puzzle, &mut ctx),
            Strategy::UsedTables => used_tables::search(puzzle, &mut ctx),
            Strategy::Bitmask => bitmask::search(puzzle, &mut ctx),
            Strategy::Mrv => mrv::search(puzzle, &mut ctx),
            Strategy::Propagate => propagate::search(puzzle, &mut ctx),
            Strategy::Dlx => dlx::search(puzzle, &mut ctx),
            Strategy::Fast => fast::search(puzzle, &mut ctx),
        };
        ctx.finish(puzzle.size(), flow)
    }

    /// Runs with counters on and the clock running, then verifies the
    /// solution against the givens and the rules.
    pub fn run_counted(self, puzzle: &Board, limits: Limits) -> Result<Run, WrongSolution> {
        let start = Instant::now();
        let report = self.run(puzzle, limits, Counts::default());
        let elapsed = start.elapsed();
        let counts = report.counter;
        Run::from_report(self, puzzle, report, counts, elapsed)
    }

    /// Runs with counters off (the timed path) and verifies the solution.
    /// Only `counts.nodes` is filled: the context counts nodes for the budget.
    pub fn run_timed(self, puzzle: &Board, limits: Limits) -> Result<Run, WrongSolution> {
        let start = Instant::now();
        let report = self.run(puzzle, limits, NoCount);
        let elapsed = start.elapsed();
        Run::from_report(self, puzzle, report, Counts::default(), elapsed)
    }

    /// Finds the first solution within an optional node budget.
    pub fn solve(self, puzzle: &Board, budget: Option<u64>) -> Result<Run, WrongSolution> {
        self.run_counted(puzzle, Limits::solve(budget))
    }

    /// Counts solutions up to `limit` within an optional node budget.
    pub fn count(
        self,
        puzzle: &Board,
        limit: u64,
        budget: Option<u64>,
    ) -> Result<Run, WrongSolution> {
        self.run_counted(puzzle, Limits::count(limit, budget))
    }
}

/// The CLI takes names and help text from the registry above.
impl ValueEnum for Strategy {
    fn value_variants<'a>() -> &'a [Self] {
        Strategy::ALL
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).help(self.summary()))
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What happened to one puzzle, as reported to users.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Solved,
    NoSolution,
    BudgetExceeded,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Solved => "solved",
            Outcome::NoSolution => "no-solution",
            Outcome::BudgetExceeded => "budget-exceeded",
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A verified, counted run of one strategy on one puzzle.
#[derive(Clone, Debug)]
pub struct Run {
    pub outcome: Outcome,
    pub end: End,
    /// Solutions found (exact when `end == Exhausted`).
    pub solutions: u64,
    /// The first solution, verified.
    pub solution: Option<Board>,
    /// Work counts; after [`Strategy::run_timed`] only `nodes` is filled.
    pub counts: Counts,
    pub elapsed: Duration,
}

impl Run {
    fn from_report<C>(
        strategy: Strategy,
        puzzle: &Board,
        report: Report<C>,
        mut counts: Counts,
        elapsed: Duration,
    ) -> Result<Run, WrongSolution> {
        if let Some(sol) = &report.first {
            verify(strategy, puzzle, sol)?;
        }
        let outcome = match (report.solutions, report.end) {
            (s, _) if s > 0 => Outcome::Solved,
            (_, End::BudgetExceeded) => Outcome::BudgetExceeded,
            _ => Outcome::NoSolution,
        };
        counts.nodes = report.nodes;
        Ok(Run {
            outcome,
            end: report.end,
            solutions: report.solutions,
            solution: report.first,
            counts,
            elapsed,
        })
    }
}

/// A strategy returned a grid that is not a solution: a bug in the lab,
/// reported loudly, never passed on.
#[derive(Debug, thiserror::Error)]
#[error("BUG: strategy {strategy} returned a wrong solution for {puzzle:?}: {reason}")]
pub struct WrongSolution {
    pub strategy: Strategy,
    pub puzzle: Board,
    pub reason: VerifyError,
}

/// Checks a strategy's answer against the puzzle's givens and the rules.
pub fn verify(strategy: Strategy, puzzle: &Board, solution: &Board) -> Result<(), WrongSolution> {
    puzzle
        .check_solution(solution)
        .map_err(|reason| WrongSolution {
            strategy,
            puzzle: puzzle.clone(),
            reason,
        })
}
