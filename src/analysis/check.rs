//! The checks every rung must pass, built in or written outside the crate:
//! the lab's fixture table and the invariants its measurements rely on.
//!
//! The lab trusts a rung's numbers only because of these properties: every
//! answer is a valid completion of the givens, solution counts are exact,
//! counting does not change the search, the node budget means what it says,
//! a rung that claims `naive`'s tree ([`Rung::ROW_MAJOR`]) visits exactly
//! that tree, and the search allocates nothing. The built-in rungs are held
//! to them by `tests/strategies.rs`; your rung is held to them by one call
//! in one of your tests:
//!
//! ```
//! use sudoku_lab::base::{Ctx, Flow};
//! use sudoku_lab::base::strategy::Mrv;
//! use sudoku_lab::analysis::check;
//! use sudoku_lab::{Board, BoxSize, Counter, Rung};
//!
//! /// `mrv` under another name: the smallest rung that runs.
//! struct Again;
//!
//! impl Rung for Again {
//!     const NAME: &'static str = "mrv-again";
//!     const SUMMARY: &'static str = "mrv's search, registered from outside";
//!     type Scratch = ();
//!     fn scratch(_: BoxSize) {}
//!     fn search<C: Counter>(s: &mut (), puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
//!         Mrv::search(s, puzzle, ctx)
//!     }
//! }
//!
//! let passed = check::rung::<Again>().unwrap(); // panics with every failure listed
//! assert!(passed.ran() > 500);
//! println!("{passed}"); // one line per check: runs, and what was skipped
//! ```
//!
//! What is checked ([`Check`] lists the checks and says each one's rule):
//! the [`FIXTURES`] (famous hard puzzles, the two Baekjoon samples, puzzles
//! with no, one, two and 288 solutions), then seeded random puzzles of every
//! size the rung supports — cut from random complete grids (so they have a
//! solution), cut sparse (many solutions) and spoiled by one wrong given
//! (often none) — whose solution counts are compared with another rung of
//! the ladder (`dlx`, or `propagate` when `dlx` itself is checked). The
//! allocation check needs [`CountingAllocator`] installed as the test
//! binary's global allocator; without it the check is reported as skipped.
//!
//! A panic inside a rung is caught and reported as that check's failure.
//!
//! Beside this file, in `check/`: the fixture table (`fixtures.rs`), the
//! random puzzles (`sample.rs`), the results and their report
//! (`results.rs`) and the counting allocator (`alloc.rs`).

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::base::board::{Board, BoxSize};
use crate::base::counters::{Counts, NoCount};
use crate::base::format::to_line;
use crate::base::search::{Budget, End, Limits};
use crate::base::solver::Solver;
use crate::base::strategy::{Outcome, Rung, Strategy, WrongSolution};
use crate::base::tracer::Tracer;

mod alloc;
mod fixtures;
mod results;
mod sample;

pub use alloc::{CountingAllocator, allocations};
pub use fixtures::{FIXTURES, Fixture};
pub use results::{Check, CheckResult, Checked, Failed};
use sample::Sample;
pub use sample::pattern_grid;

/// How much to check: the seed of the random puzzles, how many, and the
/// node budgets. [`Checks::default`] is what `tests/strategies.rs` holds
/// every built-in rung to (see `crate::base::defaults::CHECK_PUZZLES`).
#[derive(Clone, Copy, Debug)]
pub struct Checks {
    /// Seed of the random puzzles (ChaCha8): the same seed checks the same
    /// puzzles, on every machine.
    pub seed: u64,
    /// Random puzzles per kind (cut, sparse, spoiled) on 4×4 and 9×9 boards;
    /// a fifth as many on 16×16 and a tenth on 25×25 (at least one).
    pub puzzles: usize,
    /// Node budget of each fixture run: every rung must finish within it.
    pub fixture_budget: Budget,
    /// Node budget of each run on a random puzzle of this size. A run may
    /// exceed it (rescanning rungs on large boards do); such runs are
    /// counted as unfinished and their answers are not compared.
    pub budget: fn(BoxSize) -> Budget,
}

impl Default for Checks {
    fn default() -> Checks {
        use crate::base::defaults;
        Checks {
            seed: defaults::SEED,
            puzzles: defaults::CHECK_PUZZLES,
            fixture_budget: defaults::CHECK_FIXTURE_BUDGET,
            budget: defaults::check_budget,
        }
    }
}

