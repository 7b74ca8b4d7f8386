//! The time left of a `compare` run, as its progress bar shows it.
//!
//! Two questions, answered apart. *How much work is left?* The
//! [`Forecast`]: CPU seconds of the tasks not finished yet, from the cost of
//! those finished, per class, and each puzzle's probe. *How fast is work
//! being done now?* The process's own CPU clock: CPU seconds per second of
//! the clock over the last [`Eta::WINDOW`], so other load on the machine,
//! which takes CPU away from the run, slows the estimate exactly as it slows
//! the run.
//!
//! Tasks finish in bursts: a worker measures [`crate::base::defaults::MEASURE_GROUP`]
//! tasks together, their samples interleaved, and on the hard sets a group
//! runs for tens of seconds before its tasks finish within a few
//! milliseconds of each other. An estimate made only from finished tasks
//! lags by those groups and jumps at their ends (the run this replaced
//! showed 15 hours for a 6-minute run right after a group ended, and froze
//! in between). The process clock counts the work of the groups still
//! running as it is done, and the estimate is made again every `TICK`,
//! whether tasks finish or not. The tasks' own costs miss part of the
//! process's CPU (the clocks' readings, the harness: half of it in the
//! recorded run); what they miss per task so far is charged to every task
//! to come. `tests/eta_trace.rs` replays a recorded run whose load fell
//! halfway (every task's end and cost, the process clock every half
//! second) through [`Eta`]: a window after the fall, the estimate is within
//! 1.6× of the time that was really left until the run's last tenth.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::base::progress::Progress;
use crate::run::compare::run::{Forecast, Tick};

/// How often the estimate is made again while tasks run.
pub(crate) const TICK: Duration = Duration::from_millis(500);

/// CPU time consumed by this process so far (every thread); zero where the
/// platform has no such clock (the estimate then counts finished tasks only).
#[cfg(unix)]
pub fn process_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        ts.tv_sec.max(0) as u64,
        ts.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// CPU time consumed by this process (unavailable here).
#[cfg(not(unix))]
pub fn process_cpu() -> Duration {
    Duration::ZERO
}

/// The estimate of the time left: the forecast of the work, and readings of
/// the clock and of the work done.
#[derive(Clone, Debug)]
pub struct Eta {
    forecast: Forecast,
    /// (elapsed, CPU seconds done) readings over the last window, oldest
    /// first.
    readings: VecDeque<(Duration, f64)>,
    /// The pace of the last estimate: CPU seconds per second over the
    /// window ([`Eta::pace`]).
    pace: Option<f64>,
}

impl Eta {
    /// The span over which the pace of the work is taken: long enough to
    /// hold a few group ends, short enough to follow load that comes and goes.
    pub const WINDOW: Duration = Duration::from_secs(60);

    /// An estimate for the tasks `forecast` expects.
    pub fn new(forecast: Forecast) -> Eta {
        Eta {
            forecast,
            readings: VecDeque::new(),
            pace: None,
        }
    }

    /// A task finished ([`Tick`]).
    pub fn finish(&mut self, tick: &Tick) {
        self.forecast
            .finish(tick.strategy, tick.side, tick.probe, tick.cpu.as_secs_f64());
    }

    /// The time left, `elapsed` into the run, when the process has spent
    /// `cpu` on it (both counted from the start of the measuring); `None`
    /// until a task has finished and the clock has moved.
    pub fn left(&mut self, elapsed: Duration, cpu: Duration) -> Option<Duration> {
        let finished = self.forecast.work_done();
        // CPU spent on it, at least what the finished tasks cost (a platform
        // without a process clock reads zero: then only finished tasks count).
        let cpu = cpu.as_secs_f64().max(finished);
        if self.readings.is_empty() {
            self.readings.push_back((Duration::ZERO, 0.0));
        }
        self.readings.push_back((elapsed, cpu));
        while self.readings.len() > 2 && self.readings[1].0 + Self::WINDOW <= elapsed {
            self.readings.pop_front();
        }
        let (done, to_come) = self.forecast.tasks();
        let (t0, c0) = self.readings[0];
        let span = elapsed.saturating_sub(t0).as_secs_f64();
        let rate = (cpu - c0) / span;
        if done == 0 || !(rate > 0.0 && span > 0.0) {
            return None;
        }
        self.pace = Some(rate);
        // The CPU the finished tasks' costs do not show, per task so far:
        // the clocks' own readings and the harness around the runs (half of
        // the process's CPU in the recorded run, most of it on the light
        // tasks, which report next to nothing), and the work of the tasks
        // running now. Every task to come is charged as much again.
        let unseen = (cpu - finished) / done as f64;
        let todo = self.forecast.work_left() + unseen * to_come as f64;
        Some(Duration::from_secs_f64(todo / rate))
    }
}

impl Eta {
    /// The pace the last estimate assumed: CPU seconds per second over the
    /// last [`Eta::WINDOW`] (2.0: two cores all the run's; less when other
    /// load takes CPU from it). `None` before the first estimate.
    pub fn pace(&self) -> Option<f64> {
        self.pace
    }
}

