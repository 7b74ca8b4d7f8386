//! What the chart of outside programs among the rungs shows
//! ([`crate::export::chart::programs`]): per board size, one bar per rung and two
//! per program (whole time, and time beyond its start-up), each the median
//! time per puzzle over the puzzles every program of that size finished
//! (programs that finished none have no bar; sizes without such a puzzle
//! are left out). Computed only when a run had programs; the rows come from
//! `results.csv` and `programs.csv`.

use std::collections::HashSet;

use crate::analysis::summary::Kind;
use crate::base::strategy::Strategy;
use crate::measure::results::Row;
use crate::measure::results::{ProgramRow, Startup};
use crate::measure::stats::median;

/// One bar.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Bar {
    pub label: String,
    /// Median time per puzzle (ns); 0 for "not above start-up".
    pub ns: f64,
    /// The rung's colour; `None` for a program's bars.
    pub strategy: Option<Strategy>,
    /// Puzzles the median is over.
    pub n: usize,
}

/// One board size.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Panel {
    pub side: u32,
    /// Puzzles every program of this size finished.
    pub puzzles: usize,
    pub bars: Vec<Bar>,
}

/// A bar of the median of `times` (over `n` puzzles), when there are any.
fn bar(label: String, mut times: Vec<f64>, n: usize, strategy: Option<Strategy>) -> Option<Bar> {
    let ns = median(&mut times)?;
    Some(Bar {
        label,
        ns,
        strategy,
        n,
    })
}

/// The panels: per size, the puzzles every program finished, and the
/// median time of each rung and program on them.
pub(crate) fn panels(results: &[Row], rows: &[ProgramRow], startups: &[Startup]) -> Vec<Panel> {
    let mut sides: Vec<u32> = rows.iter().map(|r| r.puzzle.size).collect();
    sides.sort_unstable();
    sides.dedup();
    let mut out = Vec::new();
    for side in sides {
        let mine: Vec<&ProgramRow> = rows.iter().filter(|r| r.puzzle.size == side).collect();
        // Programs that finished no puzzle of this size have no bar.
        let programs = crate::analysis::first_seen(
            mine.iter()
                .filter(|r| Kind::of(r.outcome).finished())
                .map(|r| r.program.as_str()),
        );
        let mut puzzles: Vec<(&str, u64)> = mine
            .iter()
            .map(|r| (r.puzzle.dataset.as_str(), r.puzzle.index))
            .collect();
        puzzles.sort_unstable();
        puzzles.dedup();
        let common: HashSet<(&str, u64)> = puzzles
            .into_iter()
            .filter(|&(d, i)| {
                programs.iter().all(|p| {
                    mine.iter().any(|r| {
                        r.program.as_str() == *p
                            && (r.puzzle.dataset.as_str(), r.puzzle.index) == (d, i)
                            && Kind::of(r.outcome).finished()
                    })
                })
            })
            .collect();
        if common.is_empty() {
            continue; // no puzzle of this size that every program finished
        }
        let mut bars = rung_bars(results, &common);
        bars.extend(program_bars(&mine, &programs, &common, startups, side));
        out.push(Panel {
            side,
            puzzles: common.len(),
            bars,
        });
    }
    out
}

/// Each rung's bar: its median time over the common puzzles.
fn rung_bars(results: &[Row], common: &HashSet<(&str, u64)>) -> Vec<Bar> {
    let mut bars = Vec::new();
    let mut strategies: Vec<Strategy> = results.iter().map(|r| r.strategy).collect();
    strategies.sort();
    strategies.dedup();
    for s in strategies {
        let times: Vec<f64> = results
            .iter()
            .filter(|r| {
                r.strategy == s && common.contains(&(r.puzzle.dataset.as_str(), r.puzzle.index))
            })
            .filter(|r| Kind::of(r.outcome).finished())
            .filter_map(|r| r.timing.map(|t| t.ns()))
            .collect();
        let n = times.len();
        bars.extend(bar(s.name().to_string(), times, n, Some(s)));
    }
    bars
}

/// Each program's two bars: beyond start-up (where its start-up is known)
/// and whole, medians over the common puzzles.
fn program_bars(
    mine: &[&ProgramRow],
    programs: &[&str],
    common: &HashSet<(&str, u64)>,
    startups: &[Startup],
    side: u32,
) -> Vec<Bar> {
    let mut bars = Vec::new();
    for p in programs {
        let times: Vec<f64> = mine
            .iter()
            .filter(|r| {
                r.program.as_str() == *p
                    && common.contains(&(r.puzzle.dataset.as_str(), r.puzzle.index))
            })
            .filter_map(|r| r.time_ns.map(|t| t as f64))
            .collect();
        let n = times.len();
        let startup = startups
            .iter()
            .find(|s| s.program.as_str() == *p && s.side == side)
            .map(|s| s.ns);
        if let Some(startup) = startup {
            let beyond: Vec<f64> = times.iter().map(|t| (t - startup).max(0.0)).collect();
            bars.extend(bar(format!("{p} beyond start-up"), beyond, n, None));
        }
        bars.extend(bar(format!("{p} (whole)"), times, n, None));
    }
    bars
}
