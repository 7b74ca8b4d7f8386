//! Running strategies over datasets: one plain [`Row`] per puzzle × strategy.
//!
//! Datasets are streamed, interleaved ([`Schedule`]: every dataset advances
//! at the same pace, so the progress estimate holds); puzzle × strategy tasks
//! run on the one parallel executor (`crate::measure::exec`), which hands rows back
//! in task order, so the rows (and `results.csv`, which puts each dataset's
//! rows together: dataset, puzzle, strategy in ladder order) and every
//! counter never depend on `--jobs`. Each task is one call of the one
//! measurement ([`crate::measure::measure`]): a counted, verified run, then
//! timed runs.

use std::collections::BTreeMap;
use std::sync::Arc;

use anyhow::Context;

use crate::Strategy;
use crate::base::board::Board;
use crate::base::counters::Counts;
use crate::base::search::{Budget, Limits};
use crate::base::strategy::Outcome;
use crate::io::dataset::DatasetReader;
pub use crate::io::dataset::Source;
use crate::io::rows::{Fields, PuzzleId, Table, Unique};
use crate::io::sample::Sample;
pub use crate::io::sources::resolve_sources;
use crate::measure::{self, Method, Timing};

/// One line of `results.csv`: a puzzle × strategy. Counters and times are
/// `None` for `unsupported` rows (nothing ran).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Which puzzle (the first columns): `row.puzzle.dataset`, …
    pub puzzle: PuzzleId,
    pub strategy: Strategy,
    pub outcome: Outcome,
    /// Every counter, from the counted run.
    pub counts: Option<Counts>,
    /// Counters (by position in [`Counts::NAMES`]) that the file read back
    /// did not hold, written before they existed: their values in `counts`
    /// are 0 and stand for nothing, and [`Row::record`] writes them empty.
    /// All `false` for a row measured now.
    pub absent: [bool; Counts::LEN],
    /// Time per run, from the uncounted runs.
    pub timing: Option<Timing>,
    /// A cut-off run's whole search, estimated ([`super::estimates`]).
    pub estimate: Option<crate::analysis::estimate::Interval>,
    /// 95% interval of `time_ns` (the median over samples), bootstrapped
    /// over the samples; `None` with one sample, or from a file written
    /// before these columns.
    pub time_interval: Option<crate::measure::stats::Interval>,
    /// The row's samples beyond Tukey's fences, mild and severe
    /// ([`crate::measure::stats::Outliers`]); `None` where nothing was timed, or
    /// from a file written before these columns.
    pub outliers: Option<crate::measure::stats::Outliers>,
}

/// The columns after the identity: what ran and how it ended.
const RUN_COLUMNS: [&str; 2] = ["strategy", "outcome"];
/// The columns after the counters: the [`Timing`] of the row.
const TIME_COLUMNS: [&str; 5] = ["time_ns", "time_min_ns", "time_max_ns", "wall_ns", "runs"];

/// The `results.csv` header, in order: identity ([`PuzzleId::COLUMNS`]),
/// strategy and outcome, every counter of [`Counts::NAMES`], the time
/// columns, the estimated nodes of a cut-off run
/// (`super::estimates::COLUMNS`), the time's interval
/// (`INTERVAL_COLUMNS`), then the cut-off run's estimated time
/// ([`super::estimates::TIME_COLUMNS`]). [`Row::record`] writes in this
/// order; [`Row::from_fields`] reads by name.
pub fn columns() -> Vec<&'static str> {
    let mut c = measured_columns();
    c.extend(super::estimates::COLUMNS);
    c.extend(INTERVAL_COLUMNS);
    c.extend(super::estimates::TIME_COLUMNS);
    c.extend(OUTLIER_COLUMNS);
    c
}

/// The row's samples beyond Tukey's fences: mild, severe.
const OUTLIER_COLUMNS: [&str; 2] = ["outliers_mild", "outliers_severe"];

fn read_outliers(f: &Fields) -> Result<Option<crate::measure::stats::Outliers>, String> {
    let [mild, severe] = OUTLIER_COLUMNS;
    match (f.opt::<u64>(mild)?, f.opt::<u64>(severe)?) {
        (Some(mild), Some(severe)) => Ok(Some(crate::measure::stats::Outliers { mild, severe })),
        (None, None) => Ok(None),
        _ => Err(format!("columns {mild}, {severe} (outliers): one empty")),
    }
}

/// `samples.csv`: the row's identity, then every kept sample of its time.
pub const SAMPLE_COLUMNS: [&str; 5] = ["dataset", "index", "strategy", "samples", "samples_ns"];

/// One line of `samples.csv`: the row's puzzle and strategy, how many
/// samples, and each sample's per-thread CPU time (ns, to 0.1 ns, in the
/// order taken, separated by spaces: one line per row of `results.csv`).
pub fn samples_record(row: &Row, samples: &[f64]) -> [String; 5] {
    let mut times = String::with_capacity(samples.len() * 9);
    for (i, x) in samples.iter().enumerate() {
        if i > 0 {
            times.push(' ');
        }
        times.push_str(&ns((x * 10.0).round() / 10.0));
    }
    [
        row.puzzle.dataset.clone(),
        row.puzzle.index.to_string(),
        row.strategy.name().to_string(),
        samples.len().to_string(),
        times,
    ]
}

/// The interval of `time_ns` over the row's samples.
const INTERVAL_COLUMNS: [&str; 2] = ["time_low_ns", "time_high_ns"];

/// [`columns`] without the estimate's and the interval's: identity,
/// counters, times (the columns `programs.csv` shares, and the whole header
/// of files written before there were estimates).
pub fn measured_columns() -> Vec<&'static str> {
    PuzzleId::COLUMNS
        .iter()
        .chain(RUN_COLUMNS.iter())
        .chain(Counts::NAMES.iter())
        .chain(TIME_COLUMNS.iter())
        .copied()
        .collect()
}

