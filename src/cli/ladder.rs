//! `ladder`: run strategies over puzzle files and print Markdown tables of
//! exact counters and times — per puzzle, or as a distribution per file.
//! The tables in `docs/` are this command's output.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args;

use crate::counters::Counts;
use crate::dataset::Dataset;
use crate::measure::{Measurement, measure};
use crate::present::{duration, markdown, thousands};
use crate::progress::Progress;
use crate::search::Limits;
use crate::strategy::{Outcome, Strategy};
use crate::tour::transform::Transform;
use crate::tour::{Distribution, Labelled};

use super::EXIT_UNSOLVED;
use super::args::{MeasureBudget, SampleArgs, StrategyList, TimingArgs};
use super::progress::Bar;

#[derive(Debug, Args)]
pub struct LadderArgs {
    #[command(flatten)]
    pub strategies: StrategyList,
    #[command(flatten)]
    pub budget: MeasureBudget,
    /// Use only the first N puzzles of each file (after --sample, if given).
    #[arg(long, value_name = "N")]
    pub first: Option<usize>,
    #[command(flatten)]
    pub sample: SampleArgs,
    #[command(flatten)]
    pub timing: TimingArgs,
    /// Also run every puzzle turned and mirrored (8 ways) and with its row bands reordered.
    #[arg(long)]
    pub symmetries: bool,
    /// One row per file and strategy: the distribution of nodes (percentiles,
    /// decades, puzzles solved without a guess) and the total time.
    #[arg(long)]
    pub dist: bool,
    /// Puzzle files (line, grid or compact layout, or CSV).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

pub fn ladder(args: &LadderArgs) -> anyhow::Result<ExitCode> {
    let strategies = args.strategies.chosen();
    let limits = Limits::solve(args.budget.budget.get());
    let method = args.timing.method();
    let sets = args
        .files
        .iter()
        .map(|p| Dataset::load_sampled(p, args.sample.sample()))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let take = args.first.unwrap_or(usize::MAX);
    let variants = |size| {
        if args.symmetries {
            Transform::standard(size)
        } else {
            vec![Transform::Identity]
        }
    };
    let total: u64 = sets
        .iter()
        .flat_map(|d| d.puzzles.iter().take(take))
        .map(|p| (variants(p.board.size()).len() * strategies.len()) as u64)
        .sum();
    let progress = Bar::new("ladder");
    progress.start(total);
    let mut out: Vec<(String, Vec<Labelled>)> = Vec::new();
    for (path, data) in args.files.iter().zip(&sets) {
        let mut rows = Vec::new();
        for (puzzle, position) in data.puzzles.iter().zip(&data.positions).take(take) {
            let base = puzzle
                .name
                .clone()
                .unwrap_or_else(|| format!("{}#{position}", data.name));
            for t in &variants(puzzle.board.size()) {
                let board = t.apply(&puzzle.board);
                let label = match t {
                    Transform::Identity if !args.symmetries => base.clone(),
                    _ => format!("{base} @{}", t.name()),
                };
                for &s in &strategies {
                    progress.say(&format!("{label} × {s}"));
                    let m = measure(s, &board, limits, &method).with_context(|| {
                        format!(
                            "{} puzzle {position} (line {})",
                            path.display(),
                            puzzle.line
                        )
                    })?;
                    progress.tick();
                    rows.push(Labelled {
                        puzzle: label.clone(),
                        m,
                    });
                }
            }
        }
        out.push((data.name.clone(), rows));
    }
    progress.finish();
    let all: Vec<&Labelled> = out.iter().flat_map(|(_, r)| r).collect();
    if all.iter().all(|l| l.m.outcome == Outcome::Unsupported) {
        let sizes: Vec<String> = sets
            .iter()
            .flat_map(|d| d.puzzles.first())
            .map(|p| p.board.size().to_string())
            .collect();
        bail!(
            "nothing to measure: no chosen strategy supports the puzzles' size ({})",
            sizes.join(", ")
        );
    }
    let all_solved = all
        .iter()
        .all(|l| matches!(l.m.outcome, Outcome::Solved | Outcome::Unsupported));
    if args.dist {
        crate::output::print(&distribution_tables(&out, &strategies))?;
    } else {
        crate::output::print(&puzzle_table(&all))?;
    }
    Ok(if all_solved {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_UNSOLVED)
    })
}

