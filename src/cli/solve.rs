//! `solve` and `count`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::base::format::{Format, Puzzle, render};
use crate::base::progress::Progress;
use crate::base::search::{End, Limits};
use crate::base::strategy::{Outcome, Run, Strategy};
use crate::cli::args::SolveBudget;
use crate::cli::progress::Bar;
use crate::io::input::{self, Puzzles};
use crate::io::output::Stdout;
use crate::run::solve::{contradicts, solve_one};

/// Printed (one line, in place of a solution) for a line-format puzzle with no solution.
pub const NO_SOLUTION: &str = "no solution";
/// Printed (one line, in place of a solution) when the node budget ran out.
pub const BUDGET_EXCEEDED: &str = "budget exceeded";

#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub each: EachPuzzle,
}

#[derive(Debug, Args)]
pub struct CountArgs {
    /// Stop counting at this many solutions (at least 1).
    #[arg(long, short, default_value_t = 2, value_parser = crate::cli::args::parse_limit)]
    pub limit: u64,
    #[command(flatten)]
    pub each: EachPuzzle,
}

/// The flags `solve` and `count` share: how each puzzle of the file runs.
#[derive(Debug, Args)]
pub struct EachPuzzle {
    /// Strategy to solve or count with [default: fast for 9x9, propagate for
    /// other sizes].
    #[arg(long, short)]
    pub strategy: Option<Strategy>,
    /// Print each puzzle's counters and time to stderr.
    #[arg(long)]
    pub stats: bool,
    #[command(flatten)]
    pub budget: SolveBudget,
    /// Puzzle file (line, grid or compact layout); standard input if omitted.
    pub file: Option<PathBuf>,
}

pub fn solve(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let limits = Limits::solve(args.each.budget.budget.get());
    each_puzzle(
        &args.each,
        limits,
        "solve",
        |out, reader, index, puzzle, run, bar| {
            let format = reader.format().unwrap_or(Format::Line);
            if format != Format::Line && index > 1 {
                writeln!(out)?;
            }
            let marker = match run.outcome {
                Outcome::BudgetExceeded => BUDGET_EXCEEDED,
                _ => NO_SOLUTION,
            };
            match (&run.solution, format) {
                (Some(sol), Format::Line) => writeln!(out, "{}", render(sol, format))?,
                (Some(sol), _) => write!(out, "{}", render(sol, format))?,
                (None, Format::Line) => writeln!(out, "{marker}")?,
                (None, _) => {
                    out.flush()?;
                    let after = match run.outcome {
                        Outcome::BudgetExceeded => format!(" after {} nodes", run.counts.nodes),
                        _ => String::new(),
                    };
                    bar.suspend(|| {
                        crate::io::output::note(format_args!(
                            "puzzle {index} (line {}): {marker}{after}",
                            puzzle.line
                        ))
                    });
                }
            }
            Ok(run.solution.is_some())
        },
    )
}

/// The loop of `solve` and `count`: each puzzle of the file in turn, run
/// ([`solve_one`] within `limits`, its notes said on stderr) and handed with its number to `answer`, which prints the answer
/// and says whether it is complete. An input without a puzzle is an
/// error; exit 1, said on stderr, when a puzzle had no solution or
/// exceeded the budget.
fn each_puzzle(
    flags: &EachPuzzle,
    limits: Limits,
    label: &str,
    mut answer: impl FnMut(&mut Stdout, &Puzzles, usize, &Puzzle, &Run, &Bar) -> anyhow::Result<bool>,
) -> anyhow::Result<ExitCode> {
    let mut reader = input::open(flags.file.as_deref())?;
    let mut out = crate::io::output::stdout();
    let mut complete = true;
    let mut index = 0;
    let bar = Bar::streaming(label, "puzzles");
    while let Some(puzzle) = reader.next() {
        let puzzle = puzzle?;
        index += 1;
        bar.tick();
        let (run, notes) = solve_one(flags.strategy, &puzzle, limits, flags.stats, index)?;
        for note in notes {
            bar.suspend(|| crate::io::output::note(note));
        }
        complete &= answer(&mut out, &reader, index, &puzzle, &run, &bar)?;
    }
    if index == 0 {
        return Err(reader.empty_error().into());
    }
    out.flush()?;
    Ok(if complete {
        ExitCode::SUCCESS
    } else {
        super::unsolved("a puzzle had no solution or exceeded the budget")
    })
}

pub fn count(args: &CountArgs) -> anyhow::Result<ExitCode> {
    let limits = Limits::count(args.limit, args.each.budget.budget.get());
    each_puzzle(
        &args.each,
        limits,
        "count",
        |out, reader, index, puzzle, run, bar| {
            // A `# solutions: N` line the count contradicts is said, not ignored.
            if let Some(wrong) = reader.expected().and_then(|n| contradicts(run, n)) {
                bar.suspend(|| {
                    crate::io::output::note(format_args!(
                        "warning: {}: puzzle {index} (line {}): {wrong}",
                        reader.file(),
                        puzzle.line
                    ))
                });
            }
            match run.end {
                End::Exhausted => writeln!(out, "{}", run.solutions)?,
                End::SolutionLimit => writeln!(out, ">={}", run.solutions)?,
                End::BudgetExceeded => writeln!(out, "{BUDGET_EXCEEDED} (>={})", run.solutions)?,
            }
            // No solution: the same puzzle `solve` exits 1 on.
            Ok(match run.end {
                End::Exhausted => run.solutions > 0,
                End::SolutionLimit => true,
                End::BudgetExceeded => false,
            })
        },
    )
}
