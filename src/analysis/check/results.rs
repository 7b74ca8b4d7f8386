//! What the checks found: the checks and their rules ([`Check`]), one
//! check's runs and failures ([`CheckResult`]), a strategy's whole report
//! ([`Checked`], printed one line per check) and the error that carries a
//! failed one ([`Failed`]).

use std::fmt;

use crate::base::strategy::Strategy;

/// The checks, in the order they run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    Fixtures,
    Answers,
    Counts,
    SameRuns,
    Budget,
    NaiveTree,
    Sizes,
    Allocation,
}

impl Check {
    pub const ALL: [Check; 8] = [
        Check::Fixtures,
        Check::Answers,
        Check::Counts,
        Check::SameRuns,
        Check::Budget,
        Check::NaiveTree,
        Check::Sizes,
        Check::Allocation,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Check::Fixtures => "fixtures",
            Check::Answers => "answers",
            Check::Counts => "counts",
            Check::SameRuns => "same-runs",
            Check::Budget => "budget",
            Check::NaiveTree => "naive-tree",
            Check::Sizes => "sizes",
            Check::Allocation => "allocation",
        }
    }

    /// The rule the check holds a rung to.
    pub fn rule(self) -> &'static str {
        match self {
            Check::Fixtures => {
                "every fixture of a supported size: the right outcome within the fixture budget, \
                 the unique solution, the exact solution count; for ROW_MAJOR rungs the \
                 lexicographically smallest solution first"
            }
            Check::Answers => {
                "puzzles cut from a complete grid: solved (a verified completion) or over budget, \
                 never 'no solution', never more nodes than the budget; consistent counters \
                 (backtracks at most placements, and guesses too where every guess places a \
                 digit, dead ends fewer than nodes, every blank of a solved puzzle placed or \
                 forced)"
            }
            Check::Counts => {
                "solution counts (up to 20) equal another rung's, on puzzles with none, one and \
                 many solutions"
            }
            Check::SameRuns => {
                "uncounted, counted (twice) and traced runs visit the same nodes and end alike; \
                 the guesses an uncounted run reports (Solver::guesses) equal the counter's \
                 (for rungs with TIMED_GUESSES); \
                 the tracer's counts equal the counter's"
            }
            Check::Budget => {
                "with a budget of exactly the nodes a solve needs it solves; one node fewer and \
                 it reports over budget, after exactly that many nodes, without a solution"
            }
            Check::NaiveTree => {
                "ROW_MAJOR rungs: the same nodes, placements, backtracks, guesses, dead ends, end \
                 and first solution as naive"
            }
            Check::Sizes => {
                "every size the rung supports: near-complete puzzles solved within the budget"
            }
            Check::Allocation => {
                "a Solver allocates nothing per puzzle after its first (needs CountingAllocator)"
            }
        }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Failures kept word for word per check; the rest are only counted.
const SHOWN: usize = 5;

/// What one check did: how many runs it made, what it left out, what failed.
#[derive(Clone, Debug)]
pub struct CheckResult {
    pub check: Check,
    /// Searches run (and answers verified) by this check.
    pub runs: u64,
    /// What was not checked and why, or what the sample held.
    pub notes: Vec<String>,
    /// The first failures, each naming the puzzle.
    pub failures: Vec<String>,
    /// How many failures there were in all.
    pub failed: u64,
}

impl CheckResult {
    pub(super) fn new(check: Check) -> CheckResult {
        CheckResult {
            check,
            runs: 0,
            notes: Vec::new(),
            failures: Vec::new(),
            failed: 0,
        }
    }

    pub(super) fn fail(&mut self, message: String) {
        self.failed += 1;
        if self.failures.len() < SHOWN {
            self.failures.push(message);
        }
    }

    pub fn passed(&self) -> bool {
        self.failed == 0
    }
}

/// Every check's result for one strategy: what [`Checks::run`](super::Checks::run) returns,
/// as `Ok` when all passed and inside [`Failed`] otherwise.
#[derive(Clone, Debug)]
pub struct Checked {
    pub strategy: Strategy,
    pub results: Vec<CheckResult>,
}

impl Checked {
    /// The result of one check.
    pub fn get(&self, check: Check) -> Option<&CheckResult> {
        self.results.iter().find(|r| r.check == check)
    }

    /// Searches run by all checks.
    pub fn ran(&self) -> u64 {
        self.results.iter().map(|r| r.runs).sum()
    }

    pub fn passed(&self) -> bool {
        self.results.iter().all(CheckResult::passed)
    }
}

impl fmt::Display for Checked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let failed = self.results.iter().filter(|r| !r.passed()).count();
        writeln!(
            f,
            "{}: {} of {} checks passed, {} runs",
            self.strategy,
            self.results.len() - failed,
            self.results.len(),
            self.ran()
        )?;
        for r in &self.results {
            let verdict = if r.passed() { "ok" } else { "FAILED" };
            writeln!(
                f,
                "  {:<11} {:<6} {:>6} runs",
                r.check.name(),
                verdict,
                r.runs
            )?;
            for note in &r.notes {
                writeln!(f, "      note: {note}")?;
            }
            if !r.passed() {
                writeln!(f, "      rule: {}", r.check.rule())?;
                for failure in &r.failures {
                    writeln!(f, "      - {failure}")?;
                }
                if r.failed > r.failures.len() as u64 {
                    writeln!(
                        f,
                        "      ... and {} more",
                        r.failed - r.failures.len() as u64
                    )?;
                }
            }
        }
        Ok(())
    }
}

/// A rung failed at least one check. Its `Debug` is the readable report,
/// so `check::rung::<R>().unwrap()` in a test prints every failure.
#[derive(Clone)]
pub struct Failed(pub Checked);

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Debug for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.0)
    }
}

impl std::error::Error for Failed {}
