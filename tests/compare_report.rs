//! The report tells the truth (issue #12). Every figure of README.md's text
//! and tables is recomputed here from `results.csv` alone, with the rule the
//! report states, by code that shares nothing with the report's but the
//! number formats; the 9×9 ladder is shown to use one puzzle set for every
//! rung; the progress estimate is replayed on the committed run; filtered
//! runs write their own folder.

mod compare_support;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use compare_support::lab;
use sudoku_lab::Strategy;
use sudoku_lab::export::{fmt_count, fmt_ratio, fmt_ratio_ci, fmt_time, fmt_time_ci, size_name};
use sudoku_lab::measure::{Interval, mean_interval, median_interval};
use sudoku_lab::run::Schedule;

// ------------------------------------------------------------------ reading

/// One row of results.csv, as the report needs it.
#[derive(Clone, Debug)]
struct Run {
    dataset: String,
    index: u64,
    size: u32,
    clues: u32,
    strategy: Strategy,
    outcome: String,
    /// (nodes, nanoseconds rounded), for every outcome where something ran.
    measured: Option<(u64, u64)>,
    /// Timed runs (for the progress replay).
    runs: u64,
    /// A cut-off run's estimate of its whole search: (nodes, low, high).
    estimate: Option<(f64, f64, f64)>,
    /// Samples beyond Tukey's fences (mild, severe), where the file says.
    outliers: Option<(u64, u64)>,
}

fn read(path: &Path) -> Vec<Run> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let c = [
        "dataset", "index", "size", "clues", "strategy", "outcome", "nodes", "time_ns", "runs",
    ]
    .map(col);
    let est =
        ["nodes_est", "nodes_est_low", "nodes_est_high"].map(|n| h.iter().position(|c| c == n));
    let out = ["outliers_mild", "outliers_severe"].map(|n| h.iter().position(|c| c == n));
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            let nodes = &rec[c[6]];
            Run {
                dataset: rec[c[0]].to_string(),
                index: rec[c[1]].parse().unwrap(),
                size: rec[c[2]].parse().unwrap(),
                clues: rec[c[3]].parse().unwrap(),
                strategy: rec[c[4]].parse().unwrap(),
                outcome: rec[c[5]].to_string(),
                measured: (!nodes.is_empty()).then(|| {
                    let t: f64 = rec[c[7]].parse().unwrap();
                    (nodes.parse().unwrap(), t.round() as u64)
                }),
                runs: rec[c[8]].parse().unwrap_or(0),
                estimate: match est {
                    [Some(a), Some(b), Some(c)] => {
                        match (rec[a].parse(), rec[b].parse(), rec[c].parse()) {
                            (Ok(a), Ok(b), Ok(c)) => Some((a, b, c)),
                            _ => None,
                        }
                    }
                    _ => None,
                },
                outliers: match out {
                    [Some(m), Some(s)] => rec[m].parse().ok().zip(rec[s].parse().ok()),
                    _ => None,
                },
            }
        })
        .collect()
}

/// The runs of each puzzle (dataset, index), datasets in file order.
fn puzzles(rows: &[Run]) -> Vec<Vec<Run>> {
    let mut out: Vec<Vec<Run>> = Vec::new();
    for r in rows {
        match out.last_mut() {
            Some(p) if p[0].dataset == r.dataset && p[0].index == r.index => p.push(r.clone()),
            _ => out.push(vec![r.clone()]),
        }
    }
    out
}

fn strategies(rows: &[Run]) -> Vec<Strategy> {
    let set: BTreeSet<Strategy> = rows.iter().map(|r| r.strategy).collect();
    set.into_iter().collect()
}

/// Type-7 quantile (linear interpolation between ranks), as the report states.
fn quantile(values: &[u64], q: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_unstable();
    let h = q * (v.len() - 1) as f64;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(v.len() - 1);
    v[lo] as f64 + (h - lo as f64) * (v[hi] as f64 - v[lo] as f64)
}

fn ln(x: u64) -> f64 {
    (x.max(1) as f64).ln()
}

// ------------------------------------------------------------------ the rule

/// A size's ladder, recomputed with the stated rule.
struct Expected {
    side: u32,
    puzzles: usize,
    solvable: usize,
    /// (strategy, mean ln nodes, mean ln time) over the set.
    rungs: Vec<(Strategy, f64, f64)>,
    off: Vec<(Strategy, usize)>,
    not_run: Vec<Strategy>,
    /// Index (into this size's puzzles) of the ladder set.
    set: Vec<usize>,
    no_solution: usize,
    unfinished: usize,
    unfinished_by: Vec<(Strategy, usize)>,
    missing: usize,
    /// Per rung, per puzzle of the set: (ln nodes, ln time).
    logs: Vec<Vec<(f64, f64)>>,
    /// The dataset of each puzzle of the set.
    set_datasets: Vec<String>,
}

