//! `replay`: one puzzle's searches as a self-contained web page (the page
//! itself is built by [`crate::export::replay`]).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use clap::Args;

use crate::analysis::trace::trace;
use crate::base::defaults;
use crate::base::strategy::{Outcome, Strategy};
use crate::export::replay::{self, BYTES_PER_EVENT, MAX_STEPS};

use crate::cli::EXIT_UNSOLVED;
use crate::cli::args::{MeasureBudget, StrategyList};
use crate::export::present::thousands;
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
    if args.steps > MAX_STEPS {
        bail!(
            "--steps {} is too large for a page (at most {MAX_STEPS} events per strategy)",
            args.steps
        );
    }
    let (source, puzzle) = pick(args.file.as_deref(), args.puzzle)?;
    let size = puzzle.board.size();
    let named = !args.strategies.strategies.is_empty();
    let mut strategies = args.strategies.chosen();
    let mut skipped = Vec::new();
    if named {
        for s in &strategies {
            if let Err(why) = s.check_size(size) {
                bail!("{why} (puzzle at line {})", puzzle.line);
            }
        }
    } else {
        // Every rung by default: those that do not handle this size are
        // left out, and said so.
        strategies.retain(|s: &Strategy| {
            if !s.supports(size) {
                skipped.push(s.name());
                false
            } else {
                true
            }
        });
    }
    let traces = strategies
        .iter()
        .map(|&s| trace(s, &puzzle.board, args.budget.budget.get(), args.steps))
        .collect::<Result<Vec<_>, _>>()?;
    let title = match &puzzle.name {
        Some(name) => name.clone(),
        None => format!("{source}, puzzle {}", args.puzzle),
    };
    let page = replay::page(&title, &puzzle.board, &traces, args.steps);
    let html = replay::html(&page);
    if html.len() > page.bound {
        bail!(
            "BUG: the page has {} bytes, more than its stated bound of {}",
            html.len(),
            page.bound
        );
    }
    let to_stdout = args.out.as_os_str() == "-";
    if to_stdout {
        crate::io::output::print(&html)?;
    } else {
        crate::io::output::write_file(&args.out, html.as_bytes())?;
        let mut note = format!(
            "replay written to {} ({} bytes, bound {}): ",
            args.out.display(),
            thousands(html.len() as u64),
            thousands(page.bound as u64)
        );
        let lanes: Vec<String> = traces
            .iter()
            .map(|t| {
                format!(
                    "{} {} of {} events",
                    t.strategy,
                    thousands(t.tracer.events().len() as u64),
                    thousands(t.tracer.total())
                )
            })
            .collect();
        note.push_str(&lanes.join(", "));
        if !skipped.is_empty() {
            note.push_str(&format!(
                "; left out ({size} not supported): {}",
                skipped.join(", ")
            ));
        }
        note.push('\n');
        crate::io::output::print(&note)?;
    }
    let unsolved: Vec<String> = traces
        .iter()
        .filter(|t| t.outcome != Outcome::Solved)
        .map(|t| format!("{}: {}", t.strategy, t.outcome))
        .collect();
    if unsolved.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    crate::io::output::note(format_args!(
        "error: the puzzle was not solved ({}); the page shows the search",
        unsolved.join(", ")
    ));
    Ok(ExitCode::from(EXIT_UNSOLVED))
}
