//! The estimates of cut-off runs in `compare`: a row the budget stopped gets
//! the whole search's size estimated from Knuth's random probes
//! ([`crate::analysis::estimate`]), written as `results.csv`'s columns `nodes_est`,
//! `nodes_est_low`, `nodes_est_high` (after the time columns), and its time
//! estimated as those nodes × the run's measured time per node, marked as an
//! estimate by its columns' names: `time_est_ns`, `time_est_low_ns`,
//! `time_est_high_ns` (the file's last three).

use crate::analysis::estimate::{Interval, Options, estimate};
use crate::base::board::Board;
use crate::base::search::Limits;
use crate::base::strategy::{Outcome, Strategy};
use crate::measure::Measurement;

/// The columns after the time columns.
pub(crate) const COLUMNS: [&str; 3] = ["nodes_est", "nodes_est_low", "nodes_est_high"];

/// The time of the whole search, estimated: `COLUMNS` × the cut-off run's
/// time per node (the file's last columns).
pub const TIME_COLUMNS: [&str; 3] = ["time_est_ns", "time_est_low_ns", "time_est_high_ns"];

/// The estimated time (ns) of a cut-off run's whole search: its estimated
/// nodes × `ns` ÷ `nodes`, the measured time per node of the run the budget
/// stopped (a rung's cost per node barely changes with depth, so the part
/// it did not search costs about the same per node).
pub fn time(e: &Interval, ns: f64, nodes: u64) -> Option<Interval> {
    if nodes == 0 || !ns.is_finite() {
        return None;
    }
    let per_node = ns / nodes as f64;
    Some(Interval {
        estimate: e.estimate * per_node,
        low: e.low * per_node,
        high: e.high * per_node,
    })
}

/// The three time fields (ns, one decimal; empty when there is no estimate).
pub(crate) fn time_fields(t: &Option<Interval>) -> [String; 3] {
    match t {
        Some(i) => [i.estimate, i.low, i.high].map(|x| format!("{x:.1}")),
        None => Default::default(),
    }
}

/// The estimated nodes of a run the budget cut off (its counted nodes are
/// the budget); `None` for every other run, and for a cut-off run whose
/// visited tree is not known (several solutions, a rung that is not
/// row-major) or whose rung cannot be probed. In whole nodes, as
/// `results.csv` holds it, so that a report drawn now and one redrawn from
/// the file say the same.
pub(crate) fn of_cut_off(strategy: Strategy, board: &Board, m: &Measurement) -> Option<Interval> {
    if m.outcome != Outcome::BudgetExceeded {
        return None;
    }
    let budget = m.counts.nodes;
    let limits = Limits::solve(Some(budget));
    estimate(
        strategy,
        board,
        limits,
        m.counts,
        Options::for_budget(budget),
    )
    .ok()
    .map(|e| {
        let i = e.nodes();
        Interval {
            estimate: i.estimate.round(),
            low: i.low.round(),
            high: i.high.round(),
        }
    })
}

/// The three CSV fields (whole nodes; empty when there is no estimate).
pub fn fields(e: &Option<Interval>) -> [String; 3] {
    match e {
        Some(i) => [i.estimate, i.low, i.high].map(|x| format!("{:.0}", x.round())),
        None => Default::default(),
    }
}

/// Reads the three fields back; `Err` names what is wrong.
pub fn parse(fields: [&str; 3]) -> Result<Option<Interval>, String> {
    parse_named(fields, COLUMNS)
}

/// Reads three fields named `names` back (all empty: none).
pub(crate) fn parse_named(fields: [&str; 3], names: [&str; 3]) -> Result<Option<Interval>, String> {
    if fields.iter().all(|f| f.is_empty()) {
        return Ok(None);
    }
    let mut v = [0.0; 3];
    for (k, f) in fields.iter().enumerate() {
        v[k] = f
            .parse::<f64>()
            .map_err(|_| format!("column {}: {f:?} is not a number", names[k]))?;
    }
    Ok(Some(Interval {
        estimate: v[0],
        low: v[1],
        high: v[2],
    }))
}
