//! The terminal side of [`crate::base::progress::Progress`]: a bar on standard
//! error when it is a terminal, silence when it is not (piped or redirected
//! output stays clean).

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// How often a bar redraws itself without being told of any progress, so its
/// clock and its ETA (counted down from the last estimate) stay live while a
/// long task runs: `compare` finishes its tasks in groups, tens of seconds
/// apart on the hard sets.
const TICK: Duration = Duration::from_millis(500);

/// A progress bar for one command.
pub struct Bar {
    bar: ProgressBar,
    eta: Arc<Mutex<Eta>>,
    /// The pace the work's estimate assumes, in cores
    /// ([`crate::base::progress::Progress::pace`]), shown beside the ETA.
    pace: Arc<Mutex<Option<f64>>>,
}

/// Where the bar's ETA comes from.
#[derive(Clone, Copy, Debug, Default)]
enum Eta {
    /// indicatif's rate of steps (the work never said).
    #[default]
    Rate,
    /// The work will estimate, but cannot yet.
    Unknown,
    /// The work said it will end then ([`crate::base::progress::Progress::left`]).
    Ends(Instant),
}

impl Bar {
    /// A bar labelled `label` (hidden unless stderr is a terminal); its
    /// length comes with [`crate::base::progress::Progress::start`].
    pub fn new(label: &str) -> Bar {
        if std::io::stderr().is_terminal() {
            Bar::drawn_to(label, ProgressDrawTarget::stderr())
        } else {
            Bar::of(ProgressBar::hidden())
        }
    }

