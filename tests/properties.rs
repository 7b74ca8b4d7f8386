//! Property tests over seeded random puzzles of every size (4×4..25×25),
//! driven by the registry (`Strategy::ALL`, respecting `supports`):
//!
//! * every strategy returns a legal completion of the givens, or — only the
//!   row-major rungs, and plain MRV on 16×16/25×25 (see
//!   `robust_support::MAY_EXCEED_ON_BIG_BOARDS`) — reports budget-exceeded, never a false
//!   "solved" or "no solution";
//! * solution counts (up to a limit) agree across strategies and with
//!   independent oracles (all 288 4×4 grids; the `sudoku` crate for 9×9);
//! * parse → print → parse is the identity for every layout and size.
//!
//! Puzzles are random solved grids (core_support) with random clues removed,
//! so every one has at least one solution.

mod core_support;
mod robust_support;

use std::cell::Cell as StdCell;

use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use robust_support::{config, may_exceed, render_file};
use sudoku_lab::base::format::{parse_str, render, to_line};
use sudoku_lab::{Board, BoxSize, End, Format, Outcome, Strategy};

/// Node budget for one solve or count. Strategies allowed to run out get a
/// small budget where they may (their trees explode there); every other
/// strategy must finish within a generous one.
fn budget(s: Strategy, size: BoxSize) -> u64 {
    match (s.is_row_major(), size.side()) {
        (true, 4) => 1_000_000,
        (true, 9) => 200_000,
        (true, _) => 20_000,
        (false, _) if may_exceed(s, size) => 100_000,
        (false, _) => 2_000_000,
    }
}

fn strategies(size: BoxSize) -> impl Iterator<Item = Strategy> {
    Strategy::ALL
        .iter()
        .copied()
        .filter(move |s| s.supports(size))
}

/// A random puzzle: a random solved grid of `size` keeping `clues` givens.
fn puzzle(size: BoxSize, seed: u64, clues: usize) -> Board {
    core_support::random_puzzle(size, clues, &mut ChaCha8Rng::seed_from_u64(seed))
}

/// Solves `puzzle` with every strategy and checks each outcome.
/// Returns how many runs ran out of budget.
fn every_strategy_completes(puzzle: &Board) -> Result<u32, TestCaseError> {
    let size = puzzle.size();
    let mut exceeded = 0;
    for s in strategies(size) {
        let b = budget(s, size);
        let run = s
            .solve(puzzle, Some(b))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(
            run.counts.nodes <= b,
            "{s}: {} nodes > budget {b}",
            run.counts.nodes
        );
        match run.outcome {
            Outcome::Unsupported => prop_assert!(false, "{s}: a run never reports unsupported"),
            o @ (Outcome::WrongAnswer
            | Outcome::TimeLimit
            | Outcome::Crashed
            | Outcome::BadOutput) => {
                prop_assert!(
                    false,
                    "{s}: {o} is an outside program's outcome, never a rung's"
                )
            }
            Outcome::Solved => {
                let sol = run.solution.as_ref();
                prop_assert!(sol.is_some(), "{s}: solved without a solution");
                // Checked again here, independently of the strategy layer.
                prop_assert_eq!(puzzle.check_solution(sol.unwrap()), Ok(()), "{}", s);
                prop_assert_eq!((run.end, run.solutions), (End::SolutionLimit, 1), "{}", s);
            }
            Outcome::BudgetExceeded => {
                prop_assert!(
                    may_exceed(s, size),
                    "{s} ran out of its {b}-node budget on {puzzle:?}"
                );
                prop_assert!(run.solution.is_none(), "{}", s);
                prop_assert_eq!(
                    (run.end, run.counts.nodes),
                    (End::BudgetExceeded, b),
                    "{}",
                    s
                );
                exceeded += 1;
            }
            Outcome::NoSolution => {
                prop_assert!(false, "{s} found no solution for a solvable {puzzle:?}")
            }
        }
    }
    Ok(exceeded)
}

/// Runs the completion property on `cases` puzzles of one size, with clue
/// counts drawn from the whole range (0 givens to a full grid).
fn completion_property(b: usize, cases: u32, seed: u64) {
    let size = core_support::size(b);
    let mut runner = TestRunner::new(config(cases, seed));
    runner
        .run(&(any::<u64>(), 0..=size.cells()), |(seed, clues)| {
            every_strategy_completes(&puzzle(size, seed, clues)).map(|_| ())
        })
        .unwrap();
}

