//! A report folder's `meta.csv`: what was run, where and when, as
//! `key,value` lines, and the facts of this machine and checkout that go in
//! it. Plain data at the bottom of `compare`: the report, the merge and the
//! shards (`crate::run::shard`) all read and write it; a merged report's
//! shards ([`ShardInfo`]) are in it too.

use serde::{Deserialize, Serialize};

/// The `meta.csv` key present only when the times are wall-clock times
/// because the machine's per-thread CPU clock is too coarse
/// ([`crate::export::present::clock_note`]).
pub const CPU_CLOCK: &str = "cpu_clock";

/// What was run, where and when: one `key,value` line each in `meta.csv`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Meta {
    pub entries: Vec<(String, String)>,
}

impl Meta {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    pub fn set(&mut self, key: &str, value: impl Into<String>) {
        let value = value.into();
        match self.entries.iter_mut().find(|(k, _)| k == key) {
            Some(e) => e.1 = value,
            None => self.entries.push((key.to_string(), value)),
        }
    }

    /// `meta.csv` bytes.
    pub fn to_csv(&self) -> anyhow::Result<Vec<u8>> {
        crate::io::csv_file::with_header(["key", "value"], &self.entries)
    }

    pub fn from_csv(bytes: &[u8]) -> anyhow::Result<Meta> {
        let mut r = csv::Reader::from_reader(bytes);
        let mut meta = Meta::default();
        for rec in r.records() {
            let rec = rec?;
            meta.set(rec.get(0).unwrap_or(""), rec.get(1).unwrap_or(""));
        }
        Ok(meta)
    }
}

/// The first `model name` line of `/proc/cpuinfo`, or "unknown".
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// The git commit this binary was built from, marked `(modified)` when
/// tracked sources differed from it: read by build.rs when the binary was
/// built, not from whatever checkout is there when it runs.
pub fn git_commit() -> String {
    env!("SUDOKU_LAB_COMMIT").to_string()
}

/// SHA-256 of the sources this binary was built from (build.rs): two
/// builds of one hash run the same code, whatever their commits say.
pub fn sources_hash() -> String {
    env!("SUDOKU_LAB_SOURCES").to_string()
}

/// Now, as `YYYY-MM-DD HH:MM:SS UTC`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    utc_string(secs)
}

/// Seconds since 1970 as a UTC date and time (proleptic Gregorian calendar).
pub fn utc_string(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Days to civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// meta.csv key of the hash of a report's plan fingerprint
/// (`crate::run::shard::Fingerprint`): the shards of one plan share it.
pub const PLAN: &str = "plan";

/// meta.csv key of a merged report: its shards (JSON list of [`ShardInfo`]).
pub const SHARDS: &str = "shards";

/// One shard of a merged report, as its meta.csv described it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// `K/N`.
    pub shard: String,
    /// The folder it was merged from, as given.
    pub folder: String,
    /// Where its index came from (`--shard 2/4`, `SLURM_ARRAY_TASK_ID=2, ...`).
    pub from: String,
    pub puzzles: String,
    pub host: String,
    pub cpu: String,
    pub threads: String,
    pub load: String,
    pub pace: String,
    /// "no", or why the machine was busy.
    pub busy: String,
    pub date: String,
    pub wall_time: String,
}

impl ShardInfo {
    pub fn is_busy(&self) -> bool {
        !self.busy.is_empty() && self.busy != "no"
    }
}

/// The shards as a merged report lists them, read back from `meta`; `None`
/// for a report that is not a merge.
pub fn shards_of(meta: &Meta) -> Option<Vec<ShardInfo>> {
    serde_json::from_str(meta.get(SHARDS)?).ok()
}

/// The CPU models of the shards, each with its shards, in shard order.
pub fn machines(infos: &[ShardInfo]) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for i in infos {
        match out.iter_mut().find(|(cpu, _)| *cpu == i.cpu) {
            Some((_, v)) => v.push(i.shard.clone()),
            None => out.push((i.cpu.clone(), vec![i.shard.clone()])),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates() {
        assert_eq!(utc_string(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_string(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_string(1_798_675_261), "2026-12-31 00:01:01 UTC");
    }

    #[test]
    fn meta_round_trips() {
        let mut m = Meta::default();
        m.set("command", "sudoku-lab compare --dataset \"a b\"");
        m.set("cpu", "x, y");
        assert_eq!(Meta::from_csv(&m.to_csv().unwrap()).unwrap(), m);
    }
}
