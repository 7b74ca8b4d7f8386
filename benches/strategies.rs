//! Criterion benches: every rung of the ladder against a production solver.
//!
//! One group per puzzle set, one benchmark per strategy (`group/strategy/N`,
//! N = puzzles per iteration, throughput in puzzles), plus
//! `sudoku-crate-0.8` — the `sudoku` crate, a Rust port of the JCZSolve
//! bitboard solver — on the very same puzzles, so every run shows the ratios.
//! (That crate is AGPL-3.0: it is a dev-dependency used here only.)
//!
//! Sets, when present:
//! * `shipped/NAME`: a seeded sample of each dataset under `datasets/`;
//! * `17-clue`, `top1465`, `forum-hardest-1106`: seeded samples of the public
//!   corpora in `$SUDOKU_LAB_SHARED` (default `../shared/datasets`);
//! * `NAME/naive-feasible`: for each corpus, among a seeded random subset,
//!   the first puzzles (file order) that `naive` solves within a small node
//!   budget, so the slow rungs can be compared on real puzzles too. This set is easier than the corpus
//!   by construction; ratios within the group are what it is for.
//!
//! Nothing is timed before it is checked: every strategy must solve every
//! puzzle of the set within the budget (answers verified, counted and
//! uncounted paths), else it is skipped with a message; a wrong solution
//! panics. A strategy whose pass over the set would exceed
//! [`PASS_NODE_CAP`] nodes is skipped too, so the whole run stays bounded.
//!
//! Criterion's HTML report (plots for every group and benchmark) is written
//! to `target/criterion/report/index.html`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sudoku_lab::base::Limits;
use sudoku_lab::base::{Board, BoxSize};
use sudoku_lab::io::{Dataset, shipped};
use sudoku_lab::measure::{SampleCheck, check_sample};
use sudoku_lab::{NoCount, Strategy};

mod common;
use common::{REFERENCE, sample, shared_dir};

/// Seed of every sample: same puzzles on every run and machine.
const SEED: u64 = 1;
/// Puzzles per shipped dataset.
const SHIPPED_SAMPLE: usize = 30;
/// The public corpora and the sample taken from each (sized so one pass of
/// the fast rungs takes roughly 0.1 s).
const CORPORA: [(&str, usize); 3] = [
    ("17-clue.txt", 20),
    ("top1465.txt", 50),
    ("forum-hardest-1106.txt", 20),
];
/// Puzzles in each `naive-feasible` set, and the naive node budget that
/// defines "feasible".
const FEASIBLE_SAMPLE: usize = 10;
const FEASIBLE_NODES: u64 = 100_000;
/// How many puzzles (a seeded random subset) are tried for a `naive-feasible` set.
const FEASIBLE_CANDIDATES: usize = 200;
/// Node budget per puzzle for every benchmarked run.
const BUDGET: u64 = 1_000_000;
/// A strategy is skipped on a set when one counted pass needs more nodes.
const PASS_NODE_CAP: u64 = 2_000_000;

struct Set {
    group: String,
    puzzles: Vec<Board>,
}

fn boards(ds: &Dataset) -> Vec<Board> {
    ds.puzzles.iter().map(|p| p.board.clone()).collect()
}

/// Whether any benchmark of `group` can pass the filter (assuming the set
/// has `n` puzzles).
fn group_wanted(filter: &Option<String>, group: &str, n: usize) -> bool {
    Strategy::ALL
        .iter()
        .map(|s| s.name())
        .chain([REFERENCE])
        .any(|name| wanted(filter, &format!("{group}/{name}/{n}")))
}

/// Every set to bench, in a fixed order; missing sources are reported, not fatal.
fn sets(filter: &Option<String>) -> Vec<Set> {
    let mut sets = Vec::new();
    match shipped() {
        Ok(list) => {
            for ds in list {
                // A solving benchmark needs solvable puzzles: sets whose file
                // declares a puzzle without solution (the "no solution" and
                // counting fixtures) exist for the count/no-solution paths.
                if ds.expected.contains(&Some(0)) {
                    eprintln!(
                        "bench: shipped/{}: has puzzles without solution, skipping",
                        ds.name
                    );
                    continue;
                }
                sets.push(Set {
                    group: format!("shipped/{}", ds.name),
                    puzzles: sample(&boards(&ds), SHIPPED_SAMPLE, SEED),
                });
            }
        }
        Err(e) => eprintln!("bench: no shipped datasets ({e:#})"),
    }
    let dir = shared_dir();
    for (file, n) in CORPORA {
        let path = dir.join(file);
        if !path.exists() {
            eprintln!("bench: {} not found, skipping", path.display());
            continue;
        }
        let ds = match Dataset::load(&path) {
            Ok(ds) => ds,
            Err(e) => panic!("cannot load {}: {e:#}", path.display()),
        };
        let all = boards(&ds);
        sets.push(Set {
            group: ds.name.clone(),
            puzzles: sample(&all, n, SEED),
        });
        let feasible = format!("{}/naive-feasible", ds.name);
        if group_wanted(filter, &feasible, FEASIBLE_SAMPLE) {
            sets.push(Set {
                group: feasible,
                puzzles: naive_feasible(&all),
            });
        }
    }
    sets
}

