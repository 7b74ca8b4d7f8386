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
/// Exercise 9 as handed out.
#[cfg_attr(not(test), allow(dead_code))]
#[path = "exercise_singles/mine.rs"]
mod skeleton9;

use skeleton::State;
use skeleton9::Settled;

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

/// **Exercise 9, answered**: sweep the empty cells, fill each one that has
/// a single candidate (moving it to the front with `fill`), and sweep again
/// while a sweep filled something; a cell with no candidate ends it.
pub fn naked_singles(s: &mut skeleton9::State, depth: usize) -> Settled {
    let (mut to, mut probes) = (depth, 0);
    loop {
        let mut filled = false;
        let mut j = to;
        while j < s.len {
            let cell = s.open[j] as usize;
            let cand = s.candidates(cell);
            probes += 3;
            if cand == 0 {
                return Settled {
                    to,
                    dead: Some(cell),
                    probes,
                };
            }
            if cand.count_ones() == 1 {
                // The cell at `to` moves to `j`: it was looked at in this
                // sweep already; the next sweep sees it again.
                s.fill(j, to, cand);
                to += 1;
                filled = true;
            }
            j += 1;
        }
        if !filled {
            return Settled {
                to,
                dead: None,
                probes,
            };
        }
    }
}

/// The exercise-9 rung with the answer in place.
pub struct Answer9;

impl Rung for Answer9 {
    const NAME: &'static str = "answer-9";
    const SUMMARY: &'static str =
        "exercise 9 answered: bitmasks, reading order, naked singles filled before each branch";
    type Scratch = ();
    fn scratch(_size: BoxSize) {}
    fn search<C: Counter>(_: &mut (), puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        skeleton9::search_with(puzzle, ctx, naked_singles)
    }
}

/// The whole command line, with the answers on the ladder.
/// Exercise 8 answered, but the choice's probes left uncounted: the right
/// tree, too few probes. The grade must refuse it (a test below).
#[cfg(test)]
struct SkipsProbes;

#[cfg(test)]
impl Rung for SkipsProbes {
    const NAME: &'static str = "skips-probes";
    const SUMMARY: &'static str = "exercise 8 answered, the choice's probes not counted";
    type Scratch = ();
    fn scratch(_size: BoxSize) {}
    fn search<C: Counter>(_: &mut (), puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        skeleton::search_with(puzzle, ctx, |s, depth| (fewest_candidates(s, depth).0, 0))
    }
}

/// Exercise 8 answered, with one guess too many: the right tree, a wrong
/// guess count. The grade must refuse it (a test below).
#[cfg(test)]
struct MiscountsGuesses;

#[cfg(test)]
impl Rung for MiscountsGuesses {
    const NAME: &'static str = "miscounts-guesses";
    const SUMMARY: &'static str = "exercise 8 answered, one guess counted that was not made";
    type Scratch = ();
    fn scratch(_size: BoxSize) {}
    fn search<C: Counter>(_: &mut (), puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        ctx.guess();
        skeleton::search_with(puzzle, ctx, fewest_candidates)
    }
}

/// Exercise 9 answered, but its sweeps' probes left uncounted.
#[cfg(test)]
struct SettlesUnprobed;

#[cfg(test)]
impl Rung for SettlesUnprobed {
    const NAME: &'static str = "settles-unprobed";
    const SUMMARY: &'static str = "exercise 9 answered, the sweeps' probes not counted";
    type Scratch = ();
    fn scratch(_size: BoxSize) {}
    fn search<C: Counter>(_: &mut (), puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        skeleton9::search_with(puzzle, ctx, |s, depth| Settled {
            probes: 0,
            ..naked_singles(s, depth)
        })
    }
}

fn main() -> std::process::ExitCode {
    sudoku_lab::main_with(&[Strategy::add::<Answer8>, Strategy::add::<Answer9>])
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_lab::check::CountingAllocator;

    #[global_allocator]
    static ALLOCATOR: CountingAllocator = CountingAllocator;

    #[test]
    fn exercise_8_the_answer_passes() {
        let report = grade::grade::<Answer8>(grade::MRV_BOUND, grade::Rule::Fewest)
            .unwrap_or_else(|e| panic!("\n{e}"));
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

    #[test]
    fn exercise_9_the_answer_passes() {
        let report = grade::grade::<Answer9>(grade::SINGLES_BOUND, grade::Rule::Singles)
            .unwrap_or_else(|e| panic!("\n{e}"));
        eprint!("{report}");
    }

    /// As handed out, exercise 9 is correct but too slow: the check says so.
    #[test]
    fn exercise_9_as_handed_out_fails_on_nodes_only() {
        let why = grade::grade::<skeleton9::Mine>(grade::SINGLES_BOUND, grade::Rule::Singles)
            .expect_err("too many nodes");
        assert!(
            why.contains(&format!(
                "correct, but more than {} nodes",
                grade::SINGLES_BOUND
            )),
            "{why}"
        );
    }

    /// Correct and small is not enough: counters that the rung's own moves
    /// contradict fail, each with the counter named.
    #[test]
    fn miscounted_counters_fail_the_grade() {
        let why = grade::grade::<SkipsProbes>(grade::MRV_BOUND, grade::Rule::Fewest)
            .expect_err("probes skipped");
        assert!(why.contains("probes: the rung counts"), "{why}");
        let why = grade::grade::<MiscountsGuesses>(grade::MRV_BOUND, grade::Rule::Fewest)
            .expect_err("a guess too many");
        assert!(why.contains("guesses: the rung counts"), "{why}");
        let why = grade::grade::<SettlesUnprobed>(grade::SINGLES_BOUND, grade::Rule::Singles)
            .expect_err("probes skipped");
        assert!(why.contains("probes: the rung counts"), "{why}");
    }

    /// The reference holds the answers to their exact counts: `mrv` itself,
    /// recounted, agrees too (its probes within the bounds of rule 8).
    #[test]
    fn the_reference_agrees_with_mrv() {
        for p in grade::famous().puzzles {
            grade::recount(Strategy::Mrv, &p.board, grade::Rule::Fewest)
                .unwrap_or_else(|e| panic!("{:?}: {e}", p.name));
        }
    }

    /// As handed out, exercise 8 is correct but too slow: the check says so.
    #[test]
    fn exercise_8_as_handed_out_fails_on_nodes_only() {
        let why = grade::grade::<skeleton::Mine>(grade::MRV_BOUND, grade::Rule::Fewest)
            .expect_err("too many nodes");
        assert!(why.contains("correct, but more than 200000 nodes"), "{why}");
    }
}
