//! The `sudoku-lab` command line: argument types (clap) and dispatch. Each
//! subcommand lives in its own file and returns an exit code; an error is
//! turned into its exit code in one place, [`exit_code`]. The crate's one
//! public door into it is [`run_with`] (and [`main_with`]), so a program
//! that adds its own rungs runs the very same command line.
//!
//! Exit codes (docs/reference.md, *Exit codes*): 0 success (every puzzle solved, or the
//! reader of standard output quit early); 1 a puzzle had no solution or
//! exceeded its budget (`diff --fail-if-slower`: a slower result); 2 bad input or usage; 70 a bug in the lab; 74 a
//! read or write failed; 130 interrupted.

use std::ffi::OsString;
use std::io::Write as _;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod args;
mod compare;
mod datasets;
mod diff;
mod estimate;
mod exit;
mod generate;
mod interrupt;
mod ladder;
mod program;
mod progress;
mod rate;
mod replay;
mod shard;
mod solve;
mod speed;
mod trace;

use compare::{CompareArgs, ReportArgs};
use datasets::DatasetsArgs;
use exit::{exit_code, parse};
use generate::GenerateArgs;
use ladder::LadderArgs;
use rate::RateArgs;
use replay::ReplayArgs;
use solve::{CountArgs, SolveArgs};
use speed::SpeedArgs;
use trace::TraceArgs;

use crate::base::strategy::{AddError, Strategy};

/// Puts one rung on the ladder; `Strategy::add::<MyRung>` is one.
pub type AddRung = fn() -> Result<Strategy, AddError>;

/// The `sudoku-lab` program, with `rungs` added to the ladder: parses this
/// process's arguments, runs the command and returns its exit code. A
/// program of a few lines puts an outside rung into every command
/// (`strategies`, `solve`, `trace`, `ladder`, `compare`, `report`, `speed`):
///
/// ```no_run
/// # use sudoku_lab::{Board, BoxSize, Counter, Rung, Strategy};
/// # use sudoku_lab::base::{Ctx, Flow};
/// # struct MyRung;
/// # impl Rung for MyRung {
/// #     const NAME: &'static str = "my-rung";
/// #     const SUMMARY: &'static str = "mrv, by another name";
/// #     type Scratch = ();
/// #     fn scratch(_: BoxSize) {}
/// #     fn search<C: Counter>(s: &mut (), p: &Board, ctx: &mut Ctx<C>) -> Flow {
/// #         sudoku_lab::base::strategy::Mrv::search(s, p, ctx)
/// #     }
/// # }
/// fn main() -> std::process::ExitCode {
///     sudoku_lab::main_with(&[Strategy::add::<MyRung>])
/// }
/// ```
///
/// `cargo run --release --example NAME -- compare -s mrv,my-rung` then
/// writes its CSV files, charts and report with `my-rung` beside `mrv`.
/// A rung that cannot be added (bad or taken name) is reported on standard
/// error with exit code 70 ([`EXIT_BUG`]): the program itself is wrong.
pub fn main_with(rungs: &[AddRung]) -> ExitCode {
    run_with(rungs, std::env::args_os())
}

