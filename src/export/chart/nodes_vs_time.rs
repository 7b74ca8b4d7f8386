//! The nodes-against-time chart (`nodes-vs-time.svg`/`.png`): one point
//! per run (or an even subsample), log-log; colour = strategy, shape =
//! board size, hollow = stopped at the budget; grey diagonals of constant
//! time per node.

use plotters::coord::Shift;
use plotters::coord::combinators::LogCoord;
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_backend::{BackendCoord, DrawingErrorKind};

use crate::export::chart::parts::{legend_box, subtitle, text_at};
use super::{
    Chart, DrawResult, FAINT, GRID, MUTED, NODES_VS_TIME, decade_label, decades, label_font,
    note_font, rung_color as color, tick_font, title_font,
};
use crate::analysis::charts::ChartData;
use crate::export::present::{budget_phrase, fmt_count, fmt_time, size_name};

/// The chart of a report's data.
pub fn new(d: &ChartData) -> Option<impl Chart + '_> {
    Some(ScatterChart(d))
}

const DIAGONAL: RGBColor = RGBColor(0xBB, 0xBB, 0xBB);

/// The plot: nodes and time, both on log axes.
type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<LogCoord<f64>, LogCoord<f64>>>;

/// A diagonal's label: text, where it leaves the plot, whether on the right.
type DiagonalLabel = (String, (i32, i32), bool);

struct ScatterChart<'a>(&'a ChartData);

impl Chart for ScatterChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1200, 820)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        let area = root.titled(NODES_VS_TIME.title, title_font())?;
        let sampled = d.scatter.iter().any(|s| s.points.len() < s.total);
        let note = format!(
            "log-log; colour = strategy, shape = board size; grey diagonals = constant time per node (labelled at the edge); hollow = stopped at {} (a lower bound){}",
            budget_phrase(d.budget),
            if sampled {
                "; an even subsample of runs"
            } else {
                ""
            }
        );
        let area = subtitle(&area, &note)?;
        let x = decades(d.scatter.iter().flat_map(|s| s.points.iter().map(|p| p.0)));
        let y = decades(d.scatter.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
        let mut chart = ChartBuilder::on(&area)
            .margin(16)
            .margin_top(30)
            .margin_right(100)
            .x_label_area_size(56)
            .y_label_area_size(90)
            .build_cartesian_2d(x.clone().log_scale(), y.clone().log_scale())?;
        chart
            .configure_mesh()
            .light_line_style(FAINT)
            .bold_line_style(GRID)
            .x_label_formatter(&|v| decade_label(*v, fmt_count))
            .y_label_formatter(&|v| decade_label(*v, fmt_time))
            .x_desc("search nodes (log scale)")
            .y_desc("time per solve: per-thread CPU time (log scale)")
            .label_style(tick_font())
            .axis_desc_style(label_font())
            .draw()?;
        let labels = diagonals(&mut chart, &x, &y)?;
        points(&mut chart, d)?;
        let mut sides: Vec<u32> = d.scatter.iter().map(|s| s.side).collect();
        sides.sort_unstable();
        sides.dedup();
        for side in sides {
            chart
                .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())?
                .label(format!("{} boards", size_name(side)))
                .legend(move |at| size_marker(side, at, 5, MUTED.filled()));
        }
        if d.scatter.iter().any(|s| s.points.iter().any(|p| p.2)) {
            chart
                .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())?
                .label("hollow: stopped at the budget")
                .legend(|at| Circle::new(at, 5, MUTED.stroke_width(2)));
        }
        for (label, (px, py), on_right) in labels {
            let pos = if on_right {
                ((px + 6, py), Pos::new(HPos::Left, VPos::Center))
            } else {
                ((px, py - 4), Pos::new(HPos::Center, VPos::Bottom))
            };
            text_at(&area, label, pos.0, note_font(), pos.1)?;
        }
        legend_box(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}

