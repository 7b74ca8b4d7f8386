//! Flags shared by several commands, defined once so that they mean the
//! same everywhere: `--strategy/-s`, `--budget`, `--sample/--seed` and the
//! timing flags. Defaults come from [`crate::defaults`].

use std::time::Duration;

use clap::Args;

use crate::defaults;
use crate::measure::Method;
use crate::sample::Sample;
use crate::search::Budget;
use crate::strategy::Strategy;

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
    /// Time each puzzle × strategy for at least this many milliseconds of
    /// uncounted runs (0: one timed run each).
    #[arg(long, value_name = "MS", default_value_t = defaults::TIMING.min_time.as_secs_f64() * 1e3,
          value_parser = parse_millis)]
    pub min_time: f64,
    /// ...in at least this many samples (median reported).
    #[arg(long, value_name = "N", default_value_t = defaults::TIMING.min_samples,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub min_samples: u32,
}

impl TimingArgs {
    pub fn method(&self) -> Method {
        Method {
            min_time: Duration::from_secs_f64(self.min_time / 1e3),
            min_samples: self.min_samples,
        }
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
