//! `compare` and `report`: CSV shape, exact statistics, determinism, atomic
//! writes and valid charts. Small fixtures and small budgets keep this fast.

mod compare_support;

use std::fs;
use std::path::{Path, PathBuf};

use compare_support::{lab, listing, snapshot, staging_folders};
use sudoku_lab::Strategy;
use sudoku_lab::measure::columns;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/compare")
        .join(name)
}

/// Puzzles in the fixtures: 6 in mini-4x4, 8 in mini-9x9 (one without solution).
const PUZZLES_4X4: usize = 6;
const PUZZLES_9X9: usize = 8;

/// Runs compare on both fixtures into `out`.
fn compare(out: &Path, extra: &[&str]) {
    lab()
        .arg("compare")
        .arg("--dataset")
        .arg(fixture("mini-4x4.txt"))
        .arg("--dataset")
        .arg(fixture("mini-9x9.txt"))
        .args(["--budget", "200000", "--out"])
        .arg(out)
        .args(extra)
        .assert()
        .success();
}

fn lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// results.csv without the time columns (the only ones that vary).
fn counters_only(path: &Path) -> Vec<String> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let first_time = r
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "time_ns")
        .unwrap();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            rec.iter()
                .enumerate()
                .filter(|&(i, _)| i < first_time)
                .map(|(_, v)| v)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

#[test]
fn csv_header_and_row_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("reports");
    compare(&out, &["--jobs", "1"]);
    let results = lines(&out.join("results.csv"));
    assert_eq!(results[0], columns().join(","));
    let strategies = Strategy::ALL.len();
    assert_eq!(results.len() - 1, (PUZZLES_4X4 + PUZZLES_9X9) * strategies);
    // Rows come in dataset, puzzle, ladder order.
    let first: Vec<&str> = results[1].split(',').collect();
    assert_eq!(first[0], "mini-4x4");
    assert_eq!(first[1], "1");
    assert_eq!(first[6], Strategy::ALL[0].name());
    // The no-solution puzzle is recorded as such by every strategy.
    let no_solution = results
        .iter()
        .filter(|l| l.contains(",no-solution,"))
        .count();
    assert_eq!(no_solution, strategies);

    let summary = lines(&out.join("summary.csv"));
    assert_eq!(
        summary[0],
        sudoku_lab::analysis::summary_columns().join(",")
    );
    assert_eq!(summary.len() - 1, 2 * strategies);
    for name in ["README.md", "meta.csv"] {
        assert!(out.join(name).is_file(), "{name} missing");
    }
    // Nothing else left next to the report.
    assert_eq!(listing(tmp.path()), vec!["reports"]);
}

#[test]
fn counters_are_deterministic_across_runs_and_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    compare(&a, &["--jobs", "1"]);
    compare(&b, &["--jobs", "2"]);
    let ra = counters_only(&a.join("results.csv"));
    assert_eq!(ra.len(), (PUZZLES_4X4 + PUZZLES_9X9) * Strategy::ALL.len());
    assert_eq!(ra, counters_only(&b.join("results.csv")));
}

#[test]
fn sampling_is_seeded() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |dir: &str, seed: &str| {
        let out = tmp.path().join(dir);
        lab()
            .arg("compare")
            .arg("--dataset")
            .arg(fixture("mini-9x9.txt"))
            .args([
                "--sample", "3", "--seed", seed, "--budget", "10000", "--out",
            ])
            .arg(&out)
            .assert()
            .success();
        counters_only(&out.join("results.csv"))
    };
    let a = run("a", "5");
    assert_eq!(a.len(), 3 * Strategy::ALL.len());
    assert_eq!(a, run("b", "5"));
}

