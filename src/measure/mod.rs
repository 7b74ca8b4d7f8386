//! One way to measure a strategy on a puzzle. `compare`, `speed` and
//! `ladder` call [`measure_all`] on groups of tasks, `solve --stats` calls
//! [`measure`] (a group of one), and `rate`, `trace` and the counted passes
//! call [`count`] when they need no time, so the same puzzle gets the same
//! figures from every command.
//!
//! 1. **Counted run** (counters on): the exact counters, the outcome, and the
//!    first solution, verified against the givens and the rules.
//! 2. **Timed runs** (counters compiled out: the same code, generic over the
//!    counter). The first one is a check and a warm-up: it must visit the same
//!    nodes and reach the same outcome as the counted run, and its answer is
//!    verified too. Then runs are repeated in *samples*, each a batch of
//!    back-to-back runs sized to last about `min_time / min_samples`, until
//!    `min_time` of CPU time has been spent and `min_samples` taken. A solve
//!    that alone takes `min_time` is timed up to three times, one run per
//!    sample (its check run is the first), and once from ten times that. These decisions go by CPU time, so a run that was preempted
//!    does not pass for a long one. The samples of a group's tasks are
//!    taken in rounds, one per task per round, so each task's samples are
//!    spread over the group's time; a sample taken while the core ran slow,
//!    as a reference loop timed before and after it shows, is thrown away
//!    and taken again in a later round ([`Timing::retaken`]).
//! 3. **Figures**, per run: the median over samples of the thread's CPU time
//!    (`CLOCK_THREAD_CPUTIME_ID`: time the scheduler gave to other processes
//!    does not count) — *the* time of the lab — with the fastest and slowest
//!    sample, and the median wall-clock time beside it. Wall time well above
//!    CPU time means the run shared its core ([`Conditions`] says so).
//!
//! Every run of a measurement goes through one [`Solver`], so the figures
//! include the whole per-puzzle cost of the strategy (setting up its state),
//! and nothing else: no allocation, no parsing, no verification.

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::counters::{Counts, NoCount};
use crate::search::{End, Limits};
use crate::solver::{Solver, with_solver};
use crate::strategy::{Outcome, Strategy, WrongSolution};

mod pace;
use pace::{Measuring, Pace};

/// How long to time one puzzle × strategy (defaults: [`crate::defaults::TIMING`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Method {
    /// Keep timing until this much time has been spent on timed runs...
    pub min_time: Duration,
    /// ...and at least this many samples have been taken (fewer only when one
    /// run alone lasts `min_time`).
    pub min_samples: u32,
}

/// Time per run of one puzzle × strategy, in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Timed runs in all (the check run included).
    pub runs: u64,
    /// Samples the figures are taken over.
    pub samples: u32,
    /// Per-thread CPU time: median over samples. The lab's time.
    pub cpu_ns: f64,
    /// CPU time of the fastest sample.
    pub cpu_min_ns: f64,
    /// CPU time of the slowest sample.
    pub cpu_max_ns: f64,
    /// Wall-clock time: median over samples.
    pub wall_ns: f64,
    /// Samples (or check runs) thrown away and taken again because the core
    /// ran slow while they were taken (see `src/measure/pace.rs`).
    #[serde(default)]
    pub retaken: u32,
    /// Samples kept although the core ran slow while they were taken (the
    /// retakes were used up, or the pace did not come back in time): where
    /// they are many, the time reads high.
    #[serde(default)]
    pub slow: u32,
    /// The core's pace while the kept samples were taken: the median of the
    /// reference's reading after each ÷ its best on this machine (1.0 = full
    /// pace; see `src/measure/pace.rs`).
    #[serde(default = "full_pace")]
    pub pace: f64,
}

fn full_pace() -> f64 {
    1.0
}

impl Timing {
    /// The time of one run: the median per-thread CPU time.
    pub fn ns(&self) -> f64 {
        self.cpu_ns
    }
}

