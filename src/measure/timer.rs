//! Steps 2 to 5 of a measurement for one task (see [`super::timing`]): the
//! check run, the samples the passes hand it, and the figures taken over
//! them; with the limits on how many samples and retakes a task gets.

use std::hint::black_box;
use std::time::Duration;

use crate::base::board::Board;
use crate::base::counters::NoCount;
use crate::base::search::{End, Limits};
use crate::base::solver::Solver;
use crate::base::strategy::Outcome;

use super::clock::net;
use super::pace::Pace;
use super::{Bug, Clock, Measurement, Method, Timing};

/// Steps 2 to 5 for one task: the check run, the samples, the figures.
pub(super) struct Timer {
    /// The counted run's measurement; its timing is filled at the end.
    m: Measurement,
    /// Samples wanted and time wanted (CPU ns).
    samples_wanted: u32,
    min_time: f64,
    /// Stop once the median's interval is within ± this share of it
    /// ([`Method::tight`]; 0: off), and whether it is.
    tight: f64,
    is_tight: bool,
    /// Per-run CPU and wall time of each kept sample, and the pace after it;
    /// the CPU times also in order, for the median's interval.
    cpu: Vec<f64>,
    sorted: Vec<f64>,
    wall: Vec<f64>,
    pace: Vec<f64>,
    /// CPU time of the kept samples, the clock's cost included (what the
    /// task cost to time: a 50 ns solve timed for 1 ms is not 20,000 runs
    /// of clock readings).
    spent: f64,
    /// The clock's cost per run (CPU ns).
    clock: f64,
    /// Timed runs in all.
    runs: u64,
    retaken: u32,
    /// Most samples it may take again because the core ran slow:
    /// [`MAX_RETAKEN`] for a short task, none for a long one (a run of 1 ms
    /// or more, [`LONG_RUN`]). The pace is read for microseconds around a
    /// long run, so it says little of the run (a stall inside is missed, a
    /// slow reading after it may be its last microseconds only), and a
    /// retake costs a whole run: on two idle cores with two workers, a
    /// default `compare` took its long tasks 6 times where it wanted 1 or 3,
    /// 341 of its 462 CPU seconds. Their samples are kept, slow ones
    /// counted ([`Timing::slow`]); the median of three drops one.
    retakes: u32,
    slow: u32,
    /// CPU time spent measuring this task (for forecasts), ns.
    pub(super) cost: f64,
}

impl Timer {
    /// A task with nothing to time (the strategy does not run the size).
    pub(super) fn done(m: Measurement) -> Timer {
        Timer {
            m,
            samples_wanted: 0,
            min_time: 0.0,
            tight: 0.0,
            is_tight: false,
            cpu: Vec::new(),
            sorted: Vec::new(),
            wall: Vec::new(),
            pace: Vec::new(),
            spent: 0.0,
            clock: 0.0,
            runs: 0,
            retaken: 0,
            retakes: MAX_RETAKEN,
            slow: 0,
            cost: 0.0,
        }
    }

