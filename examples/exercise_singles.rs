//! # Exercise 9 — fill the naked singles before you branch
//!
//! This rung is `bitmask` with its empty cells in a list, in reading order,
//! and a hook, `State::settle`, called at every node before it branches.
//! As handed out the hook does nothing: 1,739,370 nodes on the five famous
//! puzzles.
//!
//! **Your task.** In `examples/exercise_singles/mine.rs`, write
//! `State::settle`: fill every empty cell that has one candidate left, again
//! until none is left, and report a cell with none. The cells it fills are
//! *forced* (not placements, never guessed); the search undoes them when it
//! backtracks. Then
//!
//! ```sh
//! cargo test --release --example exercise_singles
//! ```
//!
//! says whether your rung is correct (every public check) and within
//! `FACTOR` times `mrv`'s nodes on twenty puzzles drawn afresh each time
//! (the seed is printed; `SUDOKU_LAB_GRADE_SEED` draws them again; the
//! bound is in `examples/exercise_common/grade.rs`, out of your file's
//! reach). Run it through the lab:
//!
//! ```sh
//! cargo run --release --example exercise_singles -- ladder -s bitmask,mrv,mine-singles docs/puzzles/famous.txt
//! ```
//!
//! The answer is in `examples/exercise_answers.rs` (its test proves that the
//! check passes on it and fails on this file as given).

use sudoku_lab::Strategy;

// The grade runs in the test only.
#[cfg(test)]
#[path = "exercise_common/grade.rs"]
mod grade;
#[path = "exercise_singles/mine.rs"]
mod mine;

use mine::Mine;

/// The whole `sudoku-lab` command line, with your rung on the ladder as `mine-singles`.
fn main() -> std::process::ExitCode {
    sudoku_lab::main_with(&[Strategy::add::<Mine>])
}

#[cfg(test)]
mod tests {
    use sudoku_lab::analysis::check::CountingAllocator;

    // Lets the public checks count allocations too.
    #[global_allocator]
    static ALLOCATOR: CountingAllocator = CountingAllocator;

    /// Correct, and within the node bound on puzzles drawn afresh (the
    /// seed is printed). Fails as given (too many nodes).
    #[test]
    fn exercise_9_mine_is_correct_and_small() {
        match super::grade::grade::<super::Mine>(super::grade::Rule::Singles) {
            Ok(report) => eprint!("{report}"),
            Err(why) => panic!("\n{why}"),
        }
    }
}
