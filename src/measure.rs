//! One way to measure a strategy on a puzzle. `compare`, `speed`, `ladder`,
//! `rate`, `trace` and `solve --stats` all call [`measure`] (or [`count`]
//! when they need no time), so the same puzzle gets the same figures from
//! every command.
//!
//! 1. **Counted run** (counters on): the exact counters, the outcome, and the
//!    first solution, verified against the givens and the rules.
//! 2. **Timed runs** (counters compiled out: the same code, generic over the
//!    counter). The first one is a check and a warm-up: it must visit the same
//!    nodes and reach the same outcome as the counted run, and its answer is
//!    verified too. Then runs are repeated in *samples*, each a batch of
//!    back-to-back runs sized to last about `min_time / min_samples`, until
//!    `min_time` of CPU time has been spent and `min_samples` taken. A solve
//!    that alone takes `min_time` is timed once (its check run is the
//!    sample). These decisions go by CPU time, so a run that was preempted
//!    does not pass for a long one.
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
    with_solver(strategy, puzzle.size(), |solver| {
        let mut m = counted(solver, puzzle, limits)?;
        m.timing = Some(time(solver, puzzle, limits, method, &m)?);
        Ok(m)
    })
    .unwrap_or_else(|_| Ok(unsupported(strategy)))
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

/// Steps 2 and 3: the check run, the samples, the figures.
fn time(
    solver: &mut Solver,
    puzzle: &Board,
    limits: Limits,
    method: &Method,
    counted: &Measurement,
) -> Result<Timing, Bug> {
    let strategy = solver.strategy();
    // The check run: same tree, same outcome, a verified answer.
    let first = Clock::start();
    let tally = solver.search(black_box(puzzle), limits, NoCount);
    let (first_cpu, first_wall) = first.stop();
    if tally.nodes != counted.counts.nodes || tally.solutions != counted.solutions {
        return Err(Bug::Disagree {
            strategy,
            puzzle: puzzle.clone(),
            counted: counted.counts.nodes,
            timed: tally.nodes,
        });
    }
    solver.check(puzzle)?;
    // Decisions go by CPU time: a check run preempted by another process
    // must not pass for a long solve.
    let min_time = method.min_time.as_nanos() as f64;
    if first_cpu >= min_time {
        return Ok(Timing {
            runs: 1,
            samples: 1,
            cpu_ns: first_cpu,
            cpu_min_ns: first_cpu,
            cpu_max_ns: first_cpu,
            wall_ns: first_wall,
        });
    }
    // Samples of `batch` runs, each lasting about min_time / min_samples.
    let samples_wanted = method.min_samples.max(1);
    let per_sample = min_time / f64::from(samples_wanted);
    let batch = (per_sample / first_cpu.max(1.0)).ceil().clamp(1.0, 1e7) as u64;
    let (mut cpu, mut wall) = (Vec::new(), Vec::new());
    let (mut spent, mut runs, mut found) = (0.0, 0u64, 0u64);
    while spent < min_time || (cpu.len() as u32) < samples_wanted {
        let clock = Clock::start();
        for _ in 0..batch {
            let t = solver.search(black_box(puzzle), limits, NoCount);
            found += u64::from(black_box(t.solutions) > 0);
        }
        let (c, w) = clock.stop();
        cpu.push(c / batch as f64);
        wall.push(w / batch as f64);
        spent += c;
        runs += batch;
    }
    let expected = u64::from(counted.solutions > 0) * runs;
    if found != expected {
        return Err(Bug::Unstable {
            strategy,
            puzzle: puzzle.clone(),
            found,
            runs,
        });
    }
    let median = |v: &mut Vec<f64>| crate::stats::quantile_sorted(crate::stats::sorted(v), 0.5);
    let cpu_median = median(&mut cpu);
    Ok(Timing {
        runs: runs + 1,
        samples: cpu.len() as u32,
        cpu_ns: cpu_median,
        cpu_min_ns: cpu[0],
        cpu_max_ns: cpu[cpu.len() - 1],
        wall_ns: median(&mut wall),
    })
}

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
    #[serde(skip)]
    loads: Vec<f64>,
    #[serde(skip)]
    sums: (f64, f64),
}

/// Wall time this much above CPU time flags the runs as disturbed.
pub const DISTURBED_WALL_OVER_CPU: f64 = 1.10;

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
            let mut v = self.loads.clone();
            self.load = Some(crate::stats::quantile_sorted(
                crate::stats::sorted(&mut v),
                0.5,
            ));
        }
    }

    /// Adds one measurement's timing to the wall-over-CPU ratio (weighted
    /// by its runs: the ratio of the total timed wall and CPU times).
    pub fn add(&mut self, t: &Timing) {
        self.sums.0 += t.wall_ns * t.runs as f64;
        self.sums.1 += t.cpu_ns * t.runs as f64;
        if self.sums.1 > 0.0 {
            self.wall_over_cpu = Some(self.sums.0 / self.sums.1);
        }
    }

    /// Load from other processes: the load average minus our own workers.
    pub fn other_load(&self) -> Option<f64> {
        self.load.map(|l| (l - self.jobs as f64).max(0.0))
    }

    /// Why the figures are less trustworthy than usual, if they are: other
    /// load above the cores left free (at least half a core), or timed runs
    /// that waited for their core ([`DISTURBED_WALL_OVER_CPU`]).
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
        });
        assert!(c.busy().is_some_and(|w| w.contains("50% more wall time")));
    }
}
