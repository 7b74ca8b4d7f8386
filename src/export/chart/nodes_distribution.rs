//! The node-distribution chart (`nodes-distribution.svg`/`.png`): per
//! board size, the share of puzzles each strategy finished within N nodes,
//! as step curves on a log axis; proofs of no solution ringed, the budget
//! dashed, rungs with the same search order on one curve.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::export::chart::crisp::fit_words;
use crate::export::chart::parts::{dot, nothing, panels, subtitle};
use super::{
    Chart, DrawResult, FAINT, GRID, MUTED, NODES_DISTRIBUTION, NOTE_SIZE, decade_label, decades,
    label_font, note_font, rung_color as color, tick_font, title_font,
};
use crate::analysis::charts::{CdfPanel, ChartData};
use crate::export::present::{budget_phrase, fmt_count, names, size_name};

/// The chart of a report's data.
pub fn new(d: &ChartData) -> Option<impl Chart + '_> {
    Some(CdfChart(d))
}

struct CdfChart<'a>(&'a ChartData);

/// A legend entry's line sample: its colour and whether it is dashed.
type Swatch = Option<(RGBColor, bool)>;

impl CdfChart<'_> {
    /// Pixels of a panel's plot; its legend goes below, off the curves.
    const PLOT: u32 = 430;
    const LEGEND_LINE: u32 = 21;

    /// Where a panel's legend text starts, from the panel's left edge.
    const LEGEND_X: i32 = 112;

    /// Legend entries of a panel: one per curve (its colour, and whether
    /// it is dashed), one for strategies not run.
    fn legend(p: &CdfPanel) -> Vec<(String, Swatch)> {
        let mut lines: Vec<(String, Swatch)> = p
            .curves
            .iter()
            .map(|c| {
                let mut label = format!(
                    "{}: of {}, {} solved",
                    c.strategies
                        .iter()
                        .map(|s| s.name())
                        .collect::<Vec<_>>()
                        .join(" = "),
                    c.measured,
                    c.solved
                );
                if c.no_solution > 0 {
                    label += &format!(", {} proved to have no solution", c.no_solution);
                }
                if c.stopped > 0 {
                    label += &format!(", {} stopped at the budget", c.stopped);
                }
                if let Some((other, gap)) = c.near {
                    label += &if gap == 0.0 {
                        format!(" (dashed: the same curve as {other})")
                    } else {
                        format!(
                            " (dashed: never more than {:.1} points from {other})",
                            gap * 100.0
                        )
                    };
                }
                (label, Some((color(c.strategies[0]), c.near.is_some())))
            })
            .collect();
        if !p.not_run.is_empty() {
            lines.push((
                format!("{}: does not run {}", names(&p.not_run), size_name(p.side)),
                None,
            ));
        }
        lines
    }

    /// The legend entries broken into lines that fit a panel `width` pixels
    /// wide: (text, colour of the entry's first line only, muted).
    fn legend_lines(p: &CdfPanel, width: u32) -> Vec<(String, Swatch, bool)> {
        let room = width.saturating_sub(Self::LEGEND_X as u32 + 24) as f32;
        let mut out = Vec::new();
        for (text, col) in Self::legend(p) {
            for (i, line) in fit_words(&text, NOTE_SIZE, room).into_iter().enumerate() {
                out.push((line, col.filter(|_| i == 0), col.is_none()));
            }
        }
        out
    }

    /// Width of one panel: two to a row, or the whole chart for one.
    fn panel_width(&self) -> u32 {
        if self.0.cdf.len() == 1 { 1400 } else { 700 }
    }

    fn legend_height(&self) -> u32 {
        let lines = self
            .0
            .cdf
            .iter()
            .map(|p| Self::legend_lines(p, self.panel_width()).len())
            .max()
            .unwrap_or(0);
        lines as u32 * Self::LEGEND_LINE + 12
    }
}


