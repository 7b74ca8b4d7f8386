//! # Count to 2 through the solver handle, as tdoku's harness does
//!
//! Calls [`Solver::count`] with limit 2 on the first COUNT puzzles of FILE
//! (81-character lines, `.` or `0` for a blank; other lines are skipped),
//! the call the tdoku benchmark kit makes per puzzle (puzzles as stored,
//! not permuted). Made for instruction counts, which a loaded machine does
//! not disturb:
//!
//! ```sh
//! cargo build --release --example count2
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*count_all*' \
//!     target/release/examples/count2 ../shared/datasets/forum-hardest-1106.txt 300
//! ```
//!
//! and divide the `Collected` instructions by the puzzles it prints. Only
//! `count_all` (the solving loop, reading excluded) is collected. Prints the
//! puzzles, solutions and guesses (summed over the puzzles; per puzzle also
//! in tdoku's unit, one per binary branch); exit 2 on a
//! usage or read error.

use std::process::ExitCode;

use sudoku_lab::{BoxSize, Solver, Strategy};

/// Sums of one run over the sample.
struct Totals {
    puzzles: usize,
    solutions: u64,
    /// In the counter's unit ([`Solver::counted_guesses`]).
    guesses: u64,
    /// In tdoku's unit ([`Solver::guesses`]), as the kit's harness reads it.
    binary: u64,
}

/// The timed loop of the harness: one `count(.., 2, ..)` per puzzle.
#[inline(never)]
fn count_all(solver: &mut Solver, puzzles: &[[u8; 81]]) -> Totals {
    let mut solution = [0u8; 81];
    let mut t = Totals {
        puzzles: puzzles.len(),
        solutions: 0,
        guesses: 0,
        binary: 0,
    };
    for p in puzzles {
        t.solutions += solver.count(p, 2, &mut solution);
        t.guesses += solver.counted_guesses().unwrap_or(0);
        t.binary += solver.guesses().unwrap_or(0);
    }
    t
}

/// The puzzle of one line, if it is one.
fn puzzle(line: &str) -> Option<[u8; 81]> {
    let line = line.trim_end();
    if line.len() != 81 {
        return None;
    }
    let mut cells = [0u8; 81];
    for (c, b) in cells.iter_mut().zip(line.bytes()) {
        *c = match b {
            b'.' | b'0' => 0,
            b'1'..=b'9' => b - b'0',
            _ => return None,
        };
    }
    Some(cells)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(file), count) = (args.first(), args.get(1)) else {
        eprintln!(
            "usage: count2 FILE [COUNT] [STRATEGY]   (COUNT: all by default; STRATEGY: fast)"
        );
        return ExitCode::from(2);
    };
    let count = match count.map(|c| c.parse::<usize>()) {
        None => usize::MAX,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("count2: COUNT {}: {e}", args[1]);
            return ExitCode::from(2);
        }
    };
    let strategy = match args.get(2).map(|s| s.parse::<Strategy>()) {
        None => Strategy::Fast,
        Some(Ok(s)) => s,
        Some(Err(e)) => {
            eprintln!("count2: {e}");
            return ExitCode::from(2);
        }
    };
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("count2: {file}: {e}");
            return ExitCode::from(2);
        }
    };
    let puzzles: Vec<[u8; 81]> = text.lines().filter_map(puzzle).take(count).collect();
    let mut solver = match Solver::new(strategy, BoxSize::NINE) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("count2: {e}");
            return ExitCode::from(2);
        }
    };
    let t = count_all(&mut solver, &puzzles);
    println!(
        "{} puzzles, {} solutions, {} guesses ({:.2} per puzzle; in tdoku's unit {:.2}), strategy {}",
        t.puzzles,
        t.solutions,
        t.guesses,
        t.guesses as f64 / t.puzzles.max(1) as f64,
        t.binary as f64 / t.puzzles.max(1) as f64,
        strategy.name()
    );
    ExitCode::SUCCESS
}
