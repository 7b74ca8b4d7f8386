//! A seeded generator of uniquely solvable puzzles.
//!
//! Each puzzle starts from a random complete grid (randomised MRV
//! backtracking), then clues are removed — one symmetry orbit at a time, in
//! random order — while the puzzle keeps exactly one solution. Uniqueness is
//! decided by counting solutions up to two with `uniqueness_strategy`
//! under a node budget; a removal whose check runs out of budget is undone,
//! so every puzzle produced is *proven* unique.
//!
//! **Determinism.** Puzzle `i` uses its own ChaCha8 stream (key = the seed,
//! stream = `i`), and all sampling is done here from raw `u64`s, so the
//! output depends only on the arguments: not on the machine, the thread
//! count or `rand`'s sampling algorithms. (A strategy change can only matter
//! when a check runs out of budget, which does not happen for 4×4 and 9×9.)
//!
//! **Limits.** Low clue targets are reached by retrying with fresh grids, up
//! to `max_attempts` per puzzle; then generation fails with a clear error
//! instead of running on. Targets below a known bound (17 for 9×9, 4 for
//! 4×4, `n - 1` in general) and targets the symmetry cannot produce are
//! rejected before any work, and so are 16×16 targets below 83 clues and
//! 25×25 targets below 315 (`practical_floor`).

use std::fmt;
use std::str::FromStr;

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::base::board::{Board, BoxSize, MAX_CELLS, MAX_SIDE, UnitMasks};
use crate::base::counters::NoCount;
use crate::base::search::Limits;
use crate::base::solver::with_solver;
use crate::base::strategy::{Strategy, WrongSolution};

/// The strategy every uniqueness check uses: the default for the size
/// ([`Strategy::default_for`]).
fn uniqueness_strategy(size: BoxSize) -> Strategy {
    Strategy::default_for(size)
}

/// What a bounded solution count says about a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    Unique,
    Multiple,
    NoSolution,
    /// The node budget ran out before the answer was known.
    Unknown,
}

/// Counts solutions up to two (verified) with `uniqueness_strategy`,
/// through one reusable [`crate::Solver`] per thread and size.
pub fn uniqueness(board: &Board, budget: Option<u64>) -> Result<Uniqueness, WrongSolution> {
    let strategy = uniqueness_strategy(board.size());
    let run = with_solver(strategy, board.size(), |solver| {
        let tally = solver.search(board, Limits::count(2, budget), NoCount);
        solver.check(board).map(|()| tally)
    })
    .unwrap_or_else(|e| panic!("{e}"))?;
    Ok(match (run.solutions, run.end) {
        (s, _) if s >= 2 => Uniqueness::Multiple,
        (_, crate::base::search::End::BudgetExceeded) => Uniqueness::Unknown,
        (1, _) => Uniqueness::Unique,
        _ => Uniqueness::NoSolution,
    })
}

/// Default number of attempts (fresh grids) per puzzle.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 200;

/// Node budget for filling one random grid before starting over.
fn fill_budget(size: BoxSize) -> u64 {
    (size.cells() as u64) * 200
}

/// A clue target: an inclusive range (`K` is `K..K`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clues {
    pub min: usize,
    pub max: usize,
}

impl fmt::Display for Clues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{}..{}", self.min, self.max)
        }
    }
}

impl FromStr for Clues {
    type Err = String;
    /// `K` or `A..B` (inclusive).
    fn from_str(s: &str) -> Result<Self, String> {
        let num = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("`{s}` is not a clue count: use K or A..B (inclusive)"))
        };
        let (min, max) = match s.split_once("..") {
            Some((a, b)) => (num(a)?, num(b.strip_prefix('=').unwrap_or(b))?),
            None => (num(s)?, num(s)?),
        };
        if min > max {
            return Err(format!("empty clue range {s}: {min} > {max}"));
        }
        Ok(Clues { min, max })
    }
}

/// Which symmetry the clue pattern keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No symmetry.
    None,
    /// 180° rotation (the classic newspaper pattern).
    Rotational,
    /// 90° rotation.
    Quarter,
    /// Left-right mirror.
    Mirror,
    /// Reflection in the main diagonal.
    Diagonal,
}

