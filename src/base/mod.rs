//! The bottom layer: a board, its text layouts, the counters, the search every rung shares, the
//! rungs themselves and the reusable solver. Nothing here times, reads files or writes text.

pub mod board;
pub mod counters;
pub mod defaults;
pub mod format;
pub(crate) mod names;
pub(crate) mod probe;
pub mod progress;
pub mod search;
pub(crate) mod solver;
pub mod strategy;
pub(crate) mod tracer;
