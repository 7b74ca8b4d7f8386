//! `compare`: run strategies over datasets and write a report folder.
//!
//! The pipeline keeps computing and presenting apart:
//! [`run`] measures and yields plain rows → `results.csv` (streamed) and
//! [`summary::Aggregate`] (per-size [`crate::analysis::ladder::Ladder`]s) →
//! [`charts::ChartData`] → [`crate::export::chart`] (SVG/PNG bytes) and [`report`] (Markdown,
//! console summary) → `write::Staging`, the one place that writes files,
//! atomically. `sudoku-lab report DIR` starts the same pipeline from
//! `DIR/results.csv`, so a report can always be redrawn without solving.
//!
//! Without `--out`, a run of the default selection writes `REPORTS`; any
//! other selection writes its own folder below it (`default_out`). Neither
//! is the committed sample report (`reports/`, regenerated on purpose by
//! `scripts/sample-report.sh`), so a user's runs leave a checkout clean.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;

pub(crate) mod baseline;
pub(crate) mod estimates;
pub(crate) mod eta;
pub(crate) mod forecast;
pub(crate) mod merge;
pub(crate) mod programs;
pub(crate) mod run;
pub(crate) mod shards;
pub(crate) mod write;

pub use eta::{Eta, process_cpu};
pub use programs::{Placement, place};
pub use run::{
    Finished, Forecast, Item, Plan, Prepared, Schedule, Source, Tick, execute, measure, prepare,
    probe, resolve_sources,
};
pub use write::STAGING_PREFIX;

use crate::analysis::{charts, summary};
use crate::export::report;
use charts::ChartData;
use report::Meta;
use summary::Aggregate;
use write::{FolderLock, Staging};

use crate::base::board::Board;
use crate::base::progress::Progress;
use crate::base::search::Limits;
use crate::base::strategy::Strategy;
use crate::measure::{self, Conditions};

/// File names inside a report folder.
pub(crate) const RESULTS: &str = "results.csv";
/// Every kept sample of every row ([`run::samples_record`]).
pub const SAMPLES: &str = "samples.csv";
pub const SUMMARY: &str = "summary.csv";
pub(crate) const META: &str = "meta.csv";
pub const README: &str = "README.md";

/// Refuses a report file that exists but is not a regular file (reached
/// through a link to `/dev/zero`, a FIFO, a folder).
fn regular_or_missing(path: &Path) -> anyhow::Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => anyhow::bail!(
            "cannot read {}: it is not a regular file (a device, FIFO or folder); a report folder holds regular files",
            path.display()
        ),
        _ => Ok(()),
    }
}

/// Every name a report folder's files may have (which of them a report
/// writes depends on the run: `programs.*` only with programs).
fn report_names() -> Vec<String> {
    let mut names: Vec<String> = [README, RESULTS, SAMPLES, SUMMARY, META, programs::PROGRAMS]
        .map(String::from)
        .to_vec();
    for stem in crate::export::chart::report_folder_charts().map(|c| c.stem) {
        names.push(format!("{stem}.svg"));
        names.push(format!("{stem}.png"));
    }
    names
}

/// Where reports go when `--out` is not given: the default selection (every
/// shipped dataset and strategy, default budget, no sample) writes here (a
/// folder the repository ignores; the committed sample is `reports/`)...
pub const REPORTS: &str = "my-reports";
/// ...and any other selection writes to its own folder below this one
/// (`my-reports/runs/SELECTION`), so a quick filtered run never replaces the
/// full report.
pub const RUNS: &str = "runs";

/// What a finished `compare` or `report` produced.
#[derive(Debug)]
pub struct Done {
    pub out: PathBuf,
    /// The end-of-run summary for the terminal ([`report::console`]).
    pub console: String,
    /// The command of a report of another selection this one replaced.
    pub replaced: Option<String>,
    /// Puzzles outside programs failed ([`programs::failures`]).
    pub program_failures: u64,
    /// The rows of `summary.csv` (`--json` prints them).
    pub summary: Vec<summary::SummaryRow>,
}