/// One row per puzzle × strategy.
pub fn puzzle_table(rows: &[&Labelled]) -> String {
    // Every counter, in the order of the one counter table (`Counts::NAMES`).
    let counters = Counts::NAMES.map(|n| n.replace('_', " "));
    let mut headers = vec!["puzzle", "strategy", "result"];
    headers.extend(counters.iter().map(String::as_str));
    headers.extend(["time", "per node"]);
    let body = rows
        .iter()
        .map(|l| {
            let m = &l.m;
            let ran = m.outcome != Outcome::Unsupported;
            let mut row = vec![
                l.puzzle.clone(),
                m.strategy.name().to_string(),
                result(m.outcome).to_string(),
            ];
            row.extend(
                m.counts
                    .values()
                    .map(|x| if ran { thousands(x) } else { "-".to_string() }),
            );
            row.push(m.timing.map_or("-".into(), |t| duration(t.ns())));
            row.push(l.ns_per_node().map_or("-".into(), per_node));
            row
        })
        .collect();
    markdown(&headers, 3, body)
}

/// Percentiles per file × strategy, then puzzles per decade of nodes.
pub fn distribution_tables(sets: &[(String, Vec<Labelled>)], strategies: &[Strategy]) -> String {
    let mut dists = Vec::new();
    for (name, rows) in sets {
        for &s in strategies {
            let mine: Vec<&Measurement> = rows
                .iter()
                .map(|l| &l.m)
                .filter(|m| m.strategy == s && m.outcome != Outcome::Unsupported)
                .collect();
            if !mine.is_empty() {
                dists.push(Distribution::of(name, s, &mine));
            }
        }
    }
    let headers = [
        "set",
        "strategy",
        "puzzles",
        "solved",
        "over budget",
        "no guess",
        "nodes p50",
        "p90",
        "p99",
        "max",
        "mean",
        "top 1% share",
        "total time",
    ];
    let body = dists
        .iter()
        .map(|d| {
            vec![
                d.set.clone(),
                d.strategy.name().to_string(),
                thousands(d.puzzles as u64),
                thousands(d.solved as u64),
                thousands(d.over_budget as u64),
                thousands(d.no_guess as u64),
                thousands(d.nodes.median.round() as u64),
                thousands(d.nodes.p90.round() as u64),
                thousands(d.nodes.p99.round() as u64),
                thousands(d.nodes.max as u64),
                thousands(d.nodes.mean.round() as u64),
                format!("{:.1}%", d.top1_share * 100.0),
                duration(d.total_nanos),
            ]
        })
        .collect();
    let mut out = markdown(&headers, 2, body);
    let width = dists.iter().map(|d| d.decades.len()).max().unwrap_or(0);
    let mut headers: Vec<String> = vec!["set".into(), "strategy".into()];
    headers.extend((0..width).map(decade_label));
    let body = dists
        .iter()
        .map(|d| {
            let mut row = vec![d.set.clone(), d.strategy.name().to_string()];
            row.extend(
                (0..width).map(|k| thousands(d.decades.get(k).copied().unwrap_or(0) as u64)),
            );
            row
        })
        .collect();
    out.push_str("\npuzzles by nodes needed (columns: at least 1, 10, 100, ... nodes):\n\n");
    let refs: Vec<&str> = headers.iter().map(String::as_str).collect();
    out.push_str(&markdown(&refs, 2, body));
    out
}

fn decade_label(k: usize) -> String {
    const NAMES: [&str; 13] = [
        "1+", "10+", "100+", "1k+", "10k+", "100k+", "1M+", "10M+", "100M+", "1G+", "10G+",
        "100G+", "1T+",
    ];
    NAMES
        .get(k)
        .map_or_else(|| format!("1e{k}+"), |s| s.to_string())
}

fn result(o: Outcome) -> &'static str {
    match o {
        Outcome::Solved => "solved",
        Outcome::NoSolution => "none",
        Outcome::BudgetExceeded => "budget",
        Outcome::Unsupported => "unsupported",
        // Outside programs' outcomes; the ladder runs rungs only.
        Outcome::WrongAnswer | Outcome::TimeLimit | Outcome::Crashed | Outcome::BadOutput => {
            o.name()
        }
    }
}

fn per_node(ns: f64) -> String {
    format!("{ns:.1} ns")
}
