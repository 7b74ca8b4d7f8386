//! Adversarial puzzles, under every strategy in the registry (respecting
//! `supports`): empty boards, full and one-blank boards, conflicting givens,
//! consistent boards with no solution (shallow and deep), boards with
//! millions of solutions, and 25×25 near-empty boards searched on a thread
//! with a 2 MiB stack. Every search ends within its node budget with the
//! right outcome; only the row-major rungs (and plain MRV on 16×16/25×25,
//! see `robust_support::MAY_EXCEED_ON_BIG_BOARDS`) may run out of budget,
//! and that is reported as such.

mod core_support;
mod robust_support;

use std::process::Command;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use robust_support::may_exceed;
use sudoku_lab::base::format::{ParseErrorKind, parse_str, to_line};
use sudoku_lab::base::{BoardError, UnitKind};
use sudoku_lab::{Board, BoxSize, Cell, End, Format, Outcome, Run, Strategy};

fn strategies(size: BoxSize) -> impl Iterator<Item = Strategy> {
    Strategy::ALL
        .iter()
        .copied()
        .filter(move |s| s.supports(size))
}

/// A budget that keeps every search here bounded. Strategies allowed to run
/// out get less where they may (per node they cost a board scan); the others
/// must finish within a generous one.
fn budget(s: Strategy, size: BoxSize) -> u64 {
    match (s.is_row_major(), size.side()) {
        (true, 4 | 9) => 200_000,
        (true, _) => 20_000,
        (false, _) if may_exceed(s, size) => 100_000,
        (false, _) => 1_000_000,
    }
}

/// Solves with a budget; checks the run's bookkeeping whatever the outcome.
fn solve(s: Strategy, puzzle: &Board) -> Run {
    let b = budget(s, puzzle.size());
    let run = s.solve(puzzle, Some(b)).unwrap_or_else(|e| panic!("{e}"));
    assert!(run.counts.nodes <= b, "{s}: {} > {b}", run.counts.nodes);
    match run.outcome {
        Outcome::Solved => {
            let sol = run
                .solution
                .as_ref()
                .expect("solved runs carry the solution");
            assert_eq!(puzzle.check_solution(sol), Ok(()), "{s}");
        }
        Outcome::BudgetExceeded => {
            assert!(run.solution.is_none());
            assert_eq!((run.end, run.counts.nodes), (End::BudgetExceeded, b), "{s}");
        }
        Outcome::Unsupported => panic!("{s}: a run never reports unsupported"),
        o @ (Outcome::WrongAnswer | Outcome::TimeLimit | Outcome::Crashed | Outcome::BadOutput) => {
            panic!("{s}: {o} is an outside program's outcome, never a rung's")
        }
        Outcome::NoSolution => {
            assert!(run.solution.is_none());
            assert_eq!(run.end, End::Exhausted, "{s}");
        }
    }
    run
}

/// Solvable: solved, or (where allowed) budget exceeded.
fn assert_solvable(s: Strategy, puzzle: &Board, what: &str) -> Run {
    let run = solve(s, puzzle);
    let ok = run.outcome == Outcome::Solved
        || (may_exceed(s, puzzle.size()) && run.outcome == Outcome::BudgetExceeded);
    assert!(
        ok,
        "{s} on {what}: {} after {} nodes",
        run.outcome, run.counts.nodes
    );
    run
}

/// Unsolvable: no solution, or (where allowed) budget exceeded.
fn assert_unsolvable(s: Strategy, puzzle: &Board, what: &str) {
    let run = solve(s, puzzle);
    let ok = run.outcome == Outcome::NoSolution
        || (may_exceed(s, puzzle.size()) && run.outcome == Outcome::BudgetExceeded);
    assert!(
        ok,
        "{s} on {what}: {} after {} nodes",
        run.outcome, run.counts.nodes
    );
}

