//! `report merge SHARD_DIR... --out DIR`: the report folders of the shards
//! of one plan (`compare --shard K/N`, [`crate::run::shard`]) into one report.
//!
//! Before anything is written, the shards are checked to be exactly the N
//! shards of one plan, and each refusal names the folder and the problem:
//! a folder given twice, a folder that is not a finished shard (a shard
//! that died leaves no `meta.csv`), shards of different plans (the
//! differing `plan_*` keys of their meta.csv are named), different shard
//! counts, a shard given twice, missing shards, and a shard whose
//! `results.csv` does not hold exactly its share of the plan (an incomplete
//! or edited one). Then the rows are merged into plan order (datasets in
//! plan order, puzzles in file order, strategies in ladder order: the order
//! of a single run) and the report is written by the same code as
//! `compare`'s. Columns are found by name and rows copied as they are, so
//! the merge does not depend on which columns `results.csv` has.
//!
//! The merged `meta.csv` keeps the plan's facts, and lists every shard with
//! its machine (host, CPU, load, pace, busy) in `shards` (JSON); the report
//! says when times were taken on different CPUs or on a busy machine
//! ([`crate::export::shards::section`]).

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use super::{Done, META, RESULTS, SAMPLES, read_results, run, write_report};
use crate::export::shards::console_lines;
use crate::io::meta::{Meta, SHARDS, ShardInfo, machines};
use crate::io::rows::Table;
use crate::measure::results::SAMPLE_COLUMNS;
use crate::run::compare::write::{FolderLock, STAGING_PREFIX, Staging};
use crate::run::shard::{
    Fingerprint, HOST, PACE, PLAN, PLAN_STRATEGIES, PlanDataset, SHARD, SHARD_FROM, SHARD_PUZZLES,
    Shard,
};

/// A shard folder, read and checked on its own.
struct ShardDir {
    dir: PathBuf,
    meta: Meta,
    shard: Shard,
    print: Fingerprint,
}

/// Reads `dir`'s meta.csv as a shard's; errors say what the folder is instead.
fn read_shard(dir: &Path) -> anyhow::Result<ShardDir> {
    let shown = dir.display();
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => bail!("{shown}: a file, not a shard's report folder"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "{shown}: no such folder (a shard that never ran? run it with `sudoku-lab compare ... --shard K/N --out {shown}`)"
        ),
        Err(e) => return Err(e).with_context(|| format!("cannot read {shown}")),
    }
    let bytes = match std::fs::read(dir.join(META)) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let staging = std::fs::read_dir(dir).ok().is_some_and(|entries| {
                entries
                    .flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with(STAGING_PREFIX))
            });
            if staging {
                bail!(
                    "{shown}: incomplete shard: its run has not finished (it died, or it is still running): there is only a staging folder; rerun that shard alone"
                );
            }
            bail!(
                "{shown}: incomplete shard: no {META} (a shard's run writes its report folder whole when it ends; rerun that shard alone)"
            );
        }
        Err(e) => {
            return Err(e).with_context(|| format!("cannot read {}", dir.join(META).display()));
        }
    };
    let meta = Meta::from_csv(&bytes)
        .with_context(|| format!("{}: not a readable {META}", dir.join(META).display()))?;
    let Some(shard) = meta.get(SHARD) else {
        bail!(
            "{shown}: not a shard: its {META} names no shard (made by `compare` without --shard{})",
            if meta.get(SHARDS).is_some() {
                "; it is a merged report"
            } else {
                ""
            }
        );
    };
    let shard: Shard = shard
        .parse()
        .with_context(|| format!("{}: key {SHARD}", dir.join(META).display()))?;
    if meta.get(PLAN).is_none() {
        bail!("{shown}: its {META} has no plan fingerprint (`{PLAN}`)");
    }
    if std::fs::metadata(dir.join(RESULTS)).is_err() {
        bail!("{shown}: incomplete shard {shard}: no {RESULTS}; rerun that shard alone");
    }
    let print = Fingerprint::from_meta(&meta);
    Ok(ShardDir {
        dir: dir.to_path_buf(),
        meta,
        shard,
        print,
    })
}