/// What a plan measures, as a folder name; `None` for the default selection.
/// Datasets, strategies, sample and budget make the selection (timing and
/// `--jobs` only change precision and speed). Deterministic, so running the
/// same selection again replaces its own report.
pub fn selection(plan: &Plan) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    // Where the shipped sets cannot be listed, no selection is the default.
    if run::resolve_sources(&[]).ok().as_ref() != Some(&plan.sources) {
        let names: Vec<&str> = plan.sources.iter().map(|s| s.name.as_str()).collect();
        parts.push(names.join("+"));
    }
    if run::dedup_in_ladder_order(&plan.strategies) != Strategy::ladder() {
        let names: Vec<&str> = plan.strategies.iter().map(|s| s.name()).collect();
        parts.push(names.join("+"));
    }
    if let Some(s) = plan.sample {
        parts.push(format!("sample-{}-seed-{}", s.n, s.seed));
    }
    if plan.budget != crate::base::defaults::MEASURE_BUDGET {
        parts.push(format!("budget-{}", plan.budget));
    }
    if plan.limit != crate::base::defaults::LIMIT {
        parts.push(format!("limit-{}", plan.limit));
    }
    if !plan.programs.is_empty() {
        let names: Vec<&str> = plan.programs.iter().map(|p| p.name.as_str()).collect();
        parts.push(format!("programs-{}", names.join("+")));
    }
    if let Some(a) = &plan.shard {
        parts.push(format!("shard-{}-of-{}", a.shard.index(), a.shard.count()));
    }
    if parts.is_empty() {
        return None;
    }
    let slug: String = parts
        .join(".")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-+._".contains(c) {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let slug = slug.trim_start_matches('.').to_string();
    const MAX: usize = 80;
    if slug.len() <= MAX {
        return Some(slug);
    }
    // FNV-1a: a short, stable tag for what the cut-off part held.
    let hash = crate::run::shard::fnv1a64(slug.as_bytes());
    Some(format!("{}-{:08x}", &slug[..60], hash as u32))
}

/// The report folder when `--out` is not given (see [`REPORTS`]).
pub(crate) fn default_out(plan: &Plan) -> PathBuf {
    match selection(plan) {
        None => PathBuf::from(REPORTS),
        Some(slug) => Path::new(REPORTS).join(RUNS).join(slug),
    }
}

/// Runs the plan and writes a complete report into `out`. `command` is the
/// command line to quote in the report; `progress` hears of every run.
pub fn compare(
    plan: &Plan,
    out: &Path,
    command: &str,
    progress: &dyn Progress,
) -> anyhow::Result<Done> {
    let start = Instant::now();
    let prepared = run::prepare(plan)?;
    let print = crate::run::shard::Fingerprint::of(plan, &prepared)?;
    let prepared = match &plan.shard {
        Some(a) => shards::restrict(prepared, a.shard)?,
        None => prepared,
    };
    let strategies = run::dedup_in_ladder_order(&plan.strategies);
    let runs: u64 = prepared
        .iter()
        .map(|p| p.runs() * strategies.len() as u64)
        .sum();
    let slug = selection(plan);
    let previous = previous_command(out, slug.as_deref(), command);

    let mut meta = plan_meta(plan, &prepared, &strategies, slug.as_deref(), command);
    print.to_meta(&mut meta);
    if let Some(a) = &plan.shard {
        shards::shard_to_meta(&mut meta, a, &prepared);
    }

    let mut staging = Staging::new(out)?;
    if write::old_report(out) {
        staging.known_names(report_names());
    }
    let Measured {
        parts,
        samples,
        agg,
        mut conditions,
        warm_tasks,
    } = measure_all(plan, &prepared, &strategies, staging.dir(), runs, progress)?;
    conditions.sample_load();
    progress.say("timing a few puzzles warm, for comparison");
    let warm: Vec<(Strategy, &Board, f64)> = warm_tasks
        .iter()
        .map(|(s, item, ns)| (*s, &item.board, *ns))
        .collect();
    let bonus = measure::warm_bonus(&warm, Limits::count(plan.limit, plan.budget.get()));
    meta.set("warm_bonus", warm_bonus_text(&bonus));
    if let (Some(a), Some(c)) = (conditions.accounted, conditions.clock_ns) {
        meta.set(
            "clock",
            format!(
                "{c:.0} ns per run taken off (the cost of reading the CPU and wall clocks); the runs' times add up to {:.1}% of the CPU time of the passes that held them",
                a * 100.0
            ),
        );
    }
    progress.say("writing the report");
    let file = staging.create(RESULTS)?;
    parts.join(file)?;
    samples.join(staging.create(SAMPLES)?)?;
    let (program_rows, startups) = programs::run_all(&plan.programs, &prepared, progress)?;
    if !plan.programs.is_empty() {
        staging.write(programs::PROGRAMS, &programs::to_csv(&program_rows)?)?;
        meta.set("programs", programs::settings(&plan.programs));
        meta.set("program_startup", programs::startups_to_meta(&startups));
    }
    conditions_meta(&mut meta, &conditions, start);

    let results = staging.path(RESULTS);
    let (console, summary) = write_report(&mut staging, &agg, &meta, out, &results, &program_rows)?;
    staging.commit(&FolderLock::acquire(out)?)?;
    Ok(Done {
        out: out.to_path_buf(),
        console,
        replaced: previous,
        program_failures: programs::failures(&program_rows),
        summary,
    })
}