fn ladder(all: &[Vec<Run>], order: &[Strategy], side: u32) -> Expected {
    let ps: Vec<&Vec<Run>> = all
        .iter()
        .filter(|p| p[0].size == side && p.iter().any(|r| r.measured.is_some()))
        .collect();
    let of = |p: &Vec<Run>, s: Strategy| p.iter().find(|r| r.strategy == s).cloned();
    let rows_of = |s: Strategy| {
        all.iter()
            .filter(|p| p[0].size == side)
            .filter_map(|p| of(p, s))
            .collect::<Vec<_>>()
    };
    let candidates: Vec<Strategy> = order
        .iter()
        .copied()
        .filter(|&s| rows_of(s).iter().any(|r| r.measured.is_some()))
        .collect();
    let not_run: Vec<Strategy> = order
        .iter()
        .copied()
        .filter(|&s| {
            let r = rows_of(s);
            !r.is_empty() && r.iter().all(|r| r.measured.is_none())
        })
        .collect();
    let solvable = ps
        .iter()
        .filter(|p| p.iter().any(|r| r.outcome == "solved"))
        .count();
    let solved = |s: Strategy| rows_of(s).iter().filter(|r| r.outcome == "solved").count();
    let (on, off): (Vec<Strategy>, Vec<Strategy>) =
        candidates.iter().partition(|&&s| 2 * solved(s) >= solvable);
    let mut e = Expected {
        side,
        puzzles: ps.len(),
        solvable,
        rungs: Vec::new(),
        off: off.iter().map(|&s| (s, solved(s))).collect(),
        not_run,
        set: Vec::new(),
        no_solution: 0,
        unfinished: 0,
        unfinished_by: Vec::new(),
        missing: 0,
        logs: Vec::new(),
        set_datasets: Vec::new(),
    };
    let mut by: BTreeMap<Strategy, usize> = BTreeMap::new();
    for (i, p) in ps.iter().enumerate() {
        let runs: Vec<Option<Run>> = on.iter().map(|&s| of(p, s)).collect();
        if !on.is_empty()
            && runs
                .iter()
                .all(|r| r.as_ref().is_some_and(|r| r.outcome == "solved"))
        {
            e.set.push(i);
        } else if p.iter().any(|r| r.outcome == "no-solution") {
            e.no_solution += 1;
        } else if runs
            .iter()
            .any(|r| r.as_ref().is_some_and(|r| r.outcome == "budget-exceeded"))
        {
            e.unfinished += 1;
            for (s, r) in on.iter().zip(&runs) {
                if r.as_ref().is_some_and(|r| r.outcome == "budget-exceeded") {
                    *by.entry(*s).or_default() += 1;
                }
            }
        } else {
            e.missing += 1;
        }
    }
    e.unfinished_by = on
        .iter()
        .filter_map(|s| by.get(s).map(|&n| (*s, n)))
        .collect();
    for &s in &on {
        let n = e.set.len().max(1) as f64;
        let (mut a, mut b) = (0.0, 0.0);
        let mut logs = Vec::new();
        for &i in &e.set {
            let (nodes, nanos) = of(ps[i], s).unwrap().measured.unwrap();
            a += ln(nodes);
            b += ln(nanos);
            logs.push((ln(nodes), ln(nanos)));
        }
        e.rungs.push((s, a / n, b / n));
        e.logs.push(logs);
    }
    e.set_datasets = e.set.iter().map(|&i| ps[i][0].dataset.clone()).collect();
    e
}

/// The 95% interval of the geometric mean of `f` over the set's puzzles
/// (the report's stated bootstrap: the lab's one interval of a mean).
fn gm_interval(values: impl Iterator<Item = f64>) -> Option<Interval> {
    let v: Vec<f64> = values.collect();
    mean_interval(&v).map(|i| i.map(f64::exp))
}

/// Intervals of (fewer nodes, cheaper nodes, speed-up) of rung `b` over `a`.
fn ratio_intervals(e: &Expected, a: usize, b: usize) -> [Option<Interval>; 3] {
    let pairs = || e.logs[a].iter().zip(&e.logs[b]);
    [
        gm_interval(pairs().map(|(x, y)| x.0 - y.0)),
        gm_interval(pairs().map(|(x, y)| (x.1 - x.0) - (y.1 - y.0))),
        gm_interval(pairs().map(|(x, y)| x.1 - y.1)),
    ]
}

// ------------------------------------------------------------------ the text

fn left_out(e: &Expected) -> String {
    let mut parts = Vec::new();
    if e.no_solution > 0 {
        parts.push(format!("{} with no solution", e.no_solution));
    }
    if e.unfinished > 0 {
        let by: Vec<String> = e
            .unfinished_by
            .iter()
            .map(|(s, n)| format!("`{}` {n}", s.name()))
            .collect();
        parts.push(format!(
            "{} that some rung did not finish within the budget ({})",
            e.unfinished,
            by.join(", ")
        ));
    }
    if e.missing > 0 {
        parts.push(format!("{} not run by every rung", e.missing));
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join("; ")
    }
}

