//! `trace`: watch a search unfold — its events from any step on, its totals,
//! the shape of its tree (nodes per depth, as text or as a log-scale chart
//! of several strategies overlaid) and, for a small search, the tree itself.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;
use clap::Args;

use super::progress::Bar;
use crate::board::Board;
use crate::counters::Counts;
use crate::format::Puzzle;
use crate::input;
use crate::strategy::{Outcome, Strategy};
use crate::trace::{Leaf, Trace, Tree, chart, trace_window, trace_window_showing};

use super::args::MeasureBudget;
use crate::present::{duration, markdown, thousands};

/// Largest `--steps`: the event buffer is allocated up front.
pub const MAX_STEPS: usize = 1_000_000;
/// Most rows in the text histogram (every 9×9 depth gets its own); deeper trees are shown in depth ranges.
const HISTOGRAM_ROWS: usize = 82;
/// Width of the longest histogram bar, in characters.
const BAR_WIDTH: usize = 50;
/// Levels of indentation in the decision list before it folds: a deeper
/// event is marked `»30`, `»60`, ... and indented by the rest, so a listing
/// stays readable at any depth (the depth column gives the number).
const FOLD: usize = 30;
/// Most search nodes `--tree` draws (one line each).
pub const MAX_TREE_NODES: u64 = 300;

#[derive(Debug, Args)]
pub struct TraceArgs {
    /// Strategy to trace (repeat, or separate names by commas: each is traced
    /// in turn, and `--chart` overlays them).
    #[arg(
        long,
        short,
        value_name = "NAME",
        value_delimiter = ',',
        default_values_t = [Strategy::DEFAULT]
    )]
    pub strategy: Vec<Strategy>,
    /// How many events (placements, undos, forced cells, dead ends, solutions) to print.
    #[arg(long, short = 'k', default_value_t = 30)]
    pub steps: usize,
    /// Start the listing at event N of the search (1-based): step N printed
    /// is event N of the whole search.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub from: u64,
    /// Print the number of nodes at each depth: the shape of the tree.
    #[arg(long)]
    pub depth_histogram: bool,
    /// Draw the search tree, one line per node (searches of at most 300 nodes).
    #[arg(long)]
    pub tree: bool,
    /// Draw nodes per depth of every strategy traced, overlaid on a log
    /// scale, into this file (SVG or PNG, by its extension).
    #[arg(long, value_name = "FILE.svg|FILE.png")]
    pub chart: Option<PathBuf>,
    #[command(flatten)]
    pub budget: MeasureBudget,
    /// Which puzzle of the file to trace (1-based).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub puzzle: usize,
    /// Puzzle file; standard input if omitted.
    pub file: Option<PathBuf>,
}

pub fn run(args: &TraceArgs) -> anyhow::Result<ExitCode> {
    if args.steps > MAX_STEPS {
        bail!("--steps {} is too large (at most {MAX_STEPS})", args.steps);
    }
    if args.from == 0 {
        bail!("--from counts from 1 (the first event of the search)");
    }
    let png = match args
        .chart
        .as_deref()
        .map(|c| c.extension().and_then(|e| e.to_str()))
    {
        None | Some(Some("svg")) => false,
        Some(Some("png")) => true,
        Some(_) => bail!(
            "--chart {}: give a file name ending in .svg or .png",
            args.chart.as_deref().unwrap_or(Path::new("")).display()
        ),
    };
    let (source, puzzle) = pick(args.file.as_deref(), args.puzzle)?;
    // Each strategy once, in the order given.
    let mut strategies: Vec<Strategy> = Vec::new();
    for &s in &args.strategy {
        if !strategies.contains(&s) {
            strategies.push(s);
        }
    }
    for s in &strategies {
        if let Err(why) = s.check_size(puzzle.board.size()) {
            bail!("{why} (puzzle at line {})", puzzle.line);
        }
    }
    let b = &puzzle.board;
    let budget = args.budget.budget.get();
    let blanks = b.cells().iter().filter(|&&v| v == 0).count();
    let name = puzzle
        .name
        .as_ref()
        .map_or(String::new(), |n| format!(" \"{n}\""));
    let mut series = Vec::new();
    let mut all_solved = true;
    for (i, &strategy) in strategies.iter().enumerate() {
        // A bar of nodes against the budget while the search runs (on a
        // terminal only), cleared before the listing is printed.
        let label = format!("trace {strategy}");
        let bar = match budget {
            Some(_) => Bar::new(&label),
            None => Bar::open_ended(&label, "nodes"),
        };
        let t = trace_window_showing(strategy, b, budget, args.from, args.steps, &bar);
        bar.finish();
        let t = t?;
        let mut out = String::new();
        if i > 0 {
            out.push('\n');
        }
        writeln!(
            out,
            "trace: {} on {source}, puzzle {} (line {}){name}: {}, {} givens, {} empty cells",
            t.strategy,
            args.puzzle,
            puzzle.line,
            b.size(),
            b.clues(),
            blanks
        )?;
        writeln!(out, "{}: {}", t.strategy, t.strategy.summary())?;
        out.push('\n');
        out.push_str(&decisions(b, &t));
        out.push('\n');
        out.push_str(&totals(&t));
        if args.depth_histogram {
            out.push('\n');
            out.push_str(&histogram_text(t.tracer.histogram()));
        }
        if args.tree {
            out.push('\n');
            out.push_str(&tree(b, budget, &t)?);
        }
        crate::output::print(&out)?;
        all_solved &= t.outcome == Outcome::Solved;
        series.push(chart::Series {
            strategy,
            outcome: t.outcome,
            histogram: t.tracer.histogram().to_vec(),
        });
    }
    if let Some(path) = &args.chart {
        let drawn = chart::render(&format!("{source}, puzzle {}{name}", args.puzzle), &series)?;
        let bytes = if png {
            drawn.png
        } else {
            drawn.svg.into_bytes()
        };
        crate::output::write_file(path, &bytes)?;
        crate::output::print(&format!("\nchart written to {}\n", path.display()))?;
    }
    Ok(if all_solved {
        ExitCode::SUCCESS
    } else {
        super::unsolved("the puzzle has no solution or exceeded the budget")
    })
}

