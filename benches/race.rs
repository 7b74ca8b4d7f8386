//! The issue-6 race: the top rungs of the ladder (`propagate` and above, in
//! ladder order) against the `sudoku` crate 0.8 (a JCZSolve port, AGPL-3.0,
//! used here only as a dev-dependency) on the three public corpora, single
//! thread, solve only. Every answer is verified before anything is timed.
//!
//!   SUDOKU_LAB_SHARED=../shared/datasets cargo bench --bench race
//!
//! After criterion's own output, prints one Markdown table (puzzles/s and the
//! ratio to the reference) from criterion's typical estimates of this run: the
//! middle figures of its `time:`/`thrpt:` lines. Criterion's HTML report, with
//! plots, is in `target/criterion/report/index.html`.

use std::collections::HashMap;
use std::hint::black_box;
use std::time::{Duration, SystemTime};

use criterion::{BenchmarkId, Throughput};
use sudoku_lab::board::{Board, BoxSize};
use sudoku_lab::dataset::Dataset;
use sudoku_lab::search::Limits;
use sudoku_lab::{NoCount, Outcome, Strategy};

mod common;
use common::{REFERENCE, Typical, criterion_home, shared_dir, typical_estimates};

/// Corpus file and stride (every k-th puzzle): 17-clue is large, so 1 in 10.
const CORPORA: [(&str, usize); 3] = [
    ("17-clue.txt", 10),
    ("top1465.txt", 1),
    ("forum-hardest-1106.txt", 1),
];

/// The rungs raced here: `propagate` and every rung above it.
fn racers() -> Vec<Strategy> {
    Strategy::ALL
        .iter()
        .copied()
        .filter(|&s| s >= Strategy::Propagate && s.supports(BoxSize::NINE))
        .collect()
}

/// Checks every answer (ours and the reference's) before timing.
fn check(group: &str, puzzles: &[Board], reference: &[sudoku::Sudoku]) {
    for s in racers() {
        for (i, p) in puzzles.iter().enumerate() {
            let run = s
                .run_timed(p, Limits::solve(None))
                .unwrap_or_else(|e| panic!("{group}: {e}"));
            assert_eq!(run.outcome, Outcome::Solved, "{s} on {group} puzzle {i}");
        }
    }
    for (i, (p, r)) in puzzles.iter().zip(reference).enumerate() {
        let sol = r
            .some_solution()
            .unwrap_or_else(|| panic!("{REFERENCE} found no solution for {group} puzzle {i}"));
        let board = Board::from_cells(BoxSize::NINE, sol.to_bytes().to_vec())
            .unwrap_or_else(|e| panic!("{REFERENCE}: invalid grid on {group}: {e}"));
        p.check_solution(&board)
            .unwrap_or_else(|e| panic!("{REFERENCE}: wrong solution on {group} puzzle {i}: {e}"));
    }
}

fn main() {
    let started = SystemTime::now();
    let mut c =
        common::criterion(Duration::from_secs(1), Duration::from_secs(4)).configure_from_args();
    let dir = shared_dir();
    let mut groups = Vec::new();
    for (file, stride) in CORPORA {
        let path = dir.join(file);
        let ds = match Dataset::load(&path) {
            Ok(ds) => ds,
            Err(e) => {
                eprintln!("race: {} not available ({e:#}); skipping", path.display());
                continue;
            }
        };
        let group = file.trim_end_matches(".txt").to_string();
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
        check(&group, &puzzles, &reference);
        let n = puzzles.len();
        let mut g = c.benchmark_group(&group);
        g.throughput(Throughput::Elements(n as u64));
        for s in racers() {
            g.bench_with_input(BenchmarkId::new(s.name(), n), &puzzles, |b, ps| {
                b.iter(|| {
                    for p in ps {
                        black_box(s.run(black_box(p), Limits::solve(None), NoCount));
                    }
                })
            });
        }
        g.bench_with_input(BenchmarkId::new(REFERENCE, n), &reference, |b, rs| {
            b.iter(|| {
                for r in rs {
                    black_box(black_box(*r).some_solution());
                }
            })
        });
        g.finish();
        groups.push((group, n));
    }
    c.final_summary();
    print_table(&groups, &typical_estimates(&criterion_home(), started));
}

/// The summary table; a benchmark without an estimate from this run
/// (filtered out, or run with `--discard-baseline`/`--load-baseline`) has no row.
fn print_table(groups: &[(String, usize)], estimates: &HashMap<String, Typical>) {
    if groups.is_empty() {
        return;
    }
    let get = |group: &str, id: &str, n: usize| estimates.get(&format!("{group}/{id}/{n}"));
    println!(
        "\npuzzles/s = puzzles / criterion's typical time per iteration, the middle figure \
         of its `thrpt:` line (`estimate`: slope of its linear regression, or mean when it \
         sampled flat)."
    );
    println!("\n| corpus | puzzles | strategy | puzzles/s | ÷ {REFERENCE} | estimate |");
    println!("|---|---:|---|---:|---:|---|");
    for (group, n) in groups {
        let Some(reference) = get(group, REFERENCE, *n) else {
            continue;
        };
        let rate = |ns: f64| *n as f64 / (ns * 1e-9);
        for s in racers() {
            if let Some(t) = get(group, s.name(), *n) {
                println!(
                    "| {group} | {n} | {s} | {:.0} | {:.2} | {} |",
                    rate(t.ns),
                    reference.ns / t.ns,
                    t.stat
                );
            }
        }
        println!(
            "| {group} | {n} | {REFERENCE} | {:.0} | 1.00 | {} |",
            rate(reference.ns),
            reference.stat
        );
    }
}