/// What measuring leaves: `results.csv`'s parts, the aggregate, the
/// machine's conditions and the warm ÷ cold check's puzzles.
struct Measured {
    parts: Parts,
    samples: Parts,
    agg: Aggregate,
    conditions: Conditions,
    warm_tasks: Vec<(Strategy, Arc<run::Item>, f64)>,
}

/// Sizes the searches, then measures every task of `prepared`, writing
/// rows into parts under `dir` as they come.
fn measure_all(
    plan: &Plan,
    prepared: &[run::Prepared],
    strategies: &[Strategy],
    dir: &Path,
    runs: u64,
    progress: &dyn Progress,
) -> anyhow::Result<Measured> {
    progress.say("sizing the searches");
    let probes = run::probe(plan, prepared)?;
    let mut forecast = run::Forecast::default();
    for &(side, nodes) in probes.iter().flatten() {
        for &s in strategies {
            forecast.expect(s, side, nodes);
        }
    }
    let mut parts = Parts::new(dir, prepared.len(), RESULTS, run::columns());
    let mut samples = Parts::new(dir, prepared.len(), SAMPLES, run::SAMPLE_COLUMNS.to_vec());
    let mut agg = Aggregate::with_datasets(prepared.iter().map(|p| p.source.name.as_str()));
    let mut conditions = Conditions::new(plan.jobs);
    conditions.sample_load();
    progress.left(None);
    progress.start(runs);
    progress.say("");
    // The warm ÷ cold check's puzzles: the first short, timed tasks of
    // each strategy, in row order (so the same on every run).
    let mut warm_tasks: Vec<(Strategy, Arc<run::Item>, f64)> = Vec::new();
    let mut sink = |f: run::Finished| -> anyhow::Result<()> {
        if let Some((accounted, clock)) = f.group {
            conditions.account(accounted, clock);
        }
        if let Some(t) = &f.measured
            && t.cpu_ns < measure::LONG_RUN
            && warm_tasks.iter().filter(|w| w.0 == f.row.strategy).count() < measure::WARM_TASKS
        {
            warm_tasks.push((f.row.strategy, f.item.clone(), t.cpu_ns));
        }
        let row = &f.row;
        parts.write(f.dataset, row)?;
        if row.timing.is_some() {
            samples.write(f.dataset, &run::samples_record(row, &f.samples))?;
        }
        agg.push(row);
        if let Some(t) = &f.measured {
            conditions.add(t);
        }
        if agg.rows.is_multiple_of(256) {
            conditions.sample_load();
        }
        Ok(())
    };
    // The estimate follows tasks as they finish (on the workers), not as
    // the sink receives them in order, and the work of the groups still
    // running by the process's CPU clock ([`eta`]).
    eta::follow(eta::Eta::new(forecast), progress, |done| {
        run::execute(plan, prepared, &probes, &mut sink, done)
    })?;
    Ok(Measured {
        parts,
        samples,
        agg,
        conditions,
        warm_tasks,
    })
}

