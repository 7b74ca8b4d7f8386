//! sudoku-lab: what each classic optimisation of a backtracking Sudoku solver
//! buys, measured with exact work counters and timings.
//!
//! The crate is seven layers, each a folder, each importing only from the
//! layers below it (ARCHITECTURE.md has the table; `tests/layers.rs` holds the
//! code to it):
//!
//! 1. [`base`] — the board, its text layouts, the counters, the shared search,
//!    the ladder of rungs (one file per rung) and the reusable [`Solver`].
//! 2. [`io`] — puzzles in (datasets, files, corpora, generated sets, outside
//!    programs) and bytes out (the one file writer, CSV).
//! 3. [`measure`] — the one way to time a solve, statistics, throughput.
//! 4. [`analysis`] — plain data from runs: summaries, chart data, diffs,
//!    estimates, traces, and [`analysis::check`], the test every rung passes.
//! 5. [`export`] — data to bytes: tables, numbers, charts, report prose, the
//!    replay page.
//! 6. [`run`] — whole jobs: `compare`, shards and their merge, `diff`.
//! 7. the command line (`sudoku-lab`), private: reach it through
//!    [`main_with`] / [`run_with`].
//!
//! **Your own rung.** Implement [`Rung`] for a type in your crate, check it
//! with [`analysis::check::rung`] in a test, and run the whole command line
//! with it on the ladder through [`main_with`]: every answer verified, exact
//! counters, `compare`'s CSV files, charts and report, `speed` and `ladder`
//! tables. `examples/lcv.rs` is a worked example;
//! `docs/write-your-own-rung.md` walks through it.
//!
//! **A harness.** [`Solver::count`] is the call outside benchmark harnesses
//! make (tdoku's among them): one solver per size and strategy, nothing
//! allocated per puzzle; [`Solver::guesses`] the branch points of that call.

// Public pages name the private modules that feed them (a chart names its data's module): CI
// builds the docs with `--document-private-items`, where those links resolve.
#![allow(rustdoc::private_intra_doc_links)]

pub mod analysis;
pub mod base;
mod cli;
pub mod export;
pub mod io;
pub mod measure;
pub mod run;

pub use base::board::{Board, BoxSize, Cell};
pub use base::counters::{Counter, Counts, NoCount};
pub use base::format::{Format, ParseError, Puzzle};
pub use base::search::{Budget, End, Limits};
pub use base::solver::Solver;
pub use base::strategy::{LabCounter, Outcome, Run, Rung, Strategy};
pub use cli::{AddRung, BUSY_NOTE, main_with, run_with};
/// Exit codes of the command line (docs/reference.md, *Exit codes*).
pub use cli::{EXIT_BUG, EXIT_IO, EXIT_UNSOLVED, EXIT_USAGE};