impl Symmetry {
    /// Every symmetry, in the order `--symmetry` lists them.
    pub const ALL: [Symmetry; 5] = [
        Symmetry::None,
        Symmetry::Rotational,
        Symmetry::Quarter,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ];

    /// One line for the command line's help.
    pub fn summary(self) -> &'static str {
        match self {
            Symmetry::None => "No symmetry",
            Symmetry::Rotational => "180° rotation (the classic newspaper pattern)",
            Symmetry::Quarter => "90° rotation",
            Symmetry::Mirror => "Left-right mirror",
            Symmetry::Diagonal => "Reflection in the main diagonal",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::Quarter => "quarter",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
        }
    }

    /// The cell this symmetry maps `(r, c)` to.
    fn map(self, n: usize, r: usize, c: usize) -> (usize, usize) {
        match self {
            Symmetry::None => (r, c),
            Symmetry::Rotational => (n - 1 - r, n - 1 - c),
            Symmetry::Quarter => (c, n - 1 - r),
            Symmetry::Mirror => (r, n - 1 - c),
            Symmetry::Diagonal => (c, r),
        }
    }

    /// The orbits of the cells: clues are removed an orbit at a time.
    pub fn orbits(self, size: BoxSize) -> Vec<Vec<u16>> {
        let n = size.side();
        let mut seen = vec![false; size.cells()];
        let mut orbits = Vec::new();
        for start in 0..size.cells() {
            if seen[start] {
                continue;
            }
            let mut orbit = Vec::new();
            let mut cell = start;
            while !seen[cell] {
                seen[cell] = true;
                orbit.push(cell as u16);
                let (r, c) = self.map(n, cell / n, cell % n);
                cell = r * n + c;
            }
            orbits.push(orbit);
        }
        orbits
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything that determines a generated set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    pub size: BoxSize,
    pub count: usize,
    pub seed: u64,
    /// `None`: remove clues as long as uniqueness allows.
    pub clues: Option<Clues>,
    pub symmetry: Symmetry,
    /// Reject puzzles from which some single clue could still be removed.
    pub minimal: bool,
    /// Node budget per uniqueness check; `None` for `crate::base::defaults::uniqueness_budget`.
    pub budget: Option<u64>,
    pub max_attempts: u32,
}

impl Params {
    /// The clue range actually aimed at.
    pub fn target(&self) -> Clues {
        self.clues.unwrap_or(Clues {
            min: practical_floor(self.size),
            max: self.size.cells(),
        })
    }

    fn budget(&self) -> u64 {
        self.budget.unwrap_or_else(|| {
            crate::base::defaults::uniqueness_budget(self.size)
                .get()
                .unwrap_or(u64::MAX)
        })
    }

    /// Rejects targets that cannot be met, before any work.
    pub fn check(&self) -> Result<(), GenError> {
        let size = self.size;
        let cells = size.cells();
        let t = self.target();
        let infeasible = |why: String| Err(GenError::Infeasible(why));
        if t.max > cells {
            return infeasible(format!(
                "a {size} board has only {cells} cells, fewer than {} clues",
                t.max
            ));
        }
        let floor = min_clues(size);
        if t.max < floor {
            return infeasible(format!(
                "no {size} puzzle with fewer than {floor} clues has a unique solution ({})",
                min_clues_reason(size)
            ));
        }
        let practical = practical_floor(size);
        if t.min < practical {
            return infeasible(format!(
                "{size} generation is limited to at least {practical} clues (asked for {t}): below that, uniqueness checks by backtracking run out of their node budget and a puzzle takes minutes, if it comes at all"
            ));
        }
        if self.max_attempts == 0 {
            return infeasible("--max-attempts must be at least 1".to_string());
        }
        // Removing whole orbits changes the clue count in steps that are
        // multiples of the gcd of the orbit sizes.
        let step = self
            .symmetry
            .orbits(size)
            .iter()
            .fold(0, |g, o| gcd(g, o.len()));
        if !(t.min..=t.max).any(|k| (cells - k).is_multiple_of(step)) {
            return infeasible(format!(
                "with {} symmetry on {size}, clues come in steps of {step} from {cells}: no count in {t} is reachable",
                self.symmetry
            ));
        }
        Ok(())
    }

