//! Label text of the charts and the report: how a ladder's puzzle set, the
//! rungs left off it and the budget are said in one line.

use crate::analysis::ladder::{FullLadder, Ladder};
use crate::base::strategy::Strategy;
use crate::export::present::numbers::{fmt_count, size_name};

/// Names joined with commas.
pub fn names(list: &[Strategy]) -> String {
    list.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")
}

/// The budget as a phrase: "the 5M-node budget".
pub fn budget_phrase(budget: Option<u64>) -> String {
    match budget {
        Some(b) => format!("the {}-node budget", fmt_count(b as f64)),
        None => "the node budget".to_string(),
    }
}

/// How a ladder's set was chosen, in one line.
pub fn ladder_header(l: &Ladder) -> String {
    format!(
        "{}: {} of {} puzzles, those every rung on this ladder solved{}",
        size_name(l.side),
        l.set,
        l.puzzles,
        left_out_clause("", &ladder_left_out(l, false))
    )
}

/// "; left out: a, b" after what a set or a page holds (`why` after "left
/// out", e.g. " (16x16 not supported)"); empty when nothing is left out.
/// The charts, the report and `replay` say it in these words.
pub fn left_out_clause(why: &str, items: &[String]) -> String {
    if items.is_empty() {
        return String::new();
    }
    format!("; left out{why}: {}", items.join(", "))
}

/// Why the report leaves puzzles of a size out of its ladder set, as a
/// phrase ("none" if it leaves none out). Its parts hold commas, so they
/// part by semicolons.
pub fn left_out(l: &Ladder) -> String {
    let parts = ladder_left_out(l, true);
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join("; ")
    }
}

/// What a ladder's set leaves out, reason by reason: no solution, not
/// finished within the budget (with `by_rung`, how many each rung did not
/// finish: a chart label has no room for it), not run by every rung.
fn ladder_left_out(l: &Ladder, by_rung: bool) -> Vec<String> {
    let mut parts = Vec::new();
    if l.no_solution > 0 {
        parts.push(format!("{} with no solution", l.no_solution));
    }
    if l.unfinished > 0 {
        let by: Vec<String> = l
            .unfinished_by
            .iter()
            .map(|(s, n)| format!("`{}` {n}", s.name()))
            .collect();
        let by = if by_rung {
            format!(" ({})", by.join(", "))
        } else {
            String::new()
        };
        parts.push(format!(
            "{} that some rung did not finish within the budget{by}",
            l.unfinished
        ));
    }
    if l.missing > 0 {
        parts.push(format!("{} not run by every rung", l.missing));
    }
    parts
}

/// The strategies not on a ladder, and why, in one line (empty if none);
/// strategies with the same reason share it.
pub fn ladder_absent(l: &Ladder) -> String {
    let mut parts = Vec::new();
    let mut off = l.off.clone();
    while let Some(&(_, solved)) = off.first() {
        let same: Vec<Strategy> = off.iter().filter(|o| o.1 == solved).map(|o| o.0).collect();
        off.retain(|o| o.1 != solved);
        parts.push(format!(
            "{} (solved {solved} of {}, under half)",
            names(&same),
            l.solvable
        ));
    }
    if !l.not_run.is_empty() {
        parts.push(format!(
            "{} ({} not run {})",
            names(&l.not_run),
            if l.not_run.len() == 1 { "does" } else { "do" },
            size_name(l.side)
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("not on this ladder: {}", parts.join("; "))
    }
}

/// How a size's full-set ladder was chosen, in one line.
pub fn full_set_header(f: &FullLadder) -> String {
    let estimated = f.rungs.iter().filter(|r| r.estimated > 0).count();
    format!(
        "{}: {} of {} puzzles, those where every strategy run on this size finished or was cut off with an estimate; {estimated} of {} strategies include estimated runs",
        size_name(f.side),
        f.set,
        f.puzzles,
        f.rungs.len()
    )
}
