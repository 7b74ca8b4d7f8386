//! One way to measure a strategy on a puzzle. `compare`, `speed` and
//! `ladder` call `measure_all` on groups of tasks, `solve --stats` calls
//! [`measure`] (a group of one), and `rate`, `trace` and the counted passes
//! call [`count`] when they need no time, so the same puzzle gets the same
//! figures from every command.
//!
//! 1. **Counted run** (counters on): the exact counters, the outcome, and the
//!    first solution, verified against the givens and the rules.
//! 2. **Check run** (counters compiled out: the same code, generic over the
//!    counter): it must visit the same nodes and reach the same outcome as
//!    the counted run, and its answer is verified too.
//! 3. **Cold passes**, the way the field times solvers (tdoku's harness, the
//!    `sudoku` crate's benches): a stream of different puzzles, each solved
//!    once, never one puzzle repeated back to back. A pass runs every task
//!    of the group once, in a fresh seeded shuffle ([`Method::seed`]): the
//!    strategies in a shuffled order, each over its puzzles in a shuffled
//!    order, so each strategy meets a stream of puzzles as in real use; no
//!    task ever runs twice in a row (where only one task is left, a seeded
//!    symmetry of its puzzle, untimed, runs between). Each run is timed on
//!    its own; the cost of reading the clocks, measured by an empty
//!    reading right after each run (the median over a stretch), is taken
//!    off, and the runs' sum is checked against the CPU time of the
//!    stretch that held them ([`Conditions::accounted`]). Passes go on until
//!    each task has [`Method::min_samples`] runs and [`Method::min_time`] of
//!    time. A task whose check run lasts `LONG_RUN` or more is warm-proof:
//!    its check run is its first sample, and it gets at most three.
//!    Why cold: repeating one short puzzle back to back lets the branch
//!    predictor and the caches learn it, and that bonus is not the same for
//!    every rung (measured here: ×1.05 for `mrv`, ×1.4 for `fast` and
//!    `propagate`), so warm times bias the ladder's ratios.
//! 4. **Pace**: a fixed reference is timed before and after every stretch of
//!    about `STRETCH_NS` of runs; runs of a stretch around which the core
//!    ran slow are thrown away and taken again in a later pass
//!    ([`Timing::retaken`]; see `src/measure/pace.rs`).
//! 5. **Figures**, per run: the median over samples of the thread's CPU time
//!    (`CLOCK_THREAD_CPUTIME_ID`: time the scheduler gave to other processes
//!    does not count) — *the* time of the lab — with the fastest and slowest
//!    sample, and the median wall-clock time beside it.
//!
//! Every run of a measurement goes through one [`Solver`], so the figures
//! include the whole per-puzzle cost of the strategy (setting up its state),
//! and nothing else: no allocation, no parsing, no verification.

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::base::board::Board;
use crate::base::counters::{Counts, NoCount};
use crate::base::search::{End, Limits};
use crate::base::solver::{Solver, with_solver};
use crate::base::strategy::{Outcome, Strategy, WrongSolution};

use super::pace::{Measuring, Pace};
pub use super::pace::{SLOW_LOOP, SLOW_SEARCH};

/// How long to time one puzzle × strategy, and how (defaults:
/// [`Method::DEFAULT`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Method {
    /// Keep timing a task until its kept runs add up to this much time...
    pub min_time: Duration,
    /// ...and it has at least this many kept runs (one per pass; fewer only
    /// for a task whose one run lasts `LONG_RUN`).
    pub min_samples: u32,
    /// Seed of the passes' shuffles (and of `permute`'s symmetries): the same
    /// seed runs the tasks in the same order.
    pub seed: u64,
    /// Time a seeded random symmetry of each puzzle in each pass instead of
    /// the puzzle itself (tdoku's harness `-r 1`): digits relabelled,
    /// bands, stacks, rows and columns permuted, transposed or not.
    pub permute: bool,
}

impl Method {
    /// The lab's timing method (values in [`crate::base::defaults`]).
    pub const DEFAULT: Method = Method {
        min_time: crate::base::defaults::TIMING_MIN_TIME,
        min_samples: crate::base::defaults::TIMING_MIN_SAMPLES,
        seed: crate::base::defaults::SEED,
        permute: false,
    };

    /// This method with another `min_time`.
    pub fn with_min_time(self, min_time: Duration) -> Method {
        Method { min_time, ..self }
    }
}

