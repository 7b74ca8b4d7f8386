//! # Answers to the coding exercises of `docs/exercises.md`
//!
//! Each answer is graded by the very check its exercise's test runs
//! (`examples/exercise_common/grade.rs`): every public check, and a node
//! bound relative to `mrv` on puzzles drawn afresh. This file's tests (run
//! by `cargo test`) prove that the check means something: it passes on the
//! answer (on any seed) and fails on the exercise file as handed out and on
//! an answer that knows the famous puzzles by heart.
//!
//! Read it after trying: `cargo test --release --example exercise_mrv`.

use sudoku_lab::base::{Ctx, Flow};
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

/// Exercise 8 "answered" by heart: the five famous puzzles' solutions
/// embedded, and on each of them a cell whose first candidate is its
/// solution's digit, so the search never backtracks (303 nodes in all);
/// reading order on any other puzzle, as handed out. The grade must refuse it (a test
/// below): the public puzzles are not the graded ones.
#[cfg(test)]
struct Memorised;

/// The famous puzzles' solutions (`sudoku-lab solve docs/puzzles/famous.txt`).
#[cfg(test)]
const FAMOUS_SOLUTIONS: [&str; 5] = [
    "174385962293467158586192734451923876928674315367851249719548623635219487842736591",
    "751846239892371465643259871238197546974562318165438927319684752527913684486725193",
    "839465712146782953752391486391824675564173829287659341628537194913248567475916238",
    "162857493534129678789643521475312986913586742628794135356478219241935867897261354",
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452",
];

/// The famous puzzles' empty cells, in reading order (which tells them apart).
#[cfg(test)]
const FAMOUS_PUZZLES: [&str; 5] = [
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
    ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
];

#[cfg(test)]
fn by_heart(s: &State, depth: usize) -> (usize, u64) {
    let open = &s.open[..s.len];
    let known = FAMOUS_PUZZLES.iter().position(|p| {
        let empty = p.bytes().filter(|&b| b == b'.').count();
        empty == open.len()
            && open
                .iter()
                .all(|&c| p.as_bytes().get(c as usize) == Some(&b'.'))
    });
    // Claims a full scan's probes, as the rule would read.
    let probes = 3 * (s.len - depth) as u64;
    let Some(k) = known else {
        return (depth, probes);
    };
    let solution = FAMOUS_SOLUTIONS[k].as_bytes();
    let digit = |j: usize| 1u32 << (solution[s.open[j] as usize] - b'1');
    // Off the solution's path (some empty cell lost its digit), the fewest
    // candidates end the branch soon, so that the public checks, which
    // count every solution, pass too.
    if (depth..s.len).any(|j| s.candidates(s.open[j] as usize) & digit(j) == 0) {
        return fewest_candidates(s, depth);
    }
    let first_is_right = |&j: &usize| {
        let cand = s.candidates(s.open[j] as usize);
        cand & cand.wrapping_neg() == digit(j)
    };
    ((depth..s.len).find(first_is_right).unwrap_or(depth), probes)
}

#[cfg(test)]
impl Rung for Memorised {
    const NAME: &'static str = "memorised";
    const SUMMARY: &'static str = "exercise 8 by heart: the famous solutions embedded";
    type Scratch = ();
    fn scratch(_size: BoxSize) {}
    fn search<C: Counter>(_: &mut (), puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        skeleton::search_with(puzzle, ctx, by_heart)
    }
}

