//! `solve` and `count` on one puzzle: the run (counters off, answer
//! verified), and what the commands say about it on stderr — with
//! `--stats` its counters and time (measured as every command measures),
//! and for a run the budget cut off the estimate of its whole search.

use crate::analysis::estimate::{Options, estimate};
use crate::base::counters::Counts;
use crate::base::format::Puzzle;
use crate::base::search::{End, Limits};
use crate::base::strategy::{Run, Strategy};
use crate::export::present::{nodes_estimate, thousands, time_estimate};
use crate::measure::{Measurement, Method, measure};

/// Solves puzzle number `index` with `requested` (by default the size's
/// default strategy); with `stats`, also measures it. The run, and the
/// lines to say on stderr about it.
pub fn solve_one(
    requested: Option<Strategy>,
    puzzle: &Puzzle,
    limits: Limits,
    stats: bool,
    index: usize,
) -> anyhow::Result<(Run, Vec<String>)> {
    let size = puzzle.board.size();
    let strategy = requested.unwrap_or_else(|| Strategy::default_for(size));
    if let Err(why) = strategy.check_size(size) {
        anyhow::bail!(
            "{why} (puzzle {index}, line {}); omit --strategy for the default",
            puzzle.line
        );
    }
    let run = strategy.run_timed(&puzzle.board, limits)?;
    let mut notes = Vec::new();
    let mut cut = (run.end == End::BudgetExceeded).then_some((run.counts, None));
    if stats {
        let m = measure(strategy, &puzzle.board, limits, &Method::DEFAULT)?;
        notes.push(stats_line(index, puzzle.line, &m));
        if let Some(c) = &mut cut {
            let per_node = m.timing.map(|t| t.ns() / m.counts.nodes.max(1) as f64);
            *c = (m.counts, per_node);
        }
    }
    if let Some((counts, per_node)) = cut {
        let note = cut_off_note(strategy, puzzle, limits, counts, per_node);
        notes.push(format!("puzzle {index} (line {}): {note}", puzzle.line));
    }
    Ok((run, notes))
}

/// How a count contradicts the `# solutions: n` line of its file ("the
/// file says …, but it has …"), if it does.
pub fn contradicts(run: &Run, n: u64) -> Option<String> {
    let counted = match run.end {
        End::Exhausted if run.solutions != n => run.solutions.to_string(),
        End::SolutionLimit if run.solutions > n => format!("at least {}", run.solutions),
        _ => return None,
    };
    Some(format!(
        "the file says `# solutions: {n}`, but it has {counted}"
    ))
}

/// One line of counters for `--stats`, and the time of one run (median
/// per-thread CPU time of the uncounted runs).
fn stats_line(index: usize, line: usize, m: &Measurement) -> String {
    let counters: Vec<String> = Counts::NAMES
        .iter()
        .zip(m.counts.values())
        .map(|(name, v)| format!("{name}={v}"))
        .collect();
    let time = m.timing.map_or("-".to_string(), |t| {
        crate::export::present::fmt_time(t.ns())
    });
    format!(
        "puzzle {index} (line {line}): {} {} time={time}",
        m.outcome,
        counters.join(" ")
    )
}

/// What `solve` and `count` say about a run the budget cut off: the
/// estimate of the whole search, and (when the run was timed, as with
/// `--stats`) its time as nodes × the run's measured time per node.
fn cut_off_note(
    strategy: Strategy,
    puzzle: &Puzzle,
    limits: Limits,
    counts: Counts,
    ns_per_node: Option<f64>,
) -> String {
    let options = Options::for_budget(limits.node_budget);
    let head = format!("cut off at {} nodes", thousands(counts.nodes));
    match estimate(strategy, &puzzle.board, limits, counts, options) {
        Ok(e) => {
            let mut s = format!(
                "{head}; whole search: {} ({} probes, {} probe nodes)",
                nodes_estimate(&e.nodes()),
                thousands(e.runs),
                thousands(e.effort)
            );
            if let Some(ns) = ns_per_node {
                s.push_str("; ");
                s.push_str(&time_estimate(e.nodes().estimate, ns));
            }
            s
        }
        Err(why) => format!("{head}; no estimate: {why}"),
    }
}
