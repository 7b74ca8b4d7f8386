//! `diff`'s chart (`diff.svg`/`.png`): one line per dataset × strategy, its
//! time ratio NEW ÷ OLD as a dot with its interval as a bar, on a log axis
//! around 1, the run-to-run spread's band shaded. Its figures:
//! [`crate::analysis::diff`].

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{
    Chart, DrawResult, FAINT, GRID, MUTED, Rendered, TEXT, label_font, tick_font, title_font,
};
use crate::analysis::diff::{Diff, Verdict};
use crate::export::present::sig;

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
                let label = format!("{} · {}", r.dataset, r.pair());
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
    super::render(&super::DIFF, &DiffChart::new(diff))
}

/// The x range: log, covering every interval and the noise band, with a
/// margin.
fn range(d: &DiffChart) -> std::ops::Range<f64> {
    let (mut lo, mut hi) = (1.0 - d.noise, 1.0 + d.noise);
    for &(_, r, l, h, _) in &d.lines {
        lo = lo.min(l).min(r);
        hi = hi.max(h).max(r);
    }
    (lo / 1.15)..(hi * 1.15)
}

fn color(v: Verdict) -> RGBColor {
    match v {
        Verdict::Faster => RGBColor(0x1B, 0x7F, 0x3B),
        Verdict::Slower => RGBColor(0xC0, 0x39, 0x2B),
        Verdict::NoChange | Verdict::Untimed => MUTED,
    }
}

impl Chart for DiffChart {
    fn size(&self) -> (u32, u32) {
        (1000, 140 + 34 * self.lines.len().max(1) as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let area = root.titled(&self.title, title_font())?;
        let n = self.lines.len().max(1);
        let labels: Vec<String> = self.lines.iter().map(|l| l.0.clone()).collect();
        let x = range(self);
        let mut c = ChartBuilder::on(&area)
            .margin(16)
            .margin_right(30)
            .x_label_area_size(44)
            .y_label_area_size(330)
            .build_cartesian_2d(x.clone().log_scale(), -0.5f64..n as f64 - 0.5)?;
        c.configure_mesh()
            .light_line_style(FAINT)
            .bold_line_style(GRID)
            .y_labels(n)
            .y_label_formatter(&|v| {
                let i = v.round();
                if (v - i).abs() > 1e-6 || i < 0.0 {
                    return String::new();
                }
                // Top to bottom: the first row at the top.
                labels.get(n - 1 - i as usize).cloned().unwrap_or_default()
            })
            .x_labels(6)
            .x_label_formatter(&|v| format!("×{}", sig(*v)))
            .x_desc("NEW ÷ OLD (log scale; left of 1: NEW is faster)")
            .label_style(tick_font())
            .axis_desc_style(label_font())
            .draw()?;
        let top = n as f64 - 0.5;
        c.draw_series(std::iter::once(Rectangle::new(
            [(1.0 - self.noise, -0.5), (1.0 + self.noise, top)],
            FAINT.mix(0.9).filled(),
        )))?;
        c.draw_series(std::iter::once(PathElement::new(
            [(1.0, -0.5), (1.0, top)],
            TEXT.stroke_width(1),
        )))?;
        for (k, &(_, r, lo, hi, v)) in self.lines.iter().enumerate() {
            let y = (n - 1 - k) as f64;
            let col = color(v);
            c.draw_series(std::iter::once(PathElement::new(
                [(lo, y), (hi, y)],
                col.stroke_width(3),
            )))?;
            c.draw_series(std::iter::once(Circle::new((r, y), 5, col.filled())))?;
        }
        Ok(())
    }
}