/// Time per run of one puzzle × strategy, in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Timed runs in all (the check run included).
    pub runs: u64,
    /// Samples the figures are taken over (one run each).
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
    /// The time of each kept sample (per-thread CPU ns, in the order taken):
    /// what an interval over samples is computed from.
    pub samples: Vec<f64>,
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

/// Counts, then times, `strategy` on `puzzle` (see the module docs): a
/// group of one, whose passes put an untimed symmetry of the puzzle
/// between two timed runs.
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

/// Measures several puzzle × strategy tasks together in cold passes (see
/// the module docs): every task is counted and checked first, then each
/// pass times every unfinished task once, in a fresh seeded shuffle.
/// `finished(i, cpu)` hears of task `i` as soon as its last sample is
/// taken, with the CPU time spent measuring it. Each result comes with that
/// CPU time too.
pub(crate) fn measure_all(
    tasks: &[(Strategy, &Board)],
    limits: Limits,
    method: &Method,
    finished: &mut dyn FnMut(usize, Duration),
) -> Vec<Result<(Measurement, Duration), Bug>> {
    measure_passes(tasks, limits, method, finished, &mut Passes::default())
}

/// What the passes of one [`measure_all`] call did, beyond the figures:
/// the order runs were taken in (for tests), and the accounting of the
/// clock.
#[derive(Debug, Default)]
struct Passes {
    /// Task index of every timed run, in order (kept only when `record`).
    order: Vec<usize>,
    record: bool,
    /// Σ of the runs' times after the clock's cost is taken off, and the
    /// CPU time of the stretches that held them (ns).
    accounted: (f64, f64),
    /// The cost of reading both clocks around one run (CPU ns, wall ns),
    /// measured before the passes (for the check runs).
    clock: (f64, f64),
    /// Σ and count of the clock costs taken off the passes' runs: each
    /// stretch's own, the median of the empty readings taken beside its runs.
    clock_taken: (f64, u64),
    /// Whole passes (every task of the group ran): their summed run times
    /// (ns), for throughput.
    whole: Vec<f64>,
    /// Runs of the passes taken again because the core ran slow (check runs
    /// taken again before the passes are not counted here).
    retaken: u64,
    /// Run every task in each of the first [`Method::min_samples`] passes,
    /// finished or not (long tasks too), so that those passes are whole:
    /// `speed`'s throughput is a stream over the whole set.
    every: bool,
}

