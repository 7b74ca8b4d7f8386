//! A machine whose per-thread CPU clock moves in scheduler ticks (4 ms)
//! though it claims 1 ns resolution: every short run reads 0 ns on it, and a
//! report of zeros (no ratio, no verdict) is what CI once got. The lab must
//! notice such a clock, time by the wall clock instead and say so. The
//! clock is made coarse by a tiny `LD_PRELOAD` library (tests/fixtures/
//! coarse_clock.c) built here with the system's C compiler.

mod compare_support;

use std::path::{Path, PathBuf};
use std::process::Command as Std;

use compare_support::lab;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The coarse-clock library, built into `dir` (`None`, said on stderr,
/// where this system has no C compiler or no `LD_PRELOAD`).
fn coarse_clock(dir: &Path) -> Option<PathBuf> {
    if !cfg!(all(target_os = "linux", target_env = "gnu")) {
        eprintln!("skipped: LD_PRELOAD interposition is a glibc Linux matter");
        return None;
    }
    let lib = dir.join("coarse_clock.so");
    let built = Std::new("cc")
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(&lib)
        .arg(fixture("coarse_clock.c"))
        .arg("-ldl")
        .status();
    match built {
        Ok(s) if s.success() => Some(lib),
        other => {
            // CI installs a C compiler (.ci/run), so there this never skips.
            assert!(
                std::env::var_os("CI").is_none(),
                "cannot build the coarse-clock library: {other:?}"
            );
            eprintln!("skipped: no C compiler to build the coarse-clock library ({other:?})");
            None
        }
    }
}

/// The lab under the coarse clock `lib`: `args`, the mini 4×4 fixture,
/// three passes, and `--out OUT` unless `out` is empty. It must succeed.
fn coarse_run(lib: &Path, args: &[&str], out: &Path) -> std::process::Output {
    let mut cmd = lab();
    cmd.env("LD_PRELOAD", lib)
        .args(args)
        .arg(fixture("compare/mini-4x4.txt"))
        .args(["--min-time", "0", "--min-samples", "3"]);
    if !out.as_os_str().is_empty() {
        cmd.arg("--out").arg(out);
    }
    let run = cmd.output().unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    run
}

#[test]
fn a_coarse_cpu_clock_is_noticed_and_runs_are_timed_by_the_wall_clock() {
    let dir = tempfile::tempdir().unwrap();
    let Some(lib) = coarse_clock(dir.path()) else {
        return;
    };
    let out = dir.path().join("report");
    let run = coarse_run(&lib, &["compare", "-s", "bitmask,mrv", "--dataset"], &out);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        stdout.contains("NOT CPU TIME: this machine's per-thread CPU clock moves in steps of 4 ms"),
        "{stdout}"
    );
    let meta = std::fs::read_to_string(out.join("meta.csv")).unwrap();
    assert!(meta.contains("cpu_clock,"), "{meta}");
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(readme.contains("**Not CPU time here:**"));
    // Every run has a time: none read 0 ns, so every puzzle gets a ratio.
    let mut r = csv::Reader::from_path(out.join("results.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let (t, lo) = (col("time_ns"), col("time_min_ns"));
    let mut rows = 0;
    for rec in r.records() {
        let rec = rec.unwrap();
        let time: f64 = rec[t].parse().unwrap();
        let fastest: f64 = rec[lo].parse().unwrap();
        assert!(time > 0.0 && fastest > 0.0, "{rec:?}");
        rows += 1;
    }
    // 6 puzzles × 2 strategies.
    assert_eq!(rows, 12);
    // So a diff of the run against itself has a ratio for every pair.
    let diff = lab()
        .arg("diff")
        .arg(&out)
        .arg(&out)
        .arg("--json")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&diff.stdout).expect("JSON");
    for row in v["rows"].as_array().unwrap() {
        assert_eq!(row["ratio"], 1.0, "{row}");
        assert_eq!(row["timed"], 6, "{row}");
    }
}

#[test]
fn speed_says_its_times_are_wall_times_on_a_coarse_clock() {
    let dir = tempfile::tempdir().unwrap();
    let Some(lib) = coarse_clock(dir.path()) else {
        return;
    };
    let run = coarse_run(&lib, &["speed", "-s", "bitmask"], Path::new(""));
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stdout.contains("wall time per solve (this machine's CPU clock is too coarse)"),
        "{stdout}"
    );
    assert!(
        stderr.contains(&format!(
            "{}: this machine's per-thread CPU clock moves in steps of 4 ms",
            sudoku_lab::BUSY_NOTE
        )),
        "{stderr}"
    );
}
