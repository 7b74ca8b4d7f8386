//! `ladder`: run strategies over puzzle files and print Markdown tables of
//! exact counters and times — per puzzle, or as a distribution per file.
//! The tables in `docs/` are this command's output.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::analysis::tour::{self, LadderPlan};
use crate::base::search::Limits;
use crate::export::present::{ladder_distributions, ladder_puzzles};

use crate::cli::args::MeasureArgs;
use crate::cli::progress::Bar;

#[derive(Debug, Args)]
pub struct LadderArgs {
    #[command(flatten)]
    pub run: MeasureArgs,
    /// Use only the first N puzzles of each file (after --sample, if given).
    #[arg(long, value_name = "N")]
    pub first: Option<usize>,
    /// Also run every puzzle turned and mirrored (8 ways) and with its row bands reordered.
    #[arg(long)]
    pub symmetries: bool,
    /// One row per file and strategy: the distribution of nodes (percentiles,
    /// decades, puzzles solved without a guess) and the total time.
    #[arg(long)]
    pub dist: bool,
    /// Print the rows as JSON instead of Markdown: per puzzle × strategy
    /// (counters, time), or with --dist per set × strategy (the distribution).
    #[arg(long)]
    pub json: bool,
    /// Puzzle files (line, grid or compact layout, or CSV).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

pub fn ladder(args: &LadderArgs) -> anyhow::Result<ExitCode> {
    let strategies = args.run.strategies.chosen();
    let plan = LadderPlan {
        strategies: &strategies,
        limits: Limits::count(args.run.limit.limit, args.run.budget.budget.get()),
        method: &args.run.method(),
        first: args.first.unwrap_or(usize::MAX),
        symmetries: args.symmetries,
    };
    let progress = Bar::new("ladder");
    let run = tour::ladder_files(&plan, &args.files, args.run.sample.sample(), &progress);
    progress.finish();
    let run = run?;
    super::note_conditions(&run.conditions);
    let all = run.all();
    if args.json && args.dist {
        let dists = tour::distributions(&run.sets, &strategies);
        crate::io::output::print(&crate::export::present::json(&dists)?)?;
    } else if args.json {
        let rows: Vec<tour::LadderRow> = all.iter().map(|l| tour::LadderRow::of(l)).collect();
        crate::io::output::print(&crate::export::present::json(&rows)?)?;
    } else if args.dist {
        crate::io::output::print(&ladder_distributions(&run.sets, &strategies))?;
    } else {
        let mut text = ladder_puzzles(&all);
        text.push_str(&crate::export::present::ladder_estimates(&all));
        crate::io::output::print(&text)?;
    }
    Ok(if run.all_solved() {
        ExitCode::SUCCESS
    } else {
        super::unsolved("a puzzle had no solution or exceeded the budget")
    })
}
