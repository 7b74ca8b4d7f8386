//! Flags shared by several commands, defined once so that they mean the
//! same everywhere: `--strategy/-s`, `--budget`, `--sample/--seed` and the
//! timing flags. Defaults come from [`crate::base::defaults`].

use std::ffi::OsString;
use std::time::Duration;

use clap::Args;

use crate::base::defaults;
use crate::base::search::Budget;
use crate::base::strategy::Strategy;
use crate::io::sample::Sample;
use crate::measure::Method;

/// `--strategy NAME` (repeatable, or a comma list): which rungs to run.
#[derive(Clone, Debug, Default, Args)]
pub struct StrategyList {
    /// Strategy to run (repeat, or separate names by commas); default: every
    /// rung, in ladder order.
    #[arg(
        long = "strategy",
        short = 's',
        value_name = "NAME",
        value_delimiter = ','
    )]
    pub strategies: Vec<Strategy>,
}

impl StrategyList {
    /// The chosen strategies in ladder order, each once; all when none given.
    pub fn chosen(&self) -> Vec<Strategy> {
        if self.strategies.is_empty() {
            return Strategy::ladder();
        }
        let mut v = self.strategies.clone();
        v.sort();
        v.dedup();
        v
    }
}

/// The flags of the measuring commands (`compare`, `ladder`, `speed`):
/// which rungs, the node budget, the solutions sought, the sample, the timing.
#[derive(Clone, Debug, Args)]
pub struct MeasureArgs {
    #[command(flatten)]
    pub strategies: StrategyList,
    #[command(flatten)]
    pub budget: MeasureBudget,
    #[command(flatten)]
    pub limit: LimitArg,
    #[command(flatten)]
    pub sample: SampleArgs,
    #[command(flatten)]
    pub timing: TimingArgs,
}

impl MeasureArgs {
    /// The timing method, its seed that of `--seed`.
    pub fn method(&self) -> Method {
        self.timing.method(self.sample.seed)
    }
}

/// `--budget NODES` for the measuring commands.
#[derive(Clone, Copy, Debug, Args)]
pub struct MeasureBudget {
    /// Give up on a puzzle after this many search nodes (a number, or
    /// `unlimited`); the run is recorded as over budget.
    #[arg(long, value_name = "NODES", default_value_t = defaults::MEASURE_BUDGET)]
    pub budget: Budget,
}

/// `--budget NODES` for `solve` and `count`.
#[derive(Clone, Copy, Debug, Args)]
pub struct SolveBudget {
    /// Give up on a puzzle after this many search nodes (a number, or
    /// `unlimited`).
    #[arg(long, value_name = "NODES", default_value_t = defaults::SOLVE_BUDGET)]
    pub budget: Budget,
}

/// `--sample N --seed S`: a seeded random sample of each file.
#[derive(Clone, Copy, Debug, Args)]
pub struct SampleArgs {
    /// Run a seeded random sample of at most N puzzles per file (file order
    /// kept); the same N and seed pick the same puzzles in every command.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub sample: Option<u64>,
    /// Seed of --sample (ChaCha8).
    #[arg(long, value_name = "S", default_value_t = defaults::SEED)]
    pub seed: u64,
}

impl SampleArgs {
    pub fn sample(&self) -> Option<Sample> {
        self.sample.map(|n| Sample { n, seed: self.seed })
    }
}

/// `--min-time MS --min-samples N`: how long to time each puzzle × strategy.
#[derive(Clone, Copy, Debug, Args)]
pub struct TimingArgs {
    /// Time each puzzle × strategy until its timed runs add up to this many
    /// milliseconds [default: 1; `speed`: 1000 ÷ the set's puzzles, so a
    /// strategy is timed for about a second over the set] (0: the
    /// --min-samples passes alone).
    #[arg(long, value_name = "MS", value_parser = parse_millis)]
    pub min_time: Option<f64>,
    /// ...and it has at least this many timed runs, one per pass over the
    /// tasks (median reported).
    #[arg(long, value_name = "N", default_value_t = crate::measure::Method::DEFAULT.min_samples,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub min_samples: u32,
}

