//! The rows of a report folder as a schema: one line of `results.csv` per
//! puzzle × rung ([`Row`]), one of `programs.csv` per puzzle × outside
//! program ([`ProgramRow`]), one of `samples.csv` per row
//! ([`samples_record`]).
//!
//! One row type per file, written with serde by column name ([`Row`]'s
//! `Serialize` names every column; the counters' columns follow
//! [`Counts::NAMES`]) and read back by column name ([`read_rows`], through
//! [`crate::io::rows::Table`]): a column added later is optional, so every
//! `results.csv` the lab ever wrote still reads, its missing values absent
//! (a counter the file lacks is told apart from one that is 0:
//! [`Row::absent`]). Errors name file, line and column.
//!
//! The row holds what one measurement is ([`Timing`], the time's interval
//! and outliers), so it lives with the measurement; `analysis` reads it,
//! `run` makes it.

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::base::counters::Counts;
use crate::base::strategy::Outcome;
use crate::base::strategy::Strategy;
use crate::io::program::ProgramName;
use crate::io::rows::{Fields, PuzzleId, Table, Unique};
use crate::measure::Timing;
use crate::measure::stats::{Interval, Outliers};

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
    /// A cut-off run's whole search, estimated (`crate::run::compare::estimates`).
    pub estimate: Option<Estimate>,
    /// 95% interval of `time_ns` (the median over samples), bootstrapped
    /// over the samples; `None` with one sample, or from a file written
    /// before these columns.
    pub time_interval: Option<Interval>,
    /// The row's samples beyond Tukey's fences, mild and severe
    /// ([`Outliers`]); `None` where nothing was timed, or
    /// from a file written before these columns.
    pub outliers: Option<Outliers>,
}

/// The columns after the identity: what ran and how it ended.
const RUN_COLUMNS: [&str; 2] = ["strategy", "outcome"];
/// The columns after the counters: the [`Timing`] of the row.
pub(crate) const TIME_COLUMNS: [&str; 5] =
    ["time_ns", "time_min_ns", "time_max_ns", "wall_ns", "runs"];

/// The `results.csv` header, in order: identity ([`PuzzleId::COLUMNS`]),
/// strategy and outcome, every counter of [`Counts::NAMES`], the time
/// columns, the estimated nodes of a cut-off run
/// (`ESTIMATE_COLUMNS`), the time's interval
/// (`INTERVAL_COLUMNS`), then the cut-off run's estimated time
/// ([`TIME_ESTIMATE_COLUMNS`]). [`Row`]'s `Serialize` writes in this
/// order; [`Row::from_fields`] reads by name.
pub fn columns() -> Vec<&'static str> {
    let mut c = measured_columns();
    c.extend(ESTIMATE_COLUMNS);
    c.extend(INTERVAL_COLUMNS);
    c.extend(TIME_ESTIMATE_COLUMNS);
    c.extend(OUTLIER_COLUMNS);
    c
}

/// The row's samples beyond Tukey's fences: mild, severe.
pub(crate) const OUTLIER_COLUMNS: [&str; 2] = ["outliers_mild", "outliers_severe"];

