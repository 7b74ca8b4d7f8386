//! Plain data computed from runs: summaries, what each chart shows, Knuth estimates, the tour's
//! measurements, ratings, traces, and the check every rung is held to. No text, no files.

pub(crate) mod charts;
pub mod check;
pub(crate) mod diff;
pub mod estimate;
pub(crate) mod ladder;
pub(crate) mod program_panels;
pub(crate) mod rate;
pub(crate) mod summary;
pub(crate) mod tour;
pub(crate) mod trace;

pub use summary::{
    Aggregate, Group, Kind, PuzzleRuns, Sample, SummaryRow, columns as summary_columns,
};
pub use tour::transform::Transform;
pub use tour::*;
pub use trace::*;
