//! Step 3 of a measurement (see [`super::timing`]): the cold passes over a
//! group of tasks. Each pass runs every unfinished task once, in a fresh
//! seeded shuffle, in stretches of about `STRETCH_NS` with the core's pace
//! read around each; a stretch's runs are then handed to their tasks'
//! timers, their clock cost taken off.

use std::hint::black_box;
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::base::board::Board;
use crate::base::counters::NoCount;
use crate::base::search::Limits;
use crate::base::solver::with_solver;
use crate::base::strategy::Strategy;

use super::clock::{clock_cost, net, stretch_clock};
use super::measurement::{counted, unsupported};
use super::pace::{Measuring, Pace};
use super::timer::Timer;
use super::{Bug, Clock, Measurement, Method};

/// The runs between two readings of the pace reference last about this
/// long (CPU ns): long enough that the reference costs little, short
/// enough that a slow stretch spoils few runs.
const STRETCH_NS: f64 = 2e6;

/// What the passes of one [`measure_all`](super::measure_all) call did,
/// beyond the figures: the order runs were taken in (for tests), and the
/// accounting of the clock.
#[derive(Debug, Default)]
pub(super) struct Passes {
    /// Task index of every timed run, in order (kept only when `record`).
    pub(super) order: Vec<usize>,
    pub(super) record: bool,
    /// Σ of the runs' times after the clock's cost is taken off, and the
    /// CPU time of the stretches that held them (ns).
    pub(super) accounted: (f64, f64),
    /// The cost of reading both clocks around one run (CPU ns, wall ns),
    /// measured before the passes (for the check runs).
    pub(super) clock: (f64, f64),
    /// Σ and count of the clock costs taken off the passes' runs: each
    /// stretch's own, the median of the empty readings taken beside its runs.
    pub(super) clock_taken: (f64, u64),
    /// Whole passes (every task of the group ran): their summed run times
    /// (ns), for throughput.
    pub(super) whole: Vec<f64>,
    /// Runs of the passes taken again because the core ran slow (check runs
    /// taken again before the passes are not counted here).
    pub(super) retaken: u64,
    /// Run every task in each of the first [`Method::min_samples`] passes,
    /// finished or not (long tasks too), so that those passes are whole:
    /// `speed`'s throughput is a stream over the whole set.
    pub(super) every: bool,
}

/// Counts and checks every task, then times them in passes until each is
/// finished; `finished(i, cpu)` hears of task `i` as soon as it is.
pub(super) fn measure_passes(
    tasks: &[(Strategy, &Board)],
    limits: Limits,
    method: &Method,
    finished: &mut dyn FnMut(usize, Duration),
    passes: &mut Passes,
) -> Vec<Result<(Measurement, Duration), Bug>> {
    let _measuring = Measuring::enter();
    passes.clock = clock_cost();
    let timers = start_timers(tasks, limits, method, passes.clock);
    for (i, t) in timers.iter().enumerate() {
        if let Ok(t) = t
            && t.finished()
        {
            finished(i, t.cost());
        }
    }
    let mut runs = Runs {
        tasks,
        limits,
        timers,
        rng: ChaCha8Rng::seed_from_u64(method.seed),
        last: None,
        stretch: Vec::with_capacity(tasks.len()),
        empties: Vec::with_capacity(tasks.len()),
        scratch: Vec::with_capacity(tasks.len()),
    };
    loop {
        let every = passes.every && passes.whole.len() < method.min_samples as usize;
        let order = pass_order(tasks, &runs.timers, &mut runs.rng, runs.last, every);
        if order.is_empty() {
            break;
        }
        let total = runs.pass(&order, method.permute, passes, finished);
        if order.len() == tasks.len() {
            passes.whole.push(total);
        }
    }
    runs.timers
        .into_iter()
        .map(|t| {
            t.map(|t| {
                let cost = t.cost();
                (t.finish(), cost)
            })
        })
        .collect()
}

