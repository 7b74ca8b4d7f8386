//! Splitting one `compare` plan over many machines: which shard measures
//! which puzzles, how a shard learns its place from the scheduler that
//! started it, and the fingerprint that tells the shards of one plan from
//! those of another.
//!
//! **The partition.** A plan's puzzles, in the order `results.csv` lists
//! them (datasets in plan order, each dataset's puzzles in file order, after
//! `--sample`), are dealt round-robin: puzzle number `p` (0-based) goes to
//! shard `p mod N`. Every strategy of a puzzle stays in its shard, so a
//! puzzle's counted run and its rungs' times come from one machine, and every
//! ratio between two rungs on one puzzle is a within-machine ratio. Dealing
//! round-robin spreads the hard and the easy puzzles of every dataset evenly
//! over the shards (the expected cost of each is the plan's ÷ N, within one
//! puzzle per dataset), where cutting the list into N runs would give one
//! shard all of a hard curated set. It depends on nothing but the plan, so
//! it is the same on every machine.
//!
//! **Where the index comes from.** `--shard K/N` (0 ≤ K < N), or
//! `--shard auto`, which reads it from the scheduler's environment
//! (`from_env`): a Slurm job array, a Kubernetes Indexed Job or GNU
//! parallel. The merge (`report merge`, [`crate::run::compare::merge`]) checks
//! that the shards it is given are the N shards of one plan.

use std::fmt;
use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::io::meta::Meta;

/// Shard `index` of `count` (0-based index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shard {
    index: u64,
    count: u64,
}

/// Why a shard could not be named or found.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum ShardError {
    #[error("--shard {0:?}: expected K/N (shard K of N, 0 ≤ K < N, e.g. 0/4) or auto")]
    Syntax(String),
    #[error("shard {index}/{count}: the index must be below the count (shards are numbered 0 to {last})", last = count.saturating_sub(1))]
    OutOfRange { index: u64, count: u64 },
    #[error("shard count 0: there must be at least one shard")]
    Zero,
    #[error(
        "--shard auto: no scheduler's shard index is set (SLURM_ARRAY_TASK_ID of a Slurm job array, JOB_COMPLETION_INDEX of a Kubernetes Indexed Job, PARALLEL_SEQ of GNU parallel); outside a scheduler give --shard K/N"
    )]
    NoScheduler,
    #[error(
        "--shard auto: several schedulers' shard indexes are set ({0}); say which shard this is with --shard K/N"
    )]
    Ambiguous(String),
    #[error("--shard auto: {var}={value:?} is not a whole number")]
    NotANumber { var: &'static str, value: String },
    #[error("--shard auto: {0} gives the shard index but not the number of shards; add --shards N")]
    NoCount(&'static str),
    #[error("--shard auto: {from} says {found} shards, --shards says {given}")]
    CountMismatch {
        from: String,
        found: u64,
        given: u64,
    },
    #[error(
        "--shard auto: Slurm array task {id} is not one of {count} evenly spaced tasks from {min} (step {step}); submit the array as --array=0-{last}",
        last = count.saturating_sub(1)
    )]
    SlurmLayout {
        id: u64,
        min: u64,
        step: u64,
        count: u64,
    },
    #[error(
        "--shard auto: Slurm array task {0} is the only task of its array (SLURM_ARRAY_TASK_MIN = MAX), as a resubmitted task is, so Slurm does not say how many shards the plan has; add --shards N, the plan's shard count (task K is then shard K of N)"
    )]
    OneTask(u64),
    #[error("--shards is only read with --shard auto (--shard {0} names the count itself)")]
    ShardsWithFixed(Shard),
}

impl Shard {
    pub fn new(index: u64, count: u64) -> Result<Shard, ShardError> {
        if count == 0 {
            return Err(ShardError::Zero);
        }
        if index >= count {
            return Err(ShardError::OutOfRange { index, count });
        }
        Ok(Shard { index, count })
    }

    /// 0-based index.
    pub fn index(self) -> u64 {
        self.index
    }

    /// Number of shards.
    pub fn count(self) -> u64 {
        self.count
    }

    /// Whether the plan's puzzle at 0-based `position` is this shard's.
    pub fn owns(self, position: u64) -> bool {
        position % self.count == self.index
    }

