//! `trace`: watch a search unfold — its events from any step on, its totals,
//! the shape of its tree (nodes per depth, as text or as a log-scale chart
//! of several strategies overlaid) and, for a small search, the tree itself.
//! The searches are [`crate::analysis::trace`]'s, the text [`crate::export::present::trace`]'s.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;
use clap::Args;

use crate::analysis::trace::{MAX_STEPS, trace_window_showing, whole_tree};
use crate::base::strategy::{Outcome, Strategy};
use crate::cli::args::MeasureBudget;
use crate::cli::progress::Bar;
use crate::export::chart::trace as chart;
use crate::export::present::trace as text;
use crate::io::input::pick;

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
        out.push_str(&text::heading(&t, &source, args.puzzle, &puzzle));
        out.push('\n');
        out.push_str(&text::decisions(b, &t));
        out.push('\n');
        out.push_str(&text::totals(&t));
        if args.depth_histogram {
            out.push('\n');
            out.push_str(&text::histogram_text(t.tracer.histogram()));
        }
        if args.tree {
            out.push('\n');
            out.push_str(&text::tree(b, &whole_tree(b, budget, &t)?));
        }
        crate::io::output::print(&out)?;
        all_solved &= t.outcome == Outcome::Solved;
        series.push(chart::Series {
            strategy,
            outcome: t.outcome,
            histogram: t.tracer.histogram().to_vec(),
        });
    }
    if let Some(path) = &args.chart {
        let drawn = chart::render(&text::chart_title(&source, args.puzzle, &puzzle), &series)?;
        let bytes = if png {
            drawn.png
        } else {
            drawn.svg.into_bytes()
        };
        crate::io::output::write_file(path, &bytes)?;
        crate::io::output::print(&format!("\nchart written to {}\n", path.display()))?;
    }
    Ok(if all_solved {
        ExitCode::SUCCESS
    } else {
        super::unsolved("the puzzle has no solution or exceeded the budget")
    })
}
