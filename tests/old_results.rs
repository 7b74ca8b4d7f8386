//! A `results.csv` written before today's columns still reads (issue #32):
//! `tests/fixtures/old-report` is the committed report's curated rows in an
//! older layout — without the counter `forced` and the estimate columns
//! `nodes_est*` (and `time_est_*`), with a column no version wrote (`note`)
//! in the middle. `report` redraws it and `diff` compares it; a file
//! without a column every results.csv has is refused, naming it.

mod compare_support;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use compare_support::lab;
use predicates::str::contains;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixture() -> PathBuf {
    root().join("tests/fixtures/old-report")
}

/// A copy of the fixture folder (a report writes into its folder).
fn copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let to = dir.path().join("old");
    fs::create_dir(&to).unwrap();
    for name in ["results.csv", "meta.csv"] {
        fs::copy(fixture().join(name), to.join(name)).unwrap();
    }
    (dir, to)
}

/// Per (dataset, strategy): the puzzles and the sum and largest of `nodes`
/// in a results.csv, read by column name.
fn nodes(path: &Path) -> BTreeMap<(String, String), (u64, u64, u64)> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let (d, s, n) = (col("dataset"), col("strategy"), col("nodes"));
    let mut out: BTreeMap<(String, String), (u64, u64, u64)> = BTreeMap::new();
    for rec in r.records() {
        let rec = rec.unwrap();
        let v: u64 = rec[n].parse().unwrap_or(0);
        let e = out
            .entry((rec[d].to_string(), rec[s].to_string()))
            .or_default();
        *e = (e.0 + 1, e.1 + v, e.2.max(v));
    }
    out
}

#[test]
fn the_fixture_is_an_older_layout() {
    let text = fs::read_to_string(fixture().join("results.csv")).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    assert!(header.contains(&"note"));
    for gone in ["forced", "nodes_est", "time_est_ns"] {
        assert!(!header.contains(&gone), "{gone}");
        assert!(sudoku_lab::measure::columns().contains(&gone), "{gone}");
    }
}

#[test]
fn report_redraws_an_old_results_csv() {
    let (_keep, dir) = copy();
    let before = fs::read(dir.join("results.csv")).unwrap();
    lab().arg("report").arg(&dir).assert().success();
    for name in ["README.md", "summary.csv", "ladder.svg", "ladder.png"] {
        let len = fs::metadata(dir.join(name)).map_or(0, |m| m.len());
        assert!(len > 0, "{name} not written");
    }
    // The rows are kept as they were, not rewritten.
    assert_eq!(fs::read(dir.join("results.csv")).unwrap(), before);
    // summary.csv has every dataset × strategy, over its puzzles, with
    // the largest node count the old file holds.
    let mut r = csv::Reader::from_path(dir.join("summary.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let mut got = BTreeMap::new();
    for rec in r.records() {
        let rec = rec.unwrap();
        let max: f64 = rec[col("nodes_max")].parse().unwrap_or(0.0);
        got.insert(
            (
                rec[col("dataset")].to_string(),
                rec[col("strategy")].to_string(),
            ),
            (rec[col("puzzles")].parse::<u64>().unwrap(), max as u64),
        );
    }
    let want: BTreeMap<_, _> = nodes(&dir.join("results.csv"))
        .into_iter()
        .map(|(k, (n, _, max))| (k, (n, max)))
        .collect();
    assert_eq!(got, want);
}

/// `diff --json OLD NEW`, which must succeed, parsed.
fn diff_json(old: &std::path::Path, new: &std::path::Path) -> serde_json::Value {
    let out = lab()
        .arg("diff")
        .arg("--json")
        .arg(old)
        .arg(new)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}

#[test]
fn diff_reads_an_old_results_csv_against_a_new_run() {
    let tmp = tempfile::tempdir().unwrap();
    let new = tmp.path().join("new");
    lab()
        .current_dir(root())
        .args([
            "compare",
            "-s",
            "naive,mrv",
            "--dataset",
            "curated/counting-4x4",
        ])
        .args(["--min-time", "0", "--min-samples", "1", "--out"])
        .arg(&new)
        .assert()
        .success();
    let v = diff_json(&fixture(), &new);
    let rows = v["rows"].as_array().unwrap();
    let old = nodes(&fixture().join("results.csv"));
    let mut seen = Vec::new();
    for r in rows {
        let (d, s) = (
            r["dataset"].as_str().unwrap(),
            r["strategy"].as_str().unwrap(),
        );
        let (puzzles, sum, _) = old[&(d.to_string(), s.to_string())];
        assert_eq!(r["puzzles"].as_u64(), Some(puzzles), "{d} {s}");
        assert_eq!(r["old_nodes"].as_u64(), Some(sum), "{d} {s}");
        seen.push(format!("{d} {s}"));
    }
    assert_eq!(
        seen,
        ["curated/counting-4x4 naive", "curated/counting-4x4 mrv"]
    );
    // The old folder against itself: every pair, no tree changed.
    let v = diff_json(&fixture(), &fixture());
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), old.len());
    assert!(rows.iter().all(|r| r["changed_trees"].as_u64() == Some(0)));
}

#[test]
fn a_missing_required_column_is_named_with_file_and_line() {
    let (_keep, dir) = copy();
    let text = fs::read_to_string(dir.join("results.csv")).unwrap();
    fs::write(
        dir.join("results.csv"),
        text.replacen(",nodes,", ",nodes_total,", 1),
    )
    .unwrap();
    let file = dir.join("results.csv").display().to_string();
    lab()
        .arg("report")
        .arg(&dir)
        .assert()
        .failure()
        .stderr(contains(format!("{file}:1: no column \"nodes\"")));
    lab()
        .arg("diff")
        .arg(&dir)
        .arg(fixture())
        .assert()
        .code(2)
        .stderr(contains(format!("{file}:1: no column \"nodes\"")));
}