/// Among a seeded random [`FEASIBLE_CANDIDATES`] puzzles of the corpus, the
/// first [`FEASIBLE_SAMPLE`] (file order) that naive solves within
/// [`FEASIBLE_NODES`] nodes.
fn naive_feasible(all: &[Board]) -> Vec<Board> {
    let order = sample(
        &(0..all.len()).collect::<Vec<_>>(),
        all.len().min(FEASIBLE_CANDIDATES),
        SEED + 1,
    );
    let mut picked: Vec<usize> = order
        .into_iter()
        .filter(|&i| {
            Strategy::Naive
                .run(&all[i], Limits::solve(Some(FEASIBLE_NODES)), NoCount)
                .solutions
                > 0
        })
        .take(FEASIBLE_SAMPLE)
        .collect();
    picked.sort_unstable();
    picked.into_iter().map(|i| all[i].clone()).collect()
}

/// The bench filter criterion will apply, when it is a plain substring we
/// can apply too (so filtered runs skip the checks of unwanted benches).
fn plain_filter() -> Option<String> {
    const TAKES_VALUE: [&str; 14] = [
        "--save-baseline",
        "--baseline",
        "--baseline-lenient",
        "--load-baseline",
        "--sample-size",
        "--warm-up-time",
        "--measurement-time",
        "--nresamples",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--profile-time",
        "--plotting-backend",
        "--output-format",
    ];
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if TAKES_VALUE.contains(&a.as_str()) || a == "--color" || a == "-c" {
            i += 2;
            continue;
        }
        if !a.starts_with('-') {
            let plain = a
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '/'));
            return plain.then(|| a.clone());
        }
        i += 1;
    }
    None
}

fn wanted(filter: &Option<String>, id: &str) -> bool {
    filter.as_ref().is_none_or(|f| id.contains(f.as_str()))
}

/// The reference solver's input; `None` unless the set is all 9×9.
fn reference_input(puzzles: &[Board]) -> Option<Vec<sudoku::Sudoku>> {
    puzzles
        .iter()
        .map(|p| {
            if p.size() != BoxSize::NINE {
                return None;
            }
            let cells: [u8; 81] = p.cells().try_into().ok()?;
            sudoku::Sudoku::from_bytes(cells).ok()
        })
        .collect()
}

/// Checks the reference crate's answers like ours: solved and verified.
fn check_reference(group: &str, puzzles: &[Board], input: &[sudoku::Sudoku]) {
    for (i, (p, s)) in puzzles.iter().zip(input).enumerate() {
        let Some(sol) = s.some_solution() else {
            panic!(
                "{REFERENCE} found no solution for puzzle {} of {group}",
                i + 1
            );
        };
        let board = Board::from_cells(BoxSize::NINE, sol.to_bytes().to_vec())
            .unwrap_or_else(|e| panic!("{REFERENCE} returned an invalid grid on {group}: {e}"));
        if let Err(e) = p.check_solution(&board) {
            panic!(
                "{REFERENCE} returned a wrong solution for puzzle {} of {group}: {e}",
                i + 1
            );
        }
    }
}

fn ladder(c: &mut Criterion) {
    let filter = plain_filter();
    for set in sets(&filter) {
        let n = set.puzzles.len();
        if n == 0 {
            eprintln!("bench: {}: empty set, skipping", set.group);
            continue;
        }
        let param = n.to_string();
        let id = |name: &str| format!("{}/{name}/{param}", set.group);
        let mut group = c.benchmark_group(&set.group);
        group.throughput(Throughput::Elements(n as u64));
        for &strategy in Strategy::ALL {
            if !wanted(&filter, &id(strategy.name())) {
                continue;
            }
            if set.puzzles.iter().any(|p| !strategy.supports(p.size())) {
                eprintln!(
                    "bench: {}: {strategy} does not support this size",
                    set.group
                );
                continue;
            }
            let check = check_sample(&set.puzzles, strategy, Some(BUDGET), Some(PASS_NODE_CAP))
                .unwrap_or_else(|e| panic!("{e}"));
            match check {
                SampleCheck::Solved { .. } => {}
                SampleCheck::Unsolved { index, outcome } => {
                    eprintln!(
                        "bench: {}: {strategy} skipped, puzzle {} of the set: {outcome} (budget {BUDGET} nodes)",
                        set.group,
                        index + 1
                    );
                    continue;
                }
                SampleCheck::OverCap { cap } => {
                    eprintln!(
                        "bench: {}: {strategy} skipped, one pass needs more than {cap} nodes",
                        set.group
                    );
                    continue;
                }
            }
            let limits = Limits::solve(Some(BUDGET));
            group.bench_with_input(
                BenchmarkId::new(strategy.name(), &param),
                &set.puzzles,
                |b, puzzles| {
                    b.iter(|| {
                        for p in puzzles {
                            black_box(strategy.run(black_box(p), limits, NoCount));
                        }
                    })
                },
            );
        }
        if wanted(&filter, &id(REFERENCE)) {
            match reference_input(&set.puzzles) {
                Some(input) => {
                    check_reference(&set.group, &set.puzzles, &input);
                    group.bench_with_input(
                        BenchmarkId::new(REFERENCE, &param),
                        &input,
                        |b, input| {
                            b.iter(|| {
                                for s in input {
                                    black_box(black_box(*s).some_solution());
                                }
                            })
                        },
                    );
                }
                None => eprintln!("bench: {}: {REFERENCE} is 9x9 only", set.group),
            }
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    // Short windows: ~40 benchmarks must fit in a few minutes on 2 cores.
    config = common::criterion(Duration::from_millis(500), Duration::from_secs(2));
    targets = ladder
}
criterion_main!(benches);
