//! `--json` wherever a command prints tables or CSV: the same rows,
//! serialized. Checked against the command's own CSV or Markdown (counters
//! and counts only: no assertion depends on how fast the machine ran).

mod compare_support;

use std::path::{Path, PathBuf};

use compare_support::lab;
use serde_json::Value;

fn famous() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/puzzles/famous.txt")
}

fn stdout(args: &[&str], file: &Path) -> String {
    let out = lab().args(args).arg(file).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn parse(text: &str) -> Vec<Value> {
    serde_json::from_str::<Value>(text)
        .expect("JSON")
        .as_array()
        .expect("an array of rows")
        .clone()
}

const QUICK: [&str; 4] = ["--min-time", "0", "--min-samples", "1"];

#[test]
fn speed_json_has_the_csv_rows_fields() {
    let mut args = vec!["speed", "-s", "mrv,dlx"];
    args.extend(QUICK);
    let csv_text = stdout(&[args.clone(), vec!["--csv"]].concat(), &famous());
    let json = parse(&stdout(&[args, vec!["--json"]].concat(), &famous()));
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(json.len(), rows.len());
    assert_eq!(json.len(), 2);
    for (j, c) in json.iter().zip(&rows) {
        let keys: Vec<&String> = j.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), header.len());
        for (name, value) in header.iter().zip(c) {
            assert!(j.get(name).is_some(), "no field {name}");
            // Counts and counters are exact: the same in both runs.
            if [
                "dataset",
                "strategy",
                "puzzles",
                "solved",
                "nodes_per_puzzle",
                "guesses_per_puzzle",
            ]
            .contains(&name.as_str())
            {
                let got = match &j[name] {
                    Value::String(s) => s.clone(),
                    v => v.to_string(),
                };
                assert_eq!(got, value, "{name}");
            }
        }
    }
}

#[test]
fn ladder_json_has_the_tables_counters() {
    let mut args = vec!["ladder", "-s", "mrv,dlx"];
    args.extend(QUICK);
    let md = stdout(&args, &famous());
    let json = parse(&stdout(&[args.clone(), vec!["--json"]].concat(), &famous()));
    assert_eq!(json.len(), 10);
    for row in &json {
        let puzzle = row["puzzle"].as_str().unwrap();
        let strategy = row["strategy"].as_str().unwrap();
        let nodes = row["counts"]["nodes"].as_u64().unwrap();
        let line = md
            .lines()
            .find(|l| {
                let cells: Vec<&str> = l.split('|').map(str::trim).collect();
                cells.get(1) == Some(&puzzle) && cells.get(2) == Some(&strategy)
            })
            .unwrap_or_else(|| panic!("{puzzle} {strategy} in\n{md}"));
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(cells[4].replace(',', ""), nodes.to_string(), "{line}");
        assert_eq!(row["outcome"], "solved");
        assert!(row["time_ns"].as_f64().unwrap() > 0.0);
    }
    // --dist: one distribution per set × strategy.
    let dist = parse(&stdout(
        &[args, vec!["--dist", "--json"]].concat(),
        &famous(),
    ));
    assert_eq!(dist.len(), 2);
    let mrv = dist.iter().find(|d| d["strategy"] == "mrv").unwrap();
    let total: u64 = json
        .iter()
        .filter(|r| r["strategy"] == "mrv")
        .map(|r| r["counts"]["nodes"].as_u64().unwrap())
        .sum();
    assert_eq!(mrv["nodes"]["total"].as_f64().unwrap(), total as f64);
    assert_eq!(mrv["puzzles"], 5);
}

#[test]
fn compare_and_report_json_are_summary_csvs_rows() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let mut cmd = lab();
    cmd.args(["compare", "-s", "mrv,dlx", "--dataset"])
        .arg(famous())
        .args(QUICK)
        .arg("--out")
        .arg(&out)
        .arg("--json");
    let o = cmd.output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let compared = parse(&String::from_utf8(o.stdout).unwrap());
    // report --json redraws from results.csv: the very same rows.
    let reported = parse(&stdout(&["report", "--json"], &out));
    assert_eq!(compared, reported);
    let mut r = csv::Reader::from_path(out.join("summary.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), compared.len());
    let col = |n: &str| h.iter().position(|c| c == n).unwrap();
    for (j, c) in compared.iter().zip(&rows) {
        assert_eq!(j["dataset"], c[col("dataset")]);
        assert_eq!(j["strategy"], c[col("strategy")]);
        assert_eq!(j["puzzles"].to_string(), c[col("puzzles")]);
        assert_eq!(j["outcomes"]["solved"].to_string(), c[col("solved")]);
        let median: f64 = c[col("nodes_median")].parse().unwrap();
        assert_eq!(j["nodes"]["median"].as_f64().unwrap(), median);
        let pps: f64 = c[col("puzzles_per_sec")].parse().unwrap();
        assert_eq!(j["puzzles_per_sec"].as_f64().unwrap(), pps);
    }
}
