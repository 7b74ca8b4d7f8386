//! Plain data computed from runs: summaries, what each chart shows, Knuth estimates, the tour's
//! measurements, ratings, traces, and the check every rung is held to. No text, no files.

pub mod charts;
pub mod check;
pub mod estimate;
pub mod program_panels;
pub mod rate;
pub mod summary;
pub mod tour;
pub mod trace;
