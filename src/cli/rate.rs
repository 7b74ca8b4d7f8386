//! `rate`: per-puzzle backtracking difficulty as a table or CSV.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use crate::analysis::rate::rate_file;
use crate::export::present::ratings;

use crate::base::progress::Progress;
use crate::cli::args::{MeasureBudget, SampleArgs};
use crate::cli::progress::Bar;

/// How to print the ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RateFormat {
    /// Aligned columns for reading.
    Table,
    /// CSV with a header, for tools.
    Csv,
}

#[derive(Debug, Args)]
pub struct RateArgs {
    #[command(flatten)]
    pub budget: MeasureBudget,
    #[command(flatten)]
    pub sample: SampleArgs,
    /// Worker threads (default: all hardware threads); output order does not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
    /// Output layout.
    #[arg(long, value_enum, default_value_t = RateFormat::Table)]
    pub format: RateFormat,
    /// Puzzle file (any layout or CSV); standard input if omitted.
    pub file: Option<PathBuf>,
}

pub fn rate(args: &RateArgs) -> anyhow::Result<ExitCode> {
    let out = crate::io::output::stdout();
    let mut sink = match args.format {
        RateFormat::Table => Sink::Table(out),
        RateFormat::Csv => Sink::Csv(Box::new(crate::io::csv_file::streaming(out))),
    };
    let mut first = true;
    let bar = Bar::streaming("rate", "puzzles");
    let jobs = args
        .jobs
        .map_or_else(crate::base::defaults::jobs, |j| j as usize);
    let file = args.file.as_deref();
    let unrated = rate_file(file, args.sample.sample(), args.budget.budget, jobs, |r| {
        bar.tick();
        match &mut sink {
            Sink::Csv(w) => w.serialize(&r)?,
            Sink::Table(w) => w.write_all(ratings(std::slice::from_ref(&r), first).as_bytes())?,
        }
        first = false;
        Ok(())
    })?;
    match &mut sink {
        Sink::Csv(w) => w.flush()?,
        Sink::Table(w) => w.flush()?,
    }
    // As `solve`: 1 when a puzzle had no solution or `mrv` ran out of budget.
    Ok(if unrated > 0 {
        super::unsolved(&format!(
            "{unrated} puzzles had no solution or exceeded the budget"
        ))
    } else {
        ExitCode::SUCCESS
    })
}

enum Sink<W: Write> {
    Table(W),
    Csv(Box<csv::Writer<W>>),
}