/// The search tree, one line per node, or why it is not drawn. Needs every
/// event of the search: when the listing's window did not keep them all, the
/// (deterministic) search runs again with a window of exactly its length.
fn tree(b: &Board, budget: Option<u64>, t: &Trace) -> anyhow::Result<String> {
    let nodes = t.counts.nodes;
    if nodes > MAX_TREE_NODES {
        return Ok(format!(
            "search tree: not drawn: {} nodes, more than the {MAX_TREE_NODES} a drawing shows \
             (try a smaller puzzle, a stronger strategy, or --budget {MAX_TREE_NODES})\n",
            thousands(nodes)
        ));
    }
    let whole;
    let events = if t.tracer.truncated() {
        let total = usize::try_from(t.tracer.total()).unwrap_or(usize::MAX);
        whole = trace_window(t.strategy, b, budget, 1, total)?;
        whole.tracer.events()
    } else {
        t.tracer.events()
    };
    Ok(tree_text(b, &Tree::build(events), nodes))
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
        g: &crate::board::Geometry,
        tree: &Tree,
        i: usize,
        first: &str,
        rest: &str,
    ) {
        let n = &tree.nodes[i];
        let what = n.placed.map_or("root (the givens)".to_string(), |e| {
            let d = e.describe(g);
            d.strip_prefix("place ").unwrap_or(&d).to_string()
        });
        let _ = write!(out, "{first}{what}");
        if n.forced > 0 {
            let _ = write!(out, "  +{}", n.forced);
        }
        match n.leaf {
            Some(Leaf::DeadEnd(why)) => {
                let _ = write!(out, "  ✗ {}", crate::trace::describe_dead_end(&why, g));
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

/// Puzzle number `n` (1-based) of `file` (standard input if `None`), with
/// the name of its source: the puzzle that `trace` and `replay` follow.
pub fn pick(file: Option<&Path>, n: usize) -> anyhow::Result<(String, Puzzle)> {
    if n == 0 {
        bail!("--puzzle counts from 1");
    }
    let source = file.map_or("<stdin>".to_string(), |p| p.display().to_string());
    let mut reader = input::open(file)?;
    let mut seen = 0;
    for puzzle in reader.by_ref() {
        let puzzle = puzzle?;
        seen += 1;
        if seen == n {
            return Ok((source, puzzle));
        }
    }
    if seen == 0 {
        return Err(reader.empty_error().into());
    }
    bail!("{source} holds {seen} puzzle(s); --puzzle {n} does not exist")
}

/// The event list: step, depth, and the event indented by depth.
fn decisions(b: &Board, t: &Trace) -> String {
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
fn totals(t: &Trace) -> String {
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
        duration(t.elapsed.as_nanos() as f64)
    );
    out
}

/// Depth rows (or depth ranges for deep trees) with bars scaled to the widest.
pub fn histogram_text(hist: &[u64]) -> String {
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
