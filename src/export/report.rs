//! The written report (`README.md`), the console summary, and the run's
//! metadata (`meta.csv`). Every figure in the text is computed from this
//! run's rows by the rule the text states (tests/compare_report.rs
//! recomputes them from `results.csv`).

use std::fmt::Write as _;

use crate::analysis::charts::{ChartData, FILL_BAND, report_order};
use crate::analysis::ladder::{DatasetRatio, FullLadder, Ladder, Ratios};
use crate::analysis::summary::{Aggregate, Kind, SummaryRow, count_kind};
use crate::base::strategy::Outcome;
use crate::export::present::{
    Align, Table, fmt_count, fmt_ratio, fmt_ratio_ci, fmt_time, fmt_time_ci, ladder_absent,
    left_out, percent, size_name,
};
use crate::measure::stats::Interval;

pub use crate::export::present::{cell_code, code, plain};
pub use crate::io::meta::{Meta, cpu_model, git_commit, utc_now, utc_string};

/// Keys in the order the report lists them, with their labels.
const META_KEYS: [(&str, &str); 23] = [
    ("command", "command"),
    ("selection", "selection (report folder)"),
    ("commit", "git commit"),
    ("version", "sudoku-lab version"),
    ("profile", "build profile"),
    ("rustc", "rustc"),
    ("cpu", "CPU"),
    ("threads", "hardware threads / jobs used"),
    ("load", "load average while measuring"),
    ("wall_over_cpu", "wall time ÷ CPU time of the timed runs"),
    ("retaken", "samples retaken (the core ran slow)"),
    ("busy", "busy machine"),
    ("date", "date (UTC)"),
    ("datasets", "datasets"),
    ("strategies", "strategies"),
    ("budget", "node budget per puzzle × strategy"),
    (
        "limit",
        "solutions sought per puzzle (2: count to 2, uniqueness proven)",
    ),
    ("sample", "sample per dataset (seed)"),
    ("timing", "timing"),
    (
        "clock",
        "clock readings: cost taken off each run; runs' sum ÷ CPU time of the passes",
    ),
    (
        "warm_bonus",
        "warm ÷ cold: how much faster a puzzle repeated back to back runs (cold time ÷ warm time, geometric mean)",
    ),
    ("wall_time", "wall time of the run"),
    ("order", "order of measurement"),
];

/// A figure, or `–` where there is none.
fn opt(v: Option<f64>, f: fn(f64) -> String) -> String {
    v.map_or_else(|| "–".into(), f)
}

/// Where `busy` in meta.csv says the machine was busy: the reason.
fn busy_reason(meta: &Meta) -> Option<&str> {
    meta.get("busy").filter(|b| !b.is_empty() && *b != "no")
}

/// What `b` buys over `a`, in one sentence fragment (every figure printed,
/// each with its 95% interval over the puzzles of the set).
fn describe(a: &str, b: &str, r: &Ratios) -> String {
    let ci = r.intervals;
    let up = |x: f64, i: Option<Interval>| fmt_ratio_ci(x, i);
    let down = |x: f64, i: Option<Interval>| fmt_ratio_ci(1.0 / x, i.map(Interval::recip));
    let nodes = if fmt_ratio(r.nodes) == "×1.00" && ci.is_none_or(|c| c.nodes.contains(1.0)) {
        "visits the same number of nodes".to_string()
    } else if r.nodes > 1.0 {
        format!("visits {} fewer nodes", up(r.nodes, ci.map(|c| c.nodes)))
    } else {
        format!("visits {} more nodes", down(r.nodes, ci.map(|c| c.nodes)))
    };
    let cost = if r.cost >= 1.0 {
        format!("each {} cheaper", up(r.cost, ci.map(|c| c.cost)))
    } else {
        format!("each {} dearer", down(r.cost, ci.map(|c| c.cost)))
    };
    let total = if r.speedup >= 1.0 {
        format!("{} faster", up(r.speedup, ci.map(|c| c.speedup)))
    } else {
        format!("{} slower", down(r.speedup, ci.map(|c| c.speedup)))
    };
    format!("`{b}` over `{a}`: {nodes}, {cost} → **{total}**")
}

