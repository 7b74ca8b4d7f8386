//! Running strategies over datasets: one plain [`Row`] per puzzle × strategy.
//!
//! Datasets are streamed, interleaved ([`Schedule`]: every dataset advances
//! at the same pace, so the progress estimate holds); puzzle × strategy tasks
//! run on the one parallel executor ([`crate::exec`]), which hands rows back
//! in task order, so the rows (and `results.csv`, which puts each dataset's
//! rows together: dataset, puzzle, strategy in ladder order) and every
//! counter never depend on `--jobs`. Each task is one call of the one
//! measurement ([`crate::measure::measure`]): a counted, verified run, then
//! timed runs.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, bail};

use crate::Strategy;
use crate::board::Board;
use crate::counters::Counts;
use crate::dataset::{self, DatasetReader};
use crate::measure::{self, Method, Timing};
use crate::sample::Sample;
use crate::search::{Budget, Limits};
use crate::strategy::Outcome;

/// One line of `results.csv`: a puzzle × strategy. Counters and times are
/// `None` for `unsupported` rows (nothing ran).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Dataset name (shipped: path below `datasets/` without extension; else file stem).
    pub dataset: String,
    /// 1-based position of the puzzle in its file (kept when sampling).
    pub index: u64,
    /// Line of the file where the puzzle starts.
    pub line: u64,
    /// The puzzle's name (trailing `# comment`), or empty.
    pub name: String,
    /// Board side: 4, 9, 16 or 25.
    pub size: u32,
    /// Number of givens.
    pub clues: u32,
    pub strategy: Strategy,
    pub outcome: Outcome,
    /// Every counter, from the counted run.
    pub counts: Option<Counts>,
    /// Time per run, from the uncounted runs.
    pub timing: Option<Timing>,
}

/// The columns before the counters.
const ID_COLUMNS: [&str; 8] = [
    "dataset", "index", "line", "name", "size", "clues", "strategy", "outcome",
];
/// The columns after the counters: the [`Timing`] of the row.
const TIME_COLUMNS: [&str; 5] = ["time_ns", "time_min_ns", "time_max_ns", "wall_ns", "runs"];

/// The `results.csv` header, in order: identity, every counter of
/// [`Counts::NAMES`], then the time columns.
pub fn columns() -> Vec<&'static str> {
    ID_COLUMNS
        .iter()
        .chain(Counts::NAMES.iter())
        .chain(TIME_COLUMNS.iter())
        .copied()
        .collect()
}

/// A nanosecond figure with one decimal (times per run are means of batches).
fn ns(x: f64) -> String {
    format!("{x:.1}")
}

impl Row {
    /// Nodes and time (ns, rounded) of a row where a strategy ran.
    pub fn measured(&self) -> Option<(u64, u64)> {
        Some((self.counts?.nodes, self.timing?.ns().round() as u64))
    }

    /// The CSV fields, in [`columns`] order.
    pub fn record(&self) -> Vec<String> {
        let mut f = vec![
            self.dataset.clone(),
            self.index.to_string(),
            self.line.to_string(),
            self.name.clone(),
            self.size.to_string(),
            self.clues.to_string(),
            self.strategy.name().to_string(),
            self.outcome.name().to_string(),
        ];
        match self.counts {
            Some(c) => f.extend(c.values().iter().map(u64::to_string)),
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
        f
    }

    /// Reads the fields of one CSV record (in [`columns`] order); the error
    /// names the column.
    pub fn from_record(rec: &csv::StringRecord) -> Result<Row, String> {
        let want = ID_COLUMNS.len() + Counts::LEN + TIME_COLUMNS.len();
        if rec.len() != want {
            return Err(format!("{} fields, expected {want}", rec.len()));
        }
        let cols = columns();
        let field = |i: usize| rec.get(i).unwrap_or_default();
        fn num<T: std::str::FromStr>(cols: &[&str], i: usize, v: &str) -> Result<T, String> {
            v.parse()
                .map_err(|_| format!("column {} ({}): {v:?} is not a number", i + 1, cols[i]))
        }
        let opt_num = |i: usize| -> Result<Option<f64>, String> {
            let v = field(i);
            if v.is_empty() {
                Ok(None)
            } else {
                num(&cols, i, v).map(Some)
            }
        };
        let strategy: Strategy = field(6)
            .parse()
            .map_err(|e| format!("column 7 (strategy): {e}"))?;
        let outcome = Outcome::from_name(field(7)).ok_or_else(|| {
            let valid: Vec<&str> = Outcome::ALL.iter().map(|o| o.name()).collect();
            format!(
                "column 8 (outcome): unknown outcome {:?} (valid: {})",
                field(7),
                valid.join(", ")
            )
        })?;
        let first = ID_COLUMNS.len();
        let counts = if (first..first + Counts::LEN).all(|i| field(i).is_empty()) {
            None
        } else {
            let mut v = [0u64; Counts::LEN];
            for (k, slot) in v.iter_mut().enumerate() {
                *slot = num(&cols, first + k, field(first + k))?;
            }
            Some(Counts::from_values(v))
        };
        let t = first + Counts::LEN;
        let timing = match (
            opt_num(t)?,
            opt_num(t + 1)?,
            opt_num(t + 2)?,
            opt_num(t + 3)?,
        ) {
            (Some(cpu), Some(lo), Some(hi), Some(wall)) => Some(Timing {
                runs: num(&cols, t + 4, field(t + 4))?,
                samples: 0,
                cpu_ns: cpu,
                cpu_min_ns: lo,
                cpu_max_ns: hi,
                wall_ns: wall,
            }),
            (None, None, None, None) => None,
            _ => {
                return Err(format!(
                    "columns {}-{} (times): some empty, some not",
                    t + 1,
                    t + TIME_COLUMNS.len()
                ));
            }
        };
        if (outcome == Outcome::Unsupported) != counts.is_none()
            || (outcome == Outcome::Unsupported) != timing.is_none()
        {
            return Err(format!(
                "outcome {outcome}: counters and times must be {} for this outcome",
                if outcome == Outcome::Unsupported {
                    "empty"
                } else {
                    "present"
                }
            ));
        }
        Ok(Row {
            dataset: field(0).to_string(),
            index: num(&cols, 1, field(1))?,
            line: num(&cols, 2, field(2))?,
            name: field(3).to_string(),
            size: num(&cols, 4, field(4))?,
            clues: num(&cols, 5, field(5))?,
            strategy,
            outcome,
            counts,
            timing,
        })
    }
}

/// A puzzle file to run, under a report name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub name: String,
    pub path: PathBuf,
}

