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
    /// When the work said it will end ([`crate::progress::Progress::left`]);
    /// until it says, the ETA is indicatif's rate of steps.
    ends: Arc<Mutex<Option<Instant>>>,
}

impl Bar {
    /// A bar labelled `label` (hidden unless stderr is a terminal); its
    /// length comes with [`crate::progress::Progress::start`].
    pub fn new(label: &str) -> Bar {
        let ends: Arc<Mutex<Option<Instant>>> = Arc::default();
        let bar = if std::io::stderr().is_terminal() {
            let pb = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            let told = Arc::clone(&ends);
            let eta = move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let ends = told.lock().ok().and_then(|e| *e);
                let left = match ends {
                    Some(at) => at.saturating_duration_since(Instant::now()),
                    None => state.eta(),
                };
                let _ = write!(w, "{:#}", HumanDuration(left));
            };
            if let Ok(style) = ProgressStyle::with_template(&format!(
                "{label} {{elapsed_precise}} [{{bar:30.cyan/blue}}] {{pos}}/{{len}}  ETA {{eta}}  {{msg}}"
            )) {
                pb.set_style(style.with_key("eta", eta).progress_chars("=> "));
            }
            pb
        } else {
            ProgressBar::hidden()
        };
        Bar { bar, ends }
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
    fn left(&self, left: Duration) {
        if let Ok(mut ends) = self.ends.lock() {
            *ends = Some(Instant::now() + left);
        }
    }
}
