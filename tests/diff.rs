//! `diff OLD NEW` over real `compare` report folders: exact node changes
//! (recomputed from the folders' own results.csv), time ratios and verdicts
//! on hand-edited copies (so no assertion depends on how fast the machine
//! ran), the CI exit code, every output form, and bad input (exit 2).

mod compare_support;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use compare_support::lab;
use predicates::str::contains;
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/compare")
        .join(name)
}

/// One real `compare` run (bitmask and mrv on the two small fixtures),
/// made once for every test of this file. Its times are then set from the
/// node counts (100 ns per node; fastest 90, slowest 120, wall 110): a
/// 4×4 solve lasts about as long as the clock's jitter on a loaded machine,
/// and a time that read 0 ns leaves the puzzle untimed, so no assertion may
/// rest on the times this machine measured.
fn report() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        lab()
            .args(["compare", "-s", "bitmask,mrv", "--dataset"])
            .arg(fixture("mini-4x4.txt"))
            .arg("--dataset")
            .arg(fixture("mini-9x9.txt"))
            .args(["--min-time", "0", "--min-samples", "3", "--out"])
            .arg(dir.path().join("a"))
            .assert()
            .success();
        edit_results(&dir.path().join("a"), |h, f| {
            let nodes: f64 = f[col(h, "nodes")].parse().unwrap();
            for (name, per_node) in [
                ("time_ns", 100.0),
                ("time_min_ns", 90.0),
                ("time_max_ns", 120.0),
                ("time_low_ns", 95.0),
                ("time_high_ns", 105.0),
                ("wall_ns", 110.0),
            ] {
                f[col(h, name)] = format!("{:.1}", nodes * per_node);
            }
        });
        // Quiet, whatever this machine was: the default spread depends on it.
        set_busy(&dir.path().join("a"), "no");
        dir
    })
    .path()
    .join("a")
    .leak()
}

/// A copy of the report folder in a fresh temp dir.
fn copy(from: &Path) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let to = dir.path().join("copy");
    fs::create_dir(&to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
    (dir, to)
}