    /// The command line that regenerates exactly this set.
    pub fn command(&self) -> String {
        let mut cmd = format!(
            "sudoku-lab generate --size {} --count {} --seed {}",
            self.size.side(),
            self.count,
            self.seed
        );
        if let Some(c) = self.clues {
            cmd += &format!(" --clues {c}");
        }
        cmd += &format!(" --symmetry {}", self.symmetry);
        if self.minimal {
            cmd += " --minimal";
        }
        if let Some(b) = self.budget {
            cmd += &format!(" --budget {b}");
        }
        if self.max_attempts != DEFAULT_MAX_ATTEMPTS {
            cmd += &format!(" --max-attempts {}", self.max_attempts);
        }
        cmd
    }

    /// The comment block that heads a generated file: version, exact
    /// command, seed, and the expected-solutions line (see [`crate::io::dataset`]).
    pub fn header(&self) -> String {
        format!(
            "# Generated by sudoku-lab {} (ChaCha8 seed {}): every puzzle has exactly one solution.\n# command: {}\n# solutions: 1\n",
            env!("CARGO_PKG_VERSION"),
            self.seed,
            self.command()
        )
    }

    /// The whole generated file: [`Params::header`], then one puzzle per line.
    pub fn file(&self, puzzles: &[Board]) -> String {
        let mut text = self.header();
        for p in puzzles {
            text += &crate::base::format::to_line(p);
            text.push('\n');
        }
        text
    }
}

/// The fewest clues a uniquely solvable puzzle of this size can have, as far
/// as is known (a lower bound used to reject targets early).
fn min_clues(size: BoxSize) -> usize {
    match size.side() {
        4 => 4,
        9 => 17,
        // Fewer than n-1 distinct digits among the clues lets two missing
        // digits swap in any solution.
        n => n - 1,
    }
}

/// The fewest clues this generator aims at for a size: below these, 16×16
/// and 25×25 carving mostly stalls (checks by [`uniqueness_strategy`],
/// `propagate` there, run out of their node budget, the clue stays, and a
/// puzzle needs many fresh grids or never comes). Measured (seeded runs
/// of 4-6 puzzles): 16×16 at 83–92 and 96–110 clues and 25×25 at
/// 315–320 came in a few attempts per puzzle; 25×25 at 300–310 stalled on
/// some puzzles, 16×16 at 70–79 gave nothing in a long run.
fn practical_floor(size: BoxSize) -> usize {
    match size.side() {
        16 => 83,
        25 => 315,
        _ => 0,
    }
}

fn min_clues_reason(size: BoxSize) -> &'static str {
    match size.side() {
        4 => "exhaustive search over all 4x4 grids",
        9 => "McGuire, Tugemann and Civario, 2012",
        _ => "two digits absent from the clues could be swapped",
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Why generation failed.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    #[error("infeasible target: {0}")]
    Infeasible(String),
    #[error(
        "puzzle {number}: no {size} puzzle with {target} clues{minimal} found in {attempts} attempts (fewest clues reached: {best}); raise --clues, use a range, or allow more --max-attempts",
        number = .index + 1
    )]
    GaveUp {
        /// 0-based (the RNG stream); messages count from 1, like the output lines.
        index: usize,
        size: BoxSize,
        /// The clue target as text (`24`, `22..25`, or `any number of`).
        target: String,
        minimal: &'static str,
        attempts: u32,
        best: usize,
    },
    #[error(transparent)]
    Bug(#[from] WrongSolution),
}

/// Generates the whole set, in parallel, in index order. `progress` is
/// called once per finished puzzle (from any thread).
pub fn generate(params: &Params, progress: &(dyn Fn() + Sync)) -> Result<Vec<Board>, GenError> {
    params.check()?;
    (0..params.count)
        .into_par_iter()
        .map(|i| {
            let board = generate_one(params, i);
            progress();
            board
        })
        .collect()
}

/// The RNG of puzzle `index`: key = seed (little-endian), stream = index.
pub(crate) fn puzzle_rng(seed: u64, index: usize) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    let mut rng = ChaCha8Rng::from_seed(key);
    rng.set_stream(index as u64);
    rng
}

