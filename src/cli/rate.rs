//! `rate`: per-puzzle backtracking difficulty as a table or CSV.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use rayon::prelude::*;

use crate::dataset::DatasetReader;
use crate::rate::{DEFAULT_BUDGET, Rating, rate as rate_one};

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
    /// Node budget of each strategy on each puzzle.
    #[arg(long, value_name = "NODES", default_value_t = DEFAULT_BUDGET)]
    pub budget: u64,
    /// Output layout.
    #[arg(long, value_enum, default_value_t = RateFormat::Table)]
    pub format: RateFormat,
    /// Puzzle file (any layout or CSV); standard input if omitted.
    pub file: Option<PathBuf>,
}

/// Puzzles rated in parallel per chunk, printed in input order.
const CHUNK: usize = 256;

pub fn rate(args: &RateArgs) -> anyhow::Result<ExitCode> {
    let reader = DatasetReader::open(args.file.as_deref())?;
    let out = crate::output::stdout();
    let mut sink = match args.format {
        RateFormat::Table => Sink::Table(out),
        RateFormat::Csv => Sink::Csv(Box::new(csv::Writer::from_writer(out))),
    };
    let mut chunk = Vec::with_capacity(CHUNK);
    let mut index = 0;
    let mut first = true;
    let mut entries = reader.peekable();
    while entries.peek().is_some() {
        chunk.clear();
        for entry in entries.by_ref().take(CHUNK) {
            index += 1;
            chunk.push((index, entry?.puzzle));
        }
        let rows = chunk
            .par_iter()
            .map(|(i, p)| rate_one(*i, p, args.budget))
            .collect::<Result<Vec<Rating>, _>>()?;
        match &mut sink {
            Sink::Csv(w) => {
                for r in &rows {
                    w.serialize(r)?;
                }
            }
            Sink::Table(w) => w.write_all(table(&rows, first).as_bytes())?,
        }
        first = false;
    }
    match &mut sink {
        Sink::Csv(w) => w.flush()?,
        Sink::Table(w) => w.flush()?,
    }
    Ok(ExitCode::SUCCESS)
}

enum Sink<W: Write> {
    Table(W),
    Csv(Box<csv::Writer<W>>),
}

/// Aligned table rows; the header only with the first chunk.
pub fn table(rows: &[Rating], header: bool) -> String {
    let mut s = String::new();
    if header {
        s += &format!(
            "{:>6} {:>6} {:>5} {:>6} {:>12} {:>15} {:>15} {:>15}  {:<7}  {}\n",
            "index",
            "line",
            "size",
            "clues",
            "mrv_nodes",
            "mrv_outcome",
            "used_tables_nodes",
            "used_tables_outcome",
            "tier",
            "name"
        );
    }
    for r in rows {
        s += &format!(
            "{:>6} {:>6} {:>5} {:>6} {:>12} {:>15} {:>15} {:>15}  {:<7}  {}\n",
            r.index,
            r.line,
            r.size,
            r.clues,
            r.mrv_nodes,
            r.mrv_outcome.name(),
            r.used_tables_nodes,
            r.used_tables_outcome.name(),
            r.tier.name(),
            r.name
        );
    }
    s
}