fn main() -> std::process::ExitCode {
    sudoku_lab::main_with(&[Strategy::add::<Answer8>, Strategy::add::<Answer9>])
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_lab::analysis::check::CountingAllocator;

    #[global_allocator]
    static ALLOCATOR: CountingAllocator = CountingAllocator;

    /// The famous puzzles, from the lab's own folder.
    fn famous() -> sudoku_lab::io::Dataset {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/puzzles/famous.txt");
        sudoku_lab::io::Dataset::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// Seeds for the tests that must hold on every seed: fixed, so that a
    /// failure names the seed to reproduce it; fewer in a debug build (the
    /// plain `cargo test`), which is many times slower.
    const SEEDS: std::ops::Range<u64> = 0..if cfg!(debug_assertions) { 10 } else { 40 };

    #[test]
    fn exercise_8_the_answer_passes() {
        let report =
            grade::grade::<Answer8>(grade::Rule::Fewest).unwrap_or_else(|e| panic!("\n{e}"));
        eprint!("{report}");
    }

    /// The answer walks exactly `mrv`'s tree, on the famous puzzles and on
    /// every drawn one: the same nodes and guesses, so it passes the bound
    /// ([`grade::FACTOR`] × `mrv`'s nodes) on any seed.
    #[test]
    fn exercise_8_the_answer_is_mrv() {
        let answer = Strategy::add::<Answer8>().expect("a free name");
        let drawn = SEEDS.flat_map(|seed| grade::draw(seed).expect("drawn"));
        for p in famous().puzzles.into_iter().map(|p| p.board).chain(drawn) {
            let a = answer.solve(&p, None).expect("verified");
            let m = Strategy::Mrv.solve(&p, None).expect("verified");
            assert_eq!(a.counts.nodes, m.counts.nodes, "{p:?}");
            assert_eq!(a.counts.guesses, m.counts.guesses, "{p:?}");
        }
    }

    #[test]
    fn exercise_9_the_answer_passes() {
        let report =
            grade::grade::<Answer9>(grade::Rule::Singles).unwrap_or_else(|e| panic!("\n{e}"));
        eprint!("{report}");
    }

    /// Exercise 9's answer is not `mrv`'s tree: its margin under the bound
    /// is measured (see [`grade::FACTOR`]), and held on many seeds here.
    #[test]
    fn exercise_9_the_answer_passes_on_many_seeds() {
        let answer = Strategy::add::<Answer9>().expect("a free name");
        for seed in SEEDS {
            if let Err(why) = grade::within(answer, seed, grade::Rule::Singles) {
                panic!("seed {seed}:\n{why}");
            }
        }
    }

    /// As handed out, exercise 9 is correct but too slow: the check says
    /// so, on every seed tried.
    #[test]
    fn exercise_9_as_handed_out_fails_on_nodes_only() {
        let why =
            grade::grade::<skeleton9::Mine>(grade::Rule::Singles).expect_err("too many nodes");
        assert!(why.contains("correct, but more than"), "{why}");
        let given = Strategy::add::<skeleton9::Mine>().expect("a free name");
        for seed in SEEDS {
            let why = grade::within(given, seed, grade::Rule::Singles).expect_err("too many nodes");
            assert!(why.contains("correct, but more than"), "seed {seed}: {why}");
        }
    }

    /// Correct and small is not enough: counters that the rung's own moves
    /// contradict fail, each with the counter named.
    #[test]
    fn miscounted_counters_fail_the_grade() {
        let why = grade::grade::<SkipsProbes>(grade::Rule::Fewest).expect_err("probes skipped");
        assert!(why.contains("probes: the rung counts"), "{why}");
        let why =
            grade::grade::<MiscountsGuesses>(grade::Rule::Fewest).expect_err("a guess too many");
        assert!(why.contains("guesses: the rung counts"), "{why}");
        let why =
            grade::grade::<SettlesUnprobed>(grade::Rule::Singles).expect_err("probes skipped");
        assert!(why.contains("probes: the rung counts"), "{why}");
    }

    /// The reference holds the answers to their exact counts: `mrv` itself,
    /// recounted, agrees too (its probes within the bounds of rule 8).
    #[test]
    fn the_reference_agrees_with_mrv() {
        for p in famous().puzzles {
            grade::recount(Strategy::Mrv, &p.board, grade::Rule::Fewest)
                .unwrap_or_else(|e| panic!("{:?}: {e}", p.name));
        }
    }

    /// As handed out, exercise 8 is correct but too slow: the check says
    /// so, on every seed tried.
    #[test]
    fn exercise_8_as_handed_out_fails_on_nodes_only() {
        let why = grade::grade::<skeleton::Mine>(grade::Rule::Fewest).expect_err("too many nodes");
        assert!(why.contains("correct, but more than"), "{why}");
        let given = Strategy::add::<skeleton::Mine>().expect("a free name");
        for seed in SEEDS {
            let why = grade::within(given, seed, grade::Rule::Fewest).expect_err("too many nodes");
            assert!(why.contains("correct, but more than"), "seed {seed}: {why}");
        }
    }

    /// An answer that knows the five famous puzzles by heart solves them in
    /// 303 nodes without a backtrack, and passes the public checks, but
    /// fails the grade: the graded puzzles are drawn afresh.
    #[test]
    fn a_memorised_answer_fails() {
        let cheat = Strategy::add::<Memorised>().expect("a free name");
        let mut nodes = 0;
        for p in famous().puzzles {
            let run = cheat.solve(&p.board, None).expect("verified");
            assert_eq!(run.counts.backtracks, 0, "{:?}", p.name);
            nodes += run.counts.nodes;
        }
        assert_eq!(nodes, 303);
        let why = grade::grade::<Memorised>(grade::Rule::Fewest).expect_err("by heart");
        assert!(why.contains("correct, but more than"), "{why}");
        for seed in SEEDS {
            let why = grade::within(cheat, seed, grade::Rule::Fewest).expect_err("by heart");
            assert!(why.contains("correct, but more than"), "seed {seed}: {why}");
        }
    }
}