/// The columns a `results.csv` cannot do without (every file ever written
/// has them): identity, strategy, outcome, `nodes` and the times. The other
/// counters, the estimates and the intervals are optional: a file written
/// before one of them existed still reads, its values absent.
pub(crate) fn required_columns() -> Vec<&'static str> {
    PuzzleId::COLUMNS
        .iter()
        .chain(RUN_COLUMNS.iter())
        .chain(["nodes"].iter())
        .chain(TIME_COLUMNS.iter())
        .copied()
        .collect()
}

/// A nanosecond figure with one decimal (times per run are means of batches).
fn ns(x: f64) -> String {
    format!("{x:.1}")
}

/// Reads every row of a `results.csv`, by column name, handing each to
/// `each`: the one reader of the file (`report`, the programs' placement,
/// `merge`'s check; `diff` reads its rows with the same parts,
/// `read_counts` and `read_timing`). Errors name file, line and column;
/// a file without rows is an error. Returns how many rows there were.
pub fn read(path: &std::path::Path, each: impl FnMut(Row)) -> anyhow::Result<u64> {
    read_rows(path, Row::from_fields, each)
}

/// The one path every reader of a `results.csv` takes through its rows
/// (`report` and `merge` through [`read`], `diff` with its own `decode`
/// built of the same parts): the required columns, then each row refused
/// when an earlier one had its (dataset, index, strategy), else decoded.
/// Errors name file, line and column; a file without rows is an error.
pub(crate) fn read_rows<T>(
    path: &std::path::Path,
    mut decode: impl FnMut(&Fields) -> Result<T, String>,
    each: impl FnMut(T),
) -> anyhow::Result<u64> {
    let mut table = Table::open(path, &required_columns())?;
    let mut unique = Unique::default();
    let n = table.for_each(
        |f| {
            unique.check(f, "strategy")?;
            decode(f)
        },
        each,
    )?;
    if n == 0 {
        anyhow::bail!("{}: no rows", path.display());
    }
    Ok(n)
}

/// The counters of a row, and which the file did not hold: `None` when
/// every counter field is empty (nothing ran); else every counter column
/// the file has must hold a number.
pub(crate) fn read_counts(f: &Fields) -> Result<(Option<Counts>, [bool; Counts::LEN]), String> {
    let mut absent = [false; Counts::LEN];
    let cells = Counts::NAMES.map(|name| f.get(name));
    if cells.iter().all(|c| c.is_none_or(str::is_empty)) {
        return Ok((None, absent));
    }
    let mut v = [0u64; Counts::LEN];
    for (k, cell) in cells.iter().enumerate() {
        match cell {
            None => absent[k] = true,
            Some(c) => v[k] = c.parse().map_err(|_| f.bad(Counts::NAMES[k], c))?,
        }
    }
    Ok((Some(Counts::from_values(v)), absent))
}

/// A time field (ns): absent or empty is `None`; else a finite number, not
/// below 0.
fn read_ns(f: &Fields, name: &str) -> Result<Option<f64>, String> {
    match f.opt::<f64>(name)? {
        Some(x) if !(x.is_finite() && x >= 0.0) => Err(f.bad(name, f.get(name).unwrap_or(""))),
        x => Ok(x),
    }
}

/// The [`Timing`] of a row (its columns `time_ns` to `runs`): `None` when
/// nothing ran.
pub(crate) fn read_timing(f: &Fields) -> Result<Option<Timing>, String> {
    let [t, lo, hi, wall, runs] = TIME_COLUMNS;
    match (
        read_ns(f, t)?,
        read_ns(f, lo)?,
        read_ns(f, hi)?,
        read_ns(f, wall)?,
    ) {
        (Some(_), Some(_), Some(_), Some(_)) if f.num::<u64>(runs)? == 0 => {
            Err(f.wrong(runs, "0 runs: a time is measured over at least one run"))
        }
        (Some(cpu), Some(lo), Some(hi), Some(wall)) => Ok(Some(Timing {
            runs: f.num(runs)?,
            samples: 0,
            cpu_ns: cpu,
            cpu_min_ns: lo,
            cpu_max_ns: hi,
            wall_ns: wall,
            retaken: 0,
            slow: 0,
            pace: 1.0,
        })),
        (None, None, None, None) => Ok(None),
        _ => Err(format!(
            "columns {} (times): some empty, some not",
            TIME_COLUMNS[..4].join(", ")
        )),
    }
}

/// A rung's outcome (an outside program's is refused: it belongs in
/// `programs.csv`).
pub(crate) fn read_outcome(f: &Fields) -> Result<Outcome, String> {
    let name = f.text("outcome")?;
    let outcome = Outcome::from_name(name).ok_or_else(|| {
        let valid: Vec<&str> = Outcome::ALL.iter().map(|o| o.name()).collect();
        f.wrong(
            "outcome",
            &format!("unknown outcome {name:?} (valid: {})", valid.join(", ")),
        )
    })?;
    if outcome.is_program_failure() {
        return Err(f.wrong(
            "outcome",
            &format!("{outcome} is an outside program's outcome (programs.csv), not a rung's"),
        ));
    }
    Ok(outcome)
}

/// The time's interval ([`INTERVAL_COLUMNS`]): both or neither, low ≤ high.
fn read_interval(f: &Fields) -> Result<Option<crate::measure::stats::Interval>, String> {
    let [low, high] = INTERVAL_COLUMNS;
    match (read_ns(f, low)?, read_ns(f, high)?) {
        (Some(low), Some(high)) if low <= high => {
            Ok(Some(crate::measure::stats::Interval { low, high }))
        }
        (None, None) => Ok(None),
        _ => Err(format!(
            "columns {low}, {high} (time interval): one empty, or low above high"
        )),
    }
}

