//! Throughput: how many puzzles per second each strategy solves on a set,
//! and the work counters that explain the number.
//!
//! One [`measure()`] call covers one dataset × one strategy and returns a plain
//! [`SpeedRow`]; exporters (`cli::speed`) turn rows into a table, CSV or
//! Markdown. The method, in order:
//!
//! 1. **Counted pass** ([`crate::measure::count`], counters on, every
//!    solution verified): nodes, guesses, outcomes.
//! 2. If a puzzle exceeded the node budget (or the strategy does not run its
//!    size) the row gets **no throughput**: timing only the puzzles that
//!    finished would silently report a different, easier set.
//! 3. **Timing**: the whole set in cold passes, exactly as `compare` and
//!    `ladder` time their groups (`crate::measure::measure_set`): each pass
//!    runs every puzzle once, in a fresh seeded shuffle, as tdoku's harness
//!    runs a stream of puzzles; optionally a seeded random symmetry of each
//!    puzzle in each pass (`permute`, the harness's `-r 1`). Throughput is
//!    puzzles ÷ the time of a whole pass (every puzzle once), the median
//!    over whole passes; a pass's time is Σ of all its runs, runs taken
//!    again because the core ran slow included — what a harness timing a
//!    stream adds up. (Where no pass was whole: Σ over puzzles of the mean
//!    of each puzzle's samples. Never Σ of per-puzzle medians: with
//!    `--permute` each sample is another symmetry, and medians drop the
//!    large trees; that read 15–40% below tdoku's harness, measured.) Each
//!    puzzle's own time is its median over passes, so `speed`, `compare`
//!    and `ladder` agree on the time of every puzzle.
//!
//! Single-threaded by design: a per-puzzle latency measured on one core.
//!
//! An outside program (`measure_program`) is run once per puzzle through a
//! [`Session`] (its answer judged, see [`crate::io::program`]); its time is the
//! child's CPU time (start-up included) or, in stream mode, the wall-clock
//! time per answer. It has no counters, and gets a throughput only when it
//! solved every puzzle (or rightly printed nothing for one without solution).

use serde::{Deserialize, Serialize};

use crate::base::board::Board;
use crate::base::counters::Counts;
use crate::base::search::{Budget, End, Limits};
use crate::base::strategy::{Outcome, Strategy, WrongSolution};
use crate::io::program::{Entrant, Feed, Program, Reference, Session, StartError};
use crate::measure::stats::{Interval, Outliers, Summary};
use crate::measure::{self, Bug, Conditions, Method};

/// How to measure one dataset × strategy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpeedOptions {
    /// Node budget per puzzle.
    pub budget: Budget,
    /// Solutions to look for per puzzle (2: the field's "count to 2").
    pub limit: u64,
    /// How to time the puzzles.
    pub method: Method,
    /// When set, `method.min_time` is replaced per set by this ÷ the set's
    /// puzzles: a strategy is timed for about this long over any set.
    pub set_time: Option<std::time::Duration>,
}

/// Which clock a set's times were read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Clock {
    /// A rung: the measuring thread's CPU time per solve.
    ThreadCpu,
    /// A rung on a machine whose per-thread CPU clock is too coarse to time
    /// one solve: wall time per solve.
    RungWall,
    /// A program, a process per puzzle: the child's user + system CPU time,
    /// process start-up included.
    ChildCpu,
    /// A program in stream mode: wall-clock time from writing a puzzle to
    /// reading its answer.
    Wall,
}

