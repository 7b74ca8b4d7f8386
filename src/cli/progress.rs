//! The terminal side of [`crate::progress::Progress`]: a bar on standard
//! error when it is a terminal, silence when it is not (piped or redirected
//! output stays clean).

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A progress bar for one command.
pub struct Bar {
    bar: ProgressBar,
    eta: Arc<Mutex<Eta>>,
}

/// Where the bar's ETA comes from.
#[derive(Clone, Copy, Debug, Default)]
enum Eta {
    /// indicatif's rate of steps (the work never said).
    #[default]
    Rate,
    /// The work will estimate, but cannot yet.
    Unknown,
    /// The work said it will end then ([`crate::progress::Progress::left`]).
    Ends(Instant),
}

impl Bar {
    /// A bar labelled `label` (hidden unless stderr is a terminal); its
    /// length comes with [`crate::progress::Progress::start`].
    pub fn new(label: &str) -> Bar {
        let eta: Arc<Mutex<Eta>> = Arc::default();
        let bar = if std::io::stderr().is_terminal() {
            let pb = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            let told = Arc::clone(&eta);
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
            };
            if let Ok(style) = ProgressStyle::with_template(&format!(
                "{label} {{elapsed_precise}} [{{bar:30.cyan/blue}}] {{pos}}/{{len}}  ETA {{eta}}  {{msg}}"
            )) {
                pb.set_style(style.with_key("eta", show).progress_chars("=> "));
            }
            pb
        } else {
            ProgressBar::hidden()
        };
        Bar { bar, eta }
    }

    /// A counter for work of unknown length (a search with no node budget):
    /// elapsed time, a spinner and how many `unit` so far.
    pub fn open_ended(label: &str, unit: &str) -> Bar {
        let bar = if std::io::stderr().is_terminal() {
            let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(&format!(
                "{label} {{elapsed_precise}} {{spinner}} {{human_pos}} {unit}  {{msg}}"
            )) {
                pb.set_style(style);
            }
            pb
        } else {
            ProgressBar::hidden()
        };
        Bar {
            bar,
            eta: Arc::default(),
        }
    }

    /// [`Bar::open_ended`] for a command whose results stream to standard
    /// output as it goes (`solve`, `count`, `rate`): when that output is a
    /// terminal it is the progress, and a bar would be drawn through it, so
    /// the bar shows only when the results go to a file or a pipe.
    pub fn streaming(label: &str, unit: &str) -> Bar {
        if std::io::stdout().is_terminal() {
            Bar {
                bar: ProgressBar::hidden(),
                eta: Arc::default(),
            }
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

impl crate::progress::Progress for Bar {
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
}
