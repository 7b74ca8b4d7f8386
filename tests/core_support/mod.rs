//! Puzzle sources shared by the core test files: seeded random grids built by
//! shuffling a pattern grid, clue removal, and the public corpora (read from
//! `$SUDOKU_LAB_SHARED` when set).
#![allow(dead_code)]

use std::path::PathBuf;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudoku_lab::base::format::PuzzleReader;
use sudoku_lab::{Board, BoxSize};

pub fn size(b: usize) -> BoxSize {
    BoxSize::new(b).expect("box size 2..=5")
}

/// A random complete grid: the pattern `(b*(r%b) + r/b + c) % n` with
/// digits, rows within bands, bands, columns within stacks and stacks
/// shuffled (the library's, which its public checks use too).
pub fn random_grid(size: BoxSize, rng: &mut ChaCha8Rng) -> Vec<u8> {
    sudoku_lab::analysis::check::pattern_grid(size, rng)
}

/// A random grid with all but `clues` cells blanked (not necessarily unique).
pub fn random_puzzle(size: BoxSize, clues: usize, rng: &mut ChaCha8Rng) -> Board {
    let mut cells = random_grid(size, rng);
    let mut idx: Vec<usize> = (0..cells.len()).collect();
    idx.shuffle(rng);
    for &i in &idx[clues.min(cells.len())..] {
        cells[i] = 0;
    }
    Board::from_cells(size, cells).expect("a subset of a valid grid is consistent")
}

/// `count` random puzzles of one size with clue counts in `lo..=hi`.
pub fn random_puzzles(size: BoxSize, count: usize, lo: usize, hi: usize, seed: u64) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let clues = rng.random_range(lo..=hi);
            random_puzzle(size, clues, &mut rng)
        })
        .collect()
}

pub fn board(line: &str) -> Board {
    sudoku_lab::base::format::parse_one(line)
        .expect("fixture parses")
        .1
        .board
}

/// The public corpora folder, if this run has one. Under CI the folder must
/// exist: a missing corpus fails the test instead of skipping it.
pub fn shared_dir() -> Option<PathBuf> {
    match std::env::var_os("SUDOKU_LAB_SHARED") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            assert!(
                dir.join("top1465.txt").is_file(),
                "SUDOKU_LAB_SHARED={} has no top1465.txt",
                dir.display()
            );
            Some(dir)
        }
        None => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must set SUDOKU_LAB_SHARED (see .ci/run)"
            );
            eprintln!("skipped: SUDOKU_LAB_SHARED not set");
            None
        }
    }
}

/// Every `step`-th puzzle of a shared corpus, up to `max` puzzles.
pub fn shared_sample(dir: &std::path::Path, file: &str, step: usize, max: usize) -> Vec<Board> {
    let path = dir.join(file);
    let f = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    PuzzleReader::new(std::io::BufReader::new(f), Some(file.to_string()))
        .step_by(step)
        .take(max)
        .map(|p| p.expect("corpus parses").board)
        .collect()
}