/// What measuring saw of the machine, into meta.csv.
fn conditions_meta(meta: &mut Meta, conditions: &Conditions, start: Instant) {
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
        "retaken",
        format!(
            "{} (samples taken while the core ran slow, thrown away and taken again); {} of {} samples kept although taken while it ran slow; pace {} (a reference search or loop ÷ its best on this machine, median over the measurements)",
            conditions.retaken,
            conditions.slow,
            conditions.samples,
            conditions.pace().map_or_else(|| "unknown".to_string(), |p| format!("{p:.3}"))
        ),
    );
    meta.set(
        "busy",
        conditions.busy().unwrap_or_else(|| "no".to_string()),
    );
    if let Some(note) = crate::export::present::clock_note(conditions) {
        meta.set(crate::io::meta::CPU_CLOCK, note);
    }
    if let Some(p) = conditions.pace() {
        meta.set(crate::run::shard::PACE, format!("{p:.3}"));
    }
    meta.set(
        "wall_time",
        format!("{:.1} s", start.elapsed().as_secs_f64()),
    );
}

/// What `compare` writes to meta.csv before measuring: the command, the
/// plan and the machine and checkout it runs on.
fn plan_meta(
    plan: &Plan,
    prepared: &[run::Prepared],
    strategies: &[Strategy],
    slug: Option<&str>,
    command: &str,
) -> Meta {
    let mut meta = Meta::default();
    meta.set("command", command);
    meta.set(
        "selection",
        slug.map(str::to_string).unwrap_or_else(|| {
            "default: every shipped dataset and strategy, default budget, no sample".to_string()
        }),
    );
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
    meta.set(crate::run::shard::HOST, crate::run::shard::hostname());
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
    meta.set("limit", plan.limit.to_string());
    meta.set(
        "sample",
        match plan.sample {
            Some(s) => format!("{} (seed {})", s.n, s.seed),
            None => "all puzzles".to_string(),
        },
    );
    meta.set("timing", timing_text(plan));
    meta.set(
        "order",
        "datasets interleaved, each advancing at the same pace (results.csv keeps dataset, puzzle, strategy order)",
    );

    meta
}

/// meta.csv's `timing`: how the times were taken, every threshold quoted
/// from the constant that sets it.
fn timing_text(plan: &Plan) -> String {
    format!(
        "cold passes (seed {}): per puzzle × strategy, the median per-thread CPU time of single uncounted runs, one per pass over its group of {} tasks in a fresh shuffle, until at least {} runs and {} ms, or from {} runs on the 95% interval of its median within ±{}% of it (a task whose first timed run takes {} ms or more: that run is its first sample and it gets at most 3; {} ms or more: that one run only; at most {} runs in all); runs shorter than {} ms of a stretch around which a reference ran slow are retaken (with one worker a search, slow over {}× the best this machine has run it, and the stretch first waits for the pace; with several an arithmetic loop, slow over {}×)",
        plan.method.seed,
        crate::base::defaults::MEASURE_GROUP,
        plan.method.min_samples,
        plan.method.min_time.as_secs_f64() * 1e3,
        plan.method.min_samples,
        plan.method.tight * 100.0,
        crate::measure::LONG_RUN / 1e6,
        crate::measure::ONE_RUN / 1e6,
        crate::measure::MAX_SAMPLES,
        crate::measure::LONG_RUN / 1e6,
        crate::measure::SLOW_SEARCH,
        crate::measure::SLOW_LOOP,
    )
}