/// A value for an error message: long ones shortened.
fn short(v: Option<&str>) -> String {
    match v {
        None => "(none)".to_string(),
        Some(v) if v.chars().count() > 120 => {
            format!("{}…", v.chars().take(120).collect::<String>())
        }
        Some(v) => v.to_string(),
    }
}

/// Checks that `shards` are exactly the N shards of one plan (nothing
/// read but their meta.csv); returns them in shard order.
fn check_set(mut shards: Vec<ShardDir>) -> anyhow::Result<Vec<ShardDir>> {
    let Some(first) = shards.first() else {
        bail!("report merge: no shard folders given");
    };
    let name = |s: &ShardDir| format!("{} (shard {})", s.dir.display(), s.shard);
    for s in &shards[1..] {
        let diff = first.print.differences(&s.print);
        if !diff.is_empty() || first.meta.get(PLAN) != s.meta.get(PLAN) {
            let what: Vec<String> = diff
                .iter()
                .map(|k| {
                    format!(
                        "{k}: {} vs {}",
                        short(first.print.get(k)),
                        short(s.print.get(k))
                    )
                })
                .collect();
            bail!(
                "mixed plans: {} and {} are shards of different plans (fingerprints {} and {}){}{}",
                name(first),
                name(s),
                short(first.meta.get(PLAN)),
                short(s.meta.get(PLAN)),
                if what.is_empty() {
                    ""
                } else {
                    "; they differ in "
                },
                what.join("; ")
            );
        }
        if s.shard.count() != first.shard.count() {
            bail!(
                "mixed shard counts: {} and {}: the shards of one merge split the plan the same number of ways",
                name(first),
                name(s)
            );
        }
    }
    let n = first.shard.count();
    shards.sort_by_key(|s| s.shard);
    for w in shards.windows(2) {
        if w[0].shard == w[1].shard {
            bail!(
                "duplicated shard {}: {} and {} (a resubmitted shard replaces its own folder; merge one of them)",
                w[0].shard,
                w[0].dir.display(),
                w[1].dir.display()
            );
        }
    }
    let have: Vec<u64> = shards.iter().map(|s| s.shard.index()).collect();
    let missing: Vec<String> = (0..n)
        .filter(|k| !have.contains(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        bail!(
            "missing shard{} {} of {n}: run {} alone (`sudoku-lab compare ... --shard K/N --out DIR`, the plan of the others) and merge again",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", "),
            if missing.len() == 1 { "it" } else { "each" }
        );
    }
    Ok(shards)
}

/// The rows of one puzzle.
struct Block {
    /// (dataset position in the plan, puzzle index).
    key: (usize, u64),
    /// CSV line of its first row.
    line: u64,
    records: Vec<csv::StringRecord>,
}

/// Reads a shard's results.csv one puzzle at a time, checking each puzzle
/// has one row per strategy of the plan, in ladder order, and that its
/// puzzles come in plan order. The file is read as every `results.csv` is
/// ([`crate::io::rows::Table`], the columns of [`run::required_columns`]
/// required); rows are kept as written.
struct Blocks {
    table: Table,
    shard: Shard,
    next: Option<csv::StringRecord>,
    datasets: Vec<String>,
    strategies: Vec<String>,
    last: Option<(usize, u64)>,
    /// Puzzles read so far.
    puzzles: u64,
}

impl Blocks {
    fn open(
        path: &Path,
        shard: Shard,
        datasets: &[PlanDataset],
        strategies: &[String],
    ) -> anyhow::Result<(Blocks, csv::StringRecord)> {
        let table = Table::open(path, &run::required_columns())?;
        let header = table.header().clone();
        Ok((
            Blocks {
                table,
                shard,
                next: None,
                datasets: datasets.iter().map(|d| d.name.clone()).collect(),
                strategies: strategies.to_vec(),
                last: None,
                puzzles: 0,
            },
            header,
        ))
    }

    fn path(&self) -> &Path {
        self.table.path()
    }

    fn record(&mut self) -> anyhow::Result<Option<csv::StringRecord>> {
        match self.next.take() {
            Some(r) => Ok(Some(r)),
            None => self.table.next_record(),
        }
    }

