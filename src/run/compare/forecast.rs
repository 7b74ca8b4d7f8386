//! The time left of a `compare` run ([`Forecast`]), from the tasks done so
//! far and the probe of the tasks to come (`super::run::probe`).

use std::collections::BTreeMap;

use crate::base::strategy::Strategy;

/// Row-major rungs visit the same tree, so one cheap count of it (by the
/// last row-major rung, the cheapest per node) tells how many nodes each of
/// them will visit: the `probe` of a puzzle. Searches this big dominate a
/// run; smaller ones cost about the timing floor each.
const HEAVY: u64 = 20_000;

/// What the forecast knows of a kind of task: how many are done and to
/// come, and the weight ([`Forecast::units`]) and time of those done.
#[derive(Clone, Copy, Debug, Default)]
struct Class {
    done: u64,
    done_nodes: f64,
    done_secs: f64,
    left: u64,
    left_nodes: f64,
}

/// The time left of a run, from the run so far and the probe.
///
/// Tasks fall into classes: strategy × board size × (heavy row-major search
/// or not, by the [`super::run::probe`]). A class costs, per task, its average so far;
/// a heavy class costs per probed node and cell of a row (nodes × side: a
/// row-major rung scans rows, so a node of a 25×25 board cost 2.4-4× one
/// of 9×9 in the runs recorded for `tests/eta_trace.rs`, and a class not
/// seen yet borrows at that scale), so a search of ten million nodes still
/// to come counts for what it will take. Classes not seen yet borrow
/// from the same strategy at other sizes, then from every class of their
/// kind. The time left is the elapsed time × the estimated work left ÷ the
/// work done. tests/compare_report.rs replays the committed run: within 2×
/// of the truth from a tenth of the run on.
#[derive(Clone, Debug, Default)]
pub struct Forecast {
    classes: BTreeMap<(Strategy, u32, bool), Class>,
    done_secs: f64,
}

impl Forecast {
    fn key(strategy: Strategy, side: u32, probe: u64) -> (Strategy, u32, bool) {
        (strategy, side, strategy.is_row_major() && probe >= HEAVY)
    }

    /// What a heavy task weighs: its probed nodes × the side of its board.
    fn units(side: u32, probe: u64) -> f64 {
        probe as f64 * f64::from(side)
    }

    /// A task to come.
    pub fn expect(&mut self, strategy: Strategy, side: u32, probe: u64) {
        let c = self
            .classes
            .entry(Self::key(strategy, side, probe))
            .or_default();
        c.left += 1;
        c.left_nodes += Self::units(side, probe);
    }

    /// A task done, in `secs` seconds of work.
    pub fn finish(&mut self, strategy: Strategy, side: u32, probe: u64, secs: f64) {
        let c = self
            .classes
            .entry(Self::key(strategy, side, probe))
            .or_default();
        c.left = c.left.saturating_sub(1);
        c.left_nodes = (c.left_nodes - Self::units(side, probe)).max(0.0);
        c.done += 1;
        c.done_nodes += Self::units(side, probe);
        c.done_secs += secs;
        self.done_secs += secs;
    }

    /// Seconds per task (light) or per [`Forecast::units`] (heavy), pooled over the
    /// classes `pick` selects; `None` if none is done.
    fn rate(&self, pick: impl Fn(&(Strategy, u32, bool)) -> bool, heavy: bool) -> Option<f64> {
        let (mut secs, mut units) = (0.0, 0.0);
        for (_, c) in self.classes.iter().filter(|(k, _)| k.2 == heavy && pick(k)) {
            secs += c.done_secs;
            units += if heavy { c.done_nodes } else { c.done as f64 };
        }
        (units > 0.0).then(|| secs / units)
    }

    /// The time left, given the time elapsed; `None` before any task is done.
    /// (At the pace of the run so far; [`super::eta::Eta`] follows the
    /// recent pace and the work of the tasks still running.)
    pub fn left(&self, elapsed: std::time::Duration) -> Option<std::time::Duration> {
        if self.done_secs <= 0.0 {
            return None;
        }
        Some(elapsed.mul_f64(self.work_left() / self.done_secs))
    }

    /// Tasks done and to come.
    pub fn tasks(&self) -> (u64, u64) {
        let add = |(d, l), c: &Class| (d + c.done, l + c.left);
        self.classes.values().fold((0, 0), add)
    }

    /// Seconds of task work done so far.
    pub fn work_done(&self) -> f64 {
        self.done_secs
    }

    /// Seconds of task work still to come, by the rates so far (0 before
    /// any task is done).
    pub fn work_left(&self) -> f64 {
        let mut work = 0.0;
        for (&(s, side, heavy), c) in &self.classes {
            if c.left == 0 {
                continue;
            }
            let rate = self
                .rate(|k| k.0 == s && k.1 == side, heavy)
                .or_else(|| self.rate(|k| k.0 == s, heavy))
                .or_else(|| self.rate(|_| true, heavy))
                .or_else(|| {
                    // No heavy task done yet: a heavy one costs at least a
                    // light one of its strategy.
                    self.rate(|k| k.0 == s, false)
                        .or_else(|| self.rate(|_| true, false))
                        .map(|r| {
                            if heavy {
                                r / Self::units(side, HEAVY)
                            } else {
                                r
                            }
                        })
                })
                .unwrap_or(0.0);
            work += rate * if heavy { c.left_nodes } else { c.left as f64 };
        }
        work
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A heavy class costs per probed node; unseen classes borrow.
    #[test]
    fn forecast_weighs_heavy_searches_by_their_nodes() {
        use std::time::Duration;
        let (naive, mrv) = (Strategy::Naive, Strategy::Mrv);
        let mut f = Forecast::default();
        assert_eq!(f.left(Duration::from_secs(1)), None);
        for probe in [HEAVY, 10 * HEAVY, 10] {
            f.expect(naive, 9, probe);
            f.expect(mrv, 9, probe);
        }
        // Done: the heavy naive task of HEAVY nodes (2 s), one mrv (1 s).
        f.finish(naive, 9, HEAVY, 2.0);
        f.finish(mrv, 9, HEAVY, 1.0);
        // Left: naive 10×HEAVY (20 s by rate), naive light (borrows the
        // light rate of every class: 1 s), mrv ×2 (1 s each): 23 s of work
        // for 3 s done, in 3 s elapsed.
        let left = f.left(Duration::from_secs(3)).unwrap();
        assert!((left.as_secs_f64() - 23.0).abs() < 1e-9, "{left:?}");
    }
}
