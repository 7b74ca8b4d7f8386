//! The chart of outside programs among the rungs (`programs.svg`/`.png`):
//! per board size, a bar per rung and two per program (whole time, and
//! time beyond its start-up), on a log time axis. Its data:
//! [`crate::analysis::program_panels`].

use plotters::coord::Shift;
use plotters::coord::combinators::LogCoord;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::export::chart::parts::{subtitle, widest};
use super::{
    Chart, DrawResult, FONT, MUTED, PROGRAMS, Rendered, decades,
    label_font, render, rung_color as color, tick_font, title_font,
};
use crate::analysis::program_panels::{Bar, Panel};
use crate::export::present::{fmt_time, size_name};

/// The chart, as SVG and PNG.
pub(crate) fn render_chart(panels: &[Panel]) -> anyhow::Result<Rendered> {
    render(&PROGRAMS, &ProgramsChart(panels))
}

/// The plot: time on a log x axis, one row per bar.
type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<LogCoord<f64>, RangedCoordf64>>;

struct ProgramsChart<'a>(&'a [Panel]);

impl ProgramsChart<'_> {
    const ROW: u32 = 24;
    fn rows(&self) -> usize {
        self.0
            .iter()
            .map(|p| p.bars.len() + 1)
            .sum::<usize>()
            .max(1)
    }
}

/// A program's bars: dark grey.
const PROGRAM: RGBColor = RGBColor(0x44, 0x44, 0x44);

impl Chart for ProgramsChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1100, 200 + self.rows() as u32 * Self::ROW)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let area = root.titled(PROGRAMS.title, title_font())?;
        let area = subtitle(
            &area,
            "rungs: per-thread CPU time of the search; programs: the process's CPU time (whole), \
             and that time minus the program's start-up; medians over the puzzles every program finished",
        )?;
        let rows = self.rows();
        let x = decades(self.0.iter().flat_map(|p| p.bars.iter().map(|b| b.ns)));
        let labels: Vec<String> = self
            .0
            .iter()
            .flat_map(|p| p.bars.iter().map(|b| b.label.clone()))
            .collect();
        let name_width = widest(root, &labels)?;
        let mut chart = ChartBuilder::on(&area)
            .margin(16)
            .margin_right(90)
            .x_label_area_size(56)
            .y_label_area_size(name_width + 24)
            .build_cartesian_2d(x.clone().log_scale(), 0f64..rows as f64)?;
        super::parts::row_mesh(&mut chart, "median time per puzzle, log scale", fmt_time, label_font())?;
        // Row k (from the top) is the band [rows-1-k, rows-k].
        let mut k = 0usize;
        for p in self.0 {
            let top = (rows - k) as f64;
            let (px, py) = chart.backend_coord(&(x.start, top - 0.5));
            root.draw(&Text::new(
                format!("{} · {} puzzles", size_name(p.side), p.puzzles),
                (px - name_width as i32 - 20, py),
                label_font().pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
            k += 1;
            for b in &p.bars {
                bar(root, &mut chart, b, (rows - k) as f64, x.start)?;
                k += 1;
            }
        }
        Ok(())
    }
}

/// One bar, in the row whose bottom is `y`: its label left of the axis,
/// its value (and puzzles) past its end.
fn bar<'a, DB: DrawingBackend + 'a>(
    root: &DrawingArea<DB, Shift>,
    chart: &mut Plot<'a, DB>,
    b: &Bar,
    y: f64,
    x_start: f64,
) -> DrawResult<DB> {
        let c = b.strategy.map_or(PROGRAM, color);
    let end = b.ns.max(x_start);
    chart.draw_series(std::iter::once(Rectangle::new(
        [(x_start, y - 0.8), (end, y - 0.2)],
        c.filled(),
    )))?;
    let (lx, ly) = chart.backend_coord(&(x_start, y - 0.5));
    root.draw(&Text::new(
        b.label.clone(),
        (lx - 8, ly),
        tick_font().pos(Pos::new(HPos::Right, VPos::Center)),
    ))?;
    let (vx, vy) = chart.backend_coord(&(end, y - 0.5));
    let value = if b.ns > 0.0 {
        format!("{} (n={})", fmt_time(b.ns), b.n)
    } else {
        "not above start-up".to_string()
    };
    root.draw(&Text::new(
        value,
        (vx + 6, vy),
        (FONT, 12)
            .into_font()
            .color(&MUTED)
            .pos(Pos::new(HPos::Left, VPos::Center)),
    ))?;
    Ok(())
}