/// [`main_with`] on the given arguments (the program name first), e.g.
/// `["sudoku-lab", "strategies"]`: for programs that build their own
/// command lines.
///
/// ```
/// use sudoku_lab::{EXIT_USAGE, run_with};
///
/// assert_eq!(run_with(&[], ["sudoku-lab", "strategies"]), std::process::ExitCode::SUCCESS);
/// let unknown = run_with(&[], ["sudoku-lab", "solve", "--strategy", "no-such-rung", "x"]);
/// assert_eq!(unknown, std::process::ExitCode::from(EXIT_USAGE));
/// ```
pub fn run_with<I, T>(rungs: &[AddRung], args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    for add in rungs {
        if let Err(e) = add() {
            crate::io::output::note(format_args!("error: {e}"));
            return ExitCode::from(EXIT_BUG);
        }
    }
    let argv: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = match parse(&argv) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    interrupt::install("\ninterrupted");
    let result = run(cli, &argv);
    interrupt::finish();
    match result {
        Ok(code) => code,
        Err(err) => exit_code(&err),
    }
}

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
    #[command(
        after_help = "Examples:\n  sudoku-lab solve docs/puzzles/famous.txt\n  sudoku-lab solve -s dlx --stats docs/puzzles/easy.txt\n  echo 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 | sudoku-lab solve"
    )]
    Solve(SolveArgs),
    /// Count the solutions of each puzzle, up to a limit.
    #[command(
        after_help = "Examples:\n  sudoku-lab count docs/puzzles/several-solutions.txt\n  sudoku-lab count --limit 2 docs/puzzles/famous.txt"
    )]
    Count(CountArgs),
    /// List the strategies, in ladder order, with what each one changes (then
    /// the variants, which run only when named).
    #[command(after_help = "Examples:\n  sudoku-lab strategies")]
    Strategies,
    /// Watch one search unfold: first decisions, totals, nodes per depth.
    #[command(
        after_help = "Examples:\n  sudoku-lab trace -s mrv docs/puzzles/famous.txt\n  sudoku-lab trace -s naive --depth-histogram --puzzle 2 docs/puzzles/famous.txt\n  mkdir -p my-reports && sudoku-lab trace -s mrv --chart my-reports/tree.svg docs/puzzles/easy.txt"
    )]
    Trace(TraceArgs),
    /// Replay searches as one self-contained web page (board, events, counters, depth).
    Replay(ReplayArgs),
    /// Run strategies over puzzle files; print Markdown tables of counters and times.
    #[command(
        after_help = "Examples:\n  sudoku-lab ladder docs/puzzles/famous.txt\n  sudoku-lab ladder -s mrv,dlx,fast docs/puzzles/famous.txt docs/puzzles/easy.txt"
    )]
    Ladder(LadderArgs),
    /// Run strategies over datasets; write results.csv, summary.csv, charts and a report.
    #[command(
        after_help = "Examples:\n  sudoku-lab compare                          (every dataset and rung: my-reports/)\n  sudoku-lab compare -s mrv,dlx --dataset curated/famous-hard --save-baseline before\n  sudoku-lab compare --sample 200 --out my-reports/quick"
    )]
    Compare(CompareArgs),
    /// Redraw the charts and report of a report folder from its results.csv
    /// (`report merge`: merge the shards of one plan into one report).
    #[command(
        after_help = "Examples:\n  sudoku-lab report my-reports\n  sudoku-lab report merge my-reports/shards/* --out my-reports/merged"
    )]
    Report(ReportArgs),
    /// Did a change help? Compare two report folders: node counts exactly,
    /// times as NEW ÷ OLD with a 95% interval and a verdict.
    #[command(
        after_help = "Examples:\n  sudoku-lab diff my-reports/old my-reports/new\n  sudoku-lab diff --baseline before my-reports/runs/SELECTION --fail-if-slower 5\n  sudoku-lab diff my-reports my-reports --pair mrv=dlx --out my-reports/diff"
    )]
    Diff(diff::DiffArgs),
    /// Measure throughput (puzzles/s) and work per puzzle, per dataset × strategy.
    #[command(
        after_help = "Examples:\n  sudoku-lab speed datasets/generated/9x9-clues-22-25.txt\n  sudoku-lab speed -s fast,dlx --csv datasets/curated/famous-hard.txt\n  sudoku-lab speed -s fast --program mine=./my-solver datasets/curated/famous-hard.txt"
    )]
    Speed(SpeedArgs),
    /// Generate uniquely solvable puzzles from a seed (same arguments, same bytes).
    #[command(
        after_help = "Examples:\n  sudoku-lab generate -n 10 --seed 7\n  mkdir -p my-reports && sudoku-lab generate --size 16 --minimal -n 3 -o my-reports/16x16.txt"
    )]
    Generate(GenerateArgs),
    /// Rate puzzles by the search nodes `mrv` and `used-tables` need.
    #[command(
        after_help = "Examples:\n  sudoku-lab rate docs/puzzles/famous.txt\n  sudoku-lab rate --sample 100 datasets/generated/9x9-minimal.txt"
    )]
    Rate(RateArgs),
    /// Estimate the searches a node budget cuts off (Knuth's random probes);
    /// with --exact, judge the estimates against full searches.
    #[command(
        after_help = "Examples:\n  sudoku-lab estimate -s naive docs/puzzles/famous.txt\n  sudoku-lab estimate -s used-tables --budget 100000 --exact docs/puzzles/famous.txt"
    )]
    Estimate(estimate::EstimateArgs),
    /// The public corpora (17-clue, top1465, forum-hardest-1106): list, fetch.
    #[command(
        after_help = "Examples:\n  sudoku-lab datasets list\n  sudoku-lab datasets fetch top1465"
    )]
    Datasets(DatasetsArgs),
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

/// Exit code 1 with its `error:` line on standard error (`why`): every
/// command that exits 1 says why, as every other failure does.
pub(crate) fn unsolved(why: &str) -> ExitCode {
    crate::io::output::note(format_args!("error: {why}"));
    ExitCode::from(EXIT_UNSOLVED)
}

/// How `speed` and `ladder` begin the stderr lines that say the machine was
/// busy or slow while they measured, or its CPU clock too coarse (they are
/// about the machine, not about the command: tests that compare output
/// leave them out).
pub const BUSY_NOTE: &str = "note: the times may read high";

/// Says on stderr why the times just measured are less trustworthy than
/// usual, if they are ([`crate::measure::Conditions::busy`]), so that a
/// figure from a slow or loaded machine never passes silently.
fn note_conditions(conditions: &crate::measure::Conditions) {
    if let Some(clock) = crate::export::present::clock_note(conditions) {
        crate::io::output::note(format_args!("{BUSY_NOTE}: {clock}"));
    }
    if let Some(why) = conditions.busy() {
        crate::io::output::note(format_args!(
            "{BUSY_NOTE} ({why}); run again when the machine is quieter"
        ));
    }
}

/// Runs one parsed command line; `argv` is what it was parsed from (the
/// report quotes it).
fn run(cli: Cli, argv: &[OsString]) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => solve::solve(&args),
        Command::Count(args) => solve::count(&args),
        Command::Trace(args) => trace::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Ladder(args) => ladder::ladder(&args),
        Command::Compare(args) => compare::compare(&args, argv),
        Command::Report(args) => compare::report(&args, argv),
        Command::Diff(args) => diff::run(&args),
        Command::Speed(args) => speed::speed(&args),
        Command::Generate(args) => generate::generate(&args),
        Command::Rate(args) => rate::rate(&args),
        Command::Estimate(args) => estimate::estimate(&args),
        Command::Datasets(args) => datasets::run(&args),
        Command::Strategies => {
            let every = Strategy::every();
            let width = every.iter().map(|s| s.name().len()).max().unwrap_or(0);
            let mut out = crate::io::output::stdout();
            for s in every {
                writeln!(out, "{:width$}  {}", s.name(), s.summary())?;
            }
            out.flush()?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
