//! One way to measure a strategy on a puzzle. `compare`, `speed` and
//! `ladder` call `measure_all` on groups of tasks, `solve --stats` calls
//! [`measure`] (a group of one), and `rate`, `trace` and the counted passes
//! call [`count`](super::count) when they need no time, so the same puzzle gets the same
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
//!    stretch that held them ([`Conditions::accounted`](super::Conditions::accounted)). Passes go on until
//!    each task has [`Method::min_samples`] runs and [`Method::min_time`] of
//!    time. A task whose check run lasts `LONG_RUN` or more is warm-proof:
//!    its check run is its first sample, and it gets at most three.
//!    Why cold: repeating one short puzzle back to back lets the branch
//!    predictor and the caches learn it, and that bonus is not the same for
//!    every rung (measured here: ×1.05 for `mrv`, ×1.4 for `fast` and
//!    `propagate`), so warm times bias the ladder's ratios.
//! 4. **Pace**: a fixed reference is timed before and after every stretch of
//!    about `STRETCH_NS` of runs; runs of a stretch around which the core
//!    ran slow are thrown away and taken again in a later pass (runs under
//!    1 ms only)
//!    ([`Timing::retaken`](super::Timing::retaken); see `src/measure/pace.rs`).
//! 5. **Figures**, per run: the median over samples of the thread's CPU time
//!    (`CLOCK_THREAD_CPUTIME_ID`: time the scheduler gave to other processes
//!    does not count) — *the* time of the lab — with the fastest and slowest
//!    sample, and the median wall-clock time beside it.
//!
//! Every run of a measurement goes through one [`Solver`](crate::base::solver::Solver), so the figures
//! include the whole per-puzzle cost of the strategy (setting up its state),
//! and nothing else: no allocation, no parsing, no verification.
//!
//! This file is the public face; the steps live beside it: the method, the
//! counted run and what a measurement ends in in `measurement.rs`, the passes in
//! `passes.rs`, one task's check run, samples and figures in `timer.rs`,
//! the clocks in `clock.rs`, the conditions of a run in `conditions.rs`.

use std::hint::black_box;
use std::time::Duration;

use crate::base::board::Board;
use crate::base::counters::NoCount;
use crate::base::search::Limits;
use crate::base::solver::with_solver;
use crate::base::strategy::Strategy;

use super::Clock;
use super::measurement::{Bug, Measurement, Method, unsupported};
use super::pace::Measuring;
pub use super::pace::{SLOW_LOOP, SLOW_SEARCH};
use super::passes::{Passes, measure_passes};
pub(crate) use super::timer::{LONG_RUN, MAX_SAMPLES, ONE_RUN};
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
/// With `whole`, every task runs in each of the first `min_samples` passes,
/// finished or not, so that those passes are whole (`speed`'s throughput
/// is a stream over the whole set); without, a task stops once it has its
/// samples (`compare`: a long task is timed once or three times, not once
/// per pass: the default run took its long tasks 6 times, 323 of its 433
/// CPU seconds on two idle cores).
pub(crate) fn measure_set(
    tasks: &[(Strategy, &Board)],
    limits: Limits,
    method: &Method,
    whole: bool,
    finished: &mut dyn FnMut(usize, Duration),
) -> SetMeasured {
    let mut passes = Passes {
        every: whole,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::counters::Counts;
    use crate::base::format::board;
    use crate::base::strategy::Outcome;
    use crate::measure::count;

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
        let set = measure_set(&tasks, Limits::solve(None), &method, true, &mut |_, _| {});
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
        let set = measure_set(&tasks, Limits::solve(None), &method, true, &mut |i, _| {
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

    /// Without whole passes (`compare`), a long task is timed as often as
    /// it wants (three runs, the check run first), not once per pass:
    /// `naive` on Inkala 2012 (49,559 nodes, about 6 ms of CPU) is long on
    /// any machine, a CPU clock does not run fast under load.
    #[test]
    fn a_long_task_is_timed_three_times_unless_passes_are_whole() {
        let inkala = board(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        );
        let easy = board(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        );
        let tasks = [(Strategy::Naive, &inkala), (Strategy::Propagate, &easy)];
        let method = Method {
            min_time: Duration::ZERO,
            min_samples: 6,
            ..Method::DEFAULT
        };
        let samples = |whole: bool| {
            let set = measure_set(&tasks, Limits::solve(None), &method, whole, &mut |_, _| {});
            let (m, _) = set.results.into_iter().next().unwrap().expect("no bug");
            assert!(m.samples[0] >= LONG_RUN, "{:?}", m.samples);
            m.samples.len()
        };
        assert_eq!(samples(false), 3);
        assert!(samples(true) >= 6);
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
}
