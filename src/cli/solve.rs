//! `solve` and `count`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use std::time::Duration;

use crate::format::{Format, Puzzle, render};
use crate::input;
use crate::search::{End, Limits};
use crate::strategy::{Outcome, Run, Strategy};

use super::EXIT_UNSOLVED;

/// Printed (one line, in place of a solution) for a line-format puzzle with no solution.
pub const NO_SOLUTION: &str = "no solution";
/// Printed (one line, in place of a solution) when the node budget ran out.
pub const BUDGET_EXCEEDED: &str = "budget exceeded";

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Strategy to solve with [default: fast for 9x9, propagate for other sizes].
    #[arg(long, short, value_enum)]
    pub strategy: Option<Strategy>,
    /// Print each puzzle's counters and time to stderr.
    #[arg(long)]
    pub stats: bool,
    /// Give up on a puzzle after this many search nodes.
    #[arg(long, value_name = "NODES")]
    pub budget: Option<u64>,
    /// Puzzle file (line, grid or compact layout); standard input if omitted.
    pub file: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CountArgs {
    /// Stop counting at this many solutions (at least 1).
    #[arg(long, short, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,
    /// Strategy to count with [default: fast for 9x9, propagate for other sizes].
    #[arg(long, short, value_enum)]
    pub strategy: Option<Strategy>,
    /// Give up on a puzzle after this many search nodes.
    #[arg(long, value_name = "NODES")]
    pub budget: Option<u64>,
    /// Print each puzzle's counters and time to stderr.
    #[arg(long)]
    pub stats: bool,
    /// Puzzle file; standard input if omitted.
    pub file: Option<PathBuf>,
}

/// Runs the timed path (counters off); with `stats`, also a counted pass,
/// and prints its counters with the uncounted time to stderr.
fn timed_with_stats(
    requested: Option<Strategy>,
    puzzle: &Puzzle,
    limits: Limits,
    stats: bool,
    index: usize,
) -> anyhow::Result<Run> {
    let size = puzzle.board.size();
    let strategy = requested.unwrap_or_else(|| Strategy::default_for(size));
    if let Err(why) = strategy.check_size(size) {
        anyhow::bail!(
            "{why} (puzzle {index}, line {}); omit --strategy for the default",
            puzzle.line
        );
    }
    let run = strategy.run_timed(&puzzle.board, limits)?;
    if stats {
        let counted = strategy.run_counted(&puzzle.board, limits)?;
        crate::output::note(stats_line(index, puzzle.line, &counted, run.elapsed));
    }
    Ok(run)
}

/// One line of counters for `--stats`; `time` is the run with counters off.
pub fn stats_line(index: usize, line: usize, run: &Run, time: Duration) -> String {
    let c = &run.counts;
    format!(
        "puzzle {index} (line {line}): {} nodes={} placements={} backtracks={} probes={} guesses={} dead_ends={} forced={} time={:?}",
        run.outcome,
        c.nodes,
        c.placements,
        c.backtracks,
        c.probes,
        c.guesses,
        c.dead_ends,
        c.forced,
        time
    )
}

pub fn solve(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let mut reader = input::open(args.file.as_deref())?;
    let mut out = crate::output::stdout();
    let mut all_solved = true;
    let mut index = 0;
    while let Some(puzzle) = reader.next() {
        let puzzle = puzzle?;
        index += 1;
        let format = reader.format().unwrap_or(Format::Line);
        let run = timed_with_stats(
            args.strategy,
            &puzzle,
            Limits::solve(args.budget),
            args.stats,
            index,
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
                crate::output::note(format_args!(
                    "puzzle {index} (line {}): {}",
                    puzzle.line,
                    match run.outcome {
                        Outcome::BudgetExceeded =>
                            format!("{BUDGET_EXCEEDED} after {} nodes", run.counts.nodes),
                        _ => NO_SOLUTION.to_string(),
                    }
                ));
            }
        }
    }
    if index == 0 {
        return Err(reader.empty_error().into());
    }
    out.flush()?;
    Ok(if all_solved {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_UNSOLVED)
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
    let mut out = crate::output::stdout();
    let mut complete = true;
    let mut index = 0;
    for puzzle in reader.by_ref() {
        let puzzle = puzzle?;
        index += 1;
        let limits = Limits::count(args.limit, args.budget);
        let run = timed_with_stats(args.strategy, &puzzle, limits, args.stats, index)?;
        match run.end {
            End::Exhausted => writeln!(out, "{}", run.solutions)?,
            End::SolutionLimit => writeln!(out, ">={}", run.solutions)?,
            End::BudgetExceeded => {
                complete = false;
                writeln!(out, "{BUDGET_EXCEEDED} (>={})", run.solutions)?
            }
        }
    }
    if index == 0 {
        return Err(reader.empty_error().into());
    }
    out.flush()?;
    Ok(if complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_UNSOLVED)
    })
}
