//! Ctrl-C, SIGTERM and SIGHUP, for every command: the outside programs the
//! lab started are killed ([`crate::io::program::end_all`]: a terminal's Ctrl-C
//! never reaches them, they run in groups of their own), a half-written
//! report folder is dropped, and the command exits 130.

use std::sync::{Mutex, Once};

/// Exit code after Ctrl-C, SIGTERM or SIGHUP (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: i32 = 130;

/// What the handler says on standard error: the command sets it.
static NOTE: Mutex<&'static str> = Mutex::new("\ninterrupted");

/// Installs the handler (once per process) and sets what it says.
pub fn install(note: &'static str) {
    *NOTE.lock().unwrap_or_else(|e| e.into_inner()) = note;
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // A program embedding the lab may have its own handler: then it
        // keeps it (and its programs end with the lab's exit path).
        let _ = ctrlc::set_handler(on_signal);
    });
}

fn on_signal() {
    let note = *NOTE.lock().unwrap_or_else(|e| e.into_inner());
    crate::io::output::interrupt(note);
    crate::io::program::end_all();
    crate::io::program::goodbye();
    crate::run::compare::write::abandon_and_exit(EXIT_INTERRUPTED)
}

/// The end of every command, however it ended: no program outlives it.
pub fn finish() {
    // An interrupted command ends in the handler, with its exit code.
    crate::io::output::halt_if_interrupted();
    crate::io::program::end_all();
    crate::io::program::goodbye();
}