/// results.csv as (header, records).
fn results(dir: &Path) -> (csv::StringRecord, Vec<csv::StringRecord>) {
    let mut r = csv::Reader::from_path(dir.join("results.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let rows = r.records().map(Result::unwrap).collect();
    (h, rows)
}

fn col(h: &csv::StringRecord, name: &str) -> usize {
    h.iter().position(|c| c == name).unwrap()
}

/// Rewrites results.csv of `dir`, applying `edit` to every record.
fn edit_results(dir: &Path, edit: impl Fn(&csv::StringRecord, &mut Vec<String>)) {
    let (h, rows) = results(dir);
    let mut w = csv::Writer::from_path(dir.join("results.csv")).unwrap();
    w.write_record(&h).unwrap();
    for r in rows {
        let mut f: Vec<String> = r.iter().map(str::to_string).collect();
        edit(&h, &mut f);
        w.write_record(&f).unwrap();
    }
    w.flush().unwrap();
}

/// Sets meta.csv's `busy` entry of `dir` to `value`.
fn set_busy(dir: &Path, value: &str) {
    let path = dir.join("meta.csv");
    let mut r = csv::Reader::from_path(&path).unwrap();
    let h = r.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    let mut w = csv::Writer::from_path(&path).unwrap();
    w.write_record(&h).unwrap();
    for row in rows.iter().filter(|row| &row[0] != "busy") {
        w.write_record(row).unwrap();
    }
    w.write_record(["busy", value]).unwrap();
    w.flush().unwrap();
}

fn json(args: &[&str], old: &Path, new: &Path) -> Value {
    let out = lab()
        .arg("diff")
        .arg(old)
        .arg(new)
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn rows(v: &Value) -> &Vec<Value> {
    v["rows"].as_array().unwrap()
}

#[test]
fn a_run_against_itself_is_exactly_no_change() {
    let a = report();
    let v = json(&[], a, a);
    let rows = rows(&v);
    // 2 datasets × 2 strategies.
    assert_eq!(rows.len(), 4);
    for r in rows {
        assert_eq!(r["changed_trees"], 0);
        assert_eq!(r["old_nodes"], r["new_nodes"]);
        assert_eq!(r["ratio"], 1.0, "{r}");
        // No spread over puzzles: the interval is the run-to-run spread
        // alone, ×1 ÷ 1.1 to ×1 × 1.1 at the default 10%.
        let near = |x: &Value, y: f64| (x.as_f64().unwrap() - y).abs() < 1e-9;
        assert!(near(&r["ratio_low"], 1.0 / 1.1), "{r}");
        assert!(near(&r["ratio_high"], 1.1), "{r}");
        assert_eq!(r["noise_pct"], 10.0);
        assert_eq!(r["verdict"], "no-change");
    }
    assert_eq!(v["node_changes"].as_array().unwrap().len(), 0);
    assert_eq!(v["differences"].as_array().unwrap().len(), 0, "{v}");
    // The table says so too.
    lab()
        .arg("diff")
        .arg(a)
        .arg(a)
        .assert()
        .success()
        .stdout(contains("no change within noise"))
        .stdout(contains("0 of 8"));
}

/// A run measured on a busy machine drifts further: the default spread is
/// then 30% (an A/A diff's interval ×1 ÷ 1.3 to ×1.3), the warning says
/// why, and `--noise` still overrides it.
#[test]
fn a_busy_run_widens_the_default_spread() {
    let a = report();
    let (_keep, b) = copy(a);
    set_busy(&b, "load average 9.1 with 2 workers on 2 cores");
    let near = |x: &Value, y: f64| (x.as_f64().unwrap() - y).abs() < 1e-9;
    for (args, pct) in [(&[][..], 30.0), (&["--noise", "10"][..], 10.0)] {
        for (old, new) in [(a, b.as_path()), (b.as_path(), a)] {
            let v = json(args, old, new);
            assert_eq!(v["noise"], pct / 100.0);
            let differences = v["differences"].as_array().unwrap();
            assert!(differences.iter().any(|d| d["key"] == "busy"), "{v}");
            for r in rows(&v) {
                assert_eq!(r["noise_pct"], pct);
                assert!(near(&r["ratio_low"], 1.0 / (1.0 + pct / 100.0)), "{r}");
                assert!(near(&r["ratio_high"], 1.0 + pct / 100.0), "{r}");
                assert_eq!(r["verdict"], "no-change");
            }
        }
    }
    lab()
        .arg("diff")
        .arg(a)
        .arg(&b)
        .assert()
        .success()
        .stdout(contains(
            "±30% (--noise; by default 10%, 30% when either run was busy",
        ));
}

#[test]
fn two_strategies_paired_report_every_changed_tree_exactly() {
    let a = report();
    let v = json(&["--pair", "bitmask=mrv"], a, a);
    // Recompute the changed trees from results.csv itself.
    let (h, recs) = results(a);
    let (d, i, s, n, o) = (
        col(&h, "dataset"),
        col(&h, "index"),
        col(&h, "strategy"),
        col(&h, "nodes"),
        col(&h, "outcome"),
    );
    let find = |ds: &str, idx: &str, st: &str| {
        recs.iter()
            .find(|r| &r[d] == ds && &r[i] == idx && &r[s] == st)
            .unwrap()
    };
    let mut expected = Vec::new();
    for r in recs.iter().filter(|r| &r[s] == "bitmask") {
        let m = find(&r[d], &r[i], "mrv");
        if r[n] != m[n] || r[o] != m[o] {
            expected.push((
                r[d].to_string(),
                r[i].parse::<u64>().unwrap(),
                r[n].to_string(),
                m[n].to_string(),
            ));
        }
    }
    assert!(
        !expected.is_empty(),
        "bitmask and mrv search differently on some puzzle"
    );
    let got: Vec<(String, u64, String, String)> = v["node_changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["dataset"].as_str().unwrap().to_string(),
                c["index"].as_u64().unwrap(),
                c["old_nodes"].to_string(),
                c["new_nodes"].to_string(),
            )
        })
        .collect();
    assert_eq!(got, expected);
    let changed: u64 = rows(&v)
        .iter()
        .map(|r| r["changed_trees"].as_u64().unwrap())
        .sum();
    assert_eq!(changed, expected.len() as u64);
    for r in rows(&v) {
        assert_eq!(r["strategy"], "bitmask");
        assert_eq!(r["new_strategy"], "mrv");
        let (lo, x, hi) = (
            r["ratio_low"].as_f64().unwrap(),
            r["ratio"].as_f64().unwrap(),
            r["ratio_high"].as_f64().unwrap(),
        );
        assert!(lo <= x && x <= hi, "{r}");
    }
    // The text lists them puzzle by puzzle, with the difference.
    let out = lab()
        .arg("diff")
        .arg(a)
        .arg(a)
        .args(["--pair", "bitmask=mrv"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("bitmask → mrv"), "{text}");
    let (ds, idx, _, _) = &expected[0];
    assert!(
        text.contains(&format!("changed trees, {ds} × bitmask → mrv")),
        "{text}"
    );
    assert!(text.contains(&format!("#{idx}")), "{text}");
}

#[test]
fn an_edited_copy_gives_exact_ratios_verdicts_and_the_ci_exit_code() {
    let a = report();
    let (_keep, c) = copy(a);
    // mrv on mini-9x9: 3× slower on every puzzle (every sample), and puzzle
    // 2 searches 5 nodes more.
    edit_results(&c, |h, f| {
        if f[col(h, "strategy")] != "mrv" || !f[col(h, "dataset")].ends_with("9x9") {
            return;
        }
        for name in ["time_ns", "time_min_ns", "time_max_ns"] {
            let x: f64 = f[col(h, name)].parse().unwrap();
            f[col(h, name)] = format!("{:.1}", x * 3.0);
        }
        if f[col(h, "index")] == "2" {
            let n: u64 = f[col(h, "nodes")].parse().unwrap();
            f[col(h, "nodes")] = (n + 5).to_string();
        }
    });
    let v = json(&[], a, &c);
    let row = rows(&v)
        .iter()
        .find(|r| r["strategy"] == "mrv" && r["dataset"].as_str().unwrap().ends_with("9x9"))
        .unwrap();
    // Every puzzle ×3: no spread over puzzles, so the interval is ×3 with
    // the run-to-run spread of 10% around it.
    let near = |x: &Value, y: f64| (x.as_f64().unwrap() - y).abs() < 1e-3;
    assert!(
        near(&row["ratio"], 3.0)
            && near(&row["ratio_low"], 3.0 / 1.1)
            && near(&row["ratio_high"], 3.0 * 1.1),
        "{row}"
    );
    assert_eq!(row["verdict"], "slower");
    assert_eq!(row["changed_trees"], 1);
    let change = &v["node_changes"][0];
    assert_eq!(change["index"], 2);
    assert_eq!(
        change["new_nodes"].as_u64().unwrap(),
        change["old_nodes"].as_u64().unwrap() + 5
    );
    // Every other pair is untouched: exactly ×1.
    for r in rows(&v).iter().filter(|r| !std::ptr::eq(*r, row)) {
        assert_eq!(r["ratio"], 1.0);
        assert_eq!(r["verdict"], "no-change");
    }
    // Reversed, it is 3× faster.
    let back = json(&[], &c, a);
    let row = rows(&back)
        .iter()
        .find(|r| r["verdict"] != "no-change")
        .unwrap();
    assert_eq!(row["verdict"], "faster");
    // CI gating: ×3 fails a 50% allowance, passes a 250% one.
    lab()
        .arg("diff")
        .arg(a)
        .arg(&c)
        .args(["--fail-if-slower", "50"])
        .assert()
        .code(1)
        .stderr(contains("error: slower than 50% (--fail-if-slower)"))
        .stdout(contains("slower (+200.0%)"))
        .stdout(contains("#2"));
    lab()
        .arg("diff")
        .arg(a)
        .arg(&c)
        .args(["--fail-if-slower", "250"])
        .assert()
        .success();
    // A noise threshold above the change turns the verdict into no change.
    let wide = json(&["--noise", "300"], a, &c);
    assert!(rows(&wide).iter().all(|r| r["verdict"] == "no-change"));
}

#[test]
fn out_writes_the_page_the_rows_the_changes_and_the_chart() {
    let a = report();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d");
    let md = lab()
        .arg("diff")
        .arg(a)
        .arg(a)
        .args(["--pair", "bitmask=mrv", "--markdown", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(md.status.success());
    let page = fs::read_to_string(out.join("diff.md")).unwrap();
    assert_eq!(page, String::from_utf8(md.stdout).unwrap());
    assert!(page.starts_with("| dataset"), "{page}");
    let svg = fs::read_to_string(out.join("diff.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("bitmask → mrv"),
        "{svg}"
    );
    assert!(
        fs::read(out.join("diff.png"))
            .unwrap()
            .starts_with(b"\x89PNG")
    );
    let csv_text = fs::read_to_string(out.join("diff.csv")).unwrap();
    let printed = lab()
        .arg("diff")
        .arg(a)
        .arg(a)
        .args(["--pair", "bitmask=mrv", "--csv"])
        .output()
        .unwrap();
    assert_eq!(csv_text, String::from_utf8(printed.stdout).unwrap());
    assert!(csv_text.starts_with("dataset,strategy,new_strategy,puzzles,old_nodes,new_nodes,changed_trees,timed,old_ns,new_ns,ratio,ratio_low,ratio_high,verdict,noise_pct\n"));
    assert_eq!(csv_text.lines().count(), 1 + 2);
    let changes = fs::read_to_string(out.join("node-changes.csv")).unwrap();
    assert!(changes.starts_with(
        "dataset,strategy,new_strategy,index,name,old_outcome,new_outcome,old_nodes,new_nodes\n"
    ));
}

#[test]
fn differing_machines_and_plans_are_warned_about() {
    let a = report();
    let (_keep, c) = copy(a);
    let meta = fs::read_to_string(c.join("meta.csv")).unwrap();
    let meta: String = meta
        .lines()
        .map(|l| {
            if l.starts_with("cpu,") {
                "cpu,Another CPU".to_string()
            } else if l.starts_with("plan_commit,") {
                "plan_commit,0123abc".to_string()
            } else {
                l.to_string()
            }
        })
        .map(|l| l + "\n")
        .collect();
    fs::write(c.join("meta.csv"), meta).unwrap();
    lab()
        .arg("diff")
        .arg(a)
        .arg(&c)
        .assert()
        .success()
        .stderr(contains("warning: times less comparable, cpu: OLD"))
        .stderr(contains("NEW \"Another CPU\""))
        .stderr(contains("note: the runs differ in plan_commit"));
    // Markdown keeps them on the page.
    lab()
        .arg("diff")
        .arg(a)
        .arg(&c)
        .arg("--markdown")
        .assert()
        .success()
        .stdout(contains("- warning: times less comparable, cpu"));
}

#[test]
fn bad_input_names_the_file_and_exits_2() {
    let a = report();
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    lab()
        .arg("diff")
        .arg(a)
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(contains("missing: no such folder"));
    // A folder that is not a report folder.
    let plain = dir.path().join("plain");
    fs::create_dir(&plain).unwrap();
    fs::write(plain.join("results.csv"), "x\n").unwrap();
    lab()
        .arg("diff")
        .arg(&plain)
        .arg(a)
        .assert()
        .code(2)
        .stderr(contains("plain: not a report folder: it holds no meta.csv"));
    // A results.csv without a column diff needs.
    let (_k1, c) = copy(a);
    let text = fs::read_to_string(c.join("results.csv")).unwrap();
    fs::write(c.join("results.csv"), text.replacen("time_ns", "time", 1)).unwrap();
    lab()
        .arg("diff")
        .arg(a)
        .arg(&c)
        .assert()
        .code(2)
        .stderr(contains("results.csv:1: no column \"time_ns\""));
    // A number that is not one: file, line and column.
    let (_k2, c) = copy(a);
    edit_results(&c, |h, f| {
        if f[col(h, "index")] == "3" && f[col(h, "strategy")] == "mrv" {
            f[col(h, "nodes")] = "many".to_string();
        }
    });
    lab()
        .arg("diff")
        .arg(a)
        .arg(&c)
        .assert()
        .code(2)
        .stderr(contains("results.csv:"))
        .stderr(contains("(nodes): \"many\" is not a number"));
    // Mismatched plans: a sample of the puzzles, or no dataset in common.
    let other = dir.path().join("other");
    lab()
        .args(["compare", "-s", "mrv", "--sample", "3", "--dataset"])
        .arg(fixture("mini-9x9.txt"))
        .args(["--min-time", "0", "--min-samples", "1", "--out"])
        .arg(&other)
        .assert()
        .success();
    lab()
        .arg("diff")
        .arg(a)
        .arg(&other)
        .assert()
        .code(2)
        .stderr(contains("mismatched plans"))
        .stderr(contains("another --sample"));
    let four = dir.path().join("four");
    lab()
        .args(["compare", "-s", "mrv", "--dataset"])
        .arg(fixture("mini-4x4.txt"))
        .args(["--min-time", "0", "--min-samples", "1", "--out"])
        .arg(&four)
        .assert()
        .success();
    lab()
        .arg("diff")
        .arg(&other)
        .arg(&four)
        .assert()
        .code(2)
        .stderr(contains("mismatched plans"))
        .stderr(contains("no dataset in common"));
    // A pair naming a strategy the folder does not hold.
    lab()
        .arg("diff")
        .arg(a)
        .arg(a)
        .args(["--pair", "mrv=dlx"])
        .assert()
        .code(2)
        .stderr(contains("holds no strategy dlx"));
    lab()
        .arg("diff")
        .arg(a)
        .arg(a)
        .args(["--pair", "mrv"])
        .assert()
        .code(2)
        .stderr(contains("expected OLD=NEW"));
}

/// Issue 59: `diff --out` writes its folder as every report folder is
/// written: a folder the lab did not make is refused (exit 2, naming what
/// is there) unless `--force`, which keeps the user's files; the lab's own
/// diff folder is rewritten without it.
#[test]
fn out_refuses_a_folder_the_lab_did_not_make() {
    let a = report();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mine");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("diff.md"), "my notes\n").unwrap();
    fs::write(out.join("thesis.tex"), "\\begin{document}\n").unwrap();
    let diff_out = |force: bool| {
        let mut cmd = lab();
        cmd.arg("diff").arg(a).arg(a).arg("--out").arg(&out);
        if force {
            cmd.arg("--force");
        }
        cmd.assert()
    };
    diff_out(false)
        .code(2)
        .stderr(contains("refusing to write"))
        .stderr(contains("thesis.tex"));
    assert_eq!(
        fs::read_to_string(out.join("diff.md")).unwrap(),
        "my notes\n"
    );
    diff_out(true).success();
    assert!(
        fs::read_to_string(out.join("diff.md"))
            .unwrap()
            .starts_with("| dataset")
    );
    assert_eq!(
        fs::read_to_string(out.join("thesis.tex")).unwrap(),
        "\\begin{document}\n"
    );
    // Now the lab's folder: a second diff needs no --force, and still
    // leaves the user's file alone.
    diff_out(false).success();
    assert!(out.join("thesis.tex").is_file());
}