impl Chart for CdfChart<'_> {
    fn size(&self) -> (u32, u32) {
        let n = self.0.cdf.len();
        let rows = if n <= 2 { 1 } else { n.div_ceil(2) } as u32;
        (1400, 120 + rows * (Self::PLOT + self.legend_height()))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        let area = root.titled(NODES_DISTRIBUTION.title, title_font())?;
        let note = format!(
            "finished = solved, or proved to have no solution (ring on the curve: such a proof); a curve ends below 100% only by runs stopped at {} (dashed line); rungs with the same search order share one curve",
            budget_phrase(d.budget)
        );
        let area = subtitle(&area, &note)?;
        if d.cdf.is_empty() {
            return nothing(&area, "no measured runs");
        }
        let x = decades(
            d.cdf
                .iter()
                .flat_map(|p| p.curves.iter())
                .flat_map(|c| c.points.iter().map(|p| p.0))
                .chain(d.budget.map(|b| b as f64)),
        );
        for (cell, p) in panels(&area, d.cdf.len()).iter().zip(&d.cdf) {
            let (panel, legend) = cell.split_vertically(Self::PLOT);
            self.curves(&panel, p, &x)?;
            self.legend_box(&legend, p)?;
        }
        Ok(())
    }
}

impl CdfChart<'_> {
    /// One size's plot: its curves, proofs and the budget line.
    fn curves<DB: DrawingBackend>(
        &self,
        panel: &DrawingArea<DB, Shift>,
        p: &CdfPanel,
        x: &std::ops::Range<f64>,
    ) -> DrawResult<DB> {
        let d = self.0;
    let puzzles = p.curves.iter().map(|c| c.measured).max().unwrap_or(0);
    let mut chart = ChartBuilder::on(panel)
        .caption(
            format!("{} boards ({puzzles} puzzles)", size_name(p.side)),
            label_font(),
        )
        .margin(12)
        .margin_right(30)
        .x_label_area_size(46)
        .y_label_area_size(70)
        .build_cartesian_2d(x.clone().log_scale(), 0f64..100f64)?;
    chart
        .configure_mesh()
        .light_line_style(FAINT)
        .bold_line_style(GRID)
        .x_label_formatter(&|v| decade_label(*v, fmt_count))
        .y_labels(11)
        .max_light_lines(1)
        .y_label_formatter(&|v| format!("{v:.0}%"))
        .x_desc("search nodes per puzzle (log scale)")
        .y_desc("puzzles finished within N nodes")
        .label_style(tick_font())
        .axis_desc_style(tick_font())
        .draw()?;
    if let Some(b) = d.budget {
        chart.draw_series(DashedLineSeries::new(
            [(b as f64, 0.0), (b as f64, 100.0)],
            6,
            4,
            MUTED.stroke_width(1),
        ))?;
    }
    for c in &p.curves {
        let col = color(c.strategies[0]);
        // A step function: flat to the next node count, then up.
        let mut pts: Vec<(f64, f64)> = Vec::new();
        let mut level = 0.0;
        for &(n, f) in &c.points {
            pts.push((n, level));
            level = f * 100.0;
            pts.push((n, level));
        }
        if c.near.is_some() {
            // On top of a curve it nearly covers: dashed, so the
            // one below shows between the dashes.
            chart.draw_series(DashedLineSeries::new(pts, 9, 7, col.stroke_width(3)))?;
        } else {
            chart.draw_series(LineSeries::new(pts, col.stroke_width(3)))?;
        }
        chart.draw_series(c.proofs.iter().flat_map(|&(n, f)| dot((n, f * 100.0), 6, col, true)))?;
    }
        Ok(())
    }

    /// One size's legend, below its plot.
    fn legend_box<DB: DrawingBackend>(
        &self,
        legend: &DrawingArea<DB, Shift>,
        p: &CdfPanel,
    ) -> DrawResult<DB> {
    let mut y = 6;
    for (text, col, muted) in Self::legend_lines(p, self.panel_width()) {
        match col {
            Some((col, false)) => legend.draw(&PathElement::new(
                [(84, y + 8), (104, y + 8)],
                col.stroke_width(3),
            ))?,
            Some((col, true)) => {
                for x in [84, 97] {
                    legend.draw(&PathElement::new(
                        [(x, y + 8), (x + 7, y + 8)],
                        col.stroke_width(3),
                    ))?;
                }
            }
            None => {}
        }
        let font = if muted { note_font() } else { tick_font() };
        legend.draw(&Text::new(
            text,
            (Self::LEGEND_X, y + 8),
            font.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        y += Self::LEGEND_LINE as i32;
    }
        Ok(())
    }
}