/// Generates puzzle `index` of a set (independent of every other puzzle).
fn generate_one(params: &Params, index: usize) -> Result<Board, GenError> {
    let mut rng = puzzle_rng(params.seed, index);
    let size = params.size;
    let target = params.target();
    let orbits = params.symmetry.orbits(size);
    let budget = params.budget();
    let mut best = size.cells();
    // Where removal stops: a reachable count drawn uniformly from the range
    // (so a band is spread over its counts), or the floor without a target.
    let step = orbits.iter().fold(0, |g, o| gcd(g, o.len()));
    let stop = match params.clues {
        Some(t) => {
            let reachable: Vec<usize> = (t.min..=t.max)
                .filter(|k| (size.cells() - k).is_multiple_of(step))
                .collect();
            reachable[below(&mut rng, reachable.len())]
        }
        None => target.min,
    };
    for _ in 0..params.max_attempts {
        let Some(grid) = random_grid(size, &mut rng) else {
            continue;
        };
        let (board, clues) = carve(&grid, size, &orbits, stop, budget, &mut rng)?;
        best = best.min(clues);
        if clues > target.max || clues < target.min {
            continue;
        }
        if params.minimal && !is_minimal(&board, budget)? {
            continue;
        }
        // Every accepted removal was proven unique; check the result once more.
        if uniqueness(&board, None)? == Uniqueness::Unique {
            return Ok(board);
        }
    }
    Err(GenError::GaveUp {
        index,
        size,
        target: params
            .clues
            .map_or_else(|| "any number of".to_string(), |t| t.to_string()),
        minimal: if params.minimal {
            " that is minimal"
        } else {
            ""
        },
        attempts: params.max_attempts,
        best,
    })
}

/// A uniform integer in `0..n` (Lemire's multiply-and-reject), from raw
/// `u64`s so the sequence is fixed by this code alone.
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = n as u64;
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = (rng.next_u64() as u128) * (n as u128);
        if (m as u64) >= threshold {
            return (m >> 64) as usize;
        }
    }
}

fn shuffle<T>(items: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, below(rng, i + 1));
    }
}

/// Removes clues orbit by orbit, in random order, while the puzzle stays
/// unique, stopping at `stop` clues. Returns the puzzle and its clue count.
fn carve(
    grid: &[u8],
    size: BoxSize,
    orbits: &[Vec<u16>],
    stop: usize,
    budget: u64,
    rng: &mut ChaCha8Rng,
) -> Result<(Board, usize), GenError> {
    let mut order: Vec<usize> = (0..orbits.len()).collect();
    shuffle(&mut order, rng);
    let mut cells = grid.to_vec();
    let mut clues = size.cells();
    for &o in &order {
        let orbit = &orbits[o];
        if clues <= stop {
            break;
        }
        if clues - orbit.len() < stop {
            continue;
        }
        for &c in orbit {
            cells[c as usize] = 0;
        }
        let board = Board::from_raw_unchecked(size, &cells);
        if uniqueness(&board, Some(budget))? == Uniqueness::Unique {
            clues -= orbit.len();
        } else {
            for &c in orbit {
                cells[c as usize] = grid[c as usize];
            }
        }
    }
    Ok((Board::from_raw_unchecked(size, &cells), clues))
}