    /// How many of `puzzles` puzzles this shard measures.
    pub fn share(self, puzzles: u64) -> u64 {
        puzzles / self.count + u64::from(puzzles % self.count > self.index)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(syntax)?;
        let num = |v: &str| {
            if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            v.parse::<u64>().map_err(|_| syntax())
        };
        Shard::new(num(k.trim())?, num(n.trim())?)
    }
}

/// The value of `--shard`: a named shard, or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShardSpec {
    Fixed(Shard),
    Auto,
}

impl std::str::FromStr for ShardSpec {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<ShardSpec, ShardError> {
        if s == "auto" {
            Ok(ShardSpec::Auto)
        } else {
            s.parse().map(ShardSpec::Fixed)
        }
    }
}

/// A shard and where its index came from (for meta.csv and the merge's
/// list of shards): `--shard 2/4`, or the variables read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assigned {
    pub shard: Shard,
    pub from: String,
}

impl ShardSpec {
    /// The shard this process is: `Fixed` as given, `Auto` from the
    /// environment `env` (a lookup, so tests pass their own), `shards` being
    /// `--shards N`.
    pub fn resolve(
        self,
        shards: Option<u64>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Assigned, ShardError> {
        match self {
            ShardSpec::Fixed(shard) => match shards {
                Some(n) if n != shard.count => Err(ShardError::ShardsWithFixed(shard)),
                _ => Ok(Assigned {
                    shard,
                    from: format!("--shard {shard}"),
                }),
            },
            ShardSpec::Auto => from_env(shards, env),
        }
    }
}

/// The scheduler variables `--shard auto` reads, innermost launcher last.
const SLURM_ID: &str = "SLURM_ARRAY_TASK_ID";
const K8S_INDEX: &str = "JOB_COMPLETION_INDEX";
const PARALLEL_SEQ: &str = "PARALLEL_SEQ";

/// The shard named by a scheduler's environment:
///
/// - **Slurm job array** (`sbatch --array=0-N-1`): `SLURM_ARRAY_TASK_ID`,
///   counted from `SLURM_ARRAY_TASK_MIN` in steps of
///   `SLURM_ARRAY_TASK_STEP`, of `SLURM_ARRAY_TASK_COUNT` tasks. With
///   `--shards N` (both counts must agree) the task id is the shard index
///   (the array must be 0-based), and a one-task array (`--array=K`, a task
///   resubmitted alone, MIN = MAX) is shard K of N; without `--shards` a
///   one-task array is refused, since its count is not the plan's.
/// - **Kubernetes Indexed Job**: `JOB_COMPLETION_INDEX` (0-based); the
///   number of completions is not in the pod's environment: `--shards N`.
/// - **GNU parallel**: `PARALLEL_SEQ`, the job's sequence number (1-based,
///   kept by `--resume-failed`); parallel does not export the number of
///   jobs: `--shards N`. (`PARALLEL_JOBSLOT` is not a shard index: it names
///   the slot a job runs in, and slots are reused.)
///
/// Exactly one scheduler's index must be set: a job started by one
/// scheduler inside another (parallel inside a Slurm array) would otherwise
/// pick one silently.
fn from_env(
    shards: Option<u64>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Assigned, ShardError> {
    let (var, value) = scheduler(env)?;
    let env = Env { env, shards, var };
    let (index, count, from) = match var {
        SLURM_ID => env.slurm(&value)?,
        K8S_INDEX => {
            let count = env.count(String::new(), None)?;
            (num(var, &value)?, count, format!("{K8S_INDEX}={value}"))
        }
        _ => {
            let seq = num(var, &value)?;
            let count = env.count(String::new(), None)?;
            let index = seq
                .checked_sub(1)
                .ok_or(ShardError::OutOfRange { index: 0, count: 0 })?;
            (index, count, format!("{PARALLEL_SEQ}={seq}"))
        }
    };
    let shard = Shard::new(index, count)?;
    let from = match shards {
        Some(n) => format!("{from}, --shards {n}"),
        None => from,
    };
    Ok(Assigned { shard, from })
}

/// The one scheduler index variable that is set, and its value.
fn scheduler(env: &dyn Fn(&str) -> Option<String>) -> Result<(&'static str, String), ShardError> {
    let set: Vec<(&'static str, String)> = [SLURM_ID, K8S_INDEX, PARALLEL_SEQ]
        .into_iter()
        .filter_map(|v| env(v).filter(|s| !s.is_empty()).map(|s| (v, s)))
        .collect();
    match set.as_slice() {
        [] => Err(ShardError::NoScheduler),
        [one] => Ok(one.clone()),
        many => {
            let names: Vec<String> = many.iter().map(|(v, s)| format!("{v}={s}")).collect();
            Err(ShardError::Ambiguous(names.join(", ")))
        }
    }
}

/// A variable's value as a whole number.
fn num(var: &'static str, value: &str) -> Result<u64, ShardError> {
    value
        .trim()
        .parse::<u64>()
        .map_err(|_| ShardError::NotANumber {
            var,
            value: value.to_string(),
        })
}

/// The environment [`from_env`] reads, with `--shards N` and the scheduler
/// index variable that is set.
struct Env<'e> {
    env: &'e dyn Fn(&str) -> Option<String>,
    shards: Option<u64>,
    var: &'static str,
}

impl Env<'_> {
    /// A number-valued variable, if set (and not empty).
    fn opt(&self, var: &'static str) -> Result<Option<u64>, ShardError> {
        (self.env)(var)
            .filter(|s| !s.is_empty())
            .map(|v| num(var, &v))
            .transpose()
    }

    /// The number of shards: `found` (read `from` the scheduler's variables)
    /// or `--shards N`, which must agree when both are there.
    fn count(&self, from: String, found: Option<u64>) -> Result<u64, ShardError> {
        match (found, self.shards) {
            (Some(f), Some(g)) if f != g => Err(ShardError::CountMismatch {
                from,
                found: f,
                given: g,
            }),
            (Some(n), _) | (None, Some(n)) => Ok(n),
            (None, None) => Err(ShardError::NoCount(self.var)),
        }
    }

    /// A Slurm array task's (index, count, variables read).
    fn slurm(&self, value: &str) -> Result<(u64, u64, String), ShardError> {
        let id = num(SLURM_ID, value)?;
        let count = self.opt("SLURM_ARRAY_TASK_COUNT")?;
        let min = self.opt("SLURM_ARRAY_TASK_MIN")?;
        let one_task =
            count == Some(1) || (min.is_some() && min == self.opt("SLURM_ARRAY_TASK_MAX")?);
        let min = min.unwrap_or(0);
        let step = self.opt("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
        let (index, shards) = self.slurm_shard(id, count, min, step, one_task)?;
        let mut from = format!("{SLURM_ID}={id}");
        if let Some(c) = count {
            from.push_str(&format!(", SLURM_ARRAY_TASK_COUNT={c}"));
        }
        if !one_task && (min != 0 || step != 1) {
            from.push_str(&format!(
                ", SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_STEP={step}"
            ));
        }
        if let Some(job) = (self.env)("SLURM_ARRAY_JOB_ID") {
            from.push_str(&format!(", SLURM_ARRAY_JOB_ID={job}"));
        }
        Ok((index, shards, from))
    }

    /// The (index, count) of task `id` of a Slurm array of `count` tasks
    /// numbered from `min` in steps of `step`.
    fn slurm_shard(
        &self,
        id: u64,
        count: Option<u64>,
        min: u64,
        step: u64,
        one_task: bool,
    ) -> Result<(u64, u64), ShardError> {
        let slurm_count = format!("SLURM_ARRAY_TASK_COUNT={}", count.unwrap_or(0));
        match self.shards {
            // A one-task array's count is its own, not the plan's.
            None if one_task => Err(ShardError::OneTask(id)),
            // With --shards the task id is the shard index, so that a task
            // resubmitted alone (--array=K) is the shard it was in the whole
            // array (--array=0-N-1).
            Some(n) if one_task => Ok((id, n)),
            Some(_) => {
                let n = self.count(slurm_count, count)?;
                if min != 0 || step != 1 {
                    return Err(ShardError::SlurmLayout {
                        id,
                        min,
                        step,
                        count: n,
                    });
                }
                Ok((id, n))
            }
            None => {
                let count = self.count(slurm_count, count)?;
                let layout = ShardError::SlurmLayout {
                    id,
                    min,
                    step,
                    count,
                };
                let offset = id.checked_sub(min).ok_or(layout.clone())?;
                if offset % step != 0 || offset / step >= count {
                    return Err(layout);
                }
                Ok((offset / step, count))
            }
        }
    }
}

/// The datasets of a plan as a shard's meta.csv records them: enough for
/// the merge to check every shard's share and put the rows in plan order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanDataset {
    pub name: String,
    /// Puzzles the plan runs from it (after `--sample`), over all shards.
    pub runs: u64,
    /// Puzzles in the file.
    pub total: u64,
    /// FNV-1a 64 of the file's bytes, as 16 hex digits.
    pub fnv1a64: String,
}

/// FNV-1a, 64 bits: a short, stable tag for bytes (not a defence against
/// someone forging a match, which no shard needs).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// [`fnv1a64`] of a file's bytes, read in blocks: memory stays bounded
/// whatever the file's size (a dataset may be large).
pub(crate) fn file_fnv1a64(path: &Path) -> anyhow::Result<u64> {
    use std::io::Read as _;
    let mut file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut buf = vec![0u8; 64 * 1024];
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    loop {
        let n = file
            .read(&mut buf)
            .with_context(|| format!("cannot read {}", path.display()))?;
        if n == 0 {
            return Ok(h);
        }
        for &b in &buf[..n] {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Everything that must be equal for two runs to be parts of one run: what
/// is measured (datasets by content, strategies, budget, sample and seed,
/// timing method) and by which build (version, commit and a hash of the
/// sources, read when the binary was built, so one binary gives one plan
/// anywhere). Written to every `compare` report's meta.csv as `plan_*` keys,
/// and `plan`, a hash of them all; the merge compares the keys by name, so a
/// key added here later is checked without changing the merge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// `(key, value)`, keys starting `plan_`.
    pub parts: Vec<(String, String)>,
}

/// meta.csv key of the fingerprint's hash.
pub(crate) use crate::io::meta::PLAN;
/// Prefix of the fingerprint's parts in meta.csv.
const PLAN_PREFIX: &str = "plan_";
/// The part that lists the datasets (JSON, [`PlanDataset`]s).
pub(crate) const PLAN_DATASETS: &str = "plan_datasets";
/// The part that lists the strategies, in ladder order.
pub(crate) const PLAN_STRATEGIES: &str = "plan_strategies";
/// meta.csv keys a shard adds: which shard, from where, how many puzzles.
pub(crate) const SHARD: &str = "shard";
pub(crate) const SHARD_FROM: &str = "shard_from";
pub(crate) const SHARD_PUZZLES: &str = "shard_puzzles";
/// meta.csv keys of the machine a run measured on (with `cpu`, `load`,
/// `busy` that every report has).
pub(crate) const HOST: &str = "host";
pub(crate) const PACE: &str = "pace";

impl Fingerprint {
    /// The fingerprint a report's meta.csv holds (its `plan_*` keys).
    pub fn from_meta(meta: &Meta) -> Fingerprint {
        Fingerprint {
            parts: meta
                .entries
                .iter()
                .filter(|(k, _)| k.starts_with(PLAN_PREFIX))
                .cloned()
                .collect(),
        }
    }

    /// The hash of every part, as 16 hex digits.
    pub fn hash(&self) -> String {
        let mut text = String::new();
        for (k, v) in &self.parts {
            text.push_str(k);
            text.push('\u{1f}');
            text.push_str(v);
            text.push('\u{1e}');
        }
        format!("{:016x}", fnv1a64(text.as_bytes()))
    }

    /// Writes `plan` and the parts into `meta`.
    pub fn to_meta(&self, meta: &mut Meta) {
        meta.set(PLAN, self.hash());
        for (k, v) in &self.parts {
            meta.set(k, v.clone());
        }
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.parts
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The datasets part, read back.
    pub fn datasets(&self) -> anyhow::Result<Vec<PlanDataset>> {
        let text = self
            .get(PLAN_DATASETS)
            .ok_or_else(|| anyhow::anyhow!("no {PLAN_DATASETS}"))?;
        serde_json::from_str(text).with_context(|| format!("{PLAN_DATASETS} is not readable"))
    }

    /// The keys whose values differ between `self` and `other` (a key only
    /// one of them has counts as differing), in `self`'s order.
    pub fn differences(&self, other: &Fingerprint) -> Vec<String> {
        let mut keys: Vec<&str> = self.parts.iter().map(|(k, _)| k.as_str()).collect();
        for (k, _) in &other.parts {
            if !keys.contains(&k.as_str()) {
                keys.push(k);
            }
        }
        keys.into_iter()
            .filter(|k| self.get(k) != other.get(k))
            .map(str::to_string)
            .collect()
    }
}

/// This machine's name (`gethostname`), or "unknown".
pub fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at
    // most that many bytes.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return "unknown".to_string();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    let name = String::from_utf8_lossy(&buf[..end]).trim().to_string();
    if name.is_empty() {
        "unknown".to_string()
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    fn auto(vars: &[(&str, &str)], shards: Option<u64>) -> Result<Shard, ShardError> {
        ShardSpec::Auto.resolve(shards, &env(vars)).map(|a| a.shard)
    }

    #[test]
    fn shards_parse_and_refuse() {
        assert_eq!("2/4".parse::<Shard>(), Shard::new(2, 4));
        assert_eq!("auto".parse::<ShardSpec>(), Ok(ShardSpec::Auto));
        assert_eq!(
            "4/4".parse::<Shard>(),
            Err(ShardError::OutOfRange { index: 4, count: 4 })
        );
        assert_eq!("0/0".parse::<Shard>(), Err(ShardError::Zero));
        for bad in ["", "1", "1/", "/4", "-1/4", "1/4/5", "a/b", "1.0/4"] {
            assert_eq!(
                bad.parse::<Shard>(),
                Err(ShardError::Syntax(bad.to_string())),
                "{bad}"
            );
        }
        assert_eq!(Shard::new(3, 8).unwrap().to_string(), "3/8");
    }

    /// Round-robin: every position in exactly one shard, shares differ by at
    /// most one, and `share` counts what `owns` keeps.
    #[test]
    fn the_partition_is_exact_and_balanced() {
        for n in 1..=7u64 {
            for total in 0..=30u64 {
                let shards: Vec<Shard> = (0..n).map(|k| Shard::new(k, n).unwrap()).collect();
                for p in 0..total {
                    assert_eq!(shards.iter().filter(|s| s.owns(p)).count(), 1);
                }
                let shares: Vec<u64> = shards.iter().map(|s| s.share(total)).collect();
                assert_eq!(shares.iter().sum::<u64>(), total);
                assert!(shares.iter().max().unwrap() - shares.iter().min().unwrap() <= 1);
                for s in &shards {
                    assert_eq!(
                        s.share(total),
                        (0..total).filter(|&p| s.owns(p)).count() as u64
                    );
                }
            }
        }
    }

    #[test]
    fn auto_reads_slurm_arrays() {
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
        ];
        assert_eq!(auto(&vars, None), Shard::new(2, 4));
        assert_eq!(auto(&vars, Some(4)), Shard::new(2, 4));
        assert!(matches!(
            auto(&vars, Some(5)),
            Err(ShardError::CountMismatch {
                found: 4,
                given: 5,
                ..
            })
        ));
        // --array=1-4: counted from the minimum.
        let one_based = [
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ];
        assert_eq!(auto(&one_based, None), Shard::new(0, 4));
        // --array=0-6:2 (tasks 0, 2, 4, 6).
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ];
        assert_eq!(auto(&stepped, None), Shard::new(2, 4));
        // --array=0,5,9: not a range the count describes.
        let listed = [
            ("SLURM_ARRAY_TASK_ID", "9"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
        ];
        assert!(matches!(
            auto(&listed, None),
            Err(ShardError::SlurmLayout { .. })
        ));
        // An old Slurm without the count: --shards gives it.
        let bare = [("SLURM_ARRAY_TASK_ID", "3")];
        assert_eq!(
            auto(&bare, None),
            Err(ShardError::NoCount("SLURM_ARRAY_TASK_ID"))
        );
        assert_eq!(auto(&bare, Some(4)), Shard::new(3, 4));
        let from = ShardSpec::Auto.resolve(None, &env(&vars)).unwrap().from;
        assert_eq!(from, "SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_COUNT=4");
    }

    /// Issue 59, case 1: a task resubmitted alone (`sbatch --array=1`) is a
    /// one-task array; it is shard 1 of the plan's N, never shard 0 of 1.
    #[test]
    fn a_resubmitted_slurm_task_is_its_own_shard() {
        let resubmitted = [
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "1"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "1"),
        ];
        assert_eq!(auto(&resubmitted, None), Err(ShardError::OneTask(1)));
        assert!(
            ShardError::OneTask(1)
                .to_string()
                .contains("add --shards N")
        );
        assert_eq!(auto(&resubmitted, Some(4)), Shard::new(1, 4));
        // An old Slurm without the count: MIN = MAX says it.
        let no_count = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "3"),
            ("SLURM_ARRAY_TASK_MAX", "3"),
        ];
        assert_eq!(auto(&no_count, None), Err(ShardError::OneTask(3)));
        assert_eq!(auto(&no_count, Some(4)), Shard::new(3, 4));
        assert_eq!(
            auto(&resubmitted, Some(1)),
            Err(ShardError::OutOfRange { index: 1, count: 1 })
        );
        // With --shards, the whole array is 0-based: a 1-based one would
        // number its tasks otherwise than their resubmissions.
        let one_based = [
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ];
        assert!(matches!(
            auto(&one_based, Some(4)),
            Err(ShardError::SlurmLayout { .. })
        ));
    }

