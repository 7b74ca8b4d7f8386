//! `estimate`: how big is the search the budget cut off? Knuth's random
//! probes through each rung's own search ([`crate::analysis::estimate`]); with
//! `--exact`, every search is also run to the end and the estimates are
//! judged against the truth.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::analysis::estimate::check::{self, Plan};
use crate::analysis::tour;
use crate::export::present::{estimate_rows, estimate_validation};

use crate::cli::args::{MeasureBudget, StrategyList};
use crate::cli::progress::Bar;

#[derive(Debug, Args)]
pub struct EstimateArgs {
    #[command(flatten)]
    pub strategies: StrategyList,
    #[command(flatten)]
    pub budget: MeasureBudget,
    /// Estimate every search, not only the cut-off ones, and also run each
    /// to the end: the table then holds the truth, and a summary says how
    /// often the 95% interval held it.
    #[arg(long)]
    pub exact: bool,
    /// Seed of the probes' random choices (ChaCha8).
    #[arg(long, value_name = "S", default_value_t = crate::analysis::estimate::Options::DEFAULT.seed)]
    pub seed: u64,
    /// Use only the first N puzzles of each file.
    #[arg(long, value_name = "N")]
    pub first: Option<usize>,
    /// Puzzle files (line, grid or compact layout, or CSV).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

pub fn estimate(args: &EstimateArgs) -> anyhow::Result<ExitCode> {
    let Some(budget) = args.budget.budget.get() else {
        anyhow::bail!(
            "--budget unlimited: nothing is cut off, so there is nothing to estimate (give a number of nodes)"
        );
    };
    let puzzles = tour::labelled(&args.files, args.first.unwrap_or(usize::MAX))?;
    let plan = Plan {
        strategies: args.strategies.chosen(),
        budget,
        exact: args.exact,
        seed: args.seed,
    };
    let bar = Bar::new("estimate");
    let rows = check::run(&plan, &puzzles, &bar);
    bar.finish();
    let rows = rows?;
    let mut text = estimate_rows(&rows, args.exact);
    if args.exact {
        text.push_str(&estimate_validation(&check::validate(&rows)));
    }
    crate::io::output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
