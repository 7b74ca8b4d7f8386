//! The shared fixture table, run against every strategy in the registry, and
//! the ladder's invariants on a few hundred puzzles.

mod core_support;

use core_support::{board, random_puzzles, shared_dir, shared_sample, size};
use sudoku_lab::format::to_line;
use sudoku_lab::{Board, Counts, End, Limits, NoCount, Outcome, Strategy};

/// Budget for the row-major rungs on the hard fixtures, far above what any
/// fixture needs (the largest below needs ~1.1M nodes).
const FIXTURE_BUDGET: u64 = 20_000_000;

struct Fixture {
    name: &'static str,
    puzzle: &'static str,
    /// Exact number of solutions.
    solutions: u64,
    /// The lexicographically smallest solution, if any.
    solution: Option<&'static str>,
}

const FIXTURES: &[Fixture] = &[
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

fn fixture_boards() -> Vec<(&'static Fixture, Board)> {
    FIXTURES.iter().map(|f| (f, board(f.puzzle))).collect()
}

#[test]
fn every_strategy_solves_and_counts_the_fixture_table() {
    for (f, puzzle) in fixture_boards() {
        for &s in Strategy::ALL.iter().filter(|s| s.supports(puzzle.size())) {
            let run = s.solve(&puzzle, Some(FIXTURE_BUDGET)).unwrap();
            let expect = if f.solutions > 0 {
                Outcome::Solved
            } else {
                Outcome::NoSolution
            };
            assert_eq!(run.outcome, expect, "{s} on {}", f.name);
            if f.solutions == 1 {
                let sol = f.solution.map(board).or_else(|| {
                    let mrv = Strategy::Mrv.solve(&puzzle, None).unwrap();
                    mrv.solution
                });
                assert_eq!(run.solution, sol, "{s} on {}", f.name);
            }
            let count = s.count(&puzzle, 1000, Some(FIXTURE_BUDGET)).unwrap();
            assert_eq!(count.end, End::Exhausted, "{s} counting {}", f.name);
            assert_eq!(count.solutions, f.solutions, "{s} counting {}", f.name);
        }
    }
}

#[test]
fn row_major_rungs_return_the_listed_lexicographically_first_solution() {
    for (f, puzzle) in fixture_boards() {
        let Some(expected) = f.solution else { continue };
        for &s in Strategy::ALL.iter().filter(|s| s.is_row_major()) {
            let run = s.solve(&puzzle, Some(FIXTURE_BUDGET)).unwrap();
            assert_eq!(
                run.solution.as_ref().map(to_line).as_deref(),
                Some(expected),
                "{s} on {}",
                f.name
            );
        }
    }
}

/// The fixture solutions of the famous puzzles agree with an independent
/// solver (the `sudoku` crate, a JCZSolve port), so the table is not just
/// checked against itself.
#[test]
fn fixture_solutions_agree_with_the_reference_solver() {
    for f in FIXTURES.iter().filter(|f| f.solutions == 1) {
        let puzzle = board(f.puzzle);
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
fn counters_are_consistent() {
    for puzzle in random_puzzles(size(3), 50, 25, 40, 31) {
        for &s in Strategy::ALL {
            let run = s.solve(&puzzle, Some(1_000_000)).unwrap();
            let c = run.counts;
            assert!(c.backtracks <= c.placements, "{s}");
            assert!(c.guesses <= c.placements, "{s}");
            assert!(c.dead_ends < c.nodes, "{s}");
            if run.outcome == Outcome::Solved {
                // Every cell was a given, forced or is still placed.
                let blanks = puzzle.cells().iter().filter(|&&v| v == 0).count() as u64;
                assert!(c.placements - c.backtracks + c.forced >= blanks, "{s}");
            }
        }
    }
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
fn node_budget_is_exact_and_distinct_from_no_solution() {
    let puzzle = board(FIXTURES[2].puzzle); // Easter Monster
    for &s in Strategy::ALL.iter().filter(|s| s.supports(puzzle.size())) {
        let full = s.solve(&puzzle, Some(FIXTURE_BUDGET)).unwrap();
        assert_eq!(full.outcome, Outcome::Solved, "{s}");
        let needed = full.counts.nodes;
        // Exactly enough nodes: solved. One fewer: budget exceeded.
        let exact = s.run(&puzzle, Limits::solve(Some(needed)), NoCount);
        assert_eq!((exact.end, exact.solutions), (End::SolutionLimit, 1), "{s}");
        if needed > 1 {
            let short = s.solve(&puzzle, Some(needed - 1)).unwrap();
            assert_eq!(short.outcome, Outcome::BudgetExceeded, "{s}");
            assert_eq!(short.counts.nodes, needed - 1, "{s}");
            assert!(short.solution.is_none());
        }
    }
}

#[test]
fn counted_and_uncounted_runs_visit_the_same_nodes() {
    for puzzle in random_puzzles(size(3), 30, 24, 36, 51) {
        for &s in Strategy::ALL {
            let limits = Limits::count(3, Some(500_000));
            let counted = s.run(&puzzle, limits, Counts::default());
            let timed = s.run(&puzzle, limits, NoCount);
            assert_eq!(
                (counted.nodes, counted.end, counted.solutions, counted.first),
                (timed.nodes, timed.end, timed.solutions, timed.first),
                "{s}"
            );
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
