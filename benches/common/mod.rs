//! What the benches share: criterion set up to write its HTML report (plots
//! included), and criterion's own estimates of this run, read back for the
//! summary tables. Also compiled into `tests/criterion_report.rs`, which runs
//! a tiny group with the same setup and checks the report exists.

// Each user (the two benches, the test) needs a different part of this.
#![allow(dead_code)]

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use criterion::{Criterion, PlottingBackend};

/// The reference benchmark's name: the `sudoku` crate 0.8 (a JCZSolve port,
/// AGPL-3.0, a dev-dependency used only here).
pub const REFERENCE: &str = "sudoku-crate-0.8";

/// Where the public corpora are: `$SUDOKU_LAB_SHARED`, else `../shared/datasets`.
pub fn shared_dir() -> PathBuf {
    std::env::var_os("SUDOKU_LAB_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets"))
}

/// Criterion as the lab's benches run it: 10 samples, the given windows, and
/// plots on, so every run writes `target/criterion/report/index.html`.
///
/// Plots are drawn by criterion's plotters backend on every machine, gnuplot
/// or not: the same report everywhere, and the path the report test checks
/// (`-- --plotting-backend gnuplot` still picks gnuplot where installed).
///
/// [`RESAMPLES`] bootstrap resamples rather than criterion's 100,000: the
/// plots include density estimates of every bootstrap distribution, whose
/// cost grows with the resamples (about 10 s per benchmark at 100,000 on two
/// busy cores, over 20 minutes for `cargo bench`). Point estimates do not
/// depend on it; `-- --nresamples N` overrides it.
///
/// The lab enables plotters' `ab_glyph` feature (its charts embed DejaVu
/// Sans), and Cargo unifies features, so criterion's plotters backend gets
/// `ab_glyph` too: it then draws text only with fonts the program registered,
/// and panics with `FontUnavailable` on the first plot otherwise. Registering
/// the lab's embedded font here, before criterion draws, is what keeps the
/// plots working on any machine (no system font is ever consulted).
pub fn criterion(warm_up: Duration, measurement: Duration) -> Criterion {
    if let Err(e) = sudoku_lab::export::register_font() {
        panic!("bench setup: {e:#}");
    }
    Criterion::default()
        .plotting_backend(PlottingBackend::Plotters)
        .sample_size(10)
        .nresamples(RESAMPLES)
        .warm_up_time(warm_up)
        .measurement_time(measurement)
}

/// Bootstrap resamples per estimate (confidence intervals).
pub const RESAMPLES: usize = 10_000;

/// The directory criterion writes to, found the way criterion finds it:
/// `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`, else the target
/// directory `cargo metadata` reports, else `target/criterion`.
pub fn criterion_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    let metadata = std::env::var_os("CARGO").and_then(|cargo| {
        let out = Command::new(cargo)
            .args(["metadata", "--format-version", "1", "--no-deps"])
            .output()
            .ok()?;
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
        json["target_directory"].as_str().map(PathBuf::from)
    });
    metadata
        .unwrap_or_else(|| PathBuf::from("target"))
        .join("criterion")
}

/// Which of criterion's estimates a figure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stat {
    /// Slope of the linear regression of time on iterations (criterion
    /// samples linearly when iterations are short).
    Slope,
    /// Mean time per iteration (flat sampling, for long iterations).
    Mean,
}

impl fmt::Display for Stat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stat::Slope => "slope",
            Stat::Mean => "mean",
        })
    }
}

/// Criterion's "typical" estimate of one benchmark: the middle figure of the
/// `time:` and `thrpt:` lines it prints (the slope when it has one, else the
/// mean).
#[derive(Clone, Copy, Debug)]
pub struct Typical {
    /// Time per iteration, in nanoseconds.
    pub ns: f64,
    pub stat: Stat,
}

/// The typical estimate of every benchmark under `home` written at or after
/// `since`, by full id (`group/function/value`, as criterion prints it).
/// Older estimates (another run, or a benchmark filtered out of this one)
/// are left out, so a summary never quotes a stale figure.
pub fn typical_estimates(home: &Path, since: SystemTime) -> HashMap<String, Typical> {
    let mut found = HashMap::new();
    collect(home, since, 0, &mut found);
    found
}

/// Criterion's layout is `group/function/value/new/{benchmark,estimates}.json`.
const MAX_DEPTH: usize = 5;

fn collect(dir: &Path, since: SystemTime, depth: usize, found: &mut HashMap<String, Typical>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let path = entry.path();
        if entry.file_name() == "new" {
            if let Some((id, typical)) = read_new(&path, since) {
                found.insert(id, typical);
            }
        } else if depth < MAX_DEPTH {
            collect(&path, since, depth + 1, found);
        }
    }
}

/// One benchmark's `new/` directory: its full id and typical estimate, if
/// the estimate was written at or after `since`.
fn read_new(new: &Path, since: SystemTime) -> Option<(String, Typical)> {
    let estimates = new.join("estimates.json");
    let written = std::fs::metadata(&estimates).ok()?.modified().ok()?;
    if written < since {
        return None;
    }
    let read = |name: &Path| -> Option<serde_json::Value> {
        serde_json::from_str(&std::fs::read_to_string(name).ok()?).ok()
    };
    let id = read(&new.join("benchmark.json"))?["full_id"]
        .as_str()?
        .to_string();
    let json = read(&estimates)?;
    let typical = match json["slope"]["point_estimate"].as_f64() {
        Some(ns) => Typical {
            ns,
            stat: Stat::Slope,
        },
        None => Typical {
            ns: json["mean"]["point_estimate"].as_f64()?,
            stat: Stat::Mean,
        },
    };
    Some((id, typical))
}

/// A seeded sample of `items` (file order kept), drawn by the lab's one
/// sampler: the same `n` and `seed` pick the same puzzles as `--sample N
/// --seed S` does in every command.
#[allow(dead_code)]
pub fn sample<T: Clone>(items: &[T], n: usize, seed: u64) -> Vec<T> {
    let draw = sudoku_lab::io::Sample { n: n as u64, seed }
        .draw(items.iter().cloned().map(Ok::<T, std::convert::Infallible>));
    match draw {
        Ok((picked, _)) => picked.into_iter().map(|(_, t)| t).collect(),
        Err(never) => match never {},
    }
}