/// Turns `--dataset` values into sources: an existing file, or the name of a
/// shipped dataset. With no values, every shipped dataset.
pub fn resolve_sources(specs: &[String]) -> anyhow::Result<Vec<Source>> {
    let shipped = || -> anyhow::Result<Vec<Source>> {
        Ok(dataset::shipped()?
            .into_iter()
            .map(|d| Source {
                name: d.name,
                path: d.path,
            })
            .collect())
    };
    if specs.is_empty() {
        return shipped();
    }
    let mut known: Option<Vec<Source>> = None;
    let mut out: Vec<Source> = Vec::new();
    for spec in specs {
        let path = Path::new(spec);
        let source = if path.is_file() {
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| spec.clone());
            Source {
                name,
                path: path.to_path_buf(),
            }
        } else {
            if known.is_none() {
                known = Some(shipped().unwrap_or_default());
            }
            let list = known.as_deref().unwrap_or_default();
            match list.iter().find(|s| s.name == *spec) {
                Some(s) => s.clone(),
                None => {
                    let names: Vec<&str> = list.iter().map(|s| s.name.as_str()).collect();
                    bail!(
                        "--dataset {spec}: no such file, and no shipped dataset of that name (shipped: {})",
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    );
                }
            }
        };
        if out.iter().any(|s| s.path == source.path) {
            continue;
        }
        let mut source = source;
        if out.iter().any(|s| s.name == source.name) {
            source.name = source.path.display().to_string();
        }
        out.push(source);
    }
    Ok(out)
}

/// Everything that decides what `compare` measures.
#[derive(Clone, Debug)]
pub struct Plan {
    pub sources: Vec<Source>,
    /// In ladder order, without repeats.
    pub strategies: Vec<Strategy>,
    /// Node budget per puzzle × strategy.
    pub budget: Budget,
    /// At most this many puzzles per dataset, drawn with one seed.
    pub sample: Option<Sample>,
    /// How long to time each puzzle × strategy.
    pub method: Method,
    pub jobs: usize,
}

/// Reads a dataset once, checking every puzzle, and returns how many there are.
/// Bad input is reported before any solving starts.
pub fn count_puzzles(source: &Source) -> anyhow::Result<u64> {
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

/// The puzzles of a source, streamed.
fn items(source: &Source) -> anyhow::Result<impl Iterator<Item = anyhow::Result<Item>>> {
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

/// Measures one puzzle with one strategy. A bug (wrong answer, disagreeing
/// runs) is an error that aborts the run.
pub fn measure(
    dataset: &str,
    item: &Item,
    strategy: Strategy,
    budget: Budget,
    method: &Method,
) -> anyhow::Result<Row> {
    let m = measure::measure(strategy, &item.board, Limits::solve(budget.get()), method)
        .with_context(|| {
            format!(
                "dataset {dataset}, puzzle {} (line {}): run aborted",
                item.index, item.line
            )
        })?;
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
        ..t
    });
    Ok(Row {
        dataset: dataset.to_string(),
        index: item.index,
        line: item.line,
        name: item.name.clone(),
        size: item.board.size().side() as u32,
        clues: item.board.clues() as u32,
        strategy,
        outcome: m.outcome,
        counts: ran.then_some(m.counts),
        timing,
    })
}