/// The command that made the report in `out`, when that report is of
/// another selection than `slug` (read from its meta.csv; `None` when there
/// is no report, or it is of the same selection). A report from before
/// selections were recorded is of the same selection when it was made by
/// the same `command`.
fn previous_command(out: &Path, slug: Option<&str>, command: &str) -> Option<String> {
    let bytes = std::fs::read(out.join(META)).ok()?;
    let meta = Meta::from_csv(&bytes).ok()?;
    let theirs = meta.get("command")?.to_string();
    let same = match (meta.get("selection"), slug) {
        (Some(t), Some(s)) => t == s,
        (Some(t), None) => t.starts_with("default"),
        (None, _) => theirs == command,
    };
    (!same).then_some(theirs)
}

/// `results.csv` (or `samples.csv`) as it is measured: one file per dataset
/// in the staging folder (datasets are measured interleaved), joined in
/// dataset order at the end. The part files are never committed.
struct Parts {
    dir: PathBuf,
    /// The file the parts make, and its header.
    name: &'static str,
    header: Vec<&'static str>,
    writers: Vec<Option<crate::io::csv_file::Writer<std::io::BufWriter<std::fs::File>>>>,
}

impl Parts {
    fn new(dir: &Path, datasets: usize, name: &'static str, header: Vec<&'static str>) -> Parts {
        Parts {
            dir: dir.to_path_buf(),
            name,
            header,
            writers: (0..datasets).map(|_| None).collect(),
        }
    }

    fn path(&self, d: usize) -> PathBuf {
        self.dir.join(format!("part-{d}-{}", self.name))
    }

    fn write(&mut self, d: usize, row: &impl serde::Serialize) -> anyhow::Result<()> {
        let name = self.name;
        if self.writers[d].is_none() {
            let path = self.path(d);
            let file = std::fs::File::create(&path)
                .with_context(|| format!("cannot create {}", path.display()))?;
            self.writers[d] = Some(crate::io::csv_file::Writer::new(std::io::BufWriter::new(
                file,
            )));
        }
        if let Some(w) = &mut self.writers[d] {
            w.row(row).with_context(|| format!("cannot write {name}"))?;
        }
        Ok(())
    }

