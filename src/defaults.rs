//! Every default of the lab, in one place, with the reason for it. The
//! command-line help and the README quote these values.

use std::time::Duration;

use crate::board::BoxSize;
use crate::measure::Method;
use crate::search::Budget;

/// `solve` and `count`: whoever asks for a solution wants the answer, so
/// there is no node budget unless one is given.
pub const SOLVE_BUDGET: Budget = Budget::UNLIMITED;

/// `compare`, `speed`, `ladder`, `trace`, `rate` and `replay`: 5,000,000
/// nodes per puzzle × strategy. Every table-driven rung finishes every shipped
/// puzzle well within it; the rescanning rungs give up on the hardest after
/// well under a second each (recorded as over budget, never silently dropped).
pub const MEASURE_BUDGET: Budget = Budget::nodes(5_000_000);

/// `replay`: events kept in full per strategy (the rest is summarised).
/// Ten thousand events show the opening of any search, stay instant to step
/// through in a browser, and keep a page of one strategy near half a megabyte.
pub const REPLAY_STEPS: usize = 10_000;

/// The generator's uniqueness checks: generous for small boards (never
/// reached for 4×4 and 9×9), tighter for large ones so that a hard check is
/// abandoned (and its clue kept) rather than waited for.
pub fn uniqueness_budget(size: BoxSize) -> Budget {
    match size.side() {
        4 | 9 => Budget::nodes(10_000_000),
        16 => Budget::nodes(200_000),
        _ => Budget::nodes(100_000),
    }
}

/// Timing of one puzzle × strategy: at least 5 ms of timed runs in at least
/// 5 samples, so a 1 µs solve is timed about 5,000 times and a 2 s one once.
/// Measured on this lab's 2-core machine: with 5 samples the median of a
/// repeated measurement moves by a few percent, where a single run moved by
/// more than 2× on one row in thirty.
pub const TIMING: Method = Method {
    min_time: Duration::from_millis(5),
    min_samples: 5,
};

/// Puzzle × strategy tasks `compare` measures together, their samples
/// interleaved ([`crate::measure::measure_all`]): at 5 ms or more of timed
/// runs each, a group takes a worker at least 1.3 s, so one sample of every
/// task takes a quarter of a second or more, longer than most stretches of
/// slowness seen on this lab's VM (a stopped CPU for 30–130 ms, 2× for a few
/// hundred ms). Small enough that the two workers share the default run
/// evenly. Two default runs moved 9% of their rows by more than 2× without
/// it, 0.08–0.9% with it.
pub const MEASURE_GROUP: usize = 256;

/// `--time-limit`: wall-clock seconds an outside program ([`crate::program`])
/// may take on one puzzle before it is killed and the puzzle recorded as
/// `time-limit`. Ten times Baekjoon's most generous limit for these problems
/// (about 1 s for PyPy3 on 2580), so that a correct program that is merely
/// slow still gets a time, while a looping one costs ten seconds per puzzle.
pub const TIME_LIMIT: Duration = Duration::from_secs(10);

/// `datasets fetch`: where the public corpora are published. tdoku's
/// repository (Tom Dillon's benchmark of the fastest solvers) carries the
/// lists every solver author measures on in its `data.zip`; the lab checks
/// each list it takes from there by a hash of its puzzles
/// ([`crate::fetch::CORPORA`]), so a mirror serves as well (`--from`, or
/// `SUDOKU_LAB_FETCH_BASE`).
pub const FETCH_BASE: &str = "https://github.com/t-dillon/tdoku/raw/master";

/// Seed of every seeded sample (`--sample N --seed S`).
pub const SEED: u64 = 1;

/// Worker threads of commands that fan out (`compare`, `rate`): every
/// hardware thread.
pub fn jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Random puzzles per kind in the checks every rung is held to
/// (`check::Checks::default()`, seeded with [`SEED`]): 30 on 4×4 and 9×9
/// (6 on 16×16, 3 on 25×25); about a second per rung in a release build.
pub const CHECK_PUZZLES: usize = 30;

/// Node budget of each fixture run of the checks: far above what any
/// fixture needs (the row-major rungs need about 1.1M nodes on the hardest).
pub const CHECK_FIXTURE_BUDGET: Budget = Budget::nodes(20_000_000);

/// Node budget of a check's run on a random puzzle: room for the
/// rescanning rungs on 4×4 and 9×9 (where they usually finish), little on
/// the large boards where their trees explode (they are then counted as
/// over budget, not compared).
pub fn check_budget(size: BoxSize) -> Budget {
    match size.side() {
        4 => Budget::nodes(1_000_000),
        9 => Budget::nodes(50_000),
        16 => Budget::nodes(10_000),
        _ => Budget::nodes(2_000),
    }
}
