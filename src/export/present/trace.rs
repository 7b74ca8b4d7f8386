//! The text of `trace`: the event listing, the totals, the nodes-per-depth
//! histogram and the drawn search tree. The searches are run by
//! [`crate::analysis::trace`](mod@crate::analysis::trace); this only turns their data into lines.

use std::fmt::Write as _;

use crate::analysis::trace::{Leaf, MAX_TREE_NODES, Trace, Tree, TreeView};
use crate::base::board::Board;
use crate::base::counters::Counts;
use crate::base::format::Puzzle;
use crate::base::strategy::Outcome;

use super::{fmt_time, markdown, thousands};

/// Most rows in the text histogram (every 9×9 depth gets its own); deeper trees are shown in depth ranges.
const HISTOGRAM_ROWS: usize = 82;
/// Width of the longest histogram bar, in characters.
const BAR_WIDTH: usize = 50;
/// Levels of indentation in the decision list before it folds: a deeper
/// event is marked `»30`, `»60`, ... and indented by the rest, so a listing
/// stays readable at any depth (the depth column gives the number).
const FOLD: usize = 30;

/// The two lines that open a strategy's trace: what is traced, on which
/// puzzle of which source, and the strategy's one-line summary.
pub fn heading(t: &Trace, source: &str, number: usize, puzzle: &Puzzle) -> String {
    let b = &puzzle.board;
    let blanks = b.cells().iter().filter(|&&v| v == 0).count();
    let name = puzzle
        .name
        .as_ref()
        .map_or(String::new(), |n| format!(" \"{n}\""));
    let mut out = format!(
        "trace: {} on {source}, puzzle {number} (line {}){name}: {}, {} givens, {blanks} empty cells\n{}: {}\n",
        t.strategy,
        puzzle.line,
        b.size(),
        b.clues(),
        t.strategy,
        t.strategy.summary()
    );
    if !t.strategy.info().guesses_place {
        out.push_str(&format!(
            "note: {} guesses by keeping one way of a digit through a band or stack, which writes no \
             cell: its guesses are the `way` lines (a level of depth each, like a placement), and \
             `undo way` takes back what was forced under one\n",
            t.strategy
        ));
    }
    out
}

/// One search as `trace` prints it: heading, the events of its window,
/// totals, then (when asked) nodes per depth and the tree.
pub fn section(
    t: &Trace,
    histogram: bool,
    tree: Option<&TreeView>,
    source: &str,
    number: usize,
    puzzle: &Puzzle,
) -> String {
    let b = &puzzle.board;
    let mut parts = vec![
        heading(t, source, number, puzzle),
        decisions(b, t),
        totals(t),
    ];
    if histogram {
        parts.push(histogram_text(t.tracer.histogram()));
    }
    parts.extend(tree.map(|view| self::tree(b, view)));
    parts.join("\n")
}

/// The title of `trace --chart`: the source, the puzzle's number and name.
pub(crate) fn chart_title(source: &str, number: usize, puzzle: &Puzzle) -> String {
    let name = puzzle
        .name
        .as_ref()
        .map_or(String::new(), |n| format!(" \"{n}\""));
    format!("{source}, puzzle {number}{name}")
}

/// The search tree, one line per node, or why it is not drawn.
pub fn tree(b: &Board, view: &TreeView) -> String {
    match view {
        TreeView::TooLarge { nodes } => format!(
            "search tree: not drawn: {} nodes, more than the {MAX_TREE_NODES} a drawing shows \
             (try a smaller puzzle, a stronger strategy, or --budget {MAX_TREE_NODES})\n",
            thousands(*nodes)
        ),
        TreeView::Whole { tree, nodes } => tree_text(b, tree, *nodes),
    }
}

/// One line per node: `r1c2 = 2  (guess from {2,3})  ✗ r1c4 has no
/// candidate`. A node's only child goes on the next line at the same
/// indentation; the children of a node that branches get `├─`/`└─`, so the
/// width grows with the branchings on a path, not with its depth.
fn tree_text(b: &Board, tree: &Tree, nodes: u64) -> String {
    let g = b.geometry();
    let mut out = format!(
        "search tree ({} nodes, {} deep; indented where a node has several children; \
         ✗ dead end, ✓ solution, +k: cells forced in the node):\n",
        thousands(nodes),
        tree.height()
    );
    fn line(
        out: &mut String,
        g: &crate::base::board::Geometry,
        tree: &Tree,
        i: usize,
        first: &str,
        rest: &str,
    ) {
        let n = &tree.nodes[i];
        let what = n.placed.map_or("root (the givens)".to_string(), |e| {
            let d = e.describe(g);
            match d.strip_prefix("way   ") {
                Some(way) => format!("way {way}"),
                None => d.strip_prefix("place ").unwrap_or(&d).to_string(),
            }
        });
        let _ = write!(out, "{first}{what}");
        if n.forced > 0 {
            let _ = write!(out, "  +{}", n.forced);
        }
        match n.leaf {
            Some(Leaf::DeadEnd(why)) => {
                let _ = write!(
                    out,
                    "  ✗ {}",
                    crate::analysis::trace::describe_dead_end(&why, g)
                );
            }
            Some(Leaf::Solution) => out.push_str("  ✓ solution"),
            None => {}
        }
        out.push('\n');
        match n.children[..] {
            [] => {}
            [only] => line(out, g, tree, only, rest, rest),
            ref many => {
                for (k, &c) in many.iter().enumerate() {
                    let last = k + 1 == many.len();
                    let (f, r) = if last {
                        ("└─ ", "   ")
                    } else {
                        ("├─ ", "│  ")
                    };
                    line(
                        out,
                        g,
                        tree,
                        c,
                        &format!("{rest}{f}"),
                        &format!("{rest}{r}"),
                    );
                }
            }
        }
    }
    line(&mut out, g, tree, 0, "", "");
    out
}