impl Row {
    /// Nodes and time (ns, rounded) of a row where a strategy ran.
    pub fn measured(&self) -> Option<(u64, u64)> {
        Some((self.counts?.nodes, self.timing?.ns().round() as u64))
    }

    /// A cut-off run's whole search's time, estimated as its estimated
    /// nodes × its measured time per node ([`super::estimates::time`]).
    pub fn time_estimate(&self) -> Option<crate::analysis::estimate::Interval> {
        super::estimates::time(
            self.estimate.as_ref()?,
            self.timing?.ns(),
            self.counts?.nodes,
        )
    }

    /// The CSV fields, in [`columns`] order (a counter the row's file did
    /// not hold is written empty).
    pub fn record(&self) -> Vec<String> {
        let mut f: Vec<String> = self.puzzle.record().into();
        f.extend([
            self.strategy.name().to_string(),
            self.outcome.name().to_string(),
        ]);
        match self.counts {
            Some(c) => f.extend(c.values().iter().zip(self.absent).map(|(v, absent)| {
                if absent { String::new() } else { v.to_string() }
            })),
            None => f.extend(std::iter::repeat_n(String::new(), Counts::LEN)),
        }
        match self.timing {
            Some(t) => f.extend([
                ns(t.cpu_ns),
                ns(t.cpu_min_ns),
                ns(t.cpu_max_ns),
                ns(t.wall_ns),
                t.runs.to_string(),
            ]),
            None => f.extend(std::iter::repeat_n(String::new(), TIME_COLUMNS.len())),
        }
        f.extend(super::estimates::fields(&self.estimate));
        match self.time_interval {
            Some(i) => f.extend([ns(i.low), ns(i.high)]),
            None => f.extend([String::new(), String::new()]),
        }
        f.extend(super::estimates::time_fields(&self.time_estimate()));
        match self.outliers {
            Some(o) => f.extend([o.mild.to_string(), o.severe.to_string()]),
            None => f.extend([String::new(), String::new()]),
        }
        f
    }

    /// Reads one record by column name (`required_columns` must be
    /// there; every other column may be missing, its value then absent,
    /// and columns not known here are ignored). The error names the column.
    pub fn from_fields(f: &Fields) -> Result<Row, String> {
        let puzzle = PuzzleId::read(f)?;
        let strategy: Strategy =
            f.text("strategy")?
                .parse()
                .map_err(|e: crate::base::strategy::UnknownStrategy| {
                    f.wrong("strategy", &e.to_string())
                })?;
        let outcome = read_outcome(f)?;
        let (counts, absent) = read_counts(f)?;
        let timing = read_timing(f)?;
        let unsupported = outcome == Outcome::Unsupported;
        if unsupported != counts.is_none() || unsupported != timing.is_none() {
            return Err(format!(
                "outcome {outcome}: counters and times must be {} for this outcome",
                if unsupported { "empty" } else { "present" }
            ));
        }
        let [a, b, c] = super::estimates::COLUMNS.map(|n| f.get(n).unwrap_or_default());
        let row = Row {
            puzzle,
            strategy,
            outcome,
            counts,
            absent,
            timing,
            estimate: super::estimates::parse([a, b, c])?,
            time_interval: read_interval(f)?,
            outliers: read_outliers(f)?,
        };
        // The time estimate is derived from the columns read above; the
        // file's copy is checked, so a hand-edited one does not pass unseen.
        let names = super::estimates::TIME_COLUMNS;
        if f.get(names[0]).is_some() {
            let [a, b, c] = names.map(|n| f.get(n).unwrap_or_default());
            let read = super::estimates::parse_named([a, b, c], names)?;
            if read.is_some() != row.time_estimate().is_some() {
                return Err(format!(
                    "columns {} (time estimate): present only with a cut-off run's estimate and time",
                    names.join(", ")
                ));
            }
        }
        Ok(row)
    }
}

/// Everything that decides what `compare` measures.
#[derive(Clone, Debug)]
pub struct Plan {
    pub sources: Vec<Source>,
    /// In ladder order, without repeats.
    pub strategies: Vec<Strategy>,
    /// Node budget per puzzle × strategy.
    pub budget: Budget,
    /// Solutions sought per puzzle (1 solves; 2 proves uniqueness).
    pub limit: u64,
    /// At most this many puzzles per dataset, drawn with one seed.
    pub sample: Option<Sample>,
    /// How long to time each puzzle × strategy.
    pub method: Method,
    pub jobs: usize,
    /// Outside programs, run after the rungs on the same puzzles
    /// ([`super::programs`]).
    pub programs: Vec<crate::io::program::Program>,
    /// Measure only this shard's puzzles ([`crate::run::shard`]).
    pub shard: Option<crate::run::shard::Assigned>,
}

/// Reads a dataset once, checking every puzzle, and returns how many there are.
/// Bad input is reported before any solving starts.
fn count_puzzles(source: &Source) -> anyhow::Result<u64> {
    let mut n = 0;
    for entry in DatasetReader::open(Some(&source.path))? {
        entry?;
        n += 1;
    }
    Ok(n)
}

/// A dataset ready to run: its puzzle count, and the puzzles to run.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub source: Source,
    /// Puzzles in the file.
    pub total: u64,
    /// The sampled puzzles (file order), or `None` to run them all.
    pub picked: Option<Vec<Arc<Item>>>,
}

impl Prepared {
    /// How many puzzles run.
    pub fn runs(&self) -> u64 {
        self.picked.as_ref().map_or(self.total, |p| p.len() as u64)
    }
}