/// A results table written by hand: the statistics are known exactly.
#[test]
fn summary_statistics_on_a_hand_made_table() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("r");
    fs::create_dir(&dir).unwrap();
    let (a, b) = (Strategy::ALL[0].name(), Strategy::ALL[1].name());
    // A file without the estimate columns (as written before them) still reads.
    let mut csv = sudoku_lab::measure::measured_columns().join(",") + "\n";
    // Strategy a: nodes 10,20,30,40,100 and times ×100 (the 100-node run hit the budget).
    let rows = [
        (1, 10, "solved"),
        (2, 20, "solved"),
        (3, 30, "no-solution"),
        (4, 40, "solved"),
        (5, 100, "budget-exceeded"),
    ];
    for (i, nodes, outcome) in rows {
        let t = nodes * 100;
        csv += &format!("d,{i},{i},,9,30,{a},{outcome},{nodes},1,0,1,0,0,0,{t},{t},{t},{t},1\n");
        // Strategy b: same nodes, half the time per node; puzzle 5 unsupported.
        if i == 5 {
            csv += &format!("d,{i},{i},,9,30,{b},unsupported,,,,,,,,,,,,\n");
        } else {
            let t = nodes * 50;
            csv +=
                &format!("d,{i},{i},,9,30,{b},{outcome},{nodes},1,0,1,0,0,0,{t},{t},{t},{t},1\n");
        }
    }
    fs::write(dir.join("results.csv"), csv).unwrap();
    lab().arg("report").arg(&dir).assert().success();

    let mut r = csv::Reader::from_path(dir.join("summary.csv")).unwrap();
    let header = r.headers().unwrap().clone();
    let recs: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(recs.len(), 2);
    let get = |rec: &csv::StringRecord, col: &str| {
        let i = header.iter().position(|h| h == col).unwrap();
        rec[i].to_string()
    };
    let ra = &recs[0];
    assert_eq!(get(ra, "strategy"), a);
    for (col, want) in [
        ("puzzles", "5"),
        ("solved", "3"),
        ("no_solution", "1"),
        ("budget_exceeded", "1"),
        ("unsupported", "0"),
        ("nodes_median", "30.0"),
        ("nodes_mean", "40.0"),
        // p90 of 5 values sits 60% of the way from the 4th to the 5th.
        ("nodes_p90", "76.0"),
        ("nodes_max", "100.0"),
        ("time_median_ns", "3000.0"),
        ("time_mean_ns", "4000.0"),
        ("time_p90_ns", "7600.0"),
        ("time_max_ns", "10000.0"),
        // One run stopped at the budget: no throughput (speed's rule: the
        // finished runs alone would be another, easier set); 20,000 ns over
        // 200 nodes.
        ("puzzles_per_sec", ""),
        ("ns_per_node", "100.0"),
    ] {
        assert_eq!(get(ra, col), want, "{a} {col}");
    }
    let rb = &recs[1];
    assert_eq!(get(rb, "strategy"), b);
    for (col, want) in [
        ("puzzles", "5"),
        ("solved", "3"),
        ("unsupported", "1"),
        // 10, 20, 30, 40: even count, mean of the middle two.
        ("nodes_median", "25.0"),
        ("nodes_mean", "25.0"),
        ("nodes_p90", "37.0"),
        ("time_median_ns", "1250.0"),
        ("ns_per_node", "50.0"),
        ("puzzles_per_sec", "800000.0"),
    ] {
        assert_eq!(get(rb, col), want, "{b} {col}");
    }
    // The ladder: the 3 puzzles both solved (no. 3 has no solution, a
    // stopped on no. 5). Geometric means: nodes (10·20·40)^⅓ = 20, times
    // 2 µs and 1 µs; b visits the same nodes at half the cost per node.
    let md = fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(
        md.contains("Ladder set: **3 of 5** puzzles of size 9×9."),
        "{md}"
    );
    assert!(
        md.contains(&format!(
            "Left out: 1 with no solution; 1 that some rung did not finish within the budget (`{a}` 1)."
        )),
        "{md}"
    );
    // Intervals: the bootstrap over the 3 puzzles of the ln times; every
    // per-puzzle ratio is exactly 2, so the ratios' intervals are points.
    use sudoku_lab::export::fmt_time_ci;
    let gm = |ns: [f64; 3]| {
        let logs = ns.map(f64::ln);
        sudoku_lab::measure::mean_interval(&logs).map(|i| i.map(f64::exp))
    };
    let ta = fmt_time_ci(2000.0, gm([1000.0, 2000.0, 4000.0]));
    let tb = fmt_time_ci(1000.0, gm([500.0, 1000.0, 2000.0]));
    assert!(
        md.contains(&format!(
            "| `{a}` | 20 | {ta} | 100 ns [100, 100] | – | – | – | – |"
        )),
        "{md}"
    );
    assert!(
        md.contains(&format!(
            "| `{b}` | 20 | {tb} | 50 ns [50, 50] | ×1.00 [1.00, 1.00] | ×2.00 [2.00, 2.00] | ×2.00 [2.00, 2.00] | ×2.00 [2.00, 2.00] |"
        )),
        "{md}"
    );
    // summary.csv: the median's interval, from the 4 runs of b.
    let mut r = csv::Reader::from_path(dir.join("summary.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let recs: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    let want = sudoku_lab::measure::median_interval(&[500.0, 1000.0, 1500.0, 2000.0]).unwrap();
    assert_eq!(
        recs[1][col("time_median_low_ns")].parse::<f64>().unwrap(),
        want.low
    );
    assert_eq!(
        recs[1][col("time_median_high_ns")].parse::<f64>().unwrap(),
        want.high
    );
}

/// The report charts drawn into `dir`: every one of the table whose data
/// the run had (the full-set ladder only with estimated cut-off runs).
fn drawn(dir: &Path) -> Vec<&'static str> {
    sudoku_lab::export::report_charts()
        .map(|c| c.stem)
        .filter(|stem| dir.join(format!("{stem}.svg")).exists())
        .collect()
}