/// The event list: step, depth, and the event indented by depth.
pub fn decisions(b: &Board, t: &Trace) -> String {
    let g = b.geometry();
    let events = t.tracer.events();
    let mut out = String::new();
    if events.is_empty() {
        let why = if t.tracer.from() > t.tracer.total() && t.tracer.total() > 0 {
            format!(
                "the search had {} events, --from {} is past them",
                thousands(t.tracer.total()),
                t.tracer.from()
            )
        } else {
            "--steps is 0 or the search had none".to_string()
        };
        let _ = writeln!(out, "(no events shown: {why})");
        return out;
    }
    let _ = writeln!(
        out,
        "     step  depth  event (indented by depth, folded every {FOLD} levels)"
    );
    for e in events {
        let depth = e.depth as usize;
        let indent = match depth / FOLD {
            0 => "·".repeat(depth),
            fold => format!("»{} {}", fold * FOLD, "·".repeat(depth % FOLD)),
        };
        // Nine digits of step: a listing started with --from deep in a
        // search of 10⁸ events keeps its columns.
        let _ = writeln!(out, "{:>9} {depth:>6}  {indent}{}", e.step, e.describe(g));
    }
    let (first, last) = (t.tracer.from(), t.tracer.from() + events.len() as u64 - 1);
    let _ = if first == 1 {
        writeln!(
            out,
            "(first {} of {} events)",
            thousands(events.len() as u64),
            thousands(t.tracer.total())
        )
    } else {
        writeln!(
            out,
            "(events {}-{} of {})",
            thousands(first),
            thousands(last),
            thousands(t.tracer.total())
        )
    };
    out
}

/// Outcome, every counter, and the (tracing) time.
pub fn totals(t: &Trace) -> String {
    let outcome = match t.outcome {
        Outcome::Solved => "solved (first solution, verified)",
        Outcome::NoSolution => "no solution",
        Outcome::BudgetExceeded => "budget exceeded",
        Outcome::Unsupported => "not run: the strategy does not support this size",
        // Outside programs' outcomes; a trace is of a rung.
        o @ (Outcome::WrongAnswer | Outcome::TimeLimit | Outcome::Crashed | Outcome::BadOutput) => {
            o.name()
        }
    };
    let mut out = format!("result: {outcome}\n");
    let row: Vec<String> = t.counts.values().iter().map(|&v| thousands(v)).collect();
    out.push_str(&markdown(&Counts::NAMES, 0, vec![row]));
    let _ = writeln!(
        out,
        "time with tracing on: {} (a timing run is `sudoku-lab ladder`)",
        fmt_time(t.elapsed.as_nanos() as f64)
    );
    out
}

/// Depth rows (or depth ranges for deep trees) with bars scaled to the widest.
pub(crate) fn histogram_text(hist: &[u64]) -> String {
    let rows = buckets(hist, HISTOGRAM_ROWS);
    let max = rows.iter().map(|r| r.2).max().unwrap_or(0).max(1);
    let mut out = String::from("nodes per depth (the shape of the tree):\n");
    let labels: Vec<String> = rows
        .iter()
        .map(|&(lo, hi, _)| {
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}-{hi}")
            }
        })
        .collect();
    let lw = labels.iter().map(String::len).max().unwrap_or(1).max(5);
    let counts: Vec<String> = rows.iter().map(|r| thousands(r.2)).collect();
    let cw = counts.iter().map(String::len).max().unwrap_or(1).max(5);
    let _ = writeln!(out, "{:>lw$}  {:>cw$}", "depth", "nodes");
    for ((label, count), &(_, _, n)) in labels.iter().zip(&counts).zip(&rows) {
        let len = if n == 0 {
            0
        } else {
            ((n as f64 / max as f64) * BAR_WIDTH as f64).ceil() as usize
        };
        let _ = writeln!(out, "{label:>lw$}  {count:>cw$}  {}", "█".repeat(len));
    }
    out
}

/// Groups depths into at most `rows` equal ranges: `(first, last, nodes)`.
fn buckets(hist: &[u64], rows: usize) -> Vec<(usize, usize, u64)> {
    let width = hist.len().div_ceil(rows.max(1)).max(1);
    hist.chunks(width)
        .enumerate()
        .map(|(i, c)| (i * width, i * width + c.len() - 1, c.iter().sum()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_every_depth_once() {
        let hist: Vec<u64> = (1..=130).collect();
        let b = buckets(&hist, 64);
        assert_eq!(b.len(), 44);
        assert_eq!(b[0], (0, 2, 1 + 2 + 3));
        assert_eq!(b.last().unwrap().1, 129);
        assert_eq!(b.iter().map(|r| r.2).sum::<u64>(), hist.iter().sum::<u64>());
        assert_eq!(buckets(&[5, 7], 64), vec![(0, 0, 5), (1, 1, 7)]);
    }
}