/// One size's section: the set, the table, the step-by-step reading.
fn ladder_section(md: &mut String, l: &Ladder, headline: bool, datasets: &[String]) {
    let _ = writeln!(
        md,
        "## {} boards{}\n",
        size_name(l.side),
        if headline {
            " (the headline ladder)"
        } else {
            ""
        }
    );
    let absent = ladder_absent(l);
    if l.base().is_none() || l.set == 0 {
        let _ = writeln!(
            md,
            "No ladder: no puzzle of this size was solved by every strategy run on it ({} puzzles; left out: {}).{}\n",
            l.puzzles,
            left_out(l),
            if absent.is_empty() {
                String::new()
            } else {
                format!(" {}", capitalise(&absent))
            }
        );
        return;
    }
    let _ = writeln!(
        md,
        "Ladder set: **{} of {}** puzzles of size {}. Left out: {}.\n",
        l.set,
        l.puzzles,
        size_name(l.side),
        left_out(l)
    );
    if !absent.is_empty() {
        let _ = writeln!(md, "{}.\n", capitalise(&absent));
    }
    md.push_str(&ladder_table(l).markdown_compact());
    md.push('\n');
    steps_text(md, l);
    spread_section(md, l, datasets);
}

/// A ladder's table: each rung's figures, and its ratios over the base
/// and over the rung before, each with its 95% interval.
fn ladder_table(l: &Ladder) -> Table {
    let b = l.rungs[0].strategy.name();
    let mut t = Table::new(
        [
            "rung".to_string(),
            "nodes".into(),
            "time".into(),
            "time per node".into(),
            format!("fewer nodes than `{b}`"),
            format!("cheaper nodes than `{b}`"),
            format!("speed-up over `{b}`"),
            "speed-up over the rung before".into(),
        ],
        1,
    );
    let times = |k: usize| {
        let ci = l.time_intervals(k);
        let r = &l.rungs[k];
        [
            fmt_time_ci(r.time(), ci.map(|c| c.0)),
            fmt_time_ci(r.cost(), ci.map(|c| c.1)),
        ]
    };
    let [time, cost] = times(0);
    let dash = || "–".to_string();
    t.row(vec![
        format!("`{b}`"),
        fmt_count(l.rungs[0].nodes()),
        time,
        cost,
        dash(),
        dash(),
        dash(),
        dash(),
    ]);
    for (k, (rung, vs_base, vs_prev)) in l.steps().iter().enumerate() {
        let [time, cost] = times(k + 1);
        let base = vs_base.intervals;
        t.row(vec![
            format!("`{}`", rung.strategy.name()),
            fmt_count(rung.nodes()),
            time,
            cost,
            fmt_ratio_ci(vs_base.nodes, base.map(|c| c.nodes)),
            fmt_ratio_ci(vs_base.cost, base.map(|c| c.cost)),
            fmt_ratio_ci(vs_base.speedup, base.map(|c| c.speedup)),
            fmt_ratio_ci(vs_prev.speedup, vs_prev.intervals.map(|c| c.speedup)),
        ]);
    }
    t
}

/// The ladder read step by step, then bottom to top.
fn steps_text(md: &mut String, l: &Ladder) {
    let steps = l.steps();
    if steps.is_empty() {
        return;
    }
    let _ = writeln!(md, "Step by step, on the same {} puzzles:\n", l.set);
    for (i, (rung, _, vs_prev)) in steps.iter().enumerate() {
        let prev = l.rungs[i].strategy.name();
        let _ = writeln!(md, "- {}", describe(prev, rung.strategy.name(), vs_prev));
    }
    if let Some((top, vs_base, _)) = steps.last()
        && steps.len() > 1
    {
        let _ = writeln!(
            md,
            "\nFrom the bottom of this ladder to the top: {}.",
            describe(l.rungs[0].strategy.name(), top.strategy.name(), vs_base)
        );
    }
    md.push('\n');
}

