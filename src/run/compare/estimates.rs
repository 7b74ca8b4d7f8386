//! The estimates of cut-off runs in `compare`: a row the budget stopped gets
//! the whole search's size estimated from Knuth's random probes
//! ([`crate::analysis::estimate`]), written as `results.csv`'s columns `nodes_est`,
//! `nodes_est_low`, `nodes_est_high` (after the time columns), and its time
//! estimated as those nodes × the run's measured time per node, marked as an
//! estimate by its columns' names: `time_est_ns`, `time_est_low_ns`,
//! `time_est_high_ns` (the row's schema: [`crate::measure::results`]).

use crate::analysis::estimate::{Options, estimate};
use crate::base::board::Board;
use crate::base::search::Limits;
use crate::base::strategy::{Outcome, Strategy};
use crate::measure::Measurement;
use crate::measure::results::Estimate;

/// The estimated nodes of a run the budget cut off (its counted nodes are
/// the budget); `None` for every other run, and for a cut-off run whose
/// visited tree is not known (several solutions, a rung that is not
/// row-major) or whose rung cannot be probed. In whole nodes, as
/// `results.csv` holds it, so that a report drawn now and one redrawn from
/// the file say the same.
pub(crate) fn of_cut_off(strategy: Strategy, board: &Board, m: &Measurement) -> Option<Estimate> {
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
        Estimate {
            estimate: i.estimate.round(),
            low: i.low.round(),
            high: i.high.round(),
        }
    })
}