/// The time of a whole set: the per-puzzle times summed and described.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetTiming {
    /// The time of one pass over the set (ns): the median over whole
    /// passes, or Σ over puzzles of the mean of each puzzle's samples
    /// where no pass was whole.
    pub total_ns: f64,
    /// Whole passes the median is over (0: `total_ns` is Σ per-puzzle
    /// means).
    #[serde(default)]
    pub passes: u64,
    /// The per-puzzle times (ns): median, quartiles, extremes.
    pub per_puzzle: Summary,
    /// Timed runs in all.
    pub runs: u64,
    /// What the times are.
    pub clock: Clock,
    /// 95% interval of `total_ns` over the puzzles: a bootstrap of Σ over
    /// puzzles of each puzzle's mean sample time (what a pass costs), its
    /// relative width applied to `total_ns` ([`crate::measure::stats::sum_interval`]).
    #[serde(default)]
    pub total_interval: Option<Interval>,
    /// Samples beyond Tukey's fences of their puzzle's samples, summed over
    /// the puzzles (`None` for a program: one run per puzzle).
    #[serde(default)]
    pub outliers: Option<crate::measure::stats::Outliers>,
}

impl SetTiming {
    /// Puzzles per second.
    /// `None` when the passes read 0 ns (tiny puzzles, a coarse clock on a
    /// loaded machine): no throughput, never infinity.
    pub fn puzzles_per_sec(&self) -> Option<f64> {
        (self.total_ns > 0.0).then(|| self.per_puzzle.n as f64 * 1e9 / self.total_ns)
    }
    /// Mean time per puzzle, in microseconds.
    pub fn us_per_puzzle(&self) -> f64 {
        self.total_ns / self.per_puzzle.n as f64 / 1e3
    }
    /// 95% interval of [`Self::puzzles_per_sec`].
    pub fn puzzles_per_sec_interval(&self) -> Option<Interval> {
        let n = self.per_puzzle.n as f64;
        self.total_interval.map(|i| i.recip().map(|x| n * 1e9 * x))
    }
    /// 95% interval of [`Self::us_per_puzzle`].
    pub fn us_per_puzzle_interval(&self) -> Option<Interval> {
        let n = self.per_puzzle.n as f64;
        self.total_interval.map(|i| i.map(|t| t / n / 1e3))
    }
}

/// One dataset × strategy. Plain data: exporters decide how it looks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeedRow {
    pub dataset: String,
    /// A rung, or an outside program (which has no counters: the counter
    /// fields below stay 0 and are written as empty cells).
    pub entrant: Entrant,
    pub puzzles: u64,
    /// Puzzles per [`Outcome`], in the order of [`Outcome::ALL`].
    pub outcomes: [u64; Outcome::COUNT],
    /// Node budget (rungs).
    pub budget: Budget,
    /// Solution limit (rungs): 1 solves, 2 also proves uniqueness.
    pub limit: u64,
    /// Whether each pass timed a random symmetry of each puzzle.
    pub permuted: bool,
    /// Puzzles solved with no guess at all (`guesses == 0`).
    pub solved_without_guessing: u64,
    /// Sum over all puzzles (over-budget puzzles contribute the work done
    /// before the budget ran out, so then it is a lower bound).
    pub total_guesses: u64,
    /// Same, for nodes.
    pub total_nodes: u64,
    /// `None` unless every puzzle was solved or proven to have no solution.
    pub timing: Option<SetTiming>,
    /// A program's first failed puzzle: `puzzle N: outcome: reason`.
    pub failure: Option<String>,
}