/// Datasets measured interleaved at once, at most (each holds an open file
/// while it runs); more run in waves of this many.
pub const INTERLEAVE: usize = 64;

/// The order of measurement: which dataset's next puzzle comes next.
///
/// Datasets are interleaved so that each advances at the same pace: the
/// k-th of a dataset's n puzzles is measured at about (k + ½)/n of the way
/// through its wave. So every stretch of the run holds a fair share of every
/// dataset, hard and easy alike, and the run's average cost per task so far
/// predicts the rest ([`eta`]): measured in file order, the hard curated
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
                    let key = |d: usize| (2 * u128::from(self.taken[d]) + 1, 2 * u128::from(self.counts[d]));
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

/// The time left, estimated from the run so far: the average time per task
/// of the `done` tasks, times the tasks left. `None` before the first task.
/// With the interleaved [`Schedule`] this lands within 2× of the truth once
/// a tenth of the run is done (tests/compare_report.rs replays a recorded run).
pub fn eta(elapsed: std::time::Duration, done: u64, total: u64) -> Option<std::time::Duration> {
    (done > 0).then(|| elapsed.mul_f64(total.saturating_sub(done) as f64 / done as f64))
}

/// A task: one puzzle of dataset `.0` with one strategy.
type Task = (usize, Arc<Item>, Strategy);

/// Runs the plan in [`Schedule`] order, handing every row to `sink` with its
/// dataset's position in `prepared`; the rows of one puzzle come together,
/// in ladder order, and each dataset's puzzles in file order. `tick` is
/// called once per finished run (from worker threads).
pub fn execute(
    plan: &Plan,
    prepared: &[Prepared],
    sink: &mut dyn FnMut(usize, &Row) -> anyhow::Result<()>,
    tick: &(dyn Fn() + Sync),
) -> anyhow::Result<()> {
    let strategies = dedup_in_ladder_order(&plan.strategies);
    let counts: Vec<u64> = prepared.iter().map(Prepared::runs).collect();
    type Puzzles<'a> = Box<dyn Iterator<Item = anyhow::Result<Arc<Item>>> + 'a>;
    // Opened when a dataset's first puzzle is due, dropped after its last.
    let mut streams: Vec<Option<Puzzles<'_>>> = prepared.iter().map(|_| None).collect();
    let mut left = counts.clone();
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
        left[d] -= 1;
        if left[d] == 0 {
            streams[d] = None;
        }
        match next {
            Some(Ok(item)) => strategies
                .iter()
                .map(|&s| Ok((d, item.clone(), s)))
                .collect(),
            Some(Err(e)) => vec![Err(e)],
            None => vec![Err(anyhow::anyhow!(
                "{}: fewer puzzles than when it was first read (did the file change during the run?)",
                p.source.path.display()
            ))],
        }
    });
    crate::exec::ordered(
        tasks,
        plan.jobs,
        |(d, item, strategy)| {
            let row = measure(
                &prepared[*d].source.name,
                item,
                *strategy,
                plan.budget,
                &plan.method,
            );
            tick();
            row.map(|r| (*d, r))
        },
        |(d, row)| sink(d, &row),
    )
}

/// The strategies in ladder order (registry order), each once.
pub fn dedup_in_ladder_order(chosen: &[Strategy]) -> Vec<Strategy> {
    let mut v = chosen.to_vec();
    v.sort();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

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
        };
        for s in Strategy::ladder() {
            let row = measure("d", &item, s, Budget::nodes(1000), &method).unwrap();
            let rec = csv::StringRecord::from(row.record());
            // Rows hold times as the file does: they read back exactly.
            let back = Row::from_record(&rec).unwrap();
            assert_eq!(back, row, "{s}");
        }
        let cols = columns();
        assert_eq!(&cols[8..8 + Counts::LEN], Counts::NAMES);
        assert_eq!(cols.len(), 8 + Counts::LEN + 5);
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

    #[test]
    fn eta_extrapolates_the_average() {
        use std::time::Duration;
        assert_eq!(eta(Duration::from_secs(10), 0, 100), None);
        assert_eq!(eta(Duration::from_secs(10), 25, 100), Some(Duration::from_secs(30)));
        assert_eq!(eta(Duration::from_secs(10), 100, 100), Some(Duration::ZERO));
    }

    #[test]
    fn dedup_keeps_ladder_order() {
        let all = Strategy::ALL;
        let reversed: Vec<Strategy> = all.iter().rev().chain(all.iter()).copied().collect();
        assert_eq!(dedup_in_ladder_order(&reversed), all);
    }
}