    #[test]
    fn auto_reads_kubernetes_and_gnu_parallel() {
        let k8s = [("JOB_COMPLETION_INDEX", "3")];
        assert_eq!(auto(&k8s, Some(4)), Shard::new(3, 4));
        assert_eq!(
            auto(&k8s, None),
            Err(ShardError::NoCount("JOB_COMPLETION_INDEX"))
        );
        assert_eq!(
            auto(&k8s, Some(3)),
            Err(ShardError::OutOfRange { index: 3, count: 3 })
        );
        // PARALLEL_SEQ is 1-based; the slot is not read.
        let parallel = [("PARALLEL_SEQ", "1"), ("PARALLEL_JOBSLOT", "2")];
        assert_eq!(auto(&parallel, Some(4)), Shard::new(0, 4));
        assert_eq!(
            auto(&[("PARALLEL_SEQ", "5")], Some(4)),
            Err(ShardError::OutOfRange { index: 4, count: 4 })
        );
        assert!(matches!(
            auto(&[("PARALLEL_SEQ", "x")], Some(4)),
            Err(ShardError::NotANumber { .. })
        ));
    }

    #[test]
    fn auto_refuses_no_scheduler_and_two() {
        assert_eq!(auto(&[], Some(4)), Err(ShardError::NoScheduler));
        assert_eq!(
            auto(&[("PARALLEL_JOBSLOT", "1")], Some(4)),
            Err(ShardError::NoScheduler)
        );
        let both = [("SLURM_ARRAY_TASK_ID", "1"), ("PARALLEL_SEQ", "2")];
        assert_eq!(
            auto(&both, Some(4)),
            Err(ShardError::Ambiguous(
                "SLURM_ARRAY_TASK_ID=1, PARALLEL_SEQ=2".to_string()
            ))
        );
        // A fixed shard with a different --shards.
        let fixed = ShardSpec::Fixed(Shard::new(1, 4).unwrap());
        assert!(fixed.resolve(Some(3), &env(&[])).is_err());
        assert_eq!(
            fixed.resolve(Some(4), &env(&[])).unwrap().shard,
            Shard::new(1, 4).unwrap()
        );
        let msg = ShardError::NoScheduler.to_string();
        assert!(msg.contains("--shard K/N"), "{msg}");
    }

    #[test]
    fn a_file_hashes_in_blocks_as_in_one_piece() {
        let dir = std::env::temp_dir().join(format!("lab-fnv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x");
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(file_fnv1a64(&path).unwrap(), fnv1a64(&bytes));
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn fingerprint_differences_name_keys() {
        let a = Fingerprint {
            parts: vec![
                ("plan_budget".into(), "5".into()),
                ("plan_sample".into(), "all".into()),
            ],
        };
        let mut b = a.clone();
        assert_eq!(a.hash(), b.hash());
        b.parts[0].1 = "6".into();
        b.parts.push(("plan_limit".into(), "1".into()));
        assert_ne!(a.hash(), b.hash());
        assert_eq!(a.differences(&b), vec!["plan_budget", "plan_limit"]);
        let mut meta = Meta::default();
        b.to_meta(&mut meta);
        meta.set("cpu", "x");
        assert_eq!(Fingerprint::from_meta(&meta), b);
        assert_eq!(meta.get(PLAN), Some(b.hash().as_str()));
    }
}
