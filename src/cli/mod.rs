//! The `sudoku-lab` command line: argument types (clap) and dispatch. Each
//! subcommand lives in its own file and returns an exit code; `main` only
//! prints errors.
//!
//! Exit codes: 0 success (every puzzle solved); 1 a puzzle had no solution or
//! exceeded its budget; 2 bad input or usage.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod compare;
mod solve;

pub use compare::{CompareArgs, DEFAULT_BUDGET, ReportArgs};
pub use solve::{CountArgs, SolveArgs};

/// A laboratory for backtracking Sudoku solvers.
#[derive(Debug, Parser)]
#[command(name = "sudoku-lab", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve puzzles and print the solutions in the input's layout.
    Solve(SolveArgs),
    /// Count the solutions of each puzzle, up to a limit.
    Count(CountArgs),
    /// List the strategies, in ladder order, with what each one changes.
    Strategies,
    /// Run strategies over datasets; write results.csv, summary.csv, charts and a report.
    Compare(CompareArgs),
    /// Redraw the charts and report of a report folder from its results.csv.
    Report(ReportArgs),
}

/// Exit code for "a puzzle was not solved" (no solution or budget exceeded).
pub const EXIT_UNSOLVED: u8 = 1;
/// Exit code for bad input or usage (also clap's).
pub const EXIT_USAGE: u8 = 2;

/// Runs one parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => solve::solve(&args),
        Command::Count(args) => solve::count(&args),
        Command::Compare(args) => compare::compare(&args),
        Command::Report(args) => compare::report(&args),
        Command::Strategies => {
            let width = crate::Strategy::ALL
                .iter()
                .map(|s| s.name().len())
                .max()
                .unwrap_or(0);
            for s in crate::Strategy::ALL {
                println!("{:width$}  {}", s.name(), s.summary());
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
