//! `trace`: watch one search unfold — its first events, its totals and the
//! shape of its tree (nodes per depth), as text or as an SVG chart.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;
use clap::Args;

use crate::board::Board;
use crate::counters::Counts;
use crate::format::Puzzle;
use crate::input;
use crate::strategy::{Outcome, Strategy};
use crate::trace::{Trace, trace};

use super::EXIT_UNSOLVED;
use super::args::MeasureBudget;
use crate::present::{duration, markdown, thousands};

/// Largest `--steps`: the event buffer is allocated up front.
pub const MAX_STEPS: usize = 1_000_000;
/// Most rows in the text histogram (every 9×9 depth gets its own); deeper trees are shown in depth ranges.
const HISTOGRAM_ROWS: usize = 82;
/// Width of the longest histogram bar, in characters.
const BAR_WIDTH: usize = 50;
/// Deepest indentation drawn in the decision list (deeper levels are elided).
const MAX_INDENT: usize = 40;

#[derive(Debug, Args)]
pub struct TraceArgs {
    /// Strategy to trace.
    #[arg(long, short, default_value_t = Strategy::DEFAULT)]
    pub strategy: Strategy,
    /// How many events (placements, undos, forced cells, dead ends, solutions) to print.
    #[arg(long, short = 'k', default_value_t = 30)]
    pub steps: usize,
    /// Print the number of nodes at each depth: the shape of the tree.
    #[arg(long)]
    pub depth_histogram: bool,
    /// Also draw nodes per depth as an SVG chart into this file.
    #[arg(long, value_name = "FILE.svg")]
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
    if let Some(chart) = &args.chart
        && chart.extension().and_then(|e| e.to_str()) != Some("svg")
    {
        bail!(
            "--chart {}: trace draws SVG charts only; give a file name ending in .svg",
            chart.display()
        );
    }
    let (source, puzzle) = pick(args.file.as_deref(), args.puzzle)?;
    if let Err(why) = args.strategy.check_size(puzzle.board.size()) {
        bail!("{why} (puzzle at line {})", puzzle.line);
    }
    let t = trace(
        args.strategy,
        &puzzle.board,
        args.budget.budget.get(),
        args.steps,
    )?;

    let mut out = String::new();
    let b = &puzzle.board;
    let blanks = b.cells().iter().filter(|&&v| v == 0).count();
    let name = puzzle
        .name
        .as_ref()
        .map_or(String::new(), |n| format!(" \"{n}\""));
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
    crate::output::print(&out)?;
    if let Some(path) = &args.chart {
        let title = format!(
            "{}: nodes per depth ({} nodes in all)",
            t.strategy,
            thousands(t.counts.nodes)
        );
        crate::output::write_file(path, histogram_svg(&title, t.tracer.histogram()).as_bytes())?;
        crate::output::print(&format!("chart written to {}\n", path.display()))?;
    }
    Ok(if t.outcome == Outcome::Solved {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_UNSOLVED)
    })
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
        let _ = writeln!(
            out,
            "(no events shown: --steps is 0 or the search had none)"
        );
        return out;
    }
    let _ = writeln!(out, "  step  depth  event (indented by depth)");
    for e in events {
        let depth = e.depth as usize;
        let indent = if depth > MAX_INDENT {
            format!("{}» ", "·".repeat(MAX_INDENT - 2))
        } else {
            "·".repeat(depth)
        };
        let _ = writeln!(out, "{:>6} {depth:>6}  {indent}{}", e.step, e.describe(g));
    }
    let _ = writeln!(
        out,
        "(first {} of {} events)",
        thousands(events.len() as u64),
        thousands(t.tracer.total())
    );
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

/// A self-contained SVG bar chart of nodes per depth (text is left to the
/// viewer's fonts, so no font is embedded or needed here).
pub fn histogram_svg(title: &str, hist: &[u64]) -> String {
    let (w, h) = (800.0, 450.0);
    let (left, right, top, bottom) = (80.0, 20.0, 40.0, 50.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let max = hist.iter().copied().max().unwrap_or(0).max(1);
    let n = hist.len().max(1);
    let bw = pw / n as f64;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="24" text-anchor="middle" font-size="16">{}</text>"#,
        w / 2.0,
        escape(title)
    );
    // Horizontal grid lines and y ticks at 0, 25, 50, 75, 100% of the maximum.
    for k in 0..=4 {
        let v = max as f64 * k as f64 / 4.0;
        let y = top + ph - ph * k as f64 / 4.0;
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            left + pw,
            left - 6.0,
            y + 4.0,
            thousands(v.round() as u64)
        );
    }
    for (d, &count) in hist.iter().enumerate() {
        let bh = ph * count as f64 / max as f64;
        let _ = writeln!(
            s,
            r##"<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="#4e79a7"><title>depth {d}: {} nodes</title></rect>"##,
            left + bw * d as f64,
            top + ph - bh,
            (bw * 0.9).max(0.5),
            bh,
            thousands(count)
        );
    }
    // About ten depth labels along the x axis.
    let step = n.div_ceil(10).max(1);
    for d in (0..n).step_by(step) {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{d}</text>"#,
            left + bw * (d as f64 + 0.5),
            top + ph + 16.0
        );
    }
    let _ = writeln!(
        s,
        r#"<line x1="{left}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="black"/>"#,
        top + ph,
        left + pw,
        top + ph
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">depth (open guesses on the path)</text>"#,
        left + pw / 2.0,
        h - 10.0
    );
    let _ = writeln!(
        s,
        r#"<text x="16" y="{:.1}" text-anchor="middle" transform="rotate(-90 16 {:.1})">search nodes</text>"#,
        top + ph / 2.0,
        top + ph / 2.0
    );
    s.push_str("</svg>\n");
    s
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
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

    #[test]
    fn svg_has_one_bar_per_depth() {
        let svg = histogram_svg("a < b", &[1, 3, 2]);
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("a &lt; b"));
        assert_eq!(svg.matches("<title>depth").count(), 3);
        assert!(svg.trim_end().ends_with("</svg>"));
    }
}