/// The scatter chart's marker of a board size, `r` pixels from its centre:
/// 4×4 triangle, 9×9 circle, 16×16 square, 25×25 diamond; filled or hollow
/// as `style` says. (An element of its own: plotters' dynamic elements
/// need a `'static` backend, and the SVG backend borrows its string.)
struct SizeMarker<C> {
    at: C,
    side: u32,
    r: i32,
    style: ShapeStyle,
}

fn size_marker<C>(side: u32, at: C, r: i32, style: ShapeStyle) -> SizeMarker<C> {
    SizeMarker { at, side, r, style }
}

impl<'a, C> PointCollection<'a, C> for &'a SizeMarker<C> {
    type Point = &'a C;
    type IntoIter = std::iter::Once<&'a C>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.at)
    }
}

impl<C, DB: DrawingBackend> Drawable<DB> for SizeMarker<C> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut points: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        let Some((x, y)) = points.next() else {
            return Ok(());
        };
        let r = self.r;
        let corners: Vec<(i32, i32)> = match self.side {
            4 => vec![(0, -r - 1), (r + 1, r), (-r - 1, r)],
            16 => vec![(-r, -r), (r, -r), (r, r), (-r, r)],
            25 => vec![(0, -r - 1), (r + 1, 0), (0, r + 1), (-r - 1, 0)],
            _ => {
                return backend.draw_circle((x, y), r as u32, &self.style, self.style.filled);
            }
        };
        let at = corners.iter().map(|&(dx, dy)| (x + dx, y + dy));
        if self.style.filled {
            backend.fill_polygon(at, &self.style)
        } else {
            backend.draw_path(at.clone().chain(at.take(1)), &self.style)
        }
    }
}


/// Iso-cost diagonals: time = c × nodes, one a decade of cost apart; their
/// labels go outside the plot where they leave it (right edge or top
/// edge), never over points, once the points are drawn.
fn diagonals<'a, DB: DrawingBackend + 'a>(
    chart: &mut Plot<'a, DB>,
    x: &std::ops::Range<f64>,
    y: &std::ops::Range<f64>,
) -> Result<Vec<DiagonalLabel>, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut labels: Vec<DiagonalLabel> = Vec::new();
    let mut cost = 0.1;
    while cost <= 1e6 {
        let x0 = x.start.max(y.start / cost);
        let x1 = x.end.min(y.end / cost);
        if x0 < x1 {
            chart.draw_series(DashedLineSeries::new(
                [(x0, x0 * cost), (x1, x1 * cost)],
                5,
                5,
                DIAGONAL.stroke_width(1),
            ))?;
            let at = chart.backend_coord(&(x1, x1 * cost));
            let on_right = x1 >= x.end * (1.0 - 1e-9);
            labels.push((format!("{}/node", fmt_time(cost)), at, on_right));
        }
        cost *= 10.0;
    }
    Ok(labels)
}

/// The runs: colour = strategy, shape = board size (a 25×25 node costs far
/// more than a 4×4 one); hollow = stopped at the budget.
fn points<'a, DB: DrawingBackend + 'a>(chart: &mut Plot<'a, DB>, d: &ChartData) -> DrawResult<DB> {
    for &st in &d.strategies {
        let col = color(st);
        let mine: Vec<_> = d.scatter.iter().filter(|s| s.strategy == st).collect();
        if mine.is_empty() {
            continue;
        }
        chart
            .draw_series(mine.iter().flat_map(|s| {
                s.points.iter().filter(|p| !p.2).map(move |&(n, t, _)| {
                    size_marker(s.side, (n, t), 3, col.mix(0.55).filled())
                })
            }))?
            .label(st.name())
            .legend(move |(x, y)| Circle::new((x, y), 5, col.filled()));
        chart.draw_series(mine.iter().flat_map(|s| {
            s.points
                .iter()
                .filter(|p| p.2)
                .map(move |&(n, t, _)| size_marker(s.side, (n, t), 4, col.stroke_width(2)))
        }))?;
    }
    Ok(())
}