/// One strategy on one puzzle: what the counted run found and counted, and
/// how long the uncounted runs took.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    pub strategy: Strategy,
    pub outcome: Outcome,
    pub end: End,
    /// Solutions found (exact when `end == Exhausted`).
    pub solutions: u64,
    /// Every counter, from the counted run.
    pub counts: Counts,
    /// `None` when the strategy does not run this size, or was not timed.
    pub timing: Option<Timing>,
}

/// A measurement that found a bug in the lab: a wrong answer, or counted and
/// uncounted runs of the same code that disagree. Never passed on as a figure.
#[derive(Debug, thiserror::Error)]
pub enum Bug {
    #[error(transparent)]
    WrongSolution(#[from] WrongSolution),
    #[error(
        "BUG: strategy {strategy} visits {timed} nodes uncounted but {counted} counted on {puzzle:?}"
    )]
    Disagree {
        strategy: Strategy,
        puzzle: Board,
        counted: u64,
        timed: u64,
    },
    #[error(
        "BUG: strategy {strategy} found a solution in {found} of {runs} timed runs of {puzzle:?}"
    )]
    Unstable {
        strategy: Strategy,
        puzzle: Board,
        found: u64,
        runs: u64,
    },
}

/// The counted run alone (no time): counters, outcome, verified answer.
/// `Unsupported` when the strategy does not run the puzzle's size.
pub fn count(strategy: Strategy, puzzle: &Board, limits: Limits) -> Result<Measurement, Bug> {
    with_solver(strategy, puzzle.size(), |solver| {
        counted(solver, puzzle, limits)
    })
    .unwrap_or_else(|_| Ok(unsupported(strategy)))
}

/// Counts, then times, `strategy` on `puzzle` (see the module docs).
/// `Unsupported` (no counts, no time) when the strategy does not run the size.
pub fn measure(
    strategy: Strategy,
    puzzle: &Board,
    limits: Limits,
    method: &Method,
) -> Result<Measurement, Bug> {
    let mut all = measure_all(&[(strategy, puzzle)], limits, method, &mut |_, _| {});
    all.pop()
        .map_or_else(|| Ok(unsupported(strategy)), |r| r.map(|(m, _)| m))
}

/// Measures several puzzle × strategy tasks together, their samples
/// interleaved: every task is counted and checked first, then the samples
/// are taken in rounds, one per unfinished task per round, so that the
/// samples of one task are spread over the whole group's time. A stretch
/// of a few hundred milliseconds in which the machine runs slow then spoils
/// one or two samples of many tasks (and the median shrugs it off) instead
/// of every sample of a few. `finished(i, cpu)` hears of task `i` as soon
/// as its last sample is taken, with the CPU time spent measuring it.
/// Each result comes with that CPU time too.
pub fn measure_all(
    tasks: &[(Strategy, &Board)],
    limits: Limits,
    method: &Method,
    finished: &mut dyn FnMut(usize, Duration),
) -> Vec<Result<(Measurement, Duration), Bug>> {
    let _measuring = Measuring::enter();
    let mut timers: Vec<Result<Timer, Bug>> = tasks
        .iter()
        .map(|&(strategy, puzzle)| {
            let clock = Clock::start();
            let timer = with_solver(strategy, puzzle.size(), |solver| {
                let m = counted(solver, puzzle, limits)?;
                Timer::start(solver, puzzle, limits, method, m)
            })
            .unwrap_or_else(|_| Ok(Timer::done(unsupported(strategy))));
            timer.map(|mut t| {
                t.cost += clock.stop().0;
                t
            })
        })
        .collect();
    for (i, t) in timers.iter().enumerate() {
        if let Ok(t) = t
            && t.finished()
        {
            finished(i, Duration::from_nanos(t.cost as u64));
        }
    }
    // Rounds: one sample of every task still short of its samples.
    loop {
        let mut sampled = false;
        for (i, (timer, &(strategy, puzzle))) in timers.iter_mut().zip(tasks).enumerate() {
            let Ok(t) = timer else { continue };
            if t.finished() {
                continue;
            }
            sampled = true;
            let clock = Clock::start();
            let _ = with_solver(strategy, puzzle.size(), |solver| {
                t.sample(solver, puzzle, limits)
            });
            t.cost += clock.stop().0;
            if t.finished() {
                finished(i, Duration::from_nanos(t.cost as u64));
            }
        }
        if !sampled {
            break;
        }
    }
    timers
        .into_iter()
        .zip(tasks)
        .map(|(t, &(_, puzzle))| {
            let t = t?;
            let cost = Duration::from_nanos(t.cost as u64);
            Ok((t.finish(puzzle)?, cost))
        })
        .collect()
}