/// True when removing any single clue leaves more than one solution
/// (a check that runs out of budget counts as "not proven minimal").
pub fn is_minimal(board: &Board, budget: u64) -> Result<bool, GenError> {
    let mut cells = board.cells().to_vec();
    for c in 0..cells.len() {
        let v = cells[c];
        if v == 0 {
            continue;
        }
        cells[c] = 0;
        let u = uniqueness(
            &Board::from_raw_unchecked(board.size(), &cells),
            Some(budget),
        )?;
        cells[c] = v;
        if u != Uniqueness::Multiple {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A random complete grid: MRV backtracking with random tie-breaks and a
/// random digit order. `None` if the fill budget runs out (rare; the caller
/// starts over with the same RNG, which has moved on).
pub fn random_grid(size: BoxSize, rng: &mut ChaCha8Rng) -> Option<Vec<u8>> {
    let g = size.geometry();
    let mut rank: Vec<u16> = (0..g.cells as u16).collect();
    shuffle(&mut rank, rng);
    let mut f = Filler {
        g,
        cells: [0; MAX_CELLS],
        rank: [0; MAX_CELLS],
        open: (0..g.cells as u16).collect(),
        masks: UnitMasks::EMPTY,
        nodes: 0,
        budget: fill_budget(size),
    };
    for (c, &r) in rank.iter().enumerate() {
        f.rank[c] = r;
    }
    f.fill(0, rng).then(|| f.cells[..g.cells].to_vec())
}

struct Filler {
    g: &'static crate::base::board::Geometry,
    cells: [u8; MAX_CELLS],
    /// Random priority of each cell for breaking MRV ties.
    rank: [u16; MAX_CELLS],
    open: Vec<u16>,
    /// Digits used in each row, column and box.
    masks: UnitMasks,
    nodes: u64,
    budget: u64,
}

impl Filler {
    fn candidates(&self, cell: usize) -> u32 {
        self.masks.candidates(self.g, cell)
    }

    fn toggle(&mut self, cell: usize, bit: u32) {
        self.masks.toggle(self.g, cell, bit);
    }

    /// True once the grid is full; false on a dead end or when out of budget.
    fn fill(&mut self, depth: usize, rng: &mut ChaCha8Rng) -> bool {
        if depth == self.open.len() {
            return true;
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return false;
        }
        let (mut best_j, mut best_key) = (depth, (u32::MAX, u16::MAX));
        for j in depth..self.open.len() {
            let cell = self.open[j] as usize;
            let key = (self.candidates(cell).count_ones(), self.rank[cell]);
            if key < best_key {
                (best_j, best_key) = (j, key);
                if key.0 == 0 {
                    return false;
                }
            }
        }
        self.open.swap(depth, best_j);
        let cell = self.open[depth] as usize;
        let mut digits = [0u8; MAX_SIDE];
        let mut k = 0;
        let mut cand = self.candidates(cell);
        while cand != 0 {
            digits[k] = cand.trailing_zeros() as u8 + 1;
            cand &= cand - 1;
            k += 1;
        }
        shuffle(&mut digits[..k], rng);
        for &d in &digits[..k] {
            let bit = 1u32 << (d - 1);
            self.toggle(cell, bit);
            self.cells[cell] = d;
            if self.fill(depth + 1, rng) {
                return true;
            }
            self.toggle(cell, bit);
            self.cells[cell] = 0;
            if self.nodes > self.budget {
                return false;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clues_parse() {
        assert_eq!("25".parse(), Ok(Clues { min: 25, max: 25 }));
        assert_eq!("22..30".parse(), Ok(Clues { min: 22, max: 30 }));
        assert_eq!("22..=30".parse(), Ok(Clues { min: 22, max: 30 }));
        assert!("30..22".parse::<Clues>().is_err());
        assert!("x".parse::<Clues>().is_err());
    }

    #[test]
    fn orbits_cover_every_cell_once() {
        for size in BoxSize::ALL {
            for sym in &Symmetry::ALL {
                let mut all: Vec<u16> = sym.orbits(size).concat();
                all.sort();
                assert_eq!(all, (0..size.cells() as u16).collect::<Vec<_>>());
            }
        }
        let nine = BoxSize::NINE;
        assert_eq!(Symmetry::Rotational.orbits(nine).len(), 41);
        assert_eq!(Symmetry::Quarter.orbits(nine).len(), 21);
    }

    #[test]
    fn random_grids_are_complete_and_legal() {
        for size in BoxSize::ALL {
            let mut rng = puzzle_rng(7, 0);
            let grid = (0..5).find_map(|_| random_grid(size, &mut rng)).unwrap();
            let board = Board::from_cells(size, grid).unwrap();
            assert!(board.is_complete());
        }
    }

    #[test]
    fn below_is_in_range() {
        let mut rng = puzzle_rng(1, 2);
        for n in 1..50 {
            assert!(below(&mut rng, n) < n);
        }
    }
}
