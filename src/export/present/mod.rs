//! Presenting numbers and tables: one place for how the lab writes a count,
//! a time or a table, used by every command, report and page. (Computing
//! stays elsewhere: these functions only turn values into text.)

mod labels;
mod numbers;
pub(crate) mod speed;
pub(crate) mod table;
pub(crate) mod trace;

pub use table::{Align, Table};

pub use labels::{
    budget_phrase, full_set_header, ladder_absent, ladder_header, left_out, left_out_clause, names,
};
pub use numbers::{
    fmt_count, fmt_ratio, fmt_ratio_ci, fmt_time, fmt_time_ci, fmt_value_ci, sig, size_name, trim,
};

use crate::analysis::rate::Rating;
use crate::analysis::tour::Labelled;
use crate::base::counters::Counts;
use crate::base::strategy::{Outcome, Strategy};

/// What the times are when they are not the thread's CPU time: on a
/// machine whose CPU clock is too coarse
/// ([`crate::measure::Conditions::cpu_clock_step_ns`]), the wall clock's,
/// which also counts time the scheduler gave away.
pub fn clock_note(conditions: &crate::measure::Conditions) -> Option<String> {
    conditions.cpu_clock_step_ns.map(|step| {
        format!(
            "this machine's per-thread CPU clock moves in steps of {}, too coarse to time one run: the times are wall-clock times",
            fmt_time(step)
        )
    })
}

