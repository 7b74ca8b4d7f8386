//! `diff`'s rows as text: an aligned table for the terminal, Markdown, CSV
//! and JSON (the same rows, serialized). Presenting only.

use std::fmt::Write as _;

use crate::analysis::diff::{Diff, DiffRow, NodeChange, Severity, Verdict};
use crate::export::present::{Align, Table, fmt_time, sig, thousands};
use crate::io::csv_file::serialized;

/// Column titles of the table and the Markdown.
pub(crate) const COLUMNS: [&str; 8] = [
    "dataset",
    "strategy",
    "puzzles",
    "nodes OLD → NEW",
    "changed trees",
    "time OLD → NEW",
    "NEW ÷ OLD [95%]",
    "verdict",
];

/// Changed puzzles listed per row in the text (all are in the CSV and JSON).
const LISTED: usize = 10;

fn nodes(row: &DiffRow) -> String {
    match (row.old_nodes, row.new_nodes) {
        (Some(a), Some(b)) if a == b && row.changed_trees == 0 => {
            format!("{} (same)", thousands(a))
        }
        (Some(a), Some(b)) => {
            let pct = if a > 0 {
                format!(" ({:+.1}%)", (b as f64 / a as f64 - 1.0) * 100.0)
            } else {
                String::new()
            };
            format!("{} → {}{pct}", thousands(a), thousands(b))
        }
        (a, b) => format!(
            "{} → {}",
            a.map_or_else(|| "–".to_string(), thousands),
            b.map_or_else(|| "–".to_string(), thousands)
        ),
    }
}

/// The cells of one row, in `COLUMNS` order.
pub fn cells(row: &DiffRow) -> Vec<String> {
    let time = match (row.old_ns, row.new_ns) {
        (Some(a), Some(b)) => format!("{} → {}", fmt_time(a), fmt_time(b)),
        _ => "–".to_string(),
    };
    let r = match (row.ratio, row.ratio_low, row.ratio_high) {
        (Some(r), Some(lo), Some(hi)) => format!("×{} [{}, {}]", sig(r), sig(lo), sig(hi)),
        _ => "–".to_string(),
    };
    let verdict = match row.verdict {
        Verdict::Faster | Verdict::Slower => {
            let pct = row.ratio.map_or(0.0, |r| (r - 1.0) * 100.0);
            format!("{} ({pct:+.1}%)", row.verdict.name())
        }
        v => v.name().to_string(),
    };
    vec![
        row.dataset.clone(),
        row.pair(),
        thousands(row.puzzles),
        nodes(row),
        format!("{} of {}", row.changed_trees, row.puzzles),
        time,
        r,
        verdict,
    ]
}

/// How the figures were made, in one paragraph.
pub fn method(diff: &Diff) -> String {
    format!(
        "NEW ÷ OLD: the geometric mean over the puzzles timed in both runs of each puzzle's time \
         ratio (its median per-thread CPU time), with a {:.0}% bootstrap interval over puzzles \
         ({} resamples, seed {}; one puzzle alone: the range of its samples) widened by a \
         run-to-run spread of ±{}% (--noise; by default 10%, 30% when either run was busy; \
         added in quadrature on the log scale), since a \
         drift of a whole run is in no resample. Verdict: faster or slower only when the whole \
         interval lies below or above ×1, else no change within noise. Node counts are exact: a \
         changed tree is a puzzle whose nodes or outcome differ.",
        diff.level * 100.0,
        thousands(diff.resamples as u64),
        diff.seed,
        diff.noise * 100.0
    )
}

fn change_line(c: &NodeChange) -> String {
    let n = |x: Option<u64>| x.map_or_else(|| "–".to_string(), thousands);
    let name = if c.name.is_empty() {
        String::new()
    } else {
        format!(" {}", c.name)
    };
    let by = match (c.old_nodes, c.new_nodes) {
        (Some(a), Some(b)) if a > 0 => format!(
            " ({}{} nodes, ×{})",
            if b >= a { "+" } else { "−" },
            thousands(a.abs_diff(b)),
            sig(b as f64 / a as f64)
        ),
        _ => String::new(),
    };
    let outcome = if c.old_outcome == c.new_outcome {
        String::new()
    } else {
        format!(", {} → {}", c.old_outcome, c.new_outcome)
    };
    format!(
        "#{}{name}: {} → {}{by}{outcome}",
        c.index,
        n(c.old_nodes),
        n(c.new_nodes)
    )
}

