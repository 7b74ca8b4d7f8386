//! Running strategies over datasets: one plain [`Row`] per puzzle × strategy.
//!
//! Datasets are streamed; puzzle × strategy tasks run on the one parallel
//! executor ([`crate::exec`]), which hands rows back in task order, so the
//! output order (dataset, puzzle, strategy in ladder order) and every counter
//! never depend on `--jobs`. Each task is one call of the one measurement
//! ([`crate::measure::measure`]): a counted, verified run, then timed runs.

use std::sync::Arc;

use anyhow::Context;

use crate::Strategy;
use crate::board::Board;
use crate::counters::Counts;
use crate::dataset::DatasetReader;
pub use crate::dataset::{Source, resolve_sources};
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

/// Runs the plan, handing every row to `sink` in deterministic order.
/// `tick` is called once per finished run (from worker threads).
pub fn execute(
    plan: &Plan,
    prepared: &[Prepared],
    sink: &mut dyn FnMut(&Row) -> anyhow::Result<()>,
    tick: &(dyn Fn() + Sync),
) -> anyhow::Result<()> {
    let strategies = dedup_in_ladder_order(&plan.strategies);
    for p in prepared {
        let puzzles: Box<dyn Iterator<Item = anyhow::Result<Arc<Item>>>> = match &p.picked {
            Some(picked) => Box::new(picked.clone().into_iter().map(Ok)),
            None => Box::new(items(&p.source)?.map(|i| i.map(Arc::new))),
        };
        let tasks = puzzles.flat_map(|item| -> Vec<anyhow::Result<(Arc<Item>, Strategy)>> {
            match item {
                Ok(item) => strategies.iter().map(|&s| Ok((item.clone(), s))).collect(),
                Err(e) => vec![Err(e)],
            }
        });
        crate::exec::ordered(
            tasks,
            plan.jobs,
            |(item, strategy)| {
                let row = measure(&p.source.name, item, *strategy, plan.budget, &plan.method);
                tick();
                row
            },
            |row| sink(&row),
        )?;
    }
    Ok(())
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

    #[test]
    fn dedup_keeps_ladder_order() {
        let all = Strategy::ALL;
        let reversed: Vec<Strategy> = all.iter().rev().chain(all.iter()).copied().collect();
        assert_eq!(dedup_in_ladder_order(&reversed), all);
    }
}
