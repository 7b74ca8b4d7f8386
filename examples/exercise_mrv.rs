//! # Exercise 8 — write `mrv` yourself
//!
//! This rung is `bitmask` (one "digit is used" mask per row, column and box)
//! with the empty cells kept in a list. It is correct, and it is slow: it
//! fills the cells in reading order, and needs 1,739,370 nodes on the five
//! famous puzzles.
//!
//! **Your task.** In `examples/exercise_mrv/mine.rs`, change `State::choose`
//! (and nothing else) so that the
//! search branches on the empty cell with the *fewest candidates*. Then
//!
//! ```sh
//! cargo test --release --example exercise_mrv
//! ```
//!
//! says whether your rung is correct (every public check the lab holds its
//! own rungs to) and within `FACTOR` times `mrv`'s nodes on twenty puzzles
//! drawn afresh each time (the seed is printed; `SUDOKU_LAB_GRADE_SEED`
//! draws them again). The bound is in `examples/exercise_common/grade.rs`,
//! out of your file's reach, and puzzles nobody has seen leave nothing to
//! learn by heart. Run
//! it through the lab beside the built-in rungs:
//!
//! ```sh
//! cargo run --release --example exercise_mrv -- ladder -s bitmask,mrv,mine docs/puzzles/famous.txt
//! ```
//!
//! The answer is in `examples/exercise_answers.rs` (its test proves that the
//! check passes on it and fails on this file as given).

use sudoku_lab::Strategy;

// The grade runs in the test only.
#[cfg(test)]
#[path = "exercise_common/grade.rs"]
mod grade;
#[path = "exercise_mrv/mine.rs"]
mod mine;

use mine::Mine;

/// The whole `sudoku-lab` command line, with your rung on the ladder as `mine`.
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
    fn exercise_8_mine_is_correct_and_small() {
        match super::grade::grade::<super::Mine>(super::grade::Rule::Fewest) {
            Ok(report) => eprint!("{report}"),
            Err(why) => panic!("\n{why}"),
        }
    }
}