/// Checks and counts every dataset, and draws the samples: bad input is
/// reported before anything is solved.
pub fn prepare(plan: &Plan) -> anyhow::Result<Vec<Prepared>> {
    plan.sources
        .iter()
        .map(|source| {
            let total = count_puzzles(source)?;
            let picked = match plan.sample {
                Some(sample) => Some(
                    sample
                        .draw(items(source)?)?
                        .0
                        .into_iter()
                        .map(|(_, item)| Arc::new(item))
                        .collect(),
                ),
                None => None,
            };
            Ok(Prepared {
                source: source.clone(),
                total,
                picked,
            })
        })
        .collect()
}

/// One puzzle of a dataset, as a row needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// 1-based position in the file.
    pub index: u64,
    pub line: u64,
    pub name: String,
    pub board: Board,
}

impl Item {
    /// The puzzle's identity in rows, as a puzzle of `dataset`.
    pub fn id(&self, dataset: &str) -> PuzzleId {
        PuzzleId {
            dataset: dataset.to_string(),
            index: self.index,
            line: self.line,
            name: self.name.clone(),
            size: self.board.size().side() as u32,
            clues: self.board.clues() as u32,
        }
    }
}

/// The puzzles of a source, streamed.
pub(crate) fn items(source: &Source) -> anyhow::Result<impl Iterator<Item = anyhow::Result<Item>>> {
    let reader = DatasetReader::open(Some(&source.path))?;
    Ok(reader.enumerate().map(|(i, e)| {
        let p = e?.puzzle;
        Ok(Item {
            index: i as u64 + 1,
            line: p.line as u64,
            name: p.name.unwrap_or_default(),
            board: p.board,
        })
    }))
}

/// Measures one puzzle with one strategy: its row, and its timing as
/// measured (the samples retaken and kept slow are not columns of
/// results.csv, which holds figures). A bug (wrong answer, disagreeing runs)
/// is an error that aborts the run.
pub fn measure(
    dataset: &str,
    item: &Item,
    strategy: Strategy,
    budget: Budget,
    method: &Method,
) -> anyhow::Result<(Row, Option<measure::Timing>)> {
    let m = measure::measure(strategy, &item.board, Limits::solve(budget.get()), method)
        .with_context(|| aborted(dataset, item))?;
    Ok(row(dataset, item, strategy, m))
}

/// What a bug found while measuring `item` says.
fn aborted(dataset: &str, item: &Item) -> String {
    format!(
        "dataset {dataset}, puzzle {} (line {}): run aborted",
        item.index, item.line
    )
}

/// A measurement as a row of results.csv, and its timing as measured (with
/// the samples retaken and kept slow, which results.csv does not hold).
fn row(
    dataset: &str,
    item: &Item,
    strategy: Strategy,
    m: measure::Measurement,
) -> (Row, Option<measure::Timing>) {
    let ran = m.outcome != Outcome::Unsupported;
    // Times as results.csv holds them (0.1 ns), so that a report redrawn
    // from the file is the report of the run, byte for byte.
    let tenth = |x: f64| (x * 10.0).round() / 10.0;
    let timing = m.timing.map(|t| Timing {
        cpu_ns: tenth(t.cpu_ns),
        cpu_min_ns: tenth(t.cpu_min_ns),
        cpu_max_ns: tenth(t.cpu_max_ns),
        wall_ns: tenth(t.wall_ns),
        samples: 0,
        retaken: 0,
        slow: 0,
        pace: 1.0,
        ..t
    });
    let measured = m.timing;
    let time_interval = crate::measure::stats::median_interval(&m.samples).map(|i| i.map(tenth));
    let outliers = timing.map(|_| crate::measure::stats::Outliers::of(&m.samples));
    let row = Row {
        puzzle: item.id(dataset),
        strategy,
        outcome: m.outcome,
        counts: ran.then_some(m.counts),
        absent: [false; Counts::LEN],
        timing,
        estimate: super::estimates::of_cut_off(strategy, &item.board, &m),
        time_interval,
        outliers,
    };
    (row, measured)
}

/// Datasets measured interleaved at once, at most (each holds an open file
/// while it runs); more run in waves of this many.
const INTERLEAVE: usize = 64;

/// The order of measurement: which dataset's next puzzle comes next.
///
/// Datasets are interleaved so that each advances at the same pace: the
/// k-th of a dataset's n puzzles is measured at about (k + ½)/n of the way
/// through its wave. So every stretch of the run holds a fair share of every
/// dataset, hard and easy alike, and the run's average cost per task so far
/// predicts the rest (`eta`): measured in file order, the hard curated
/// sets came first and the first minute predicted a run three times longer.
/// Deterministic: it depends on the puzzle counts only.
#[derive(Clone, Debug)]
pub struct Schedule {
    counts: Vec<u64>,
    /// Puzzles of each dataset handed out so far.
    taken: Vec<u64>,
    /// The current wave: datasets `wave..wave_end`.
    wave: usize,
    wave_end: usize,
}

impl Schedule {
    pub fn new(counts: &[u64]) -> Schedule {
        Schedule {
            counts: counts.to_vec(),
            taken: vec![0; counts.len()],
            wave: 0,
            wave_end: counts.len().min(INTERLEAVE),
        }
    }
}

impl Iterator for Schedule {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        loop {
            // The dataset whose next puzzle sits earliest: (2k+1)/(2n),
            // compared exactly (ties go to the earlier dataset).
            let best = (self.wave..self.wave_end)
                .filter(|&d| self.taken[d] < self.counts[d])
                .min_by(|&a, &b| {
                    let key = |d: usize| {
                        (
                            2 * u128::from(self.taken[d]) + 1,
                            2 * u128::from(self.counts[d]),
                        )
                    };
                    let ((na, da), (nb, db)) = (key(a), key(b));
                    (na * db).cmp(&(nb * da)).then(a.cmp(&b))
                });
            match best {
                Some(d) => {
                    self.taken[d] += 1;
                    return Some(d);
                }
                None if self.wave_end < self.counts.len() => {
                    self.wave = self.wave_end;
                    self.wave_end = (self.wave + INTERLEAVE).min(self.counts.len());
                }
                None => return None,
            }
        }
    }
}

