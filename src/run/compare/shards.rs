//! A `compare` plan cut into shards: the plan's fingerprint, the puzzles a
//! shard measures, what a shard adds to its meta.csv, and whether a shard's
//! folder is already complete. (The partition, the scheduler's index and the
//! fingerprint's keys are [`crate::run::shard`]'s, below `compare`: this file is
//! where they meet the plan.)

use std::path::Path;

use crate::io::meta::Meta;
use crate::run::compare::run::{self, Plan, Prepared};
use crate::run::shard::{
    Assigned, Fingerprint, PLAN, PLAN_DATASETS, PLAN_STRATEGIES, PlanDataset, SHARD, SHARD_FROM,
    SHARD_PUZZLES, Shard, file_fnv1a64,
};

impl Fingerprint {
    /// The fingerprint of `plan`, whose datasets were prepared (counted and
    /// sampled, not yet split into shards) as `prepared`. Reads every
    /// dataset file once more, for its hash.
    pub fn of(plan: &Plan, prepared: &[Prepared]) -> anyhow::Result<Fingerprint> {
        let mut datasets = Vec::with_capacity(prepared.len());
        for p in prepared {
            datasets.push(PlanDataset {
                name: p.source.name.clone(),
                runs: p.runs(),
                total: p.total,
                fnv1a64: format!("{:016x}", file_fnv1a64(&p.source.path)?),
            });
        }
        let strategies: Vec<&str> = run::dedup_in_ladder_order(&plan.strategies)
            .iter()
            .map(|s| s.name())
            .collect();
        let parts = vec![
            (PLAN_DATASETS, serde_json::to_string(&datasets)?),
            (PLAN_STRATEGIES, strategies.join(",")),
            ("plan_budget", plan.budget.to_string()),
            ("plan_limit", plan.limit.to_string()),
            (
                "plan_sample",
                match plan.sample {
                    Some(s) => format!("{} (seed {})", s.n, s.seed),
                    None => "all puzzles".to_string(),
                },
            ),
            (
                "plan_timing",
                format!(
                    "cold passes (seed {}{}), at least {} samples and {} µs per puzzle × strategy or its median within ±{}%",
                    plan.method.seed,
                    if plan.method.permute {
                        ", permuted"
                    } else {
                        ""
                    },
                    plan.method.min_samples,
                    plan.method.min_time.as_micros(),
                    plan.method.tight * 100.0
                ),
            ),
            ("plan_version", env!("CARGO_PKG_VERSION").to_string()),
            ("plan_commit", crate::io::meta::git_commit()),
            ("plan_sources", crate::io::meta::sources_hash()),
        ];
        Ok(Fingerprint {
            parts: parts.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        })
    }
}

/// Keeps, of the prepared datasets, the puzzles `shard` measures: the
/// plan's puzzles numbered in results order, every `count`-th from `index`
/// ([`Shard::owns`]). Reads each dataset that was not sampled once, keeping
/// its share (a shard of a big set holds 1/N of its puzzles in memory).
/// A shard with no puzzle is an error: the plan has fewer puzzles than shards.
pub(crate) fn restrict(prepared: Vec<Prepared>, shard: Shard) -> anyhow::Result<Vec<Prepared>> {
    let total: u64 = prepared.iter().map(Prepared::runs).sum();
    if shard.share(total) == 0 {
        anyhow::bail!(
            "shard {shard}: the plan has {total} puzzle{} for {} shards, so this one would measure nothing; use at most {total} shards",
            if total == 1 { "" } else { "s" },
            shard.count()
        );
    }
    let mut position = 0u64;
    let mut out = Vec::with_capacity(prepared.len());
    for mut p in prepared {
        let mut mine = Vec::new();
        let mut take = |item: std::sync::Arc<run::Item>| {
            if shard.owns(position) {
                mine.push(item);
            }
            position += 1;
        };
        match p.picked.take() {
            Some(picked) => picked.into_iter().for_each(&mut take),
            None => {
                for item in run::items(&p.source)? {
                    take(std::sync::Arc::new(item?));
                }
            }
        }
        p.picked = Some(mine);
        out.push(p);
    }
    Ok(out)
}

/// Writes what a shard run adds to its meta.csv: which shard and from
/// where, and how many puzzles it measured.
pub(crate) fn shard_to_meta(meta: &mut Meta, assigned: &Assigned, prepared: &[Prepared]) {
    meta.set(SHARD, assigned.shard.to_string());
    meta.set(SHARD_FROM, assigned.from.clone());
    let puzzles: u64 = prepared.iter().map(Prepared::runs).sum();
    meta.set(SHARD_PUZZLES, puzzles.to_string());
}

/// Whether `dir` already holds the complete report of `shard` of the plan
/// `print`: its meta.csv says so, and its results.csv holds the rows the
/// shard's share of the plan makes. A shard resubmitted after it finished
/// finds its report there and leaves it as it is.
pub fn finished(dir: &Path, print: &Fingerprint, shard: Shard) -> bool {
    let Ok(bytes) = std::fs::read(dir.join(super::META)) else {
        return false;
    };
    let Ok(meta) = Meta::from_csv(&bytes) else {
        return false;
    };
    if meta.get(SHARD) != Some(shard.to_string().as_str())
        || meta.get(PLAN) != Some(print.hash().as_str())
        || Fingerprint::from_meta(&meta) != *print
    {
        return false;
    }
    let Ok(datasets) = print.datasets() else {
        return false;
    };
    let strategies = print
        .get(PLAN_STRATEGIES)
        .map_or(0, |s| s.split(',').count() as u64);
    let puzzles = shard.share(datasets.iter().map(|d| d.runs).sum());
    let Ok(mut reader) = csv::Reader::from_path(dir.join(super::RESULTS)) else {
        return false;
    };
    let mut rows = 0u64;
    for record in reader.records() {
        if record.is_err() {
            return false;
        }
        rows += 1;
    }
    rows == puzzles * strategies
}

/// What `compare --shard` checks before measuring: no outside programs (the
/// merge does not merge their rows), and whether `out` already holds this
/// shard complete: then the line that says so (the run has nothing to do,
/// unless `rerun`). `None`: go on and measure.
pub(crate) fn already_complete(
    plan: &Plan,
    out: &Path,
    rerun: bool,
) -> anyhow::Result<Option<String>> {
    let Some(assigned) = &plan.shard else {
        return Ok(None);
    };
    if !plan.programs.is_empty() {
        anyhow::bail!(
            "--shard with --program: the merge does not merge outside programs' rows yet; run programs without --shard"
        );
    }
    if rerun {
        return Ok(None);
    }
    let prepared = super::prepare(plan)?;
    let print = Fingerprint::of(plan, &prepared)?;
    Ok(
        finished(out, &print, assigned.shard).then(|| {
            format!(
                "shard {} of this plan is already complete in {} (its meta.csv has the plan's fingerprint and its results.csv the shard's rows): nothing to do; --rerun measures it again",
                assigned.shard,
                out.display()
            )
        }),
    )
}