fn absent(e: &Expected) -> String {
    let list = |v: &[Strategy]| v.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ");
    let mut parts: Vec<String> = Vec::new();
    let mut counts: Vec<usize> = Vec::new();
    for o in &e.off {
        if !counts.contains(&o.1) {
            counts.push(o.1);
        }
    }
    for n in counts {
        let same: Vec<Strategy> = e.off.iter().filter(|o| o.1 == n).map(|o| o.0).collect();
        parts.push(format!(
            "{} (solved {n} of {}, under half)",
            list(&same),
            e.solvable
        ));
    }
    if !e.not_run.is_empty() {
        let verb = if e.not_run.len() == 1 { "does" } else { "do" };
        parts.push(format!(
            "{} ({verb} not run {})",
            list(&e.not_run),
            size_name(e.side)
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("Not on this ladder: {}.", parts.join("; "))
    }
}

/// (fewer nodes, cheaper nodes, speed-up) of b over a.
fn ratios(a: &(Strategy, f64, f64), b: &(Strategy, f64, f64)) -> (f64, f64, f64) {
    (
        (a.1 - b.1).exp(),
        ((a.2 - a.1) - (b.2 - b.1)).exp(),
        (a.2 - b.2).exp(),
    )
}

fn describe(e: &Expected, ia: usize, ib: usize) -> String {
    let (a, b) = (&e.rungs[ia], &e.rungs[ib]);
    let (n, c, s) = ratios(a, b);
    let [ni, ci, si] = ratio_intervals(e, ia, ib);
    let recip = |i: Option<Interval>| {
        i.map(|i| Interval {
            low: 1.0 / i.high,
            high: 1.0 / i.low,
        })
    };
    let nodes = if fmt_ratio(n) == "×1.00" && ni.is_none_or(|i| i.low <= 1.0 && 1.0 <= i.high) {
        "visits the same number of nodes".to_string()
    } else if n > 1.0 {
        format!("visits {} fewer nodes", fmt_ratio_ci(n, ni))
    } else {
        format!("visits {} more nodes", fmt_ratio_ci(1.0 / n, recip(ni)))
    };
    let cost = if c >= 1.0 {
        format!("each {} cheaper", fmt_ratio_ci(c, ci))
    } else {
        format!("each {} dearer", fmt_ratio_ci(1.0 / c, recip(ci)))
    };
    let total = if s >= 1.0 {
        format!("{} faster", fmt_ratio_ci(s, si))
    } else {
        format!("{} slower", fmt_ratio_ci(1.0 / s, recip(si)))
    };
    format!(
        "`{}` over `{}`: {nodes}, {cost} → **{total}**",
        b.0.name(),
        a.0.name()
    )
}

fn plural(n: usize) -> String {
    format!("{n} puzzle{}", if n == 1 { "" } else { "s" })
}

/// The per-dataset lines of a ladder: the range table and every dataset
/// where a step goes the other way, recomputed.
fn spread_lines(e: &Expected, lines: &mut Vec<String>) {
    let mut datasets: Vec<&str> = Vec::new();
    for d in &e.set_datasets {
        if !datasets.contains(&d.as_str()) {
            datasets.push(d);
        }
    }
    if datasets.len() < 2 {
        return;
    }
    lines.push(
        "Across datasets: each step's speed-up on the puzzles of the set from each dataset (geometric mean, 95% interval over those puzzles).".into(),
    );
    let mut turns = Vec::new();
    for k in 1..e.rungs.len() {
        let (a, b) = (e.rungs[k - 1].0.name(), e.rungs[k].0.name());
        let per: Vec<(&str, usize, f64, Option<Interval>)> = datasets
            .iter()
            .map(|&d| {
                let v: Vec<f64> = (0..e.set.len())
                    .filter(|&i| e.set_datasets[i] == d)
                    .map(|i| e.logs[k - 1][i].1 - e.logs[k][i].1)
                    .collect();
                let g = (v.iter().sum::<f64>() / v.len() as f64).exp();
                (d, v.len(), g, gm_interval(v.into_iter()))
            })
            .collect();
        let lo = per.iter().min_by(|x, y| x.2.total_cmp(&y.2)).unwrap();
        let hi = per.iter().max_by(|x, y| x.2.total_cmp(&y.2)).unwrap();
        lines.push(format!(
            "| `{b}` over `{a}` | {} | {} on `{}` ({}) | {} on `{}` ({}) |",
            per.len(),
            fmt_ratio_ci(lo.2, lo.3),
            lo.0,
            plural(lo.1),
            fmt_ratio_ci(hi.2, hi.3),
            hi.0,
            plural(hi.1)
        ));
        let overall = ratios(&e.rungs[k - 1], &e.rungs[k]).2 >= 1.0;
        for p in per.iter().filter(|p| (p.2 >= 1.0) != overall) {
            turns.push(format!(
                "- `{b}` is {} than `{a}` on `{}`: {} over {} ({}).",
                if overall { "slower" } else { "faster" },
                p.0,
                fmt_ratio_ci(p.2, p.3),
                plural(p.1),
                match p.3 {
                    None => "one puzzle: no interval",
                    Some(i) if i.low <= 1.0 && 1.0 <= i.high =>
                        "within noise: the interval includes ×1",
                    Some(_) => "the interval excludes ×1",
                }
            ));
        }
    }
    lines.extend(turns);
}

/// Every line of the report's ladder, outcome and growth sections that
/// holds a figure, as recomputed from the rows.
fn expected_lines(rows: &[Run]) -> Vec<String> {
    let all = puzzles(rows);
    let order = strategies(rows);
    let mut sides: Vec<u32> = all
        .iter()
        .filter(|p| p.iter().any(|r| r.measured.is_some()))
        .map(|p| p[0].size)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    sides.sort_by_key(|&s| (s != 9, s));
    let mut lines = vec![format!(
        "- Figures in brackets are 95% intervals: a seeded percentile bootstrap over the puzzles of the set ({} resamples, seed {}), so they show how much a figure depends on which puzzles of this kind were measured, timing noise per puzzle included; they do not cover a shift of the whole machine between two runs. Each figure is printed to the precision its interval supports; `n/a`: a single puzzle, no interval.",
        sudoku_lab::base::defaults::BOOTSTRAP_RESAMPLES,
        sudoku_lab::base::defaults::SEED
    )];
    for (k, &side) in sides.iter().enumerate() {
        let e = ladder(&all, &order, side);
        lines.push(format!(
            "## {} boards{}",
            size_name(side),
            if k == 0 && side == 9 {
                " (the headline ladder)"
            } else {
                ""
            }
        ));
        if e.set.is_empty() || e.rungs.is_empty() {
            let a = absent(&e);
            lines.push(format!(
                "No ladder: no puzzle of this size was solved by every strategy run on it ({} puzzles; left out: {}).{}",
                e.puzzles,
                left_out(&e),
                if a.is_empty() { String::new() } else { format!(" {}", a.trim_end_matches('.')) }
            ));
            continue;
        }
        lines.push(format!(
            "Ladder set: **{} of {}** puzzles of size {}. Left out: {}.",
            e.set.len(),
            e.puzzles,
            size_name(side),
            left_out(&e)
        ));
        let a = absent(&e);
        if !a.is_empty() {
            lines.push(a);
        }
        let base = &e.rungs[0];
        let times = |k: usize| {
            let r = &e.rungs[k];
            (
                fmt_time_ci(r.2.exp(), gm_interval(e.logs[k].iter().map(|x| x.1))),
                fmt_time_ci(
                    (r.2 - r.1).exp(),
                    gm_interval(e.logs[k].iter().map(|x| x.1 - x.0)),
                ),
            )
        };
        let (t, c) = times(0);
        lines.push(format!(
            "| `{}` | {} | {t} | {c} | – | – | – | – |",
            base.0.name(),
            fmt_count(base.1.exp()),
        ));
        for k in 1..e.rungs.len() {
            let r = &e.rungs[k];
            let (n, c, s) = ratios(base, r);
            let [ni, ci, si] = ratio_intervals(&e, 0, k);
            let (t, tn) = times(k);
            lines.push(format!(
                "| `{}` | {} | {t} | {tn} | {} | {} | {} | {} |",
                r.0.name(),
                fmt_count(r.1.exp()),
                fmt_ratio_ci(n, ni),
                fmt_ratio_ci(c, ci),
                fmt_ratio_ci(s, si),
                fmt_ratio_ci(
                    ratios(&e.rungs[k - 1], r).2,
                    ratio_intervals(&e, k - 1, k)[2]
                )
            ));
        }
        if e.rungs.len() > 1 {
            lines.push(format!(
                "Step by step, on the same {} puzzles:",
                e.set.len()
            ));
            for k in 1..e.rungs.len() {
                lines.push(format!("- {}", describe(&e, k - 1, k)));
            }
        }
        if e.rungs.len() > 2 {
            lines.push(format!(
                "From the bottom of this ladder to the top: {}.",
                describe(&e, 0, e.rungs.len() - 1)
            ));
        }
        spread_lines(&e, &mut lines);
        full_set_lines(&all, &order, side, &mut lines);
    }
    // Outcomes per size × strategy.
    let outcomes = ["solved", "no-solution", "budget-exceeded", "unsupported"];
    let mut sides_asc = sides.clone();
    sides_asc.sort_unstable();
    for &side in &sides_asc {
        for &s in &order {
            let mine: Vec<&Run> = rows
                .iter()
                .filter(|r| r.size == side && r.strategy == s)
                .collect();
            if mine.is_empty() {
                continue;
            }
            let counts: Vec<String> = outcomes
                .iter()
                .map(|o| mine.iter().filter(|r| r.outcome == *o).count().to_string())
                .collect();
            lines.push(format!(
                "| {} | `{}` | {} |",
                size_name(side),
                s.name(),
                counts.join(" | ")
            ));
        }
    }
    // Growth: puzzles with a solution and 44–57% of cells given.
    let in_band = |p: &Vec<Run>| {
        let f = f64::from(p[0].clues) / f64::from(p[0].size * p[0].size);
        (0.44 - 1e-9..=0.57 + 1e-9).contains(&f) && p.iter().any(|r| r.outcome == "solved")
    };
    let band: Vec<&Vec<Run>> = all.iter().filter(|p| in_band(p)).collect();
    let band_sides: Vec<u32> = band
        .iter()
        .map(|p| p[0].size)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if !band_sides.is_empty() {
        let counts: Vec<String> = band_sides
            .iter()
            .map(|&s| {
                format!(
                    "{} {}",
                    size_name(s),
                    band.iter().filter(|p| p[0].size == s).count()
                )
            })
            .collect();
        lines.push(format!(
            "To compare sizes like with like, only puzzles with a solution and 44–57% of their cells given count here (puzzles per size: {}). Median time per solve over those puzzles, with its 95% interval (bootstrapped over the runs); where runs stopped at the budget the median is a lower bound, and the cell says how many of the runs stopped.",
            counts.join(", ")
        ));
        let header: Vec<String> = band_sides.iter().map(|&s| size_name(s)).collect();
        lines.push(format!("| rung | {} |", header.join(" | ")));
        for &s in &order {
            let mut cells = Vec::new();
            for &side in &band_sides {
                let runs: Vec<&Run> = band
                    .iter()
                    .filter(|p| p[0].size == side)
                    .flat_map(|p| p.iter())
                    .filter(|r| r.strategy == s && r.measured.is_some())
                    .collect();
                if runs.is_empty() {
                    cells.push("–".to_string());
                    continue;
                }
                let times: Vec<u64> = runs.iter().map(|r| r.measured.unwrap().1).collect();
                // The median's 95% interval: the lab's bootstrap over the
                // runs, in results.csv order (dataset, then puzzle).
                let values: Vec<f64> = times.iter().map(|&t| t as f64).collect();
                let m = fmt_time_ci(quantile(&times, 0.5), median_interval(&values));
                let stopped = runs
                    .iter()
                    .filter(|r| r.outcome == "budget-exceeded")
                    .count();
                cells.push(if stopped > 0 {
                    format!("≥ {m} ({stopped}/{} stopped)", runs.len())
                } else {
                    m
                });
            }
            lines.push(format!("| `{}` | {} |", s.name(), cells.join(" | ")));
        }
    }
    lines
}

/// The per-dataset summary rows, recomputed.
fn expected_dataset_rows(rows: &[Run]) -> Vec<String> {
    let order = strategies(rows);
    let mut datasets: Vec<&str> = Vec::new();
    for r in rows {
        if !datasets.contains(&r.dataset.as_str()) {
            datasets.push(&r.dataset);
        }
    }
    let mut out = Vec::new();
    for d in datasets {
        for &s in &order {
            let mine: Vec<&Run> = rows
                .iter()
                .filter(|r| r.dataset == d && r.strategy == s)
                .collect();
            if mine.is_empty() {
                continue;
            }
            let outcomes: Vec<String> = ["solved", "no-solution", "budget-exceeded", "unsupported"]
                .iter()
                .map(|o| mine.iter().filter(|r| r.outcome == *o).count().to_string())
                .collect();
            let nodes: Vec<u64> = mine
                .iter()
                .filter_map(|r| r.measured.map(|m| m.0))
                .collect();
            let times: Vec<u64> = mine
                .iter()
                .filter_map(|r| r.measured.map(|m| m.1))
                .collect();
            let stat = |v: &[u64], q: f64, f: fn(f64) -> String| {
                if v.is_empty() {
                    "–".to_string()
                } else {
                    f(quantile(v, q))
                }
            };
            let classified: Vec<(u64, u64)> = mine.iter().filter_map(|r| r.outliers).collect();
            let outliers = if classified.is_empty() {
                "–".to_string()
            } else {
                let (m, s) = classified
                    .iter()
                    .fold((0, 0), |(a, b), (m, s)| (a + m, b + s));
                format!("{m} + {s}")
            };
            out.push(format!(
                "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {outliers} |",
                s.name(),
                mine.len(),
                outcomes.join(" | "),
                stat(&nodes, 0.5, fmt_count),
                stat(&nodes, 0.9, fmt_count),
                stat(&nodes, 1.0, fmt_count),
                stat(&times, 0.5, fmt_time),
                stat(&times, 0.9, fmt_time),
                stat(&times, 1.0, fmt_time),
            ));
        }
    }
    out
}

/// A size's full-set ladder, recomputed with its stated rule: every
/// strategy that ran on the size, over the puzzles where each either
/// finished or was cut off with an estimate (estimated nodes, their
/// interval's ends, and time = estimate × the run's time per node),
/// geometric means; no section when no cut-off run enters. Returns the
/// number of strategies whose figures include estimated runs.
fn full_set_lines(
    all: &[Vec<Run>],
    order: &[Strategy],
    side: u32,
    lines: &mut Vec<String>,
) -> usize {
    let finished = |r: &Run| r.outcome == "solved" || r.outcome == "no-solution";
    let of_side: Vec<&Vec<Run>> = all.iter().filter(|p| p[0].size == side).collect();
    let ran: Vec<Strategy> = order
        .iter()
        .copied()
        .filter(|&s| {
            of_side
                .iter()
                .flat_map(|p| p.iter())
                .any(|r| r.strategy == s && r.outcome != "unsupported")
        })
        .collect();
    let mut sums = vec![[0.0f64; 4]; ran.len()];
    let mut estimated = vec![0u64; ran.len()];
    let mut set = 0u64;
    'puzzle: for p in &of_side {
        let mut values = Vec::new();
        for &s in &ran {
            let Some(r) = p.iter().find(|r| r.strategy == s) else {
                continue 'puzzle;
            };
            let Some((nodes, nanos)) = r.measured else {
                continue 'puzzle;
            };
            let (nodes, nanos) = (nodes.max(1) as f64, (nanos as f64).max(1.0));
            values.push(if finished(r) {
                ([nodes, nodes, nodes, nanos], false)
            } else {
                let Some((e, lo, hi)) = r.estimate else {
                    continue 'puzzle;
                };
                ([e, lo, hi, e * nanos / nodes].map(|v| v.max(1.0)), true)
            });
        }
        set += 1;
        for (i, (v, est)) in values.iter().enumerate() {
            estimated[i] += u64::from(*est);
            for (sum, x) in sums[i].iter_mut().zip(v) {
                *sum += x.ln();
            }
        }
    }
    if set == 0 || estimated.iter().all(|&n| n == 0) {
        return 0;
    }
    lines.push(format!(
        "### {} boards, full set: cut-off runs estimated",
        size_name(side)
    ));
    lines.push(format!(
        "Every strategy run on this size, on **{set} of {}** puzzles: those where each one either finished or was cut off by the budget with an estimate of its whole search (Knuth's random probes; see `docs/lesson-estimate.md`). A figure marked ≈ includes estimated runs: their nodes are estimates and their times are estimated as nodes × the run's measured time per node. These are not all measurements, unlike the ladder above; the range is the geometric means of the runs' 95% intervals' ends.",
        of_side.len()
    ));
    for (i, &s) in ran.iter().enumerate() {
        let [nodes, low, high, time] = sums[i].map(|x| (x / set as f64).exp());
        let mark = if estimated[i] > 0 { "≈ " } else { "" };
        lines.push(format!(
            "| `{}` | {mark}{} | [{}, {}] | {mark}{} | {} of {set} |",
            s.name(),
            fmt_count(nodes),
            fmt_count(low),
            fmt_count(high),
            fmt_time(time),
            estimated[i],
        ));
    }
    estimated.iter().filter(|&&n| n > 0).count()
}

/// Strategies with estimated runs in the full-set ladders of every size,
/// recomputed from results.csv: the hollow dots the full-set chart draws
/// (one on its nodes side, one on its time side, each).
fn full_set_estimated(rows: &[Run]) -> usize {
    let all = puzzles(rows);
    let order = strategies(rows);
    let sides: BTreeSet<u32> = all.iter().map(|p| p[0].size).collect();
    sides
        .into_iter()
        .map(|side| full_set_lines(&all, &order, side, &mut Vec::new()))
        .sum()
}

/// The full-set ladder chart: drawn and linked exactly when some size has
/// a full set with estimated runs, a valid SVG whose hollow dots (circles
/// without fill) are the estimated points, two per such strategy.
fn check_full_set_chart(dir: &Path, rows: &[Run], md: &str) {
    let estimated = full_set_estimated(rows);
    let stem = sudoku_lab::export::FULL_SET.stem;
    let svg = dir.join(format!("{stem}.svg"));
    let linked = md.contains(&format!("({stem}.png)"));
    if estimated == 0 {
        assert!(
            !svg.exists() && !linked,
            "{}: {stem} without estimates",
            dir.display()
        );
        return;
    }
    assert!(linked, "{}: README does not link {stem}", dir.display());
    let text = fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{stem}.svg: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let hollow = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle") && n.attribute("fill") == Some("none"))
        .count();
    assert_eq!(
        hollow,
        2 * estimated,
        "{}: hollow dots of {stem}",
        dir.display()
    );
    let png = fs::read(dir.join(format!("{stem}.png"))).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{stem}.png signature");
}

/// Checks a report folder: every expected line is in README.md, and every
/// line of the ladder, outcome and growth sections that holds a digit is an
/// expected line (so no figure there goes unchecked).
fn check_report(dir: &Path) {
    let rows = read(&dir.join("results.csv"));
    let md = fs::read_to_string(dir.join("README.md")).unwrap();
    let md_lines: Vec<&str> = md.lines().collect();
    check_full_set_chart(dir, &rows, &md);
    let expected = expected_lines(&rows);
    for line in &expected {
        assert!(
            md_lines.contains(&line.as_str()),
            "{}: README.md lacks the recomputed line\n{line}",
            dir.display()
        );
    }
    let start = md.find("## The rule behind every ratio").unwrap();
    let end = md.find("## Charts").unwrap();
    for line in md[start..end].lines() {
        if line.chars().any(|c| c.is_ascii_digit()) {
            assert!(
                expected.iter().any(|e| e == line),
                "{}: a figure the test does not recompute:\n{line}",
                dir.display()
            );
        }
    }
    for line in expected_dataset_rows(&rows) {
        assert!(
            md_lines.contains(&line.as_str()),
            "{}: README.md lacks the dataset row\n{line}",
            dir.display()
        );
    }
    // The busy flag, when set, is the first thing after the introduction.
    let meta = fs::read_to_string(dir.join("meta.csv")).unwrap_or_default();
    let busy = meta
        .lines()
        .find_map(|l| l.strip_prefix("busy,"))
        .map(|b| b.trim_matches('"').to_string());
    let banner = md.find("> **Measured on a busy machine:**");
    match busy.as_deref() {
        Some("no") | None => assert!(banner.is_none()),
        Some(_) => assert!(banner.is_some_and(|b| b < start)),
    }
    assert!(md.contains("**Times** are per-thread CPU time per solve"));
    // Untruths of earlier reports (issue #29), gone.
    assert!(!md.contains("never overstated"), "{}", dir.display());
    assert!(!md.contains("CPU times leave out the time other processes took"));
    assert!(md.contains("a ratio over every puzzle could be higher or lower"));
}

// ------------------------------------------------------------------ tests

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/compare")
        .join(name)
}

