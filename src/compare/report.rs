//! The written report (`README.md`) and the run's metadata (`meta.csv`).
//! Every figure in the text is computed from this run's rows.

use std::fmt::Write as _;

use super::charts::ChartData;
use super::draw::{CHARTS, fmt_count, fmt_ratio, fmt_time};
use super::summary::{Aggregate, PairAcc, SummaryRow};
use crate::Strategy;

/// What was run, where and when: one `key,value` line each in `meta.csv`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Meta {
    pub entries: Vec<(String, String)>,
}

/// Keys in the order the report lists them, with their labels.
pub const META_KEYS: [(&str, &str); 14] = [
    ("command", "command"),
    ("commit", "git commit"),
    ("version", "sudoku-lab version"),
    ("profile", "build profile"),
    ("rustc", "rustc"),
    ("cpu", "CPU"),
    ("threads", "hardware threads / jobs used"),
    ("load", "load average at start (1, 5, 15 min)"),
    ("date", "date (UTC)"),
    ("datasets", "datasets"),
    ("strategies", "strategies"),
    ("budget", "node budget per puzzle × strategy"),
    ("sample", "sample per dataset (seed)"),
    ("wall_time", "wall time of the run"),
];

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
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(["key", "value"])?;
        for (k, v) in &self.entries {
            w.write_record([k, v])?;
        }
        w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))
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

/// The 1, 5 and 15 minute load averages from `/proc/loadavg`, or "unknown".
/// Times are wall-clock: other work on the machine inflates them.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|t| t.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

/// `git rev-parse HEAD` of the source tree, marked `(modified)` when tracked
/// sources differ from it; "unknown" without git.
pub fn git_commit() -> String {
    let dir = env!("CARGO_MANIFEST_DIR");
    let run = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match run(&["rev-parse", "HEAD"]) {
        Some(head) => {
            let dirty = run(&[
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                "src",
                "Cargo.toml",
                "Cargo.lock",
                "datasets",
            ])
            .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{head} (modified)")
            } else {
                head
            }
        }
        None => "unknown".to_string(),
    }
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

