//! The seeded random puzzles the checks run, per size ([`Sample`]): cut
//! from random complete grids, cut sparse, spoiled by one wrong given, and
//! near-complete.

use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::base::board::{Board, BoxSize};
use crate::io::generate::{puzzle_rng, random_grid};

use super::Checks;

/// The random puzzles of one size, by kind.
pub(super) struct Sample {
    pub(super) size: BoxSize,
    /// Cut from a complete grid: at least one solution.
    pub(super) cut: Vec<Board>,
    /// Cut sparse: usually several solutions.
    pub(super) sparse: Vec<Board>,
    /// Cut, then one blank given a digit other than the grid's (consistent
    /// with the other givens): often no solution.
    pub(super) spoiled: Vec<Board>,
    /// A complete grid with one blank per row: solvable by any rung.
    pub(super) near_complete: Vec<Board>,
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
    pub(super) fn draw(size: BoxSize, checks: &Checks) -> Sample {
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
    pub(super) fn solvable(&self) -> impl Iterator<Item = &Board> {
        self.cut.iter().chain(&self.sparse)
    }

    /// A third of each kind (at least one): for the checks that run every
    /// puzzle several times, whose rules do not get likelier to break with
    /// more puzzles of the same kind.
    pub(super) fn some(&self) -> impl Iterator<Item = &Board> {
        let k = self.cut.len().div_ceil(3);
        let k_spoiled = self.spoiled.len().div_ceil(3);
        self.cut[..k]
            .iter()
            .chain(&self.sparse[..k])
            .chain(&self.spoiled[..k_spoiled])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
