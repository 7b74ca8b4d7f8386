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

use std::sync::Arc;

use anyhow::Context;

pub use super::forecast::Forecast;
use crate::base::board::Board;
use crate::base::counters::Counts;
use crate::base::search::{Budget, Limits};
use crate::base::strategy::Outcome;
use crate::base::strategy::Strategy;
use crate::io::dataset::DatasetReader;
pub use crate::io::dataset::Source;
use crate::io::rows::PuzzleId;
use crate::io::sample::Sample;
pub use crate::io::sources::resolve_sources;
pub(crate) use crate::measure::results::{
    Row, SAMPLE_COLUMNS, columns, read, read_counts, read_outcome, read_rows, read_timing,
    required_columns, samples_record,
};
use crate::measure::{self, Method, Timing};

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
        false,
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
    use crate::io::rows::Fields;
    use crate::measure::results::{INTERVAL_COLUMNS, OUTLIER_COLUMNS};

    /// The CSV fields of `row`, as written.
    fn record(row: &Row) -> Vec<String> {
        crate::io::csv_file::fields(row).unwrap()
    }

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
            board: Board::empty(crate::base::board::BoxSize::new(2).unwrap()),
        };
        let method = Method {
            min_time: std::time::Duration::from_micros(100),
            min_samples: 1,
            ..crate::measure::Method::DEFAULT
        };
        for s in Strategy::ladder() {
            let (row, _) = measure("d", &item, s, Budget::nodes(1000), &method).unwrap();
            // Rows hold times as the file does: they read back exactly.
            assert_eq!(back(&record(&row)).unwrap(), row, "{s}");
        }
        let cols = columns();
        assert_eq!(&cols[8..8 + Counts::LEN], Counts::NAMES);
        assert_eq!(cols.len(), 8 + Counts::LEN + 5 + 3 + 2 + 3 + 2);
        assert_eq!(
            &cols[8 + Counts::LEN + 5..8 + Counts::LEN + 8],
            crate::measure::results::ESTIMATE_COLUMNS
        );
        assert_eq!(
            &cols[8 + Counts::LEN + 8..8 + Counts::LEN + 10],
            INTERVAL_COLUMNS
        );
        assert_eq!(
            &cols[8 + Counts::LEN + 10..8 + Counts::LEN + 13],
            crate::measure::results::TIME_ESTIMATE_COLUMNS
        );
        assert_eq!(&cols[8 + Counts::LEN + 13..], OUTLIER_COLUMNS);
        // A cut-off row's estimate reads back; a file without the estimate
        // columns still reads.
        let (mut row, _) = measure("d", &item, Strategy::Naive, Budget::nodes(1), &method).unwrap();
        row.estimate = Some(crate::measure::results::Estimate {
            estimate: 20.0,
            low: 1.0,
            high: 40.0,
        });
        let rec = record(&row);
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
        let mut fields = record(&row);
        fields[8 + Counts::LEN + 5..8 + Counts::LEN + 8].fill(String::new());
        assert!(back(&fields).unwrap_err().contains("time estimate"));
        // Files without the outlier columns, without the time estimates,
        // and without the node estimates still read.
        let old: Vec<String> = record(&row)[..cols.len() - 2].to_vec();
        let no_outliers = Row {
            outliers: None,
            ..row.clone()
        };
        assert_eq!(back(&old).unwrap(), no_outliers);
        let old: Vec<String> = record(&row)[..cols.len() - 5].to_vec();
        assert_eq!(back(&old).unwrap(), no_outliers);
        let old: Vec<String> = record(&row)[..cols.len() - 10].to_vec();
        assert_eq!(back(&old).unwrap().estimate, None);
        // A row's time interval reads back; a file without the interval
        // columns still reads, its intervals absent (n/a).
        row.time_interval = Some(crate::measure::stats::Interval {
            low: 10.5,
            high: 12.0,
        });
        assert_eq!(back(&record(&row)).unwrap(), row);
        let old: Vec<String> = record(&row)[..cols.len() - 7].to_vec();
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
            board: Board::empty(crate::base::board::BoxSize::new(2).unwrap()),
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
            board: Board::empty(crate::base::board::BoxSize::new(2).unwrap()),
        };
        let method = Method {
            min_time: std::time::Duration::from_micros(100),
            min_samples: 1,
            ..crate::measure::Method::DEFAULT
        };
        let (row, _) = measure("d", &item, Strategy::Mrv, Budget::nodes(1000), &method).unwrap();
        let (cols, fields) = (columns(), record(&row));
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
        assert_eq!(record(&read)[8 + Counts::LEN - 1], "");
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

    #[test]
    fn dedup_keeps_ladder_order() {
        let all = Strategy::ALL;
        let reversed: Vec<Strategy> = all.iter().rev().chain(all.iter()).copied().collect();
        assert_eq!(dedup_in_ladder_order(&reversed), all);
    }
}
