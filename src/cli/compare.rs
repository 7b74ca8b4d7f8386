//! `compare` and `report`: thin wrappers over [`crate::compare`].

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::Strategy;
use crate::compare::{self, run::Plan, run::resolve_sources};

/// Default node budget per puzzle × strategy: enough for the table-driven
/// rungs on every shipped puzzle; the rescanning rungs give up on the hardest
/// ones after well under a second each (recorded as budget-exceeded).
pub const DEFAULT_BUDGET: u64 = 5_000_000;

/// Exit code after Ctrl-C or SIGTERM (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: i32 = 130;

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Puzzle file, or the name of a shipped dataset (repeatable; default:
    /// every dataset under datasets/).
    #[arg(long = "dataset", value_name = "PATH_OR_NAME")]
    pub datasets: Vec<String>,
    /// Strategy to run (repeatable; default: all, in ladder order).
    #[arg(long = "strategy", value_enum, value_name = "NAME")]
    pub strategies: Vec<Strategy>,
    /// Give up on a puzzle after this many search nodes (recorded as budget-exceeded).
    #[arg(long, value_name = "NODES", default_value_t = DEFAULT_BUDGET,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub budget: u64,
    /// Run a seeded random sample of at most N puzzles per dataset.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub sample: Option<u64>,
    /// Seed for --sample (ChaCha8): same seed, same puzzles.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all hardware threads). Row order and counters
    /// do not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
    /// Report folder (replaced file by file once the new report is complete).
    #[arg(long, value_name = "DIR", default_value = "reports")]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A report folder holding results.csv (e.g. reports).
    pub dir: PathBuf,
}

/// The command line as typed, for the report (program name shortened).
fn command_line() -> String {
    let mut parts = vec!["sudoku-lab".to_string()];
    for a in std::env::args().skip(1) {
        if !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+".contains(c))
        {
            parts.push(a);
        } else {
            parts.push(format!("'{}'", a.replace('\'', r"'\''")));
        }
    }
    parts.join(" ")
}

pub fn compare(args: &CompareArgs) -> anyhow::Result<ExitCode> {
    let strategies = if args.strategies.is_empty() {
        Strategy::ALL.to_vec()
    } else {
        args.strategies.clone()
    };
    let jobs = match args.jobs {
        Some(j) => j as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let plan = Plan {
        sources: resolve_sources(&args.datasets)?,
        strategies,
        budget: args.budget,
        sample: args.sample,
        seed: args.seed,
        jobs,
    };
    let progress = if std::io::stderr().is_terminal() {
        let pb = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40.cyan/blue}] {pos}/{len} runs  ETA {eta}",
        ) {
            pb.set_style(style.progress_chars("=> "));
        }
        pb
    } else {
        ProgressBar::hidden()
    };
    // Ctrl-C / SIGTERM: drop the half-built report at once, keep the old one.
    let _ = ctrlc::set_handler(|| {
        crate::output::note("\ninterrupted: no new report written; the previous one is unchanged");
        compare::write::abandon_and_exit(EXIT_INTERRUPTED)
    });
    let done = compare::compare(&plan, &args.out, &command_line(), &progress)?;
    crate::output::print(&format!(
        "{}{} runs; report written to {}\n",
        compare::summary_table(&done.summary),
        done.rows,
        done.out.join(compare::README).display()
    ))?;
    Ok(ExitCode::SUCCESS)
}

pub fn report(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let done = compare::redraw(&args.dir)?;
    crate::output::print(&format!(
        "{}{} rows read; report redrawn in {}\n",
        compare::summary_table(&done.summary),
        done.rows,
        done.out.join(compare::README).display()
    ))?;
    Ok(ExitCode::SUCCESS)
}