/// [`measure_all`] over any number of tasks on this thread, in consecutive
/// groups of [`crate::defaults::MEASURE_GROUP`] (what `speed` and `ladder`
/// do; `compare` hands its groups to workers). Results in task order;
/// `finished` hears task indices of the whole list.
pub fn measure_grouped(
    tasks: &[(Strategy, &Board)],
    limits: Limits,
    method: &Method,
    finished: &mut dyn FnMut(usize, Duration),
) -> Vec<Result<(Measurement, Duration), Bug>> {
    let size = crate::defaults::MEASURE_GROUP;
    let mut all = Vec::with_capacity(tasks.len());
    for (k, group) in tasks.chunks(size).enumerate() {
        all.extend(measure_all(group, limits, method, &mut |i, cpu| {
            finished(k * size + i, cpu)
        }));
    }
    all
}

fn unsupported(strategy: Strategy) -> Measurement {
    Measurement {
        strategy,
        outcome: Outcome::Unsupported,
        end: End::Exhausted,
        solutions: 0,
        counts: Counts::default(),
        timing: None,
    }
}

/// Step 1: the counted, verified run.
fn counted(solver: &mut Solver, puzzle: &Board, limits: Limits) -> Result<Measurement, Bug> {
    let tally = solver.search(puzzle, limits, Counts::default());
    solver.check(puzzle)?;
    let mut counts = tally.counter;
    counts.nodes = tally.nodes;
    Ok(Measurement {
        strategy: solver.strategy(),
        outcome: Outcome::of(tally.solutions, tally.end),
        end: tally.end,
        solutions: tally.solutions,
        counts,
        timing: None,
    })
}

/// Steps 2 and 3 for one task: the check run, the samples, the figures.
struct Timer {
    /// The counted run's measurement; its timing is filled at the end.
    m: Measurement,
    /// Runs per sample.
    batch: u64,
    /// Samples wanted and time wanted (CPU ns).
    samples_wanted: u32,
    min_time: f64,
    /// Per-run CPU and wall time of each kept sample, and the pace after it.
    cpu: Vec<f64>,
    wall: Vec<f64>,
    pace: Vec<f64>,
    /// CPU time of the kept samples.
    spent: f64,
    /// Timed runs in all, and how many found a solution.
    runs: u64,
    found: u64,
    retaken: u32,
    slow: u32,
    /// CPU time spent measuring this task (for forecasts), ns.
    cost: f64,
}

impl Timer {
    /// A task with nothing to time (the strategy does not run the size).
    fn done(m: Measurement) -> Timer {
        Timer {
            m,
            batch: 0,
            samples_wanted: 0,
            min_time: 0.0,
            cpu: Vec::new(),
            wall: Vec::new(),
            pace: Vec::new(),
            spent: 0.0,
            runs: 0,
            found: 0,
            retaken: 0,
            slow: 0,
            cost: 0.0,
        }
    }

