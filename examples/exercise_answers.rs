//! # Answers to the coding exercises of `docs/exercises.md`
//!
//! Each answer is graded by the very check its exercise's test runs
//! (`examples/exercise_common/grade.rs`): every public check, and a node
//! bound on the famous puzzles. This file's tests (run by `cargo test`)
//! prove both ways that the check means something: it passes on the answer
//! and fails on the exercise file as handed out.
//!
//! Read it after trying: `cargo test --release --example exercise_mrv`.

use sudoku_lab::search::{Ctx, Flow};
use sudoku_lab::{Board, BoxSize, Counter, Rung, Strategy};

// The grade runs in the tests only.
#[cfg(test)]
#[path = "exercise_common/grade.rs"]
mod grade;
/// Exercise 8 as handed out (the student's file, included as it is; its
/// rung and bound are used by the tests only).
#[cfg_attr(not(test), allow(dead_code))]
#[path = "exercise_mrv/mine.rs"]
mod skeleton;

use skeleton::State;

/// **Exercise 8, answered**: the empty cell with the fewest candidates; ties
/// to the lowest cell index, as `mrv` breaks them, so the tree is `mrv`'s.
/// Stops scanning at a cell with none: that node is a dead end anyway.
pub fn fewest_candidates(s: &State, depth: usize) -> (usize, u64) {
    let (mut best, mut fewest, mut best_cell) = (depth, u32::MAX, u16::MAX);
    let mut probes = 0;
    for j in depth..s.len {
        let cell = s.open[j];
        let n = s.candidates(cell as usize).count_ones();
        probes += 3;
        if n < fewest || (n == fewest && cell < best_cell) {
            (best, fewest, best_cell) = (j, n, cell);
            if n == 0 {
                break;
            }
        }
    }
    (best, probes)
}

/// The exercise-8 rung with the answer in place.
pub struct Answer8;

impl Rung for Answer8 {
    const NAME: &'static str = "answer-8";
    const SUMMARY: &'static str =
        "exercise 8 answered: bitmasks, the cell with the fewest candidates";
    type Scratch = ();
    fn scratch(_size: BoxSize) {}
    fn search<C: Counter>(_: &mut (), puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        skeleton::search_with(puzzle, ctx, fewest_candidates)
    }
}

/// The whole command line, with the answers on the ladder.
fn main() -> std::process::ExitCode {
    sudoku_lab::main_with(&[Strategy::add::<Answer8>])
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_lab::check::CountingAllocator;

    #[global_allocator]
    static ALLOCATOR: CountingAllocator = CountingAllocator;

    #[test]
    fn exercise_8_the_answer_passes() {
        let report =
            grade::grade::<Answer8>(skeleton::NODE_BOUND).unwrap_or_else(|e| panic!("\n{e}"));
        eprint!("{report}");
    }

    /// The answer walks exactly `mrv`'s tree: the same nodes on every
    /// famous puzzle.
    #[test]
    fn exercise_8_the_answer_is_mrv() {
        let answer = Strategy::add::<Answer8>().expect("a free name");
        for p in grade::famous().puzzles {
            let a = answer.solve(&p.board, None).expect("verified");
            let m = Strategy::Mrv.solve(&p.board, None).expect("verified");
            assert_eq!(a.counts.nodes, m.counts.nodes, "{:?}", p.name);
            assert_eq!(a.counts.guesses, m.counts.guesses, "{:?}", p.name);
        }
    }

    /// As handed out, exercise 8 is correct but too slow: the check says so.
    #[test]
    fn exercise_8_as_handed_out_fails_on_nodes_only() {
        let why = grade::grade::<skeleton::Mine>(skeleton::NODE_BOUND).expect_err("too many nodes");
        assert!(why.contains("correct, but more than 200000 nodes"), "{why}");
    }
}
