//! # How often the estimate's interval holds the truth, by kind of interval
//!
//! `sudoku-lab estimate --exact` says how many of its 95% intervals held the
//! true tree size, over all runs at once. That share mixes three kinds of
//! run, which `docs/lesson-estimate.md` reports apart:
//!
//! * a **single point**: a search the budget did not cut off whose probes
//!   all weighed the same (a path, or a tree as regular as one), so the
//!   interval, to the node (as `estimate` prints it), is one number: the
//!   truth itself;
//! * a **real interval**: the other searches the budget did not cut off;
//! * a search **cut off** by the budget, whose interval starts at the nodes
//!   it already counted.
//!
//! Then, per strategy, how far the estimates sit from the truth.
//!
//! ```sh
//! cargo run --release --example estimate_coverage -- --budget 1000000 \
//!     -s naive,mrv docs/puzzles/famous.txt
//! ```
//!
//! Runs exactly what `estimate --exact` runs (same seed, same budget), so
//! its rows are that table's rows. Exit 2 on a usage or read error, 1 if a
//! run fails.

use std::process::ExitCode;

use sudoku_lab::analysis::estimate::{self, Plan, Row};
use sudoku_lab::base::Quiet;
use sudoku_lab::export::{markdown, percent, thousands};
use sudoku_lab::io::Dataset;
use sudoku_lab::{Board, EXIT_USAGE, Strategy};

const USAGE: &str = "usage: estimate_coverage --budget NODES -s STRATEGY[,STRATEGY...] FILE...";

fn main() -> ExitCode {
    let (plan, files) = match parse(std::env::args().skip(1)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("estimate_coverage: {e}\n{USAGE}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let puzzles = match load(&files) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("estimate_coverage: {e:#}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    match estimate::run(&plan, &puzzles, &Quiet) {
        Ok(rows) => {
            print!("{}", present(&plan, &rows));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("estimate_coverage: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<(Plan, Vec<String>), String> {
    let (mut budget, mut strategies, mut files) = (None, Vec::new(), Vec::new());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--budget" => {
                let v = args.next().ok_or("--budget needs a number of nodes")?;
                budget = Some(
                    v.parse::<u64>()
                        .map_err(|_| format!("--budget {v:?}: not a number of nodes"))?,
                );
            }
            "-s" => {
                let v = args.next().ok_or("-s needs strategy names")?;
                for name in v.split(',') {
                    strategies.push(
                        Strategy::from_name(name).ok_or(format!("no strategy named {name:?}"))?,
                    );
                }
            }
            _ => files.push(a),
        }
    }
    if strategies.is_empty() || files.is_empty() {
        return Err("give the strategies and at least one puzzle file".into());
    }
    let plan = Plan {
        strategies,
        budget: budget.ok_or("give --budget")?,
        exact: true,
        seed: sudoku_lab::analysis::estimate::Options::DEFAULT.seed,
    };
    Ok((plan, files))
}

/// The puzzles of the files, named as `estimate` names them.
fn load(files: &[String]) -> anyhow::Result<Vec<(String, Board)>> {
    let mut puzzles = Vec::new();
    for path in files {
        let data = Dataset::load(std::path::Path::new(path))?;
        for (p, position) in data.puzzles.iter().zip(&data.positions) {
            let name = p
                .name
                .clone()
                .unwrap_or_else(|| format!("{}#{position}", data.name));
            puzzles.push((name, p.board.clone()));
        }
    }
    Ok(puzzles)
}

/// The kind of a row with an estimate and the truth.
fn kind(row: &Row) -> Option<&'static str> {
    let e = row.estimate?;
    row.truth?;
    Some(if row.cut_off {
        "cut off"
    } else if e.low.round() == e.high.round() {
        "single point"
    } else {
        "real interval"
    })
}

fn present(plan: &Plan, rows: &[Row]) -> String {
    let by_kind = ["single point", "real interval", "cut off"].map(|k| {
        let group: Vec<Row> = rows
            .iter()
            .filter(|r| kind(r) == Some(k))
            .cloned()
            .collect();
        let v = estimate::validate(&group);
        let nodes: u64 = group.iter().filter_map(|r| r.truth).sum();
        vec![
            k.to_string(),
            v.cases.to_string(),
            v.covered.to_string(),
            share(v.covered, v.cases),
            thousands(nodes),
        ]
    });
    let kinds = markdown(
        &["interval", "cases", "covered", "share covered", "nodes"],
        1,
        by_kind.to_vec(),
    );
    let by_strategy = plan
        .strategies
        .iter()
        .map(|&s| {
            let group: Vec<Row> = rows.iter().filter(|r| r.strategy == s).cloned().collect();
            let v = estimate::validate(&group);
            let below = group
                .iter()
                // To the node, as `estimate` prints it.
                .filter(|r| {
                    r.estimate
                        .zip(r.truth)
                        .is_some_and(|(e, t)| e.estimate.round() < t as f64)
                })
                .count();
            let fig = |f: fn(&sudoku_lab::measure::Summary) -> f64| {
                v.ratio
                    .as_ref()
                    .map_or("-".into(), |r| format!("{:.3}", f(r)))
            };
            vec![
                s.name().to_string(),
                v.cases.to_string(),
                below.to_string(),
                fig(|r| r.min),
                fig(|r| r.median),
                fig(|r| r.max),
            ]
        })
        .collect();
    let strategies = markdown(
        &[
            "strategy",
            "cases",
            "below the truth",
            "est ÷ truth min",
            "median",
            "max",
        ],
        1,
        by_strategy,
    );
    format!("{kinds}\n{strategies}")
}

fn share(k: usize, n: usize) -> String {
    if n == 0 {
        "-".into()
    } else {
        percent(k as f64 / n as f64, 0)
    }
}
