//! Every default of the lab, in one place, with the reason for it. The
//! command-line help and docs/reference.md quote these values.

use std::time::Duration;

use crate::base::board::BoxSize;
use crate::base::search::Budget;

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
pub(crate) const REPLAY_STEPS: usize = 10_000;

/// The generator's uniqueness checks: generous for small boards (never
/// reached for 4×4 and 9×9), tighter for large ones so that a hard check is
/// abandoned (and its clue kept) rather than waited for.
pub(crate) fn uniqueness_budget(size: BoxSize) -> Budget {
    match size.side() {
        4 | 9 => Budget::nodes(10_000_000),
        16 => Budget::nodes(200_000),
        _ => Budget::nodes(100_000),
    }
}

/// Timing of one puzzle × strategy: cold passes (`src/measure/`) until its
/// timed runs add up to 1 ms in at least 5 runs, so a 7 µs solve is timed
/// about 140 times, each time between other puzzles, and a 2 s one once.
/// The median of 5 cold runs of a short puzzle moves by tens of percent
/// (a run sees the caches as the last puzzle left them); of 140, by a few.
/// (`crate::measure::Method::DEFAULT` is built from these two and [`SEED`].)
pub(crate) const TIMING_MIN_TIME: Duration = Duration::from_millis(1);
/// See [`TIMING_MIN_TIME`].
pub(crate) const TIMING_MIN_SAMPLES: u32 = 5;
/// ...or until the 95% interval of the task's median is within ±3% of it,
/// whichever comes first: a quick puzzle with steady runs stops at a few
/// dozen samples instead of a millisecond's worth (at ±3% a ratio of two
/// rows is known to about ±4%, well inside `diff`'s noise, [`DIFF_NOISE`]).
pub(crate) const TIMING_TIGHT: f64 = 0.03;

/// `speed`'s default time per strategy over a whole set: `--min-time` is
/// this ÷ the set's puzzles, so a strategy is timed for about a second
/// whatever the set's size (a 49,158-puzzle file: the 5 passes alone, a few
/// seconds for `fast`), as a throughput harness times (tdoku's: `-t`).
pub(crate) const SPEED_SET_TIME: Duration = Duration::from_secs(1);

/// `--limit`: solutions a measuring command looks for before it stops
/// (1 = solve; 2 = the field's "count to 2", which proves uniqueness).
pub const LIMIT: u64 = 1;

/// Puzzle × strategy tasks `compare` measures together, their samples
/// interleaved (`crate::measure::measure_all`): at 5 ms or more of timed
/// runs each, a group takes a worker at least 1.3 s, so one sample of every
/// task takes a quarter of a second or more, longer than most stretches of
/// slowness seen on this lab's VM (a stopped CPU for 30–130 ms, 2× for a few
/// hundred ms). Small enough that the two workers share the default run
/// evenly. Two default runs moved 9% of their rows by more than 2× without
/// it, 0.08–0.9% with it.
pub const MEASURE_GROUP: usize = 256;

/// `--time-limit`: wall-clock seconds an outside program ([`crate::io::program`])
/// may take on one puzzle before it is killed and the puzzle recorded as
/// `time-limit`. Ten times Baekjoon's most generous limit for these problems
/// (about 1 s for PyPy3 on 2580), so that a correct program that is merely
/// slow still gets a time, while a looping one costs ten seconds per puzzle.
pub(crate) const TIME_LIMIT: Duration = Duration::from_secs(10);

/// `datasets fetch`: where the public corpora are published. tdoku's
/// repository (Tom Dillon's benchmark of the fastest solvers) carries the
/// lists every solver author measures on in its `data.zip`; the lab checks
/// each list it takes from there by a hash of its puzzles
/// ([`crate::io::fetch::CORPORA`]), so a mirror serves as well (`--from`, or
/// `SUDOKU_LAB_FETCH_BASE`).
pub(crate) const FETCH_BASE: &str = "https://github.com/t-dillon/tdoku/raw/master";

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
pub(crate) const CHECK_PUZZLES: usize = 30;

/// Node budget of each fixture run of the checks: far above what any
/// fixture needs (the row-major rungs need about 1.1M nodes on the hardest).
pub(crate) const CHECK_FIXTURE_BUDGET: Budget = Budget::nodes(20_000_000);

/// Node budget of a check's run on a random puzzle: room for the
/// rescanning rungs on 4×4 and 9×9 (where they usually finish), little on
/// the large boards where their trees explode (they are then counted as
/// over budget, not compared).
pub(crate) fn check_budget(size: BoxSize) -> Budget {
    match size.side() {
        4 => Budget::nodes(1_000_000),
        9 => Budget::nodes(50_000),
        16 => Budget::nodes(10_000),
        _ => Budget::nodes(2_000),
    }
}

/// Estimates of cut-off searches ([`crate::analysis::estimate`]): the probes may enter
/// or skip up to a fiftieth of the budget they replace (100,000 nodes for
/// the 5,000,000-node budget, 2%), and at least 20,000 nodes for small
/// budgets. At least 10 probes, so the interval has a spread to stand on.
pub(crate) const ESTIMATE_SHARE: u64 = 50;

/// The estimator's least effort in nodes, whatever the budget
/// (`crate::analysis::estimate::Options::DEFAULT`, seeded with [`SEED`], so the same
/// puzzle gets the same estimate).
pub(crate) const ESTIMATE_EFFORT: u64 = 20_000;
/// At least this many probes (see [`ESTIMATE_SHARE`]).
pub(crate) const ESTIMATE_MIN_RUNS: u64 = 10;
/// At most this many probes, whatever the effort.
pub(crate) const ESTIMATE_MAX_RUNS: u64 = 100_000;

/// `diff`: the run-to-run spread (NEW ÷ OLD of the same code within
/// 1 ± 10%), added to every ratio's interval ([`crate::analysis::diff::widen`]): the
/// bootstrap is over puzzles, so a drift of the whole run is not in it, and
/// without this term an A/A diff read ×0.954 [0.947, 0.959]. Ten times
/// criterion's 1% noise threshold: the lab's times are per-thread CPU times
/// on a shared machine. Two runs of the same code (`mrv`, `propagate`,
/// `dlx`, `fast` on three sets, 12 pairs, at load 11) moved by up to ×1.08,
/// with intervals over puzzles whose low ends reached ×1.05.
pub(crate) const DIFF_NOISE: f64 = 0.10;
/// `diff`'s run-to-run spread when either run's `meta.csv` says `busy`:
/// there a whole run drifts further than [`DIFF_NOISE`]. Two sittings of
/// twenty A/A pairs each (`scripts/aa-rate.sh`: `mrv`, `propagate`, `fast`,
/// `fast-triads` on four 9×9 sets, 16 rows a pair, load 11–17 on 2 cores)
/// moved by up to ×1.27 and ×1.33; at 10% 300 and 274 of 320 intervals
/// held ×1 (15 and 11 of 20 diffs wholly), at 25% 19 and 18 of 20 diffs,
/// at 30% 20 and 19.
pub(crate) const DIFF_NOISE_BUSY: f64 = 0.30;

/// Resamples of every bootstrap interval ([`crate::measure::stats::bootstrap()`]),
/// seeded with [`SEED`] so a report redrawn is the same report. A thousand
/// put the 2.5% and 97.5% points within about a tenth of the interval's
/// width of where ten thousand would (measured in the module's tests), and
/// cost well under a second for the largest ladder.
pub const BOOTSTRAP_RESAMPLES: usize = 1000;

/// The confidence of every interval the lab prints: 95%.
pub(crate) const CONFIDENCE: f64 = 0.95;