    fn key(&self, r: &csv::StringRecord) -> anyhow::Result<(usize, u64)> {
        let f = self.table.fields(r);
        let at = |e: String| self.table.error_at(r, &e);
        let dataset = f.text("dataset").map_err(at)?;
        let d = self
            .datasets
            .iter()
            .position(|n| n == dataset)
            .ok_or_else(|| {
                at(format!(
                    "dataset {dataset:?} is not one of the plan's ({})",
                    self.datasets.join(", ")
                ))
            })?;
        Ok((d, f.num("index").map_err(at)?))
    }

    /// The next puzzle's rows, checked.
    fn next_block(&mut self) -> anyhow::Result<Option<Block>> {
        let Some(first) = self.record()? else {
            return Ok(None);
        };
        let key = self.key(&first)?;
        let line = first.position().map_or(0, |p| p.line());
        let mut records = vec![first];
        while let Some(r) = self.record()? {
            if self.key(&r)? == key {
                records.push(r);
            } else {
                self.next = Some(r);
                break;
            }
        }
        let found: Vec<&str> = records
            .iter()
            .map(|r| self.table.fields(r).get("strategy").unwrap_or_default())
            .collect();
        if found != self.strategies {
            bail!(
                "{}:{line}: incomplete shard {}: puzzle {} #{} has rows for {} where the plan runs {}",
                self.path().display(),
                self.shard,
                self.datasets[key.0],
                key.1,
                found.join(","),
                self.strategies.join(",")
            );
        }
        if self.last.is_some_and(|last| last >= key) {
            bail!(
                "{}:{line}: puzzle {} #{} is out of plan order (or repeated) in shard {}",
                self.path().display(),
                self.datasets[key.0],
                key.1,
                self.shard
            );
        }
        self.last = Some(key);
        self.puzzles += 1;
        Ok(Some(Block { key, line, records }))
    }
}

/// Refuses a folder given twice, and an `out` that is one of the shards.
fn check_folders(dirs: &[PathBuf], out: &Path) -> anyhow::Result<()> {
    let mut seen: Vec<(PathBuf, &Path)> = Vec::new();
    for d in dirs {
        let canon = std::fs::canonicalize(d).unwrap_or_else(|_| d.clone());
        if let Some((_, first)) = seen.iter().find(|(c, _)| *c == canon) {
            bail!(
                "{} is given twice (as {} and {})",
                canon.display(),
                first.display(),
                d.display()
            );
        }
        seen.push((canon, d));
    }
    let out_canon = std::fs::canonicalize(out).ok();
    if let Some((_, d)) = seen.iter().find(|(c, _)| Some(c) == out_canon.as_ref()) {
        bail!(
            "--out {} is one of the shard folders ({}): merge into another folder",
            out.display(),
            d.display()
        );
    }
    Ok(())
}

/// The plan the shards split: its datasets, its strategies (ladder order),
/// and how many puzzles it runs.
struct PlanOf {
    datasets: Vec<PlanDataset>,
    strategies: Vec<String>,
    puzzles: u64,
}

impl PlanOf {
    fn blocks(&self, s: &ShardDir) -> anyhow::Result<(Blocks, csv::StringRecord)> {
        Blocks::open(
            &s.dir.join(RESULTS),
            s.shard,
            &self.datasets,
            &self.strategies,
        )
    }
}

/// Checks every shard holds exactly its share, each puzzle whole, in
/// order, under one header; returns that header.
fn check_shares(shards: &[ShardDir], plan: &PlanOf) -> anyhow::Result<csv::StringRecord> {
    let mut header: Option<csv::StringRecord> = None;
    for s in shards {
        // Every row checked as `report` and `diff` check theirs, naming the shard's file.
        run::read(&s.dir.join(RESULTS), |_| {})?;
        let (mut blocks, h) = plan.blocks(s)?;
        match &header {
            None => header = Some(h),
            Some(first) if *first != h => bail!(
                "{}:1: its columns differ from {}'s (shards of one plan write one header)",
                blocks.path().display(),
                shards[0].dir.join(RESULTS).display()
            ),
            Some(_) => {}
        }
        while blocks.next_block()?.is_some() {}
        let share = s.shard.share(plan.puzzles);
        if blocks.puzzles != share {
            bail!(
                "{}: incomplete shard {}: {RESULTS} holds {} puzzle{}, its share of the plan is {share} (of {}); rerun that shard alone",
                s.dir.display(),
                s.shard,
                blocks.puzzles,
                if blocks.puzzles == 1 { "" } else { "s" },
                plan.puzzles
            );
        }
    }
    Ok(header.unwrap_or_default())
}