/// Row-major rungs visit the same tree, so one cheap count of it (by the
/// last row-major rung, the cheapest per node) tells how many nodes each of
/// them will visit: the `probe` of a puzzle. Searches this big dominate a
/// run; smaller ones cost about the timing floor each.
const HEAVY: u64 = 20_000;

/// The most nodes a probe counts: a search this big is already in the
/// heaviest class, and counting on (under `--budget unlimited`) would only
/// delay the start of the run.
const PROBE_CAP: u64 = 5_000_000;

/// The rung that probes: the last row-major rung of the ladder.
fn prober() -> Option<Strategy> {
    Strategy::ladder()
        .into_iter()
        .rev()
        .find(|s| s.is_row_major())
}

/// The board side and the row-major tree size (within the budget) of every
/// puzzle of the plan, dataset by dataset in run order: the searches to
/// come, for [`Forecast`]. Costs about one uncounted run of the cheapest
/// row-major rung per puzzle, a few percent of the run; sizes 0 when no
/// row-major rung is run.
pub fn probe(plan: &Plan, prepared: &[Prepared]) -> anyhow::Result<Vec<Vec<(u32, u64)>>> {
    let strategies = dedup_in_ladder_order(&plan.strategies);
    let prober = prober().filter(|_| strategies.iter().any(|s| s.is_row_major()));
    let mut out = Vec::with_capacity(prepared.len());
    for p in prepared {
        let puzzles: Box<dyn Iterator<Item = anyhow::Result<Arc<Item>>> + '_> = match &p.picked {
            Some(picked) => Box::new(picked.iter().cloned().map(Ok)),
            None => Box::new(items(&p.source)?.map(|i| i.map(Arc::new))),
        };
        let mut sizes = Vec::with_capacity(p.runs() as usize);
        crate::measure::exec::ordered(
            puzzles,
            plan.jobs,
            |item| {
                let side = item.board.size().side() as u32;
                let nodes = match prober {
                    Some(s) => {
                        let cap = plan.budget.get().map_or(PROBE_CAP, |b| b.min(PROBE_CAP));
                        measure::count(s, &item.board, Limits::solve(Some(cap)))?
                            .counts
                            .nodes
                    }
                    None => 0,
                };
                Ok((side, nodes))
            },
            |x| {
                sizes.push(x);
                Ok(())
            },
        )?;
        out.push(sizes);
    }
    Ok(out)
}

/// What the forecast knows of a kind of task: how many are done and to
/// come, and the probe nodes and time of those done.
#[derive(Clone, Copy, Debug, Default)]
struct Class {
    done: u64,
    done_nodes: f64,
    done_secs: f64,
    left: u64,
    left_nodes: f64,
}

/// The time left of a run, from the run so far and the probe.
///
/// Tasks fall into classes: strategy × board size × (heavy row-major search
/// or not, by the [`probe`]). A class costs, per task, its average so far;
/// a heavy class costs per probed node, so a search of ten million nodes
/// still to come counts for what it will take. Classes not seen yet borrow
/// from the same strategy at other sizes, then from every class of their
/// kind. The time left is the elapsed time × the estimated work left ÷ the
/// work done. tests/compare_report.rs replays the committed run: within 2×
/// of the truth from a tenth of the run on.
#[derive(Clone, Debug, Default)]
pub struct Forecast {
    classes: BTreeMap<(Strategy, u32, bool), Class>,
    done_secs: f64,
}

impl Forecast {
    fn key(strategy: Strategy, side: u32, probe: u64) -> (Strategy, u32, bool) {
        (strategy, side, strategy.is_row_major() && probe >= HEAVY)
    }

    /// A task to come.
    pub fn expect(&mut self, strategy: Strategy, side: u32, probe: u64) {
        let c = self
            .classes
            .entry(Self::key(strategy, side, probe))
            .or_default();
        c.left += 1;
        c.left_nodes += probe as f64;
    }

    /// A task done, in `secs` seconds of work.
    pub fn finish(&mut self, strategy: Strategy, side: u32, probe: u64, secs: f64) {
        let c = self
            .classes
            .entry(Self::key(strategy, side, probe))
            .or_default();
        c.left = c.left.saturating_sub(1);
        c.left_nodes = (c.left_nodes - probe as f64).max(0.0);
        c.done += 1;
        c.done_nodes += probe as f64;
        c.done_secs += secs;
        self.done_secs += secs;
    }

    /// Seconds per task (light) or per probed node (heavy), pooled over the
    /// classes `pick` selects; `None` if none is done.
    fn rate(&self, pick: impl Fn(&(Strategy, u32, bool)) -> bool, heavy: bool) -> Option<f64> {
        let (mut secs, mut units) = (0.0, 0.0);
        for (_, c) in self.classes.iter().filter(|(k, _)| k.2 == heavy && pick(k)) {
            secs += c.done_secs;
            units += if heavy { c.done_nodes } else { c.done as f64 };
        }
        (units > 0.0).then(|| secs / units)
    }

    /// The time left, given the time elapsed; `None` before any task is done.
    /// (At the pace of the run so far; [`super::eta::Eta`] follows the
    /// recent pace and the work of the tasks still running.)
    pub fn left(&self, elapsed: std::time::Duration) -> Option<std::time::Duration> {
        if self.done_secs <= 0.0 {
            return None;
        }
        Some(elapsed.mul_f64(self.work_left() / self.done_secs))
    }

    /// Seconds of task work done so far.
    pub fn work_done(&self) -> f64 {
        self.done_secs
    }

