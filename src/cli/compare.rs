//! `compare` and `report`: thin wrappers over [`crate::run::compare`].

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use crate::base::defaults;
use crate::cli::args::MeasureArgs;
use crate::cli::program::ProgramArgs;
use crate::cli::progress::Bar;
use crate::cli::shard::{MergeArgs, ShardArgs};
use crate::run::compare::{self, run::Plan, run::resolve_sources};

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Puzzle file, or the name of a shipped dataset (repeatable; default:
    /// every dataset under datasets/).
    #[arg(long = "dataset", value_name = "PATH_OR_NAME")]
    pub datasets: Vec<String>,
    #[command(flatten)]
    pub run: MeasureArgs,
    #[command(flatten)]
    pub programs: ProgramArgs,
    #[command(flatten)]
    pub shard: ShardArgs,
    /// Worker threads (default: all hardware threads). Row order and counters
    /// do not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
    /// Report folder (replaced once the new report is complete). Default:
    /// `my-reports` for the default selection (every shipped dataset and
    /// strategy, default budget, no sample); any other selection writes
    /// `my-reports/runs/SELECTION`, so it never replaces the full report.
    /// (`reports` holds the committed sample: `scripts/sample-report.sh`.)
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the rows of summary.csv as JSON instead of the summary text
    /// (the report folder is written all the same).
    #[arg(long)]
    pub json: bool,
    /// Also keep a copy of the report as the baseline NAME, in
    /// `my-reports/baselines/NAME` (replacing one of that name), for
    /// `diff --baseline NAME NEW`.
    #[arg(long, value_name = "NAME", value_parser = compare::baseline::parse_name)]
    pub save_baseline: Option<String>,
    #[command(flatten)]
    pub force: super::args::ForceArg,
}

#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    disable_help_subcommand = true
)]
pub struct ReportArgs {
    #[command(subcommand)]
    pub action: Option<ReportAction>,
    /// A report folder holding results.csv (e.g. reports).
    #[arg(required = true)]
    pub dir: Option<PathBuf>,
    /// Print the rows of summary.csv as JSON instead of the summary text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub force: super::args::ForceArg,
}

#[derive(Debug, clap::Subcommand)]
pub enum ReportAction {
    /// Merge the report folders of the shards of one plan (`compare --shard
    /// K/N`) into one report; refuses mixed plans, missing, duplicated or
    /// incomplete shards, naming each (exit 2).
    Merge(MergeArgs),
}

pub fn compare(args: &CompareArgs, argv: &[OsString]) -> anyhow::Result<ExitCode> {
    let jobs = args.jobs.map_or_else(defaults::jobs, |j| j as usize);
    let plan = Plan {
        sources: resolve_sources(&args.datasets)?,
        strategies: args.run.strategies.chosen(),
        budget: args.run.budget.budget,
        limit: args.run.limit.limit,
        sample: args.run.sample.sample(),
        method: args.run.method(),
        jobs,
        programs: args.programs.programs()?,
        shard: args.shard.assigned()?,
    };
    let out = match &args.out {
        Some(out) => out.clone(),
        None => compare::default_out(&plan),
    };
    // `--shard`: where `out` holds this shard complete, say so and end, successfully.
    if let Some(line) = compare::shards::already_complete(&plan, &out, args.shard.rerun)? {
        crate::io::output::note(line);
        return Ok(ExitCode::SUCCESS);
    }
    compare::write::check_out(&out, args.force.force, &[])?;
    let bar = Bar::new("compare");
    // Ctrl-C / SIGTERM: drop the half-built report at once, keep the old one.
    super::interrupt::install(
        "\ninterrupted: no new report written; the previous one is unchanged",
    );
    let done = compare::compare(&plan, &out, &super::args::command_line(argv), &bar);
    bar.finish();
    let done = done?;
    if let Some(old) = &done.replaced {
        crate::io::output::note(format_args!(
            "note: replaced the report in {} made by another selection ({old})",
            done.out.display()
        ));
    }
    if let Some(name) = &args.save_baseline {
        let dir = compare::baseline::save(&done.out, Path::new(compare::REPORTS), name)?;
        crate::io::output::note(format_args!(
            "saved baseline {name} in {} (`sudoku-lab diff --baseline {name} NEW` compares with it)",
            dir.display()
        ));
    }
    print(&done, args.json)?;
    Ok(exit(&done))
}

/// The end of `compare` and `report` on standard output: the summary text,
/// or with `--json` the rows of summary.csv.
fn print(done: &compare::Done, json: bool) -> anyhow::Result<()> {
    if json {
        crate::io::output::print(&crate::export::present::json(&done.summary)?)?;
    } else {
        crate::io::output::print(&done.console)?;
    }
    Ok(())
}

/// `compare` and `report`: 1 when a program failed a puzzle (the report is
/// written either way, and an `error:` line says so). A puzzle without
/// solution or over budget is a measured result here, not a failure: the
/// shipped sets include a no-solution set, and the slow rungs give up on
/// hard puzzles by design.
fn exit(done: &compare::Done) -> ExitCode {
    match done.program_failures {
        0 => ExitCode::SUCCESS,
        n => super::unsolved(&format!("{n} program runs failed")),
    }
}

pub fn report(args: &ReportArgs, argv: &[OsString]) -> anyhow::Result<ExitCode> {
    let dir = match (&args.action, &args.dir) {
        (Some(ReportAction::Merge(m)), _) => return super::shard::merge(m, argv),
        (None, Some(dir)) => dir,
        (None, None) => {
            anyhow::bail!("report: name a report folder, or `report merge SHARD_DIR... --out DIR`")
        }
    };
    let done = compare::redraw(dir, args.force.force)?;
    print(&done, args.json)?;
    Ok(exit(&done))
}
