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
use crate::io::input;
use crate::run::solve::solve_one;

/// Printed (one line, in place of a solution) for a line-format puzzle with no solution.
pub const NO_SOLUTION: &str = "no solution";
/// Printed (one line, in place of a solution) when the node budget ran out.
pub const BUDGET_EXCEEDED: &str = "budget exceeded";

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Strategy to solve with [default: fast for 9x9, propagate for other sizes].
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

#[derive(Debug, Args)]
pub struct CountArgs {
    /// Stop counting at this many solutions (at least 1).
    #[arg(long, short, default_value_t = 2, value_parser = parse_limit)]
    pub limit: u64,
    /// Strategy to count with [default: fast for 9x9, propagate for other sizes].
    #[arg(long, short)]
    pub strategy: Option<Strategy>,
    #[command(flatten)]
    pub budget: SolveBudget,
    /// Print each puzzle's counters and time to stderr.
    #[arg(long)]
    pub stats: bool,
    /// Puzzle file; standard input if omitted.
    pub file: Option<PathBuf>,
}

/// [`solve_one`], its notes said on stderr with the bar lifted.
fn solved(
    requested: Option<Strategy>,
    puzzle: &Puzzle,
    limits: Limits,
    stats: bool,
    index: usize,
    bar: &Bar,
) -> anyhow::Result<Run> {
    let (run, notes) = solve_one(requested, puzzle, limits, stats, index)?;
    for note in notes {
        bar.suspend(|| crate::io::output::note(note));
    }
    Ok(run)
}

/// A count written as `--budget` reads it (`5_000`, `5,000` too), at least 1.
fn parse_limit(s: &str) -> Result<u64, String> {
    let digits: String = s.trim().chars().filter(|&c| c != '_' && c != ',').collect();
    match digits.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "expected a number of solutions (at least 1), got {s:?}"
        )),
    }
}

pub fn solve(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let mut reader = input::open(args.file.as_deref())?;
    let mut out = crate::io::output::stdout();
    let mut all_solved = true;
    let mut index = 0;
    let bar = Bar::streaming("solve", "puzzles");
    while let Some(puzzle) = reader.next() {
        let puzzle = puzzle?;
        index += 1;
        bar.tick();
        let format = reader.format().unwrap_or(Format::Line);
        let run = solved(
            args.strategy,
            &puzzle,
            Limits::solve(args.budget.budget.get()),
            args.stats,
            index,
            &bar,
        )?;
        if format != Format::Line && index > 1 {
            writeln!(out)?;
        }
        match (&run.solution, format) {
            (Some(sol), _) => write_board(&mut out, sol, format)?,
            (None, Format::Line) => {
                all_solved = false;
                let marker = match run.outcome {
                    Outcome::BudgetExceeded => BUDGET_EXCEEDED,
                    _ => NO_SOLUTION,
                };
                writeln!(out, "{marker}")?;
            }
            (None, _) => {
                all_solved = false;
                out.flush()?;
                bar.suspend(|| {
                    crate::io::output::note(format_args!(
                        "puzzle {index} (line {}): {}",
                        puzzle.line,
                        match run.outcome {
                            Outcome::BudgetExceeded =>
                                format!("{BUDGET_EXCEEDED} after {} nodes", run.counts.nodes),
                            _ => NO_SOLUTION.to_string(),
                        }
                    ))
                });
            }
        }
    }
    finish(index, &reader, &mut out, all_solved)
}

/// The end of `solve` and `count`: an input without a puzzle is an error;
/// otherwise 1, said on stderr, when a puzzle had no solution or exceeded
/// the budget.
fn finish(
    read: usize,
    reader: &input::Puzzles,
    out: &mut impl Write,
    complete: bool,
) -> anyhow::Result<ExitCode> {
    if read == 0 {
        return Err(reader.empty_error().into());
    }
    out.flush()?;
    Ok(if complete {
        ExitCode::SUCCESS
    } else {
        super::unsolved("a puzzle had no solution or exceeded the budget")
    })
}

fn write_board(out: &mut impl Write, board: &crate::Board, format: Format) -> std::io::Result<()> {
    let text = render(board, format);
    if format == Format::Line {
        writeln!(out, "{text}")
    } else {
        write!(out, "{text}")
    }
}

pub fn count(args: &CountArgs) -> anyhow::Result<ExitCode> {
    let mut reader = input::open(args.file.as_deref())?;
    let mut out = crate::io::output::stdout();
    let mut complete = true;
    let mut index = 0;
    let bar = Bar::streaming("count", "puzzles");
    while let Some(puzzle) = reader.next() {
        let puzzle = puzzle?;
        index += 1;
        bar.tick();
        let limits = Limits::count(args.limit, args.budget.budget.get());
        let run = solved(args.strategy, &puzzle, limits, args.stats, index, &bar)?;
        // A `# solutions: N` line the count contradicts is said, not ignored.
        if let Some(n) = reader.expected() {
            let wrong = match run.end {
                End::Exhausted => run.solutions != n,
                End::SolutionLimit => run.solutions > n,
                End::BudgetExceeded => false,
            };
            if wrong {
                let counted = match run.end {
                    End::Exhausted => run.solutions.to_string(),
                    _ => format!("at least {}", run.solutions),
                };
                bar.suspend(|| {
                    crate::io::output::note(format_args!(
                        "warning: {}: puzzle {index} (line {}): the file says `# solutions: {n}`, but it has {counted}",
                        reader.file(),
                        puzzle.line
                    ))
                });
            }
        }
        match run.end {
            End::Exhausted => {
                // No solution: the same puzzle `solve` exits 1 on.
                if run.solutions == 0 {
                    complete = false;
                }
                writeln!(out, "{}", run.solutions)?
            }
            End::SolutionLimit => writeln!(out, ">={}", run.solutions)?,
            End::BudgetExceeded => {
                complete = false;
                writeln!(out, "{BUDGET_EXCEEDED} (>={})", run.solutions)?
            }
        }
    }
    finish(index, &reader, &mut out, complete)
}
