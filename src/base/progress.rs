//! How long work reports its progress: a callback the library calls and the
//! command line draws (a bar on a terminal, nothing when piped). The library
//! never draws anything itself.

/// Receives progress events from long work. Every method may be called from
/// worker threads.
pub trait Progress: Sync {
    /// The work has `total` steps.
    fn start(&self, total: u64) {
        let _ = total;
    }
    /// One step done.
    fn tick(&self) {}
    /// `done` steps done so far (work that counts its own steps, such as
    /// the nodes of one long search).
    fn at(&self, done: u64) {
        let _ = done;
    }
    /// What is being done now (a dataset × strategy, a phase).
    fn say(&self, what: &str) {
        let _ = what;
    }
    /// The work's own estimate of the time left, from now (work whose steps
    /// differ in cost knows better than a rate of steps per second); `None`:
    /// it will estimate, but cannot yet.
    fn left(&self, left: Option<std::time::Duration>) {
        let _ = left;
    }
    /// The pace that estimate assumes, in cores: CPU seconds the work got
    /// per second lately (other load on the machine lowers it), so that a
    /// reader sees what the time left rests on.
    fn pace(&self, cores: f64) {
        let _ = cores;
    }
}

/// Progress that goes nowhere (tests, library callers that do not care).
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Progress for Quiet {}