/// Steps 1 and 2 for every task: the counted run, then the check run (a
/// task whose strategy does not run its size is done at once). Each
/// timer's cost starts with the CPU time the two took.
fn start_timers(
    tasks: &[(Strategy, &Board)],
    limits: Limits,
    method: &Method,
    clock: (f64, f64),
) -> Vec<Result<Timer, Bug>> {
    tasks
        .iter()
        .map(|&(strategy, puzzle)| {
            let took = Clock::start();
            let timer = with_solver(strategy, puzzle.size(), |solver| {
                let m = counted(solver, puzzle, limits)?;
                Timer::start(solver, puzzle, limits, method, m, clock)
            })
            .unwrap_or_else(|_| Ok(Timer::done(unsupported(strategy))));
            timer.map(|mut t| {
                t.cost += took.stop().0;
                t
            })
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

/// The tasks' timers and what the passes carry from one run to the next.
struct Runs<'t, 'b> {
    tasks: &'t [(Strategy, &'b Board)],
    limits: Limits,
    timers: Vec<Result<Timer, Bug>>,
    rng: ChaCha8Rng,
    /// The task that ran last: it never runs again right after.
    last: Option<usize>,
    /// The runs of the stretch under way: (task, CPU ns, wall ns) as read.
    stretch: Vec<(usize, f64, f64)>,
    /// The empty clock readings of a stretch, and room to take their medians.
    empties: Vec<(f64, f64)>,
    scratch: Vec<f64>,
}

impl Runs<'_, '_> {
    /// One pass over `order`, stretch by stretch, each between two readings
    /// of the core's pace. Returns the Σ of its runs' times, those taken
    /// again included: what a harness timing a stream of puzzles adds up.
    fn pass(
        &mut self,
        order: &[usize],
        permute: bool,
        passes: &mut Passes,
        finished: &mut dyn FnMut(usize, Duration),
    ) -> f64 {
        // The pass's puzzles: the tasks' own, or a symmetry of each, drawn
        // before the pass so that nothing but runs happens inside it.
        let permuted: Vec<Board> = if permute {
            order
                .iter()
                .map(|&i| super::permute::random_symmetry(self.tasks[i].1, &mut self.rng))
                .collect()
        } else {
            Vec::new()
        };
        let mut total = 0.0;
        let mut k = 0;
        while k < order.len() {
            // The stretch's whole cost (pace readings, decoys and clock
            // readings too), charged to its runs' tasks: what measuring
            // them cost, for the forecasts.
            let whole = Clock::start();
            let steady_before = Pace::before();
            let held = Clock::start();
            let mut spent = 0.0;
            while k < order.len() && spent < STRETCH_NS {
                let i = order[k];
                spent += self.run(i, permuted.get(k).unwrap_or(self.tasks[i].1), passes);
                k += 1;
            }
            let (held_cpu, _) = held.stop();
            let (after, pace) = Pace::steady();
            passes.accounted.1 += held_cpu;
            let whole = whole.stop().0;
            total += self.settle(steady_before && after, pace, whole, passes, finished);
        }
        total
    }

    /// One timed run of task `i` on `puzzle` (after an untimed decoy when
    /// `i` ran last), and an empty clock reading right after it. Returns
    /// its CPU time less that reading (0 for a task already failed).
    fn run(&mut self, i: usize, puzzle: &Board, passes: &mut Passes) -> f64 {
        let (strategy, own) = self.tasks[i];
        let limits = self.limits;
        if self.last == Some(i) {
            // Only one task left: something else runs between.
            let decoy = super::permute::random_symmetry(own, &mut self.rng);
            let _ = with_solver(strategy, own.size(), |solver| {
                black_box(solver.search(black_box(&decoy), limits, NoCount));
            });
        }
        let Ok(t) = &mut self.timers[i] else {
            return 0.0;
        };
        let ran = with_solver(strategy, own.size(), |solver| t.run(solver, puzzle, limits));
        // An empty reading right after the run, in the state the run left:
        // what reading the clocks cost here and now.
        let empty = black_box(Clock::start()).stop();
        self.empties.push(empty);
        let mut spent = 0.0;
        match ran {
            Ok(Ok((cpu, wall))) => {
                spent = (cpu - empty.0).max(0.0);
                self.stretch.push((i, cpu, wall));
            }
            Ok(Err(bug)) => self.timers[i] = Err(bug),
            Err(_) => {}
        }
        if passes.record {
            passes.order.push(i);
        }
        self.last = Some(i);
        spent
    }

    /// The stretch's runs, the stretch's clock cost taken off, handed to
    /// their timers (kept, or taken again when the core ran slow around
    /// the stretch), each charged an equal share of what the stretch cost
    /// beyond its runs (`whole`: its CPU ns). Returns the Σ of their times.
    fn settle(
        &mut self,
        steady: bool,
        pace: f64,
        whole: f64,
        passes: &mut Passes,
        finished: &mut dyn FnMut(usize, Duration),
    ) -> f64 {
        let clock = stretch_clock(&mut self.empties, &mut self.scratch);
        passes.clock_taken.0 += clock.0;
        passes.clock_taken.1 += 1;
        let runs: f64 = self.stretch.iter().map(|&(_, cpu, _)| cpu).sum();
        let share = (whole - runs).max(0.0) / self.stretch.len().max(1) as f64;
        let mut total = 0.0;
        for (i, cpu, wall) in self.stretch.drain(..) {
            let (cpu, wall) = net((cpu, wall), clock);
            passes.accounted.0 += cpu;
            total += cpu;
            let Ok(t) = &mut self.timers[i] else { continue };
            t.cost += share;
            let was_finished = t.finished();
            if t.take(cpu, wall, pace, steady) {
                passes.retaken += 1;
            }
            if !was_finished && t.finished() {
                finished(i, t.cost());
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::format::board;
    use crate::measure::Timing;

    /// Three strategies × four puzzles (three 9×9, one 4×4).
    fn boards() -> Vec<Board> {
        [
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            "..9748...7.........2.1.9.....7...24..64.1.59..98...3.....8.3.2.........6...2759..",
            "....3.....4....7.1.86.4......9.....87....5...45..8.379......8.6..341.95..9..63.17",
            "1.3.3.1..1.3.3.1",
        ]
        .iter()
        .map(|t| board(t))
        .collect()
    }

    /// Six runs per task, whatever their time.
    const SIX: Method = Method {
        min_time: Duration::ZERO,
        min_samples: 6,
        seed: 11,
        permute: false,
        tight: 0.0,
    };

    /// The passes over `tasks` with `seed`, recorded: the tasks' timings, the
    /// order of the timed runs, and how many of them were taken again.
    fn observe(tasks: &[(Strategy, &Board)], seed: u64) -> (Vec<Timing>, Vec<usize>, u64) {
        let mut passes = Passes {
            record: true,
            ..Passes::default()
        };
        let all = measure_passes(
            tasks,
            Limits::solve(None),
            &Method { seed, ..SIX },
            &mut |_, _| {},
            &mut passes,
        );
        // Runs taken again inside the passes are in the order; check runs
        // taken again before them are not (a busy machine does both).
        let timings: Vec<Timing> = all
            .into_iter()
            .map(|r| r.expect("no bug").0.timing.expect("timed"))
            .collect();
        let retaken: u32 = timings.iter().map(|t| t.retaken).sum();
        assert!(passes.retaken <= u64::from(retaken));
        (timings, passes.order, passes.retaken)
    }

    /// The cold passes, observed: each pass runs every unfinished task once,
    /// no task ever runs twice in a row, each strategy's tasks come together
    /// in a pass, the order changes from pass to pass, and the same seed
    /// gives the same order.
    #[test]
    fn passes_run_every_task_once_in_a_fresh_seeded_shuffle() {
        let boards = boards();
        let mut tasks = Vec::new();
        for s in [Strategy::Mrv, Strategy::Propagate, Strategy::Dlx] {
            for b in &boards {
                tasks.push((s, b));
            }
        }
        let (_, order, retaken) = observe(&tasks, 11);
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
        let again = |seed| observe(&tasks, seed).1[..two].to_vec();
        assert_eq!(again(11), order[..two], "the same seed, the same order");
        assert_ne!(again(12), order[..two], "another seed, another order");
    }

    /// A lone task: every run but the first follows a decoy, still no
    /// back-to-back repeat among the timed runs (they alternate with the
    /// decoys, which are not timed and not recorded).
    #[test]
    fn a_lone_task_gets_its_runs_with_decoys_between() {
        let boards = boards();
        let (alone, order, retaken) = observe(&[(Strategy::Mrv, &boards[0])], 11);
        assert_eq!(order.len(), 6 + retaken as usize);
        assert_eq!(alone[0].samples, 6);
    }
}
