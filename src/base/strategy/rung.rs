//! What a rung is: the one trait every solver of the ladder implements, in
//! this crate or outside it.
//!
//! A rung says who it is (name, one-line summary, the sizes it handles,
//! whether it keeps `naive`'s tree) and how it searches: one function,
//! generic over a [`Counter`], so the counted and the timed runs are the same
//! code and counting compiles away when it is off. Working memory that a
//! search would otherwise allocate per puzzle lives in the rung's `Scratch`,
//! made once per [`crate::Solver`] and reused for every puzzle.
//!
//! The lab runs a rung through [`RungInfo`], a table of function pointers
//! built at compile time from the trait ([`RungInfo::of`]); the registry in
//! `strategy/mod.rs` is one line per built-in rung, and
//! [`crate::Strategy::add`] puts a rung written outside the crate beside them.
//!
//! [`Rung`]'s documentation has a complete rung, and the contract its
//! search keeps; [`crate::analysis::check`] holds any rung to that contract, and
//! `examples/lcv.rs` is a worked example run through the whole lab.

use crate::base::board::{Board, BoxSize};
use crate::base::counters::{Counter, Counts, NoCount};
use crate::base::probe::Probe;
use crate::base::search::{Ctx, Flow};
use crate::base::tracer::Tracer;

