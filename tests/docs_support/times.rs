//! Times are times: machine-dependent, never compared as exact numbers.
//!
//! What the checker does with them instead:
//! * **arithmetic** — in a `ladder` row, `per node` must be `time ÷ nodes`
//!   (to the printed precision), so an edited time or per-node figure shows;
//! * **one measurement, one figure** — the same puzzle × strategy with the
//!   same node count, quoted in two blocks of the tour, must agree within
//!   [`SAME_MEASUREMENT`];
//! * **not stale** — a re-run's time must be within [`LIVE_FACTOR`] of the
//!   documented one (release builds only; the lab's time is the median
//!   per-thread CPU time, which other processes barely move);
//! * every page that prints times says on which machine, under what load
//!   (`<!-- docs: machine -->`, written by the update run).

use super::facts::{self, Fact, Table};

/// Two blocks quoting the same measurement may differ by at most this factor.
pub const SAME_MEASUREMENT: f64 = 2.0;
/// A re-run may differ from the documented time by at most this factor.
pub const LIVE_FACTOR: f64 = 3.0;
/// Below this, a time is timer noise and cache luck: not compared live.
pub const LIVE_FLOOR_NS: f64 = 2_000.0;

/// `412 ns`, `3.1 µs`, `27.4 ms`, `2.31 s` in nanoseconds.
pub fn parse(text: &str) -> Option<f64> {
    let (num, unit) = text.trim().split_once(' ')?;
    let scale = match unit {
        "ns" => 1.0,
        "µs" | "us" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        _ => return None,
    };
    if num.is_empty() || !num.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    num.parse::<f64>().ok().map(|v| v * scale)
}

/// A time as `ladder` prints it: `412 ns`, `3.1 µs`, `27.4 ms`, `2.31 s`.
pub fn format(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.1} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.1} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

/// Half a unit of the last printed digit, in nanoseconds.
pub fn half_unit(text: &str) -> f64 {
    let Some((num, _)) = text.trim().split_once(' ') else {
        return 0.0;
    };
    let decimals = num.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
    let scale = parse(text).unwrap_or(0.0) / num.parse::<f64>().unwrap_or(1.0).max(1e-300);
    0.5 * 10f64.powi(-decimals) * scale
}

/// Rows of a `ladder` table whose `per node` is not `time ÷ nodes`.
pub fn per_node_errors(table: &Table) -> Vec<String> {
    let (Some(n), Some(t), Some(p)) = (
        table.column("nodes"),
        table.column("time"),
        table.column("per node"),
    ) else {
        return Vec::new();
    };
    let mut bad = Vec::new();
    for row in &table.rows {
        let (Some(nodes), Some(time), Some(per)) = (
            row.get(n).and_then(|c| facts::number(c)),
            row.get(t).and_then(|c| parse(facts::without_interval(c))),
            row.get(p).and_then(|c| parse(facts::without_interval(c))),
        ) else {
            continue;
        };
        // The figures without their 95% intervals (`610 ms [583, 638]`).
        let (tc, pc) = (
            facts::without_interval(&row[t]),
            facts::without_interval(&row[p]),
        );
        if nodes < 1.0 {
            continue;
        }
        let lo = (time - half_unit(tc)) / nodes - half_unit(pc) - 1e-9;
        let hi = (time + half_unit(tc)) / nodes + half_unit(pc) + 1e-9;
        if per < lo || per > hi {
            bad.push(format!(
                "{}: per node {} is not time {} ÷ {} nodes ({:.1} ns)",
                table.labels(row).join("/"),
                row[p],
                row[t],
                row[n],
                time / nodes
            ));
        }
    }
    bad
}

/// The factor between two times (≥ 1).
pub fn factor(a: f64, b: f64) -> f64 {
    if a <= 0.0 || b <= 0.0 {
        return f64::INFINITY;
    }
    (a / b).max(b / a)
}

/// A documented time against a re-run's, both as printed: `Some(why)` when
/// they are too far apart to be the same machine's measurement.
pub fn live_mismatch(documented: &Fact, now: &Fact) -> Option<String> {
    let (Some(a), Some(b)) = (documented.value, now.value) else {
        return None;
    };
    if a.max(b) < LIVE_FLOOR_NS {
        return None;
    }
    let f = factor(a, b);
    (f > LIVE_FACTOR).then(|| {
        format!(
            "documented {} but a re-run took {} (×{f:.1}, more than ×{LIVE_FACTOR}): stale times, regenerate on a quiet machine",
            documented.text, now.text
        )
    })
}
