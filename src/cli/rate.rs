//! `rate`: per-puzzle backtracking difficulty as a table or CSV.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use crate::analysis::rate::{Rating, rate as rate_one};
use crate::export::present::ratings;
use crate::io::dataset::DatasetReader;

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
    let reader = DatasetReader::open(args.file.as_deref())?;
    let entries: Box<dyn Iterator<Item = anyhow::Result<(u64, crate::io::dataset::Entry)>>> =
        match args.sample.sample() {
            Some(sample) => Box::new(sample.draw(reader)?.0.into_iter().map(Ok)),
            None => Box::new((0..).zip(reader).map(|(i, e)| Ok((i, e?)))),
        };
    let out = crate::io::output::stdout();
    let mut sink = match args.format {
        RateFormat::Table => Sink::Table(out),
        RateFormat::Csv => Sink::Csv(Box::new(crate::io::csv_file::streaming(out))),
    };
    let mut first = true;
    let mut unrated = 0u64;
    let budget = args.budget.budget;
    let bar = Bar::streaming("rate", "puzzles");
    crate::measure::exec::ordered(
        entries,
        args.jobs
            .map_or_else(crate::base::defaults::jobs, |j| j as usize),
        |(i, e)| Ok(rate_one(*i as usize + 1, &e.puzzle, budget)?),
        |r: Rating| {
            bar.tick();
            if r.mrv_outcome != crate::base::strategy::Outcome::Solved {
                unrated += 1;
            }
            match &mut sink {
                Sink::Csv(w) => w.serialize(&r)?,
                Sink::Table(w) => {
                    w.write_all(ratings(std::slice::from_ref(&r), first).as_bytes())?
                }
            }
            first = false;
            Ok(())
        },
    )?;
    match &mut sink {
        Sink::Csv(w) => w.flush()?,
        Sink::Table(w) => w.flush()?,
    }
    // As `solve`: 1 when a puzzle had no solution or `mrv` ran out of budget
    // (its tier is then a bound, not a measurement).
    if unrated > 0 {
        crate::io::output::note(format_args!(
            "error: {unrated} puzzles had no solution or exceeded the budget"
        ));
        return Ok(ExitCode::from(super::EXIT_UNSOLVED));
    }
    Ok(ExitCode::SUCCESS)
}

enum Sink<W: Write> {
    Table(W),
    Csv(Box<csv::Writer<W>>),
}