impl SpeedRow {
    /// Puzzles with this outcome.
    pub fn with(&self, outcome: Outcome) -> u64 {
        self.outcomes[outcome as usize]
    }
    /// Puzzles an outside program failed (wrong answer, time limit, crash,
    /// unreadable output).
    pub fn failed(&self) -> u64 {
        Outcome::ALL
            .iter()
            .filter(|o| o.is_program_failure())
            .map(|&o| self.with(o))
            .sum()
    }
    /// True for a rung's row (it has counters).
    pub fn counted(&self) -> bool {
        matches!(self.entrant, Entrant::Rung(_))
    }
    /// % of the puzzles solved without a single guess.
    pub fn pct_without_guessing(&self) -> f64 {
        100.0
            * crate::measure::stats::share(self.solved_without_guessing as f64, self.puzzles as f64)
    }
    pub fn guesses_per_puzzle(&self) -> f64 {
        crate::measure::stats::share(self.total_guesses as f64, self.puzzles as f64)
    }
    pub fn nodes_per_puzzle(&self) -> f64 {
        crate::measure::stats::share(self.total_nodes as f64, self.puzzles as f64)
    }
    /// True when the counter columns are exact averages (no puzzle was cut
    /// short by the budget) rather than lower bounds.
    pub fn counters_exact(&self) -> bool {
        self.with(Outcome::BudgetExceeded) == 0
    }
    /// The flat record written to CSV: one column per figure.
    pub fn record(&self) -> SpeedRecord {
        let t = self.timing;
        let q = |f: fn(&Summary) -> f64| t.map(|t| f(&t.per_puzzle) / 1e3);
        let counted = |x: f64| self.counted().then_some(x);
        SpeedRecord {
            dataset: self.dataset.clone(),
            strategy: self.entrant.clone(),
            puzzles: self.puzzles,
            solved: self.with(Outcome::Solved),
            no_solution: self.with(Outcome::NoSolution),
            budget_exceeded: self.with(Outcome::BudgetExceeded),
            unsupported: self.with(Outcome::Unsupported),
            wrong_answer: self.with(Outcome::WrongAnswer),
            time_limit: self.with(Outcome::TimeLimit),
            crashed: self.with(Outcome::Crashed),
            bad_output: self.with(Outcome::BadOutput),
            budget: if self.counted() {
                self.budget.to_string()
            } else {
                String::new()
            },
            limit: self.counted().then_some(self.limit),
            permuted: self.counted().then_some(self.permuted),
            puzzles_per_sec: t.and_then(|t| t.puzzles_per_sec()),
            us_per_puzzle: t.map(|t| t.us_per_puzzle()),
            puzzles_per_sec_low: t.and_then(|t| t.puzzles_per_sec_interval()).map(|i| i.low),
            puzzles_per_sec_high: t.and_then(|t| t.puzzles_per_sec_interval()).map(|i| i.high),
            us_per_puzzle_low: t.and_then(|t| t.us_per_puzzle_interval()).map(|i| i.low),
            us_per_puzzle_high: t.and_then(|t| t.us_per_puzzle_interval()).map(|i| i.high),
            us_median: q(|s| s.median),
            us_min: q(|s| s.min),
            us_q1: q(|s| s.q1),
            us_q3: q(|s| s.q3),
            us_max: q(|s| s.max),
            runs: t.map(|t| t.runs),
            passes: t.map(|t| t.passes),
            clock: t.map(|t| t.clock),
            pct_solved_without_guessing: counted(self.pct_without_guessing()),
            guesses_per_puzzle: counted(self.guesses_per_puzzle()),
            nodes_per_puzzle: counted(self.nodes_per_puzzle()),
            counters_exact: self.counted().then(|| self.counters_exact()),
            outliers_mild: t.and_then(|t| t.outliers).map(|o| o.mild),
            outliers_severe: t.and_then(|t| t.outliers).map(|o| o.severe),
            reason: self.failure.clone().unwrap_or_default(),
        }
    }
}

/// [`SpeedRow`] flattened for CSV (the `csv` crate cannot nest).
/// Empty time cells mean "not timed" (a puzzle over budget, unsupported or
/// failed); empty counter cells and budget mean a program (no counters).
/// Per-puzzle times are in microseconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeedRecord {
    pub dataset: String,
    /// The rung's or the program's name.
    pub strategy: Entrant,
    pub puzzles: u64,
    pub solved: u64,
    pub no_solution: u64,
    pub budget_exceeded: u64,
    pub unsupported: u64,
    pub wrong_answer: u64,
    pub time_limit: u64,
    pub crashed: u64,
    pub bad_output: u64,
    pub budget: String,
    pub limit: Option<u64>,
    pub permuted: Option<bool>,
    pub puzzles_per_sec: Option<f64>,
    pub us_per_puzzle: Option<f64>,
    /// 95% intervals of the two above (bootstrap over puzzles).
    pub puzzles_per_sec_low: Option<f64>,
    pub puzzles_per_sec_high: Option<f64>,
    pub us_per_puzzle_low: Option<f64>,
    pub us_per_puzzle_high: Option<f64>,
    pub us_median: Option<f64>,
    pub us_min: Option<f64>,
    pub us_q1: Option<f64>,
    pub us_q3: Option<f64>,
    pub us_max: Option<f64>,
    pub runs: Option<u64>,
    pub passes: Option<u64>,
    pub clock: Option<Clock>,
    pub pct_solved_without_guessing: Option<f64>,
    pub guesses_per_puzzle: Option<f64>,
    pub nodes_per_puzzle: Option<f64>,
    pub counters_exact: Option<bool>,
    /// Samples beyond Tukey's fences (mild, severe), summed over puzzles.
    pub outliers_mild: Option<u64>,
    pub outliers_severe: Option<u64>,
    /// A program's first failed puzzle, and why.
    pub reason: String,
}