/// Three 16×16 puzzles with 47–55% of their cells given (in the growth band).
fn sixteen(dir: &Path) -> PathBuf {
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/generated/16x16-clues-120-140.txt");
    let text = fs::read_to_string(src).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(3)
        .collect();
    let path = dir.join("sixteen.txt");
    fs::write(&path, format!("# solutions: 1\n{}\n", lines.join("\n"))).unwrap();
    path
}

/// 4×4, 9×9 (one puzzle without solution) and 16×16, with a budget small
/// enough that the row-major rungs stop on some puzzles.
fn small_report(out: &Path, budget: &str) {
    let dir = out.parent().unwrap();
    lab()
        .arg("compare")
        .arg("--dataset")
        .arg(fixture("mini-4x4.txt"))
        .arg("--dataset")
        .arg(fixture("mini-9x9.txt"))
        .arg("--dataset")
        .arg(sixteen(dir))
        .args(["--budget", budget, "--min-time", "0", "--out"])
        .arg(out)
        .assert()
        .success();
}

#[test]
fn every_figure_of_the_report_is_recomputed_from_results_csv() {
    let tmp = tempfile::tempdir().unwrap();
    for budget in ["300", "20000"] {
        let out = tmp.path().join(format!("r{budget}"));
        small_report(&out, budget);
        check_report(&out);
        // And once more from results.csv alone (`report` redraws it).
        fs::remove_file(out.join("meta.csv")).unwrap();
        lab().arg("report").arg(&out).assert().success();
        check_report(&out);
    }
    // The small budget did what it is for: left-out puzzles, an unfinished
    // reason and rungs off a ladder all appear.
    let md = fs::read_to_string(tmp.path().join("r300/README.md")).unwrap();
    assert!(
        md.contains("that some rung did not finish within the budget"),
        "{md}"
    );
    assert!(md.contains("with no solution"));
    assert!(
        md.contains("under half") && md.contains("(do not run 16×16)"),
        "{md}"
    );
}

