//! `trace`: watch a search unfold — its events from any step on, its totals,
//! the shape of its tree (nodes per depth, as text or as a log-scale chart
//! of several strategies overlaid) and, for a small search, the tree itself.
//! The searches are [`crate::analysis::trace`](mod@crate::analysis::trace)'s, the text [`crate::export::present::trace`]'s.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::analysis::trace::window::Watch;
use crate::base::strategy::Strategy;
use crate::cli::args::MeasureBudget;
use crate::cli::progress::Bar;
use crate::export::chart::depth as chart;
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
    let budget = args.budget.budget.get();
    let watch = Watch::new(&args.strategy, args.from, args.steps, budget, args.tree)?;
    let target = args.chart.as_deref().map(chart::Target::of).transpose()?;
    let (source, puzzle) = pick(args.file.as_deref(), args.puzzle)?;
    let mut series = Vec::new();
    // A bar of nodes against the budget while each search runs (on a
    // terminal only), cleared before its listing is printed.
    let bar = |strategy| match budget {
        Some(_) => Bar::new(&format!("trace {strategy}")),
        None => Bar::open_ended(&format!("trace {strategy}"), "nodes"),
    };
    let all_solved = watch.run(&puzzle, bar, |t, tree| {
        let gap = if series.is_empty() { "" } else { "\n" };
        let section = text::section(t, args.depth_histogram, tree, &source, args.puzzle, &puzzle);
        crate::io::output::print(&format!("{gap}{section}"))?;
        series.push(chart::Series::of(t));
        Ok(())
    })?;
    if let Some(target) = target {
        let path = target.write(&text::chart_title(&source, args.puzzle, &puzzle), &series)?;
        crate::io::output::print(&format!("\nchart written to {}\n", path.display()))?;
    }
    Ok(if all_solved {
        ExitCode::SUCCESS
    } else {
        super::unsolved("the puzzle has no solution or exceeded the budget")
    })
}