#[test]
fn every_strategy_completes_random_4x4_puzzles() {
    completion_property(2, 300, 0xC0DE_0004);
}

#[test]
fn every_strategy_completes_random_9x9_puzzles() {
    completion_property(3, 120, 0xC0DE_0009);
}

#[test]
fn every_strategy_completes_random_16x16_puzzles() {
    completion_property(4, 24, 0xC0DE_0016);
}

#[test]
fn every_strategy_completes_random_25x25_puzzles() {
    completion_property(5, 10, 0xC0DE_0025);
}

/// Every 4×4 grid, by a plain fill independent of the lab's strategies.
fn all_4x4_grids() -> Vec<[u8; 16]> {
    fn fill(g: &mut [u8; 16], i: usize, out: &mut Vec<[u8; 16]>) {
        if i == 16 {
            out.push(*g);
            return;
        }
        let (r, c) = (i / 4, i % 4);
        for v in 1..=4 {
            let clash = (0..16).any(|j| {
                j < i
                    && g[j] == v
                    && (j / 4 == r || j % 4 == c || (j / 8 == r / 2 && (j % 4) / 2 == c / 2))
            });
            if !clash {
                g[i] = v;
                fill(g, i + 1, out);
            }
        }
        g[i] = 0;
    }
    let mut out = Vec::new();
    fill(&mut [0; 16], 0, &mut out);
    out
}

/// Independent count of solutions, capped at `limit`, where an oracle exists.
fn oracle_count(puzzle: &Board, grids: &[[u8; 16]], limit: u64) -> Option<u64> {
    let cells = puzzle.cells();
    match puzzle.size().side() {
        4 => {
            let n = grids
                .iter()
                .filter(|g| cells.iter().zip(g.iter()).all(|(&v, &w)| v == 0 || v == w))
                .count();
            Some((n as u64).min(limit))
        }
        9 => {
            let s = sudoku::Sudoku::from_bytes_slice(cells).expect("9x9 cells");
            Some(s.solutions_count_up_to(limit as usize) as u64)
        }
        _ => None,
    }
}

/// Counts solutions up to `LIMIT` with every strategy; every run that did not
/// exceed its budget must agree on (how it ended, how many), and with the
/// oracle. Exhausted means an exact count below the limit; SolutionLimit
/// means at least `LIMIT`.
const LIMIT: u64 = 12;

fn counts_agree(puzzle: &Board, grids: &[[u8; 16]]) -> Result<(u32, bool), TestCaseError> {
    let size = puzzle.size();
    let mut answers = Vec::new();
    for s in strategies(size) {
        let run = s
            .count(puzzle, LIMIT, Some(budget(s, size)))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        match run.end {
            End::BudgetExceeded => prop_assert!(may_exceed(s, size), "{s} exceeded on {puzzle:?}"),
            End::Exhausted => prop_assert!(run.solutions < LIMIT),
            End::SolutionLimit => prop_assert_eq!(run.solutions, LIMIT),
        }
        if run.end != End::BudgetExceeded {
            answers.push((s, run.end, run.solutions));
        }
    }
    let oracle = oracle_count(puzzle, grids, LIMIT);
    if let Some(&(first, end, n)) = answers.first() {
        for &(s, e, m) in &answers {
            prop_assert_eq!(
                (e, m),
                (end, n),
                "{} disagrees with {} on {:?}",
                s,
                first,
                puzzle
            );
        }
        if let Some(o) = oracle {
            prop_assert_eq!(n, o, "strategies disagree with the oracle on {:?}", puzzle);
        }
    }
    let exact = answers.len() as u32;
    let small = answers.first().is_some_and(|a| a.1 == End::Exhausted);
    Ok((exact, small))
}

