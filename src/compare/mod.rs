//! `compare`: run strategies over datasets and write a report folder.
//!
//! The pipeline keeps computing and presenting apart:
//! [`run`] measures and yields plain rows → `results.csv` (streamed) and
//! [`summary::Aggregate`] → [`charts::ChartData`] → [`draw`] (SVG/PNG bytes)
//! and [`report`] (Markdown) → [`write::Staging`], the one place that writes
//! files, atomically. `sudoku-lab report DIR` starts the same pipeline from
//! `DIR/results.csv`, so a report can always be redrawn without solving.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;

pub mod charts;
pub mod draw;
pub mod report;
pub mod run;
pub mod summary;
pub mod write;

use charts::ChartData;
use report::Meta;
use run::{Plan, Row};
use summary::{Aggregate, SummaryRow};
use write::{FolderLock, Staging};

use crate::measure::Conditions;

/// File names inside a report folder.
pub const RESULTS: &str = "results.csv";
pub const SUMMARY: &str = "summary.csv";
pub const META: &str = "meta.csv";
pub const README: &str = "README.md";

/// What a finished `compare` or `report` produced.
#[derive(Debug)]
pub struct Done {
    pub summary: Vec<SummaryRow>,
    pub rows: u64,
    pub out: PathBuf,
}

/// Runs the plan and writes a complete report into `out`. `command` is the
/// command line to quote in the report; `progress` receives one tick per run.
pub fn compare(
    plan: &Plan,
    out: &Path,
    command: &str,
    progress: &indicatif::ProgressBar,
) -> anyhow::Result<Done> {
    let start = Instant::now();
    let prepared = run::prepare(plan)?;
    let strategies = run::dedup_in_ladder_order(&plan.strategies);
    let runs: u64 = prepared
        .iter()
        .map(|p| p.runs() * strategies.len() as u64)
        .sum();
    progress.set_length(runs);

    let mut meta = Meta::default();
    meta.set("command", command);
    meta.set("commit", report::git_commit());
    meta.set("version", env!("CARGO_PKG_VERSION"));
    meta.set(
        "profile",
        if cfg!(debug_assertions) {
            "debug (timings are not representative)"
        } else {
            "release"
        },
    );
    meta.set(
        "rustc",
        option_env!("SUDOKU_LAB_RUSTC").unwrap_or("unknown"),
    );
    meta.set("cpu", report::cpu_model());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    meta.set("threads", format!("{threads} / {}", plan.jobs));
    meta.set("date", report::utc_now());
    let datasets: Vec<String> = prepared
        .iter()
        .map(|p| {
            format!(
                "{} ({} of {} puzzles, {})",
                p.source.name,
                p.runs(),
                p.total,
                shown_path(&p.source.path).display()
            )
        })
        .collect();
    meta.set("datasets", datasets.join("; "));
    let names: Vec<&str> = strategies.iter().map(|s| s.name()).collect();
    meta.set("strategies", names.join(", "));
    meta.set("budget", plan.budget.to_string());
    meta.set(
        "sample",
        match plan.sample {
            Some(s) => format!("{} (seed {})", s.n, s.seed),
            None => "all puzzles".to_string(),
        },
    );
    meta.set(
        "timing",
        format!(
            "per puzzle × strategy: median per-thread CPU time over at least {} samples and {} ms of uncounted runs",
            plan.method.min_samples,
            plan.method.min_time.as_millis()
        ),
    );

    let mut staging = Staging::new(out)?;
    let file = staging.create(RESULTS)?;
    let mut csv = csv::Writer::from_writer(file);
    csv.write_record(run::columns())
        .with_context(|| format!("cannot write {RESULTS}"))?;
    let mut agg = Aggregate::default();
    let mut conditions = Conditions::new(plan.jobs);
    conditions.sample_load();
    let mut sink = |row: &Row| -> anyhow::Result<()> {
        csv.write_record(row.record())
            .with_context(|| format!("cannot write {RESULTS}"))?;
        agg.push(row);
        if let Some(t) = &row.timing {
            conditions.add(t);
        }
        if agg.rows % 256 == 0 {
            conditions.sample_load();
        }
        Ok(())
    };
    run::execute(plan, &prepared, &mut sink, &|| progress.inc(1))?;
    conditions.sample_load();
    meta.set(
        "load",
        match conditions.load {
            Some(l) => format!("{l:.2} (1-minute load average, median while measuring)"),
            None => "unknown".to_string(),
        },
    );
    if let Some(r) = conditions.wall_over_cpu {
        meta.set("wall_over_cpu", format!("{r:.3}"));
    }
    meta.set(
        "busy",
        conditions.busy().unwrap_or_else(|| "no".to_string()),
    );
    let mut file = csv
        .into_inner()
        .map_err(|e| anyhow::anyhow!("cannot write {RESULTS}: {}", e.error()))?;
    file.flush()
        .with_context(|| format!("cannot write {RESULTS}"))?;
    drop(file);
    agg.finish();
    meta.set(
        "wall_time",
        format!("{:.1} s", start.elapsed().as_secs_f64()),
    );
    progress.finish_and_clear();

    let summary = write_report(&mut staging, &agg, &meta)?;
    staging.commit(&FolderLock::acquire(out)?)?;
    Ok(Done {
        summary,
        rows: agg.rows,
        out: out.to_path_buf(),
    })
}

