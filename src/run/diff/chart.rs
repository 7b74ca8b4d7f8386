//! What `diff`'s chart shows: one line per dataset × strategy, its time
//! ratio NEW ÷ OLD with its interval, and the run-to-run spread's band. Drawn by
//! [`crate::export::chart::diff`].

use super::{Diff, Verdict};
use crate::export::chart::Rendered;

/// File stem of the chart in `--out`.
pub(crate) const STEM: &str = crate::export::chart::DIFF.stem;

/// What the chart shows: one entry per timed row (label, ratio, low, high,
/// verdict), top to bottom.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DiffChart {
    pub title: String,
    pub lines: Vec<(String, f64, f64, f64, Verdict)>,
    pub noise: f64,
}

impl DiffChart {
    pub fn new(diff: &Diff) -> DiffChart {
        let lines = diff
            .rows
            .iter()
            .filter_map(|r| {
                let label = if r.strategy == r.new_strategy {
                    format!("{} · {}", r.dataset, r.strategy)
                } else {
                    format!("{} · {} → {}", r.dataset, r.strategy, r.new_strategy)
                };
                Some((label, r.ratio?, r.ratio_low?, r.ratio_high?, r.verdict))
            })
            .collect();
        DiffChart {
            title: format!(
                "Time NEW ÷ OLD ({:.0}% interval, ±{}% run-to-run spread in it: band)",
                diff.level * 100.0,
                diff.noise * 100.0
            ),
            lines,
            noise: diff.noise,
        }
    }
}

/// The chart as SVG and PNG.
pub fn render(diff: &Diff) -> anyhow::Result<Rendered> {
    crate::export::chart::render(&crate::export::chart::DIFF, &DiffChart::new(diff))
}
