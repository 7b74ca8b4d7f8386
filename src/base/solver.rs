//! A reusable solver handle: one strategy, one board size, every buffer made
//! once. The lab's measuring runs and the generator go through it, and so can
//! any program that solves many puzzles (the tdoku benchmark kit calls
//! [`Solver::count`]): after [`Solver::new`], solving a puzzle allocates
//! nothing.
//!
//! ```
//! use sudoku_lab::{BoxSize, Solver, Strategy};
//!
//! let mut solver = Solver::new(Strategy::Fast, BoxSize::NINE).unwrap();
//! let puzzle: Vec<u8> = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
//!     .bytes()
//!     .map(|b| if b == b'.' { 0 } else { b - b'0' })
//!     .collect();
//! let mut solution = [0u8; 81];
//! assert_eq!(solver.count(&puzzle, 2, &mut solution), 1); // unique
//! assert_eq!(&solution[..9], &[5, 3, 4, 6, 7, 8, 9, 1, 2]);
//! ```

use crate::base::board::{Board, BoardError, BoxSize, check_values};
use crate::base::counters::NoCount;
use crate::base::search::{Ctx, Limits, Report, Tally};
use crate::base::strategy::rung::engine::Engine;
use crate::base::strategy::{LabCounter, Strategy, WrongSolution, verify_cells};

/// One strategy's search for one board size, with its working memory.
pub struct Solver {
    strategy: Strategy,
    size: BoxSize,
    engine: Box<dyn Engine>,
    /// The puzzle of the last [`Solver::count`], refilled in place.
    board: Board,
    /// The first solution of the last search (valid when `solved`).
    first: Vec<u8>,
    solved: bool,
    /// Guesses of the last search, in the counter's unit and in tdoku's
    /// ([`Solver::counted_guesses`], [`Solver::guesses`]), when known.
    guesses: Option<(u64, u64)>,
}

/// A strategy asked to solve a board size it does not handle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("strategy {strategy} does not support {size} boards")]
pub struct Unsupported {
    pub strategy: Strategy,
    pub size: BoxSize,
}

impl Solver {
    /// A handle for `strategy` on boards of `size`: allocates the strategy's
    /// working memory, once.
    pub fn new(strategy: Strategy, size: BoxSize) -> Result<Solver, Unsupported> {
        let info = strategy.info();
        if !info.supports(size) {
            return Err(Unsupported { strategy, size });
        }
        Ok(Solver {
            strategy,
            size,
            engine: info.engine(size),
            board: Board::empty(size),
            first: vec![0; size.cells()],
            solved: false,
            guesses: None,
        })
    }

    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    pub fn size(&self) -> BoxSize {
        self.size
    }

    /// Counts the solutions of `cells` (row-major, `0` = blank, `1..=N`
    /// digits) up to `limit` (at least 1), with no node budget, and writes
    /// the first solution found into `solution`. Givens that break the rules
    /// have 0 solutions. Counters are off: this is the timed path.
    ///
    /// The answer is not verified here (the lab verifies outside its timed
    /// loops; see [`Strategy::solve`] for a verified run).
    ///
    /// Panics if `cells` or `solution` does not hold one value per cell, or
    /// a value is larger than N; [`Solver::try_count`] returns those as errors.
    pub fn count(&mut self, cells: &[u8], limit: u64, solution: &mut [u8]) -> u64 {
        match self.try_count(cells, limit, solution) {
            Ok(n) => n,
            Err(e) => panic!("Solver::count: {e}"),
        }
    }

    /// [`Solver::count`], with malformed input as an error instead of a panic.
    pub fn try_count(
        &mut self,
        cells: &[u8],
        limit: u64,
        solution: &mut [u8],
    ) -> Result<u64, BoardError> {
        if solution.len() != self.size.cells() {
            return Err(BoardError::WrongLength {
                expected: self.size.cells(),
                found: solution.len(),
            });
        }
        // A rung that checks the givens itself takes the 81 values as they
        // are (in range), with no board and no separate rule check.
        if let Ok(values) = <&[u8; 81]>::try_from(cells)
            && self.size == BoxSize::NINE
        {
            check_values(self.size, values)?;
            let mut ctx = Ctx::new(Limits::count(limit, None), NoCount, &mut self.first);
            if let Some(flow) = self.engine.cells(values, &mut ctx) {
                let tally = ctx.finish(flow);
                return Ok(self.finish_count(tally, solution));
            }
        }
        match self.board.refill(cells) {
            Ok(()) => {}
            Err(BoardError::Conflict(_)) => {
                self.solved = false;
                self.guesses = Some((0, 0));
                return Ok(0);
            }
            Err(e) => return Err(e),
        }
        let mut ctx = Ctx::new(Limits::count(limit, None), NoCount, &mut self.first);
        let flow = NoCount::dispatch(&mut *self.engine, &self.board, &mut ctx);
        let tally = ctx.finish(flow);
        Ok(self.finish_count(tally, solution))
    }

    /// What [`Solver::try_count`] keeps of a search, and its answer.
    fn finish_count(&mut self, tally: Tally<NoCount>, solution: &mut [u8]) -> u64 {
        self.solved = tally.solutions > 0;
        self.guesses =
            (self.strategy.info().timed_guesses).then_some((tally.guesses, tally.binary_guesses));
        if self.solved {
            solution.copy_from_slice(&self.first);
        }
        tally.solutions
    }