fn measure_passes(
    tasks: &[(Strategy, &Board)],
    limits: Limits,
    method: &Method,
    finished: &mut dyn FnMut(usize, Duration),
    passes: &mut Passes,
) -> Vec<Result<(Measurement, Duration), Bug>> {
    use rand::SeedableRng;
    let _measuring = Measuring::enter();
    passes.clock = clock_cost();
    let mut timers: Vec<Result<Timer, Bug>> = tasks
        .iter()
        .map(|&(strategy, puzzle)| {
            let clock = Clock::start();
            let timer = with_solver(strategy, puzzle.size(), |solver| {
                let m = counted(solver, puzzle, limits)?;
                Timer::start(solver, puzzle, limits, method, m, passes.clock)
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
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(method.seed);
    let mut last: Option<usize> = None;
    let mut stretch: Vec<(usize, f64, f64)> = Vec::with_capacity(tasks.len());
    // The empty clock readings of a stretch, and room to take their medians.
    let mut empties: Vec<(f64, f64)> = Vec::with_capacity(tasks.len());
    let mut scratch: Vec<f64> = Vec::with_capacity(tasks.len());
    loop {
        let every = passes.every && passes.whole.len() < method.min_samples as usize;
        let order = pass_order(tasks, &timers, &mut rng, last, every);
        if order.is_empty() {
            break;
        }
        let whole = order.len() == tasks.len();
        // The pass's puzzles: the tasks' own, or a symmetry of each, drawn
        // before the pass so that nothing but runs happens inside it.
        let permuted: Vec<Board> = if method.permute {
            order
                .iter()
                .map(|&i| super::permute::random_symmetry(tasks[i].1, &mut rng))
                .collect()
        } else {
            Vec::new()
        };
        // A whole pass's time is Σ of all its runs, those taken again
        // included: what a harness timing a stream of puzzles adds up.
        let mut pass_total = 0.0;
        let pass_whole = whole;
        let mut k = 0;
        while k < order.len() {
            let steady_before = Pace::before();
            let held = Clock::start();
            let mut spent = 0.0;
            while k < order.len() && spent < STRETCH_NS {
                let i = order[k];
                let (strategy, own) = tasks[i];
                let puzzle = permuted.get(k).unwrap_or(own);
                if last == Some(i) {
                    // Only one task left: something else runs between.
                    let decoy = super::permute::random_symmetry(own, &mut rng);
                    let _ = with_solver(strategy, own.size(), |solver| {
                        black_box(solver.search(black_box(&decoy), limits, NoCount));
                    });
                }
                let Ok(t) = &mut timers[i] else {
                    k += 1;
                    continue;
                };
                let ran = with_solver(strategy, own.size(), |solver| t.run(solver, puzzle, limits));
                // An empty reading right after the run, in the state the
                // run left: what reading the clocks cost here and now.
                let empty = black_box(Clock::start()).stop();
                empties.push(empty);
                match ran {
                    Ok(Ok((cpu, wall))) => {
                        spent += (cpu - empty.0).max(0.0);
                        stretch.push((i, cpu, wall));
                    }
                    Ok(Err(bug)) => timers[i] = Err(bug),
                    Err(_) => {}
                }
                if passes.record {
                    passes.order.push(i);
                }
                last = Some(i);
                k += 1;
            }
            let (held_cpu, _) = held.stop();
            let (after, pace) = Pace::steady();
            let steady = steady_before && after;
            passes.accounted.1 += held_cpu;
            let clock = stretch_clock(&mut empties, &mut scratch);
            passes.clock_taken.0 += clock.0;
            passes.clock_taken.1 += 1;
            for (i, cpu, wall) in stretch.drain(..) {
                let (cpu, wall) = net((cpu, wall), clock);
                passes.accounted.0 += cpu;
                pass_total += cpu;
                let Ok(t) = &mut timers[i] else { continue };
                t.cost += cpu;
                let was_finished = t.finished();
                if !steady && t.retaken < MAX_RETAKEN {
                    t.retaken += 1;
                    passes.retaken += 1;
                } else {
                    t.keep(cpu, wall, pace, steady);
                }
                if !was_finished && t.finished() {
                    finished(i, Duration::from_nanos(t.cost as u64));
                }
            }
        }
        if pass_whole {
            passes.whole.push(pass_total);
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

/// The next pass: the unfinished tasks, their strategies in a shuffled
/// order and each strategy's tasks shuffled, so each strategy meets a
/// stream of puzzles; the first is never `last` when another is there.
fn pass_order(
    tasks: &[(Strategy, &Board)],
    timers: &[Result<Timer, Bug>],
    rng: &mut impl rand::Rng,
    last: Option<usize>,
    every: bool,
) -> Vec<usize> {
    use rand::seq::SliceRandom;
    let open = |t: &Result<Timer, Bug>| matches!(t, Ok(t) if !t.finished());
    if !timers.iter().any(open) {
        return Vec::new();
    }
    let wanted = |t: &Result<Timer, Bug>| if every { t.is_ok() } else { open(t) };
    let mut strategies: Vec<Strategy> = Vec::new();
    for (&(s, _), t) in tasks.iter().zip(timers) {
        if wanted(t) && !strategies.contains(&s) {
            strategies.push(s);
        }
    }
    strategies.shuffle(rng);
    let mut order = Vec::new();
    for s in strategies {
        let start = order.len();
        order.extend(
            tasks
                .iter()
                .zip(timers)
                .enumerate()
                .filter(|(_, ((strategy, _), t))| *strategy == s && wanted(t))
                .map(|(i, _)| i),
        );
        order[start..].shuffle(rng);
    }
    if order.len() > 1 && order.first() == last.as_ref() {
        order.swap(0, 1);
    }
    order
}

/// [`measure_all`] over any number of tasks on this thread, in consecutive
/// groups of [`crate::base::defaults::MEASURE_GROUP`] (what `ladder` does;
/// `compare` hands its groups to workers). Results in task order;
/// `finished` hears task indices of the whole list.
pub(crate) fn measure_grouped(
    tasks: &[(Strategy, &Board)],
    limits: Limits,
    method: &Method,
    finished: &mut dyn FnMut(usize, Duration),
) -> Vec<Result<(Measurement, Duration), Bug>> {
    let size = crate::base::defaults::MEASURE_GROUP;
    let mut all = Vec::with_capacity(tasks.len());
    for (k, group) in tasks.chunks(size).enumerate() {
        all.extend(measure_all(group, limits, method, &mut |i, cpu| {
            finished(k * size + i, cpu)
        }));
    }
    all
}

/// A whole set measured as one group, for throughput (`speed`): the
/// measurements, and the summed run times of each whole pass (a pass in
/// which every task ran and was kept), in ns, plus the clock accounting.
pub(crate) struct SetMeasured {
    pub results: Vec<Result<(Measurement, Duration), Bug>>,
    pub whole_passes: Vec<f64>,
    /// Σ run times ÷ CPU time of the stretches that held them.
    pub accounted: Option<f64>,
    /// The clock's cost per timed run that was taken off (CPU ns).
    pub clock_ns: f64,
}

/// Measures a whole set in one group of passes (see [`measure_all`]).
pub(crate) fn measure_set(
    tasks: &[(Strategy, &Board)],
    limits: Limits,
    method: &Method,
    finished: &mut dyn FnMut(usize, Duration),
) -> SetMeasured {
    let mut passes = Passes {
        every: true,
        ..Passes::default()
    };
    let results = measure_passes(tasks, limits, method, finished, &mut passes);
    SetMeasured {
        results,
        whole_passes: passes.whole,
        accounted: (passes.accounted.1 > 0.0).then(|| passes.accounted.0 / passes.accounted.1),
        clock_ns: if passes.clock_taken.1 > 0 {
            passes.clock_taken.0 / passes.clock_taken.1 as f64
        } else {
            passes.clock.0
        },
    }
}

/// How much faster each strategy runs its puzzles warm — one puzzle
/// repeated back to back, as a batch — than cold, as measured: for up to
/// [`WARM_TASKS`] short tasks per strategy, the median of three warm
/// batches of about [`WARM_BATCH_NS`] ÷ the task's cold time. Returns per
/// strategy the geometric mean of the tasks' cold ÷ warm times (above 1:
/// warm reads faster) and how many tasks it is over. What the report's
/// method section prints, on the run's own puzzles.
pub(crate) fn warm_bonus(
    tasks: &[(Strategy, &Board, f64)],
    limits: Limits,
) -> Vec<(Strategy, f64, usize)> {
    let _measuring = Measuring::enter();
    let mut out: Vec<(Strategy, Vec<f64>)> = Vec::new();
    for &(strategy, puzzle, cold) in tasks {
        if !(cold > 0.0 && cold < LONG_RUN) {
            continue;
        }
        let k = match out.iter().position(|(s, _)| *s == strategy) {
            Some(k) => k,
            None => {
                out.push((strategy, Vec::new()));
                out.len() - 1
            }
        };
        if out[k].1.len() >= WARM_TASKS {
            continue;
        }
        let batch = (WARM_BATCH_NS / cold).ceil().clamp(1.0, 1e6) as u64;
        let warm = with_solver(strategy, puzzle.size(), |solver| {
            let mut times: Vec<f64> = (0..3)
                .map(|_| {
                    let clock = Clock::start();
                    for _ in 0..batch {
                        black_box(solver.search(black_box(puzzle), limits, NoCount));
                    }
                    clock.stop().0 / batch as f64
                })
                .collect();
            crate::measure::stats::median(&mut times)
        });
        if let Ok(Some(warm)) = warm
            && warm > 0.0
        {
            out[k].1.push(cold / warm);
        }
    }
    out.into_iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(s, v)| {
            let n = v.len();
            (
                s,
                crate::measure::stats::geometric_mean(v).unwrap_or(f64::NAN),
                n,
            )
        })
        .collect()
}

/// Tasks per strategy [`warm_bonus`] times warm.
pub(crate) const WARM_TASKS: usize = 16;
/// Length of one warm batch (ns).
const WARM_BATCH_NS: f64 = 200_000.0;

fn unsupported(strategy: Strategy) -> Measurement {
    Measurement {
        strategy,
        outcome: Outcome::Unsupported,
        end: End::Exhausted,
        solutions: 0,
        counts: Counts::default(),
        timing: None,
        samples: Vec::new(),
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
        samples: Vec::new(),
    })
}

/// Steps 2 to 5 for one task: the check run, the samples, the figures.
struct Timer {
    /// The counted run's measurement; its timing is filled at the end.
    m: Measurement,
    /// Samples wanted and time wanted (CPU ns).
    samples_wanted: u32,
    min_time: f64,
    /// Per-run CPU and wall time of each kept sample, and the pace after it.
    cpu: Vec<f64>,
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
    slow: u32,
    /// CPU time spent measuring this task (for forecasts), ns.
    cost: f64,
}

impl Timer {
    /// A task with nothing to time (the strategy does not run the size).
    fn done(m: Measurement) -> Timer {
        Timer {
            m,
            samples_wanted: 0,
            min_time: 0.0,
            cpu: Vec::new(),
            wall: Vec::new(),
            pace: Vec::new(),
            spent: 0.0,
            clock: 0.0,
            runs: 0,
            retaken: 0,
            slow: 0,
            cost: 0.0,
        }
    }

    /// The check run: same tree, same outcome, a verified answer; taken
    /// again while the core is slow. A run that lasts [`LONG_RUN`] is a
    /// first sample: such a task gets at most three (one from [`ONE_RUN`]),
    /// since one long run spans many of the machine's moods.
    fn start(
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
        // Its time decides how the task is timed: taken again while slow.
        while !steady && t.retaken < MAX_RETAKEN {
            t.retaken += 1;
            let before = Pace::before();
            ran = net(t.run(solver, puzzle, limits)?, clock);
            let (after, p) = Pace::steady();
            (steady, pace) = (before && after, p);
        }
        t.min_time = method.min_time.as_nanos() as f64;
        let long = ran.0 >= LONG_RUN;
        if long {
            t.keep(ran.0, ran.1, pace, steady);
            t.samples_wanted = if ran.0 < ONE_RUN {
                method.min_samples.clamp(1, 3)
            } else {
                1
            };
            t.min_time = 0.0;
        } else {
            t.samples_wanted = method.min_samples.max(1);
        }
        Ok(t)
    }

    /// One timed run of `puzzle` (the task's own, or a symmetry of it): its
    /// CPU and wall time as read, the clock's cost included (the caller
    /// takes off what reading the clocks cost at the time). The solution count
    /// must be the counted run's (a symmetry keeps it), and a symmetry's
    /// answer is verified (outside the clocks).
    fn run(
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

    fn keep(&mut self, cpu: f64, wall: f64, pace: f64, steady: bool) {
        self.cpu.push(cpu);
        self.wall.push(wall);
        self.pace.push(pace);
        self.spent += cpu + self.clock;
        self.slow += u32::from(!steady);
    }

    /// Whether every sample wanted is taken.
    fn finished(&self) -> bool {
        self.m.outcome == Outcome::Unsupported
            || (self.cpu.len() as u32 >= self.samples_wanted
                && (self.spent >= self.min_time || self.cpu.len() >= MAX_SAMPLES))
    }

    /// The measurement with its figures.
    fn finish(mut self, _puzzle: &Board) -> Result<Measurement, Bug> {
        if self.m.outcome == Outcome::Unsupported {
            return Ok(self.m);
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
        Ok(self.m)
    }
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

/// The runs between two readings of the pace reference last about this
/// long (CPU ns): long enough that the reference costs little, short
/// enough that a slow stretch spoils few runs.
const STRETCH_NS: f64 = 2e6;

/// Most runs one task is timed for `min_time` (more than `min_samples`):
/// the median of a thousand cold runs no longer moves, and a tiny solve
/// timed for a second would otherwise take millions of runs of overhead.
pub(crate) const MAX_SAMPLES: usize = 1000;

/// Most samples of one measurement retaken because the core lost its pace
/// (after that the samples are kept as they are: a machine that is never at
/// full pace still gets figures, [`Timing::retaken`] says so).
const MAX_RETAKEN: u32 = 8;

/// A run's (CPU, wall) time as read, less the clocks' cost (never below 0).
fn net(raw: (f64, f64), clock: (f64, f64)) -> (f64, f64) {
    ((raw.0 - clock.0).max(0.0), (raw.1 - clock.1).max(0.0))
}

/// The cost of reading both clocks around the runs of one stretch (CPU ns,
/// wall ns): the median of the empty readings taken right after each of
/// them (emptied). One reading before the passes is not enough: on a loaded
/// virtual machine what a reading costs drifts by hundreds of ns between
/// that moment and the runs, more than a 4×4 solve lasts (0 ns read for
/// some, ×5 for others, measured).
fn stretch_clock(empties: &mut Vec<(f64, f64)>, scratch: &mut Vec<f64>) -> (f64, f64) {
    let mut median = |pick: fn(&(f64, f64)) -> f64| {
        scratch.clear();
        scratch.extend(empties.iter().map(pick));
        crate::measure::stats::median(scratch).unwrap_or(0.0)
    };
    let clock = (median(|e| e.0), median(|e| e.1));
    empties.clear();
    clock
}

/// The cost of reading both clocks around a run (CPU ns, wall ns): the
/// median of many empty readings, as each clock sees it.
fn clock_cost() -> (f64, f64) {
    let mut cpu = Vec::with_capacity(CLOCK_READINGS);
    let mut wall = Vec::with_capacity(CLOCK_READINGS);
    for _ in 0..CLOCK_READINGS {
        let c = Clock::start();
        let (a, b) = black_box(c).stop();
        cpu.push(a);
        wall.push(b);
    }
    (
        crate::measure::stats::median(&mut cpu).unwrap_or(0.0),
        crate::measure::stats::median(&mut wall).unwrap_or(0.0),
    )
}

const CLOCK_READINGS: usize = 101;

/// Wall clock and this thread's CPU clock, read together.
pub struct Clock {
    cpu: Option<u64>,
    wall: Instant,
}

impl Clock {
    pub fn start() -> Clock {
        Clock {
            cpu: if cpu_clock_step().is_none() {
                thread_cpu_ns()
            } else {
                None
            },
            wall: Instant::now(),
        }
    }

    /// Elapsed (CPU, wall) nanoseconds; CPU falls back to wall where the
    /// system has no per-thread clock, or one too coarse to time a run
    /// (`cpu_clock_step`).
    pub fn stop(self) -> (f64, f64) {
        let wall = self.wall.elapsed().as_nanos() as f64;
        let cpu = match (self.cpu, thread_cpu_ns()) {
            (Some(a), Some(b)) => b.saturating_sub(a) as f64,
            _ => wall,
        };
        (cpu, wall)
    }
}

/// A per-thread CPU clock that advances in steps coarser than this (ns)
/// cannot time a run: a 4×4 solve lasts 50 ns, and a clock that moves once
/// per scheduler tick (4 ms on some virtual machines, though it claims 1 ns
/// resolution) reads 0 for nearly every run. A fine clock advances by its
/// own reading cost, well under a microsecond.
pub(crate) const COARSE_CPU_CLOCK_NS: f64 = 10_000.0;

/// The step of this machine's per-thread CPU clock when it is too coarse to
/// time one run (above [`COARSE_CPU_CLOCK_NS`]): runs are then timed by the
/// wall clock, and the report says so. `None`: the CPU clock is fine (or
/// absent, and wall time is used anyway). Read once per process: the
/// smallest advance over a few changes of the clock.
pub(crate) fn cpu_clock_step() -> Option<f64> {
    static STEP: std::sync::OnceLock<Option<f64>> = std::sync::OnceLock::new();
    *STEP.get_or_init(|| {
        let step = smallest_cpu_step()?;
        (step > COARSE_CPU_CLOCK_NS).then_some(step)
    })
}

/// The smallest advance of the per-thread CPU clock over five changes
/// (ns); a change that does not come within 100 ms of wall time counts as a
/// step of that long. `None` where there is no such clock.
fn smallest_cpu_step() -> Option<f64> {
    const CHANGES: usize = 5;
    const PATIENCE: Duration = Duration::from_millis(100);
    let mut smallest = f64::INFINITY;
    for _ in 0..CHANGES {
        let start = thread_cpu_ns()?;
        let began = Instant::now();
        let step = loop {
            let now = thread_cpu_ns()?;
            if now != start {
                break now.saturating_sub(start) as f64;
            }
            if began.elapsed() > PATIENCE {
                break PATIENCE.as_nanos() as f64;
            }
        };
        smallest = smallest.min(step);
    }
    Some(smallest)
}

/// CPU time consumed by the calling thread, in nanoseconds.
#[cfg(unix)]
fn thread_cpu_ns() -> Option<u64> {
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
fn thread_cpu_ns() -> Option<u64> {
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
    /// Σ of the timed runs' CPU times (the clock's cost taken off) ÷ the
    /// CPU time of the stretches of runs that held them: near 1 when the
    /// per-run times account for the time spent (what the runs' loop, the
    /// clock readings and the checks between runs cost is the rest).
    #[serde(default)]
    pub accounted: Option<f64>,
    /// The cost of reading the clocks around one run, taken off every run
    /// (CPU ns; the mean over stretches of each stretch's median).
    #[serde(default)]
    pub clock_ns: Option<f64>,
    /// The step of the per-thread CPU clock when it is too coarse to time a
    /// run (`cpu_clock_step`): the times are wall-clock times then.
    #[serde(default)]
    pub cpu_clock_step_ns: Option<f64>,
    #[serde(skip)]
    accounts: (f64, f64, u64),
    /// Each measurement's [`Timing::pace`].
    #[serde(skip)]
    paces: Vec<f64>,
    #[serde(skip)]
    loads: Vec<f64>,
    #[serde(skip)]
    sums: (f64, f64),
}

/// Wall time this much above CPU time flags the runs as disturbed.
const DISTURBED_WALL_OVER_CPU: f64 = 1.10;

/// More than this share of samples kept while the core ran slow flags the
/// runs as disturbed.
const DISTURBED_SLOW_SHARE: f64 = 0.05;

/// A pace over the run ([`Conditions::pace`]) above this flags the runs as
/// disturbed: the reference ran this much slower than its best on the
/// median sample, though mostly below the threshold that retakes a sample
/// (a host's slow stretch that the per-sample test misses now and then
/// still shows in the median).
const DISTURBED_PACE: f64 = 1.15;

impl Conditions {
    pub fn new(jobs: usize) -> Conditions {
        Conditions {
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            jobs,
            cpu_clock_step_ns: cpu_clock_step(),
            ..Conditions::default()
        }
    }

    /// Records the current load average (call now and then while measuring).
    pub fn sample_load(&mut self) {
        if let Some(l) = load_average() {
            self.loads.push(l);
            self.load = crate::measure::stats::median(&mut self.loads.clone());
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

    /// Adds one group's clock accounting (`SetMeasured::accounted` and
    /// its clock cost): `accounted` becomes the mean over groups.
    pub fn account(&mut self, accounted: Option<f64>, clock_ns: f64) {
        if let Some(a) = accounted {
            let (sum, clock, n) = &mut self.accounts;
            *sum += a;
            *clock += clock_ns;
            *n += 1;
            self.accounted = Some(*sum / *n as f64);
            self.clock_ns = Some(*clock / *n as f64);
        }
    }

    /// The core's pace over the run: the median of the measurements'
    /// [`Timing::pace`] (1.0 = full pace); `None` before any.
    pub fn pace(&self) -> Option<f64> {
        let mut v = self.paces.clone();
        crate::measure::stats::median(&mut v)
    }

    /// Load from other processes: the load average minus our own workers.
    pub fn other_load(&self) -> Option<f64> {
        self.load.map(|l| (l - self.jobs as f64).max(0.0))
    }

    /// Why the figures are less trustworthy than usual, if they are: other
    /// load above the cores left free (at least half a core), timed runs
    /// that waited for their core (`DISTURBED_WALL_OVER_CPU`), or samples
    /// kept while the core ran slow (`DISTURBED_SLOW_SHARE`).
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
    use crate::base::format::parse_one;

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
            ..Method::DEFAULT
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
            ..Method::DEFAULT
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

    /// The cold passes, observed: each pass runs every unfinished task once,
    /// no task ever runs twice in a row (a lone task gets a decoy between,
    /// untimed), each strategy's tasks come together in a pass, the order
    /// changes from pass to pass, and the same seed gives the same order.
    #[test]
    fn passes_run_every_task_once_in_a_fresh_seeded_shuffle() {
        let boards: Vec<Board> = [
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            "..9748...7.........2.1.9.....7...24..64.1.59..98...3.....8.3.2.........6...2759..",
            "....3.....4....7.1.86.4......9.....87....5...45..8.379......8.6..341.95..9..63.17",
            "1.3.3.1..1.3.3.1",
        ]
        .iter()
        .map(|t| board(t))
        .collect();
        let mut tasks = Vec::new();
        for s in [Strategy::Mrv, Strategy::Propagate, Strategy::Dlx] {
            for b in &boards {
                tasks.push((s, b));
            }
        }
        let method = Method {
            min_time: Duration::ZERO,
            min_samples: 6,
            seed: 11,
            permute: false,
        };
        let observe = |seed: u64| {
            let mut passes = Passes {
                record: true,
                ..Passes::default()
            };
            let all = measure_passes(
                &tasks,
                Limits::solve(None),
                &Method { seed, ..method },
                &mut |_, _| {},
                &mut passes,
            );
            // Runs taken again inside the passes are in the order; check
            // runs taken again before them are not (a busy machine does both).
            let retaken: u32 = all
                .iter()
                .map(|r| r.as_ref().expect("no bug").0.timing.expect("timed").retaken)
                .sum();
            assert!(passes.retaken <= u64::from(retaken));
            (passes.order, passes.retaken)
        };
        let (order, retaken) = observe(11);
        assert_eq!(order.len(), tasks.len() * 6 + retaken as usize);
        assert!(
            order.windows(2).all(|w| w[0] != w[1]),
            "a task ran twice in a row: {order:?}"
        );
        // A pass holds each unfinished task once, a strategy's tasks next
        // to each other.
        let first = &order[..tasks.len()];
        let mut seen = first.to_vec();
        seen.sort_unstable();
        assert_eq!(seen, (0..tasks.len()).collect::<Vec<_>>(), "{order:?}");
        let switches = first
            .windows(2)
            .filter(|w| tasks[w[0]].0 != tasks[w[1]].0)
            .count();
        assert_eq!(switches, 2, "one block per strategy: {first:?}");
        // The first two passes hold every task whatever was retaken (each
        // task wants 6 runs), so their order depends on the seed alone.
        let two = 2 * tasks.len();
        let second = &order[tasks.len()..two];
        assert_ne!(first, second, "the shuffle is fresh each pass");
        assert_eq!(
            observe(11).0[..two],
            order[..two],
            "the same seed, the same order"
        );
        assert_ne!(
            observe(12).0[..two],
            order[..two],
            "another seed, another order"
        );
        // A lone task: every run but the first follows a decoy, still no
        // back-to-back repeat among the timed runs (they alternate with
        // the decoys, which are not timed and not recorded).
        let mut passes = Passes {
            record: true,
            ..Passes::default()
        };
        let alone = measure_passes(
            &tasks[..1],
            Limits::solve(None),
            &method,
            &mut |_, _| {},
            &mut passes,
        );
        let t = alone[0].as_ref().expect("no bug").0.timing.expect("timed");
        assert_eq!(passes.order.len(), 6 + passes.retaken as usize);
        assert_eq!(t.samples, 6);
    }

    #[test]
    fn the_clock_cost_is_measured_and_the_runs_account_for_the_passes() {
        let b = board(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        );
        let tasks = [(Strategy::Propagate, &b), (Strategy::Mrv, &b)];
        let method = Method {
            min_time: Duration::ZERO,
            min_samples: 20,
            ..Method::DEFAULT
        };
        let set = measure_set(&tasks, Limits::solve(None), &method, &mut |_, _| {});
        assert!(set.clock_ns >= 0.0);
        // The runs' times (clock cost taken off) are part of the CPU time
        // of the stretches that held them, never more.
        let a = set.accounted.expect("runs were timed");
        assert!(a > 0.0 && a <= 1.0, "{a}");
        for r in set.results {
            let (m, _) = r.expect("no bug");
            assert_eq!(m.samples.len(), 20);
        }
    }

    #[test]
    fn a_set_gets_its_whole_passes_whatever_was_retaken() {
        // `speed`'s throughput is the median of whole passes: the first
        // `min_samples` passes run every task, finished or not, and a run
        // taken again (a slow core) leaves its pass whole. Each task is
        // reported finished once.
        let easy = board(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        );
        let hard = board(
            "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
        );
        let tasks = [(Strategy::Propagate, &easy), (Strategy::Propagate, &hard)];
        let method = Method {
            min_time: Duration::ZERO,
            min_samples: 4,
            ..Method::DEFAULT
        };
        let mut finished = [0u32; 2];
        let set = measure_set(&tasks, Limits::solve(None), &method, &mut |i, _| {
            finished[i] += 1
        });
        assert!(set.whole_passes.len() >= 4, "{:?}", set.whole_passes);
        assert!(set.whole_passes.iter().all(|&t| t > 0.0));
        assert_eq!(finished, [1, 1]);
        for r in set.results {
            let (m, _) = r.expect("no bug");
            assert!(m.samples.len() >= 4, "{}", m.samples.len());
        }
    }

    #[test]
    fn unsupported_sizes_are_an_outcome_not_an_error() {
        let b = board("1.3.3.1..1.3.3.1");
        let method = Method {
            min_time: Duration::from_millis(1),
            min_samples: 1,
            ..Method::DEFAULT
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
