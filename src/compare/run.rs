//! Running strategies over datasets: one plain [`Row`] per puzzle × strategy.
//!
//! Datasets are streamed ([`crate::format::PuzzleReader`]) in chunks; each
//! chunk's puzzle × strategy tasks run in parallel on a rayon pool, and the
//! rows come back in task order, so the output order (dataset, puzzle,
//! strategy in ladder order) never depends on `--jobs`. Memory is bounded by
//! the chunk size, whatever the dataset length.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::Strategy;
use crate::board::Board;
use crate::counters::Counts;
use crate::dataset;
use crate::input;
use crate::search::Limits;
use crate::strategy::Outcome;

/// Puzzles per parallel chunk: enough work to keep every thread busy, few
/// enough that memory stays small.
const CHUNK: usize = 32;

/// What happened to one puzzle under one strategy, as written to the CSV.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RowOutcome {
    Solved,
    NoSolution,
    BudgetExceeded,
    /// The strategy does not handle this board size; nothing was measured.
    Unsupported,
}

impl RowOutcome {
    pub fn name(self) -> &'static str {
        match self {
            RowOutcome::Solved => "solved",
            RowOutcome::NoSolution => "no-solution",
            RowOutcome::BudgetExceeded => "budget-exceeded",
            RowOutcome::Unsupported => "unsupported",
        }
    }
}

impl From<Outcome> for RowOutcome {
    fn from(o: Outcome) -> Self {
        match o {
            Outcome::Solved => RowOutcome::Solved,
            Outcome::NoSolution => RowOutcome::NoSolution,
            Outcome::BudgetExceeded => RowOutcome::BudgetExceeded,
        }
    }
}

/// One line of `results.csv`. Field order is column order; the counter
/// columns follow [`Counts::NAMES`]. Measurements are empty for
/// `unsupported` rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
    #[serde(with = "strategy_name")]
    pub strategy: Strategy,
    pub outcome: RowOutcome,
    pub nodes: Option<u64>,
    pub placements: Option<u64>,
    pub backtracks: Option<u64>,
    pub probes: Option<u64>,
    pub guesses: Option<u64>,
    pub dead_ends: Option<u64>,
    pub forced: Option<u64>,
    /// Wall-clock time of the uncounted solve (counters compiled out), in nanoseconds.
    pub nanos: Option<u64>,
}

/// The `results.csv` header, in order.
pub const COLUMNS: [&str; 16] = [
    "dataset",
    "index",
    "line",
    "name",
    "size",
    "clues",
    "strategy",
    "outcome",
    "nodes",
    "placements",
    "backtracks",
    "probes",
    "guesses",
    "dead_ends",
    "forced",
    "nanos",
];

impl Row {
    /// True when a strategy actually ran (everything but `unsupported`).
    pub fn measured(&self) -> Option<(u64, u64)> {
        Some((self.nodes?, self.nanos?))
    }
}

/// Strategies are written by their registry name and read back by it.
mod strategy_name {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use crate::Strategy;