/// The committed sample report: every claim of its text against its CSVs.
#[test]
fn the_committed_report_matches_its_results_csv() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    check_report(&dir);
    let md = fs::read_to_string(dir.join("README.md")).unwrap();
    for side in [4, 9, 16, 25] {
        let s = size_name(side);
        assert!(md.contains(&format!("\n## {s} boards")), "no {s} section");
    }
}

/// The headline: on 9×9 every rung, `fast` included, is measured on one and
/// the same puzzle set. Recomputed per rung over exactly the set, each
/// rung's figures are the report's; over each rung's own solved puzzles
/// (what a per-pair comparison would use) they would not be.
#[test]
fn the_9x9_ladder_uses_one_puzzle_set_for_every_rung() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    small_report(&out, "300");
    let rows = read(&out.join("results.csv"));
    let all = puzzles(&rows);
    let e = ladder(&all, &strategies(&rows), 9);
    let on: Vec<Strategy> = e.rungs.iter().map(|r| r.0).collect();
    assert_eq!(
        on,
        Strategy::ALL.to_vec(),
        "every rung is on the 9×9 ladder"
    );
    // The library's ladder: the same set, the same means.
    let agg = sudoku_lab::run::read_results(&out.join("results.csv")).unwrap();
    let l = agg.ladder(9);
    assert_eq!(l.set as usize, e.set.len());
    assert!(e.set.len() < e.puzzles, "some puzzles are left out");
    let nine: Vec<&Vec<Run>> = all.iter().filter(|p| p[0].size == 9).collect();
    let mut differs = false;
    for (rung, want) in l.rungs.iter().zip(&e.rungs) {
        assert_eq!(rung.strategy, want.0);
        // Over the one set: exactly the library's figures.
        assert!((rung.ln_time - want.2).abs() < 1e-9, "{}", want.0);
        assert!((rung.ln_nodes - want.1).abs() < 1e-9, "{}", want.0);
        // Over the rung's own solved puzzles: other figures, for some rung.
        let own: Vec<u64> = nine
            .iter()
            .flat_map(|p| p.iter())
            .filter(|r| r.strategy == want.0 && r.outcome == "solved")
            .map(|r| r.measured.unwrap().1)
            .collect();
        let own_mean = own.iter().map(|&t| ln(t)).sum::<f64>() / own.len() as f64;
        differs |= own.len() != e.set.len() && (own_mean - want.2).abs() > 1e-9;
    }
    assert!(
        differs,
        "the test data must tell one set from per-rung sets"
    );
    // The report's 9×9 table lists all rungs and names the one set.
    let md = fs::read_to_string(out.join("README.md")).unwrap();
    assert!(md.contains(&format!(
        "Ladder set: **{} of {}** puzzles of size 9×9.",
        e.set.len(),
        e.puzzles
    )));
    assert!(md.contains(&format!(
        "Step by step, on the same {} puzzles:",
        e.set.len()
    )));
}