    /// Seconds of task work still to come, by the rates so far (0 before
    /// any task is done).
    pub fn work_left(&self) -> f64 {
        let mut work = 0.0;
        for (&(s, side, heavy), c) in &self.classes {
            if c.left == 0 {
                continue;
            }
            let rate = self
                .rate(|k| k.0 == s && k.1 == side, heavy)
                .or_else(|| self.rate(|k| k.0 == s, heavy))
                .or_else(|| self.rate(|_| true, heavy))
                .or_else(|| {
                    // No heavy task done yet: a heavy one costs at least a
                    // light one of its strategy.
                    self.rate(|k| k.0 == s, false)
                        .or_else(|| self.rate(|_| true, false))
                        .map(|r| if heavy { r / HEAVY as f64 } else { r })
                })
                .unwrap_or(0.0);
            work += rate * if heavy { c.left_nodes } else { c.left as f64 };
        }
        work
    }
}

/// A task: one puzzle of dataset `.0` with one strategy, and its probe.
type Task = (usize, Arc<Item>, Strategy, u64);

/// A finished task, as the sink receives it.
#[derive(Clone, Debug)]
pub struct Finished {
    /// Position of the dataset in the plan.
    pub dataset: usize,
    pub row: Row,
    /// The puzzle's [`probe`] (0 when there was none).
    pub probe: u64,
    /// CPU time the task took on its thread (its wall time where the
    /// platform has no thread clock): its cost for the [`Forecast`].
    pub cpu: std::time::Duration,
    /// The timing as measured (samples retaken and kept slow included).
    pub measured: Option<measure::Timing>,
    /// Every kept sample's CPU time (ns, in the order taken): `samples.csv`.
    pub samples: Vec<f64>,
    /// The puzzle (for the warm ÷ cold check, `measure::warm_bonus`).
    pub item: Arc<Item>,
    /// On the first task of each measured group: the group's clock
    /// accounting (`measure::SetMeasured::accounted`, clock cost in ns).
    pub group: Option<(Option<f64>, f64)>,
}

/// A task the moment its measurement ends (before its row is made).
#[derive(Clone, Copy, Debug)]
pub struct Tick {
    pub strategy: Strategy,
    /// Side of the puzzle's board.
    pub side: u32,
    /// The puzzle's [`probe`] (0 when there was none).
    pub probe: u64,
    /// CPU time spent measuring it: its cost for the [`Forecast`].
    pub cpu: std::time::Duration,
}

/// Runs the plan in [`Schedule`] order, handing every finished task to
/// `sink`; the rows of one puzzle come together, in ladder order, and each
/// dataset's puzzles in file order. `probes` is [`probe`]'s answer (or
/// empty lists). `done` hears of each task the moment its measurement ends,
/// on its worker thread, before `sink` (which waits for the tasks before
/// it) does: what progress and the [`Forecast`] follow.
///
/// Tasks are measured in groups of [`crate::base::defaults::MEASURE_GROUP`], one
/// group per worker at a time, with their samples interleaved
/// (`measure::measure_all`): a task's samples are spread over the group's
/// few seconds, not taken within a few milliseconds of each other.
pub fn execute(
    plan: &Plan,
    prepared: &[Prepared],
    probes: &[Vec<(u32, u64)>],
    sink: &mut dyn FnMut(Finished) -> anyhow::Result<()>,
    done: &(dyn Fn(&Tick) + Sync),
) -> anyhow::Result<()> {
    let strategies = dedup_in_ladder_order(&plan.strategies);
    let counts: Vec<u64> = prepared.iter().map(Prepared::runs).collect();
    type Puzzles<'a> = Box<dyn Iterator<Item = anyhow::Result<Arc<Item>>> + 'a>;
    // Opened when a dataset's first puzzle is due, dropped after its last.
    let mut streams: Vec<Option<Puzzles<'_>>> = prepared.iter().map(|_| None).collect();
    let mut taken = vec![0usize; prepared.len()];
    let tasks = Schedule::new(&counts).flat_map(move |d| -> Vec<anyhow::Result<Task>> {
        let p = &prepared[d];
        if streams[d].is_none() {
            let opened: anyhow::Result<Puzzles<'_>> = match &p.picked {
                Some(picked) => Ok(Box::new(picked.clone().into_iter().map(Ok))),
                None => items(&p.source)
                    .map(|i| -> Puzzles<'_> { Box::new(i.map(|i| i.map(Arc::new))) }),
            };
            match opened {
                Ok(s) => streams[d] = Some(s),
                Err(e) => return vec![Err(e)],
            }
        }
        let next = streams[d].as_mut().and_then(Iterator::next);
        let k = taken[d];
        taken[d] += 1;
        if taken[d] as u64 == counts[d] {
            streams[d] = None;
        }
        let probe = probes.get(d).and_then(|v| v.get(k)).map_or(0, |x| x.1);
        match next {
            Some(Ok(item)) => strategies
                .iter()
                .map(|&s| Ok((d, item.clone(), s, probe)))
                .collect(),
            Some(Err(e)) => vec![Err(e)],
            None => vec![Err(anyhow::anyhow!(
                "{}: fewer puzzles than when it was first read (did the file change during the run?)",
                p.source.path.display()
            ))],
        }
    });
    crate::measure::exec::ordered(
        Groups {
            tasks,
            size: crate::base::defaults::MEASURE_GROUP,
        },
        plan.jobs,
        |group: &Vec<Task>| measure_group(plan, prepared, group, done),
        |finished| finished.into_iter().try_for_each(&mut *sink),
    )
}