/// A Markdown table (aligned in the raw text too); the first `left`
/// columns are left-aligned, the rest right-aligned. Shorthand for
/// [`Table`]'s.
pub fn markdown(headers: &[&str], left: usize, rows: Vec<Vec<String>>) -> String {
    Table::new(headers.iter().copied(), left)
        .rows(rows)
        .markdown()
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

/// A share as a percentage: `percent(0.443, 1)` → `44.3%`.
pub fn percent(share: f64, decimals: usize) -> String {
    format!("{:.decimals$}%", share * 100.0)
}

/// `x` rounded, with thousands separators.
fn rounded(x: f64) -> String {
    thousands(x.round() as u64)
}

/// `69175317` → `69,175,317`.
pub fn thousands(x: u64) -> String {
    let s = x.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `ladder`'s table: one row per puzzle × strategy, every counter.
pub(crate) fn ladder_puzzles(rows: &[&Labelled]) -> String {
    // Every counter, in the order of the one counter table (`Counts::NAMES`).
    let counters = Counts::NAMES.map(|n| n.replace('_', " "));
    let mut headers = vec!["puzzle", "strategy", "result"];
    headers.extend(counters.iter().map(String::as_str));
    headers.extend(["time", "per node"]);
    let body = rows
        .iter()
        .map(|l| {
            let m = &l.m;
            let ran = m.outcome != Outcome::Unsupported;
            let mut row = vec![
                l.puzzle.clone(),
                m.strategy.name().to_string(),
                m.outcome.short().to_string(),
            ];
            row.extend(
                m.counts
                    .values()
                    .map(|x| if ran { thousands(x) } else { "-".to_string() }),
            );
            // The median over samples, with its 95% interval over them.
            row.push(m.timing.map_or("-".into(), |t| {
                fmt_time_ci(t.ns(), crate::measure::stats::median_interval(&m.samples))
            }));
            row.push(l.ns_per_node().map_or("-".into(), fmt_time));
            row
        })
        .collect();
    markdown(&headers, 3, body)
}

/// `ladder --dist`'s tables: percentiles per set × strategy, then puzzles
/// per decade of nodes.
pub(crate) fn ladder_distributions(
    sets: &[(String, Vec<Labelled>)],
    strategies: &[Strategy],
) -> String {
    let dists = crate::analysis::tour::distributions(sets, strategies);
    let headers = [
        "set",
        "strategy",
        "puzzles",
        "solved",
        "over budget",
        "no guess",
        "nodes p50",
        "p90",
        "p99",
        "max",
        "mean",
        "top 1% share",
        "total time",
    ];
    let body = dists
        .iter()
        .map(|d| {
            vec![
                d.set.clone(),
                d.strategy.name().to_string(),
                thousands(d.puzzles as u64),
                thousands(d.solved as u64),
                thousands(d.budget_exceeded as u64),
                thousands(d.no_guess as u64),
                rounded(d.nodes.median),
                rounded(d.nodes.p90),
                rounded(d.nodes.p99),
                thousands(d.nodes.max as u64),
                rounded(d.nodes.mean),
                percent(d.top1_share, 1),
                fmt_time(d.total_nanos),
            ]
        })
        .collect();
    let mut out = markdown(&headers, 2, body);
    let width = dists.iter().map(|d| d.decades.len()).max().unwrap_or(0);
    let mut headers: Vec<String> = vec!["set".into(), "strategy".into()];
    headers.extend((0..width).map(decade_label));
    let body = dists
        .iter()
        .map(|d| {
            let mut row = vec![d.set.clone(), d.strategy.name().to_string()];
            row.extend(
                (0..width).map(|k| thousands(d.decades.get(k).copied().unwrap_or(0) as u64)),
            );
            row
        })
        .collect();
    out.push_str("\npuzzles by nodes needed (columns: at least 1, 10, 100, ... nodes):\n\n");
    let refs: Vec<&str> = headers.iter().map(String::as_str).collect();
    out.push_str(&markdown(&refs, 2, body));
    out
}

fn decade_label(k: usize) -> String {
    const NAMES: [&str; 13] = [
        "1+", "10+", "100+", "1k+", "10k+", "100k+", "1M+", "10M+", "100M+", "1G+", "10G+",
        "100G+", "1T+",
    ];
    NAMES
        .get(k)
        .map_or_else(|| format!("1e{k}+"), |s| s.to_string())
}

/// `rate`'s aligned table rows; the header only with the first chunk.
pub(crate) fn ratings(rows: &[Rating], header: bool) -> String {
    let mut s = String::new();
    if header {
        s += &format!(
            "{:>6} {:>6} {:>5} {:>6} {:>12} {:>15} {:>15} {:>15}  {:<7}  {}\n",
            "index",
            "line",
            "size",
            "clues",
            "mrv_nodes",
            "mrv_outcome",
            "used_tables_nodes",
            "used_tables_outcome",
            "tier",
            "name"
        );
    }
    for r in rows {
        s += &format!(
            "{:>6} {:>6} {:>5} {:>6} {:>12} {:>15} {:>15} {:>15}  {:<7}  {}\n",
            r.index,
            r.line,
            r.size,
            r.clues,
            r.mrv_nodes,
            r.mrv_outcome.name(),
            r.used_tables_nodes,
            r.used_tables_outcome.name(),
            r.tier.name(),
            r.name
        );
    }
    s
}

/// A cut-off run's estimated size, as every command prints it:
/// `nodes ≈ 1,234,567 [1,000,000, 1,500,000]`.
pub(crate) fn nodes_estimate(i: &crate::analysis::estimate::Interval) -> String {
    let (e, low, high) = (rounded(i.estimate), rounded(i.low), rounded(i.high));
    format!("nodes ≈ {e} [{low}, {high}]")
}

/// A time estimated from an estimated node count and the measured time per
/// node of the cut-off run: `time ≈ 1.2 s (estimated: nodes × 24.1 ns per node)`.
pub(crate) fn time_estimate(nodes: f64, ns_per_node: f64) -> String {
    format!(
        "time ≈ {} (estimated: nodes × {} per node)",
        fmt_time(nodes * ns_per_node),
        fmt_time(ns_per_node)
    )
}

/// The `estimate` command's table: one row per puzzle × strategy; with the
/// truth (`--exact`), the estimate's error and whether the interval holds it.
pub(crate) fn estimate_rows(rows: &[crate::analysis::estimate::check::Row], exact: bool) -> String {
    let mut headers = vec![
        "puzzle",
        "strategy",
        "nodes",
        "estimate",
        "low",
        "high",
        "probes",
        "probe nodes",
    ];
    if exact {
        headers.extend(["truth", "est ÷ truth", "covered"]);
    }
    let n = rounded;
    let body = rows
        .iter()
        .map(|r| {
            let mut row = vec![
                r.puzzle.clone(),
                r.strategy.name().to_string(),
                if r.cut_off {
                    format!(">={}", thousands(r.nodes))
                } else {
                    thousands(r.nodes)
                },
            ];
            match &r.estimate {
                Some(i) => row.extend([n(i.estimate), n(i.low), n(i.high)]),
                None => row.extend(["-".to_string(), "-".to_string(), "-".to_string()]),
            }
            row.extend([thousands(r.runs), thousands(r.effort)]);
            if exact {
                row.push(r.truth.map_or("-".into(), thousands));
                row.push(r.ratio().map_or("-".into(), |x| format!("{x:.3}")));
                row.push(match r.covered() {
                    Some(true) => "yes".into(),
                    Some(false) => "no".into(),
                    None => "-".into(),
                });
            }
            row
        })
        .collect();
    let mut out = markdown(&headers, 2, body);
    for r in rows {
        if let Some(why) = &r.unestimated {
            out.push_str(&format!(
                "\n{} / {}: no estimate: {why}\n",
                r.puzzle, r.strategy
            ));
        }
    }
    out
}

/// The validation summary of `estimate --exact`: how often the 95% interval
/// held the truth, and the distribution of estimate ÷ truth.
pub(crate) fn estimate_validation(v: &crate::analysis::estimate::check::Validation) -> String {
    let Some(s) = &v.ratio else {
        return "\nno run has both an estimate and the truth\n".to_string();
    };
    let pct = |k: usize| percent(k as f64 / v.cases as f64, 0);
    let body = vec![vec![
        v.cases.to_string(),
        v.covered.to_string(),
        pct(v.covered),
        format!("{:.3}", s.min),
        format!("{:.3}", s.q1),
        format!("{:.3}", s.median),
        format!("{:.3}", s.q3),
        format!("{:.3}", s.max),
        pct(v.within_10pct),
        pct(v.within_2x),
    ]];
    let headers = [
        "cases",
        "covered",
        "share covered",
        "est ÷ truth min",
        "q1",
        "median",
        "q3",
        "max",
        "within 10%",
        "within 2×",
    ];
    format!("\n{}", markdown(&headers, 0, body))
}

/// Below `ladder`'s table, for the runs the budget cut off: the whole
/// search's nodes estimated with Knuth's random probes, and its time as
/// nodes × the run's measured time per node (marked as estimated). Empty
/// when every run finished.
pub(crate) fn ladder_estimates(rows: &[&Labelled]) -> String {
    let cut: Vec<&&Labelled> = rows.iter().filter(|l| l.estimate.is_some()).collect();
    if cut.is_empty() {
        return String::new();
    }
    let mut notes = Vec::new();
    let body = cut
        .iter()
        .filter_map(|l| match l.estimate.as_ref()? {
            Ok(e) => {
                let (i, n) = (e.nodes(), rounded);
                Some(vec![
                    l.puzzle.clone(),
                    l.m.strategy.name().to_string(),
                    n(i.estimate),
                    n(i.low),
                    n(i.high),
                    l.ns_per_node()
                        .map_or("-".into(), |ns| format!("≈ {}", fmt_time(i.estimate * ns))),
                ])
            }
            Err(why) => {
                notes.push(format!(
                    "{} / {}: no estimate: {why}\n",
                    l.puzzle, l.m.strategy
                ));
                None
            }
        })
        .collect();
    let mut out = String::from(
        "\nCut off by the budget: the whole search's nodes, estimated (Knuth's random probes, 95% interval), and its time, estimated as nodes × the run's time per node:\n\n",
    );
    out.push_str(&markdown(
        &["puzzle", "strategy", "estimate", "low", "high", "time"],
        2,
        body,
    ));
    for n in notes {
        out.push_str(&n);
    }
    out
}

/// `datasets list`: each public corpus, its size, where it is if fetched,
/// what it is; then where `fetch` keeps them (or why it cannot).
pub(crate) fn corpora(
    corpora: &[(&crate::io::fetch::Corpus, Option<std::path::PathBuf>)],
    dir: &anyhow::Result<std::path::PathBuf>,
) -> String {
    let mut text = String::new();
    for (c, fetched) in corpora {
        let state = match fetched {
            Some(p) => format!("fetched: {}", p.display()),
            None => "not fetched".to_string(),
        };
        text.push_str(&format!(
            "{:<20} {:>7} puzzles  {state}\n{:<20} {}\n",
            c.name, c.puzzles, "", c.about
        ));
    }
    match dir {
        Ok(d) => text.push_str(&format!(
            "\n`sudoku-lab datasets fetch NAME` keeps them in {}\n",
            d.display()
        )),
        Err(e) => text.push_str(&format!("\n{e}\n")),
    }
    text
}

/// `datasets fetch`: one line per corpus fetched or checked.
pub(crate) fn fetched(done: &[crate::io::fetch::Fetched]) -> String {
    done.iter()
        .map(|f| {
            let how = if f.already {
                "already fetched, checked:"
            } else {
                "fetched and checked:"
            };
            format!(
                "{}: {} puzzles, {how} {}\n",
                f.name,
                f.puzzles,
                f.path.display()
            )
        })
        .collect()
}

/// A value as JSON (pretty, one trailing newline): the one form of every
/// command's `--json`, serialized from the rows its CSV comes from.
pub fn json<T: serde::Serialize + ?Sized>(value: &T) -> anyhow::Result<String> {
    let mut s = serde_json::to_string_pretty(value)?;
    s.push('\n');
    Ok(s)
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
    fn number_formats() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(69_175_317), "69,175,317");
        assert_eq!(fmt_time(412.0), "412 ns");
        assert_eq!(fmt_time(3_140.0), "3.14 µs");
        assert_eq!(fmt_time(2_310_000_000.0), "2.31 s");
    }
}