/// A solver of the ladder. Implement it for a unit struct, then register the
/// type: built-in rungs with one line in `strategy/mod.rs`, rungs from
/// outside the crate with [`crate::Strategy::add`] (or run the whole command
/// line with it through [`crate::main_with`]).
///
/// # The contract of `search`
///
/// The lab's numbers are only as good as these rules, which
/// [`crate::analysis::check::rung`] checks on any rung:
///
/// * call [`Ctx::enter`] on entry to every node, the root included, and
///   propagate its `?`: it counts the node and stops the search when the
///   budget is spent (a rung that ignores it cannot be stopped);
/// * make every recursive call through [`Ctx::descend`]
///   (`ctx.descend(|ctx| self.dfs(ctx))?`): for the lab's counters it is
///   the call itself, and it lets the size estimator ([`crate::analysis::estimate`])
///   follow one random path through the rung's own search (a rung that
///   recurses without it still runs everywhere else, but cannot be
///   estimated);
/// * report each branching node's options with [`Counter::branch`] (or
///   [`Counter::choose`]) before its first child, one child per option:
///   the estimator reads how many children a node has there;
/// * hand every complete grid to [`Ctx::solution`] and propagate its `?`
///   (the lab verifies the first one; the solution limit stops the search);
/// * report the work to `ctx.counter` ([`Counter`]: placements, their
///   backtracks, dead ends, forced cells, probes), and do work that only
///   counting needs under `if C::ENABLED`, so timed runs skip it; report
///   each guess to [`Ctx::guess`], which counts it whatever the counter (so
///   [`crate::Solver::guesses`] is true on the timed path) and passes it on;
/// * allocate nothing while searching: buffers live in [`Rung::Scratch`]
///   (made once per [`crate::Solver`]) or on the stack
///   ([`crate::base::board::MAX_CELLS`], [`crate::base::board::MAX_SIDE`]);
/// * be deterministic. The puzzle is consistent (no two equal givens share
///   a unit) and of a size [`Rung::supports`] accepts.
///
/// # Example
///
/// Row-major backtracking that tries digits from the largest down, put on
/// the ladder from outside the crate and run through the lab's verified
/// path:
///
/// ```
/// use sudoku_lab::base::Geometry;
/// use sudoku_lab::base::{Ctx, Flow};
/// use sudoku_lab::{Board, BoxSize, Counter, Outcome, Rung, Strategy};
///
/// struct Downward;
///
/// impl Rung for Downward {
///     const NAME: &'static str = "downward";
///     const SUMMARY: &'static str = "row-major search, digits tried from N down to 1";
///     // Not ROW_MAJOR: that also means digits in increasing order, naive's tree.
///     type Scratch = Vec<u8>; // the grid being filled, sized once
///     fn scratch(size: BoxSize) -> Vec<u8> {
///         vec![0; size.cells()]
///     }
///     fn search<C: Counter>(grid: &mut Vec<u8>, puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
///         grid.copy_from_slice(puzzle.cells());
///         dfs(grid, puzzle.geometry(), ctx)
///     }
/// }
///
/// /// Does `d` fit `cell`? A scan of every cell sharing a unit with it.
/// fn fits<C: Counter>(grid: &[u8], g: &Geometry, cell: usize, d: u8, counter: &mut C) -> bool {
///     counter.probes(grid.len() as u64);
///     (0..grid.len()).all(|p| {
///         let peer = g.row[p] == g.row[cell] || g.col[p] == g.col[cell] || g.boxi[p] == g.boxi[cell];
///         !peer || grid[p] != d
///     })
/// }
///
/// fn dfs<C: Counter>(grid: &mut [u8], g: &Geometry, ctx: &mut Ctx<C>) -> Flow {
///     ctx.enter()?;
///     let Some(cell) = grid.iter().position(|&v| v == 0) else {
///         return ctx.solution(grid);
///     };
///     let mut tried = 0;
///     for d in (1..=g.n as u8).rev() {
///         if fits(grid, g, cell, d, &mut ctx.counter) {
///             tried += 1;
///             grid[cell] = d;
///             ctx.counter.placement(cell, d);
///             ctx.descend(|ctx| dfs(grid, g, ctx))?;
///             grid[cell] = 0;
///             ctx.counter.backtrack(cell, d);
///         }
///     }
///     if tried == 0 {
///         ctx.counter.dead_end();
///     }
///     Ok(())
/// }
///
/// let downward = Strategy::add::<Downward>().unwrap();
/// let (_, puzzle) = sudoku_lab::base::format::parse_one("1.3.3.1..1.3.3.1").unwrap();
/// let run = downward.solve(&puzzle.board, None).unwrap(); // verified
/// assert_eq!(run.outcome, Outcome::Solved);
/// assert_eq!(sudoku_lab::base::format::to_line(&run.solution.unwrap()), "1432321441232341");
/// ```
pub trait Rung: 'static {
    /// The name used on the command line and in CSV files and charts:
    /// lower case letters, digits and `-`.
    const NAME: &'static str;
    /// One line: what this rung changes from the one below it.
    const SUMMARY: &'static str;
    /// True when the rung keeps `naive`'s cell order (row-major) and digit
    /// order (increasing), and so visits exactly `naive`'s tree; the lab then
    /// checks that its `nodes`, `placements` and `backtracks` equal `naive`'s.
    const ROW_MAJOR: bool = false;
    /// True when the search reports every guess to [`Ctx::guess`] on the
    /// timed path too (counters off), so [`crate::Solver::guesses`] knows
    /// the guesses of an uncounted [`crate::Solver::count`]. A rung that only
    /// works out whether a placement is a guess when counting (`naive` finds
    /// a cell's candidates only then) says false, and its guesses are known
    /// from counted runs only.
    const TIMED_GUESSES: bool = true;
    /// True when every guess is a placement (a digit written into a cell
    /// that had other candidates). A rung that branches on something else
    /// says false (`fast-triads`: one way of a digit through a band, which
    /// writes no cell), and the checks do not hold its guesses to its
    /// placements.
    const GUESSES_PLACE: bool = true;
    /// True when the tree depends on the order it is searched in: a rule
    /// that changes with what the search has already done elsewhere
    /// (`fast-triads` changes its branch after 64 guesses). Knuth's probes
    /// see one path, not what came before it, so [`crate::analysis::estimate`] says
    /// it cannot size such a rung instead of giving a figure.
    const ORDER_DEPENDENT: bool = false;

    /// Whether this rung handles boards of this size (default: all).
    fn supports(size: BoxSize) -> bool {
        let _ = size;
        true
    }

    /// Working memory reused from one puzzle to the next (`()` for none).
    type Scratch: Send + 'static;

    /// Makes the working memory for boards of `size`; called once per
    /// [`crate::Solver`], outside every timed run.
    fn scratch(size: BoxSize) -> Self::Scratch;

    /// Searches `puzzle` (a consistent board of a supported size) with the
    /// context's limits: call [`Ctx::enter`] at every node, report complete
    /// grids with [`Ctx::solution`], and every event to `ctx.counter`.
    fn search<C: Counter>(scratch: &mut Self::Scratch, puzzle: &Board, ctx: &mut Ctx<C>) -> Flow;

    /// Optional: the uncounted search of a 9×9 puzzle given as its 81 values
    /// (row-major, `0` = blank), in range but **not** checked against the
    /// rules: givens that break them must end the search with no solution.
    /// `None` (the default) when the rung does not take raw values, and
    /// [`crate::Solver::count`] builds a checked [`Board`] instead. A rung
    /// that checks the givens while entering them anyway saves the separate
    /// check (`fast`: about 15% of an easy puzzle's instructions).
    fn search_cells(
        scratch: &mut Self::Scratch,
        cells: &[u8; 81],
        ctx: &mut Ctx<NoCount>,
    ) -> Option<Flow> {
        let _ = (scratch, cells, ctx);
        None
    }
}

/// A rung as the lab stores it: its description and its search, as plain
/// function pointers, so built-in and added rungs sit in one table.
#[derive(Clone, Copy)]
pub struct RungInfo {
    pub name: &'static str,
    pub summary: &'static str,
    pub row_major: bool,
    /// [`Rung::TIMED_GUESSES`].
    pub timed_guesses: bool,
    /// [`Rung::GUESSES_PLACE`].
    pub guesses_place: bool,
    /// [`Rung::ORDER_DEPENDENT`].
    pub order_dependent: bool,
    supports: fn(BoxSize) -> bool,
    engine: fn(BoxSize) -> Box<dyn engine::Engine>,
}