/// Replays the committed default run: each task's cost from its row (time
/// per run × timed runs, plus the counted and check runs), its probe from
/// the row-major rungs' node count, tasks in the [`Schedule`]'s order, in
/// groups of `defaults::MEASURE_GROUP` measured together, each group taken
/// by whichever of two workers is free first (the executor's way). When a
/// group ends the forecast is told what finished, as the real run tells it
/// (a group's tasks end together, their samples being interleaved), and
/// its estimate of the time left is compared with the time that was left:
/// within 2× from a tenth of the tasks on, until the last twentieth (where a
/// second or two of error is a large factor).
#[test]
fn the_progress_estimate_is_within_2x_after_the_first_tenth() {
    let rows = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/results.csv"));
    let worst = replay(&rows, true);
    eprintln!("interleaved: worst factor between estimate and truth after 10%: {worst:.2}");
    assert!(worst <= 2.0, "the estimate is off by {worst:.2}×");
    // For comparison: file order, estimate from the task count alone.
    eprintln!(
        "file order, by task count: worst factor {:.2}",
        replay(&rows, false)
    );
}

/// Worst factor between estimate and truth, from 10% to 95% of the tasks:
/// `now` = the run as built (interleaved, forecast), else file order and
/// the average time per task.
fn replay(rows: &[Run], now: bool) -> f64 {
    use std::time::Duration;
    use sudoku_lab::run::Forecast;
    // (strategy, side, probe, cost in seconds) per task, per puzzle, per dataset.
    type T = (Strategy, u32, u64, f64);
    let mut datasets: Vec<Vec<Vec<T>>> = Vec::new();
    let mut last = String::new();
    for p in puzzles(rows) {
        if p[0].dataset != last {
            last = p[0].dataset.clone();
            datasets.push(Vec::new());
        }
        let probe = p
            .iter()
            .find(|r| r.strategy.is_row_major() && r.measured.is_some())
            .map_or(0, |r| r.measured.unwrap().0);
        let tasks = p
            .iter()
            .map(|r| {
                let cost = r
                    .measured
                    .map_or(0.0, |(_, ns)| ns as f64 * (r.runs as f64 + 2.0) / 1e9);
                (r.strategy, r.size, probe, cost)
            })
            .collect();
        datasets.last_mut().unwrap().push(tasks);
    }
    let counts: Vec<u64> = datasets.iter().map(|d| d.len() as u64).collect();
    let order: Vec<usize> = if now {
        Schedule::new(&counts).collect()
    } else {
        (0..datasets.len())
            .flat_map(|d| std::iter::repeat_n(d, datasets[d].len()))
            .collect()
    };
    let mut next = vec![0usize; datasets.len()];
    let mut tasks: Vec<T> = Vec::new();
    for d in order {
        tasks.extend(datasets[d][next[d]].iter().copied());
        next[d] += 1;
    }
    let mut forecast = Forecast::default();
    for t in &tasks {
        forecast.expect(t.0, t.1, t.2);
    }
    // Group ends: (time, tasks done, estimate of the time left).
    let total = tasks.len();
    let mut free = [0.0f64, 0.0];
    let mut groups: Vec<(f64, &[T])> = Vec::new();
    for group in tasks.chunks(sudoku_lab::base::defaults::MEASURE_GROUP) {
        let w = usize::from(free[1] < free[0]);
        free[w] += group.iter().map(|t| t.3).sum::<f64>();
        groups.push((free[w], group));
    }
    groups.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut ends: Vec<(f64, usize, f64)> = Vec::new();
    let (mut clock, mut done) = (0.0f64, 0);
    for (at, group) in groups {
        clock = at;
        for t in group {
            forecast.finish(t.0, t.1, t.2, t.3);
        }
        done += group.len();
        let left = if now {
            forecast
                .left(Duration::from_secs_f64(clock))
                .unwrap()
                .as_secs_f64()
        } else {
            clock * (total - done) as f64 / done as f64
        };
        ends.push((clock, done, left));
    }
    let end = clock;
    ends.iter()
        .filter(|&&(_, done, _)| done * 10 >= total && done * 20 <= total * 19)
        .map(|&(t, _, shown)| {
            let actual = end - t;
            (shown / actual).max(actual / shown)
        })
        .fold(1.0, f64::max)
}