/// Measures one strategy on one set of puzzles (see the module docs for the
/// method). `tick` is called once per puzzle for the counted pass and once
/// when its timing ends; `conditions` hears every timing. Fails loudly on a
/// bug (a wrong solution, or runs of one code path that disagree).
pub fn measure(
    dataset: &str,
    puzzles: &[Board],
    strategy: Strategy,
    opts: &SpeedOptions,
    conditions: &mut Conditions,
    tick: &dyn Fn(),
) -> Result<SpeedRow, Bug> {
    let limits = Limits::count(opts.limit, opts.budget.get());
    let mut row = SpeedRow::new(dataset, Entrant::Rung(strategy), puzzles, opts.budget);
    row.limit = opts.limit;
    row.permuted = opts.method.permute;
    let counted = count_set(&mut row, strategy, puzzles, limits, tick)?;
    // 2. No throughput over a set the strategy did not finish.
    let timeable = row.with(Outcome::Solved) + row.with(Outcome::NoSolution);
    if puzzles.is_empty() || timeable < row.puzzles {
        return Ok(row);
    }
    row.timing = time_set(strategy, puzzles, &counted, limits, opts, conditions, tick)?;
    Ok(row)
}

/// Step 1: the counted, verified pass over the set, tallied into `row`; each
/// puzzle's counts, for the timed runs to match. A count cut by the budget
/// after its first solution did not finish either.
fn count_set(
    row: &mut SpeedRow,
    strategy: Strategy,
    puzzles: &[Board],
    limits: Limits,
    tick: &dyn Fn(),
) -> Result<Vec<Counts>, Bug> {
    let mut counted = Vec::with_capacity(puzzles.len());
    for p in puzzles {
        let m = measure::count(strategy, p, limits)?;
        tick();
        let outcome = match m.end {
            End::BudgetExceeded => Outcome::BudgetExceeded,
            _ => m.outcome,
        };
        row.outcomes[outcome as usize] += 1;
        row.total_nodes += m.counts.nodes;
        row.total_guesses += m.counts.guesses;
        if m.outcome == Outcome::Solved && m.counts.guesses == 0 {
            row.solved_without_guessing += 1;
        }
        counted.push(m.counts);
    }
    Ok(counted)
}

