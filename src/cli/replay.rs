//! `replay`: one puzzle's searches as a self-contained web page (the page
//! itself is built by [`crate::export::replay`]).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::base::defaults;
use crate::cli::args::{MeasureBudget, StrategyList};
use crate::export::replay::{self, BYTES_PER_EVENT};
use crate::io::input::pick;

#[derive(Debug, Args)]
#[command(after_help = format!(
    "The page is one HTML file with its style and script inline; it fetches nothing and opens \
     from disk. It keeps the first --steps events of each search in full and summarises the \
     rest (totals, nodes per depth, depth over time), so its size is bounded by --steps: at \
     most {BYTES_PER_EVENT} bytes per event kept, plus a fixed part (the page states its own \
     bound). Open it at a given step with FILE.html#step=N (event N of each search), or \
     FILE.html#nodes=N (each search after N nodes: side by side, the same work).\n\n\
     Examples:\n  \
     mkdir -p my-reports && sudoku-lab replay -s mrv,dlx docs/puzzles/famous.txt -o my-reports/replay.html\n  \
     sudoku-lab replay -s naive -k 500 --puzzle 4 docs/puzzles/famous.txt -o my-reports/escargot.html"
))]
pub struct ReplayArgs {
    #[command(flatten)]
    pub strategies: StrategyList,
    /// Events kept in full per strategy (the rest is summarised on the page).
    #[arg(long, short = 'k', value_name = "K", default_value_t = defaults::REPLAY_STEPS)]
    pub steps: usize,
    #[command(flatten)]
    pub budget: MeasureBudget,
    /// Which puzzle of the file to replay (1-based).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub puzzle: usize,
    /// The page to write (`-` for standard output).
    #[arg(long, short, value_name = "FILE.html", default_value = "replay.html")]
    pub out: PathBuf,
    /// Puzzle file; standard input if omitted.
    pub file: Option<PathBuf>,
}

pub fn run(args: &ReplayArgs) -> anyhow::Result<ExitCode> {
    let (source, puzzle) = pick(args.file.as_deref(), args.puzzle)?;
    let made = replay::replay(
        &puzzle,
        (&source, args.puzzle),
        args.strategies.chosen(),
        !args.strategies.strategies.is_empty(),
        args.budget.budget.get(),
        args.steps,
    )?;
    if args.out.as_os_str() == "-" {
        crate::io::output::print(&made.html)?;
    } else {
        crate::io::output::write_file(&args.out, made.html.as_bytes())?;
        crate::io::output::print(&made.note(&args.out))?;
    }
    Ok(match made.unsolved() {
        None => ExitCode::SUCCESS,
        Some(which) => super::unsolved(&format!(
            "the puzzle was not solved ({which}); the page shows the search"
        )),
    })
}
