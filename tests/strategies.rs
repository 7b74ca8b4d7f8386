//! The public checks (`sudoku_lab::analysis::check`: the fixture table and the
//! invariants any rung must keep) run against every rung in the registry,
//! and the ladder's own invariants on a few hundred puzzles.

mod core_support;

use core_support::{random_puzzles, shared_dir, shared_sample, size};
use sudoku_lab::analysis::check::{self, FIXTURES};
use sudoku_lab::base::format::to_line;
use sudoku_lab::{Board, Counts, End, Limits, NoCount, Outcome, Strategy};

#[global_allocator]
static ALLOCATOR: check::CountingAllocator = check::CountingAllocator;

/// The public checks (the fixture table and every invariant of
/// `sudoku_lab::analysis::check`, the allocation check included) pass for every
/// built-in rung and variant: the same test a rung written outside the
/// crate runs.
#[test]
fn every_built_in_rung_passes_the_public_checks() {
    // One thread per rung (the allocation check counts per thread).
    let reports: Vec<Result<check::Checked, check::Failed>> = std::thread::scope(|scope| {
        let threads: Vec<_> = Strategy::ALL
            .iter()
            .chain(Strategy::VARIANTS)
            .map(|&s| scope.spawn(move || check::strategy(s)))
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    for report in reports {
        let passed = report.unwrap_or_else(|failed| panic!("{failed}"));
        eprint!("{passed}");
        assert!(
            passed
                .get(check::Check::Allocation)
                .unwrap()
                .notes
                .is_empty()
        );
        // The sample holds puzzles with none, one and several solutions.
        let counts = &passed.get(check::Check::Counts).unwrap().notes[0];
        assert!(
            !counts.contains(" 0 puzzles") && !counts.contains(" 0 with"),
            "{counts}"
        );
    }
}

/// The fixture solutions of the famous puzzles agree with an independent
/// solver (the `sudoku` crate, a JCZSolve port), so the table is not just
/// checked against itself.
#[test]
fn fixture_solutions_agree_with_the_reference_solver() {
    for f in FIXTURES.iter().filter(|f| f.solutions == 1) {
        let puzzle = f.board();
        if puzzle.size().side() != 9 {
            continue;
        }
        let line = to_line(&puzzle);
        let reference = sudoku::Sudoku::from_str_line(&line)
            .expect("reference parses")
            .solution()
            .expect("reference finds the unique solution");
        let ours = Strategy::Mrv
            .solve(&puzzle, None)
            .unwrap()
            .solution
            .unwrap();
        assert_eq!(
            reference.to_str_line().to_string(),
            to_line(&ours),
            "{}",
            f.name
        );
    }
}

/// The first four rungs keep the same cell order and digit order, so they
/// must visit exactly the same tree: identical counters except `probes`
/// (the per-node cost) and identical first solutions.
fn assert_identical_trees(puzzles: &[Board], budget: u64) -> usize {
    let rungs: Vec<Strategy> = Strategy::ALL
        .iter()
        .copied()
        .filter(|s| s.is_row_major())
        .collect();
    assert!(rungs.len() >= 4);
    let mut solved = 0;
    for puzzle in puzzles {
        let runs: Vec<_> = rungs
            .iter()
            .map(|s| s.solve(puzzle, Some(budget)).unwrap())
            .collect();
        let tree = |c: &Counts| (c.nodes, c.placements, c.backtracks, c.guesses, c.dead_ends);
        for (s, run) in rungs.iter().zip(&runs).skip(1) {
            assert_eq!(
                (tree(&run.counts), run.end, &run.solution),
                (tree(&runs[0].counts), runs[0].end, &runs[0].solution),
                "{s} vs naive on {}",
                to_line(puzzle)
            );
        }
        // Cheaper nodes: each rung reads no more than the one before it.
        for pair in runs.windows(2) {
            assert!(pair[1].counts.probes <= pair[0].counts.probes);
        }
        solved += usize::from(runs[0].outcome == Outcome::Solved);
    }
    solved
}

#[test]
fn row_major_rungs_visit_identical_trees_on_hundreds_of_puzzles() {
    let mut puzzles = random_puzzles(size(3), 200, 24, 45, 1);
    puzzles.extend(random_puzzles(size(2), 100, 0, 10, 2));
    puzzles.extend(random_puzzles(size(4), 20, 150, 220, 3));
    let solved = assert_identical_trees(&puzzles, 200_000);
    // The budget must leave most puzzles solvable, or the test proves little.
    assert!(solved > puzzles.len() * 3 / 4, "only {solved} solved");
}

#[test]
fn row_major_rungs_visit_identical_trees_on_public_corpora() {
    let Some(dir) = shared_dir() else { return };
    let mut puzzles = shared_sample(&dir, "top1465.txt", 29, 50);
    puzzles.extend(shared_sample(&dir, "17-clue.txt", 983, 50));
    puzzles.extend(shared_sample(&dir, "forum-hardest-1106.txt", 19, 20));
    assert_eq!(puzzles.len(), 120);
    assert_identical_trees(&puzzles, 100_000);
}

/// Independent oracle for "lexicographically smallest": fix cells in
/// row-major order to the smallest digit that keeps the puzzle solvable.
fn lexicographic_first(puzzle: &Board) -> Option<Board> {
    let mut cells = puzzle.cells().to_vec();
    let n = puzzle.size().side() as u8;
    Strategy::Mrv
        .solve(puzzle, None)
        .unwrap()
        .solution
        .as_ref()?;
    for i in 0..cells.len() {
        if cells[i] != 0 {
            continue;
        }
        let d = (1..=n).find(|&d| {
            let mut trial = cells.clone();
            trial[i] = d;
            Board::from_cells(puzzle.size(), trial)
                .is_ok_and(|b| Strategy::Mrv.solve(&b, None).unwrap().outcome == Outcome::Solved)
        })?;
        cells[i] = d;
    }
    Board::from_cells(puzzle.size(), cells).ok()
}

#[test]
fn row_major_rungs_return_the_lexicographically_smallest_solution() {
    // Sparse puzzles have many solutions, so the order really matters.
    let mut puzzles = random_puzzles(size(3), 60, 18, 30, 11);
    puzzles.extend(random_puzzles(size(2), 60, 0, 6, 12));
    let mut multi = 0;
    for puzzle in &puzzles {
        let expected = lexicographic_first(puzzle);
        if Strategy::Mrv.count(puzzle, 2, None).unwrap().solutions > 1 {
            multi += 1;
        }
        for &s in Strategy::ALL.iter().filter(|s| s.is_row_major()) {
            let run = s.solve(puzzle, Some(2_000_000)).unwrap();
            if run.outcome == Outcome::BudgetExceeded {
                continue;
            }
            assert_eq!(run.solution, expected, "{s} on {}", to_line(puzzle));
        }
    }
    assert!(multi > 80, "only {multi} puzzles had several solutions");
}

#[test]
fn all_strategies_agree_on_uniquely_solvable_puzzles() {
    let mut puzzles = random_puzzles(size(3), 300, 28, 40, 21);
    puzzles.extend(random_puzzles(size(2), 100, 4, 8, 22));
    let mut unique = 0;
    for puzzle in &puzzles {
        if Strategy::Mrv.count(puzzle, 2, None).unwrap().solutions != 1 {
            continue;
        }
        unique += 1;
        let expected = Strategy::Mrv.solve(puzzle, None).unwrap().solution;
        for &s in Strategy::ALL.iter().filter(|s| s.supports(puzzle.size())) {
            let run = s.solve(puzzle, Some(2_000_000)).unwrap();
            if run.outcome == Outcome::BudgetExceeded && s.is_row_major() {
                continue;
            }
            assert_eq!(run.solution, expected, "{s} on {}", to_line(puzzle));
            let count = s.count(puzzle, 2, Some(5_000_000)).unwrap();
            if count.end != End::BudgetExceeded {
                assert_eq!((count.end, count.solutions), (End::Exhausted, 1), "{s}");
            }
        }
    }
    assert!(unique >= 60, "only {unique} unique puzzles");
}

#[test]
fn first_five_rungs_keep_one_placement_per_blank_on_the_solution_path() {
    let rungs = [
        Strategy::Naive,
        Strategy::BlankList,
        Strategy::UsedTables,
        Strategy::Bitmask,
        Strategy::Mrv,
    ];
    for puzzle in random_puzzles(size(3), 40, 28, 40, 41) {
        let blanks = puzzle.cells().iter().filter(|&&v| v == 0).count() as u64;
        for s in rungs {
            let run = s.solve(&puzzle, Some(1_000_000)).unwrap();
            if run.outcome == Outcome::Solved {
                let c = run.counts;
                assert_eq!(c.placements - c.backtracks, blanks, "{s}");
                assert_eq!(
                    c.nodes,
                    c.placements + 1,
                    "{s}: each node but the root is entered by a placement"
                );
            }
        }
    }
}

#[test]
fn sixteen_by_sixteen_and_four_by_four_solve_with_every_strategy() {
    for (b, clues, seed) in [(2, 6, 61), (4, 160, 62), (4, 200, 63)] {
        for puzzle in random_puzzles(size(b), 5, clues, clues, seed) {
            for &s in Strategy::ALL.iter().filter(|s| s.supports(puzzle.size())) {
                let run = s.solve(&puzzle, Some(5_000_000)).unwrap();
                // A subset of a valid grid always has a solution; the row-major
                // rungs may run out of budget on 16x16, the others may not.
                if s.is_row_major() && run.outcome == Outcome::BudgetExceeded {
                    continue;
                }
                assert_eq!(run.outcome, Outcome::Solved, "{s} on {b}x{b}");
            }
        }
    }
}

#[test]
#[should_panic(expected = "strategy fast does not support 4x4 boards")]
fn the_library_refuses_an_unsupported_size_instead_of_substituting() {
    let empty = Board::empty(size(2));
    Strategy::Fast.run(&empty, Limits::solve(None), NoCount);
}
