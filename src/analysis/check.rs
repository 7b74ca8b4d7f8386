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
//! use sudoku_lab::search::{Ctx, Flow};
//! use sudoku_lab::strategy::mrv::Mrv;
//! use sudoku_lab::{Board, BoxSize, Counter, Rung, check};
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

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell as StdCell;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::base::board::{Board, BoxSize};
use crate::base::counters::{Counts, NoCount};
use crate::base::format::to_line;
use crate::base::search::{Budget, End, Limits};
use crate::base::solver::Solver;
use crate::base::strategy::{Outcome, Rung, Strategy, WrongSolution};
use crate::base::tracer::Tracer;
use crate::io::generate::{puzzle_rng, random_grid};

/// One puzzle of the fixture table, with its exact number of solutions.
#[derive(Clone, Copy, Debug)]
pub struct Fixture {
    pub name: &'static str,
    /// The puzzle, in any layout the lab reads.
    pub puzzle: &'static str,
    /// Exact number of solutions.
    pub solutions: u64,
    /// The lexicographically smallest solution (as a line), where listed:
    /// what every [`Rung::ROW_MAJOR`] rung must return first.
    pub solution: Option<&'static str>,
}

impl Fixture {
    /// The puzzle as a board.
    pub fn board(&self) -> Board {
        parse(self.puzzle, self.name)
    }

    /// The listed solution as a board.
    pub fn solution_board(&self) -> Option<Board> {
        self.solution.map(|s| parse(s, self.name))
    }
}

/// The table is static data, parsed by a test of its own; a typo is a bug.
fn parse(text: &str, name: &str) -> Board {
    match crate::base::format::parse_one(text) {
        Ok((_, puzzle)) => puzzle.board,
        Err(e) => panic!("BUG: fixture {name:?} does not parse: {e}"),
    }
}

/// The fixture table: every rung must solve each puzzle of a size it
/// supports and count its solutions exactly, within
/// [`Checks::fixture_budget`]. The 9×9 solutions agree with the `sudoku`
/// crate (`tests/strategies.rs` checks it).
///
/// ```
/// use sudoku_lab::{Strategy, check::FIXTURES};
///
/// for f in FIXTURES.iter().filter(|f| f.solutions == 1) {
///     let run = Strategy::Propagate.solve(&f.board(), None).unwrap(); // verified
///     if let Some(expected) = f.solution_board() {
///         assert_eq!(run.solution, Some(expected), "{}", f.name);
///     }
/// }
/// ```
pub const FIXTURES: &[Fixture] = &[
    Fixture {
        name: "Baekjoon 2580 sample (grid)",
        puzzle: "0 3 5 4 6 9 2 7 8\n7 8 2 1 0 5 6 0 9\n0 6 0 2 7 8 1 3 5\n3 2 1 0 4 6 8 9 7\n8 0 4 9 1 3 5 0 6\n5 9 6 8 2 0 4 1 3\n9 1 7 6 5 2 0 8 0\n6 0 3 7 0 1 9 5 2\n2 5 8 3 9 4 7 6 0\n",
        solutions: 1,
        solution: Some(
            "135469278782135649469278135321546897874913526596827413917652384643781952258394761",
        ),
    },
    Fixture {
        name: "Baekjoon 2239 sample (compact)",
        puzzle: "103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n",
        solutions: 1,
        solution: Some(
            "143628579572139468986754231391542786468917352725863914237481695619275843854396127",
        ),
    },
    Fixture {
        name: "Easter Monster",
        puzzle: "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        solutions: 1,
        solution: Some(
            "174385962293467158586192734451923876928674315367851249719548623635219487842736591",
        ),
    },
    Fixture {
        name: "Golden Nugget",
        puzzle: ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
        solutions: 1,
        solution: Some(
            "751846239892371465643259871238197546974562318165438927319684752527913684486725193",
        ),
    },
    Fixture {
        name: "AI Escargot",
        puzzle: "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        solutions: 1,
        solution: Some(
            "162857493534129678789643521475312986913586742628794135356478219241935867897261354",
        ),
    },
    Fixture {
        name: "Inkala 2012",
        puzzle: "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        solutions: 1,
        solution: Some(
            "812753649943682175675491283154237896369845721287169534521974368438526917796318452",
        ),
    },
    Fixture {
        name: "consistent 9x9 with no solution (r1c9 has no candidate)",
        puzzle: "12345678.........9...............................................................",
        solutions: 0,
        solution: None,
    },
    Fixture {
        name: "9x9 with exactly two solutions (Golden Nugget's grid, thinned)",
        puzzle: ".5.8.6.39.9.3.14.5.4.25.8.1.3..9.5.6..4.6.3.81.5.3.92.3.9.84.5.5.79.3.8.4..7.5.9.",
        solutions: 2,
        solution: Some(
            "751846239298371465643259871832197546974562318165438927319684752527913684486725193",
        ),
    },
    Fixture {
        name: "empty 4x4 (288 grids)",
        puzzle: "................",
        solutions: 288,
        solution: Some("1234341221434321"),
    },
    Fixture {
        name: "4x4 unique",
        puzzle: "1...\n..3.\n.4..\n...2\n",
        solutions: 1,
        solution: None,
    },
    Fixture {
        name: "4x4 consistent, no solution",
        puzzle: "12..\n..3.\n....\n.3..\n",
        solutions: 0,
        solution: None,
    },
];

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
    fn new(check: Check) -> CheckResult {
        CheckResult {
            check,
            runs: 0,
            notes: Vec::new(),
            failures: Vec::new(),
            failed: 0,
        }
    }

    fn fail(&mut self, message: String) {
        self.failed += 1;
        if self.failures.len() < SHOWN {
            self.failures.push(message);
        }
    }

    pub fn passed(&self) -> bool {
        self.failed == 0
    }
}

