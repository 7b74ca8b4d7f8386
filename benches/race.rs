//! The issue-6 race: the top rungs of the ladder (`propagate` and above, in
//! ladder order) against the `sudoku` crate 0.8 (a JCZSolve port, AGPL-3.0,
//! used here only as a dev-dependency) on the three public corpora, single
//! thread, in two modes: `solve` (stop at the first solution) and
//! `count-to-2` (count solutions up to 2: the uniqueness check a generator
//! runs, and what tdoku's benchmark harness times). Every answer is verified
//! before anything is timed: each solution against the givens and the rules,
//! and each count-to-2 result against the reference's count.
//!
//!   SUDOKU_LAB_SHARED=../shared/datasets cargo bench --bench race
//!
//! Our rungs are timed through one reusable [`Solver`] per rung (what a
//! library user solving many puzzles would hold), so the loop allocates
//! nothing, as the reference's does not.
//!
//! After criterion's own output, prints one Markdown table (puzzles/s per
//! mode and the ratio to the reference) from criterion's typical estimates of
//! this run: the middle figures of its `time:`/`thrpt:` lines. Criterion's
//! HTML report, with plots, is in `target/criterion/report/index.html`.

use std::collections::HashMap;
use std::hint::black_box;
use std::time::{Duration, SystemTime};

use criterion::{BenchmarkId, Throughput};
use sudoku_lab::base::{Board, BoxSize};
use sudoku_lab::base::{End, Limits};
use sudoku_lab::io::Dataset;
use sudoku_lab::{NoCount, Outcome, Solver, Strategy};

mod common;
use common::{REFERENCE, Typical, criterion_home, shared_dir, typical_estimates};

/// Corpus file and stride (every k-th puzzle): 17-clue is large, so 1 in 10.
const CORPORA: [(&str, usize); 3] = [
    ("17-clue.txt", 10),
    ("top1465.txt", 1),
    ("forum-hardest-1106.txt", 1),
];

/// What is timed on each puzzle.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Stop at the first solution.
    Solve,
    /// Count solutions up to 2 (a uniqueness check): the whole tree of a
    /// unique puzzle is explored.
    CountTo2,
}

impl Mode {
    const ALL: [Mode; 2] = [Mode::Solve, Mode::CountTo2];

    fn name(self) -> &'static str {
        match self {
            Mode::Solve => "solve",
            Mode::CountTo2 => "count-to-2",
        }
    }

    fn limits(self) -> Limits {
        match self {
            Mode::Solve => Limits::solve(None),
            Mode::CountTo2 => Limits::count(2, None),
        }
    }

    /// The criterion group of a corpus in this mode.
    fn group(self, corpus: &str) -> String {
        format!("{corpus}-{}", self.name())
    }

    /// Runs the reference solver in this mode.
    fn run_reference(self, r: sudoku::Sudoku) {
        match self {
            Mode::Solve => {
                black_box(r.some_solution());
            }
            Mode::CountTo2 => {
                black_box(r.solutions_count_up_to(2));
            }
        }
    }
}

/// The rungs raced here: `propagate` and every rung above it.
fn racers() -> Vec<Strategy> {
    Strategy::ALL
        .iter()
        .copied()
        .filter(|&s| s >= Strategy::Propagate && s.supports(BoxSize::NINE))
        .collect()
}

/// Checks every answer (ours and the reference's) in both modes before timing.
fn check(corpus: &str, puzzles: &[Board], reference: &[sudoku::Sudoku]) {
    for (i, (p, r)) in puzzles.iter().zip(reference).enumerate() {
        let sol = r
            .some_solution()
            .unwrap_or_else(|| panic!("{REFERENCE} found no solution for {corpus} puzzle {i}"));
        let board = Board::from_cells(BoxSize::NINE, sol.to_bytes().to_vec())
            .unwrap_or_else(|e| panic!("{REFERENCE}: invalid grid on {corpus}: {e}"));
        p.check_solution(&board)
            .unwrap_or_else(|e| panic!("{REFERENCE}: wrong solution on {corpus} puzzle {i}: {e}"));
        let count = r.solutions_count_up_to(2) as u64;
        for s in racers() {
            for mode in Mode::ALL {
                // `run_timed` verifies the solution it reports.
                let run = s
                    .run_timed(p, mode.limits())
                    .unwrap_or_else(|e| panic!("{corpus}: {e}"));
                assert_eq!(run.outcome, Outcome::Solved, "{s} on {corpus} puzzle {i}");
                if mode == Mode::CountTo2 {
                    assert_ne!(run.end, End::BudgetExceeded, "{s} on {corpus} puzzle {i}");
                    assert_eq!(
                        run.solutions, count,
                        "{s} and {REFERENCE} count different solutions on {corpus} puzzle {i}"
                    );
                }
            }
        }
    }
}