    /// [`Bar::new`] drawn to `target`, redrawn every [`TICK`].
    fn drawn_to(label: &str, target: ProgressDrawTarget) -> Bar {
        let eta: Arc<Mutex<Eta>> = Arc::default();
        let pace: Arc<Mutex<Option<f64>>> = Arc::default();
        let bar = {
            let pb = ProgressBar::with_draw_target(Some(0), target);
            let told = Arc::clone(&eta);
            let cores = Arc::clone(&pace);
            let show = move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = match told.lock().map_or(Eta::Rate, |e| *e) {
                    Eta::Rate => write!(w, "{:#}", HumanDuration(state.eta())),
                    Eta::Unknown => write!(w, "…"),
                    Eta::Ends(at) => write!(
                        w,
                        "{:#}",
                        HumanDuration(at.saturating_duration_since(Instant::now()))
                    ),
                };
                if let Some(c) = cores.lock().ok().and_then(|c| *c) {
                    let _ = write!(w, " at {c:.1} cores");
                }
            };
            if let Ok(style) = ProgressStyle::with_template(&format!(
                "{label} {{elapsed_precise}} [{{bar:30.cyan/blue}}] {{pos}}/{{len}}  ETA {{eta}}  {{msg}}"
            )) {
                pb.set_style(style.with_key("eta", show).progress_chars("=> "));
            }
            pb.enable_steady_tick(TICK);
            pb
        };
        Bar { bar, eta, pace }
    }

    /// A counter for work of unknown length (a search with no node budget):
    /// elapsed time, a spinner and how many `unit` so far.
    pub fn open_ended(label: &str, unit: &str) -> Bar {
        Bar::plain(
            None,
            format!("{label} {{elapsed_precise}} {{spinner}} {{human_pos}} {unit}  {{msg}}"),
        )
    }

    /// A download: bytes so far of how many, and the rate.
    pub fn bytes(label: &str) -> Bar {
        Bar::plain(
            Some(0),
            format!(
                "{label} {{elapsed_precise}} [{{bar:30.cyan/blue}}] {{bytes}}/{{total_bytes}}  {{bytes_per_sec}}  ETA {{eta}}"
            ),
        )
    }

    /// A bar of `len` steps drawn by `template` on stderr when it is a
    /// terminal (hidden otherwise), with no ETA of the work's own.
    fn plain(len: Option<u64>, template: String) -> Bar {
        if !std::io::stderr().is_terminal() {
            return Bar::of(ProgressBar::hidden());
        }
        let pb = ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(&template) {
            pb.set_style(style.progress_chars("=> "));
        }
        pb.enable_steady_tick(TICK);
        Bar::of(pb)
    }

    /// `bar`, with no ETA or pace of the work's own.
    fn of(bar: ProgressBar) -> Bar {
        Bar {
            bar,
            eta: Arc::default(),
            pace: Arc::default(),
        }
    }

    /// [`Bar::open_ended`] for a command whose results stream to standard
    /// output as it goes (`solve`, `count`, `rate`): when that output is a
    /// terminal it is the progress, and a bar would be drawn through it, so
    /// the bar shows only when the results go to a file or a pipe.
    pub fn streaming(label: &str, unit: &str) -> Bar {
        if std::io::stdout().is_terminal() {
            Bar::of(ProgressBar::hidden())
        } else {
            Bar::open_ended(label, unit)
        }
    }

    /// Runs `f` with the bar lifted off the terminal (for a note on
    /// standard error in the middle of the work).
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// A bar goes away with its command's work, however that ends (an error
/// included), so no half-drawn bar is left above the error message.
impl Drop for Bar {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

impl crate::base::progress::Progress for Bar {
    fn start(&self, total: u64) {
        self.bar.set_length(total);
    }
    fn tick(&self) {
        self.bar.inc(1);
    }
    fn at(&self, done: u64) {
        self.bar.set_position(done);
    }
    fn say(&self, what: &str) {
        self.bar.set_message(what.to_string());
    }
    fn left(&self, left: Option<Duration>) {
        if let Ok(mut eta) = self.eta.lock() {
            *eta = match left {
                Some(left) => Eta::Ends(Instant::now() + left),
                None => Eta::Unknown,
            };
        }
    }
    fn pace(&self, cores: f64) {
        if let Ok(mut pace) = self.pace.lock() {
            *pace = Some(cores);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::progress::Progress;

    /// A terminal that keeps every line drawn on it.
    #[derive(Debug, Default, Clone)]
    struct Screen(Arc<Mutex<Vec<String>>>);

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            120
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(s)
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            if !s.is_empty()
                && let Ok(mut lines) = self.0.lock()
            {
                lines.push(s.to_string());
            }
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// With no progress at all after the first step (a group of long tasks
    /// running), the bar still redraws on its own, and its ETA counts down
    /// from the work's last estimate. Waits for the redraws (up to a minute
    /// on a busy machine); how long they take is not asserted.
    #[test]
    fn the_bar_redraws_itself_between_steps() {
        let screen = Screen::default();
        let bar = Bar::drawn_to(
            "compare",
            ProgressDrawTarget::term_like(Box::new(screen.clone())),
        );
        bar.start(10);
        bar.left(Some(Duration::from_secs(3600)));
        bar.pace(1.43);
        bar.tick();
        let drawn = || screen.0.lock().map_or(0, |l| l.len());
        let after_tick = drawn();
        let start = Instant::now();
        while drawn() < after_tick + 3 && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(50));
        }
        let lines = screen.0.lock().unwrap().clone();
        assert!(
            lines.len() >= after_tick + 3,
            "no redraw without progress: {lines:?}"
        );
        let last = lines
            .iter()
            .rev()
            .find(|l| l.contains("compare"))
            .unwrap_or_else(|| panic!("no bar drawn: {lines:?}"));
        assert!(last.contains("1/10"), "{last}");
        // The hour told counts down (shown as 60m or 59m by now): the
        // work's own estimate, not "…" nor a rate of steps.
        assert!(
            last.contains("ETA 60m") || last.contains("ETA 59m"),
            "{last}"
        );
        // With the pace the estimate assumes.
        assert!(last.contains(" at 1.4 cores"), "{last}");
    }
}