/// A size's full-set ladder: the puzzles the budget cut some strategy off
/// on enter with that run's estimated whole search, marked `≈`.
fn full_set_section(md: &mut String, f: &FullLadder) {
    let _ = writeln!(
        md,
        "### {} boards, full set: cut-off runs estimated

\
         Every strategy run on this size, on **{} of {}** puzzles: those where each one either \
         finished or was cut off by the budget with an estimate of its whole search (Knuth's \
         random probes; see `docs/lesson-estimate.md`). A figure marked ≈ includes estimated runs: \
         their nodes are estimates and their times are estimated as nodes × the run's measured \
         time per node. These are not all measurements, unlike the ladder above; the range is the \
         geometric means of the runs' 95% intervals' ends.\n",
        size_name(f.side),
        f.set,
        f.puzzles
    );
    let headers = [
        "strategy",
        "nodes (geometric mean)",
        "range",
        "time per solve",
        "runs estimated",
    ];
    let rows = f.rungs.iter().map(|r| {
        let mark = if r.estimated > 0 { "≈ " } else { "" };
        vec![
            code(r.strategy.name()),
            format!("{mark}{}", fmt_count(r.nodes)),
            format!("[{}, {}]", fmt_count(r.low), fmt_count(r.high)),
            format!("{mark}{}", fmt_time(r.time_ns)),
            format!("{} of {}", r.estimated, f.set),
        ]
    });
    let t = Table::new(headers, 1).align(2, Align::Left).rows(rows);
    md.push_str(&t.markdown_compact());
    md.push('\n');
}

/// Each step's speed-up on each dataset of the set: its range, and in
/// words every dataset where the step goes the other way.
fn spread_section(md: &mut String, l: &Ladder, datasets: &[String]) {
    let name = |d: usize| code(datasets.get(d).map_or("?", String::as_str));
    // In a table cell a `|` ends the cell even inside a code span.
    let cell_name = |d: usize| cell_code(datasets.get(d).map_or("?", String::as_str));
    let steps: Vec<(usize, &[DatasetRatio])> =
        (1..l.rungs.len()).map(|k| (k, l.spread(k))).collect();
    let overall: Vec<bool> = l.steps().iter().map(|s| s.2.speedup >= 1.0).collect();
    if steps.iter().all(|(_, v)| v.len() < 2) {
        return;
    }
    let _ = writeln!(
        md,
        "Across datasets: each step's speed-up on the puzzles of the set from each dataset (geometric mean, 95% interval over those puzzles).\n"
    );
    let mut table = Table::new(["step", "datasets", "lowest", "highest"], 1);
    let mut turns = String::new();
    for (k, v) in &steps {
        let (a, b) = (l.rungs[k - 1].strategy.name(), l.rungs[*k].strategy.name());
        let lo = v.iter().min_by(|x, y| x.speedup.total_cmp(&y.speedup));
        let hi = v.iter().max_by(|x, y| x.speedup.total_cmp(&y.speedup));
        let (Some(lo), Some(hi)) = (lo, hi) else {
            continue;
        };
        let end = |r: &DatasetRatio| {
            format!(
                "{} on {} ({})",
                fmt_ratio_ci(r.speedup, r.interval),
                cell_name(r.dataset),
                puzzles(r.puzzles)
            )
        };
        table.row(vec![
            format!("`{b}` over `{a}`"),
            v.len().to_string(),
            end(lo),
            end(hi),
        ]);
        let overall = overall[k - 1];
        for r in v.iter().filter(|r| (r.speedup >= 1.0) != overall) {
            let _ = writeln!(
                turns,
                "- `{b}` is {} than `{a}` on {}: {} over {} ({}).",
                if overall { "slower" } else { "faster" },
                name(r.dataset),
                fmt_ratio_ci(r.speedup, r.interval),
                puzzles(r.puzzles),
                match r.interval {
                    None => "one puzzle: no interval",
                    Some(i) if i.contains(1.0) => "within noise: the interval includes ×1",
                    Some(_) => "the interval excludes ×1",
                }
            );
        }
    }
    md.push_str(&table.markdown_compact());
    md.push('\n');
    if turns.is_empty() {
        md.push_str(
            "No step changes sign on any dataset: every step goes the same way on every set.\n\n",
        );
    } else {
        md.push_str("Where a step changes sign:\n\n");
        md.push_str(&turns);
        md.push('\n');
    }
}

/// `1 puzzle`, `5 puzzles`.
fn puzzles(n: u64) -> String {
    format!("{n} puzzle{}", if n == 1 { "" } else { "s" })
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Outcomes per size × strategy, one column per outcome.
fn outcome_section(md: &mut String, agg: &Aggregate) {
    md.push_str("## Outcomes per board size\n\n");
    md.push_str(
        "Runs per outcome. `no-solution` is a proof (the whole tree was searched), not a failure; \
         a `budget-exceeded` run keeps the nodes and time it used (lower bounds); `unsupported`: \
         the strategy does not run that size.\n\n",
    );
    let headers = ["size", "strategy"]
        .into_iter()
        .chain(Outcome::RUNG.iter().map(|o| o.name()));
    let mut t = Table::new(headers, 2);
    for side in agg.sides() {
        for s in agg.strategies() {
            let o = agg.outcomes(side, s);
            if o.iter().sum::<u64>() == 0 {
                continue;
            }
            let mut row = vec![size_name(side), format!("`{}`", s.name())];
            row.extend(o.iter().map(u64::to_string));
            t.row(row);
        }
    }
    md.push_str(&t.markdown_compact());
    md.push('\n');
}

/// The growth table: median time per size over the fill band, each with
/// its 95% interval over the runs.
fn growth_section(md: &mut String, data: &ChartData) {
    let g = &data.growth;
    if g.band.is_empty() {
        return;
    }
    md.push_str("## Growth with board size\n\n");
    let sizes: Vec<String> = g
        .band
        .iter()
        .map(|&(side, n)| format!("{} {n}", size_name(side)))
        .collect();
    let _ = writeln!(
        md,
        "To compare sizes like with like, only puzzles with a solution and {}–{} of their cells given count here (puzzles per size: {}). Median time per solve over those puzzles, with its 95% interval (bootstrapped over the runs); where runs stopped at the budget the median is a lower bound, and the cell says how many of the runs stopped.\n",
        percent(FILL_BAND.0, 0).trim_end_matches('%'),
        percent(FILL_BAND.1, 0),
        sizes.join(", ")
    );
    let headers =
        std::iter::once("rung".to_string()).chain(g.band.iter().map(|&(side, _)| size_name(side)));
    let mut t = Table::new(headers, 1);
    for &s in &data.strategies {
        let mut row = vec![format!("`{}`", s.name())];
        row.extend(g.band.iter().map(|&(side, _)| {
            match g.by_size.iter().find(|p| p.strategy == s && p.side == side) {
                Some(p) if p.stopped > 0 => format!(
                    "≥ {} ({}/{} stopped)",
                    fmt_time_ci(p.median_nanos, p.nanos_interval),
                    p.stopped,
                    p.runs
                ),
                Some(p) => fmt_time_ci(p.median_nanos, p.nanos_interval),
                None => "–".to_string(),
            }
        }));
        t.row(row);
    }
    md.push_str(&t.markdown_compact());
    md.push('\n');
}

/// The report's Markdown text.
pub fn markdown(meta: &Meta, agg: &Aggregate, summary: &[SummaryRow], data: &ChartData) -> String {
    let mut md = String::new();
    intro(&mut md, meta);
    rules(&mut md);
    let ladders = report_order(&data.ladders);
    for (i, l) in ladders.iter().enumerate() {
        ladder_section(&mut md, l, i == 0 && l.side == 9, &agg.datasets);
        if let Some(f) = agg.full_ladder(l.side) {
            full_set_section(&mut md, &f);
        }
    }
    outcome_section(&mut md, agg);
    growth_section(&mut md, data);
    md.push_str("## Charts\n\n");
    for (i, crate::export::chart::Info { stem, title, .. }) in
        crate::export::chart::drawn_report_charts(data)
            .into_iter()
            .enumerate()
    {
        let _ = writeln!(
            md,
            "### {}. {title}\n\n![{title}]({stem}.png)\n\n[SVG version]({stem}.svg)\n",
            i + 1
        );
    }
    dataset_sections(&mut md, agg, summary);
    md.push_str(&crate::export::shards::section(meta));
    what_was_run(&mut md, meta);
    md.push_str(
        "## Files\n\n- `results.csv`: one row per puzzle × strategy.\n- `samples.csv`: every timed \
         sample of each row (ns, in the order taken).\n- `summary.csv`: one row per \
         dataset × strategy (the tables above).\n- `meta.csv`: the facts in *What was run*.\n- \
         `*.svg`, `*.png`: the charts.\n",
    );
    md
}

/// The title, what the page is, the busy banner, what the figures are.
fn intro(md: &mut String, meta: &Meta) {
    md.push_str("# sudoku-lab: strategy comparison\n\n");
    md.push_str(
        "What each rung of the backtracking ladder buys, measured on every puzzle of the datasets \
         below. Generated by `sudoku-lab compare`; `sudoku-lab report DIR` redraws the charts and \
         this page from `results.csv`. Column definitions: see the project's `docs/reference.md`, \
         section *Comparison CSV files*.\n\n",
    );
    if let Some(why) = busy_reason(meta) {
        let _ = writeln!(
            md,
            "> **Measured on a busy machine:** {}. Per-thread CPU times leave out the time the \
             kernel gave other processes, but not the time the host took the virtual CPU away (the \
             VM's CPU clock counts those stalls: slow samples are retaken, and those kept slow are \
             counted above), and every process shared caches and memory bandwidth: small \
             differences may be noise.\n",
            plain(why)
        );
    }
    md.push_str(
        "**Times** are per-thread CPU time per solve: the median over timed samples of runs with \
         the counters compiled out (wall-clock times are beside them in `results.csv`, column \
         `wall_ns`). **Node counts** are exact and deterministic; every solution was verified.\n\n",
    );
    if let Some(clock) = meta.get(crate::io::meta::CPU_CLOCK) {
        let _ = writeln!(
            md,
            "> **Not CPU time here:** {}; read every \"CPU time\" below as wall time.\n",
            plain(clock)
        );
    }
}

/// "The rule behind every ratio".
fn rules(md: &mut String) {
    md.push_str("## The rule behind every ratio\n\n");
    md.push_str(
        "- Strategies are compared one board size at a time, and only on the same puzzles.\n\
         - The **ladder** of a size holds the strategies that solved, within the node budget, at \
         least half of the puzzles of that size that some strategy solved. Its **ladder set** is \
         the puzzles every strategy on the ladder solved; the others are counted with the reason \
         (no solution; some rung did not finish within the budget).\n\
         - Every figure of a ladder is a geometric mean over its ladder set (nodes, time, time per \
         node). A ratio between two rungs is the ratio of their geometric means, which is the \
         geometric mean of the per-puzzle ratios: speed-up = fewer nodes × cheaper nodes exactly, \
         and the step-by-step speed-ups multiply to the bottom-to-top one.\n\
         - The ratios hold for the ladder set. The puzzles left out are the hardest, where a \
         step can buy more or less than on the set (for the rungs that finished every puzzle \
         their rows are in `results.csv`): a ratio over every puzzle could be higher or lower.\n",
    );
    let _ = writeln!(
        md,
        "- Figures in brackets are 95% intervals: a seeded percentile bootstrap over the puzzles \
         of the set ({} resamples, seed {}), so they show how much a figure depends on which \
         puzzles of this kind were measured, timing noise per puzzle included; they do not \
         cover a shift of the whole machine between two runs. Each figure is printed to the \
         precision its interval supports; `n/a`: a single puzzle, no interval.\n",
        crate::base::defaults::BOOTSTRAP_RESAMPLES,
        crate::base::defaults::SEED
    );
}

/// "Summary by dataset": one table per dataset, a row per strategy.
fn dataset_sections(md: &mut String, agg: &Aggregate, summary: &[SummaryRow]) {
    md.push_str("## Summary by dataset\n\n");
    md.push_str(
        "Node and time statistics cover every run that ran, including those stopped at the \
         budget (their figures are lower bounds). p90 = 90th percentile (linear interpolation, \
         as every quantile of the lab). Outliers, mild + severe: samples of a puzzle's time \
         beyond Tukey's fences of that puzzle's own samples (1.5 to 3 interquartile ranges out; \
         beyond 3), summed over the puzzles, as criterion classifies them; every sample is in \
         `samples.csv`.\n\n",
    );
    outliers_flag(md, summary);
    let stats = [
        "median nodes",
        "p90 nodes",
        "max nodes",
        "median time",
        "p90 time",
        "max time",
        "outliers",
    ];
    for name in &agg.datasets {
        let _ = writeln!(md, "### {}\n", code(name));
        let headers = ["strategy", "puzzles"]
            .into_iter()
            .chain(Outcome::RUNG.iter().map(|o| o.name()))
            .chain(stats);
        let rows = summary.iter().filter(|r| r.dataset == *name).map(|r| {
            let mut row = vec![format!("`{}`", r.strategy), r.puzzles.to_string()];
            row.extend(r.outcomes.iter().map(u64::to_string));
            row.extend([
                opt(r.nodes.map(|s| s.median), fmt_count),
                opt(r.nodes.map(|s| s.p90), fmt_count),
                opt(r.nodes.map(|s| s.max), fmt_count),
                opt(r.time.map(|s| s.median), fmt_time),
                opt(r.time.map(|s| s.p90), fmt_time),
                opt(r.time.map(|s| s.max), fmt_time),
                r.outliers
                    .map_or_else(|| "–".to_string(), |o| format!("{} + {}", o.mild, o.severe)),
            ]);
            row
        });
        md.push_str(&Table::new(headers, 1).rows(rows).markdown_compact());
        md.push('\n');
    }
}

/// Rows of summary.csv with severe outliers flagged, most first: a severe
/// outlier is a run something else disturbed, so those rows' times rest on
/// fewer clean samples than their count says.
fn outliers_flag(md: &mut String, summary: &[SummaryRow]) {
    let mut severe: Vec<(&SummaryRow, u64)> = summary
        .iter()
        .filter_map(|r| Some((r, r.outliers?.severe)).filter(|x| x.1 > 0))
        .collect();
    if severe.is_empty() {
        return;
    }
    severe.sort_by_key(|x| std::cmp::Reverse(x.1));
    let total: u64 = severe.iter().map(|x| x.1).sum();
    let listed: Vec<String> = severe
        .iter()
        .take(5)
        .map(|(r, n)| format!("{} × `{}` {n}", code(&r.dataset), r.strategy))
        .collect();
    let more = if severe.len() > 5 { ", …" } else { "" };
    let _ = writeln!(
        md,
        "> **Severe outliers:** {total} samples in {} dataset × strategy rows ({}{more}): runs \
         something else disturbed; a median over samples resists them, but where they are many \
         the machine was busy.\n",
        severe.len(),
        listed.join(", ")
    );
}

/// "What was run": meta.csv's facts in [`META_KEYS`] order, and how the
/// times were taken.
fn what_was_run(md: &mut String, meta: &Meta) {
    md.push_str("## What was run\n\n");
    let rows = META_KEYS.iter().filter_map(|&(key, label)| {
        let v = meta.get(key)?;
        let v = if key == "command" {
            cell_code(v)
        } else {
            plain(v)
        };
        Some(vec![label.to_string(), v])
    });
    md.push_str(&Table::new(["", ""], 2).rows(rows).markdown_compact());
    md.push_str(
        "\nEach puzzle × strategy is solved once with counters on (the counter columns; the \
         solution is verified) and then timed with counters compiled out, which must visit the \
         same nodes (checked). The times are cold, as the field measures solvers: each pass \
         runs every puzzle × strategy once, in a fresh seeded shuffle, so a strategy meets a \
         stream of different puzzles and no puzzle runs twice in a row; a puzzle's time is its \
         median over passes. Repeating one short puzzle back to back (warm) reads faster, by a \
         factor that differs from rung to rung (the *warm ÷ cold* line above, measured on this \
         run's own puzzles), so warm times would bias the ratios between rungs.\n\n",
    );
}

/// The end-of-run summary for the terminal: the ladder of each size, what
/// is not on it, the machine's state and where the report is.
pub fn console(meta: &Meta, agg: &Aggregate, ladders: &[Ladder], readme: &str) -> String {
    let mut out = String::new();
    for l in report_order(ladders) {
        console_ladder(&mut out, l);
    }
    let stopped: u64 = agg
        .outcomes_by_side
        .values()
        .map(|o| count_kind(o, Kind::Stopped))
        .sum();
    let _ = writeln!(
        out,
        "nodes and times: geometric means over each ladder set, [95% interval] bootstrapped over its puzzles; times are per-thread CPU time per solve; {stopped} runs stopped at the budget"
    );
    if let Some(clock) = meta.get(crate::io::meta::CPU_CLOCK) {
        let _ = writeln!(out, "NOT CPU TIME: {clock}");
    }
    match busy_reason(meta) {
        Some(why) => {
            let _ = writeln!(out, "BUSY MACHINE: {why}");
        }
        None if meta.get("busy").is_some() => {
            let _ = writeln!(
                out,
                "machine: not busy (load {})",
                meta.get("load").unwrap_or("unknown")
            );
        }
        None => {}
    }
    let _ = writeln!(out, "{} runs; report: {readme}", agg.rows);
    out
}

/// One size's ladder for the terminal: the set, then a rung a line.
fn console_ladder(out: &mut String, l: &Ladder) {
    let Some(base) = l.base().filter(|_| l.set > 0) else {
        let _ = writeln!(
            out,
            "{}: no ladder ({} puzzles, none solved by every strategy run on them)",
            size_name(l.side),
            l.puzzles
        );
        return;
    };
    let _ = writeln!(
        out,
        "{} ladder: {} of {} puzzles (left out: {})",
        size_name(l.side),
        l.set,
        l.puzzles,
        left_out(l).replace('`', "")
    );
    let b = base.strategy.name();
    let mut t = Table::new(
        [
            "rung".to_string(),
            "nodes".into(),
            "time".into(),
            format!("vs {b}"),
            "vs previous".into(),
        ],
        1,
    );
    let time = |k: usize| fmt_time_ci(l.rungs[k].time(), l.time_intervals(k).map(|c| c.0));
    t.row(vec![
        b.into(),
        fmt_count(base.nodes()),
        time(0),
        String::new(),
        String::new(),
    ]);
    for (k, (rung, vs_base, vs_prev)) in l.steps().into_iter().enumerate() {
        t.row(vec![
            rung.strategy.name().into(),
            fmt_count(rung.nodes()),
            time(k + 1),
            fmt_ratio_ci(vs_base.speedup, vs_base.intervals.map(|c| c.speedup)),
            fmt_ratio_ci(vs_prev.speedup, vs_prev.intervals.map(|c| c.speedup)),
        ]);
    }
    out.push_str(&t.text("  "));
    let absent = ladder_absent(l);
    if !absent.is_empty() {
        let _ = writeln!(out, "  {absent}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The busy banner says what the CPU clock leaves out and what it
    /// does not (issue #29: it once claimed other processes' time was
    /// all left out, while the VM's clock counts the host's stalls).
    #[test]
    fn the_busy_banner_says_what_is_true() {
        let mut meta = Meta::default();
        meta.set("busy", "load 9 on 2 cores");
        let agg = Aggregate::default();
        let md = markdown(&meta, &agg, &[], &ChartData::new(&agg));
        assert!(md.contains("> **Measured on a busy machine:** load 9 on 2 cores."));
        assert!(md.contains("but not the time the host took the virtual CPU away"));
        assert!(!md.contains("leave out the time other processes took"));
    }
}