#[test]
fn empty_boards_of_every_size() {
    for size in BoxSize::ALL {
        let empty = Board::empty(size);
        for s in strategies(size) {
            assert_solvable(s, &empty, &format!("empty {size}"));
            // An empty board has many solutions: counting stops at the limit.
            let run = s.count(&empty, 2, Some(budget(s, size))).unwrap();
            if run.end != End::BudgetExceeded {
                assert_eq!(
                    (run.end, run.solutions),
                    (End::SolutionLimit, 2),
                    "{s} {size}"
                );
            } else {
                assert!(
                    may_exceed(s, size),
                    "{s} exceeded its budget counting empty {size}"
                );
            }
        }
    }
    // Small boards must be solved by every rung, row-major included.
    for size in [BoxSize::ALL[0], BoxSize::NINE] {
        for s in strategies(size) {
            assert_eq!(
                solve(s, &Board::empty(size)).outcome,
                Outcome::Solved,
                "{s} {size}"
            );
        }
    }
}

#[test]
fn full_and_one_blank_boards() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for size in BoxSize::ALL {
        let grid = core_support::random_grid(size, &mut rng);
        let full = Board::from_cells(size, grid.clone()).unwrap();
        let mut one = grid.clone();
        one[size.cells() - 1] = 0;
        let one = Board::from_cells(size, one).unwrap();
        for s in strategies(size) {
            for puzzle in [&full, &one] {
                let run = s.count(puzzle, 10, None).unwrap();
                assert_eq!((run.end, run.solutions), (End::Exhausted, 1), "{s} {size}");
                assert_eq!(run.solution.as_ref(), Some(&full), "{s} {size}");
            }
        }
    }
}

/// Two cells sharing `kind` (and, for a box, neither a row nor a column).
fn conflict_pair(size: BoxSize, kind: UnitKind) -> (usize, usize) {
    let (b, n) = (size.box_size(), size.side());
    match kind {
        // Row 2: columns 1 and n.
        UnitKind::Row => (n, 2 * n - 1),
        // Column n: rows 1 and n.
        UnitKind::Column => (n - 1, n * n - 1),
        // Last box: its first cell and its last cell.
        UnitKind::Box => {
            let origin = (n - b) * n + (n - b);
            (origin, origin + (b - 1) * n + (b - 1))
        }
    }
}

#[test]
fn conflicting_givens_are_rejected_naming_both_cells() {
    for size in BoxSize::ALL {
        let g = size.geometry();
        for kind in [UnitKind::Row, UnitKind::Column, UnitKind::Box] {
            let (first, second) = conflict_pair(size, kind);
            let digit = size.side() as u8;
            let mut cells = vec![0; size.cells()];
            cells[first] = digit;
            cells[second] = digit;
            let err = Board::from_cells(size, cells.clone()).unwrap_err();
            let BoardError::Conflict(c) = err else {
                panic!("{size} {kind}: {err}")
            };
            assert_eq!(
                (c.first, c.second, c.digit),
                (Cell(first as u16), Cell(second as u16), digit)
            );
            assert_eq!(c.unit.kind, kind);
            // Through the parser, in every layout: both cells by name and position.
            for format in [Format::Line, Format::Grid, Format::Compact] {
                if format == Format::Compact && size.side() > 9 {
                    continue;
                }
                let text = with_values(format, size, &cells);
                let err = parse_str(&text).unwrap_err();
                assert!(matches!(err.kind, ParseErrorKind::Conflict(_)), "{err}");
                let msg = err.to_string();
                for cell in [first, second] {
                    assert!(
                        msg.contains(&g.name(Cell(cell as u16))),
                        "{format} {size}: {msg}"
                    );
                }
                assert!(msg.contains(&format!("in {kind} ")), "{msg}");
            }
        }
    }
}

