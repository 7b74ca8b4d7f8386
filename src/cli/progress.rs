//! The terminal side of [`crate::progress::Progress`]: a bar on standard
//! error when it is a terminal, silence when it is not (piped or redirected
//! output stays clean).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar for one command.
pub struct Bar {
    bar: ProgressBar,
}

impl Bar {
    /// A bar labelled `label` (hidden unless stderr is a terminal); its
    /// length comes with [`crate::progress::Progress::start`].
    pub fn new(label: &str) -> Bar {
        let bar = if std::io::stderr().is_terminal() {
            let pb = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(&format!(
                "{label} {{elapsed_precise}} [{{bar:30.cyan/blue}}] {{pos}}/{{len}}  ETA {{eta}}  {{msg}}"
            )) {
                pb.set_style(style.progress_chars("=> "));
            }
            pb
        } else {
            ProgressBar::hidden()
        };
        Bar { bar }
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
}