/// Step 3: the whole set in cold passes: the set's time (the median whole
/// pass), its interval, and the per-puzzle times; each puzzle's counts
/// must be those of the counted pass.
fn time_set(
    strategy: Strategy,
    puzzles: &[Board],
    counted: &[Counts],
    limits: Limits,
    opts: &SpeedOptions,
    conditions: &mut Conditions,
    tick: &dyn Fn(),
) -> Result<Option<SetTiming>, Bug> {
    // A set is timed for its whole time (a throughput), never cut short by
    // a task's interval.
    let mut method = Method {
        tight: 0.0,
        ..opts.method
    };
    if let Some(set) = opts.set_time {
        method.min_time = set / puzzles.len().max(1) as u32;
    }
    let tasks: Vec<(Strategy, &Board)> = puzzles.iter().map(|p| (strategy, p)).collect();
    let measured = measure::measure_set(&tasks, limits, &method, true, &mut |_, _| tick());
    let mut times = Vec::with_capacity(puzzles.len());
    let mut means = Vec::with_capacity(puzzles.len());
    let mut runs = 0;
    let mut outliers = Outliers::default();
    for ((p, counts), m) in puzzles.iter().zip(counted).zip(measured.results) {
        let (m, _) = m?;
        if m.counts != *counts {
            return Err(Bug::Disagree {
                strategy,
                puzzle: p.clone(),
                counted: counts.nodes,
                timed: m.counts.nodes,
            });
        }
        let t = m.timing.expect("a supported strategy is timed");
        conditions.add(&t);
        times.push(t.ns());
        outliers += Outliers::of(&m.samples);
        means.push(stream_mean(&m.samples).unwrap_or(t.ns()));
        runs += t.runs;
    }
    conditions.account(measured.accounted, measured.clock_ns);
    let mut whole = measured.whole_passes;
    let passes = whole.len() as u64;
    let sum_of_means: f64 = means.iter().sum();
    let total_ns = crate::measure::stats::median(&mut whole).unwrap_or(sum_of_means);
    let total_interval = crate::measure::stats::sum_interval(&means)
        .filter(|_| sum_of_means > 0.0)
        .map(|i| i.map(|t| t / sum_of_means * total_ns));
    Ok(Summary::of(&mut times).map(|per_puzzle| SetTiming {
        total_interval,
        total_ns,
        passes,
        per_puzzle,
        runs,
        outliers: Some(outliers),
        clock: if measure::cpu_clock_step().is_some() {
            Clock::RungWall
        } else {
            Clock::ThreadCpu
        },
    }))
}

/// A puzzle's share of a stream's time: the mean of its kept samples. A
/// harness that times whole passes adds every run, slow tails included, and
/// with `--permute` each sample is another symmetry whose tree can be far
/// larger than the median one: the mean, not the median, is what a stream
/// of such puzzles costs.
fn stream_mean(samples: &[f64]) -> Option<f64> {
    (!samples.is_empty()).then(|| samples.iter().sum::<f64>() / samples.len() as f64)
}

impl SpeedRow {
    pub(crate) fn new(
        dataset: &str,
        entrant: Entrant,
        puzzles: &[Board],
        budget: Budget,
    ) -> SpeedRow {
        SpeedRow {
            dataset: dataset.to_string(),
            entrant,
            puzzles: puzzles.len() as u64,
            outcomes: [0; Outcome::COUNT],
            budget,
            limit: 1,
            permuted: false,
            solved_without_guessing: 0,
            total_guesses: 0,
            total_nodes: 0,
            timing: None,
            failure: None,
        }
    }
}

/// Runs an outside program on every puzzle of a set, one at a time, and
/// judges every answer (see the module docs). A failed puzzle is counted
/// and the first one described in [`SpeedRow::failure`]; only a program
/// that cannot be started, or a bug in the lab, is an error. `tick` is
/// called once per puzzle.
fn measure_program(
    dataset: &str,
    puzzles: &[Board],
    program: &Program,
    tick: &dyn Fn(),
) -> Result<SpeedRow, StartError> {
    let entrant = Entrant::Program(program.name.clone());
    let mut row = SpeedRow::new(dataset, entrant, puzzles, Budget::UNLIMITED);
    let mut session = Session::new(program);
    let mut times = Vec::with_capacity(puzzles.len());
    for (i, p) in puzzles.iter().enumerate() {
        let run = session.run(p, &Reference::new(p))?;
        tick();
        row.outcomes[run.outcome as usize] += 1;
        if run.outcome.is_program_failure() && row.failure.is_none() {
            row.failure = Some(format!("puzzle {}: {}: {}", i + 1, run.outcome, run.reason));
        }
        times.push(run.ns() as f64);
    }
    let finished = row.with(Outcome::Solved) + row.with(Outcome::NoSolution);
    if finished == row.puzzles {
        let total_ns = times.iter().sum();
        let total_interval = crate::measure::stats::sum_interval(&times);
        let clock = match program.feed {
            Feed::PerPuzzle => Clock::ChildCpu,
            Feed::Stream => Clock::Wall,
        };
        row.timing = Summary::of(&mut times).map(|per_puzzle| SetTiming {
            total_ns,
            passes: 0,
            per_puzzle,
            runs: row.puzzles,
            clock,
            total_interval,
            outliers: None,
        });
    }
    Ok(row)
}

