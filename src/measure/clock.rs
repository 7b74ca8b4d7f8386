//! The clocks a run is timed by: this thread's CPU clock beside the wall
//! clock ([`Clock`]), whether the CPU clock is fine enough to time a run
//! ([`cpu_clock_step`]), and what reading both clocks costs, taken off
//! every run ([`clock_cost`], [`stretch_clock`], [`net`]).

use std::hint::black_box;
use std::time::{Duration, Instant};

/// A run's (CPU, wall) time as read, less the clocks' cost (never below 0).
pub(super) fn net(raw: (f64, f64), clock: (f64, f64)) -> (f64, f64) {
    ((raw.0 - clock.0).max(0.0), (raw.1 - clock.1).max(0.0))
}

/// The cost of reading both clocks around the runs of one stretch (CPU ns,
/// wall ns): the median of the empty readings taken right after each of
/// them (emptied). One reading before the passes is not enough: on a loaded
/// virtual machine what a reading costs drifts by hundreds of ns between
/// that moment and the runs, more than a 4×4 solve lasts (0 ns read for
/// some, ×5 for others, measured).
pub(super) fn stretch_clock(empties: &mut Vec<(f64, f64)>, scratch: &mut Vec<f64>) -> (f64, f64) {
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
pub(super) fn clock_cost() -> (f64, f64) {
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