    /// The check run: same tree, same outcome, a verified answer; its time
    /// (taken again while the core is slow) sizes the samples. A solve
    /// that alone lasts `min_time` is a first sample (see [`LONG_SOLVE`]).
    fn start(
        solver: &mut Solver,
        puzzle: &Board,
        limits: Limits,
        method: &Method,
        m: Measurement,
    ) -> Result<Timer, Bug> {
        let mut t = Timer::done(m);
        let mut ran = t.run(solver, puzzle, limits, 1);
        let (nodes, solutions) = (ran.nodes, ran.solutions);
        if nodes != t.m.counts.nodes || solutions != t.m.solutions {
            return Err(Bug::Disagree {
                strategy: t.m.strategy,
                puzzle: puzzle.clone(),
                counted: t.m.counts.nodes,
                timed: nodes,
            });
        }
        solver.check(puzzle)?;
        while !ran.steady && t.retaken < MAX_RETAKEN {
            t.retaken += 1;
            ran = t.run(solver, puzzle, limits, 1);
        }
        let cpu = ran.cpu;
        // Decisions go by CPU time: a check run preempted by another
        // process must not pass for a long solve.
        t.min_time = method.min_time.as_nanos() as f64;
        if cpu >= t.min_time {
            // A long solve: its check run is a sample. Up to ten times
            // `min_time` it gets two more (one run each, in later rounds), so
            // that one run overlapping a slow stretch is not its time.
            t.keep(&ran, 1);
            t.batch = 1;
            t.samples_wanted = if cpu < LONG_SOLVE * t.min_time {
                method.min_samples.clamp(1, 3)
            } else {
                1
            };
        } else {
            // Samples of `batch` runs, each lasting about min_time / min_samples.
            t.samples_wanted = method.min_samples.max(1);
            let per_sample = t.min_time / f64::from(t.samples_wanted);
            t.batch = (per_sample / cpu.max(1.0)).ceil().clamp(1.0, 1e7) as u64;
        }
        Ok(t)
    }

    /// `batch` back-to-back runs.
    fn run(&mut self, solver: &mut Solver, puzzle: &Board, limits: Limits, batch: u64) -> Ran {
        let before = Pace::before();
        let clock = Clock::start();
        let mut last = (0, 0);
        for _ in 0..batch {
            let t = solver.search(black_box(puzzle), limits, NoCount);
            self.found += u64::from(black_box(t.solutions) > 0);
            last = (t.nodes, t.solutions);
        }
        let (c, w) = clock.stop();
        self.runs += batch;
        let (after, pace) = Pace::steady();
        Ran {
            cpu: c / batch as f64,
            wall: w / batch as f64,
            steady: before && after,
            pace,
            nodes: last.0,
            solutions: last.1,
        }
    }

    fn keep(&mut self, ran: &Ran, batch: u64) {
        self.cpu.push(ran.cpu);
        self.wall.push(ran.wall);
        self.pace.push(ran.pace);
        self.spent += ran.cpu * batch as f64;
        self.slow += u32::from(!ran.steady);
    }

    /// Whether every sample wanted is taken.
    fn finished(&self) -> bool {
        self.m.outcome == Outcome::Unsupported
            || (self.cpu.len() as u32 >= self.samples_wanted && self.spent >= self.min_time)
    }

    /// One more sample (thrown away if the core lost its pace meanwhile).
    fn sample(&mut self, solver: &mut Solver, puzzle: &Board, limits: Limits) {
        let batch = self.batch;
        let ran = self.run(solver, puzzle, limits, batch);
        if !ran.steady && self.retaken < MAX_RETAKEN {
            self.retaken += 1;
        } else {
            self.keep(&ran, batch);
        }
    }

    /// The measurement with its figures.
    fn finish(mut self, puzzle: &Board) -> Result<Measurement, Bug> {
        if self.m.outcome == Outcome::Unsupported {
            return Ok(self.m);
        }
        let expected = u64::from(self.m.solutions > 0) * self.runs;
        if self.found != expected {
            return Err(Bug::Unstable {
                strategy: self.m.strategy,
                puzzle: puzzle.clone(),
                found: self.found,
                runs: self.runs,
            });
        }
        // Kept samples are never none: the check run or a sample is kept
        // before a task is finished.
        let median = |v: &mut Vec<f64>| crate::stats::median(v).unwrap_or(f64::NAN);
        let cpu_median = median(&mut self.cpu);
        self.m.timing = Some(Timing {
            runs: self.runs,
            samples: self.cpu.len() as u32,
            cpu_ns: cpu_median,
            cpu_min_ns: self.cpu[0],
            cpu_max_ns: self.cpu[self.cpu.len() - 1],
            wall_ns: median(&mut self.wall),
            retaken: self.retaken,
            slow: self.slow,
            pace: median(&mut self.pace),
        });
        Ok(self.m)
    }
}