/// The changed trees, per row, at most [`LISTED`] puzzles each; the
/// differences between the runs; what was left out. `bullet` starts a line.
fn notes(diff: &Diff, bullet: &str) -> String {
    let mut out = String::new();
    for row in diff.rows.iter().filter(|r| r.changed_trees > 0) {
        let _ = writeln!(
            out,
            "{bullet}changed trees, {} × {}: {} of {} puzzles",
            row.dataset,
            row.pair(),
            row.changed_trees,
            row.puzzles
        );
        for c in diff.changes_of(row).take(LISTED) {
            let _ = writeln!(out, "  {bullet}{}", change_line(c));
        }
        if row.changed_trees > LISTED as u64 {
            let _ = writeln!(
                out,
                "  {bullet}... and {} more (node-changes.csv of --out, or --json)",
                row.changed_trees - LISTED as u64
            );
        }
    }
    for line in &diff.left_out {
        let _ = writeln!(out, "{bullet}left out: {line}");
    }
    out
}

/// One line per difference between the two runs' `meta.csv`.
/// `--fail-if-slower PCT`'s line: the rows slower than PCT percent with
/// their whole interval, each with its ratio and interval.
pub(crate) fn slower(diff: &Diff, pct: f64) -> Option<String> {
    let slow = diff.slower_than(pct);
    let names: Vec<String> = slow
        .iter()
        .map(|r| {
            format!(
                "{} × {} ×{} [{}, {}]",
                r.dataset,
                r.new_strategy,
                sig(r.ratio.unwrap_or(f64::NAN)),
                sig(r.ratio_low.unwrap_or(f64::NAN)),
                sig(r.ratio_high.unwrap_or(f64::NAN))
            )
        })
        .collect();
    (!names.is_empty()).then(|| {
        format!(
            "slower than {pct}% (--fail-if-slower): {}",
            names.join("; ")
        )
    })
}

pub fn differences(diff: &Diff) -> Vec<String> {
    diff.differences
        .iter()
        .map(|d| {
            let what = match d.severity {
                Severity::Warning => "warning: times less comparable,",
                Severity::Note => "note: the runs differ in",
            };
            format!("{what} {}: OLD {:?}, NEW {:?}", d.key, d.old, d.new)
        })
        .collect()
}

/// The terminal's text: an aligned table, the changed trees, the method.
pub fn table(diff: &Diff) -> String {
    // Every column left-aligned but the puzzle count.
    let mut out = Table::new(COLUMNS, COLUMNS.len())
        .align(2, Align::Right)
        .rows(diff.rows.iter().map(cells))
        .text("");
    let notes = notes(diff, "");
    if !notes.is_empty() {
        out.push('\n');
        out.push_str(&notes);
    }
    let _ = write!(out, "\n{}\n", method(diff));
    out
}

/// A Markdown page: the table, the changed trees, the differences and the
/// method (`--markdown`, and `diff.md` of `--out`).
pub fn markdown(diff: &Diff) -> String {
    let rows: Vec<Vec<String>> = diff
        .rows
        .iter()
        .map(|r| {
            cells(r)
                .into_iter()
                .map(|c| c.replace('|', "\\|"))
                .collect()
        })
        .collect();
    let mut out = crate::export::present::markdown(&COLUMNS, 2, rows);
    let notes = notes(diff, "- ");
    if !notes.is_empty() {
        out.push('\n');
        out.push_str(&notes);
    }
    let diffs = differences(diff);
    if !diffs.is_empty() {
        out.push('\n');
        for d in diffs {
            let _ = writeln!(out, "- {d}");
        }
    }
    let _ = write!(out, "\n{}\n", method(diff));
    out
}

/// `diff.csv`: one record per [`DiffRow`].
pub fn csv(diff: &Diff) -> anyhow::Result<String> {
    serialized(&diff.rows)
}

/// `node-changes.csv`: one record per [`NodeChange`] (header even when none).
pub(crate) fn node_changes_csv(diff: &Diff) -> anyhow::Result<String> {
    if diff.node_changes.is_empty() {
        return Ok("dataset,strategy,new_strategy,index,name,old_outcome,new_outcome,old_nodes,new_nodes\n".to_string());
    }
    serialized(&diff.node_changes)
}