/// Runs `work` while `progress` hears the time left: after every task that
/// finishes (`work` calls the callback it is given with each [`Tick`]) and
/// every `TICK` in between, from a thread of its own that ends with
/// `work`. The clocks start now.
pub fn follow<R>(
    eta: Eta,
    progress: &dyn Progress,
    work: impl FnOnce(&(dyn Fn(&Tick) + Sync)) -> R,
) -> R {
    let start = Instant::now();
    let cpu0 = process_cpu();
    let state = Mutex::new(eta);
    let tell = |finished: Option<&Tick>| {
        let Ok(mut eta) = state.lock() else {
            return;
        };
        if let Some(t) = finished {
            eta.finish(t);
        }
        let cpu = process_cpu().saturating_sub(cpu0);
        if let Some(left) = eta.left(start.elapsed(), cpu) {
            progress.left(Some(left));
            if let Some(cores) = eta.pace() {
                progress.pace(cores);
            }
        }
    };
    let done = std::sync::atomic::AtomicBool::new(false);
    let (lock, wake) = (Mutex::new(()), std::sync::Condvar::new());
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let Ok(mut guard) = lock.lock() else {
                return;
            };
            while !done.load(std::sync::atomic::Ordering::Acquire) {
                guard = match wake.wait_timeout(guard, TICK) {
                    Ok((g, _)) => g,
                    Err(_) => return,
                };
                if !done.load(std::sync::atomic::Ordering::Acquire) {
                    tell(None);
                }
            }
        });
        let on_tick = |t: &Tick| {
            progress.tick();
            tell(Some(t));
        };
        let result = work(&on_tick);
        done.store(true, std::sync::atomic::Ordering::Release);
        let _guard = lock.lock();
        wake.notify_all();
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::strategy::Strategy;

    fn tick(cpu: f64) -> Tick {
        Tick {
            strategy: Strategy::Mrv,
            side: 9,
            probe: 10,
            cpu: Duration::from_secs_f64(cpu),
        }
    }

    /// 100 tasks of 1 CPU second on two workers: after 10 finished (10 s
    /// of CPU) at 10 s, with 4 s more spent (on the two running, or unseen
    /// by the tasks' costs), each of the 90 to come is charged 0.4 s more:
    /// 90 × 1.4 s of CPU, at 1.4 CPU s per s.
    #[test]
    fn the_cpu_the_tasks_do_not_show_is_charged_per_task() {
        let mut f = Forecast::default();
        for _ in 0..100 {
            f.expect(Strategy::Mrv, 9, 10);
        }
        let mut eta = Eta::new(f);
        assert_eq!(
            eta.left(Duration::from_secs(1), Duration::from_secs(1)),
            None
        );
        for _ in 0..10 {
            eta.finish(&tick(1.0));
        }
        let left = eta
            .left(Duration::from_secs(10), Duration::from_secs(14))
            .unwrap()
            .as_secs_f64();
        assert!((left - 90.0).abs() < 1e-9, "{left}");
    }

    /// The pace is the last window's: a machine that slows to half speed is
    /// seen as such one window later.
    #[test]
    fn the_pace_follows_the_last_window() {
        let mut f = Forecast::default();
        for _ in 0..1000 {
            f.expect(Strategy::Mrv, 9, 10);
        }
        let mut eta = Eta::new(f);
        let (mut cpu, mut left) = (0.0, None);
        for t in 1..=200u64 {
            let per_second = if t <= 100 { 2 } else { 1 };
            for _ in 0..per_second {
                eta.finish(&tick(1.0));
            }
            cpu += per_second as f64;
            left = eta
                .left(Duration::from_secs(t), Duration::from_secs_f64(cpu))
                .map(|d| d.as_secs_f64());
            if t == 100 {
                assert!((left.unwrap() - 400.0).abs() < 1e-6, "{left:?}");
                // The pace it assumes: two CPU seconds per second.
                assert!((eta.pace().unwrap() - 2.0).abs() < 1e-9);
            }
        }
        assert!((left.unwrap() - 700.0).abs() < 1e-6, "{left:?}");
        // Half the machine since: the pace shown says so.
        assert!((eta.pace().unwrap() - 1.0).abs() < 1e-9);
    }

    /// The ticker tells the time left between tasks, and ends with the work.
    #[test]
    fn follow_tells_the_time_left_between_tasks() {
        #[derive(Default)]
        struct Heard(Mutex<(u64, u64)>);
        impl Progress for Heard {
            fn tick(&self) {
                self.0.lock().unwrap().0 += 1;
            }
            fn left(&self, left: Option<Duration>) {
                if left.is_some() {
                    self.0.lock().unwrap().1 += 1;
                }
            }
        }
        let mut f = Forecast::default();
        for _ in 0..3 {
            f.expect(Strategy::Mrv, 9, 10);
        }
        let heard = Heard::default();
        follow(Eta::new(f), &heard, |done| {
            // One task, then busy work (CPU time moves) until the ticker
            // has told the time left twice more.
            done(&tick(0.001));
            let told = || heard.0.lock().unwrap().1;
            let first = told();
            let start = Instant::now();
            let mut x = 0u64;
            while told() < first + 2 && start.elapsed() < Duration::from_secs(60) {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                std::hint::black_box(x);
            }
        });
        let (ticks, told) = *heard.0.lock().unwrap();
        assert_eq!(ticks, 1);
        assert!(told >= 3, "told {told} times");
    }
}
