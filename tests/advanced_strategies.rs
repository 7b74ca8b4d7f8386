//! `propagate` and `dlx`: correctness against `mrv` and an independent solver,
//! solution counting, every size, deep 25×25 searches on a default thread
//! stack, counter invariants, and the public corpora (when available).

mod core_support;

use std::path::PathBuf;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudoku_lab::base::format::{parse_one, to_line};
use sudoku_lab::io::Dataset;
use sudoku_lab::{Board, BoxSize, Counts, End, Limits, NoCount, Outcome, Strategy};

const NEW: [Strategy; 2] = [Strategy::Propagate, Strategy::Dlx];

fn board(text: &str) -> Board {
    parse_one(text).expect("test puzzle parses").1.board
}

fn size(b: usize) -> BoxSize {
    BoxSize::new(b).expect("box size 2..=5")
}

fn blanks(puzzle: &Board) -> u64 {
    puzzle.cells().iter().filter(|&&v| v == 0).count() as u64
}

use core_support::random_grid;

/// `count` puzzles with `clues` givens kept from random valid grids.
fn random_puzzles(sz: BoxSize, count: usize, clues: usize, seed: u64) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let mut cells = random_grid(sz, &mut rng);
            let mut order: Vec<usize> = (0..cells.len()).collect();
            order.shuffle(&mut rng);
            for &i in &order[clues..] {
                cells[i] = 0;
            }
            Board::from_cells(sz, cells).expect("subset of a valid grid")
        })
        .collect()
}

/// Uniquely solvable 9×9 puzzles: givens removed from a random grid in
/// random order as long as the puzzle stays unique (checked with `mrv`),
/// stopping at `clues` givens or when no more can go.
fn unique_puzzles(count: usize, clues: usize, seed: u64) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let mut cells = random_grid(size(3), &mut rng);
            let mut order: Vec<usize> = (0..81).collect();
            order.shuffle(&mut rng);
            let mut left = 81;
            for i in order {
                if left == clues {
                    break;
                }
                let keep = cells[i];
                cells[i] = 0;
                let b = Board::from_cells(size(3), cells.clone()).unwrap();
                if Strategy::Mrv.count(&b, 2, None).unwrap().solutions == 1 {
                    left -= 1;
                } else {
                    cells[i] = keep;
                }
            }
            Board::from_cells(size(3), cells).unwrap()
        })
        .collect()
}

/// Consistent puzzles that often have no solution: a random puzzle with one
/// given changed to another digit that does not clash directly.
fn perturbed_puzzles(count: usize, clues: usize, seed: u64) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for p in random_puzzles(size(3), count, clues, seed) {
        let givens: Vec<usize> = (0..81).filter(|&i| p.cells()[i] != 0).collect();
        for _ in 0..50 {
            let mut cells = p.cells().to_vec();
            let i = givens[rng.random_range(0..givens.len())];
            cells[i] = rng.random_range(1..=9);
            if let Ok(b) = Board::from_cells(size(3), cells)
                && b != p
            {
                out.push(b);
                break;
            }
        }
    }
    out
}

/// Counts with `s` and with `mrv` and asserts the same (end, solutions) and,
/// for unique puzzles, the same solution. Returns mrv's count.
fn assert_counts_like_mrv(s: Strategy, puzzle: &Board, limit: u64) -> u64 {
    let want = Strategy::Mrv.count(puzzle, limit, None).unwrap();
    let got = s.count(puzzle, limit, None).unwrap();
    assert_eq!(
        (got.end, got.solutions),
        (want.end, want.solutions),
        "{s} counting {}",
        to_line(puzzle)
    );
    if want.solutions == 1 && want.end == End::Exhausted {
        assert_eq!(got.solution, want.solution, "{s} on {}", to_line(puzzle));
    }
    want.solutions
}

const EASTER_MONSTER: &str =
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1";

#[test]
fn known_puzzles_solve_and_count() {
    let cases: &[(&str, u64)] = &[
        (EASTER_MONSTER, 1),
        // Golden Nugget, AI Escargot, Inkala 2012.
        (
            ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
            1,
        ),
        (
            "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
            1,
        ),
        (
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            1,
        ),
        // Consistent but r1c9 has no candidate.
        (
            "12345678.........9...............................................................",
            0,
        ),
        // Golden Nugget's grid thinned to exactly two solutions.
        (
            ".5.8.6.39.9.3.14.5.4.25.8.1.3..9.5.6..4.6.3.81.5.3.92.3.9.84.5.5.79.3.8.4..7.5.9.",
            2,
        ),
        ("................", 288),
        ("12..\n..3.\n....\n.3..\n", 0),
    ];
    for &(text, solutions) in cases {
        let puzzle = board(text);
        for s in NEW {
            let run = s.solve(&puzzle, None).unwrap();
            let expect = if solutions > 0 {
                Outcome::Solved
            } else {
                Outcome::NoSolution
            };
            assert_eq!(run.outcome, expect, "{s} on {text}");
            let count = s.count(&puzzle, 1000, None).unwrap();
            assert_eq!(
                (count.end, count.solutions),
                (End::Exhausted, solutions),
                "{s} on {text}"
            );
            assert_counts_like_mrv(s, &puzzle, 1000);
        }
    }
}