/// Raw values (possibly inconsistent) written in a layout, as `render` would.
fn with_values(format: Format, size: BoxSize, cells: &[u8]) -> String {
    let sym = sudoku_lab::base::format::symbol;
    let n = size.side();
    match format {
        Format::Line => cells.iter().map(|&v| sym(v)).collect(),
        Format::Compact => cells
            .chunks(n)
            .map(|r| {
                r.iter()
                    .map(|&v| if v == 0 { '0' } else { sym(v) })
                    .collect::<String>()
                    + "\n"
            })
            .collect(),
        Format::Grid => cells
            .chunks(n)
            .map(|r| {
                r.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect(),
    }
}

/// A consistent board whose cell `target` has no candidate: its row holds
/// every digit but `n`, and `n` sits in its column, outside its band.
fn no_candidate_at(size: BoxSize, row: usize) -> Board {
    let (b, n) = (size.box_size(), size.side());
    let mut cells = vec![0u8; n * n];
    for c in 0..n - 1 {
        cells[row * n + c] = c as u8 + 1;
    }
    let other_row = (row + b) % n;
    cells[other_row * n + n - 1] = n as u8;
    Board::from_cells(size, cells).expect("consistent by construction")
}

/// The two blanks of row 1 (first and last column, different boxes) both
/// need the digit `n`: every other digit but `n-1` is in the row, and `n-1`
/// sits in both their columns. Consistent; no single cell shows it.
fn two_cells_one_digit(size: BoxSize) -> Board {
    let (b, n) = (size.box_size(), size.side());
    let mut cells = vec![0u8; n * n];
    for (c, cell) in cells.iter_mut().enumerate().take(n - 1).skip(1) {
        *cell = c as u8;
    }
    cells[b * n] = n as u8 - 1;
    cells[(b + 1) * n + n - 1] = n as u8 - 1;
    Board::from_cells(size, cells).expect("consistent by construction")
}

#[test]
fn consistent_boards_without_a_solution() {
    for size in BoxSize::ALL {
        let n = size.side();
        let cases = [
            ("first cell has no candidate", no_candidate_at(size, 0)),
            ("last cell has no candidate", no_candidate_at(size, n - 1)),
            ("two cells need one digit", two_cells_one_digit(size)),
        ];
        for (what, puzzle) in &cases {
            for s in strategies(size) {
                assert_unsolvable(s, puzzle, &format!("{size}, {what}"));
                let count = s.count(puzzle, 5, Some(budget(s, size))).unwrap();
                assert_eq!(count.solutions, 0, "{s} {size} {what}");
            }
        }
        // The shallow case is proved quickly by every rung, row-major included.
        for s in strategies(size) {
            let run = solve(s, &cases[0].1);
            assert_eq!(run.outcome, Outcome::NoSolution, "{s} {size}");
        }
    }
}

/// An empty 9×9 has about 6.7e21 solutions: counting up to a limit stops
/// there, and the work is proportional to the limit, not to the count.
#[test]
fn millions_of_solutions_keep_count_bounded() {
    const LIMIT: u64 = 20_000;
    let empty = Board::empty(BoxSize::NINE);
    for s in strategies(BoxSize::NINE) {
        // Naive needs about 38 nodes per solution here; 50 is the bound.
        let run = s.count(&empty, LIMIT, Some(50 * LIMIT)).unwrap();
        assert_eq!((run.end, run.solutions), (End::SolutionLimit, LIMIT), "{s}");
    }
    // 16x16: every rung that must solve big boards counts to 1000 quickly.
    let size = BoxSize::ALL[2];
    for s in strategies(size) {
        let run = s
            .count(&Board::empty(size), 1000, Some(budget(s, size)))
            .unwrap();
        if run.end == End::BudgetExceeded {
            assert!(may_exceed(s, size), "{s} exceeded counting an empty {size}");
        } else {
            assert_eq!(
                (run.end, run.solutions),
                (End::SolutionLimit, 1000),
                "{s} {size}"
            );
        }
    }
}

/// The same through the binary: `count --limit 1000000` on an empty board
/// answers ">=1000000" and exits 0 (bounded by the limit, not the count).
#[test]
fn count_cli_with_a_million_limit_stops_at_the_limit() {
    let out = Command::new(assert_cmd::cargo::cargo_bin!("sudoku-lab"))
        .args(["count", "--limit", "1000000", "--budget", "50000000"])
        .arg(write_temp(&format!("{}\n", ".".repeat(81))).path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), ">=1000000\n");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn write_temp(text: &str) -> tempfile::NamedTempFile {
    let f = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(f.path(), text).unwrap();
    f
}

/// 25×25 boards with a handful of givens: every strategy, on a thread with
/// the default 2 MiB stack (set explicitly, so `RUST_MIN_STACK` cannot
/// enlarge it). Each run ends within its budget with an honest outcome, and
/// the search demonstrably recursed deep: placements minus backtracks is the
/// depth when the search stopped (all blanks, about 600, when solved).
#[test]
fn near_empty_25x25_boards_fit_a_2_mib_stack() {
    let size = BoxSize::ALL[3];
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    let mut puzzles = vec![Board::empty(size)];
    for clues in [1, 5, 25] {
        puzzles.push(core_support::random_puzzle(size, clues, &mut rng));
    }
    let handle = std::thread::Builder::new()
        .name("2-MiB stack".into())
        .stack_size(2 << 20)
        .spawn(move || {
            let mut deepest = 0;
            for puzzle in &puzzles {
                for s in strategies(size) {
                    let run = assert_solvable(s, puzzle, &format!("{} clues", puzzle.clues()));
                    let depth = run.counts.placements - run.counts.backtracks;
                    eprintln!(
                        "{s} on {} clues: {} at depth {depth}",
                        puzzle.clues(),
                        run.outcome
                    );
                    deepest = deepest.max(depth);
                }
            }
            deepest
        })
        .unwrap();
    let deepest = handle.join().expect("no panic, no stack overflow");
    assert!(deepest >= 400, "the searches only reached depth {deepest}");
}

/// A 25×25 puzzle that row-major search solves without a single wrong
/// guess: built from a full grid by blanking, in reverse row-major order,
/// every cell that would have exactly one candidate when row-major search
/// reaches it. The search then recurses once per blank, hundreds deep.
fn row_major_chain(size: BoxSize, seed: u64) -> Board {
    let grid = core_support::random_grid(size, &mut ChaCha8Rng::seed_from_u64(seed));
    let g = size.geometry();
    let mut blank = vec![false; size.cells()];
    for c in (0..size.cells()).rev() {
        let mut seen = 0u32;
        for p in 0..size.cells() {
            let peer =
                p != c && (g.row[p] == g.row[c] || g.col[p] == g.col[c] || g.boxi[p] == g.boxi[c]);
            if peer && (p < c || !blank[p]) {
                seen |= 1 << (grid[p] - 1);
            }
        }
        blank[c] = seen.count_ones() as usize == size.side() - 1;
    }
    let cells = grid
        .iter()
        .zip(&blank)
        .map(|(&v, &b)| if b { 0 } else { v })
        .collect();
    Board::from_cells(size, cells).unwrap()
}

/// Full-depth recursion for every rung, row-major ones included, on the
/// 2 MiB stack: the chain puzzle needs one node per blank plus the root.
#[test]
fn every_rung_recurses_hundreds_deep_on_a_2_mib_stack() {
    let size = BoxSize::ALL[3];
    let puzzle = row_major_chain(size, 625);
    let blanks = (size.cells() - puzzle.clues()) as u64;
    eprintln!("chain puzzle: {blanks} blanks");
    assert!(blanks >= 300, "only {blanks} blanks");
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            for s in strategies(size) {
                let run = solve(s, &puzzle);
                assert_eq!(run.outcome, Outcome::Solved, "{s}");
                let c = run.counts;
                let depth = c.placements - c.backtracks;
                if c.forced == 0 {
                    assert_eq!(depth, blanks, "{s}: every blank is on the stack at the end");
                } else {
                    // Propagating rungs fill cells by inference, off the stack.
                    assert!(depth + c.forced >= blanks, "{s}: every blank filled");
                }
                if s.is_row_major() {
                    assert_eq!(run.counts.nodes, blanks + 1, "{s}: no wrong guess");
                }
            }
        })
        .unwrap();
    handle.join().expect("no panic, no stack overflow");
}

/// Line output for a solved 25×25 uses the letters up to 'P' and parses back.
#[test]
fn a_solved_25x25_prints_and_parses_back() {
    let size = BoxSize::ALL[3];
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let puzzle = core_support::random_puzzle(size, 500, &mut rng);
    let run = Strategy::default_for(size)
        .solve(&puzzle, Some(1_000_000))
        .unwrap();
    let sol = run
        .solution
        .expect("the default strategy solves a 25x25 with 500 givens");
    let line = to_line(&sol);
    assert!(line.contains('P') && !line.contains('Q'));
    assert_eq!(parse_str(&line).unwrap().1[0].board, sol);
}
