//! The full-set ladder chart (`full-set-ladder.svg`/`.png`): per board size
//! with cut-off runs, every strategy that ran on it over the full set of
//! puzzles, cut-off runs entering with their estimated whole search
//! (issue #27). Each rung's geometric mean of nodes and of time per solve:
//! a filled dot where every run was measured, a hollow dot where the figure
//! includes estimated runs, with the range of those runs' 95% intervals as
//! a bar (nodes only: the time is the estimate × the run's time per node).
//! Drawn only when some size has such a ladder.

use plotters::coord::Shift;
use plotters::coord::combinators::LogCoord;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::export::chart::parts::{dot, subtitle, text_at, text_lines, whiskers};
use super::{
    Chart, DrawResult, FULL_SET, decades, label_font, note_font,
    rung_color as color, tick_font, title_font,
};
use crate::analysis::charts::ChartData;
use crate::analysis::ladder::{FullLadder, FullRung};
use crate::export::present::{fmt_count, fmt_time, full_set_header};
use crate::measure::stats::Interval;

/// The chart of a report's data; `None` when no size has a full-set ladder
/// (no run was cut off with an estimate: the ladders hold every puzzle).
pub fn new(d: &ChartData) -> Option<impl Chart + '_> {
    (!d.full.is_empty()).then_some(FullSetChart(d))
}

struct FullSetChart<'a>(&'a ChartData);

/// Pixels per rung row, and of a panel besides its rows.
const ROW: u32 = 40;
const PANEL: u32 = 130;
/// Radius of a rung's dot.
const DOT: i32 = 6;

/// A panel's plot: a log value axis, rung rows top to bottom.
type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<LogCoord<f64>, RangedCoordf64>>;

impl Chart for FullSetChart<'_> {
    fn size(&self) -> (u32, u32) {
        let rows: u32 = self
            .0
            .full
            .iter()
            .map(|f| PANEL + f.rungs.len() as u32 * ROW)
            .sum();
        (1200, 130 + rows)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let area = root.titled(FULL_SET.title, title_font())?;
        let mut area = subtitle(
            &area,
            "every strategy run on a size, on every puzzle where each finished or was cut off by the budget with an estimate of its whole search (Knuth's random probes); geometric means; filled dot = measured runs only; hollow dot = includes estimated runs (≈), bar = geometric means of their 95% intervals' ends; estimated time = estimated nodes × the run's measured time per node",
        )?;
        // One axis per quantity for every size, so panels compare.
        let nodes = decades(self.0.full.iter().flat_map(|f| {
            f.rungs.iter().flat_map(|r| [r.nodes, r.low, r.high])
        }));
        let times = decades(
            self.0
                .full
                .iter()
                .flat_map(|f| f.rungs.iter().map(|r| r.time_ns)),
        );
        for f in &self.0.full {
            let (panel, rest) = area.split_vertically(PANEL + f.rungs.len() as u32 * ROW);
            area = rest;
            let panel = text_lines(&panel, &[(full_set_header(f), label_font())], 20)?;
            let (left, right) = panel.split_horizontally(660);
            let plot = |area, x: &std::ops::Range<f64>, nodes| Half {
                area,
                x: x.clone(),
                nodes,
            };
            draw_half(&plot(left, &nodes, true), f)?;
            draw_half(&plot(right, &times, false), f)?;
        }
        Ok(())
    }
}

/// One side of a panel: nodes (with the rung names) or time per solve.
struct Half<DB: DrawingBackend> {
    area: DrawingArea<DB, Shift>,
    x: std::ops::Range<f64>,
    nodes: bool,
}

fn draw_half<DB: DrawingBackend>(h: &Half<DB>, f: &FullLadder) -> DrawResult<DB> {
    let n = f.rungs.len();
    let mut chart = ChartBuilder::on(&h.area)
        .margin(8)
        .margin_right(if h.nodes { 20 } else { 70 })
        .x_label_area_size(44)
        .y_label_area_size(if h.nodes { 170 } else { 10 })
        .build_cartesian_2d(h.x.clone().log_scale(), 0f64..n as f64)?;
    let (desc, fmt): (&str, fn(f64) -> String) = if h.nodes {
        ("nodes per puzzle (geometric mean, log scale)", fmt_count)
    } else {
        ("time per solve (geometric mean, log scale)", fmt_time)
    };
    super::parts::row_mesh(&mut chart, desc, fmt, tick_font())?;
    for (k, r) in f.rungs.iter().enumerate() {
        let y = (n - k) as f64 - 0.5;
        rung(h, &mut chart, r, y, fmt, f.set)?;
    }
    Ok(())
}

/// One rung's dot (hollow where estimated runs enter), its interval bar
/// (nodes, estimated only), its value, and on the nodes side its name.
fn rung<'a, DB: DrawingBackend + 'a>(
    h: &Half<DB>,
    chart: &mut Plot<'a, DB>,
    r: &FullRung,
    y: f64,
    fmt: fn(f64) -> String,
    set: u64,
) -> DrawResult<DB> {
    let col = color(r.strategy);
    let value = if h.nodes { r.nodes } else { r.time_ns };
    let estimated = r.estimated > 0;
    let mut right = value;
    if estimated && h.nodes {
        right = r.high;
        let range = Interval { low: r.low, high: r.high };
        whiskers(chart, &[(y, range)], true, 5, col.stroke_width(2))?;
    }
    chart.draw_series(dot((value, y), DOT, col, estimated))?;
    let (px, py) = chart.backend_coord(&(right, y));
    let mark = if estimated { "≈ " } else { "" };
    text_at(
        &h.area,
        format!("{mark}{}", fmt(value)),
        (px + 10, py),
        tick_font(),
        Pos::new(HPos::Left, VPos::Center),
    )?;
    if h.nodes {
        let (lx, ly) = chart.backend_coord(&(h.x.start, y));
        text_at(
            &h.area,
            r.strategy.name().to_string(),
            (lx - 12, ly - 8),
            label_font(),
            Pos::new(HPos::Right, VPos::Center),
        )?;
        text_at(
            &h.area,
            format!("{} of {set} runs estimated", r.estimated),
            (lx - 12, ly + 10),
            note_font(),
            Pos::new(HPos::Right, VPos::Center),
        )?;
    }
    Ok(())
}
