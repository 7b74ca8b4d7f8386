//! A merged report's words on its shards (`report merge`,
//! `crate::run::compare::merge`): the report's "Shards and machines"
//! section and what the terminal hears after a merge. The shards are read
//! from the merged `meta.csv` ([`ShardInfo`]); whether their times compare
//! across shards is said here.

use std::fmt::Write as _;

use crate::export::present::{Align, Table, plain};
use crate::io::meta::{Meta, PLAN, ShardInfo, machines, shards_of};

/// The merged report's section on its shards and their machines; empty for
/// a report that is not a merge.
pub fn section(meta: &Meta) -> String {
    let Some(infos) = shards_of(meta) else {
        return String::new();
    };
    let mut md = String::from("## Shards and machines\n\n");
    let _ = writeln!(
        md,
        "This report merges {} shards of one plan (fingerprint `{}`, made with `sudoku-lab \
         compare --shard K/N` and merged with `sudoku-lab report merge`). The puzzles were dealt \
         round-robin over the shards, every strategy of a puzzle in the same shard. Outcomes and \
         counters are exact: they are those a single run of the plan gives, whatever the machine.\n",
        infos.len(),
        meta.get(PLAN).unwrap_or("unknown")
    );
    let cpus = machines(&infos);
    let busy: Vec<&ShardInfo> = infos.iter().filter(|i| i.is_busy()).collect();
    if cpus.len() == 1 && busy.is_empty() {
        let _ = writeln!(
            md,
            "Every shard ran on one CPU model ({}) and none was busy: times compare across shards \
             as far as machines of one model are alike.\n",
            plain(&cpus[0].0)
        );
    } else {
        let mut why = Vec::new();
        if cpus.len() > 1 {
            why.push(format!("the shards ran on {} CPU models", cpus.len()));
        }
        if !busy.is_empty() {
            let names: Vec<&str> = busy.iter().map(|i| i.shard.as_str()).collect();
            why.push(format!(
                "shard{} {} measured on a busy machine",
                if busy.len() == 1 { "" } else { "s" },
                names.join(", ")
            ));
        }
        let _ = writeln!(
            md,
            "**Times across shards are not comparable:** {}. Each ratio between two rungs in \
             this report is a geometric mean of per-puzzle ratios, and all the rungs of a puzzle \
             were timed in one shard, on one machine: those ratios are within-machine ratios, \
             weighted by how many puzzles each machine measured. Absolute times (the medians, \
             the time per node, the times in the charts) mix machines and do not compare across \
             them.\n",
            why.join("; ")
        );
    }
    md.push_str(&table(&infos));
    md.push('\n');
    md
}

/// The shards, one line each with its machine and conditions.
fn table(infos: &[ShardInfo]) -> String {
    Table::new(
        [
            "shard",
            "folder",
            "host",
            "CPU",
            "threads / jobs",
            "load",
            "pace",
            "busy",
            "wall time",
        ],
        5,
    )
    .align(7, Align::Left)
    .rows(infos.iter().map(|i| {
        [
            &i.shard,
            &i.folder,
            &i.host,
            &i.cpu,
            &i.threads,
            &i.load,
            &i.pace,
            &i.busy,
            &i.wall_time,
        ]
        .iter()
        .map(|c| plain(c))
        .collect()
    }))
    .markdown_compact()
}

/// What the terminal hears of the shards after a merge.
pub fn console_lines(infos: &[ShardInfo]) -> String {
    let cpus = machines(infos);
    let busy: Vec<&str> = infos
        .iter()
        .filter(|i| i.is_busy())
        .map(|i| i.shard.as_str())
        .collect();
    let mut out = format!("merged {} shards", infos.len());
    if cpus.len() > 1 {
        let _ = write!(
            out,
            "; they ran on {} CPU models: times across shards are not comparable (ratios between rungs are within-machine)",
            cpus.len()
        );
    }
    if !busy.is_empty() {
        let _ = write!(out, "; busy while measuring: {}", busy.join(", "));
    }
    out.push('\n');
    out
}