    /// The check run: same tree, same outcome, a verified answer; taken
    /// again while the core is slow, unless it is long. A run that lasts [`LONG_RUN`] is a
    /// first sample: such a task gets at most three (one from [`ONE_RUN`]),
    /// since one long run spans many of the machine's moods.
    pub(super) fn start(
        solver: &mut Solver,
        puzzle: &Board,
        limits: Limits,
        method: &Method,
        m: Measurement,
        clock: (f64, f64),
    ) -> Result<Timer, Bug> {
        let mut t = Timer::done(m);
        t.clock = clock.0;
        let before = Pace::before();
        let c = Clock::start();
        let tally = solver.search(black_box(puzzle), limits, NoCount);
        let (cpu, wall) = c.stop();
        t.runs += 1;
        if tally.nodes != t.m.counts.nodes || tally.solutions != t.m.solutions {
            return Err(Bug::Disagree {
                strategy: t.m.strategy,
                puzzle: puzzle.clone(),
                counted: t.m.counts.nodes,
                timed: tally.nodes,
            });
        }
        solver.check(puzzle)?;
        let (after, mut pace) = Pace::steady();
        let mut steady = before && after;
        let mut ran = net((cpu, wall), clock);
        // Its time decides how the task is timed: a short run is taken
        // again while slow; a long one is kept (see `retakes`).
        while !steady && ran.0 < LONG_RUN && t.retaken < MAX_RETAKEN {
            t.retaken += 1;
            let before = Pace::before();
            ran = net(t.run(solver, puzzle, limits)?, clock);
            let (after, p) = Pace::steady();
            (steady, pace) = (before && after, p);
        }
        t.min_time = method.min_time.as_nanos() as f64;
        let long = ran.0 >= LONG_RUN;
        if long {
            t.retakes = 0;
            t.keep(ran.0, ran.1, pace, steady);
            t.samples_wanted = if ran.0 < ONE_RUN {
                method.min_samples.clamp(1, 3)
            } else {
                1
            };
            t.min_time = 0.0;
        } else {
            t.samples_wanted = method.min_samples.max(1);
            t.tight = method.tight;
        }
        Ok(t)
    }

    /// One timed run of `puzzle` (the task's own, or a symmetry of it): its
    /// CPU and wall time as read, the clock's cost included (the caller
    /// takes off what reading the clocks cost at the time). The solution count
    /// must be the counted run's (a symmetry keeps it), and a symmetry's
    /// answer is verified (outside the clocks).
    pub(super) fn run(
        &mut self,
        solver: &mut Solver,
        puzzle: &Board,
        limits: Limits,
    ) -> Result<(f64, f64), Bug> {
        let c = Clock::start();
        let tally = solver.search(black_box(puzzle), limits, NoCount);
        let (cpu, wall) = c.stop();
        self.runs += 1;
        let solutions = black_box(tally.solutions);
        if tally.end != End::BudgetExceeded && solutions != self.m.solutions {
            return Err(Bug::Unstable {
                strategy: self.m.strategy,
                puzzle: puzzle.clone(),
                found: solutions,
                runs: self.runs,
            });
        }
        solver.check(puzzle)?;
        Ok((cpu, wall))
    }

    /// A run of the passes, its clock cost taken off, read around a stretch
    /// that was `steady` or not: taken again (`true`) when the core ran slow
    /// and this task has retakes left, else kept as a sample.
    pub(super) fn take(&mut self, cpu: f64, wall: f64, pace: f64, steady: bool) -> bool {
        self.cost += cpu;
        let again = !steady && self.retaken < self.retakes;
        if again {
            self.retaken += 1;
        } else {
            self.keep(cpu, wall, pace, steady);
        }
        again
    }

    fn keep(&mut self, cpu: f64, wall: f64, pace: f64, steady: bool) {
        self.cpu.push(cpu);
        if self.tight > 0.0 {
            self.sorted
                .insert(self.sorted.partition_point(|&x| x < cpu), cpu);
            self.is_tight =
                self.cpu.len() as u32 >= self.samples_wanted && tight(&self.sorted, self.tight);
        }
        self.wall.push(wall);
        self.pace.push(pace);
        self.spent += cpu + self.clock;
        self.slow += u32::from(!steady);
    }

    /// Whether every sample wanted is taken.
    pub(super) fn finished(&self) -> bool {
        self.m.outcome == Outcome::Unsupported
            || (self.cpu.len() as u32 >= self.samples_wanted
                && (self.spent >= self.min_time || self.cpu.len() >= MAX_SAMPLES || self.is_tight))
    }

    /// CPU time spent measuring this task so far.
    pub(super) fn cost(&self) -> Duration {
        Duration::from_nanos(self.cost as u64)
    }

    /// The measurement with its figures.
    pub(super) fn finish(mut self) -> Measurement {
        if self.m.outcome == Outcome::Unsupported {
            return self.m;
        }
        self.m.samples = self.cpu.clone();
        // Kept samples are never none: a task is finished only with one.
        let median = |v: &mut Vec<f64>| crate::measure::stats::median(v).unwrap_or(f64::NAN);
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
        self.m
    }
}

