//! Under what conditions a set of measurements was taken ([`Conditions`]):
//! workers and cores, the load, how much wall time the runs waited, how
//! many samples the core's pace spoiled; and why the figures deserve less
//! trust than usual when they do ([`Conditions::busy`]).

use serde::{Deserialize, Serialize};

use super::{Timing, cpu_clock_step};

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