/// What one [`Timer::run`] measured.
struct Ran {
    /// CPU and wall time per run.
    cpu: f64,
    wall: f64,
    /// Whether the core kept its pace before and after, and its pace after
    /// (reference ÷ best).
    steady: bool,
    pace: f64,
    /// The last run's nodes and solutions.
    nodes: u64,
    solutions: u64,
}

/// A solve this many times `min_time` or longer is timed once; a shorter
/// one that still takes `min_time` is timed three times.
const LONG_SOLVE: f64 = 10.0;

/// Most samples of one measurement retaken because the core lost its pace
/// (after that the samples are kept as they are: a machine that is never at
/// full pace still gets figures, [`Timing::retaken`] says so).
const MAX_RETAKEN: u32 = 8;

/// Wall clock and this thread's CPU clock, read together.
struct Clock {
    cpu: Option<u64>,
    wall: Instant,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            cpu: thread_cpu_ns(),
            wall: Instant::now(),
        }
    }

    /// Elapsed (CPU, wall) nanoseconds; CPU falls back to wall where the
    /// system has no per-thread clock.
    fn stop(self) -> (f64, f64) {
        let wall = self.wall.elapsed().as_nanos() as f64;
        let cpu = match (self.cpu, thread_cpu_ns()) {
            (Some(a), Some(b)) => b.saturating_sub(a) as f64,
            _ => wall,
        };
        (cpu, wall)
    }
}

/// CPU time consumed by the calling thread, in nanoseconds.
#[cfg(unix)]
pub fn thread_cpu_ns() -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

/// CPU time consumed by the calling thread (unavailable here).
#[cfg(not(unix))]
pub fn thread_cpu_ns() -> Option<u64> {
    None
}

/// Under what conditions a set of measurements was taken: how many workers
/// on how many cores, how loaded the machine was, and how much of the timed
/// runs' wall time the scheduler gave to something else.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Conditions {
    /// Hardware threads of the machine.
    pub cores: usize,
    /// Worker threads measuring at once.
    pub jobs: usize,
    /// The 1-minute load average, sampled while measuring (median of samples).
    pub load: Option<f64>,
    /// Σ wall ÷ Σ CPU time of the timed samples (1.0 = never interrupted).
    pub wall_over_cpu: Option<f64>,
    /// Samples retaken because the core ran slow ([`Timing::retaken`]).
    #[serde(default)]
    pub retaken: u64,
    /// Samples kept, and how many of them were taken while the core ran
    /// slow ([`Timing::slow`]).
    #[serde(default)]
    pub samples: u64,
    #[serde(default)]
    pub slow: u64,
    /// Each measurement's [`Timing::pace`].
    #[serde(skip)]
    paces: Vec<f64>,
    #[serde(skip)]
    loads: Vec<f64>,
    #[serde(skip)]
    sums: (f64, f64),
}

/// Wall time this much above CPU time flags the runs as disturbed.
pub const DISTURBED_WALL_OVER_CPU: f64 = 1.10;

/// More than this share of samples kept while the core ran slow flags the
/// runs as disturbed.
pub const DISTURBED_SLOW_SHARE: f64 = 0.05;

/// A pace over the run ([`Conditions::pace`]) above this flags the runs as
/// disturbed: the reference ran this much slower than its best on the
/// median sample, though mostly below the threshold that retakes a sample
/// (a host's slow stretch that the per-sample test misses now and then
/// still shows in the median).
pub const DISTURBED_PACE: f64 = 1.15;

impl Conditions {
    pub fn new(jobs: usize) -> Conditions {
        Conditions {
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            jobs,
            ..Conditions::default()
        }
    }

    /// Records the current load average (call now and then while measuring).
    pub fn sample_load(&mut self) {
        if let Some(l) = load_average() {
            self.loads.push(l);
            self.load = crate::stats::median(&mut self.loads.clone());
        }
    }