/// Every check's result for one strategy: what [`Checks::run`] returns,
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

/// The random puzzles of one size, by kind.
struct Sample {
    size: BoxSize,
    /// Cut from a complete grid: at least one solution.
    cut: Vec<Board>,
    /// Cut sparse: usually several solutions.
    sparse: Vec<Board>,
    /// Cut, then one blank given a digit other than the grid's (consistent
    /// with the other givens): often no solution.
    spoiled: Vec<Board>,
    /// A complete grid with one blank per row: solvable by any rung.
    near_complete: Vec<Board>,
}

/// Clue counts of the cut and sparse puzzles of each size: the cut ones
/// leave the row-major rungs mostly within their budgets, the sparse ones
/// have many solutions.
fn clue_ranges(size: BoxSize) -> ((usize, usize), (usize, usize)) {
    match size.side() {
        4 => ((4, 10), (0, 5)),
        9 => ((24, 45), (17, 28)),
        16 => ((150, 220), (110, 150)),
        _ => ((420, 560), (330, 420)),
    }
}

/// A random complete grid: the generator's for boards up to 16×16, and
/// [`pattern_grid`] for 25×25, where the generator's fill takes a good part
/// of a second.
fn complete_grid(size: BoxSize, rng: &mut ChaCha8Rng) -> Vec<u8> {
    if size.side() < 25 {
        loop {
            if let Some(grid) = random_grid(size, rng) {
                return grid;
            }
        }
    }
    pattern_grid(size, rng)
}

