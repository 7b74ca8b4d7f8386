//! Named baselines: `compare --save-baseline NAME` keeps a copy of the
//! report under the report root (`my-reports/baselines/NAME`), and `diff
//! --baseline NAME NEW` compares with it exactly as `diff` does with that
//! folder: the same rows, verdicts and exit codes. Times are set from the
//! node counts before any ratio is read, so no assertion rests on how fast
//! this machine ran.

mod compare_support;

use std::fs;
use std::path::{Path, PathBuf};

use compare_support::lab;
use predicates::str::contains;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/compare")
        .join(name)
}

/// Rewrites the time columns of `dir`'s results.csv: `per_node` ns per
/// node (every sample alike).
fn set_times(dir: &Path, per_node: f64) {
    let path = dir.join("results.csv");
    let mut r = csv::Reader::from_path(&path).unwrap();
    let h = r.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let mut w = csv::Writer::from_path(&path).unwrap();
    w.write_record(&h).unwrap();
    for rec in rows {
        let mut f: Vec<String> = rec.iter().map(str::to_string).collect();
        let nodes: f64 = f[col("nodes")].parse().unwrap();
        for name in [
            "time_ns",
            "time_min_ns",
            "time_max_ns",
            "time_low_ns",
            "time_high_ns",
        ] {
            f[col(name)] = format!("{:.1}", nodes * per_node);
        }
        w.write_record(&f).unwrap();
    }
    w.flush().unwrap();
}

/// `diff` run in `cwd`: (exit code, stdout).
fn diff(cwd: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = lab()
        .current_dir(cwd)
        .arg("diff")
        .args(args)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn a_saved_baseline_is_diffed_by_name_with_the_verdicts_and_exit_codes_of_diff() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    lab()
        .current_dir(cwd)
        .args(["compare", "-s", "bitmask,mrv", "--dataset"])
        .arg(fixture("mini-9x9.txt"))
        .args(["--min-time", "0", "--min-samples", "3"])
        .args(["--out", "run", "--save-baseline", "main"])
        .assert()
        .success()
        .stderr(contains("saved baseline main in my-reports/baselines/main"));
    let base = cwd.join("my-reports/baselines/main");
    // The baseline is the report, file for file.
    for name in ["results.csv", "meta.csv", "summary.csv", "README.md"] {
        assert_eq!(
            fs::read(base.join(name)).unwrap(),
            fs::read(cwd.join("run").join(name)).unwrap(),
            "{name}"
        );
    }
    set_times(&base, 100.0);
    set_times(&cwd.join("run"), 100.0);
    // Same times: no change, exit 0, as `diff` with the folder says.
    let by_name = diff(cwd, &["--baseline", "main", "run", "--json"]);
    assert_eq!(by_name.0, Some(0));
    assert_eq!(
        by_name.1,
        diff(cwd, &["my-reports/baselines/main", "run", "--json"]).1
    );
    let v: serde_json::Value = serde_json::from_str(&by_name.1).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r["verdict"] == "no-change"), "{v}");
    // Three times slower: "slower", and --fail-if-slower exits 1 either way.
    set_times(&cwd.join("run"), 300.0);
    let gate = ["--fail-if-slower", "50"];
    let by_name = diff(cwd, &[&["--baseline", "main", "run"][..], &gate].concat());
    let by_folder = diff(
        cwd,
        &[&["my-reports/baselines/main", "run"][..], &gate].concat(),
    );
    assert_eq!(by_name.0, Some(1));
    assert_eq!(by_name, by_folder);
    assert!(by_name.1.contains("slower (+200.0%)"), "{}", by_name.1);
}

#[test]
fn a_missing_or_badly_named_baseline_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    let base = cwd.join("my-reports/baselines/main");
    fs::create_dir_all(&base).unwrap();
    fs::write(base.join("meta.csv"), "key,value\n").unwrap();
    lab()
        .current_dir(cwd)
        .args(["diff", "--baseline", "mian", "run"])
        .assert()
        .code(2)
        .stderr(contains("no baseline \"mian\""))
        .stderr(contains("did you mean main?"))
        .stderr(contains("saved: main"));
    lab()
        .current_dir(cwd)
        .args(["diff", "--baseline", "../up", "run"])
        .assert()
        .code(2)
        .stderr(contains("a baseline name is"));
    lab()
        .current_dir(cwd)
        .args(["diff", "--baseline", "main"])
        .assert()
        .code(2)
        .stderr(contains("name the report folder"));
    lab()
        .current_dir(cwd)
        .args(["diff", "--baseline", "main", "a", "b"])
        .assert()
        .code(2)
        .stderr(contains("not two"));
    lab()
        .current_dir(cwd)
        .args(["compare", "--save-baseline", ".x"])
        .assert()
        .code(2)
        .stderr(contains("a baseline name is"));
}
