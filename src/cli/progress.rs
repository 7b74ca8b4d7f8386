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

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
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
