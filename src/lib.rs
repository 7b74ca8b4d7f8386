//! sudoku-lab: what each classic optimisation of a backtracking Sudoku solver
//! buys, measured with exact work counters and timings.
//!
//! * [`board`] — sizes 4×4..25×25, typed indices, consistent boards.
//! * [`mod@format`] — line, grid and compact layouts, with positioned errors.
//! * [`strategy`] — the ladder of solvers, one file per rung.
//! * [`counters`] / [`search`] — the work counters and the shared search context.
//! * [`solver`] — a reusable, allocation-free handle on one strategy and size.
//! * [`trace`] / [`tour`] — a recording counter and the measurements behind `docs/`.
//! * [`replay`] — traced searches as a self-contained web page.
//! * [`compare`] — strategies × datasets → CSV, charts and a written report.
//! * [`chart`] — the chart engine's setup (plotters, embedded font, SVG + PNG).
//! * [`speed`] — throughput measurement (the `speed` command).
//! * [`program`] — outside solver programs, run, timed and judged beside the ladder.
//! * [`check`] — the fixture table and the invariant checks any rung must pass.
//! * [`dataset`] / [`input`] — the one puzzle reader (text layouts and CSV),
//!   datasets by name or path.
//! * [`measure`] / [`stats`] / [`sample`] — the one way to time a solve,
//!   summarise and draw a seeded sample.
//! * [`estimate`] — how big the tree a budget cut off is: Knuth's random probes.
//! * [`defaults`] — every default value (budgets, timing, seed, jobs).
//! * [`shard`] — one `compare` plan split over machines and schedulers.
//! * [`generate`] / [`rate`] — seeded puzzle generation; difficulty rating.
//! * [`present`] / [`progress`] — number and table formatting, progress
//!   reports.
//!
//! The command line (`sudoku-lab`) is private: reach it through
//! [`main_with`] / [`run_with`].
//!
//! **Your own rung.** Implement [`Rung`] for a type in your crate, check it
//! with [`check::rung`] in a test, and run the whole command line with it on
//! the ladder through [`main_with`]: every answer verified, exact counters,
//! `compare`'s CSV files, charts and report, `speed` and `ladder` tables.
//! `examples/lcv.rs` is a worked example; `docs/write-your-own-rung.md` walks
//! through it.

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
