//! `speed`'s text: the table, Markdown and CSV of [`SpeedRow`]s, and the
//! footer that says how they were measured. (Measuring is
//! [`crate::measure::speed`]'s.)

use super::{Align, Table, fmt_value_ci, sig};
use crate::base::strategy::Outcome;
use crate::measure::speed::{Clock, SpeedOptions, SpeedRow};

/// Column titles of the table and Markdown exports.
pub(crate) const COLUMNS: [&str; 10] = [
    "dataset",
    "strategy",
    "puzzles",
    "puzzles/s",
    "µs/puzzle",
    "µs q1–q3",
    "no-guess %",
    "guesses/puzzle",
    "nodes/puzzle",
    "note",
];

/// The text cells of one row, in `COLUMNS` order. Missing throughput is
/// "n/a"; counter columns cut short by the budget are marked "≥".
pub fn cells(row: &SpeedRow) -> [String; 10] {
    let bound = if row.counters_exact() { "" } else { "≥" };
    let [pps, us, spread] = throughput(row);
    let counters = row.counted() && row.with(Outcome::Unsupported) < row.puzzles;
    let counter = |text: String| if counters { text } else { na() };
    [
        row.dataset.clone(),
        row.entrant.name().to_string(),
        row.puzzles.to_string(),
        pps,
        us,
        spread,
        counter(format!("{:.1}", row.pct_without_guessing())),
        counter(format!("{bound}{:.1}", row.guesses_per_puzzle())),
        counter(format!("{bound}{:.1}", row.nodes_per_puzzle())),
        notes(row).join("; "),
    ]
}

fn na() -> String {
    "n/a".to_string()
}

/// The throughput cells: puzzles/s, µs/puzzle (each with its interval) and
/// the quartiles of the per-puzzle times; "n/a" without a timing.
fn throughput(row: &SpeedRow) -> [String; 3] {
    let Some(t) = &row.timing else {
        return [na(), na(), na()];
    };
    [
        t.puzzles_per_sec()
            .map_or_else(na, |pps| fmt_value_ci(pps, t.puzzles_per_sec_interval())),
        fmt_value_ci(t.us_per_puzzle(), t.us_per_puzzle_interval()),
        format!(
            "{}–{}",
            sig(t.per_puzzle.q1 / 1e3),
            sig(t.per_puzzle.q3 / 1e3)
        ),
    ]
}

/// The note column: how the row was timed where it is not the thread's
/// CPU time, severe outliers, and the puzzles that failed, had no
/// solution, went over budget or were of a size it does not run.
fn notes(row: &SpeedRow) -> Vec<String> {
    let mut notes = Vec::new();
    match row.timing.map(|t| t.clock) {
        Some(Clock::ChildCpu) => notes.push("program: child CPU time, start-up included".into()),
        Some(Clock::Wall) => notes.push("program (stream): wall time per answer".into()),
        Some(Clock::RungWall) => {
            notes.push("wall time per solve (this machine's CPU clock is too coarse)".into())
        }
        Some(Clock::ThreadCpu) | None => {}
    }
    // Severe outliers are runs something else disturbed: say how many, as
    // hyperfine warns, so a throughput read on a busy machine is not taken
    // for the machine's.
    if let Some(o) = row.timing.and_then(|t| t.outliers).filter(|o| o.severe > 0) {
        notes.push(format!(
            "outliers: {} mild, {} severe of {} runs (Tukey)",
            o.mild,
            o.severe,
            row.timing.map_or(0, |t| t.runs)
        ));
    }
    let failures: Vec<String> = Outcome::ALL
        .iter()
        .filter(|o| o.is_program_failure() && row.with(**o) > 0)
        .map(|&o| format!("{} {o}", row.with(o)))
        .collect();
    if !failures.is_empty() {
        notes.push(failures.join(", "));
    }
    if let Some(first) = &row.failure {
        notes.push(format!("first: {first}"));
    }
    if row.with(Outcome::NoSolution) > 0 {
        notes.push(format!(
            "{} without solution",
            row.with(Outcome::NoSolution)
        ));
    }
    if row.with(Outcome::BudgetExceeded) > 0 {
        notes.push(format!(
            "{} over budget ({} nodes)",
            row.with(Outcome::BudgetExceeded),
            row.budget
        ));
    }
    let unsupported = row.with(Outcome::Unsupported);
    if unsupported > 0 {
        notes.push(format!("{unsupported} of a size it does not support"));
    }
    notes
}

