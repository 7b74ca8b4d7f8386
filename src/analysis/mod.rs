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

/// `items` without repeats, in the order each first appears.
pub(crate) fn first_seen<T: PartialEq>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for x in items {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

pub use summary::{
    Aggregate, Group, Kind, PuzzleRuns, Sample, SummaryRow, columns as summary_columns,
};
pub use tour::transform::Transform;
pub use tour::{LadderPlan, LadderRow, ladder};
pub use trace::{
    Branch, Chute, DeadEnd, Event, EventKind, Fill, MAX_STEPS, Position, Reason, Trace, Tracer,
    Tree, WAYS, trace, trace_window, trace_window_showing,
};