    /// Adds one measurement's timing: to the wall-over-CPU ratio (weighted
    /// by its runs: the ratio of the total timed wall and CPU times) and to
    /// the samples retaken, kept and kept slow.
    pub fn add(&mut self, t: &Timing) {
        self.retaken += u64::from(t.retaken);
        self.samples += u64::from(t.samples);
        self.slow += u64::from(t.slow);
        if t.samples > 0 {
            self.paces.push(t.pace);
        }
        self.sums.0 += t.wall_ns * t.runs as f64;
        self.sums.1 += t.cpu_ns * t.runs as f64;
        if self.sums.1 > 0.0 {
            self.wall_over_cpu = Some(self.sums.0 / self.sums.1);
        }
    }

    /// The core's pace over the run: the median of the measurements'
    /// [`Timing::pace`] (1.0 = full pace); `None` before any.
    pub fn pace(&self) -> Option<f64> {
        let mut v = self.paces.clone();
        crate::stats::median(&mut v)
    }

    /// Load from other processes: the load average minus our own workers.
    pub fn other_load(&self) -> Option<f64> {
        self.load.map(|l| (l - self.jobs as f64).max(0.0))
    }

    /// Why the figures are less trustworthy than usual, if they are: other
    /// load above the cores left free (at least half a core), timed runs
    /// that waited for their core ([`DISTURBED_WALL_OVER_CPU`]), or samples
    /// kept while the core ran slow ([`DISTURBED_SLOW_SHARE`]).
    pub fn busy(&self) -> Option<String> {
        let free = self.cores.saturating_sub(self.jobs) as f64;
        let mut why = Vec::new();
        if let Some(other) = self.other_load()
            && other > free.max(0.5)
        {
            why.push(format!(
                "load average {:.2} with {} workers on {} cores (other load {other:.2} > {} free)",
                self.load.unwrap_or(0.0),
                self.jobs,
                self.cores,
                free
            ));
        }
        if let Some(r) = self.wall_over_cpu
            && r > DISTURBED_WALL_OVER_CPU
        {
            why.push(format!(
                "timed runs spent {:.0}% more wall time than CPU time",
                (r - 1.0) * 100.0
            ));
        }
        if let Some(p) = self.pace()
            && p > DISTURBED_PACE
        {
            why.push(format!(
                "the core ran at {:.0}% of its best pace on this machine (a reference search took {p:.2}× its best time)",
                100.0 / p
            ));
        }
        if self.slow as f64 > DISTURBED_SLOW_SHARE * self.samples as f64 {
            why.push(format!(
                "{} of {} samples were taken while the core ran slow and its pace did not come back in time (their times read high)",
                self.slow, self.samples
            ));
        }
        (!why.is_empty()).then(|| why.join("; "))
    }
}