    /// The guesses of the last search ([`Solver::count`], [`Solver::search`]
    /// or [`Solver::run`]) in tdoku's unit, the figure a benchmark harness
    /// reads after each `count` (the tdoku-bench kit, for its `%no_guess`
    /// and `guesses/puzzle` columns). tdoku branches one way against the
    /// rest: one guess per branch point, the rest entered as a deduction.
    /// So a branch point of the lab's whose `n` ways were all entered is
    /// `n - 1` guesses here (a bivalue cell: 1), and one cut short by the
    /// solution limit after `k < n` ways is `k`: [`Solver::counted_guesses`]
    /// less the branch points whose last way was entered. 0 exactly when
    /// `counted_guesses` is 0. Known, and `None`, as `counted_guesses` is.
    pub fn guesses(&self) -> Option<u64> {
        self.guesses.map(|(_, binary)| binary)
    }

    /// The guesses of the last search in the counter's unit: every way
    /// entered at a branch point (placements made where more than one
    /// candidate remained; for `fast-triads`, each way of a digit through a
    /// chute), the `guesses` counter of a counted run. Known on the timed
    /// path too (counters off: each guess costs one add) for every rung
    /// whose [`crate::Rung::TIMED_GUESSES`] is true (`None` for `naive`,
    /// `blank-list` and `used-tables` after an uncounted search, and before
    /// the first search). `Some(0)` after givens that break the rules, and
    /// for a puzzle solved by inference alone.
    pub fn counted_guesses(&self) -> Option<u64> {
        self.guesses.map(|(counted, _)| counted)
    }

    /// Searches `puzzle` (of this solver's size) within `limits`, with any
    /// of the lab's counters; the first solution, not yet verified, is then
    /// [`Solver::solution`]. Allocates nothing.
    pub fn search<C: LabCounter>(
        &mut self,
        puzzle: &Board,
        limits: Limits,
        counter: C,
    ) -> Tally<C> {
        assert_eq!(
            puzzle.size(),
            self.size,
            "a {} solver was given a {} board",
            self.size,
            puzzle.size()
        );
        let mut ctx = Ctx::new(limits, counter, &mut self.first);
        let flow = C::dispatch(&mut *self.engine, puzzle, &mut ctx);
        let tally = ctx.finish(flow);
        self.solved = tally.solutions > 0;
        self.guesses = (C::ENABLED || self.strategy.info().timed_guesses)
            .then_some((tally.guesses, tally.binary_guesses));
        tally
    }

    /// The first solution of the last search, if it found one (not verified).
    pub fn solution(&self) -> Option<&[u8]> {
        self.solved.then_some(&self.first[..])
    }

    /// Verifies the last search's solution, if any, against `puzzle` (its
    /// givens and the rules). A wrong answer is a bug in the strategy.
    pub fn check(&self, puzzle: &Board) -> Result<(), WrongSolution> {
        match self.solution() {
            Some(cells) => verify_cells(self.strategy, puzzle, cells),
            None => Ok(()),
        }
    }

    /// [`Solver::search`], with the solution packed as a [`Board`] (one
    /// allocation when there is a solution).
    pub fn run<C: LabCounter>(&mut self, puzzle: &Board, limits: Limits, counter: C) -> Report<C> {
        let tally = self.search(puzzle, limits, counter);
        Report {
            end: tally.end,
            solutions: tally.solutions,
            nodes: tally.nodes,
            first: self
                .solution()
                .map(|cells| Board::from_raw_unchecked(self.size, cells)),
            counter: tally.counter,
        }
    }
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("strategy", &self.strategy)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

/// Runs `f` with this thread's [`Solver`] for `strategy` and `size`, made on
/// first use and kept for the thread's life: the way code that solves puzzle
/// after puzzle (measuring, generating, [`Strategy::run`]) reuses solvers.
pub(crate) fn with_solver<R>(
    strategy: Strategy,
    size: BoxSize,
    f: impl FnOnce(&mut Solver) -> R,
) -> Result<R, Unsupported> {
    thread_local! {
        static SOLVERS: std::cell::RefCell<Vec<Solver>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    SOLVERS.with(|cell| {
        // A nested call (a solver used while this thread's list is lent out)
        // gets a solver of its own.
        let Ok(mut solvers) = cell.try_borrow_mut() else {
            return Ok(f(&mut Solver::new(strategy, size)?));
        };
        let i = match solvers
            .iter()
            .position(|s| s.size == size && s.strategy == strategy)
        {
            Some(i) => i,
            None => {
                solvers.push(Solver::new(strategy, size)?);
                solvers.len() - 1
            }
        };
        Ok(f(&mut solvers[i]))
    })
}

impl Strategy {
    /// Runs the search with any of the lab's counters. This is the one code
    /// path for timed (`NoCount`), counted (`Counts`) and traced runs. The
    /// solution in the report is not yet verified. Runs on this thread's
    /// reusable [`Solver`] (`with_solver`), so the only allocation per
    /// call is the solution's [`Board`]. (Defined here, beside the solver it
    /// borrows, so the strategy registry needs nothing from this module.)
    ///
    /// Panics if the strategy does not support the board's size: callers
    /// check [`Strategy::supports`] (the CLI via [`Strategy::check_size`]),
    /// so a report is never silently produced by another strategy.
    pub fn run<C: LabCounter>(self, puzzle: &Board, limits: Limits, counter: C) -> Report<C> {
        match with_solver(self, puzzle.size(), |s| s.run(puzzle, limits, counter)) {
            Ok(report) => report,
            Err(e) => panic!("{e}"),
        }
    }
}