/// Puts rung `R` on the ladder ([`Strategy::add`]) and runs the default
/// [`Checks`] on it. A name that cannot be added panics with the reason:
/// it is a bug in the test's program.
pub fn rung<R: Rung>() -> Result<Checked, Failed> {
    match Strategy::add::<R>() {
        Ok(s) => strategy(s),
        Err(e) => panic!("cannot add rung {:?}: {e}", R::NAME),
    }
}

/// Runs the default [`Checks`] on a strategy, built in or added.
pub fn strategy(s: Strategy) -> Result<Checked, Failed> {
    Checks::default().run(s)
}

/// The rung that counts solutions for comparison: another algorithm.
fn oracle(s: Strategy) -> Strategy {
    if s == Strategy::Dlx {
        Strategy::Propagate
    } else {
        Strategy::Dlx
    }
}

/// Budget of the oracle's counts: dlx and propagate count every sample
/// puzzle within it with room to spare.
const ORACLE_BUDGET: u64 = 5_000_000;

/// The solution limit of the count comparisons.
const COUNT_LIMIT: u64 = 20;

fn node_budget(b: Budget) -> u64 {
    b.get().unwrap_or(u64::MAX)
}

/// Which rules of the counters a run breaks, if any.
fn broken_counters(
    c: &Counts,
    outcome: Outcome,
    puzzle: &Board,
    guesses_place: bool,
) -> Option<String> {
    let mut broken = Vec::new();
    if c.backtracks > c.placements {
        broken.push("backtracks > placements");
    }
    // A rung whose guesses are not all placements ([`crate::Rung::GUESSES_PLACE`]).
    if guesses_place && c.guesses > c.placements {
        broken.push("guesses > placements");
    }
    if c.nodes == 0 || c.dead_ends >= c.nodes {
        broken.push("dead ends >= nodes");
    }
    let blanks = puzzle.cells().iter().filter(|&&v| v == 0).count() as u64;
    if outcome == Outcome::Solved && c.placements.saturating_sub(c.backtracks) + c.forced < blanks {
        broken.push("placements - backtracks + forced < blanks on a solved run");
    }
    (!broken.is_empty()).then(|| broken.join(", "))
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

impl Checks {
    /// Runs every check on `s`. `Ok` when all passed; either way the
    /// [`Checked`] says what each check ran and skipped.
    pub fn run(&self, s: Strategy) -> Result<Checked, Failed> {
        let sizes: Vec<BoxSize> = BoxSize::ALL
            .into_iter()
            .filter(|&z| s.supports(z))
            .collect();
        let samples: Vec<Sample> = sizes.iter().map(|&z| Sample::draw(z, self)).collect();
        let mut results = Vec::new();
        for check in Check::ALL {
            let mut r = CheckResult::new(check);
            let ran = catch_unwind(AssertUnwindSafe(|| {
                self.one(check, s, &samples, &mut r);
            }));
            if let Err(payload) = ran {
                r.fail(format!("panicked: {}", panic_message(&*payload)));
            }
            results.push(r);
        }
        let checked = Checked {
            strategy: s,
            results,
        };
        if checked.passed() {
            Ok(checked)
        } else {
            Err(Failed(checked))
        }
    }

    fn one(&self, check: Check, s: Strategy, samples: &[Sample], r: &mut CheckResult) {
        match check {
            Check::Fixtures => self.fixtures(s, r),
            Check::Answers => self.answers(s, samples, r),
            Check::Counts => self.counts(s, samples, r),
            Check::SameRuns => self.same_runs(s, samples, r),
            Check::Budget => self.budget_check(s, samples, r),
            Check::NaiveTree => self.naive_tree(s, samples, r),
            Check::Sizes => self.sizes(s, samples, r),
            Check::Allocation => self.allocation(s, samples, r),
        }
    }

    fn fixtures(&self, s: Strategy, r: &mut CheckResult) {
        let budget = self.fixture_budget.get();
        let mut unsupported = 0;
        for f in FIXTURES {
            let puzzle = f.board();
            if !s.supports(puzzle.size()) {
                unsupported += 1;
                continue;
            }
            let expected = if f.solutions > 0 {
                Outcome::Solved
            } else {
                Outcome::NoSolution
            };
            r.runs += 2;
            let run = match s.solve(&puzzle, budget) {
                Ok(run) => run,
                Err(e) => {
                    r.fail(format!("{}: {e}", f.name));
                    continue;
                }
            };
            if run.outcome != expected {
                r.fail(format!(
                    "{}: {} after {} nodes, expected {expected}",
                    f.name, run.outcome, run.counts.nodes
                ));
                continue;
            }
            if s.is_row_major()
                && let Some(smallest) = f.solution_board()
                && run.solution.as_ref() != Some(&smallest)
            {
                r.fail(format!(
                    "{}: first solution {}, but a ROW_MAJOR rung finds the smallest first: {}",
                    f.name,
                    run.solution.as_ref().map_or("none".into(), to_line),
                    to_line(&smallest)
                ));
            }
            if f.solutions == 1 {
                let unique = match f.solution_board() {
                    Some(b) => Some(b),
                    None => oracle(s).solve(&puzzle, None).ok().and_then(|o| o.solution),
                };
                if run.solution != unique {
                    r.fail(format!(
                        "{}: returned {} but the unique solution is {}",
                        f.name,
                        run.solution.as_ref().map_or("nothing".into(), to_line),
                        unique.as_ref().map_or("unknown".into(), to_line)
                    ));
                }
            }
            match s.count(&puzzle, 1000, budget) {
                Ok(c) if (c.end, c.solutions) == (End::Exhausted, f.solutions) => {}
                Ok(c) => r.fail(format!(
                    "{}: counted {} solutions ({:?}), expected exactly {}",
                    f.name, c.solutions, c.end, f.solutions
                )),
                Err(e) => r.fail(format!("{} (counting): {e}", f.name)),
            }
        }
        if unsupported > 0 {
            r.notes.push(format!(
                "{unsupported} fixtures are of sizes the rung does not support"
            ));
        }
    }

    fn answers(&self, s: Strategy, samples: &[Sample], r: &mut CheckResult) {
        let mut over = 0;
        for sample in samples {
            let budget = node_budget((self.budget)(sample.size));
            for puzzle in sample.solvable() {
                r.runs += 1;
                let run = match s.solve(puzzle, Some(budget)) {
                    Ok(run) => run,
                    Err(e) => {
                        r.fail(e.to_string());
                        continue;
                    }
                };
                let line = to_line(puzzle);
                if run.counts.nodes > budget {
                    r.fail(format!(
                        "{} nodes, over the budget of {budget}, on {line}",
                        run.counts.nodes
                    ));
                }
                if let Some(broken) =
                    broken_counters(&run.counts, run.outcome, puzzle, s.info().guesses_place)
                {
                    r.fail(format!("{broken} ({:?}) on {line}", run.counts));
                }
                match run.outcome {
                    Outcome::Solved if (run.end, run.solutions) == (End::SolutionLimit, 1) => {}
                    Outcome::Solved => r.fail(format!(
                        "solved but ended {:?} with {} solutions (asked for 1) on {line}",
                        run.end, run.solutions
                    )),
                    Outcome::BudgetExceeded if run.solution.is_none() => over += 1,
                    other => r.fail(format!(
                        "{other} on {line}, which has a solution (cut from a complete grid)"
                    )),
                }
            }
        }
        if over > 0 {
            r.notes.push(format!(
                "{over} of {} runs over budget (not compared)",
                r.runs
            ));
        }
    }

    fn counts(&self, s: Strategy, samples: &[Sample], r: &mut CheckResult) {
        let oracle = oracle(s);
        let (mut none, mut one, mut many, mut unfinished) = (0, 0, 0, 0);
        for sample in samples {
            let budget = node_budget((self.budget)(sample.size));
            for puzzle in sample.spoiled.iter().chain(sample.solvable()) {
                let theirs = match oracle.count(puzzle, COUNT_LIMIT, Some(ORACLE_BUDGET)) {
                    Ok(run) if run.end != End::BudgetExceeded => run,
                    _ => {
                        unfinished += 1;
                        continue;
                    }
                };
                r.runs += 1;
                let ours = match s.count(puzzle, COUNT_LIMIT, Some(budget)) {
                    Ok(run) => run,
                    Err(e) => {
                        r.fail(e.to_string());
                        continue;
                    }
                };
                if ours.end == End::BudgetExceeded {
                    if ours.solutions > theirs.solutions {
                        r.fail(format!(
                            "found {} solutions before running out of budget, {oracle} counts {} in all, on {}",
                            ours.solutions,
                            theirs.solutions,
                            to_line(puzzle)
                        ));
                    }
                    unfinished += 1;
                    continue;
                }
                match theirs.solutions {
                    0 => none += 1,
                    1 => one += 1,
                    _ => many += 1,
                }
                if (ours.end, ours.solutions) != (theirs.end, theirs.solutions) {
                    r.fail(format!(
                        "counted {} ({:?}) where {oracle} counts {} ({:?}), limit {COUNT_LIMIT}, on {}",
                        ours.solutions,
                        ours.end,
                        theirs.solutions,
                        theirs.end,
                        to_line(puzzle)
                    ));
                }
            }
        }
        r.notes.push(format!(
            "against {oracle}: {none} puzzles with no solution, {one} with one, {many} with several{}",
            if unfinished > 0 {
                format!("; {unfinished} over budget (not compared)")
            } else {
                String::new()
            }
        ));
    }

    fn same_runs(&self, s: Strategy, samples: &[Sample], r: &mut CheckResult) {
        for sample in samples {
            let budget = node_budget((self.budget)(sample.size));
            let limits = Limits::count(3, Some(budget));
            for puzzle in sample.some() {
                r.runs += 5;
                let timed = s.run(puzzle, limits, NoCount);
                let counted = s.run(puzzle, limits, Counts::default());
                let again = s.run(puzzle, limits, Counts::default());
                let traced = s.run(puzzle, limits, Tracer::new(0));
                let line = to_line(puzzle);
                let key = |nodes, end, solutions, first: &Option<Board>| {
                    (nodes, end, solutions, first.as_ref().map(to_line))
                };
                let t = key(timed.nodes, timed.end, timed.solutions, &timed.first);
                let c = key(
                    counted.nodes,
                    counted.end,
                    counted.solutions,
                    &counted.first,
                );
                let tr = key(traced.nodes, traced.end, traced.solutions, &traced.first);
                if t != c || t != tr {
                    r.fail(format!(
                        "uncounted {t:?}, counted {c:?}, traced {tr:?} on {line}"
                    ));
                    continue;
                }
                // The guess count every counter keeps (Ctx::guess), read from
                // an uncounted run as a benchmark reads it.
                let mut solver = match crate::base::solver::Solver::new(s, puzzle.size()) {
                    Ok(solver) => solver,
                    Err(e) => {
                        r.fail(format!("{e} on {line}"));
                        continue;
                    }
                };
                let plain = solver.search(puzzle, limits, NoCount);
                let timed = s.info().timed_guesses;
                let expected = timed.then_some(counted.counter.guesses);
                if (timed && plain.guesses != counted.counter.guesses)
                    || solver.counted_guesses() != expected
                {
                    r.fail(format!(
                        "an uncounted run reports {} guesses (the solver handle {:?}), the \
                         counter {} (call ctx.guess(), not ctx.counter.guess()) on {line}",
                        plain.guesses,
                        solver.counted_guesses(),
                        counted.counter.guesses
                    ));
                }
                if counted.counter != again.counter {
                    r.fail(format!(
                        "two counted runs differ: {:?} then {:?} on {line}",
                        counted.counter, again.counter
                    ));
                }
                let mut from_tracer = traced.counter.counts();
                from_tracer.nodes = counted.counter.nodes;
                if from_tracer != counted.counter {
                    r.fail(format!(
                        "the tracer counted {from_tracer:?}, the counter {:?} on {line}",
                        counted.counter
                    ));
                }
                let per_depth: u64 = traced.counter.histogram().iter().sum();
                if per_depth != traced.nodes {
                    r.fail(format!(
                        "the tracer saw {per_depth} nodes, the search entered {} on {line}",
                        traced.nodes
                    ));
                }
            }
        }
    }

    fn budget_check(&self, s: Strategy, samples: &[Sample], r: &mut CheckResult) {
        for sample in samples {
            let budget = node_budget((self.budget)(sample.size));
            for puzzle in sample.solvable() {
                r.runs += 1;
                let full = s.run(puzzle, Limits::solve(Some(budget)), NoCount);
                if full.solutions == 0 {
                    continue; // over budget: nothing to bisect
                }
                let line = to_line(puzzle);
                let needed = full.nodes;
                r.runs += 1;
                let exact = s.run(puzzle, Limits::solve(Some(needed)), NoCount);
                if (exact.end, exact.solutions, exact.nodes) != (End::SolutionLimit, 1, needed) {
                    r.fail(format!(
                        "solved in {needed} nodes, but with a budget of {needed}: {:?}, {} solutions, {} nodes on {line}",
                        exact.end, exact.solutions, exact.nodes
                    ));
                }
                if needed > 1 {
                    r.runs += 1;
                    let short = s.run(puzzle, Limits::solve(Some(needed - 1)), NoCount);
                    if (
                        short.end,
                        short.solutions,
                        short.nodes,
                        short.first.is_some(),
                    ) != (End::BudgetExceeded, 0, needed - 1, false)
                    {
                        r.fail(format!(
                            "solved in {needed} nodes, but with a budget of {}: {:?}, {} solutions, {} nodes on {line}",
                            needed - 1,
                            short.end,
                            short.solutions,
                            short.nodes
                        ));
                    }
                }
            }
        }
    }

    fn naive_tree(&self, s: Strategy, samples: &[Sample], r: &mut CheckResult) {
        if !s.is_row_major() {
            r.notes.push("not ROW_MAJOR: its own tree".into());
            return;
        }
        if s == Strategy::Naive {
            r.notes.push("naive is the reference tree".into());
            return;
        }
        let tree = |c: &Counts| (c.nodes, c.placements, c.backtracks, c.guesses, c.dead_ends);
        for sample in samples {
            let budget = node_budget((self.budget)(sample.size));
            for puzzle in sample.solvable().chain(&sample.spoiled) {
                r.runs += 1;
                let (ours, naive) = match (
                    s.solve(puzzle, Some(budget)),
                    Strategy::Naive.solve(puzzle, Some(budget)),
                ) {
                    (Ok(a), Ok(b)) => (a, b),
                    (Err(e), _) | (_, Err(e)) => {
                        r.fail(e.to_string());
                        continue;
                    }
                };
                if (tree(&ours.counts), ours.end, &ours.solution)
                    != (tree(&naive.counts), naive.end, &naive.solution)
                {
                    r.fail(format!(
                        "(nodes, placements, backtracks, guesses, dead ends) {:?}, {:?} where naive has {:?}, {:?} on {}",
                        tree(&ours.counts),
                        ours.end,
                        tree(&naive.counts),
                        naive.end,
                        to_line(puzzle)
                    ));
                }
            }
        }
    }

    fn sizes(&self, s: Strategy, samples: &[Sample], r: &mut CheckResult) {
        if samples.is_empty() {
            r.fail("supports no board size at all".into());
            return;
        }
        r.notes.push(format!(
            "supports {}",
            samples
                .iter()
                .map(|x| x.size.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        for sample in samples {
            let budget = node_budget((self.budget)(sample.size));
            for puzzle in &sample.near_complete {
                r.runs += 1;
                match s.solve(puzzle, Some(budget)) {
                    Ok(run) if run.outcome == Outcome::Solved => {}
                    Ok(run) => r.fail(format!(
                        "{} on a {} board with one blank per row: {}",
                        run.outcome,
                        sample.size,
                        to_line(puzzle)
                    )),
                    Err(e) => r.fail(e.to_string()),
                }
            }
        }
    }

    fn allocation(&self, s: Strategy, samples: &[Sample], r: &mut CheckResult) {
        if !CountingAllocator::installed() {
            r.notes.push(
                "skipped: install check::CountingAllocator as the #[global_allocator] of the test binary to run it"
                    .into(),
            );
            return;
        }
        for sample in samples {
            let size = sample.size;
            let limits = Limits::count(2, Some(node_budget((self.budget)(size))));
            let mut solver = match Solver::new(s, size) {
                Ok(solver) => solver,
                Err(e) => return r.fail(e.to_string()),
            };
            let mut solution = vec![0u8; size.cells()];
            let mut conflicting = vec![0u8; size.cells()];
            conflicting[0] = 1;
            conflicting[1] = 1;
            let boards: Vec<&Board> = sample.some().collect();
            let mut round =
                |solver: &mut Solver, r: &mut CheckResult| -> Result<(), WrongSolution> {
                    for b in &sample.near_complete {
                        r.runs += 1;
                        let _ = solver.count(b.cells(), 2, &mut solution);
                    }
                    r.runs += 1;
                    let _ = solver.count(&conflicting, 2, &mut solution);
                    for b in &boards {
                        r.runs += 2;
                        solver.search(b, limits, NoCount);
                        solver.check(b)?;
                        solver.search(b, limits, Counts::default());
                        solver.check(b)?;
                    }
                    Ok(())
                };
            // Warm-up: buffers reach their size on first use.
            if let Err(e) = round(&mut solver, r) {
                return r.fail(e.to_string());
            }
            let before = allocations();
            let again = round(&mut solver, r);
            let made = allocations() - before;
            if let Err(e) = again {
                return r.fail(e.to_string());
            }
            if made > 0 {
                r.fail(format!(
                    "{made} allocations while searching {} {size} puzzles a second time",
                    boards.len() + sample.near_complete.len() + 1
                ));
            }
        }
    }
}