fn read_outliers(f: &Fields) -> Result<Option<Outliers>, String> {
    let [mild, severe] = OUTLIER_COLUMNS;
    match (f.opt::<u64>(mild)?, f.opt::<u64>(severe)?) {
        (Some(mild), Some(severe)) => Ok(Some(Outliers { mild, severe })),
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
        times.push_str(&format!("{:.1}", (x * 10.0).round() / 10.0));
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
pub(crate) const INTERVAL_COLUMNS: [&str; 2] = ["time_low_ns", "time_high_ns"];

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
pub fn required_columns() -> Vec<&'static str> {
    PuzzleId::COLUMNS
        .iter()
        .chain(RUN_COLUMNS.iter())
        .chain(["nodes"].iter())
        .chain(TIME_COLUMNS.iter())
        .copied()
        .collect()
}

/// A nanosecond figure with one decimal (times per run are means of
/// batches); empty when there is none.
fn ns(x: Option<f64>) -> Option<String> {
    x.map(|x| format!("{x:.1}"))
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
pub fn read_rows<T>(
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
pub fn read_counts(f: &Fields) -> Result<(Option<Counts>, [bool; Counts::LEN]), String> {
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
pub fn read_timing(f: &Fields) -> Result<Option<Timing>, String> {
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
pub fn read_outcome(f: &Fields) -> Result<Outcome, String> {
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
fn read_interval(f: &Fields) -> Result<Option<Interval>, String> {
    let [low, high] = INTERVAL_COLUMNS;
    match (read_ns(f, low)?, read_ns(f, high)?) {
        (Some(low), Some(high)) if low <= high => Ok(Some(Interval { low, high })),
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
    /// nodes × its measured time per node ([`time`]).
    pub fn time_estimate(&self) -> Option<Estimate> {
        time(
            self.estimate.as_ref()?,
            self.timing?.ns(),
            self.counts?.nodes,
        )
    }

    /// The CSV fields, in [`columns`] order, as `Serialize` writes them
    /// (written to memory: nothing can fail).
    pub fn record(&self) -> Vec<String> {
        crate::io::csv_file::fields(self).unwrap_or_default()
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
        let [a, b, c] = ESTIMATE_COLUMNS.map(|n| f.get(n).unwrap_or_default());
        let row = Row {
            puzzle,
            strategy,
            outcome,
            counts,
            absent,
            timing,
            estimate: parse([a, b, c])?,
            time_interval: read_interval(f)?,
            outliers: read_outliers(f)?,
        };
        // The time estimate is derived from the columns read above; the
        // file's copy is checked, so a hand-edited one does not pass unseen.
        let names = TIME_ESTIMATE_COLUMNS;
        if f.get(names[0]).is_some() {
            let [a, b, c] = names.map(|n| f.get(n).unwrap_or_default());
            let read = parse_named([a, b, c], names)?;
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

/// The row read back by column name, as [`read`] reads it
/// ([`Row::from_fields`]: a column added later may be missing, a column not
/// known here is ignored), for a serde reader of the file
/// (`csv::Reader::deserialize::<Row>()`).
impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Row, D::Error> {
        /// The record's fields under its header's names.
        struct ByName;
        impl<'de> Visitor<'de> for ByName {
            type Value = (csv::StringRecord, csv::StringRecord);
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a results.csv row read under its header")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
                let (mut header, mut record) = Self::Value::default();
                while let Some((name, field)) = m.next_entry::<String, String>()? {
                    header.push_field(&name);
                    record.push_field(&field);
                }
                Ok((header, record))
            }
        }
        let (header, record) = d.deserialize_map(ByName)?;
        Row::from_fields(&Fields::new(&header, &record)).map_err(serde::de::Error::custom)
    }
}

/// The row as `results.csv` holds it, every column by name in [`columns`]
/// order: a counter the row's file did not hold is written empty, times in
/// ns to one decimal, estimated nodes whole.
impl Serialize for Row {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Row", columns().len())?;
        identity(&mut st, &self.puzzle, self.strategy.name(), self.outcome)?;
        let values = self.counts.map(|c| c.values());
        for (k, name) in Counts::NAMES.into_iter().enumerate() {
            let v = values.filter(|_| !self.absent[k]).map(|v| v[k]);
            st.serialize_field(name, &v)?;
        }
        let t = self.timing;
        let [cpu, min, max, wall, runs] = TIME_COLUMNS;
        st.serialize_field(cpu, &ns(t.map(|t| t.cpu_ns)))?;
        st.serialize_field(min, &ns(t.map(|t| t.cpu_min_ns)))?;
        st.serialize_field(max, &ns(t.map(|t| t.cpu_max_ns)))?;
        st.serialize_field(wall, &ns(t.map(|t| t.wall_ns)))?;
        st.serialize_field(runs, &t.map(|t| t.runs))?;
        let whole = |x: f64| format!("{:.0}", x.round());
        for (name, x) in ESTIMATE_COLUMNS
            .into_iter()
            .zip(Estimate::parts(self.estimate))
        {
            st.serialize_field(name, &x.map(whole))?;
        }
        let [low, high] = INTERVAL_COLUMNS;
        st.serialize_field(low, &ns(self.time_interval.map(|i| i.low)))?;
        st.serialize_field(high, &ns(self.time_interval.map(|i| i.high)))?;
        let time = Estimate::parts(self.time_estimate());
        for (name, x) in TIME_ESTIMATE_COLUMNS.into_iter().zip(time) {
            st.serialize_field(name, &ns(x))?;
        }
        let [mild, severe] = OUTLIER_COLUMNS;
        st.serialize_field(mild, &self.outliers.map(|o| o.mild))?;
        st.serialize_field(severe, &self.outliers.map(|o| o.severe))?;
        st.end()
    }
}

/// The estimated nodes of a cut-off run (whole nodes; `crate::run::compare::estimates`
/// makes them with Knuth's probes): the columns after the time columns.
pub const ESTIMATE_COLUMNS: [&str; 3] = ["nodes_est", "nodes_est_low", "nodes_est_high"];

/// The time of the whole search, estimated: [`ESTIMATE_COLUMNS`] × the
/// cut-off run's time per node, marked as an estimate by the columns' names.
pub const TIME_ESTIMATE_COLUMNS: [&str; 3] = ["time_est_ns", "time_est_low_ns", "time_est_high_ns"];

/// An estimate with its 95% interval: a cut-off run's whole search, in nodes
/// or in ns (`crate::analysis::estimate::Interval`, as a row holds it).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Estimate {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    /// Estimate, low, high (all `None` when there is no estimate).
    fn parts(e: Option<Estimate>) -> [Option<f64>; 3] {
        match e {
            Some(e) => [e.estimate, e.low, e.high].map(Some),
            None => [None; 3],
        }
    }
}

/// The estimated time (ns) of a cut-off run's whole search: its estimated
/// nodes × `ns` ÷ `nodes`, the measured time per node of the run the budget
/// stopped (a rung's cost per node barely changes with depth, so the part
/// it did not search costs about the same per node).
pub fn time(e: &Estimate, ns: f64, nodes: u64) -> Option<Estimate> {
    if nodes == 0 || !ns.is_finite() {
        return None;
    }
    let per_node = ns / nodes as f64;
    Some(Estimate {
        estimate: e.estimate * per_node,
        low: e.low * per_node,
        high: e.high * per_node,
    })
}

/// Reads the three estimated-nodes fields back; `Err` names what is wrong.
pub fn parse(fields: [&str; 3]) -> Result<Option<Estimate>, String> {
    parse_named(fields, ESTIMATE_COLUMNS)
}

/// Reads three fields named `names` back (all empty: none).
fn parse_named(fields: [&str; 3], names: [&str; 3]) -> Result<Option<Estimate>, String> {
    if fields.iter().all(|f| f.is_empty()) {
        return Ok(None);
    }
    let mut v = [0.0; 3];
    for (k, f) in fields.iter().enumerate() {
        v[k] = f
            .parse::<f64>()
            .map_err(|_| format!("column {}: {f:?} is not a number", names[k]))?;
    }
    Ok(Some(Estimate {
        estimate: v[0],
        low: v[1],
        high: v[2],
    }))
}

/// The file of program rows in a report folder.
pub const PROGRAMS: &str = "programs.csv";

/// One line of `programs.csv`: a puzzle × program.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramRow {
    /// Which puzzle (the first columns, as in `results.csv`).
    pub puzzle: PuzzleId,
    pub program: ProgramName,
    pub outcome: Outcome,
    /// Why the program failed (empty when it did not).
    pub reason: String,
    /// The time of the run ([`crate::io::program::ProgramRun::ns`]); `None`
    /// when nothing ran (`unsupported`).
    pub time_ns: Option<u64>,
    pub wall_ns: Option<u64>,
    /// `child-cpu` (a process per puzzle) or `wall` (stream mode).
    pub clock: &'static str,
}

/// `programs.csv`'s header: `results.csv`'s columns, then `reason`, `clock`.
pub fn program_columns() -> Vec<&'static str> {
    let mut c = measured_columns();
    c.extend(["reason", "clock"]);
    c
}

/// The columns a `programs.csv` cannot do without; `reason` and `clock`
/// may be missing (no reason; `child-cpu`), other columns are ignored.
fn program_required_columns() -> Vec<&'static str> {
    let mut c = PuzzleId::COLUMNS.to_vec();
    c.extend(["strategy", "outcome", "time_ns", "wall_ns"]);
    c
}

impl ProgramRow {
    /// The CSV fields, in [`program_columns`] order, as `Serialize`
    /// writes them (written to memory: nothing can fail).
    pub fn record(&self) -> Vec<String> {
        crate::io::csv_file::fields(self).unwrap_or_default()
    }

    /// Reads a record written by its `Serialize`, by column name.
    pub fn from_fields(f: &Fields) -> Result<ProgramRow, String> {
        let time = |name: &str| -> Result<Option<u64>, String> {
            Ok(f.opt::<f64>(name)?.map(|x| x.round() as u64))
        };
        let outcome = f.text("outcome")?;
        Ok(ProgramRow {
            puzzle: PuzzleId::read(f)?,
            program: ProgramName::new(f.text("strategy")?)
                .map_err(|e| f.wrong("strategy", &e.to_string()))?,
            outcome: Outcome::from_name(outcome)
                .ok_or_else(|| f.wrong("outcome", &format!("unknown outcome {outcome:?}")))?,
            time_ns: time("time_ns")?,
            wall_ns: time("wall_ns")?,
            reason: f.get("reason").unwrap_or_default().to_string(),
            clock: if f.get("clock") == Some("wall") {
                "wall"
            } else {
                "child-cpu"
            },
        })
    }
}

/// The row as `programs.csv` holds it, by column name in
/// [`program_columns`] order: `results.csv`'s columns (the program in
/// `strategy`, no counters, one run whose time is every time column), then
/// `reason` and `clock`.
impl Serialize for ProgramRow {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("ProgramRow", program_columns().len())?;
        identity(&mut st, &self.puzzle, self.program.as_str(), self.outcome)?;
        for name in Counts::NAMES {
            st.serialize_field(name, &None::<u64>)?;
        }
        let [cpu, min, max, wall, runs] = TIME_COLUMNS;
        let t = |x: Option<u64>| x.map(|x| format!("{x}.0"));
        for name in [cpu, min, max] {
            st.serialize_field(name, &t(self.time_ns))?;
        }
        st.serialize_field(wall, &t(self.wall_ns))?;
        st.serialize_field(runs, &self.time_ns.map(|_| 1))?;
        st.serialize_field("reason", &self.reason)?;
        st.serialize_field("clock", self.clock)?;
        st.end()
    }
}

/// The columns every per-puzzle row begins with ([`PuzzleId::COLUMNS`]),
/// then `strategy` (a rung, or a program) and `outcome`.
fn identity<S: SerializeStruct>(
    st: &mut S,
    p: &PuzzleId,
    strategy: &str,
    outcome: Outcome,
) -> Result<(), S::Error> {
    st.serialize_field("dataset", &p.dataset)?;
    st.serialize_field("index", &p.index)?;
    st.serialize_field("line", &p.line)?;
    st.serialize_field("name", &p.name)?;
    st.serialize_field("size", &p.size)?;
    st.serialize_field("clues", &p.clues)?;
    st.serialize_field("strategy", strategy)?;
    st.serialize_field("outcome", outcome.name())
}

/// A program's start-up cost on one board size: the median time of
/// `STARTUP_RUNS` runs on a puzzle with nothing left to fill (the
/// solution of the first solvable puzzle of that size): starting the
/// process (an interpreter), reading and printing.
#[derive(Clone, Debug, PartialEq)]
pub struct Startup {
    pub program: ProgramName,
    pub side: u32,
    pub ns: f64,
}

/// `programs.csv` as bytes.
pub fn programs_to_csv(rows: &[ProgramRow]) -> anyhow::Result<Vec<u8>> {
    crate::io::csv_file::with_header(program_columns(), rows)
        .map_err(|e| e.context(format!("cannot build {PROGRAMS}")))
}

/// Reads a `programs.csv`, by column name. Errors name the file, line and
/// column.
pub fn read_programs(path: &std::path::Path) -> anyhow::Result<Vec<ProgramRow>> {
    let mut rows = Vec::new();
    Table::open(path, &program_required_columns())?
        .for_each(ProgramRow::from_fields, |r| rows.push(r))?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back() {
        let row = ProgramRow {
            puzzle: PuzzleId {
                dataset: "d".into(),
                index: 2,
                line: 3,
                name: "x, \"y\"".into(),
                size: 9,
                clues: 30,
            },
            program: ProgramName::new("mine").unwrap(),
            outcome: Outcome::WrongAnswer,
            reason: "solution repeats digit 1 in row 1".into(),
            time_ns: Some(12_345),
            wall_ns: Some(20_000),
            clock: "child-cpu",
        };
        let bytes = programs_to_csv(std::slice::from_ref(&row)).unwrap();
        let mut r = csv::Reader::from_reader(&bytes[..]);
        assert_eq!(
            r.headers().unwrap().iter().collect::<Vec<_>>(),
            program_columns()
        );
        let header = r.headers().unwrap().clone();
        let rec = r.records().next().unwrap().unwrap();
        assert_eq!(
            ProgramRow::from_fields(&Fields::new(&header, &rec)).unwrap(),
            row
        );
    }

    /// A serde reader reads a results.csv of an older layout (the committed
    /// fixture: no `forced`, no estimates, an unknown column) as [`read`]
    /// does, and a row reads back what it wrote.
    #[test]
    fn serde_reads_rows_by_column_name() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/old-report/results.csv");
        let mut rows = Vec::new();
        read(&path, |r| rows.push(r)).unwrap();
        let mut r = csv::Reader::from_path(&path).unwrap();
        let back: Vec<Row> = r.deserialize().map(Result::unwrap).collect();
        assert_eq!(back, rows);
        assert!(rows.iter().any(|r| r.absent[Counts::LEN - 1]));
        let mut row = rows[0].clone();
        row.absent = [false; Counts::LEN];
        row.outliers = Some(Outliers { mild: 2, severe: 1 });
        let bytes = crate::io::csv_file::with_header(columns(), [&row]).unwrap();
        let mut r = csv::Reader::from_reader(&bytes[..]);
        assert_eq!(r.deserialize::<Row>().next().unwrap().unwrap(), row);
    }
}