fn assert_valid_charts(dir: &Path) {
    let md = fs::read_to_string(dir.join("README.md")).unwrap();
    for info in sudoku_lab::export::report_charts() {
        let stem = info.stem;
        if !dir.join(format!("{stem}.svg")).exists() {
            // Only the full-set ladder is drawn for some data, not all.
            assert_eq!(stem, sudoku_lab::export::FULL_SET.stem, "{stem} not drawn");
            assert!(
                !md.contains(&format!("({stem}.png)")),
                "README links {stem}"
            );
            continue;
        }
        let png = fs::read(dir.join(format!("{stem}.png"))).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{stem}.png signature");
        assert!(png.len() > 10_000, "{stem}.png is only {} bytes", png.len());
        let svg = fs::read_to_string(dir.join(format!("{stem}.svg"))).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{stem}.svg: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert!(
            doc.descendants().filter(|n| n.has_tag_name("text")).count() > 10,
            "{stem}.svg has hardly any text"
        );
        assert!(
            md.contains(&format!("({stem}.png)")),
            "README misses {stem}"
        );
    }
}

#[test]
fn chart_files_are_valid() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("reports");
    compare(&out, &[]);
    assert_valid_charts(&out);
}

#[test]
fn report_reproduces_charts_from_csv_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("reports");
    compare(&out, &[]);
    let redo = tmp.path().join("redo");
    fs::create_dir(&redo).unwrap();
    fs::copy(out.join("results.csv"), redo.join("results.csv")).unwrap();
    lab().arg("report").arg(&redo).assert().success();
    assert_valid_charts(&redo);
    assert_eq!(drawn(&out), drawn(&redo));
    for stem in drawn(&out) {
        for ext in ["svg", "png"] {
            let name = format!("{stem}.{ext}");
            assert!(
                fs::read(out.join(&name)).unwrap() == fs::read(redo.join(&name)).unwrap(),
                "{name} differs when redrawn from results.csv"
            );
        }
    }
    assert_eq!(
        fs::read(out.join("summary.csv")).unwrap(),
        fs::read(redo.join("summary.csv")).unwrap()
    );
}

#[test]
fn a_failed_run_leaves_the_previous_report_intact() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("reports");
    compare(&out, &[]);
    let before = snapshot(&out);

    // Bad input: rejected with file:line:col, exit 2, nothing touched.
    let bad = tmp.path().join("bad.txt");
    let mut text = fs::read_to_string(fixture("mini-9x9.txt")).unwrap();
    text.push_str(
        "12345678x........................................................................\n",
    );
    fs::write(&bad, text).unwrap();
    lab()
        .arg("compare")
        .arg("--dataset")
        .arg(&bad)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("bad.txt:10:9"));
    assert_eq!(snapshot(&out), before);

    // A results.csv broken near its end: `report` fails and keeps the old files.
    let broken = tmp.path().join("broken");
    fs::create_dir(&broken).unwrap();
    for (name, bytes) in &before {
        fs::write(broken.join(name), bytes).unwrap();
    }
    let mut csv = fs::read_to_string(broken.join("results.csv")).unwrap();
    csv.push_str(
        "mini-9x9,9,9,,9,30,no-such-strategy,solved,1,1,0,1,0,0,0,1.0,1.0,1.0,1.0,1,,,,,,,,,,\n",
    );
    fs::write(broken.join("results.csv"), &csv).unwrap();
    let broken_before = snapshot(&broken);
    lab()
        .arg("report")
        .arg(&broken)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("unknown strategy"));
    assert_eq!(snapshot(&broken), broken_before);
    // No staging folders left anywhere.
    assert_eq!(listing(tmp.path()), vec!["bad.txt", "broken", "reports"]);
}