/// Whether a strategy may be timed on a set (see [`check_sample`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SampleCheck {
    /// Every puzzle solved and verified; nodes of one counted pass.
    Solved { nodes: u64 },
    /// Puzzle `index` (0-based) was not solved: over budget or no solution.
    Unsolved { index: usize, outcome: Outcome },
    /// One pass needs more than the node cap (checking stopped there).
    OverCap { cap: u64 },
}

/// Runs a set once counted and once uncounted (the timed path), verifying
/// every solution, before anything is timed. A wrong solution is an error.
/// Stops at the first unsolved puzzle, or once the pass has used `pass_cap`
/// nodes, so checking an unaffordable strategy stays cheap.
pub fn check_sample(
    puzzles: &[Board],
    strategy: Strategy,
    budget: Option<u64>,
    pass_cap: Option<u64>,
) -> Result<SampleCheck, WrongSolution> {
    let cap = pass_cap.unwrap_or(u64::MAX);
    let mut nodes: u64 = 0;
    for (index, p) in puzzles.iter().enumerate() {
        let left = cap - nodes;
        let capped = budget.map_or(left, |b| b.min(left));
        let run = strategy.solve(p, Some(capped))?;
        match run.outcome {
            Outcome::Solved => {}
            Outcome::BudgetExceeded if budget.is_none_or(|b| capped < b) => {
                return Ok(SampleCheck::OverCap { cap });
            }
            outcome => return Ok(SampleCheck::Unsolved { index, outcome }),
        }
        nodes += run.counts.nodes;
        if strategy
            .run_timed(p, Limits::solve(budget))?
            .solution
            .is_none()
        {
            return Ok(SampleCheck::Unsolved {
                index,
                outcome: Outcome::NoSolution,
            });
        }
    }
    Ok(SampleCheck::Solved { nodes })
}

/// The boards of a dataset, in file order.
pub fn boards(dataset: &crate::io::dataset::Dataset) -> Vec<Board> {
    dataset.puzzles.iter().map(|p| p.board.clone()).collect()
}

/// Measures every set × strategy, then every set × program, in that order
/// (one row each), reporting progress to `progress`: one tick per
/// puzzle run. Returns the rows and the machine's conditions sampled
/// before and after.
pub fn run(
    sets: &[crate::io::dataset::Dataset],
    strategies: &[Strategy],
    programs: &[Program],
    opts: &SpeedOptions,
    progress: &dyn crate::base::progress::Progress,
) -> anyhow::Result<(Vec<SpeedRow>, Conditions)> {
    let passes: u64 = sets.iter().map(|d| d.len() as u64).sum::<u64>()
        * (2 * strategies.len() + programs.len()) as u64;
    progress.start(passes);
    let mut rows = Vec::new();
    let mut conditions = Conditions::new(1);
    conditions.sample_load();
    for set in sets {
        let boards = boards(set);
        for &strategy in strategies {
            progress.say(&format!(
                "{} ({} puzzles) × {strategy}",
                set.name,
                boards.len()
            ));
            rows.push(measure(
                &set.name,
                &boards,
                strategy,
                opts,
                &mut conditions,
                &|| progress.tick(),
            )?);
        }
        for program in programs {
            progress.say(&format!(
                "{} ({} puzzles) × program {}",
                set.name,
                boards.len(),
                program.name
            ));
            rows.push(measure_program(&set.name, &boards, program, &|| {
                progress.tick()
            })?);
        }
    }
    conditions.sample_load();
    Ok((rows, conditions))
}