/// Whether the 95% interval of the median of `sorted` lies within ± `share`
/// of the median.
fn tight(sorted: &[f64], share: f64) -> bool {
    let median = crate::measure::stats::quantile_sorted(sorted, 0.5);
    crate::measure::stats::median_rank_interval(sorted)
        .is_some_and(|i| i.low >= median * (1.0 - share) && i.high <= median * (1.0 + share))
}

/// A task whose one run lasts this long (CPU ns) is timed at most three
/// times, its check run first: at 1 ms a run spans enough of the machine
/// that caches and predictors hold little of the last one.
pub(crate) const LONG_RUN: f64 = 1e6;

/// A task whose one run lasts this long (CPU ns) is timed by that run
/// alone. Shorter long runs get three: a pace reading before and after a
/// 30–200 ms run misses a slow stretch in between (`naive` on Easter
/// Monster, one run each, read 32.4 ms and 47.8 ms minutes apart on an idle
/// machine), and the median of three drops one such run.
pub(crate) const ONE_RUN: f64 = 1e9;

/// Most runs one task is timed for `min_time` (more than `min_samples`):
/// the median of a thousand cold runs no longer moves, and a tiny solve
/// timed for a second would otherwise take millions of runs of overhead.
pub(crate) const MAX_SAMPLES: usize = 1000;

/// Most samples of one measurement retaken because the core lost its pace
/// (after that the samples are kept as they are: a machine that is never at
/// full pace still gets figures, [`Timing::retaken`] says so).
const MAX_RETAKEN: u32 = 8;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::strategy::Strategy;

    /// A short task's timer as `start` leaves it under `method`, with no
    /// run taken (its samples come from the test, not from a clock).
    fn short(method: &Method) -> Timer {
        let mut m = super::super::measurement::unsupported(Strategy::Mrv);
        m.outcome = Outcome::Solved;
        let mut t = Timer::done(m);
        t.samples_wanted = method.min_samples;
        t.min_time = method.min_time.as_nanos() as f64;
        t.tight = method.tight;
        t
    }

    /// Steady samples (±1%) stop a 7 µs task at `min_samples`, long before
    /// its millisecond; with the rule off it runs for the whole millisecond.
    #[test]
    fn a_steady_task_stops_once_its_median_is_tight() {
        let steady = |i: usize| 7_000.0 * (1.0 + 0.01 * ((i % 3) as f64 - 1.0));
        let stops = |method: &Method| {
            let mut t = short(method);
            let mut n = 0;
            while !t.finished() {
                t.keep(steady(n), steady(n), 1.0, true);
                n += 1;
            }
            n
        };
        assert_eq!(stops(&Method::DEFAULT), 5);
        let off = Method {
            tight: 0.0,
            ..Method::DEFAULT
        };
        assert_eq!(stops(&off), 143, "1 ms of 7 µs samples");
    }

    /// Samples spread ±20% never make a 95% interval within ±3% in the
    /// few dozen a millisecond allows: the task runs its whole time.
    #[test]
    fn a_noisy_task_runs_its_whole_time() {
        let mut t = short(&Method::DEFAULT);
        let mut n = 0;
        while !t.finished() {
            let x = 20_000.0 * (0.8 + 0.4 * ((n * 7919) % 101) as f64 / 100.0);
            t.keep(x, x, 1.0, true);
            n += 1;
        }
        assert!(!t.is_tight);
        assert!(t.spent >= t.min_time && n >= 50, "{n} samples");
    }

    /// The interval used is the median's rank interval: for 5 samples their
    /// lowest and highest; one sample 4% off the median keeps it open.
    #[test]
    fn five_samples_are_tight_only_within_three_percent() {
        assert!(tight(&[97.5, 99.0, 100.0, 101.0, 102.9], 0.03));
        assert!(!tight(&[96.0, 99.0, 100.0, 101.0, 102.0], 0.03));
        assert!(!tight(&[100.0], 0.03), "one sample has no interval");
    }
}