    /// Writes the header and every part, in dataset order, to `file`, and
    /// removes the parts.
    fn join(mut self, file: std::io::BufWriter<std::fs::File>) -> anyhow::Result<()> {
        let name = self.name;
        let mut csv = crate::io::csv_file::Writer::new(file);
        let mut file = csv
            .header(&self.header)
            .and_then(|()| csv.into_inner())
            .with_context(|| format!("cannot write {name}"))?;
        for d in 0..self.writers.len() {
            let Some(w) = self.writers[d].take() else {
                continue;
            };
            w.into_inner()
                .with_context(|| format!("cannot write {name}"))?
                .flush()
                .with_context(|| format!("cannot write {name}"))?;
            let path = self.path(d);
            let mut part = std::fs::File::open(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            std::io::copy(&mut part, &mut file).with_context(|| format!("cannot write {name}"))?;
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove {}", path.display()))?;
        }
        file.flush()
            .with_context(|| format!("cannot write {name}"))?;
        Ok(())
    }
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
/// time lands wholly before or wholly after. A folder the lab did not make
/// is refused unless `force` ([`write::check_out`]).
pub(crate) fn redraw(dir: &Path, force: bool) -> anyhow::Result<Done> {
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
    // What it reads does not count: a folder of results.csv (and the
    // meta.csv it writes back as read) is redrawn.
    write::check_out(dir, force, &[RESULTS, META, programs::PROGRAMS])?;
    let lock = FolderLock::acquire(dir)?;
    let results = dir.join(RESULTS);
    if std::fs::metadata(&results).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
        anyhow::bail!(
            "cannot redraw {}: it holds no {RESULTS} (a folder written by `sudoku-lab compare` does)",
            dir.display()
        );
    }
    // A link to a device or a FIFO would be read without end, or block.
    for name in [RESULTS, META, programs::PROGRAMS] {
        regular_or_missing(&dir.join(name))?;
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
    // Programs' rows, when the run that made the folder had programs.
    let program_rows = match meta.get("programs") {
        Some(_) => programs::read(&dir.join(programs::PROGRAMS))?,
        None => Vec::new(),
    };
    let mut staging = Staging::with_lock(&lock)?;
    if write::old_report(dir) {
        staging.known_names(report_names());
    }
    staging.keep(RESULTS);
    if dir.join(SAMPLES).is_file() {
        staging.keep(SAMPLES);
    }
    if !program_rows.is_empty() {
        staging.keep(programs::PROGRAMS);
    }
    let (console, summary) = write_report(&mut staging, &agg, &meta, dir, &results, &program_rows)?;
    staging.commit(&lock)?;
    Ok(Done {
        out: dir.to_path_buf(),
        console,
        replaced: None,
        program_failures: programs::failures(&program_rows),
        summary,
    })
}

/// Streams a `results.csv` into an aggregate ([`run::read`]: by column
/// name; errors name the file, line and column).
pub fn read_results(path: &Path) -> anyhow::Result<Aggregate> {
    let mut agg = Aggregate::default();
    run::read(path, |row| agg.push(&row))?;
    Ok(agg)
}

/// Writes summary.csv, meta.csv, the charts and README.md into the staging
/// folder; returns the console summary and the rows of summary.csv. Programs' rows (if any) are placed
/// against the rungs' rows of `results`.
pub(crate) fn write_report(
    staging: &mut Staging,
    agg: &Aggregate,
    meta: &Meta,
    out: &Path,
    results: &Path,
    program_rows: &[programs::ProgramRow],
) -> anyhow::Result<(String, Vec<summary::SummaryRow>)> {
    let summary = agg.summary();
    let bytes = crate::io::csv_file::with_header(
        summary::columns(),
        summary.iter().map(summary::SummaryRow::record),
    )
    .with_context(|| format!("cannot build {SUMMARY}"))?;
    staging.write(SUMMARY, &bytes)?;
    if !meta.entries.is_empty() {
        staging.write(META, &meta.to_csv()?)?;
    }
    let data = ChartData::new(agg);
    for chart in crate::export::chart::render_all(&data)? {
        staging.write(&format!("{}.svg", chart.stem), chart.svg.as_bytes())?;
        staging.write(&format!("{}.png", chart.stem), &chart.png)?;
    }
    let mut md = report::markdown(meta, agg, &summary, &data);
    let mut console = report::console(
        meta,
        agg,
        &data.ladders,
        &out.join(README).display().to_string(),
    );
    if !program_rows.is_empty() {
        let startups =
            programs::startups_from_meta(meta.get("program_startup").unwrap_or_default());
        let results = programs::read_results(results)?;
        let placements = programs::place(&results, program_rows, &startups);
        let chart = crate::export::chart::programs::render_chart(
            &crate::analysis::program_panels::panels(&results, program_rows, &startups),
        )?;
        staging.write(&format!("{}.svg", chart.stem), chart.svg.as_bytes())?;
        staging.write(&format!("{}.png", chart.stem), &chart.png)?;
        let settings = meta.get("programs").unwrap_or_default();
        let (section, lines) = programs::section(settings, &placements, program_rows);
        md.push_str(&section);
        console.push_str(&lines);
    }
    staging.write(README, md.as_bytes())?;
    Ok((console, summary))
}

/// The `warm_bonus` line of meta.csv: per strategy, cold ÷ warm time as a
/// factor with the number of puzzles it is over.
fn warm_bonus_text(bonus: &[(Strategy, f64, usize)]) -> String {
    if bonus.is_empty() {
        return "not measured (no task under 1 ms)".to_string();
    }
    bonus
        .iter()
        .map(|(s, f, n)| format!("{s} ×{f:.2} (n={n})"))
        .collect::<Vec<_>>()
        .join(", ")
}
