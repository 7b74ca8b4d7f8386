//! What one measurement is: the [`Method`] it follows, the counted run
//! (step 1 of [`super::timing`]: exact counters, verified answer), and the
//! [`Measurement`] or [`Bug`] it ends in. The passes and the timer build on
//! these; `timing.rs` is the face that runs them.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::base::board::Board;
use crate::base::counters::Counts;
use crate::base::search::{End, Limits};
use crate::base::solver::{Solver, with_solver};
use crate::base::strategy::{Outcome, Strategy, WrongSolution};

/// How long to time one puzzle × strategy, and how (defaults:
/// [`Method::DEFAULT`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Method {
    /// Keep timing a task until its kept runs add up to this much time...
    pub min_time: Duration,
    /// ...and it has at least this many kept runs (one per pass; fewer only
    /// for a task whose one run lasts `LONG_RUN`).
    pub min_samples: u32,
    /// Seed of the passes' shuffles (and of `permute`'s symmetries): the same
    /// seed runs the tasks in the same order.
    pub seed: u64,
    /// Time a seeded random symmetry of each puzzle in each pass instead of
    /// the puzzle itself (tdoku's harness `-r 1`): digits relabelled,
    /// bands, stacks, rows and columns permuted, transposed or not.
    pub permute: bool,
    /// ...or, once it has `min_samples`, until the 95% interval of its
    /// median lies within ± this share of the median (0: off, `min_time`
    /// alone decides). A task whose median is known that well gains nothing
    /// from more runs: `compare`'s rows stop there, `speed` times a set for
    /// its whole time.
    pub tight: f64,
}

impl Method {
    /// The lab's timing method (values in [`crate::base::defaults`]).
    pub const DEFAULT: Method = Method {
        min_time: crate::base::defaults::TIMING_MIN_TIME,
        min_samples: crate::base::defaults::TIMING_MIN_SAMPLES,
        seed: crate::base::defaults::SEED,
        permute: false,
        tight: crate::base::defaults::TIMING_TIGHT,
    };

    /// This method with another `min_time`.
    pub fn with_min_time(self, min_time: Duration) -> Method {
        Method { min_time, ..self }
    }
}

/// Time per run of one puzzle × strategy, in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Timed runs in all (the check run included).
    pub runs: u64,
    /// Samples the figures are taken over (one run each).
    pub samples: u32,
    /// Per-thread CPU time: median over samples. The lab's time.
    pub cpu_ns: f64,
    /// CPU time of the fastest sample.
    pub cpu_min_ns: f64,
    /// CPU time of the slowest sample.
    pub cpu_max_ns: f64,
    /// Wall-clock time: median over samples.
    pub wall_ns: f64,
    /// Samples (or check runs) thrown away and taken again because the core
    /// ran slow while they were taken (see `src/measure/pace.rs`).
    #[serde(default)]
    pub retaken: u32,
    /// Samples kept although the core ran slow while they were taken (the
    /// retakes were used up, or the pace did not come back in time): where
    /// they are many, the time reads high.
    #[serde(default)]
    pub slow: u32,
    /// The core's pace while the kept samples were taken: the median of the
    /// reference's reading after each ÷ its best on this machine (1.0 = full
    /// pace; see `src/measure/pace.rs`).
    #[serde(default = "full_pace")]
    pub pace: f64,
}

fn full_pace() -> f64 {
    1.0
}

impl Timing {
    /// The time of one run: the median per-thread CPU time.
    pub fn ns(&self) -> f64 {
        self.cpu_ns
    }
}

/// One strategy on one puzzle: what the counted run found and counted, and
/// how long the uncounted runs took.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    pub strategy: Strategy,
    pub outcome: Outcome,
    pub end: End,
    /// Solutions found (exact when `end == Exhausted`).
    pub solutions: u64,
    /// Every counter, from the counted run.
    pub counts: Counts,
    /// `None` when the strategy does not run this size, or was not timed.
    pub timing: Option<Timing>,
    /// The time of each kept sample (per-thread CPU ns, in the order taken):
    /// what an interval over samples is computed from.
    pub samples: Vec<f64>,
}

/// A measurement that found a bug in the lab: a wrong answer, or counted and
/// uncounted runs of the same code that disagree. Never passed on as a figure.
#[derive(Debug, thiserror::Error)]
pub enum Bug {
    #[error(transparent)]
    WrongSolution(#[from] WrongSolution),
    #[error(
        "BUG: strategy {strategy} visits {timed} nodes uncounted but {counted} counted on {puzzle:?}"
    )]
    Disagree {
        strategy: Strategy,
        puzzle: Board,
        counted: u64,
        timed: u64,
    },
    #[error(
        "BUG: strategy {strategy} found a solution in {found} of {runs} timed runs of {puzzle:?}"
    )]
    Unstable {
        strategy: Strategy,
        puzzle: Board,
        found: u64,
        runs: u64,
    },
}

/// The counted run alone (no time): counters, outcome, verified answer.
/// `Unsupported` when the strategy does not run the puzzle's size.
pub fn count(strategy: Strategy, puzzle: &Board, limits: Limits) -> Result<Measurement, Bug> {
    with_solver(strategy, puzzle.size(), |solver| {
        counted(solver, puzzle, limits)
    })
    .unwrap_or_else(|_| Ok(unsupported(strategy)))
}

pub(super) fn unsupported(strategy: Strategy) -> Measurement {
    Measurement {
        strategy,
        outcome: Outcome::Unsupported,
        end: End::Exhausted,
        solutions: 0,
        counts: Counts::default(),
        timing: None,
        samples: Vec::new(),
    }
}

/// Step 1: the counted, verified run.
pub(super) fn counted(
    solver: &mut Solver,
    puzzle: &Board,
    limits: Limits,
) -> Result<Measurement, Bug> {
    let tally = solver.search(puzzle, limits, Counts::default());
    solver.check(puzzle)?;
    let mut counts = tally.counter;
    counts.nodes = tally.nodes;
    Ok(Measurement {
        strategy: solver.strategy(),
        outcome: Outcome::of(tally.solutions, tally.end),
        end: tally.end,
        solutions: tally.solutions,
        counts,
        timing: None,
        samples: Vec::new(),
    })
}