#[test]
fn solutions_agree_with_the_reference_solver() {
    for text in [
        EASTER_MONSTER,
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    ] {
        let puzzle = board(text);
        let reference = sudoku::Sudoku::from_str_line(text)
            .unwrap()
            .solution()
            .expect("unique");
        for s in NEW {
            let ours = s.solve(&puzzle, None).unwrap().solution.unwrap();
            assert_eq!(to_line(&ours), reference.to_str_line().to_string(), "{s}");
        }
    }
}

#[test]
fn counts_match_mrv_on_random_9x9_puzzles() {
    let (mut none, mut unique, mut multi) = (0, 0, 0);
    let mut puzzles = Vec::new();
    for (k, clues) in (17..=36).step_by(3).enumerate() {
        puzzles.extend(random_puzzles(size(3), 25, clues, 100 + k as u64));
    }
    puzzles.extend(perturbed_puzzles(60, 30, 7));
    puzzles.extend(unique_puzzles(20, 22, 8));
    for puzzle in &puzzles {
        for s in NEW {
            match assert_counts_like_mrv(s, puzzle, 25) {
                0 => none += 1,
                1 => unique += 1,
                _ => multi += 1,
            }
        }
    }
    // The sample must exercise all three cases, or the test proves little.
    assert!(
        none >= 20 && unique >= 20 && multi >= 40,
        "{none} {unique} {multi}"
    );
}

#[test]
fn counts_match_mrv_exhaustively_on_4x4() {
    let mut total = 0;
    for clues in 0..=8 {
        for puzzle in random_puzzles(size(2), 20, clues, 200 + clues as u64) {
            for s in NEW {
                total += assert_counts_like_mrv(s, &puzzle, 1000);
            }
        }
    }
    assert!(total > 1000, "{total}");
}

#[test]
fn sixteen_and_twenty_five_solve_and_agree_with_mrv() {
    for (b, count, clues, seed) in [(4, 6, 110, 301), (4, 6, 180, 302), (5, 2, 400, 303)] {
        for puzzle in random_puzzles(size(b), count, clues, seed) {
            for s in NEW {
                let run = s.solve(&puzzle, Some(2_000_000)).unwrap();
                assert_eq!(run.outcome, Outcome::Solved, "{s} on {b}x{b}");
            }
            // Count to 2 with both and compare (mrv alone may need many nodes
            // on sparse 16x16, so compare the two new rungs with each other).
            let a = Strategy::Propagate
                .count(&puzzle, 2, Some(2_000_000))
                .unwrap();
            let d = Strategy::Dlx.count(&puzzle, 2, Some(2_000_000)).unwrap();
            assert_eq!((a.end, a.solutions), (d.end, d.solutions));
        }
    }
    for b in [4, 5] {
        let empty = Board::empty(size(b));
        for s in NEW {
            let run = s.solve(&empty, Some(100_000)).unwrap();
            assert_eq!(run.outcome, Outcome::Solved, "{s} on empty {b}x{b}");
        }
    }
}

/// The search recurses once per branching level; a near-empty 25×25 board
/// goes hundreds of levels deep. Each must fit a default (2 MiB) thread stack.
#[test]
fn deep_25x25_searches_fit_a_default_thread_stack() {
    let mut puzzle = random_puzzles(size(5), 1, 8, 401).remove(0);
    // Near-empty but with a few givens so it is not the trivial empty board.
    assert_eq!(blanks(&puzzle), 625 - 8);
    for s in NEW {
        let p = puzzle.clone();
        let run = std::thread::spawn(move || s.solve(&p, Some(200_000)).unwrap())
            .join()
            .expect("search thread must not overflow its stack");
        assert_eq!(run.outcome, Outcome::Solved, "{s}");
        let depth = run.counts.placements - run.counts.backtracks;
        println!(
            "{s}: {} nodes, solution path {depth} placements deep",
            run.counts.nodes
        );
        assert!(depth >= 100, "{s}: path only {depth} placements deep");
    }
    puzzle = Board::empty(size(5));
    for s in NEW {
        let p = puzzle.clone();
        let run = std::thread::spawn(move || s.count(&p, 3, Some(200_000)).unwrap())
            .join()
            .expect("search thread must not overflow its stack");
        assert_eq!((run.end, run.solutions), (End::SolutionLimit, 3), "{s}");
    }
}

