//! The depth chart (`trace --chart`): nodes per depth of one or more
//! searches of the same puzzle, overlaid on a log scale (counts span
//! decades: one root, thousands of nodes at the widest depth). Its data:
//! [`crate::export::chart::trace`].

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    Chart, DEPTH, DrawResult, FAINT, GRID, MUTED, decade_label, decades, label_font, note_font,
    rung_color as color, tick_font, title_font,
};
use crate::export::present::fmt_count;
use crate::export::chart::trace::{DepthChart, group_label, groups};

impl Chart for DepthChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1000, 600)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let area = root.titled(DEPTH.title, title_font())?;
        let (w, _) = area.dim_in_pixel();
        area.draw(&Text::new(
            self.puzzle.to_string(),
            (w as i32 / 2, 2),
            note_font().pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
        let area = area.margin(22, 0, 0, 0);
        let deepest = self
            .series
            .iter()
            .map(|s| s.histogram.len().saturating_sub(1))
            .max()
            .unwrap_or(0)
            .max(1);
        // One decade of headroom above the widest depth, for the legend.
        let y = decades(
            self.series
                .iter()
                .flat_map(|s| s.histogram.iter().map(|&n| n as f64 * 10.0)),
        );
        let y = 1f64.min(y.start)..y.end;
        let mut c = ChartBuilder::on(&area)
            .margin(16)
            .margin_right(30)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(0f64..deepest as f64, y.log_scale())?;
        c.configure_mesh()
            .light_line_style(FAINT)
            .bold_line_style(GRID)
            .max_light_lines(1)
            .x_labels(deepest.min(20) + 1)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| decade_label(*v, fmt_count))
            .x_desc("depth (placements still on the path: placements minus undos)")
            .y_desc("search nodes at that depth (log scale)")
            .label_style(tick_font())
            .axis_desc_style(label_font())
            .draw()?;
        for g in groups(self.series) {
            let s = g[0];
            let col = color(s.strategy);
            // Every depth up to the deepest has a node (the path to the
            // deepest node passes through it); zeros are skipped all the same.
            let pts: Vec<(f64, f64)> = s
                .histogram
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(d, &n)| (d as f64, n as f64))
                .collect();
            c.draw_series(LineSeries::new(pts.clone(), col.stroke_width(3)))?
                .label(group_label(&g))
                .legend(move |(x, y)| {
                    PathElement::new([(x - 8, y), (x + 8, y)], col.stroke_width(3))
                });
            c.draw_series(pts.into_iter().map(|p| Circle::new(p, 3, col.filled())))?;
        }
        c.configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(MUTED)
            .label_font(tick_font())
            .draw()
    }
}