    pub fn serialize<S: Serializer>(s: &Strategy, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(s.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(de: D) -> Result<Strategy, D::Error> {
        let name = String::deserialize(de)?;
        Strategy::ALL
            .iter()
            .copied()
            .find(|s| s.name() == name)
            .ok_or_else(|| {
                let valid: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
                D::Error::custom(format!(
                    "unknown strategy {name:?} (valid: {})",
                    valid.join(", ")
                ))
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
    pub budget: u64,
    /// At most this many puzzles per dataset, chosen with `seed`.
    pub sample: Option<u64>,
    pub seed: u64,
    pub jobs: usize,
}

/// Which puzzles of one dataset run: all, or a seeded sample of positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    All,
    /// 0-based positions, ascending.
    Some(Vec<u64>),
}

impl Selection {
    pub fn len(&self, total: u64) -> u64 {
        match self {
            Selection::All => total,
            Selection::Some(v) => v.len() as u64,
        }
    }
}

/// A deterministic sample of `n` of `total` positions: ChaCha8 seeded from
/// `seed` and the dataset name (so two datasets of equal length do not get the
/// same positions), ascending.
pub fn sample_positions(total: u64, n: u64, seed: u64, dataset: &str) -> Selection {
    if n >= total {
        return Selection::All;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ fnv1a(dataset.as_bytes()));
    let mut picked: Vec<u64> = rand::seq::index::sample(&mut rng, total as usize, n as usize)
        .into_iter()
        .map(|i| i as u64)
        .collect();
    picked.sort_unstable();
    Selection::Some(picked)
}

/// FNV-1a: a fixed, platform-independent string hash for seeding.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Reads a dataset once, checking every puzzle, and returns how many there are.
/// Bad input is reported before any solving starts.
pub fn count_puzzles(source: &Source) -> anyhow::Result<u64> {
    let mut reader = input::open(Some(&source.path))?;
    let mut n = 0;
    for p in reader.by_ref() {
        p?;
        n += 1;
    }
    if n == 0 {
        return Err(reader.empty_error().into());
    }
    Ok(n)
}

/// A dataset ready to run: its puzzle count and selection.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub source: Source,
    pub total: u64,
    pub selection: Selection,
}

/// Checks and counts every dataset, and draws the samples.
pub fn prepare(plan: &Plan) -> anyhow::Result<Vec<Prepared>> {
    plan.sources
        .iter()
        .map(|source| {
            let total = count_puzzles(source)?;
            let selection = match plan.sample {
                Some(n) => sample_positions(total, n, plan.seed, &source.name),
                None => Selection::All,
            };
            Ok(Prepared {
                source: source.clone(),
                total,
                selection,
            })
        })
        .collect()
}

/// One puzzle waiting in a chunk.
struct Item {
    index: u64,
    line: u64,
    name: String,
    board: Board,
}

/// Measures one puzzle with one strategy. A wrong solution is an error.
pub fn measure(
    dataset: &str,
    index: u64,
    line: u64,
    name: &str,
    board: &Board,
    strategy: Strategy,
    budget: u64,
) -> anyhow::Result<Row> {
    let mut row = Row {
        dataset: dataset.to_string(),
        index,
        line,
        name: name.to_string(),
        size: board.size().side() as u32,
        clues: board.clues() as u32,
        strategy,
        outcome: RowOutcome::Unsupported,
        nodes: None,
        placements: None,
        backtracks: None,
        probes: None,
        guesses: None,
        dead_ends: None,
        forced: None,
        nanos: None,
    };
    if !strategy.supports(board.size()) {
        return Ok(row);
    }
    let run = strategy.solve(board, Some(budget)).with_context(|| {
        format!("dataset {dataset}, puzzle {index} (line {line}): wrong solution, run aborted")
    })?;
    let Counts {
        nodes,
        placements,
        backtracks,
        probes,
        guesses,
        dead_ends,
        forced,
    } = run.counts;
    row.outcome = run.outcome.into();
    row.nodes = Some(nodes);
    row.placements = Some(placements);
    row.backtracks = Some(backtracks);
    row.probes = Some(probes);
    row.guesses = Some(guesses);
    row.dead_ends = Some(dead_ends);
    row.forced = Some(forced);
    // Time the uncounted path: counting work (e.g. the candidate counts the
    // scanning rungs compute only for `guesses`) must not be in the figure.
    let timed = strategy
        .run_timed(board, Limits::solve(Some(budget)))
        .with_context(|| {
            format!("dataset {dataset}, puzzle {index} (line {line}): wrong solution, run aborted")
        })?;
    if (timed.outcome, timed.counts.nodes) != (run.outcome, nodes) {
        anyhow::bail!(
            "BUG: {strategy} visits {} nodes uncounted but {nodes} counted on dataset {dataset}, puzzle {index}",
            timed.counts.nodes
        );
    }
    row.nanos = Some(u64::try_from(timed.elapsed.as_nanos()).unwrap_or(u64::MAX));
    Ok(row)
}

/// Runs the plan, handing every row to `sink` in deterministic order.
/// `tick` is called once per finished task (from worker threads).
pub fn execute(
    plan: &Plan,
    prepared: &[Prepared],
    sink: &mut dyn FnMut(&Row) -> anyhow::Result<()>,
    tick: &(dyn Fn() + Sync),
) -> anyhow::Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.jobs.max(1))
        .build()
        .context("cannot start the worker threads")?;
    let strategies = dedup_in_ladder_order(&plan.strategies);
    for p in prepared {
        let (wanted, last): (Option<HashSet<u64>>, u64) = match &p.selection {
            Selection::All => (None, u64::MAX),
            Selection::Some(v) => (
                Some(v.iter().copied().collect()),
                v.last().copied().unwrap_or(0),
            ),
        };
        let mut reader = input::open(Some(&p.source.path))?;
        let mut chunk: Vec<Item> = Vec::with_capacity(CHUNK);
        let mut position = 0u64;
        loop {
            // Past the last sampled position there is nothing left to read.
            let next = if position > last {
                None
            } else {
                reader.next().transpose()?
            };
            let done = next.is_none();
            if let Some(puzzle) = next {
                let keep = wanted.as_ref().is_none_or(|w| w.contains(&position));
                position += 1;
                if keep {
                    chunk.push(Item {
                        index: position,
                        line: puzzle.line as u64,
                        name: puzzle.name.unwrap_or_default(),
                        board: puzzle.board,
                    });
                }
            }
            if chunk.len() == CHUNK || (done && !chunk.is_empty()) {
                let tasks: Vec<(&Item, Strategy)> = chunk
                    .iter()
                    .flat_map(|item| strategies.iter().map(move |&s| (item, s)))
                    .collect();
                let rows: Vec<anyhow::Result<Row>> = pool.install(|| {
                    tasks
                        .par_iter()
                        .map(|&(item, s)| {
                            let row = measure(
                                &p.source.name,
                                item.index,
                                item.line,
                                &item.name,
                                &item.board,
                                s,
                                plan.budget,
                            );
                            tick();
                            row
                        })
                        .collect()
                });
                for row in rows {
                    sink(&row?)?;
                }
                chunk.clear();
            }
            if done {
                break;
            }
        }
    }
    Ok(())
}

/// The strategies in ladder order (registry order), each once.
pub fn dedup_in_ladder_order(chosen: &[Strategy]) -> Vec<Strategy> {
    Strategy::ALL
        .iter()
        .copied()
        .filter(|s| chosen.contains(s))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_match_the_row_and_the_counter_registry() {
        let mut w = csv::Writer::from_writer(Vec::new());
        let board = Board::empty(crate::BoxSize::new(2).unwrap());
        let row = measure("d", 1, 1, "", &board, Strategy::ALL[0], 1000).unwrap();
        w.serialize(&row).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        assert_eq!(header, COLUMNS);
        let counters = &COLUMNS[8..15];
        assert_eq!(counters, Counts::NAMES);
    }

    #[test]
    fn samples_are_deterministic_sorted_and_sized() {
        let a = sample_positions(1000, 10, 7, "x");
        let b = sample_positions(1000, 10, 7, "x");
        assert_eq!(a, b);
        let Selection::Some(v) = &a else {
            panic!("expected a sample")
        };
        assert_eq!(v.len(), 10);
        assert!(v.windows(2).all(|w| w[0] < w[1]));
        assert!(v.iter().all(|&i| i < 1000));
        assert_ne!(a, sample_positions(1000, 10, 8, "x"));
        assert_eq!(sample_positions(5, 10, 7, "x"), Selection::All);
    }

    #[test]
    fn dedup_keeps_ladder_order() {
        let all = Strategy::ALL;
        let reversed: Vec<Strategy> = all.iter().rev().chain(all.iter()).copied().collect();
        assert_eq!(dedup_in_ladder_order(&reversed), all);
    }
}