/// Without --out: the default selection writes my-reports/ (never the committed sample in reports/), a filtered one
/// its own folder, so the full report is never replaced by a filtered run;
/// an explicit --out of another selection's report replaces it, and says so.
#[test]
fn a_filtered_run_does_not_replace_the_full_report() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let run = |args: &[&str]| {
        lab()
            .env("SUDOKU_LAB_DATASETS", fixture(""))
            .current_dir(dir)
            .arg("compare")
            .args(["--min-time", "0"])
            .args(args)
            .assert()
            .success()
            .get_output()
            .clone()
    };
    run(&[]);
    assert!(!dir.join("reports").exists());
    // The repository ignores that folder: a user's runs leave `git status`
    // clean (asked of git itself where it is installed and this is a clone:
    // exit 0 ignored, 1 not ignored, 128 no repository).
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for path in ["my-reports/README.md", "my-reports/runs/x/results.csv"] {
        let code = std::process::Command::new("git")
            .current_dir(repo)
            .args(["check-ignore", "-q", path])
            .status()
            .ok()
            .and_then(|s| s.code());
        assert_ne!(code, Some(1), "git does not ignore {path}");
    }
    let full = report_files(&dir.join("my-reports"));
    let out = run(&["--dataset", "mini-9x9", "--strategy", "mrv,fast"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("report: my-reports/runs/mini-9x9.mrv+fast/README.md"),
        "{stdout}"
    );
    assert_eq!(report_files(&dir.join("my-reports")), full);
    assert!(
        dir.join("my-reports/runs/mini-9x9.mrv+fast/results.csv")
            .is_file()
    );
    // The same selection again replaces its own folder, quietly.
    let again = run(&["--dataset", "mini-9x9", "--strategy", "mrv,fast"]);
    assert!(!String::from_utf8_lossy(&again.stderr).contains("replaced"));
    // An explicit --out is obeyed, with a note naming what was replaced.
    let replaced = run(&["--strategy", "mrv", "--out", "my-reports"]);
    let err = String::from_utf8(replaced.stderr).unwrap();
    assert!(
        err.contains("note: replaced the report in my-reports made by another selection (sudoku-lab compare --min-time 0)"),
        "{err}"
    );
    let meta = fs::read_to_string(dir.join("my-reports/meta.csv")).unwrap();
    assert!(meta.contains("selection,mrv\n"), "{meta}");
}

/// The files of a report folder with their bytes (sub-folders left out).
fn report_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    compare_support::listing(dir)
        .into_iter()
        .filter(|n| dir.join(n).is_file())
        .map(|n| {
            let bytes = fs::read(dir.join(&n)).unwrap();
            (n, bytes)
        })
        .collect()
}