/// Writes the shards' rows round-robin back into plan order, under
/// `header`, to `w`.
fn write_rows(
    w: &mut crate::io::csv_file::Writer<impl std::io::Write>,
    shards: &[ShardDir],
    plan: &PlanOf,
    header: &csv::StringRecord,
) -> anyhow::Result<()> {
    w.header(header)
        .with_context(|| format!("cannot write {RESULTS}"))?;
    let mut readers = Vec::with_capacity(shards.len());
    for s in shards {
        readers.push(plan.blocks(s)?.0);
    }
    let n = readers.len();
    let mut last: Option<(usize, u64, usize)> = None;
    let mut per_dataset = vec![0u64; plan.datasets.len()];
    for p in 0..plan.puzzles {
        let k = (p % n as u64) as usize;
        let Some(block) = readers[k].next_block()? else {
            bail!("BUG: shard {} was counted complete", shards[k].shard);
        };
        if let Some((d, i, from)) = last
            && (d, i) >= block.key
        {
            bail!(
                "{}:{}: puzzle {} #{} of shard {} comes before puzzle {} #{} of shard {} in plan order, not after: these shards do not split one plan round-robin (edited, or made by another version)",
                shards[k].dir.join(RESULTS).display(),
                block.line,
                plan.datasets[block.key.0].name,
                block.key.1,
                shards[k].shard,
                plan.datasets[d].name,
                i,
                shards[from].shard
            );
        }
        last = Some((block.key.0, block.key.1, k));
        per_dataset[block.key.0] += 1;
        for r in &block.records {
            w.header(r)
                .with_context(|| format!("cannot write {RESULTS}"))?;
        }
    }
    for (d, &got) in plan.datasets.iter().zip(&per_dataset) {
        if got != d.runs {
            bail!(
                "the shards hold {got} puzzles of dataset {}, the plan runs {}: a shard is incomplete or edited",
                d.name,
                d.runs
            );
        }
    }
    Ok(())
}

/// Merges the shard folders `dirs` into a report in `out` (see the module
/// doc); `command` is quoted in the report. A folder `out` the lab did not
/// make is refused unless `force` (`write::check_out`).
pub fn merge(dirs: &[PathBuf], out: &Path, force: bool, command: &str) -> anyhow::Result<Done> {
    check_folders(dirs, out)?;
    super::write::check_out(out, force, &[])?;
    let shards: Vec<ShardDir> = dirs
        .iter()
        .map(|d| read_shard(d))
        .collect::<anyhow::Result<_>>()?;
    let shards = check_set(shards)?;
    let print = &shards[0].print;
    let datasets = print
        .datasets()
        .with_context(|| format!("{}: {META}", shards[0].dir.display()))?;
    let plan = PlanOf {
        strategies: print
            .get(PLAN_STRATEGIES)
            .unwrap_or_default()
            .split(',')
            .map(str::to_string)
            .collect(),
        puzzles: datasets.iter().map(|d| d.runs).sum(),
        datasets,
    };
    let header = check_shares(&shards, &plan)?;

    let mut staging = Staging::new(out)?;
    if super::write::old_report(out) {
        staging.known_names(super::report_names());
    }
    let mut w = crate::io::csv_file::Writer::new(staging.create(RESULTS)?);
    write_rows(&mut w, &shards, &plan, &header)?;
    close(w, RESULTS)?;

    let infos: Vec<ShardInfo> = shards.iter().map(info).collect();
    let meta = merged_meta(&shards[0].meta, &infos, &plan.datasets, command)?;
    let results = staging.path(RESULTS);
    merge_samples(&mut staging, &shards, &results)?;
    let agg = read_results(&results)?;
    let (mut console, summary) = write_report(&mut staging, &agg, &meta, out, &results, &[])?;
    console.push_str(&console_lines(&infos));
    staging.commit(&FolderLock::acquire(out)?)?;
    Ok(Done {
        out: out.to_path_buf(),
        console,
        replaced: None,
        program_failures: 0,
        summary,
    })
}

