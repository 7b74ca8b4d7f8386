//! Every raw sample of a `compare` run in `samples.csv`, and the outliers
//! classified from them (Tukey's fences, per puzzle × strategy) in
//! `results.csv` and summed per dataset × strategy in `summary.csv`. Every
//! assertion is between the files of one run (counts, and figures read
//! back from the samples), never about how fast the machine ran.

mod compare_support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use compare_support::lab;
use sudoku_lab::measure::Outliers;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/compare")
        .join(name)
}

type Records = (csv::StringRecord, Vec<csv::StringRecord>);

fn read(path: &Path) -> Records {
    let mut r = csv::Reader::from_path(path).unwrap();
    let h = r.headers().unwrap().clone();
    (h, r.records().map(Result::unwrap).collect())
}

fn get<'a>(h: &csv::StringRecord, r: &'a csv::StringRecord, name: &str) -> &'a str {
    &r[h.iter()
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no column {name}"))]
}

#[test]
fn every_sample_is_exported_and_its_outliers_classified() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    lab()
        .args(["compare", "-s", "bitmask,mrv", "--dataset"])
        .arg(fixture("mini-4x4.txt"))
        .arg("--dataset")
        .arg(fixture("mini-9x9.txt"))
        .args(["--min-time", "0", "--min-samples", "7", "--out"])
        .arg(&out)
        .assert()
        .success();
    let (sh, samples) = read(&out.join("samples.csv"));
    assert_eq!(
        sh.iter().collect::<Vec<_>>(),
        ["dataset", "index", "strategy", "samples", "samples_ns"]
    );
    let (rh, results) = read(&out.join("results.csv"));
    let timed: Vec<&csv::StringRecord> = results
        .iter()
        .filter(|r| !get(&rh, r, "time_ns").is_empty())
        .collect();
    // One line per timed row, in the same order.
    assert_eq!(samples.len(), timed.len());
    assert!(!timed.is_empty());
    let mut by_group: HashMap<(String, String), Outliers> = HashMap::new();
    for (s, r) in samples.iter().zip(&timed) {
        for key in ["dataset", "index", "strategy"] {
            assert_eq!(get(&sh, s, key), get(&rh, r, key));
        }
        let mut values: Vec<f64> = get(&sh, s, "samples_ns")
            .split(' ')
            .map(|x| x.parse().unwrap())
            .collect();
        let n: usize = get(&sh, s, "samples").parse().unwrap();
        assert_eq!(values.len(), n);
        // At least the samples asked for, never more than the runs timed.
        let runs: usize = get(&rh, r, "runs").parse().unwrap();
        assert!(n >= 7 && n <= runs, "{n} samples, {runs} runs");
        // The row's figures are those of its samples (0.1 ns rounding).
        let classes = Outliers::of(&values);
        values.sort_by(f64::total_cmp);
        let num = |name: &str| get(&rh, r, name).parse::<f64>().unwrap();
        assert!((num("time_min_ns") - values[0]).abs() <= 0.1);
        assert!((num("time_max_ns") - values[n - 1]).abs() <= 0.1);
        let median = if n % 2 == 1 {
            values[n / 2]
        } else {
            (values[n / 2 - 1] + values[n / 2]) / 2.0
        };
        assert!((num("time_ns") - median).abs() <= 0.1, "{r:?}");
        // The outlier columns are Tukey's classes of those samples.
        let mild: u64 = get(&rh, r, "outliers_mild").parse().unwrap();
        let severe: u64 = get(&rh, r, "outliers_severe").parse().unwrap();
        assert_eq!((mild, severe), (classes.mild, classes.severe), "{r:?}");
        let key = (
            get(&rh, r, "dataset").to_string(),
            get(&rh, r, "strategy").to_string(),
        );
        *by_group.entry(key).or_default() += classes;
    }
    // summary.csv sums them per dataset × strategy.
    let (uh, summary) = read(&out.join("summary.csv"));
    assert_eq!(summary.len(), 4);
    for u in &summary {
        let key = (
            get(&uh, u, "dataset").to_string(),
            get(&uh, u, "strategy").to_string(),
        );
        let o = by_group[&key];
        assert_eq!(get(&uh, u, "outliers_mild"), o.mild.to_string());
        assert_eq!(get(&uh, u, "outliers_severe"), o.severe.to_string());
    }
    // The page says what the column is and where the samples are.
    let page = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(page.contains("| outliers |") && page.contains("Tukey's fences"));
    assert!(page.contains("`samples.csv`: every timed sample"));
    // Redrawn from the folder, the report keeps samples.csv as it was.
    let before = std::fs::read(out.join("samples.csv")).unwrap();
    lab().arg("report").arg(&out).assert().success();
    assert_eq!(std::fs::read(out.join("samples.csv")).unwrap(), before);
    assert_eq!(read(&out.join("summary.csv")).1, summary);
}