/// Measures one group of tasks together ([`measure::measure_set`]): their
/// finished rows, in task order; `done` hears of each as it ends.
fn measure_group(
    plan: &Plan,
    prepared: &[Prepared],
    group: &[Task],
    done: &(dyn Fn(&Tick) + Sync),
) -> anyhow::Result<Vec<Finished>> {
    let boards: Vec<(Strategy, &Board)> = group
        .iter()
        .map(|(_, item, s, _)| (*s, &item.board))
        .collect();
    let measured = measure::measure_set(
        &boards,
        Limits::count(plan.limit, plan.budget.get()),
        &plan.method,
        &mut |i, cpu| {
            let (_, item, strategy, probe) = &group[i];
            done(&Tick {
                strategy: *strategy,
                side: item.board.size().side() as u32,
                probe: *probe,
                cpu,
            });
        },
    );
    let account = Some((measured.accounted, measured.clock_ns));
    group
        .iter()
        .zip(measured.results)
        .enumerate()
        .map(|(k, ((d, item, strategy, probe), m))| {
            let dataset = &prepared[*d].source.name;
            let (m, cpu) = m.with_context(|| aborted(dataset, item))?;
            let samples = m.samples.clone();
            let (row, measured) = row(dataset, item, *strategy, m);
            Ok(Finished {
                dataset: *d,
                row,
                probe: *probe,
                cpu,
                measured,
                samples,
                item: item.clone(),
                group: if k == 0 { account } else { None },
            })
        })
        .collect::<anyhow::Result<Vec<Finished>>>()
}

/// Consecutive tasks in groups of `size` (the last may be smaller); a
/// failure to read a puzzle comes through as itself.
struct Groups<I> {
    tasks: I,
    size: usize,
}

impl<I: Iterator<Item = anyhow::Result<Task>>> Iterator for Groups<I> {
    type Item = anyhow::Result<Vec<Task>>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut group = Vec::with_capacity(self.size);
        for task in self.tasks.by_ref() {
            match task {
                Ok(t) => group.push(t),
                Err(e) => return Some(Err(e)),
            }
            if group.len() == self.size {
                break;
            }
        }
        (!group.is_empty()).then_some(Ok(group))
    }
}