/// The table of `rows`: names left, figures right, the note left.
fn table(rows: &[SpeedRow], escape: bool) -> Table {
    Table::new(COLUMNS, 2)
        .align(9, Align::Left)
        .rows(rows.iter().map(|r| {
            cells(r)
                .map(|c| if escape { c.replace('|', "\\|") } else { c })
                .to_vec()
        }))
}

/// An aligned plain-text table.
pub(crate) fn to_table(rows: &[SpeedRow]) -> String {
    table(rows, false).text("")
}

/// A Markdown (GitHub) table.
pub(crate) fn to_markdown(rows: &[SpeedRow]) -> String {
    table(rows, true).markdown_compact()
}

/// CSV, one flat record per row (see [`crate::measure::speed::SpeedRecord`]).
pub(crate) fn to_csv(rows: &[SpeedRow]) -> anyhow::Result<String> {
    let records: Vec<_> = rows.iter().map(SpeedRow::record).collect();
    crate::io::csv_file::serialized(&records)
}

/// How the rows were measured, for the end of the terminal table.
/// `sample` says which puzzles ran; `time_limit` is the programs' limit per
/// puzzle in seconds, when programs ran.
pub(crate) fn footer(opts: &SpeedOptions, sample: &str, time_limit: Option<f64>) -> String {
    let programs = match time_limit {
        None => String::new(),
        Some(limit) => format!(
            "programs: one run per puzzle, every answer checked; time = the child's CPU time \
             (user + system, process start-up included; wall time in stream mode); time limit \
             {limit} s per puzzle; no counters\n"
        ),
    };
    let how_long = match opts.set_time {
        Some(t) => format!("about {} s per strategy over the set", t.as_secs_f64()),
        None => format!(
            "≥{} ms per puzzle",
            opts.method.min_time.as_secs_f64() * 1e3
        ),
    };
    let limit = match opts.limit {
        1 => "first solution".to_string(),
        k => format!("count to {k}"),
    };
    let permute = if opts.method.permute {
        ", a random symmetry of each puzzle in each pass"
    } else {
        ""
    };
    format!(
        "\nsingle thread; cold passes (seed {}{permute}): every puzzle once per pass in a fresh \
         shuffle, ≥{} passes, {how_long}; puzzles/s = puzzles ÷ the median time of a whole pass (all its runs); \
         [low, high] = its 95% interval, a seeded bootstrap over the puzzles of the set's time (Σ of \
         each puzzle's mean run): how much it depends on which puzzles were measured; µs q1–q3 = quartiles of the per-puzzle times (each the median over passes, per-thread CPU \
         time); {limit}; budget {} nodes per puzzle; {sample}; every solution verified\n\
         between two rungs, puzzles/s is a ratio of sums (the slowest puzzles weigh most) of rungs \
         timed one after another, where `compare` gives the geometric mean of per-puzzle ratios \
         of rungs timed interleaved: on a skewed set or a busy machine the two differ (MEASURING.md, \
         \"`speed` against `compare`\"), and a step of the ladder is `compare`'s to quote\n",
        opts.method.seed, opts.method.min_samples, opts.budget
    ) + &programs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::strategy::Strategy;
    use crate::io::program::Entrant;
    use crate::measure::speed::SetTiming;
    use crate::measure::stats::{Outliers, Summary};

    #[test]
    fn severe_outliers_are_flagged_in_the_note() {
        let mut row = SpeedRow::new(
            "set",
            Entrant::Rung(Strategy::Mrv),
            &[],
            crate::base::defaults::MEASURE_BUDGET,
        );
        let timing = |mild, severe| SetTiming {
            total_ns: 1e6,
            passes: 5,
            per_puzzle: Summary::default(),
            runs: 50,
            clock: Clock::ThreadCpu,
            total_interval: None,
            outliers: Some(Outliers { mild, severe }),
        };
        row.timing = Some(timing(4, 0));
        assert!(!cells(&row)[9].contains("outliers"), "{:?}", cells(&row));
        row.timing = Some(timing(4, 2));
        assert!(
            cells(&row)[9].contains("outliers: 4 mild, 2 severe of 50 runs"),
            "{:?}",
            cells(&row)
        );
    }
}