#[test]
fn counters_follow_each_rung_s_definitions() {
    let mut puzzles = random_puzzles(size(3), 20, 24, 501);
    puzzles.extend(unique_puzzles(15, 36, 502));
    puzzles.extend(unique_puzzles(15, 24, 503));
    puzzles.push(board(EASTER_MONSTER));
    let mut singles_only = 0;
    for puzzle in &puzzles {
        let p = Strategy::Propagate.solve(puzzle, None).unwrap();
        let d = Strategy::Dlx.solve(puzzle, None).unwrap();
        assert_eq!(p.outcome, Outcome::Solved);
        assert_eq!(d.outcome, Outcome::Solved);
        let (pc, dc) = (p.counts, d.counts);
        // dlx has no inference: every blank is a placement on the final path.
        assert_eq!(dc.forced, 0);
        assert_eq!(dc.placements - dc.backtracks, blanks(puzzle));
        assert_eq!(dc.nodes, dc.placements + 1);
        // propagate: every blank was forced or placed; each node but the
        // root is entered by one placement.
        assert!(pc.placements - pc.backtracks + pc.forced >= blanks(puzzle));
        assert_eq!(pc.nodes, pc.placements + 1);
        assert!(pc.probes > 0 && dc.probes > 0);
        if pc.guesses == 0 {
            // Singles alone solve it: every blank forced, one node; and dlx's
            // shortest column then always has one option: no guess either.
            singles_only += 1;
            assert_eq!((pc.nodes, pc.forced), (1, blanks(puzzle)));
            assert_eq!((dc.guesses, dc.dead_ends), (0, 0));
        }
        for s in NEW {
            let limits = Limits::count(3, Some(100_000));
            let counted = s.run(puzzle, limits, Counts::default());
            let timed = s.run(puzzle, limits, NoCount);
            assert_eq!(
                (counted.nodes, counted.end, counted.solutions, counted.first),
                (timed.nodes, timed.end, timed.solutions, timed.first),
                "{s}"
            );
        }
    }
    assert!(
        singles_only >= 5,
        "only {singles_only} singles-only puzzles"
    );
}

/// Exact trees on one famous puzzle: a change in either search shows here.
#[test]
fn exact_counts_on_easter_monster() {
    let puzzle = board(EASTER_MONSTER);
    let tree = |s: Strategy| {
        let c = s.solve(&puzzle, None).unwrap().counts;
        [
            c.nodes,
            c.placements,
            c.backtracks,
            c.guesses,
            c.dead_ends,
            c.forced,
        ]
    };
    assert_eq!(tree(Strategy::Propagate), PROPAGATE_EASTER_MONSTER);
    assert_eq!(tree(Strategy::Dlx), DLX_EASTER_MONSTER);
}

const PROPAGATE_EASTER_MONSTER: [u64; 6] = [179, 178, 168, 178, 85, 1341];
const DLX_EASTER_MONSTER: [u64; 6] = [2468, 2467, 2407, 310, 151, 0];

/// The corpora directory under the SUDOKU_LAB_SHARED rule: `None` (skip) only
/// outside CI.
fn shared_dir() -> Option<PathBuf> {
    match std::env::var_os("SUDOKU_LAB_SHARED") {
        Some(dir) => Some(PathBuf::from(dir)),
        None if std::env::var_os("CI").is_none() => {
            println!("skipped: SUDOKU_LAB_SHARED not set");
            None
        }
        None => panic!("CI is set but SUDOKU_LAB_SHARED is not"),
    }
}

fn load(dir: &std::path::Path, file: &str) -> Vec<Board> {
    let path = dir.join(file);
    let ds =
        Dataset::load(&path).unwrap_or_else(|e| panic!("cannot load {}: {e:#}", path.display()));
    ds.puzzles.into_iter().map(|p| p.board).collect()
}

/// Every puzzle of forum-hardest and top1465 and every 25th 17-clue puzzle:
/// both rungs solve it, the solution is verified (inside `solve`) and equals
/// the independent reference solver's unique solution.
#[test]
fn public_corpora_solve_with_verified_solutions() {
    let Some(dir) = shared_dir() else { return };
    let mut puzzles = load(&dir, "forum-hardest-1106.txt");
    assert_eq!(puzzles.len(), 375);
    puzzles.extend(load(&dir, "top1465.txt"));
    let clue17 = load(&dir, "17-clue.txt");
    assert!(clue17.len() > 49_000);
    puzzles.extend(clue17.into_iter().step_by(25));
    for (i, puzzle) in puzzles.iter().enumerate() {
        let line = to_line(puzzle);
        let reference = sudoku::Sudoku::from_str_line(&line)
            .unwrap()
            .solution()
            .expect("corpus puzzles are unique")
            .to_str_line()
            .to_string();
        for s in NEW {
            let run = s.solve(puzzle, Some(10_000_000)).unwrap();
            let ours = run.solution.as_ref().map(to_line);
            assert_eq!(ours.as_deref(), Some(&reference[..]), "{s} on {line}");
        }
        if i % 10 == 0 {
            for s in NEW {
                let c = s.count(puzzle, 2, Some(10_000_000)).unwrap();
                assert_eq!((c.end, c.solutions), (End::Exhausted, 1), "{s} on {line}");
            }
        }
    }
}