/// Clue ranges near each size's uniqueness threshold, so that many puzzles
/// have a small exact count rather than "at least LIMIT".
fn count_property(b: usize, clues: std::ops::RangeInclusive<usize>, cases: u32, seed: u64) {
    let size = core_support::size(b);
    let grids = all_4x4_grids();
    assert_eq!(grids.len(), 288);
    let exact_cases = StdCell::new(0u32);
    let mut runner = TestRunner::new(config(cases, seed));
    runner
        .run(&(any::<u64>(), clues), |(seed, clues)| {
            let (answers, small) = counts_agree(&puzzle(size, seed, clues), &grids)?;
            if answers >= 2 && small {
                exact_cases.set(exact_cases.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    // The property proves little unless several strategies often gave an
    // exact, below-limit count on the same puzzle.
    assert!(
        exact_cases.get() * 4 >= runner_cases(cases),
        "only {} of {cases} cases had an exact count from two or more strategies",
        exact_cases.get()
    );
}

/// The number of cases the runner actually ran (the environment may override).
fn runner_cases(default: u32) -> u32 {
    config(default, 0).cases
}

#[test]
fn solution_counts_agree_on_4x4() {
    count_property(2, 4..=10, 300, 0xC0DE_1004);
}

#[test]
fn solution_counts_agree_on_9x9() {
    count_property(3, 24..=40, 80, 0xC0DE_1009);
}

#[test]
fn solution_counts_agree_on_16x16() {
    count_property(4, 150..=230, 12, 0xC0DE_1016);
}

#[test]
fn solution_counts_agree_on_25x25() {
    count_property(5, 450..=600, 6, 0xC0DE_1025);
}

/// The layouts each size can be written in (compact only up to 9×9).
fn formats(size: BoxSize) -> Vec<Format> {
    let mut f = vec![Format::Line, Format::Grid];
    if size.side() <= 9 {
        f.push(Format::Compact);
    }
    f
}

fn any_size() -> impl proptest::strategy::Strategy<Value = BoxSize> {
    prop::sample::select(BoxSize::ALL.to_vec())
}

#[test]
fn parse_print_parse_is_the_identity_for_every_layout_and_size() {
    let mut runner = TestRunner::new(config(400, 0xC0DE_2000));
    runner
        .run(
            &(any_size(), any::<u64>(), 0u8..=100, 0usize..3),
            |(size, seed, percent, f)| {
                let board = puzzle(size, seed, size.cells() * percent as usize / 100);
                let formats = formats(size);
                let format = formats[f % formats.len()];
                let text = render(&board, format);
                let (found, ps) =
                    parse_str(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(found, format);
                prop_assert_eq!(ps.len(), 1);
                prop_assert_eq!(&ps[0].board, &board);
                prop_assert_eq!(&render(&ps[0].board, format), &text);
                // The line layout also reads back in lower case.
                if format == Format::Line {
                    let (_, lower) = parse_str(&text.to_lowercase())
                        .map_err(|e| TestCaseError::fail(e.to_string()))?;
                    prop_assert_eq!(&lower[0].board, &board);
                }
                Ok(())
            },
        )
        .unwrap();
}

/// Whole files: several puzzles, names, comments, blank lines, CRLF.
#[test]
fn files_of_several_puzzles_round_trip_with_names() {
    let mut runner = TestRunner::new(config(150, 0xC0DE_2001));
    runner
        .run(
            &(
                any_size(),
                any::<u64>(),
                1usize..=4,
                0usize..3,
                any::<bool>(),
            ),
            |(size, seed, count, f, crlf)| {
                let formats = formats(size);
                let format = formats[f % formats.len()];
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let boards: Vec<(Board, Option<String>)> = (0..count)
                    .map(|i| {
                        let clues = (seed as usize >> 8).wrapping_add(i * 37) % (size.cells() + 1);
                        let b = core_support::random_puzzle(size, clues, &mut rng);
                        (b, (i % 2 == 1).then(|| format!("puzzle #{i} of {count}")))
                    })
                    .collect();
                let text = render_file(&boards, format, crlf);
                let (found, ps) =
                    parse_str(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(found, format);
                prop_assert_eq!(ps.len(), boards.len());
                for (p, (b, name)) in ps.iter().zip(&boards) {
                    prop_assert_eq!(&p.board, b);
                    if format == Format::Line {
                        // Only line puzzles take a trailing comment as a name;
                        // everything after the first '#' is kept, '#' included.
                        prop_assert_eq!(p.name.as_deref(), name.as_deref());
                    }
                }
                let lines: Vec<usize> = ps.iter().map(|p| p.line).collect();
                prop_assert!(lines.windows(2).all(|w| w[0] < w[1]), "{:?}", lines);
                Ok(())
            },
        )
        .unwrap();
}

/// `to_line` is the layout the lab prints for line puzzles; it must use the
/// documented alphabet and exactly one character per cell.
#[test]
fn line_rendering_uses_one_symbol_per_cell() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for size in BoxSize::ALL {
        let grid = core_support::random_puzzle(size, size.cells(), &mut rng);
        let line = to_line(&grid);
        assert_eq!(line.len(), size.cells());
        let mut seen: Vec<char> = line.chars().collect();
        seen.sort();
        seen.dedup();
        let expected: Vec<char> = (1..=size.side() as u8)
            .map(sudoku_lab::base::format::symbol)
            .collect();
        assert_eq!(seen, expected, "{size}");
    }
}

/// Random *consistent* boards, not built from a solution, so many have none:
/// givens are drawn at random and kept when they do not clash. Every run
/// that ends within its budget must match the oracle's count exactly, so
/// "no solution" is checked too. Proving that a sparse board has no solution
/// can take any strategy without inference exponentially long (plain MRV
/// needed over 2M nodes on a 20-given 9×9 found here), so every strategy
/// may run out of the budget below, but most runs must finish.
fn random_consistent(size: BoxSize, seed: u64, tries: usize) -> Board {
    use rand::Rng;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cells = vec![0u8; size.cells()];
    for _ in 0..tries {
        let cell = rng.random_range(0..size.cells());
        let old = cells[cell];
        cells[cell] = rng.random_range(1..=size.side() as u8);
        if Board::from_cells(size, cells.clone()).is_err() {
            cells[cell] = old;
        }
    }
    Board::from_cells(size, cells).expect("kept consistent at every step")
}

#[test]
fn counts_match_the_oracle_on_random_consistent_boards() {
    let grids = all_4x4_grids();
    const SPARSE_BUDGET: u64 = 100_000;
    let (unsolvable, runs, exceeded) = (StdCell::new(0u32), StdCell::new(0u32), StdCell::new(0u32));
    for (b, tries, cases, seed) in [
        (2, 2usize..=12, 300, 0xC0DE_3004u64),
        (3, 20..=45, 80, 0xC0DE_3009),
    ] {
        let size = core_support::size(b);
        let mut runner = TestRunner::new(config(cases, seed));
        runner
            .run(&(any::<u64>(), tries), |(seed, tries)| {
                let puzzle = random_consistent(size, seed, tries);
                let oracle =
                    oracle_count(&puzzle, &grids, LIMIT).expect("4x4 and 9x9 have oracles");
                if oracle == 0 {
                    unsolvable.set(unsolvable.get() + 1);
                }
                for s in strategies(size) {
                    let run = s
                        .count(&puzzle, LIMIT, Some(SPARSE_BUDGET))
                        .map_err(|e| TestCaseError::fail(e.to_string()))?;
                    runs.set(runs.get() + 1);
                    match run.end {
                        End::BudgetExceeded => {
                            prop_assert_eq!(run.counts.nodes, SPARSE_BUDGET);
                            exceeded.set(exceeded.get() + 1);
                        }
                        _ => prop_assert_eq!(run.solutions, oracle, "{} on {:?}", s, puzzle),
                    }
                    let expected = if oracle > 0 {
                        Outcome::Solved
                    } else {
                        Outcome::NoSolution
                    };
                    if run.end != End::BudgetExceeded {
                        prop_assert_eq!(run.outcome, expected, "{} on {:?}", s, puzzle);
                    }
                }
                Ok(())
            })
            .unwrap();
    }
    // Both solvable and unsolvable boards must have been drawn, and most
    // runs must have given an exact answer.
    let (u, r, e) = (unsolvable.get(), runs.get(), exceeded.get());
    eprintln!("{u} unsolvable boards; {e} of {r} runs out of budget");
    assert!(u >= 40, "only {u} unsolvable boards");
    assert!(e * 10 <= r, "{e} of {r} runs ran out of budget");
}