/// The shards' samples.csv as one, in the merged results' row order: a
/// line for every timed row (its time is not empty), none for another. A
/// line missing or left over is refused, naming the file and line; shards
/// written before samples.csv existed have none, and nor has the merge.
fn merge_samples(staging: &mut Staging, shards: &[ShardDir], results: &Path) -> anyhow::Result<()> {
    use std::collections::HashMap;
    let files: Vec<PathBuf> = shards.iter().map(|s| s.dir.join(SAMPLES)).collect();
    match files.iter().filter(|f| f.is_file()).count() {
        0 => return Ok(()),
        n if n < files.len() => {
            let f = files.iter().find(|f| !f.is_file()).expect("one is missing");
            bail!(
                "{}: missing (the other shards have one); rerun that shard alone",
                f.display()
            );
        }
        _ => {}
    }
    let key = |r: &csv::StringRecord| (r[0].to_string(), r[1].to_string(), r[2].to_string());
    let mut lines: HashMap<(String, String, String), (csv::StringRecord, String)> = HashMap::new();
    for f in &files {
        let mut reader = csv::Reader::from_path(f).with_context(|| format!("{}", f.display()))?;
        for (k, r) in reader.records().enumerate() {
            let r = r.with_context(|| format!("{}:{}", f.display(), k + 2))?;
            if r.len() != SAMPLE_COLUMNS.len() {
                bail!(
                    "{}:{}: expected {} fields, found {}",
                    f.display(),
                    k + 2,
                    SAMPLE_COLUMNS.len(),
                    r.len()
                );
            }
            lines.insert(key(&r), (r, format!("{}:{}", f.display(), k + 2)));
        }
    }
    let mut w = crate::io::csv_file::Writer::new(staging.create(SAMPLES)?);
    w.header(SAMPLE_COLUMNS)?;
    let mut reader =
        csv::Reader::from_path(results).with_context(|| format!("cannot read {RESULTS}"))?;
    let header = reader.headers()?.clone();
    let at = |name: &str| header.iter().position(|h| h == name);
    let (Some(d), Some(i), Some(s)) = (at("dataset"), at("index"), at("strategy")) else {
        bail!("{}:1: not a results header", results.display());
    };
    let time = at("time_ns");
    for r in reader.records() {
        let r = r.with_context(|| format!("cannot read {RESULTS}"))?;
        let timed = time.is_some_and(|t| !r[t].is_empty());
        let k = (r[d].to_string(), r[i].to_string(), r[s].to_string());
        match (lines.remove(&k), timed) {
            (Some((line, _)), true) => w.row(&line.iter().collect::<Vec<&str>>())?,
            (None, false) => {}
            (None, true) => bail!(
                "no line in the shards' {SAMPLES} for {} puzzle {} {}: rerun its shard alone",
                k.0,
                k.1,
                k.2
            ),
            (Some((_, at)), false) => bail!("{at}: a line for a row that was not timed"),
        }
    }
    if let Some((_, at)) = lines.into_values().next() {
        bail!("{at}: a line for no row of the plan");
    }
    close(w, SAMPLES)
}

/// Flushes a staged CSV file `name` to the disk (the staging folder is
/// renamed into place only after every file is whole).
fn close(
    w: crate::io::csv_file::Writer<std::io::BufWriter<std::fs::File>>,
    name: &str,
) -> anyhow::Result<()> {
    w.into_inner()
        .with_context(|| format!("cannot write {name}"))?
        .into_inner()
        .map_err(|e| anyhow::anyhow!("cannot write {name}: {}", e.error()))?
        .sync_all()
        .with_context(|| format!("cannot write {name}"))
}

/// The shard's machine and conditions, from its meta.csv.
fn info(s: &ShardDir) -> ShardInfo {
    let get = |k: &str| s.meta.get(k).unwrap_or("unknown").to_string();
    // "1.23 (1-minute load average, ...)": the figure.
    let load = s
        .meta
        .get("load")
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or("unknown")
        .to_string();
    ShardInfo {
        shard: s.shard.to_string(),
        folder: s.dir.display().to_string(),
        from: get(SHARD_FROM),
        puzzles: get(SHARD_PUZZLES),
        host: get(HOST),
        cpu: get("cpu"),
        threads: get("threads"),
        load,
        pace: get(PACE),
        busy: s.meta.get("busy").unwrap_or("no").to_string(),
        date: get("date"),
        wall_time: get("wall_time"),
    }
}