/// A dataset path as the report shows it: relative to the working folder
/// when below it (so a committed report names `datasets/...`, not a home folder).
fn shown_path(path: &Path) -> PathBuf {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(&cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
}

/// Redraws summary, charts and README of `dir` from `dir/results.csv`
/// (and `dir/meta.csv` when present), without solving anything. Holds the
/// folder's lock throughout, so a `compare` committing into `dir` at the same
/// time lands wholly before or wholly after.
pub fn redraw(dir: &Path) -> anyhow::Result<Done> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => anyhow::bail!(
            "cannot redraw {}: it is a file, not a folder",
            dir.display()
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            anyhow::bail!("cannot redraw {}: no such folder", dir.display())
        }
        Err(e) => return Err(e).with_context(|| format!("cannot redraw {}", dir.display())),
    }
    let lock = FolderLock::acquire(dir)?;
    let results = dir.join(RESULTS);
    if std::fs::metadata(&results).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
        anyhow::bail!(
            "cannot redraw {}: it holds no {RESULTS} (a folder written by `sudoku-lab compare` does)",
            dir.display()
        );
    }
    let agg = read_results(&results)?;
    let meta = match std::fs::read(dir.join(META)) {
        Ok(bytes) => Meta::from_csv(&bytes)
            .with_context(|| format!("cannot read {}", dir.join(META).display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Meta::default(),
        Err(e) => {
            return Err(e).with_context(|| format!("cannot read {}", dir.join(META).display()));
        }
    };
    let mut staging = Staging::with_lock(&lock)?;
    let summary = write_report(&mut staging, &agg, &meta)?;
    staging.commit(&lock)?;
    Ok(Done {
        summary,
        rows: agg.rows,
        out: dir.to_path_buf(),
    })
}

/// Streams a `results.csv` into an aggregate. Errors name the file and line.
pub fn read_results(path: &Path) -> anyhow::Result<Aggregate> {
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("cannot open {}", path.display()))?;
    let header: Vec<String> = reader
        .headers()
        .with_context(|| format!("cannot read {}", path.display()))?
        .iter()
        .map(str::to_string)
        .collect();
    let columns = run::columns();
    if header != columns {
        anyhow::bail!(
            "{}:1: unexpected header; expected the columns {}",
            path.display(),
            columns.join(",")
        );
    }
    let mut agg = Aggregate::default();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            anyhow::anyhow!("{}:{line}: {e}", path.display())
        })?;
        let line = record.position().map_or(0, |p| p.line());
        let row = Row::from_record(&record)
            .map_err(|e| anyhow::anyhow!("{}:{line}: {e}", path.display()))?;
        agg.push(&row);
    }
    agg.finish();
    if agg.rows == 0 {
        anyhow::bail!("{}: no rows", path.display());
    }
    Ok(agg)
}

/// The budget, as far as the rows tell: a budget-exceeded run stops at
/// exactly the budget, so the largest such node count is the budget.
fn budget_seen(agg: &Aggregate) -> Option<u64> {
    agg.groups
        .values()
        .filter(|g| g.budget_exceeded > 0)
        .flat_map(|g| g.samples.iter().filter(|s| !s.solved).map(|s| s.nodes))
        .max()
}

/// Writes summary.csv, meta.csv, the charts and README.md into the staging folder.
fn write_report(
    staging: &mut Staging,
    agg: &Aggregate,
    meta: &Meta,
) -> anyhow::Result<Vec<SummaryRow>> {
    let summary = agg.summary();
    let mut w = csv::Writer::from_writer(Vec::new());
    if summary.is_empty() {
        w.write_record(summary::SUMMARY_COLUMNS)?;
    }
    for row in &summary {
        w.serialize(row)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| anyhow::anyhow!("cannot build {SUMMARY}: {}", e.error()))?;
    staging.write(SUMMARY, &bytes)?;
    if !meta.entries.is_empty() {
        staging.write(META, &meta.to_csv()?)?;
    }
    let data = ChartData::new(agg);
    for chart in draw::render_all(&data, budget_seen(agg))? {
        staging.write(&format!("{}.svg", chart.stem), chart.svg.as_bytes())?;
        staging.write(&format!("{}.png", chart.stem), &chart.png)?;
    }
    let md = report::markdown(meta, agg, &summary, &data);
    staging.write(README, md.as_bytes())?;
    Ok(summary)
}

/// The end-of-run table for the terminal.
pub fn summary_table(rows: &[SummaryRow]) -> String {
    let header = [
        "dataset",
        "strategy",
        "solved",
        "over budget",
        "median nodes",
        "median time",
        "ns/node",
    ];
    let mut cells: Vec<[String; 7]> = vec![header.map(str::to_string)];
    for r in rows {
        cells.push([
            r.dataset.clone(),
            r.strategy.clone(),
            format!("{}/{}", r.solved, r.puzzles - r.unsupported),
            r.budget_exceeded.to_string(),
            r.nodes_median
                .map(draw::fmt_count)
                .unwrap_or_else(|| "-".into()),
            r.time_median_ns
                .map(draw::fmt_time)
                .unwrap_or_else(|| "-".into()),
            r.ns_per_node
                .map(|v| format!("{v:.1}"))
                .unwrap_or_else(|| "-".into()),
        ]);
    }
    let widths: Vec<usize> = (0..7)
        .map(|i| {
            cells
                .iter()
                .map(|c| c[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for c in &cells {
        let line: Vec<String> = c
            .iter()
            .enumerate()
            .map(|(i, v)| {
                if i < 2 {
                    format!("{v:<w$}", w = widths[i])
                } else {
                    format!("{v:>w$}", w = widths[i])
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}