/// A random complete grid in microseconds, for any size: the pattern grid
/// `(b·(r mod b) + r/b + c) mod n` with its digits, bands, stacks, and the
/// rows and columns within them shuffled. (Every grid it makes is
/// equivalent to that one pattern; the generator's grids are not.)
pub fn pattern_grid(size: BoxSize, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let (b, n) = (size.box_size(), size.side());
    let mut digits: Vec<u8> = (1..=n as u8).collect();
    digits.shuffle(rng);
    let mut order = || {
        let mut bands: Vec<usize> = (0..b).collect();
        bands.shuffle(rng);
        let mut out = Vec::with_capacity(n);
        for band in bands {
            let mut inner: Vec<usize> = (0..b).collect();
            inner.shuffle(rng);
            out.extend(inner.into_iter().map(|i| band * b + i));
        }
        out
    };
    let (rows, cols) = (order(), order());
    let mut cells = vec![0u8; n * n];
    for (r, &pr) in rows.iter().enumerate() {
        for (c, &pc) in cols.iter().enumerate() {
            cells[r * n + c] = digits[(b * (pr % b) + pr / b + pc) % n];
        }
    }
    cells
}

/// `grid` with all but `clues` cells blanked, at random.
fn cut(size: BoxSize, grid: &[u8], clues: usize, rng: &mut ChaCha8Rng) -> Board {
    let mut cells = grid.to_vec();
    let mut order: Vec<usize> = (0..cells.len()).collect();
    order.shuffle(rng);
    for &i in &order[clues.min(cells.len())..] {
        cells[i] = 0;
    }
    consistent(size, cells)
}

/// A board of a subset of a complete grid's values (always consistent).
fn consistent(size: BoxSize, cells: Vec<u8>) -> Board {
    match Board::from_cells(size, cells) {
        Ok(b) => b,
        Err(e) => panic!("BUG: a subset of a complete grid is inconsistent: {e}"),
    }
}

/// `puzzle` (cut from `grid`) with one blank set to a wrong digit that no
/// given forbids, if there is one.
fn spoil(puzzle: &Board, grid: &[u8], rng: &mut ChaCha8Rng) -> Option<Board> {
    let n = puzzle.size().side() as u8;
    let mut blanks: Vec<usize> = (0..grid.len())
        .filter(|&c| puzzle.cells()[c] == 0)
        .collect();
    blanks.shuffle(rng);
    for c in blanks {
        let start = rng.random_range(0..n);
        for k in 0..n {
            let d = (start + k) % n + 1;
            if d == grid[c] {
                continue;
            }
            let mut cells = puzzle.cells().to_vec();
            cells[c] = d;
            if let Ok(b) = Board::from_cells(puzzle.size(), cells) {
                return Some(b);
            }
        }
    }
    None
}

impl Sample {
    fn draw(size: BoxSize, checks: &Checks) -> Sample {
        let per = match size.side() {
            4 | 9 => checks.puzzles,
            16 => checks.puzzles / 5,
            _ => checks.puzzles / 10,
        }
        .max(1);
        let ((cut_lo, cut_hi), (sparse_lo, sparse_hi)) = clue_ranges(size);
        // One stream per size, so adding a size never changes another's puzzles.
        let mut rng = puzzle_rng(checks.seed, size.side());
        let mut sample = Sample {
            size,
            cut: Vec::new(),
            sparse: Vec::new(),
            spoiled: Vec::new(),
            near_complete: Vec::new(),
        };
        for _ in 0..per {
            let grid = complete_grid(size, &mut rng);
            let clues = rng.random_range(cut_lo..=cut_hi);
            let puzzle = cut(size, &grid, clues, &mut rng);
            if let Some(spoiled) = spoil(&puzzle, &grid, &mut rng) {
                sample.spoiled.push(spoiled);
            }
            sample.cut.push(puzzle);
            let clues = rng.random_range(sparse_lo..=sparse_hi);
            sample.sparse.push(cut(size, &grid, clues, &mut rng));
            // One blank per row, in a random column.
            let n = size.side();
            let mut cells = grid;
            for r in 0..n {
                cells[r * n + rng.random_range(0..n)] = 0;
            }
            sample.near_complete.push(consistent(size, cells));
        }
        sample
    }

