//! Criterion's HTML report, drawn the way `cargo bench` draws it (issue 19).
//!
//! The lab turns on plotters' `ab_glyph` feature, which Cargo unifies into
//! criterion's plotters backend; without the font the benches register, the
//! first plot panics with `FontUnavailable`. This runs one tiny group (a rung
//! and the reference crate, twice, so the comparison plots are drawn too)
//! with the benches' own setup (plots on, plotters backend), and checks the
//! report and its SVGs exist and carry text. About two seconds.

use std::path::Path;
use std::time::{Duration, SystemTime};

use criterion::{BenchmarkId, Throughput};
use sudoku_lab::base::Limits;
use sudoku_lab::base::{Board, BoxSize};
use sudoku_lab::io::Dataset;
use sudoku_lab::{NoCount, Outcome, Strategy};

#[path = "../benches/common/mod.rs"]
mod common;

const GROUP: &str = "tiny";

fn puzzles() -> Vec<Board> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/curated/famous-hard.txt");
    let ds = Dataset::load(&path).expect("shipped dataset loads");
    ds.puzzles.iter().take(2).map(|p| p.board.clone()).collect()
}

/// One run of the group into `home`, with the benches' criterion setup.
fn run_group(home: &Path, puzzles: &[Board], reference: &[sudoku::Sudoku]) {
    let mut c = common::criterion(Duration::from_millis(20), Duration::from_millis(100))
        .nresamples(1000)
        .output_directory(home);
    let n = puzzles.len();
    let mut g = c.benchmark_group(GROUP);
    g.throughput(Throughput::Elements(n as u64));
    g.bench_with_input(BenchmarkId::new("fast", n), puzzles, |b, ps| {
        b.iter(|| {
            for p in ps {
                std::hint::black_box(Strategy::Fast.run(p, Limits::solve(None), NoCount));
            }
        })
    });
    g.bench_with_input(
        BenchmarkId::new(common::REFERENCE, n),
        reference,
        |b, rs| {
            b.iter(|| {
                for r in rs {
                    std::hint::black_box(r.some_solution());
                }
            })
        },
    );
    g.finish();
    c.final_summary();
}

/// The file exists and is an SVG with text drawn in it (axis labels, titles).
fn assert_svg_with_text(path: &Path) {
    let svg =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{} missing: {e}", path.display()));
    assert!(svg.contains("<svg"), "{} is not an SVG", path.display());
    assert!(svg.contains("<text"), "{} has no text", path.display());
}

#[test]
fn a_tiny_group_writes_the_html_report_with_plots() {
    let puzzles = puzzles();
    assert_eq!(puzzles.len(), 2);
    let reference: Vec<sudoku::Sudoku> = puzzles
        .iter()
        .map(|p| {
            assert_eq!(p.size(), BoxSize::NINE);
            let cells: [u8; 81] = p.cells().try_into().expect("9x9");
            sudoku::Sudoku::from_bytes(cells).expect("reference accepts the puzzle")
        })
        .collect();
    for p in &puzzles {
        let run = Strategy::Fast
            .run_timed(p, Limits::solve(None))
            .expect("runs");
        assert_eq!(run.outcome, Outcome::Solved);
    }

    let dir = tempfile::tempdir().expect("temp dir");
    let home = dir.path();
    let started = SystemTime::now();
    run_group(home, &puzzles, &reference);
    // The second run compares with the first: change and overlay plots.
    run_group(home, &puzzles, &reference);

    let index = std::fs::read_to_string(home.join("report/index.html")).expect("report index");
    assert!(index.contains(GROUP), "the index lists the group");
    assert!(home.join(GROUP).join("report/index.html").is_file());
    assert_svg_with_text(&home.join(GROUP).join("report/violin.svg"));
    for name in ["fast", common::REFERENCE] {
        let report = home.join(GROUP).join(name).join("2/report");
        assert!(report.join("index.html").is_file(), "{name}: index.html");
        for svg in ["pdf.svg", "mean.svg", "both/pdf.svg", "change/mean.svg"] {
            assert_svg_with_text(&report.join(svg));
        }
    }

    // The estimates the race table quotes are found, for this run only.
    let estimates = common::typical_estimates(home, started);
    for name in ["fast", common::REFERENCE] {
        let id = format!("{GROUP}/{name}/2");
        let t = estimates
            .get(&id)
            .unwrap_or_else(|| panic!("no estimate for {id}: {estimates:?}"));
        assert!(t.ns.is_finite() && t.ns > 0.0, "{id}: {t:?}");
    }
    let later = SystemTime::now() + Duration::from_secs(60);
    assert!(common::typical_estimates(home, later).is_empty());
}
