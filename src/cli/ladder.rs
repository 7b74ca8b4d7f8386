//! `ladder`: run strategies over puzzle files and print Markdown tables of
//! exact counters and times — per puzzle, or as a distribution per file.
//! The tables in `docs/` are this command's output.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;
use clap::Args;

use crate::analysis::tour::{self, Labelled, LadderPlan};
use crate::base::search::Limits;
use crate::base::strategy::Outcome;
use crate::export::present::{ladder_distributions, ladder_puzzles};
use crate::io::dataset::Dataset;
use crate::measure::Conditions;

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
    let limits = Limits::count(args.run.limit.limit, args.run.budget.budget.get());
    let method = args.run.method();
    let sets = args
        .files
        .iter()
        .map(|p| Dataset::load_sampled(p, args.run.sample.sample()))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let plan = LadderPlan {
        strategies: &strategies,
        limits,
        method: &method,
        first: args.first.unwrap_or(usize::MAX),
        symmetries: args.symmetries,
    };
    let named: Vec<(&Path, &Dataset)> =
        args.files.iter().map(PathBuf::as_path).zip(&sets).collect();
    let progress = Bar::new("ladder");
    let mut conditions = Conditions::new(1);
    conditions.sample_load();
    let out = tour::ladder(&plan, &named, &progress);
    progress.finish();
    let out = out?;
    let all: Vec<&Labelled> = out.iter().flat_map(|(_, r)| r).collect();
    conditions.sample_load();
    for t in all.iter().filter_map(|l| l.m.timing.as_ref()) {
        conditions.add(t);
    }
    super::note_conditions(&conditions);
    if all.iter().all(|l| l.m.outcome == Outcome::Unsupported) {
        let sizes: Vec<String> = sets
            .iter()
            .flat_map(|d| d.puzzles.first())
            .map(|p| p.board.size().to_string())
            .collect();
        bail!(
            "nothing to measure: no chosen strategy supports the puzzles' size ({})",
            sizes.join(", ")
        );
    }
    let all_solved = all
        .iter()
        .all(|l| matches!(l.m.outcome, Outcome::Solved | Outcome::Unsupported));
    if args.json && args.dist {
        let dists = tour::distributions(&out, &strategies);
        crate::io::output::print(&crate::export::present::json(&dists)?)?;
    } else if args.json {
        let rows: Vec<tour::LadderRow> = all.iter().map(|l| tour::LadderRow::of(l)).collect();
        crate::io::output::print(&crate::export::present::json(&rows)?)?;
    } else if args.dist {
        crate::io::output::print(&ladder_distributions(&out, &strategies))?;
    } else {
        let mut text = ladder_puzzles(&all);
        text.push_str(&crate::export::present::ladder_estimates(&all));
        crate::io::output::print(&text)?;
    }
    Ok(if all_solved {
        ExitCode::SUCCESS
    } else {
        super::unsolved("a puzzle had no solution or exceeded the budget")
    })
}