/// `text` (a dataset name, a command line) as an inline code span that
/// holds whatever it contains: a fence longer than any run of backticks in
/// it, padding where it starts or ends with a backtick, and line breaks and
/// other control characters as spaces. For table cells use [`cell_code`].
pub fn code(text: &str) -> String {
    let text: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.is_empty()
        || text.starts_with('`')
        || text.ends_with('`')
        || (text.starts_with(' ') && text.ends_with(' '))
    {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// [`code`] for a table cell: GitHub splits cells at `|` before it reads
/// code spans, so a `|` inside must be escaped even there.
pub fn cell_code(text: &str) -> String {
    code(text).replace('|', "\\|")
}

/// `text` as plain Markdown text, in prose or in a table cell: every
/// character Markdown or HTML would read as markup is backslash-escaped, and
/// line breaks become spaces.
pub fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.push(' ');
            continue;
        }
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '|' | '~' | '!' | '#'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn opt_time(v: Option<f64>) -> String {
    v.map(fmt_time).unwrap_or_else(|| "–".into())
}
fn opt_count(v: Option<f64>) -> String {
    v.map(fmt_count).unwrap_or_else(|| "–".into())
}

fn solved_of(r: &SummaryRow) -> String {
    format!("{}/{}", r.solved, r.puzzles - r.unsupported)
}

/// Describes what `b` buys over `a` in one sentence fragment.
fn describe_pair(a: Strategy, b: Strategy, acc: &PairAcc) -> String {
    let n = acc.node_ratio();
    let c = acc.cost_ratio();
    let s = acc.speedup();
    let nodes = if (0.995..=1.005).contains(&n) {
        "visits the same number of nodes".to_string()
    } else if n > 1.0 {
        format!("visits {} fewer nodes", fmt_ratio(n))
    } else {
        format!("visits {} more nodes", fmt_ratio(1.0 / n))
    };
    let cost = if (0.95..=1.05).contains(&c) {
        "at about the same cost per node".to_string()
    } else if c > 1.0 {
        format!("each {} cheaper", fmt_ratio(c))
    } else {
        format!("each {} dearer", fmt_ratio(1.0 / c))
    };
    let total = if s >= 1.0 {
        format!("{} faster", fmt_ratio(s))
    } else {
        format!("{} slower", fmt_ratio(1.0 / s))
    };
    format!(
        "`{}` over `{}`: {nodes}, {cost} → **{total}** ({} puzzles both solved)",
        b.name(),
        a.name(),
        acc.pairs
    )
}

/// The plain-language reading: which rung buys what, in this run's numbers.
fn reading(agg: &Aggregate, summary: &[SummaryRow], data: &ChartData) -> String {
    let mut out = String::new();
    let strategies = &data.strategies;
    // Step by step up the ladder.
    let steps: Vec<String> = strategies
        .windows(2)
        .filter_map(|w| {
            let acc = agg.pairs.get(&(w[0], w[1]))?;
            (acc.pairs > 0).then(|| describe_pair(w[0], w[1], acc))
        })
        .collect();
    if !steps.is_empty() {
        out.push_str("Step by step up the ladder (geometric means per puzzle; time = nodes × cost per node):\n\n");
        for s in steps {
            let _ = writeln!(out, "- {s}");
        }
        out.push('\n');
    }
    if let (Some(base), Some(top)) = (data.baseline, data.ladder.last()) {
        let _ = writeln!(
            out,
            "From the bottom of the ladder to the top: {}.\n",
            describe_pair(base, top.strategy, &top.acc)
        );
    }
    // Cost per node on the most common board size (sizes differ by orders of magnitude).
    if let Some(side) = data.clue_side {
        let mut per_node: Vec<String> = Vec::new();
        for &s in strategies {
            let (mut nodes, mut nanos) = (0u128, 0u128);
            for (&(_, gs), g) in &agg.groups {
                if gs == s {
                    for x in g.samples.iter().filter(|x| u32::from(x.side) == side) {
                        nodes += u128::from(x.nodes);
                        nanos += u128::from(x.nanos);
                    }
                }
            }
            if nodes > 0 {
                per_node.push(format!(
                    "`{}` {}",
                    s.name(),
                    fmt_time(nanos as f64 / nodes as f64)
                ));
            }
        }
        if per_node.len() > 1 {
            let _ = writeln!(
                out,
                "Cost of one node on {side}×{side} boards (total time ÷ total nodes): {}.\n",
                per_node.join(", ")
            );
        }
    }
    // Budget.
    let mut over_list: Vec<String> = Vec::new();
    for &s in strategies {
        let (mut over, mut total) = (0u64, 0u64);
        for ((_, gs), g) in &agg.groups {
            if *gs == s {
                over += g.budget_exceeded;
                total += g.puzzles - g.unsupported;
            }
        }
        if over > 0 {
            over_list.push(format!("`{}` {over} of {total}", s.name()));
        }
    }
    if !over_list.is_empty() {
        let _ = write!(
            out,
            "Out of the node budget: {} puzzles. Those runs stay in the tables with the nodes and time they used (lower bounds).",
            over_list.join(", ")
        );
        let excluded = data
            .ladder
            .iter()
            .map(|r| r.acc.a_budget_only)
            .max()
            .unwrap_or(0);
        if excluded > 0 {
            let _ = write!(
                out,
                " The ladder ratios leave out the puzzles the baseline did not finish (up to {excluded} per rung), so they understate the gain on the hardest puzzles."
            );
        }
        out.push_str("\n\n");
    }
    // Best and worst per dataset.
    if !agg.datasets.is_empty() {
        out.push_str("By dataset (best = most puzzles solved, then lowest median time):\n\n");
    }
    for name in &agg.datasets {
        let rows: Vec<&SummaryRow> = summary
            .iter()
            .filter(|r| r.dataset == *name && r.time_median_ns.is_some())
            .collect();
        // Solving more puzzles beats a fast median over budget-cut runs.
        let key = |r: &&&SummaryRow| {
            (
                std::cmp::Reverse(r.solved),
                r.time_median_ns.unwrap_or(f64::MAX),
            )
        };
        let cmp = |a: &&&SummaryRow, b: &&&SummaryRow| {
            key(a)
                .partial_cmp(&key(b))
                .unwrap_or(std::cmp::Ordering::Equal)
        };
        let fastest = rows.iter().min_by(cmp);
        let slowest = rows.iter().max_by(cmp);
        if let (Some(f), Some(s)) = (fastest, slowest)
            && rows.len() > 1
        {
            let _ = writeln!(
                out,
                "- {}: best `{}` ({} solved, median {} per puzzle, {} nodes); worst `{}` ({} solved, median {}, {} nodes).",
                code(name),
                f.strategy,
                solved_of(f),
                opt_time(f.time_median_ns),
                opt_count(f.nodes_median),
                s.strategy,
                solved_of(s),
                opt_time(s.time_median_ns),
                opt_count(s.nodes_median),
            );
        }
    }
    out.push('\n');
    // Growth with size, for the top rung.
    if let Some(&top) = strategies.last() {
        let pts: Vec<_> = data.by_size.iter().filter(|p| p.strategy == top).collect();
        if pts.len() > 1 {
            let list: Vec<String> = pts
                .iter()
                .map(|p| {
                    format!(
                        "{} on {}×{}{}",
                        fmt_time(p.median_nanos),
                        p.x,
                        p.x,
                        if p.censored > 0 {
                            " (some unsolved)"
                        } else {
                            ""
                        }
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "Growth: the median time of `{}` goes {}.\n",
                top.name(),
                list.join(" → ")
            );
        }
    }
    out
}

/// The report's Markdown text.
pub fn markdown(meta: &Meta, agg: &Aggregate, summary: &[SummaryRow], data: &ChartData) -> String {
    let mut md = String::new();
    md.push_str("# sudoku-lab: strategy comparison\n\n");
    md.push_str(
        "What each rung of the backtracking ladder buys, measured on every puzzle of the datasets \
         below. Generated by `sudoku-lab compare`; `sudoku-lab report DIR` redraws the charts and \
         this page from `results.csv`. Column definitions: see the project README, section \
         *Comparison CSV files*.\n\n",
    );
    md.push_str("## What was run\n\n| | |\n|---|---|\n");
    for (key, label) in META_KEYS {
        let v = meta.get(key).unwrap_or("unknown");
        let v = if key == "command" {
            cell_code(v)
        } else {
            plain(v)
        };
        let _ = writeln!(md, "| {label} | {v} |");
    }
    md.push_str(
        "\nEach puzzle × strategy is solved twice: once with counters on (the counter columns, \
         solution verified) and once with counters compiled out, which gives the time; both visit \
         the same nodes (checked). For precise timings of single strategies use the criterion benches. Times are wall-clock: a load average above the number of \
         jobs means other work shared the cores and inflated them. Node counts are exact and \
         deterministic.\n\n",
    );

    md.push_str("## Reading\n\n");
    md.push_str(&reading(agg, summary, data));

    md.push_str("## The ladder\n\n");
    if let Some(base) = data.baseline {
        let _ = writeln!(
            md,
            "Each rung against `{}`, geometric means over the puzzles both solved. Speed-up = \
             fewer nodes × cheaper nodes (exactly, per puzzle and so for the means).\n",
            base.name()
        );
        md.push_str("| rung | puzzles compared | fewer nodes | cheaper nodes | speed-up | baseline out of budget (left out) |\n|---|---:|---:|---:|---:|---:|\n");
        for r in &data.ladder {
            let _ = writeln!(
                md,
                "| `{}` | {} | {} | {} | {} | {} |",
                r.strategy.name(),
                r.acc.pairs,
                fmt_ratio(r.acc.node_ratio()),
                fmt_ratio(r.acc.cost_ratio()),
                fmt_ratio(r.acc.speedup()),
                r.acc.a_budget_only
            );
        }
        md.push('\n');
    }

    md.push_str("## Charts\n\n");
    for (i, (stem, title)) in CHARTS.iter().enumerate() {
        let _ = writeln!(
            md,
            "### {}. {title}\n\n![{title}]({stem}.png)\n\n[SVG version]({stem}.svg)\n",
            i + 1
        );
    }

    md.push_str("## Summary by dataset\n\n");
    md.push_str(
        "Node and time statistics cover every measured run, including those that ran out of \
         budget (their figures are lower bounds). p90 = 90th percentile. puzzles/s = measured \
         runs ÷ their total time; ns/node = total time ÷ total nodes.\n\n",
    );
    for name in &agg.datasets {
        let _ = writeln!(md, "### {}\n", code(name));
        md.push_str("| strategy | puzzles | solved | no solution | out of budget | unsupported | median nodes | p90 nodes | max nodes | median time | p90 time | max time | puzzles/s | ns/node |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for r in summary.iter().filter(|r| r.dataset == *name) {
            let _ = writeln!(
                md,
                "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                r.strategy,
                r.puzzles,
                r.solved,
                r.no_solution,
                r.budget_exceeded,
                r.unsupported,
                opt_count(r.nodes_median),
                opt_count(r.nodes_p90),
                opt_count(r.nodes_max),
                opt_time(r.time_median_ns),
                opt_time(r.time_p90_ns),
                opt_time(r.time_max_ns),
                r.puzzles_per_sec
                    .map(|v| format!("{v:.0}"))
                    .unwrap_or_else(|| "–".into()),
                r.ns_per_node
                    .map(|v| format!("{v:.1}"))
                    .unwrap_or_else(|| "–".into()),
            );
        }
        md.push('\n');
    }
    let unknown: Vec<&str> = summary
        .iter()
        .map(|r| r.strategy.as_str())
        .filter(|s| Strategy::from_name(s).is_none())
        .collect();
    debug_assert!(unknown.is_empty());

    md.push_str(
        "## Files\n\n- `results.csv`: one row per puzzle × strategy.\n- `summary.csv`: one row per \
         dataset × strategy (the tables above).\n- `meta.csv`: the facts in *What was run*.\n- \
         `*.svg`, `*.png`: the charts.\n",
    );
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_escapes() {
        assert_eq!(code("plain"), "`plain`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x``"), "``` `x`` ```");
        assert_eq!(code("two\nlines"), "`two lines`");
        assert_eq!(cell_code("a|b"), "`a\\|b`");
        assert_eq!(
            plain("a|b <b>x</b> 9x9_y"),
            "a\\|b \\<b\\>x\\</b\\> 9x9\\_y"
        );
        assert_eq!(
            plain("curated/anti-naive (1 of 1)"),
            "curated/anti-naive (1 of 1)"
        );
    }

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
