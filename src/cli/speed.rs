//! `speed`: throughput per dataset × strategy, as a terminal table, CSV or
//! Markdown. Measuring lives in [`crate::measure::speed`], the text in
//! [`crate::export::present::speed`]; this file only parses arguments and prints.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::base::strategy::Outcome;
use crate::export::present::speed as text;
use crate::io::dataset::Dataset;
use crate::measure::speed::{SpeedOptions, SpeedRow};

use crate::cli::args::MeasureArgs;
use crate::cli::program::ProgramArgs;
use crate::cli::progress::Bar;

#[derive(Debug, Args)]
pub struct SpeedArgs {
    /// Puzzle files to measure, each one a dataset (or the name of a
    /// fetched public corpus, such as top1465: `datasets list`).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub run: MeasureArgs,
    /// Time a seeded random symmetry of each puzzle in each pass (digits
    /// relabelled; bands, stacks, rows and columns permuted; transposed or
    /// not), as tdoku's benchmark harness does with `-r 1`.
    #[arg(long)]
    pub permute: bool,
    #[command(flatten)]
    pub programs: ProgramArgs,
    /// Print CSV (one row per dataset × strategy, every figure).
    #[arg(long, conflicts_with_all = ["markdown", "json"])]
    pub csv: bool,
    /// Print a Markdown table.
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
    /// Print the CSV's rows as JSON (an array of objects, same fields).
    #[arg(long)]
    pub json: bool,
}

/// The library's options from the flags: `--min-time` per puzzle when
/// given, else [`crate::base::defaults::SPEED_SET_TIME`] over each set.
fn options(args: &SpeedArgs) -> SpeedOptions {
    let mut method = args.run.method();
    method.permute = args.permute;
    SpeedOptions {
        budget: args.run.budget.budget,
        limit: args.run.limit.limit,
        method,
        set_time: args
            .run
            .timing
            .min_time
            .is_none()
            .then_some(crate::base::defaults::SPEED_SET_TIME),
    }
}

pub fn speed(args: &SpeedArgs) -> anyhow::Result<ExitCode> {
    let opts = options(args);
    // Load everything first: a bad file fails before minutes of measuring.
    let sets = args
        .files
        .iter()
        .map(|f| {
            Dataset::load_sampled(
                &crate::io::fetch::file_or_corpus(f)?,
                args.run.sample.sample(),
            )
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let progress = Bar::new("speed");
    let (rows, conditions) = crate::measure::speed::run(
        &sets,
        &args.run.strategies.chosen(),
        &args.programs.programs()?,
        &opts,
        &progress,
    )?;
    progress.finish();
    super::note_conditions(&conditions);
    let text = if args.json {
        let records: Vec<_> = rows.iter().map(SpeedRow::record).collect();
        crate::export::present::json(&records)?
    } else if args.csv {
        text::to_csv(&rows)?
    } else if args.markdown {
        text::to_markdown(&rows)
    } else {
        let mut t = text::to_table(&rows);
        t.push_str(&footer(args));
        t
    };
    crate::io::output::print(&text)?;
    // A puzzle not solved, or a program that failed one: exit 1.
    let incomplete = rows.iter().any(|r| {
        r.with(Outcome::BudgetExceeded) > 0 || r.with(Outcome::NoSolution) > 0 || r.failed() > 0
    });
    Ok(if incomplete {
        super::unsolved("a puzzle had no solution or exceeded the budget, or a program failed one")
    } else {
        ExitCode::SUCCESS
    })
}

fn footer(args: &SpeedArgs) -> String {
    let sample = match args.run.sample.sample() {
        Some(s) => format!("seeded sample of {} per file (seed {})", s.n, s.seed),
        None => "every puzzle".to_string(),
    };
    let programs = (!args.programs.programs.is_empty()).then_some(args.programs.time_limit);
    crate::export::present::speed::footer(&options(args), &sample, programs)
}