    /// Every puzzle with at least one solution by construction.
    fn solvable(&self) -> impl Iterator<Item = &Board> {
        self.cut.iter().chain(&self.sparse)
    }

    /// A third of each kind (at least one): for the checks that run every
    /// puzzle several times, whose rules do not get likelier to break with
    /// more puzzles of the same kind.
    fn some(&self) -> impl Iterator<Item = &Board> {
        let k = self.cut.len().div_ceil(3);
        let k_spoiled = self.spoiled.len().div_ceil(3);
        self.cut[..k]
            .iter()
            .chain(&self.sparse[..k])
            .chain(&self.spoiled[..k_spoiled])
    }
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
                let mut solver = match crate::Solver::new(s, puzzle.size()) {
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
                    || solver.guesses() != expected
                {
                    r.fail(format!(
                        "an uncounted run reports {} guesses (the solver handle {:?}), the \
                         counter {} (call ctx.guess(), not ctx.counter.guess()) on {line}",
                        plain.guesses,
                        solver.guesses(),
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

thread_local! {
    /// Allocations made by this thread: tests run on parallel threads, and
    /// each counts only its own.
    static ALLOCATIONS: StdCell<u64> = const { StdCell::new(0) };
}

/// A global allocator that counts each thread's allocations, for the
/// [`Check::Allocation`] check (and any test of your own, with
/// [`allocations`]). It forwards every call to the system allocator.
/// Install it in the test binary that checks your rung:
///
/// ```
/// #[global_allocator]
/// static ALLOCATOR: sudoku_lab::check::CountingAllocator = sudoku_lab::check::CountingAllocator;
///
/// let before = sudoku_lab::check::allocations();
/// let v = std::hint::black_box(vec![1u8; 10]);
/// assert_eq!(sudoku_lab::check::allocations() - before, 1);
/// # drop(v);
/// ```
pub struct CountingAllocator;

impl CountingAllocator {
    /// Whether this process counts allocations (the allocator is installed).
    pub fn installed() -> bool {
        let before = allocations();
        drop(std::hint::black_box(Box::new(0u64)));
        allocations() > before
    }
}

/// Allocations (and reallocations) made so far by the calling thread; stays
/// 0 unless [`CountingAllocator`] is the global allocator.
pub fn allocations() -> u64 {
    ALLOCATIONS.with(StdCell::get)
}

fn count_one() {
    // `try_with`: a thread being torn down has no counter left; not counted.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: forwards to the system allocator unchanged; only counts calls
// (a const-initialised thread-local Cell neither allocates nor has a destructor).
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fixture_parses_and_its_listed_solution_completes_it() {
        for f in FIXTURES {
            let puzzle = f.board();
            if let Some(solution) = f.solution_board() {
                assert_eq!(puzzle.check_solution(&solution), Ok(()), "{}", f.name);
            }
        }
    }

    #[test]
    fn complete_grids_are_complete_and_consistent() {
        for size in BoxSize::ALL {
            let mut rng = puzzle_rng(7, 0);
            for _ in 0..3 {
                let grid = complete_grid(size, &mut rng);
                assert!(grid.iter().all(|&v| v != 0), "{size}");
                let board = Board::from_cells(size, grid).expect("consistent");
                assert!(board.is_complete(), "{size}");
            }
        }
    }

    #[test]
    fn samples_are_deterministic_and_of_every_kind() {
        let checks = Checks::default();
        for size in BoxSize::ALL {
            let a = Sample::draw(size, &checks);
            let b = Sample::draw(size, &checks);
            assert_eq!(a.cut, b.cut);
            assert_eq!(a.spoiled, b.spoiled);
            assert!(!a.cut.is_empty() && !a.sparse.is_empty() && !a.near_complete.is_empty());
            for p in &a.near_complete {
                let blanks = p.cells().iter().filter(|&&v| v == 0).count();
                assert!(blanks >= 1 && blanks <= size.side());
            }
        }
    }
}
