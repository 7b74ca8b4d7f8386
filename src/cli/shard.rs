//! `compare --shard K/N | auto [--shards N] [--rerun]` and
//! `report merge SHARD_DIR... --out DIR`: the flags, and the merge command.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::run::compare;
use crate::run::shard::{Assigned, ShardSpec};

/// The shard flags of `compare`.
#[derive(Clone, Debug, Default, Args)]
pub struct ShardArgs {
    /// Measure only shard K of N of the plan (0 ≤ K < N): its puzzles are
    /// every N-th from the K-th, all strategies of a puzzle together. `auto`
    /// reads K and N from a Slurm job array, a Kubernetes Indexed Job or GNU
    /// parallel (docs/scale-out.md). Merge the shards with `report merge`.
    #[arg(long, value_name = "K/N|auto")]
    pub shard: Option<ShardSpec>,
    /// The number of shards, for `--shard auto` where the scheduler does not
    /// say it (Kubernetes, GNU parallel).
    #[arg(long, value_name = "N", requires = "shard",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub shards: Option<u64>,
    /// Measure the shard again even when --out already holds it complete
    /// (without it, a resubmitted shard that finished leaves its report as it is).
    #[arg(long, requires = "shard")]
    pub rerun: bool,
}

impl ShardArgs {
    /// The shard this process measures, if any (`auto` reads the process's
    /// environment).
    pub fn assigned(&self) -> anyhow::Result<Option<Assigned>> {
        let Some(spec) = self.shard else {
            return Ok(None);
        };
        Ok(Some(spec.resolve(self.shards, &|k| std::env::var(k).ok())?))
    }
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The report folders of the shards (`compare --shard K/N --out DIR`),
    /// every shard of the plan once, in any order.
    #[arg(value_name = "SHARD_DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// Folder of the merged report (replaced once it is complete).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[command(flatten)]
    pub force: super::args::ForceArg,
}

pub fn merge(args: &MergeArgs, argv: &[OsString]) -> anyhow::Result<ExitCode> {
    let done = compare::merge::merge(
        &args.dirs,
        &args.out,
        args.force.force,
        &super::args::command_line(argv),
    )?;
    crate::io::output::print(&done.console)?;
    Ok(ExitCode::SUCCESS)
}
