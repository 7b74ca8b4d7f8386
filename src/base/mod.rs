//! The bottom layer: a board, its text layouts, the counters, the search every rung shares, the
//! rungs themselves and the reusable solver. Nothing here times, reads files or writes text.

pub(crate) mod board;
pub(crate) mod counters;
pub mod defaults;
pub mod format;
pub(crate) mod names;
pub(crate) mod probe;
pub(crate) mod progress;
pub(crate) mod search;
pub(crate) mod solver;
pub mod strategy;
pub(crate) mod tracer;

pub use board::*;
pub use counters::*;
pub use progress::*;
pub use search::*;
pub use solver::Solver;
