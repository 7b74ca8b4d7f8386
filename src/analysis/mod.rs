//! Plain data computed from runs: summaries, what each chart shows, Knuth estimates, the tour's
//! measurements, ratings, traces, and the check every rung is held to. No text, no files.

pub(crate) mod charts;
pub mod check;
pub(crate) mod diff;
pub mod estimate;
pub(crate) mod ladder;
pub(crate) mod program_panels;
pub(crate) mod rate;
pub mod summary;
pub mod tour;
pub mod trace;
