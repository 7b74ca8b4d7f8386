//! `speed`: throughput per dataset × strategy, as a terminal table, CSV or
//! Markdown. Measuring lives in [`crate::speed`]; this file only parses
//! arguments and turns rows into text.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use crate::speed::{SpeedOptions, SpeedRow, Status, load_sampled, measure};
use crate::strategy::Strategy;

use super::EXIT_UNSOLVED;

/// Default node budget per puzzle: generous for the pruning rungs (mrv needs
/// at most ~300k nodes on top1465) while bounding a naive run to about a
/// second per puzzle.
pub const DEFAULT_BUDGET: u64 = 1_000_000;

#[derive(Debug, Args)]
pub struct SpeedArgs {
    /// Puzzle files to measure, each one a dataset.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Strategy to measure (repeatable); every strategy, in ladder order, if omitted.
    #[arg(long, short, value_enum)]
    pub strategy: Vec<Strategy>,
    /// Measure a seeded random sample of N puzzles per file (file order kept).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub sample: Option<u64>,
    /// Seed of the sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Node budget per puzzle (0: unlimited). A strategy that exceeds it on any
    /// puzzle gets no throughput for that dataset.
    #[arg(long, value_name = "NODES", default_value_t = DEFAULT_BUDGET)]
    pub budget: u64,
    /// Keep timing passes over the whole set for at least this long.
    #[arg(long, value_name = "SECS", default_value_t = 1.0, value_parser = parse_secs)]
    pub min_time: f64,
    /// Untimed warm-up passes for this long (after one verification pass).
    #[arg(long, value_name = "SECS", default_value_t = 0.3, value_parser = parse_secs)]
    pub warm_up: f64,
    /// Take at least this many timed samples.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    pub min_samples: u64,
    /// Print CSV (one row per dataset × strategy, every figure).
    #[arg(long, conflicts_with = "markdown")]
    pub csv: bool,
    /// Print a Markdown table.
    #[arg(long)]
    pub markdown: bool,
}

fn parse_secs(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=86_400.0).contains(&v) => Ok(v),
        _ => Err(format!("expected seconds between 0 and 86400, got {s:?}")),
    }
}

impl SpeedArgs {
    fn options(&self) -> SpeedOptions {
        SpeedOptions {
            budget: (self.budget > 0).then_some(self.budget),
            warm_up: Duration::from_secs_f64(self.warm_up),
            min_time: Duration::from_secs_f64(self.min_time),
            min_samples: self.min_samples as usize,
        }
    }
    fn strategies(&self) -> Vec<Strategy> {
        if self.strategy.is_empty() {
            Strategy::ALL.to_vec()
        } else {
            let mut s: Vec<Strategy> = Vec::new();
            for &x in &self.strategy {
                if !s.contains(&x) {
                    s.push(x);
                }
            }
            s
        }
    }
}

pub fn speed(args: &SpeedArgs) -> anyhow::Result<ExitCode> {
    let opts = args.options();
    // Load everything first: a bad file fails before minutes of measuring.
    let sets = args
        .files
        .iter()
        .map(|f| load_sampled(f, args.sample.map(|n| n as usize), args.seed))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut rows = Vec::new();
    for (name, boards) in &sets {
        for strategy in args.strategies() {
            crate::output::note(format_args!(
                "speed: {name} ({} puzzles) × {strategy} ...",
                boards.len()
            ));
            rows.push(measure(name, boards, strategy, &opts)?);
        }
    }
    let text = if args.csv {
        to_csv(&rows)?
    } else if args.markdown {
        to_markdown(&rows)
    } else {
        let mut t = to_table(&rows);
        t.push_str(&footer(args));
        t
    };
    crate::output::print(&text)?;
    let incomplete = rows.iter().any(|r| r.over_budget > 0 || r.no_solution > 0);
    Ok(if incomplete {
        ExitCode::from(EXIT_UNSOLVED)
    } else {
        ExitCode::SUCCESS
    })
}