fn main() {
    let started = SystemTime::now();
    let mut c =
        common::criterion(Duration::from_secs(1), Duration::from_secs(4)).configure_from_args();
    let dir = shared_dir();
    let mut corpora = Vec::new();
    for (file, stride) in CORPORA {
        let path = dir.join(file);
        let ds = match Dataset::load(&path) {
            Ok(ds) => ds,
            Err(e) => {
                eprintln!("race: {} not available ({e:#}); skipping", path.display());
                continue;
            }
        };
        let corpus = file.trim_end_matches(".txt").to_string();
        let puzzles: Vec<Board> = ds
            .puzzles
            .iter()
            .step_by(stride)
            .map(|p| p.board.clone())
            .collect();
        let reference: Vec<sudoku::Sudoku> = puzzles
            .iter()
            .map(|p| {
                let cells: [u8; 81] = p.cells().try_into().expect("9x9");
                sudoku::Sudoku::from_bytes(cells).expect("reference accepts the puzzle")
            })
            .collect();
        check(&corpus, &puzzles, &reference);
        let n = puzzles.len();
        for mode in Mode::ALL {
            let mut g = c.benchmark_group(mode.group(&corpus));
            g.throughput(Throughput::Elements(n as u64));
            for s in racers() {
                let mut solver = Solver::new(s, BoxSize::NINE).expect("racers support 9x9");
                g.bench_with_input(BenchmarkId::new(s.name(), n), &puzzles, |b, ps| {
                    b.iter(|| {
                        for p in ps {
                            black_box(solver.search(black_box(p), mode.limits(), NoCount));
                        }
                    })
                });
            }
            g.bench_with_input(BenchmarkId::new(REFERENCE, n), &reference, |b, rs| {
                b.iter(|| {
                    for r in rs {
                        mode.run_reference(black_box(*r));
                    }
                })
            });
            g.finish();
        }
        corpora.push((corpus, n));
    }
    c.final_summary();
    print_table(&corpora, &typical_estimates(&criterion_home(), started));
}

/// The summary table, one row per strategy and corpus, both modes side by
/// side; a benchmark without an estimate from this run (filtered out, or run
/// with `--discard-baseline`/`--load-baseline`) shows `–`.
fn print_table(corpora: &[(String, usize)], estimates: &HashMap<String, Typical>) {
    if corpora.is_empty() {
        return;
    }
    let get = |group: &str, id: &str, n: usize| estimates.get(&format!("{group}/{id}/{n}"));
    println!(
        "\npuzzles/s = puzzles / criterion's typical time per iteration, the middle figure \
         of its `thrpt:` line (slope of its linear regression, or mean when it sampled flat)."
    );
    let modes = Mode::ALL.map(|m| m.name());
    println!(
        "\n| corpus | puzzles | strategy | {0} puzzles/s | {0} ÷ {REFERENCE} | {1} puzzles/s | {1} ÷ {REFERENCE} |",
        modes[0], modes[1]
    );
    println!("|---|---:|---|---:|---:|---:|---:|");
    for (corpus, n) in corpora {
        let rate = |ns: f64| *n as f64 / (ns * 1e-9);
        // Per mode: this row's puzzles/s and its ratio to the reference.
        let cells = |id: &str| {
            Mode::ALL
                .iter()
                .map(|&m| {
                    let group = m.group(corpus);
                    match (get(&group, id, *n), get(&group, REFERENCE, *n)) {
                        (Some(t), Some(reference)) => {
                            format!("{:.0} | {:.2}", rate(t.ns), reference.ns / t.ns)
                        }
                        (Some(t), None) => format!("{:.0} | –", rate(t.ns)),
                        _ => "– | –".to_string(),
                    }
                })
                .collect::<Vec<_>>()
                .join(" | ")
        };
        for s in racers() {
            println!("| {corpus} | {n} | {s} | {} |", cells(s.name()));
        }
        println!("| {corpus} | {n} | {REFERENCE} | {} |", cells(REFERENCE));
    }
}