/// The machine facts of a merged meta.csv, over its shards: CPU models,
/// threads, load, pace, busy, wall time.
fn set_machines(meta: &mut Meta, infos: &[ShardInfo]) {
    let n = infos.len();
    let cpus = machines(infos);
    meta.set(
        "cpu",
        match cpus.as_slice() {
            [(cpu, _)] => cpu.clone(),
            many => {
                let parts: Vec<String> = many
                    .iter()
                    .map(|(cpu, s)| format!("{cpu} (shards {})", s.join(", ")))
                    .collect();
                format!("{} models: {}", many.len(), parts.join("; "))
            }
        },
    );
    let list = |f: &dyn Fn(&ShardInfo) -> String| -> String {
        let v: Vec<String> = infos
            .iter()
            .map(|i| format!("{} {}", i.shard, f(i)))
            .collect();
        v.join("; ")
    };
    let threads: Vec<&str> = infos.iter().map(|i| i.threads.as_str()).collect();
    if threads.windows(2).any(|w| w[0] != w[1]) {
        meta.set(
            "threads",
            format!("per shard: {}", list(&|i| i.threads.clone())),
        );
    }
    meta.set(
        "load",
        format!(
            "per shard (1-minute load average, median while measuring): {}",
            list(&|i| i.load.clone())
        ),
    );
    meta.set(
        "retaken",
        format!(
            "per shard, see Shards; pace (reference ÷ its best on that machine): {}",
            list(&|i| i.pace.clone())
        ),
    );
    let busy: Vec<&ShardInfo> = infos.iter().filter(|i| i.is_busy()).collect();
    meta.set(
        "busy",
        if busy.is_empty() {
            "no".to_string()
        } else {
            let names: Vec<&str> = busy.iter().map(|i| i.shard.as_str()).collect();
            format!(
                "{} of {n} shards measured on a busy machine ({}; see Shards)",
                busy.len(),
                names.join(", ")
            )
        },
    );
    let secs: Vec<f64> = infos
        .iter()
        .filter_map(|i| i.wall_time.trim_end_matches(" s").parse::<f64>().ok())
        .collect();
    if secs.len() == n {
        meta.set(
            "wall_time",
            format!(
                "{:.1} s for the longest shard; {:.1} s over all {n} shards",
                secs.iter().cloned().fold(0.0, f64::max),
                secs.iter().sum::<f64>()
            ),
        );
    }
}

/// The merged report's meta.csv: the plan's facts from the first shard,
/// the machine facts per shard.
fn merged_meta(
    first: &Meta,
    infos: &[ShardInfo],
    datasets: &[PlanDataset],
    command: &str,
) -> anyhow::Result<Meta> {
    let n = infos.len();
    let per_shard = [
        SHARD,
        SHARD_FROM,
        SHARD_PUZZLES,
        HOST,
        PACE,
        "wall_over_cpu",
    ];
    let mut meta = Meta {
        entries: first
            .entries
            .iter()
            .filter(|(k, _)| !per_shard.contains(&k.as_str()))
            .cloned()
            .collect(),
    };
    meta.set("command", command);
    if let Some(sel) = first.get("selection") {
        let own = first
            .get(SHARD)
            .and_then(|s| s.parse::<Shard>().ok())
            .map(|s| format!("shard-{}-of-{}", s.index(), s.count()));
        let merged = match own {
            Some(own) => sel.replace(&own, &format!("{n}-shards")),
            None => sel.to_string(),
        };
        meta.set("selection", merged);
    }
    meta.set("date", crate::io::meta::utc_now());
    let ds: Vec<String> = datasets
        .iter()
        .map(|d| format!("{} ({} of {} puzzles)", d.name, d.runs, d.total))
        .collect();
    meta.set("datasets", ds.join("; "));
    set_machines(&mut meta, infos);
    meta.set(SHARDS, serde_json::to_string(infos)?);
    Ok(meta)
}
