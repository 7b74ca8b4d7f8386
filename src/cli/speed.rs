//! `speed`: throughput per dataset × strategy, as a terminal table, CSV or
//! Markdown. Measuring lives in [`crate::speed`]; this file only parses
//! arguments and turns rows into text.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::compare::draw::fmt_value_ci;
use crate::dataset::Dataset;
use crate::measure::Conditions;
use crate::speed::{Clock, SpeedOptions, SpeedRow, measure, measure_program};
use crate::strategy::Outcome;

use super::args::{LimitArg, MeasureBudget, SampleArgs, StrategyList, TimingArgs};
use super::program::ProgramArgs;
use super::progress::Bar;
use crate::progress::Progress;

#[derive(Debug, Args)]
pub struct SpeedArgs {
    /// Puzzle files to measure, each one a dataset (or the name of a
    /// fetched public corpus, such as top1465: `datasets list`).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub strategies: StrategyList,
    #[command(flatten)]
    pub sample: SampleArgs,
    #[command(flatten)]
    pub budget: MeasureBudget,
    #[command(flatten)]
    pub limit: LimitArg,
    #[command(flatten)]
    pub timing: TimingArgs,
    /// Time a seeded random symmetry of each puzzle in each pass (digits
    /// relabelled; bands, stacks, rows and columns permuted; transposed or
    /// not), as tdoku's benchmark harness does with `-r 1`.
    #[arg(long)]
    pub permute: bool,
    #[command(flatten)]
    pub programs: ProgramArgs,
    /// Print CSV (one row per dataset × strategy, every figure).
    #[arg(long, conflicts_with_all = ["markdown", "json"])]
    pub csv: bool,
    /// Print a Markdown table.
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
    /// Print the CSV's rows as JSON (an array of objects, same fields).
    #[arg(long)]
    pub json: bool,
}

/// The library's options from the flags: `--min-time` per puzzle when
/// given, else [`crate::defaults::SPEED_SET_TIME`] over each set.
fn options(args: &SpeedArgs) -> SpeedOptions {
    let mut method = args.timing.method(args.sample.seed);
    method.permute = args.permute;
    SpeedOptions {
        budget: args.budget.budget,
        limit: args.limit.limit,
        method,
        set_time: args
            .timing
            .min_time
            .is_none()
            .then_some(crate::defaults::SPEED_SET_TIME),
    }
}

pub fn speed(args: &SpeedArgs) -> anyhow::Result<ExitCode> {
    let opts = options(args);
    // Load everything first: a bad file fails before minutes of measuring.
    let sets = args
        .files
        .iter()
        .map(|f| Dataset::load_sampled(&crate::fetch::file_or_corpus(f)?, args.sample.sample()))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let strategies = args.strategies.chosen();
    let programs = args.programs.programs()?;
    let passes: u64 = sets.iter().map(|d| d.len() as u64).sum::<u64>()
        * (2 * strategies.len() + programs.len()) as u64;
    let progress = Bar::new("speed");
    progress.start(passes);
    let mut rows = Vec::new();
    let mut conditions = Conditions::new(1);
    conditions.sample_load();
    for set in &sets {
        let boards = crate::speed::boards(set);
        for &strategy in &strategies {
            progress.say(&format!(
                "{} ({} puzzles) × {strategy}",
                set.name,
                boards.len()
            ));
            rows.push(measure(
                &set.name,
                &boards,
                strategy,
                &opts,
                &mut conditions,
                &|| progress.tick(),
            )?);
        }
        for program in &programs {
            progress.say(&format!(
                "{} ({} puzzles) × program {}",
                set.name,
                boards.len(),
                program.name
            ));
            rows.push(measure_program(&set.name, &boards, program, &|| {
                progress.tick()
            })?);
        }
    }
    progress.finish();
    conditions.sample_load();
    super::note_conditions(&conditions);
    let text = if args.json {
        let records: Vec<_> = rows.iter().map(SpeedRow::record).collect();
        crate::present::json(&records)?
    } else if args.csv {
        to_csv(&rows)?
    } else if args.markdown {
        to_markdown(&rows)
    } else {
        let mut t = to_table(&rows);
        t.push_str(&footer(args));
        t
    };
    crate::output::print(&text)?;
    // A puzzle not solved, or a program that failed one: exit 1.
    let incomplete = rows.iter().any(|r| {
        r.with(Outcome::BudgetExceeded) > 0 || r.with(Outcome::NoSolution) > 0 || r.failed() > 0
    });
    Ok(if incomplete {
        super::unsolved("a puzzle had no solution or exceeded the budget, or a program failed one")
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
    "µs q1–q3",
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
            fmt_value_ci(t.puzzles_per_sec(), t.puzzles_per_sec_interval()),
            fmt_value_ci(t.us_per_puzzle(), t.us_per_puzzle_interval()),
            format!(
                "{}–{}",
                sig(t.per_puzzle.q1 / 1e3),
                sig(t.per_puzzle.q3 / 1e3)
            ),
        ),
        None => (na(), na(), na()),
    };
    let unsupported = row.with(Outcome::Unsupported);
    let counters = row.counted() && unsupported < row.puzzles;
    let mut notes = Vec::new();
    match row.timing.map(|t| t.clock) {
        Some(Clock::ChildCpu) => notes.push("program: child CPU time, start-up included".into()),
        Some(Clock::Wall) => notes.push("program (stream): wall time per answer".into()),
        Some(Clock::ThreadCpu) | None => {}
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
    if unsupported > 0 {
        notes.push(format!("{unsupported} of a size it does not support"));
    }
    [
        row.dataset.clone(),
        row.entrant.name().to_string(),
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
        notes.join("; "),
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
    let sample = match args.sample.sample() {
        Some(s) => format!("seeded sample of {} per file (seed {})", s.n, s.seed),
        None => "every puzzle".to_string(),
    };
    let opts = options(args);
    let programs = if args.programs.programs.is_empty() {
        String::new()
    } else {
        format!(
            "programs: one run per puzzle, every answer checked; time = the child's CPU time \
             (user + system, process start-up included; wall time in stream mode); time limit \
             {} s per puzzle; no counters\n",
            args.programs.time_limit
        )
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
         time); {limit}; budget {} nodes per puzzle; {sample}; every solution verified\n",
        opts.method.seed, opts.method.min_samples, args.budget.budget
    ) + &programs
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