/// Column titles of the table and Markdown exports.
pub const COLUMNS: [&str; 10] = [
    "dataset",
    "strategy",
    "puzzles",
    "puzzles/s",
    "µs/puzzle",
    "µs min–max",
    "no-guess %",
    "guesses/puzzle",
    "nodes/puzzle",
    "note",
];

/// Human-sized number: about three significant digits, no exponent.
fn sig(x: f64) -> String {
    let a = x.abs();
    if a >= 100.0 {
        format!("{x:.0}")
    } else if a >= 10.0 {
        format!("{x:.1}")
    } else if a >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

/// The text cells of one row, in [`COLUMNS`] order. Missing throughput is
/// "n/a"; counter columns cut short by the budget are marked "≥".
pub fn cells(row: &SpeedRow) -> [String; 10] {
    let na = || "n/a".to_string();
    let bound = if row.counters_exact() { "" } else { "≥" };
    let (pps, us, spread) = match &row.timing {
        Some(t) => (
            sig(t.puzzles_per_sec()),
            sig(t.us_median),
            format!("{}–{}", sig(t.us_min), sig(t.us_max)),
        ),
        None => (na(), na(), na()),
    };
    let counters = row.status != Status::Unsupported;
    let note = match row.status {
        Status::Measured if row.no_solution > 0 => {
            format!("{} without solution", row.no_solution)
        }
        Status::Measured => String::new(),
        Status::OverBudget => format!(
            "{} over budget ({} nodes)",
            row.over_budget,
            row.budget.unwrap_or(0)
        ),
        Status::Unsupported => "size not supported".to_string(),
    };
    [
        row.dataset.clone(),
        row.strategy.name().to_string(),
        row.puzzles.to_string(),
        pps,
        us,
        spread,
        if counters {
            format!("{:.1}", row.pct_without_guessing())
        } else {
            na()
        },
        if counters {
            format!("{bound}{:.1}", row.guesses_per_puzzle())
        } else {
            na()
        },
        if counters {
            format!("{bound}{:.1}", row.nodes_per_puzzle())
        } else {
            na()
        },
        note,
    ]
}

/// Right-align every column except the names and the note.
fn right_aligned(col: usize) -> bool {
    !matches!(col, 0 | 1 | 9)
}

/// An aligned plain-text table.
pub fn to_table(rows: &[SpeedRow]) -> String {
    let body: Vec<[String; 10]> = rows.iter().map(cells).collect();
    let mut width = COLUMNS.map(|c| c.chars().count());
    for r in &body {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            let pad = width[i] - c.chars().count();
            if i > 0 {
                s.push_str("  ");
            }
            if right_aligned(i) {
                s.push_str(&" ".repeat(pad));
                s.push_str(c);
            } else {
                s.push_str(c);
                if i + 1 < cells.len() {
                    s.push_str(&" ".repeat(pad));
                }
            }
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        s
    };
    let mut out = line(&COLUMNS.map(String::from));
    for r in &body {
        out.push_str(&line(r));
    }
    out
}

fn footer(args: &SpeedArgs) -> String {
    let budget = if args.budget == 0 {
        "unlimited".to_string()
    } else {
        format!("{} nodes", args.budget)
    };
    let sample = match args.sample {
        Some(n) => format!("seeded sample of {n} per file (seed {})", args.seed),
        None => "every puzzle".to_string(),
    };
    format!(
        "\nsingle thread; µs/puzzle = median over timed samples of whole-set passes (≥{} samples, ≥{}s); \
         budget {budget} per puzzle; {sample}; every solution verified before timing\n",
        args.min_samples, args.min_time
    )
}

/// A Markdown (GitHub) table.
pub fn to_markdown(rows: &[SpeedRow]) -> String {
    let mut out = format!("| {} |\n|", COLUMNS.join(" | "));
    for i in 0..COLUMNS.len() {
        out.push_str(if right_aligned(i) { "---:|" } else { "---|" });
    }
    out.push('\n');
    for r in rows {
        let cells = cells(r).map(|c| c.replace('|', "\\|"));
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}

/// CSV, one flat record per row (see [`crate::speed::SpeedRecord`]).
pub fn to_csv(rows: &[SpeedRow]) -> anyhow::Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r.record())?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(String::from_utf8(bytes)?)
}
