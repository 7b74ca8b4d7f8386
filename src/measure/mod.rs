//! The one way to time a solve (counted run for the counters, uncounted runs for the clock),
//! the references that judge the host's pace, statistics, seeded sampling and the ordered
//! parallel executor.

pub(crate) mod exec;
mod pace;
pub(crate) mod permute;
pub(crate) mod results;
pub mod speed;
pub mod stats;
mod timing;

pub use timing::*;
