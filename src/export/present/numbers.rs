//! Number text: how a chart, the report and every command write a time, a
//! count, a ratio or a figure with its 95% interval (`1.5 µs`, `10k`,
//! `×6.0 [5.6, 6.4]`). Charts and the report call these; nothing else
//! formats those figures.

use crate::measure::stats::Interval;

const TIME_UNITS: [(f64, &str); 4] = [(1.0, " ns"), (1e3, " µs"), (1e6, " ms"), (1e9, " s")];

/// `1.5 µs`, `20 ms`: times in nanoseconds.
pub fn fmt_time(ns: f64) -> String {
    scaled(ns, &TIME_UNITS)
}

/// `1`, `250`, `10k`, `3M`: counts.
pub fn fmt_count(n: f64) -> String {
    scaled(n, &[(1.0, ""), (1e3, "k"), (1e6, "M"), (1e9, "G")])
}

/// The largest unit `x` reaches; a value that rounds up to 1000 of a unit
/// is shown as 1 of the next.
fn unit<'a>(x: f64, units: &[(f64, &'a str)]) -> (f64, &'a str) {
    let mut k = units.iter().rposition(|&(f, _)| x >= f).unwrap_or(0);
    if trim(x / units[k].0) == "1000" && k + 1 < units.len() {
        k += 1;
    }
    units[k]
}

/// `x` in the largest unit it reaches, with three significant digits.
fn scaled(x: f64, units: &[(f64, &str)]) -> String {
    let (u, name) = unit(x, units);
    format!("{}{name}", trim(x / u))
}

/// Decimals that give `x` about three significant digits: 0 from 100, 1
/// from 10, 2 from 1, `below_one` under 1.
fn decimals(x: f64, below_one: usize) -> usize {
    if x >= 100.0 {
        0
    } else if x >= 10.0 {
        1
    } else if x >= 1.0 {
        2
    } else {
        below_one
    }
}

/// Decimals a figure `x` (in its display unit) gets beside its interval
/// of half-width `hw`: down to the half-width's first significant digit
/// (the precision the interval supports), never more than `max` (what the
/// figure gets without an interval).
fn ci_decimals(x: f64, hw: f64, max: usize) -> usize {
    if hw.is_nan() || hw <= 1e-9 * x.abs() {
        return max;
    }
    ((-hw.log10().floor()).max(0.0) as usize).min(max)
}

/// Human-sized number: about three significant digits, no exponent.
pub fn sig(x: f64) -> String {
    format!("{x:.d$}", d = decimals(x.abs(), 3))
}

/// `×6.0 [5.6, 6.4]`: a ratio with its 95% interval, to the precision the
/// interval supports; `×6.00 [n/a]` without one.
pub fn fmt_ratio_ci(r: f64, ci: Option<Interval>) -> String {
    match ci {
        None => format!("{} [n/a]", fmt_ratio(r)),
        Some(i) => {
            let d = ci_decimals(r, (i.high - i.low) / 2.0, decimals(r, 2));
            format!("×{r:.d$} [{:.d$}, {:.d$}]", i.low, i.high)
        }
    }
}

/// `13400 [12900, 14000]`: a plain figure (a rate, microseconds) with its
/// 95% interval, to the precision the interval supports (at most about
/// three significant digits); `13400 [n/a]` without one.
pub fn fmt_value_ci(x: f64, ci: Option<Interval>) -> String {
    let max = decimals(x.abs(), 3);
    let Some(i) = ci else {
        return format!("{x:.max$} [n/a]");
    };
    let d = ci_decimals(x, (i.high - i.low) / 2.0, max);
    format!("{x:.d$} [{:.d$}, {:.d$}]", i.low, i.high)
}

/// `1.2 ms [1.1, 1.4]`: a time (ns) with its 95% interval, in the unit
/// of the time, to the precision the interval supports; `1.23 ms [n/a]`
/// without one.
pub fn fmt_time_ci(ns: f64, ci: Option<Interval>) -> String {
    let Some(i) = ci else {
        return format!("{} [n/a]", fmt_time(ns));
    };
    let (u, name) = unit(ns, &TIME_UNITS);
    let (x, low, high) = (ns / u, i.low / u, i.high / u);
    if i.high - i.low <= 1e-9 * ns.abs() {
        // No spread (but rounding): the figure as it reads without one.
        return format!("{}{name} [{}, {}]", trim(x), trim(low), trim(high));
    }
    let d = ci_decimals(x, (i.high - i.low) / 2.0 / u, decimals(x, 2));
    format!("{x:.d$}{name} [{low:.d$}, {high:.d$}]")
}

/// `×3.2`, `×0.45`, `×120`: ratios.
pub fn fmt_ratio(r: f64) -> String {
    format!("×{r:.d$}", d = decimals(r, 2))
}

/// `9×9`: a board size.
pub fn size_name(side: u32) -> String {
    format!("{side}×{side}")
}

/// At most three significant digits, no trailing zeros.
pub fn trim(v: f64) -> String {
    let s = format!("{v:.d$}", d = decimals(v, 2));
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(fmt_time(1500.0), "1.5 µs");
        assert_eq!(fmt_time(20e6), "20 ms");
        assert_eq!(fmt_time(1e9), "1 s");
        assert_eq!(fmt_count(1e5), "100k");
        assert_eq!(fmt_count(3e6), "3M");
        assert_eq!(fmt_count(7.0), "7");
        assert_eq!(fmt_ratio(3.216), "×3.22");
        assert_eq!(fmt_ratio(120.4), "×120");
        let ci = |low, high| Some(Interval { low, high });
        assert_eq!(fmt_ratio_ci(6.02, ci(5.6, 6.4)), "×6.0 [5.6, 6.4]");
        assert_eq!(fmt_ratio_ci(6.02, ci(5.98, 6.05)), "×6.02 [5.98, 6.05]");
        assert_eq!(fmt_ratio_ci(6.02, ci(2.1, 15.3)), "×6 [2, 15]");
        assert_eq!(fmt_ratio_ci(6.02, None), "×6.02 [n/a]");
        assert_eq!(
            fmt_time_ci(1_234_000.0, ci(1.1e6, 1.4e6)),
            "1.2 ms [1.1, 1.4]"
        );
        assert_eq!(
            fmt_time_ci(1_234_000.0, ci(1.233e6, 1.236e6)),
            "1.23 ms [1.23, 1.24]"
        );
        assert_eq!(fmt_time_ci(52_000.0, None), "52 µs [n/a]");
        assert_eq!(size_name(16), "16×16");
        // Rounding up to 1000 of a unit moves to the next unit.
        assert_eq!(fmt_time(999.9999), "1 µs");
        assert_eq!(fmt_time(999.4), "999 ns");
        assert_eq!(fmt_count(999_999.0), "1M");
        assert_eq!(fmt_time(0.5), "0.5 ns");
    }
}