impl TimingArgs {
    /// The method, `--min-time` defaulting to [`crate::measure::Method::DEFAULT`]'s.
    pub fn method(&self, seed: u64) -> Method {
        Method {
            min_time: self
                .min_time
                .map_or(crate::measure::Method::DEFAULT.min_time, |ms| {
                    Duration::from_secs_f64(ms / 1e3)
                }),
            min_samples: self.min_samples,
            seed,
            ..crate::measure::Method::DEFAULT
        }
    }
}

/// `--limit K`: stop each search after K solutions.
#[derive(Clone, Copy, Debug, Args)]
pub struct LimitArg {
    /// Stop a search after this many solutions: 1 solves, 2 also proves the
    /// solution unique (the field's standard workload: tdoku's harness and
    /// puzzle generators count to 2). A whole number ≥ 1 (`5_000` works).
    #[arg(long, value_name = "K", default_value_t = defaults::LIMIT, value_parser = parse_limit)]
    pub limit: u64,
}

/// A solution limit (`--limit` of the measuring commands and `count`): a
/// whole number ≥ 1, `_` or `,` between digits allowed.
pub fn parse_limit(text: &str) -> Result<u64, String> {
    let s = text.trim();
    let digits: String = s.chars().filter(|c| !matches!(c, '_' | ',')).collect();
    match digits.parse::<u64>() {
        Ok(0) => Err("0 solutions would stop before the search starts: give 1 or more".into()),
        Ok(k) if !digits.is_empty() && !s.starts_with(['_', ',']) => Ok(k),
        _ => Err(format!(
            "expected a whole number of solutions (1 or more), got {text:?}"
        )),
    }
}

fn parse_millis(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=3_600_000.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected milliseconds between 0 and 3600000, got {s:?}"
        )),
    }
}

/// The command line as typed (`argv`), for the report (program name
/// shortened; arguments that are not UTF-8 shown lossily).
pub(super) fn command_line(argv: &[OsString]) -> String {
    let mut parts = vec!["sudoku-lab".to_string()];
    for a in argv.iter().skip(1).map(|a| a.to_string_lossy()) {
        if !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+".contains(c))
        {
            parts.push(a.into_owned());
        } else {
            parts.push(format!("'{}'", a.replace('\'', r"'\''")));
        }
    }
    parts.join(" ")
}

/// The command line takes names, and the help text, from the registry
/// (added rungs included), so `--strategy NAME` needs no list of its own.
#[derive(Clone, Copy, Debug, Default)]
pub struct StrategyParser;

impl clap::builder::TypedValueParser for StrategyParser {
    type Value = Strategy;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Strategy, clap::Error> {
        // clap's own parser gives clap's own message, with the valid names.
        let names =
            clap::builder::PossibleValuesParser::new(self.possible_values().into_iter().flatten());
        let name = names.parse_ref(cmd, arg, value).map_err(|mut e| {
            let every = Strategy::every();
            let hint = value
                .to_str()
                .and_then(|v| crate::base::names::closest(v, every.iter().map(|s| s.name())));
            if let Some(hint) = hint {
                use clap::error::{ContextKind, ContextValue};
                e.insert(
                    ContextKind::SuggestedValue,
                    ContextValue::String(hint.to_string()),
                );
            }
            e
        })?;
        Strategy::from_name(&name)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(Strategy::every().into_iter().map(|s| {
            clap::builder::PossibleValue::new(s.name()).help(s.summary())
        })))
    }
}

impl clap::builder::ValueParserFactory for Strategy {
    type Parser = StrategyParser;
    fn value_parser() -> StrategyParser {
        StrategyParser
    }
}

/// `--force` of every command that writes a report folder.
#[derive(Clone, Copy, Debug, Default, Args)]
pub struct ForceArg {
    /// Write the report into a folder the lab did not make (one holding
    /// files but not the lab's list of them, `.sudoku-lab-files`): files of
    /// the report's names are replaced; no other file is removed.
    #[arg(long)]
    pub force: bool,
}
