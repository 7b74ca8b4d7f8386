//! The `sudoku-lab` command line: argument types (clap) and dispatch. Each
//! subcommand lives in its own file and returns an exit code; an error is
//! turned into its exit code in one place, [`exit_code`].
//!
//! Exit codes (README, *Exit codes*): 0 success (every puzzle solved, or the
//! reader of standard output quit early); 1 a puzzle had no solution or
//! exceeded its budget; 2 bad input or usage; 70 a bug in the lab; 74 a
//! read or write failed; 130 interrupted.

use std::io::Write as _;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod args;
mod compare;
mod exit;
mod generate;
mod ladder;
mod progress;
mod rate;
mod replay;
mod solve;
mod speed;
mod trace;

pub use compare::{CompareArgs, ReportArgs};
pub use exit::{Failure, exit_code, parse};
pub use generate::GenerateArgs;
pub use ladder::LadderArgs;
pub use rate::RateArgs;
pub use replay::ReplayArgs;
pub use solve::{CountArgs, SolveArgs};
pub use speed::SpeedArgs;
pub use trace::TraceArgs;

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
    /// Watch one search unfold: first decisions, totals, nodes per depth.
    Trace(TraceArgs),
    /// Replay searches as one self-contained web page (board, events, counters, depth).
    Replay(ReplayArgs),
    /// Run strategies over puzzle files; print Markdown tables of counters and times.
    Ladder(LadderArgs),
    /// Run strategies over datasets; write results.csv, summary.csv, charts and a report.
    Compare(CompareArgs),
    /// Redraw the charts and report of a report folder from its results.csv.
    Report(ReportArgs),
    /// Measure throughput (puzzles/s) and work per puzzle, per dataset × strategy.
    Speed(SpeedArgs),
    /// Generate uniquely solvable puzzles from a seed (same arguments, same bytes).
    Generate(GenerateArgs),
    /// Rate puzzles by the search nodes `mrv` and `used-tables` need.
    Rate(RateArgs),
}

/// Exit code for "a puzzle was not solved" (no solution or budget exceeded).
pub const EXIT_UNSOLVED: u8 = 1;
/// Exit code for bad input or usage (also clap's), including a named file
/// or folder that does not exist.
pub const EXIT_USAGE: u8 = 2;
/// Exit code for a bug in the lab: a wrong solution caught by verification
/// (`WrongSolution`) or a failed internal check (a message starting `BUG:`).
/// `EX_SOFTWARE` of sysexits.h.
pub const EXIT_BUG: u8 = 70;
/// Exit code for a read or write the operating system refused: permission
/// denied, disk full, read-only file system, standard output failing.
/// `EX_IOERR` of sysexits.h.
pub const EXIT_IO: u8 = 74;

/// Runs one parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => solve::solve(&args),
        Command::Count(args) => solve::count(&args),
        Command::Trace(args) => trace::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Ladder(args) => ladder::ladder(&args),
        Command::Compare(args) => compare::compare(&args),
        Command::Report(args) => compare::report(&args),
        Command::Speed(args) => speed::speed(&args),
        Command::Generate(args) => generate::generate(&args),
        Command::Rate(args) => rate::rate(&args),
        Command::Strategies => {
            let width = crate::Strategy::ALL
                .iter()
                .map(|s| s.name().len())
                .max()
                .unwrap_or(0);
            let mut out = crate::output::stdout();
            for s in crate::Strategy::ALL {
                writeln!(out, "{:width$}  {}", s.name(), s.summary())?;
            }
            out.flush()?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