/// The 1-minute load average from `/proc/loadavg`.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_one;

    fn board(text: &str) -> Board {
        parse_one(text).expect("test puzzle").1.board
    }

    #[test]
    fn counts_match_a_direct_counted_run_and_time_is_sampled() {
        let b = board(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        );
        let method = Method {
            min_time: Duration::from_millis(2),
            min_samples: 3,
        };
        for s in Strategy::ladder() {
            let m = measure(s, &b, Limits::solve(None), &method).expect("no bug");
            let direct = s.solve(&b, None).expect("verified");
            assert_eq!(m.counts, direct.counts, "{s}");
            assert_eq!(m.outcome, Outcome::Solved);
            let t = m.timing.expect("timed");
            // Every sample is at least one run (how many depends on the clock).
            assert!(
                t.samples >= 3 && t.runs >= u64::from(t.samples),
                "{s}: {t:?}"
            );
            assert!(
                t.cpu_min_ns <= t.cpu_ns && t.cpu_ns <= t.cpu_max_ns,
                "{s}: {t:?}"
            );
        }
    }

    /// A group gives every task what it would get alone (counts, outcome,
    /// samples wanted), hears of each task's end once, and keeps task order.
    #[test]
    fn a_group_measures_each_task_as_it_would_be_measured_alone() {
        let nine = board(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        );
        let four = board("1.3.3.1..1.3.3.1");
        let tasks = [
            (Strategy::Mrv, &nine),
            (Strategy::Fast, &four),
            (Strategy::Naive, &nine),
            (Strategy::Propagate, &four),
        ];
        let method = Method {
            min_time: Duration::from_millis(2),
            min_samples: 3,
        };
        let limits = Limits::solve(None);
        let mut heard = vec![0; tasks.len()];
        let all = measure_all(&tasks, limits, &method, &mut |i, _| heard[i] += 1);
        assert_eq!(heard, vec![1; tasks.len()]);
        for (&(s, b), r) in tasks.iter().zip(all) {
            let (m, _) = r.expect("no bug");
            let alone = count(s, b, limits).expect("no bug");
            assert_eq!(
                (m.strategy, m.outcome, m.counts),
                (s, alone.outcome, alone.counts)
            );
            match m.outcome {
                Outcome::Unsupported => assert_eq!(m.timing, None),
                _ => {
                    let t = m.timing.expect("timed");
                    assert!(t.samples >= 3, "{s}: {t:?}");
                }
            }
        }
    }

    #[test]
    fn unsupported_sizes_are_an_outcome_not_an_error() {
        let b = board("1.3.3.1..1.3.3.1");
        let method = Method {
            min_time: Duration::from_millis(1),
            min_samples: 1,
        };
        let m = measure(Strategy::Fast, &b, Limits::solve(None), &method).expect("no bug");
        assert_eq!(m.outcome, Outcome::Unsupported);
        assert_eq!(m.timing, None);
        assert_eq!(m.counts, Counts::default());
    }

    #[test]
    fn budget_exceeded_runs_keep_their_counts() {
        let b = board(
            "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
        );
        let m = count(Strategy::Naive, &b, Limits::solve(Some(1000))).expect("no bug");
        assert_eq!(m.outcome, Outcome::BudgetExceeded);
        assert_eq!(m.counts.nodes, 1000);
    }

    #[test]
    fn conditions_flag_a_busy_machine() {
        let mut c = Conditions {
            cores: 2,
            jobs: 2,
            load: Some(3.6),
            ..Conditions::default()
        };
        assert!(c.busy().is_some());
        c.load = Some(2.3);
        assert!(c.busy().is_none());
        c.add(&Timing {
            runs: 10,
            samples: 5,
            cpu_ns: 100.0,
            cpu_min_ns: 90.0,
            cpu_max_ns: 120.0,
            wall_ns: 150.0,
            retaken: 2,
            slow: 0,
            pace: 1.0,
        });
        assert!(c.busy().is_some_and(|w| w.contains("50% more wall time")));
        assert_eq!((c.retaken, c.samples, c.slow), (2, 5, 0));
        let mut c = Conditions::new(1);
        let calm = Timing {
            runs: 5,
            samples: 50,
            cpu_ns: 100.0,
            cpu_min_ns: 90.0,
            cpu_max_ns: 120.0,
            wall_ns: 100.0,
            retaken: 3,
            slow: 0,
            pace: 1.02,
        };
        c.add(&calm);
        c.add(&Timing { slow: 5, ..calm });
        assert_eq!(c.busy(), None, "5 of 100 samples slow is within the 5%");
        c.add(&Timing { slow: 3, ..calm });
        assert!(
            c.busy().is_some_and(|w| w.starts_with("8 of 150 samples")),
            "{:?}",
            c.busy()
        );
        // The pace is the median over measurements: 1.02, 1.02, 1.02, then
        // two slow ones still leave it at 1.02; three more make it 1.30.
        let mut c = Conditions::new(1);
        for _ in 0..3 {
            c.add(&calm);
        }
        for _ in 0..2 {
            c.add(&Timing { pace: 1.3, ..calm });
        }
        assert_eq!(c.pace(), Some(1.02));
        assert_eq!(c.busy(), None);
        for _ in 0..3 {
            c.add(&Timing { pace: 1.3, ..calm });
        }
        assert_eq!(c.pace(), Some(1.3));
        assert!(
            c.busy().is_some_and(|w| w.contains("77% of its best pace")),
            "{:?}",
            c.busy()
        );
    }
}