/// The strategies in ladder order (registry order), each once.
pub(crate) fn dedup_in_ladder_order(chosen: &[Strategy]) -> Vec<Strategy> {
    let mut v = chosen.to_vec();
    v.sort();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `fields` under the first `fields.len()` columns of
    /// [`columns`] (a file written before the later columns existed).
    fn back(fields: &[String]) -> Result<Row, String> {
        let header = csv::StringRecord::from(columns()[..fields.len()].to_vec());
        let rec = csv::StringRecord::from(fields.to_vec());
        Row::from_fields(&Fields::new(&header, &rec))
    }

    #[test]
    fn records_round_trip_and_columns_follow_the_counter_registry() {
        let item = Item {
            index: 1,
            line: 1,
            name: "x, \"y\"".to_string(),
            board: Board::empty(crate::BoxSize::new(2).unwrap()),
        };
        let method = Method {
            min_time: std::time::Duration::from_micros(100),
            min_samples: 1,
            ..crate::measure::Method::DEFAULT
        };
        for s in Strategy::ladder() {
            let (row, _) = measure("d", &item, s, Budget::nodes(1000), &method).unwrap();
            // Rows hold times as the file does: they read back exactly.
            assert_eq!(back(&row.record()).unwrap(), row, "{s}");
        }
        let cols = columns();
        assert_eq!(&cols[8..8 + Counts::LEN], Counts::NAMES);
        assert_eq!(cols.len(), 8 + Counts::LEN + 5 + 3 + 2 + 3 + 2);
        assert_eq!(
            &cols[8 + Counts::LEN + 5..8 + Counts::LEN + 8],
            super::super::estimates::COLUMNS
        );
        assert_eq!(
            &cols[8 + Counts::LEN + 8..8 + Counts::LEN + 10],
            INTERVAL_COLUMNS
        );
        assert_eq!(
            &cols[8 + Counts::LEN + 10..8 + Counts::LEN + 13],
            super::super::estimates::TIME_COLUMNS
        );
        assert_eq!(&cols[8 + Counts::LEN + 13..], OUTLIER_COLUMNS);
        // A cut-off row's estimate reads back; a file without the estimate
        // columns still reads.
        let (mut row, _) = measure("d", &item, Strategy::Naive, Budget::nodes(1), &method).unwrap();
        row.estimate = Some(crate::analysis::estimate::Interval {
            estimate: 20.0,
            low: 1.0,
            high: 40.0,
        });
        let rec = row.record();
        assert_eq!(back(&rec).unwrap(), row);
        // Its time: the estimated nodes × the run's time per node.
        let per_node = row.timing.unwrap().ns() / row.counts.unwrap().nodes as f64;
        let t = row.time_estimate().unwrap();
        assert_eq!(
            (t.estimate, t.low, t.high),
            (20.0 * per_node, per_node, 40.0 * per_node)
        );
        assert_eq!(rec.len(), cols.len());
        assert_eq!(rec[cols.len() - 5], format!("{:.1}", 20.0 * per_node));
        // A time estimate on a row without a node estimate is an error.
        let mut fields = row.record();
        fields[8 + Counts::LEN + 5..8 + Counts::LEN + 8].fill(String::new());
        assert!(back(&fields).unwrap_err().contains("time estimate"));
        // Files without the outlier columns, without the time estimates,
        // and without the node estimates still read.
        let old: Vec<String> = row.record()[..cols.len() - 2].to_vec();
        let no_outliers = Row {
            outliers: None,
            ..row.clone()
        };
        assert_eq!(back(&old).unwrap(), no_outliers);
        let old: Vec<String> = row.record()[..cols.len() - 5].to_vec();
        assert_eq!(back(&old).unwrap(), no_outliers);
        let old: Vec<String> = row.record()[..cols.len() - 10].to_vec();
        assert_eq!(back(&old).unwrap().estimate, None);
        // A row's time interval reads back; a file without the interval
        // columns still reads, its intervals absent (n/a).
        row.time_interval = Some(crate::measure::stats::Interval {
            low: 10.5,
            high: 12.0,
        });
        assert_eq!(back(&row.record()).unwrap(), row);
        let old: Vec<String> = row.record()[..cols.len() - 7].to_vec();
        let read = back(&old).unwrap();
        assert_eq!((read.time_interval, read.estimate), (None, row.estimate));
    }

    /// Many samples: the interval is the median's, within the samples.
    #[test]
    fn a_rows_time_interval_lies_within_its_samples() {
        let item = Item {
            index: 1,
            line: 1,
            name: String::new(),
            board: Board::empty(crate::BoxSize::new(2).unwrap()),
        };
        let many = Method {
            min_time: std::time::Duration::from_micros(300),
            min_samples: 20,
            ..crate::measure::Method::DEFAULT
        };
        let (row, _) = measure("d", &item, Strategy::Bitmask, Budget::nodes(1000), &many).unwrap();
        let (t, i) = (row.timing.unwrap(), row.time_interval.unwrap());
        assert!(
            t.cpu_min_ns <= i.low && i.low <= i.high && i.high <= t.cpu_max_ns,
            "{row:?}"
        );
    }

    /// Columns are found by name: in any order, unknown ones ignored, a
    /// counter the file lacks absent (and written back empty, never 0).
    #[test]
    fn rows_read_by_column_name_with_a_counter_missing() {
        let item = Item {
            index: 4,
            line: 7,
            name: "n".to_string(),
            board: Board::empty(crate::BoxSize::new(2).unwrap()),
        };
        let method = Method {
            min_time: std::time::Duration::from_micros(100),
            min_samples: 1,
            ..crate::measure::Method::DEFAULT
        };
        let (row, _) = measure("d", &item, Strategy::Mrv, Budget::nodes(1000), &method).unwrap();
        let (cols, fields) = (columns(), row.record());
        let gone = Counts::NAMES[Counts::LEN - 1];
        // Reversed, without the last counter, with an unknown column.
        let mut pairs: Vec<(&str, String)> = cols
            .iter()
            .copied()
            .zip(fields)
            .filter(|(c, _)| *c != gone)
            .rev()
            .collect();
        pairs.push(("later_counter", "12".to_string()));
        let header = csv::StringRecord::from(pairs.iter().map(|p| p.0).collect::<Vec<_>>());
        let rec = csv::StringRecord::from(pairs.iter().map(|p| p.1.clone()).collect::<Vec<_>>());
        let read = Row::from_fields(&Fields::new(&header, &rec)).unwrap();
        let mut want = row.clone();
        want.counts.as_mut().unwrap().forced = 0;
        want.absent[Counts::LEN - 1] = true;
        assert_eq!(gone, "forced");
        assert_eq!(read, want);
        assert_eq!(read.record()[8 + Counts::LEN - 1], "");
        // A required column missing: named.
        let header = csv::StringRecord::from(vec!["dataset"]);
        let rec = csv::StringRecord::from(vec!["d"]);
        assert_eq!(
            Row::from_fields(&Fields::new(&header, &rec)),
            Err("no column \"index\"".to_string())
        );
    }

    /// Every dataset advances at the same pace: its k-th of n puzzles comes
    /// at about (k + ½)/n of the run, whatever the sizes of the others.
    #[test]
    fn the_schedule_interleaves_datasets_evenly() {
        let counts = [1u64, 3, 100, 0, 7];
        let order: Vec<usize> = Schedule::new(&counts).collect();
        assert_eq!(order.len(), 111);
        for (d, &n) in counts.iter().enumerate() {
            let at: Vec<usize> = order
                .iter()
                .enumerate()
                .filter(|&(_, &x)| x == d)
                .map(|(i, _)| i)
                .collect();
            assert_eq!(at.len() as u64, n);
            for (k, &i) in at.iter().enumerate() {
                let want = (k as f64 + 0.5) / n as f64 * 111.0;
                assert!(
                    (i as f64 - want).abs() <= counts.len() as f64,
                    "{d} {k}: {i} vs {want}"
                );
            }
        }
        // The one-puzzle dataset runs in the middle, not first.
        assert!((50..=60).contains(&order.iter().position(|&x| x == 0).unwrap()));
        // More datasets than INTERLEAVE: waves, each dataset whole within one.
        let many = vec![2u64; INTERLEAVE + 3];
        let order: Vec<usize> = Schedule::new(&many).collect();
        assert_eq!(order.len(), 2 * (INTERLEAVE + 3));
        assert!(order[..2 * INTERLEAVE].iter().all(|&d| d < INTERLEAVE));
    }

    /// A heavy class costs per probed node; unseen classes borrow.
    #[test]
    fn forecast_weighs_heavy_searches_by_their_nodes() {
        use std::time::Duration;
        let (naive, mrv) = (Strategy::Naive, Strategy::Mrv);
        let mut f = Forecast::default();
        assert_eq!(f.left(Duration::from_secs(1)), None);
        for probe in [HEAVY, 10 * HEAVY, 10] {
            f.expect(naive, 9, probe);
            f.expect(mrv, 9, probe);
        }
        // Done: the heavy naive task of HEAVY nodes (2 s), one mrv (1 s).
        f.finish(naive, 9, HEAVY, 2.0);
        f.finish(mrv, 9, HEAVY, 1.0);
        // Left: naive 10×HEAVY (20 s by rate), naive light (borrows the
        // light rate of every class: 1 s), mrv ×2 (1 s each): 23 s of work
        // for 3 s done, in 3 s elapsed.
        let left = f.left(Duration::from_secs(3)).unwrap();
        assert!((left.as_secs_f64() - 23.0).abs() < 1e-9, "{left:?}");
    }

    #[test]
    fn dedup_keeps_ladder_order() {
        let all = Strategy::ALL;
        let reversed: Vec<Strategy> = all.iter().rev().chain(all.iter()).copied().collect();
        assert_eq!(dedup_in_ladder_order(&reversed), all);
    }
}