#[test]
fn default_datasets_come_from_the_shipped_folder() {
    let tmp = tempfile::tempdir().unwrap();
    // A filtered selection without --out: its own folder below my-reports/runs.
    let slug = format!("{}.budget-20000", Strategy::ALL[0].name());
    let out = tmp.path().join("my-reports/runs").join(&slug);
    lab()
        .env("SUDOKU_LAB_DATASETS", fixture(""))
        .current_dir(tmp.path())
        .args(["compare", "--budget", "20000", "--strategy"])
        .arg(Strategy::ALL[0].name())
        .assert()
        .success()
        .stdout(predicates::str::contains(format!(
            "report: my-reports/runs/{slug}/README.md"
        )));
    let results = lines(&out.join("results.csv"));
    assert_eq!(results.len() - 1, PUZZLES_4X4 + PUZZLES_9X9);
    let datasets: std::collections::BTreeSet<&str> = results[1..]
        .iter()
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(datasets, ["mini-4x4", "mini-9x9"].into());
    // A shipped dataset can also be named.
    lab()
        .env("SUDOKU_LAB_DATASETS", fixture(""))
        .args([
            "compare",
            "--dataset",
            "mini-4x4",
            "--dataset",
            "nope",
            "--out",
        ])
        .arg(tmp.path().join("x"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("mini-4x4, mini-9x9"));
}

/// Public corpora: a small seeded sample of the hardest list, fastest rung only.
#[test]
fn shared_corpus_sample() {
    let Some(dir) = std::env::var_os("SUDOKU_LAB_SHARED") else {
        if std::env::var_os("CI").is_some() {
            panic!("CI is set but SUDOKU_LAB_SHARED is not");
        }
        eprintln!("skipped: SUDOKU_LAB_SHARED not set");
        return;
    };
    let file = Path::new(&dir).join("forum-hardest-1106.txt");
    assert!(file.is_file(), "{} missing", file.display());
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    let fastest = *Strategy::ALL.last().unwrap();
    lab()
        .arg("compare")
        .arg("--dataset")
        .arg(&file)
        .args(["--sample", "4", "--budget", "2000000", "--strategy"])
        .arg(fastest.name())
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let results = lines(&out.join("results.csv"));
    assert_eq!(results.len() - 1, 4);
    assert!(
        results[1..].iter().all(|l| l.contains(",solved,")),
        "{results:?}"
    );
}

/// Ctrl-C mid-run: exit 130 at once, the previous report unchanged, no staging folder left.
#[cfg(unix)]
#[test]
fn interrupt_keeps_the_previous_report() {
    use std::time::{Duration, Instant};
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("reports");
    compare(&out, &[]);
    let before = snapshot(&out);
    // No solution, found out only at the last cell in row-major order: the
    // first rung searches until its (huge) budget runs out.
    let slow = tmp.path().join("slow.txt");
    let mut cells = vec![b'.'; 81];
    cells[8] = b'9';
    for (i, d) in (b'1'..=b'8').enumerate() {
        cells[72 + i] = d;
    }
    fs::write(&slow, [cells, b"\n".to_vec()].concat()).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("sudoku-lab");
    let mut child = std::process::Command::new(bin)
        .arg("compare")
        .arg("--dataset")
        .arg(&slow)
        .args(["--budget", "1000000000000", "--jobs", "1", "--strategy"])
        .arg(Strategy::ALL[0].name())
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let staging = || !staging_folders(&out).is_empty();
    let start = Instant::now();
    while !staging() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no staging folder appeared"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let start = Instant::now();
    let code = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code();
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("compare did not stop after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(code, Some(130));
    assert_eq!(snapshot(&out), before);
    assert!(!staging(), "staging folder left behind");
}