impl RungInfo {
    /// The table entry of rung `R`.
    pub const fn of<R: Rung>() -> RungInfo {
        RungInfo {
            name: R::NAME,
            summary: R::SUMMARY,
            row_major: R::ROW_MAJOR,
            timed_guesses: R::TIMED_GUESSES,
            guesses_place: R::GUESSES_PLACE,
            order_dependent: R::ORDER_DEPENDENT,
            supports: R::supports,
            engine: engine::boxed::<R>,
        }
    }

    pub fn supports(&self, size: BoxSize) -> bool {
        (self.supports)(size)
    }

    /// A fresh engine (search + scratch) for boards of `size`.
    pub(crate) fn engine(&self, size: BoxSize) -> Box<dyn engine::Engine> {
        (self.engine)(size)
    }
}

impl std::fmt::Debug for RungInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RungInfo")
            .field("name", &self.name)
            .field("row_major", &self.row_major)
            .finish_non_exhaustive()
    }
}

/// The counters a rung can be run with through the lab's machinery:
/// [`NoCount`] (timed runs), [`Counts`] (counted runs), [`Tracer`] (traced
/// runs) and [`Probe`] (the size estimator's probes). Rungs stay generic over every [`Counter`]; this closed list is what
/// lets a rung be stored as a value (its search compiled once per counter).
pub trait LabCounter: Counter + Sized + engine::Sealed {
    #[doc(hidden)]
    fn dispatch(engine: &mut dyn engine::Engine, puzzle: &Board, ctx: &mut Ctx<Self>) -> Flow;
}

impl LabCounter for NoCount {
    fn dispatch(engine: &mut dyn engine::Engine, puzzle: &Board, ctx: &mut Ctx<Self>) -> Flow {
        engine.uncounted(puzzle, ctx)
    }
}

impl LabCounter for Counts {
    fn dispatch(engine: &mut dyn engine::Engine, puzzle: &Board, ctx: &mut Ctx<Self>) -> Flow {
        engine.counted(puzzle, ctx)
    }
}

impl LabCounter for Probe {
    fn dispatch(engine: &mut dyn engine::Engine, puzzle: &Board, ctx: &mut Ctx<Self>) -> Flow {
        engine.probed(puzzle, ctx)
    }
}

impl LabCounter for Tracer {
    fn dispatch(engine: &mut dyn engine::Engine, puzzle: &Board, ctx: &mut Ctx<Self>) -> Flow {
        engine.traced(puzzle, ctx)
    }
}

/// The object-safe face of a rung with its scratch. Public only so that
/// [`LabCounter`] can name it; not nameable from outside the crate.
pub(crate) mod engine {
    use super::*;

    pub trait Sealed {}
    impl Sealed for NoCount {}
    impl Sealed for Counts {}
    impl Sealed for Tracer {}
    impl Sealed for Probe {}

    pub trait Engine: Send {
        fn uncounted(&mut self, puzzle: &Board, ctx: &mut Ctx<NoCount>) -> Flow;
        fn counted(&mut self, puzzle: &Board, ctx: &mut Ctx<Counts>) -> Flow;
        fn traced(&mut self, puzzle: &Board, ctx: &mut Ctx<Tracer>) -> Flow;
        fn probed(&mut self, puzzle: &Board, ctx: &mut Ctx<Probe>) -> Flow;
        /// [`Rung::search_cells`].
        fn cells(&mut self, cells: &[u8; 81], ctx: &mut Ctx<NoCount>) -> Option<Flow>;
    }

    struct RungEngine<R: Rung> {
        scratch: R::Scratch,
    }

    impl<R: Rung> Engine for RungEngine<R> {
        fn uncounted(&mut self, puzzle: &Board, ctx: &mut Ctx<NoCount>) -> Flow {
            R::search(&mut self.scratch, puzzle, ctx)
        }
        fn counted(&mut self, puzzle: &Board, ctx: &mut Ctx<Counts>) -> Flow {
            R::search(&mut self.scratch, puzzle, ctx)
        }
        fn traced(&mut self, puzzle: &Board, ctx: &mut Ctx<Tracer>) -> Flow {
            R::search(&mut self.scratch, puzzle, ctx)
        }
        fn probed(&mut self, puzzle: &Board, ctx: &mut Ctx<Probe>) -> Flow {
            R::search(&mut self.scratch, puzzle, ctx)
        }
        fn cells(&mut self, cells: &[u8; 81], ctx: &mut Ctx<NoCount>) -> Option<Flow> {
            R::search_cells(&mut self.scratch, cells, ctx)
        }
    }

    pub fn boxed<R: Rung>(size: BoxSize) -> Box<dyn Engine> {
        Box::new(RungEngine::<R> {
            scratch: R::scratch(size),
        })
    }
}
