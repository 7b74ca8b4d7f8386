//! The ladder chart (`ladder.svg`/`.png`): one panel per board size, each
//! rung's three ratios against the ladder's first rung (fewer nodes,
//! cheaper nodes, speed-up) as bars on one log axis, with 95% whiskers.

use plotters::coord::Shift;
use plotters::coord::combinators::LogCoord;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::export::chart::parts::{WHISKER, legend_row, nothing, subtitle, text_at, text_lines, whiskers};
use super::{
    Chart, DrawResult, LADDER, TEXT, decades, label_font, note_font,
    tick_font, title_font,
};
use crate::analysis::charts::{ChartData, LadderBars, ladder_bars, report_order};
use crate::analysis::ladder::Ladder;
use crate::export::present::{fmt_ratio, fmt_time, ladder_absent, ladder_header, trim};
use crate::measure::stats::Interval;

/// The chart of a report's data.
pub fn new(d: &ChartData) -> Option<impl Chart + '_> {
    Some(LadderChart(d))
}

struct LadderChart<'a>(&'a ChartData);

/// The three bars of a rung: (label, colour).
const LADDER_BARS: [(&str, RGBColor); 3] = [
    ("fewer nodes (node-count ratio)", RGBColor(0x4E, 0x79, 0xA7)),
    (
        "cheaper nodes (time-per-node ratio)",
        RGBColor(0xF2, 0x8E, 0x2B),
    ),
    ("speed-up = product of the two", RGBColor(0x59, 0xA1, 0x4F)),
];

/// Pixels per rung row of a ladder panel.
const RUNG_ROW: u32 = 84;
/// Pixels of a ladder panel besides its rung rows.
const LADDER_PANEL: u32 = 150;

/// The ladder panels that have something to draw, in report order.
fn drawn_ladders(d: &ChartData) -> Vec<&Ladder> {
    report_order(&d.ladders)
        .into_iter()
        .filter(|l| !l.rungs.is_empty() && l.set > 0)
        .collect()
}

impl Chart for LadderChart<'_> {
    fn size(&self) -> (u32, u32) {
        let rows: u32 = drawn_ladders(self.0)
            .iter()
            .map(|l| LADDER_PANEL + l.rungs.len() as u32 * RUNG_ROW)
            .sum();
        (1200, (150 + rows).max(520))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        let area = root.titled(LADDER.title, title_font())?;
        let area = subtitle(
            &area,
            "one ladder per board size, each on its own puzzle set; geometric means, each rung against its ladder's first rung; ×1 = no change, left of ×1 = worse; whiskers: 95% intervals",
        )?;
        let mut area = legend_row(&area, &LADDER_BARS)?;
        let ladders = drawn_ladders(d);
        if ladders.is_empty() {
            return nothing(
                &area,
                "no ladder: no board size has a puzzle solved by the strategies run",
            );
        }
        // One ratio axis for every size, so panels compare at a glance.
        let x = decades(
            ladders
                .iter()
                .flat_map(|l| ladder_bars(l))
                .flat_map(|row| row.bars)
                .flat_map(|(v, i)| [v, i.map_or(v, |i| i.low), i.map_or(v, |i| i.high)])
                .chain([1.0]),
        );
        for l in ladders {
            let height = LADDER_PANEL + l.rungs.len() as u32 * RUNG_ROW;
            let (panel, rest) = area.split_vertically(height);
            area = rest;
            let mut lines = vec![(ladder_header(l), label_font())];
            let absent = ladder_absent(l);
            if !absent.is_empty() {
                lines.push((absent, note_font()));
            }
            let panel = text_lines(&panel, &lines, 20)?;
            draw_ladder(&panel, l, &x)?;
        }
        Ok(())
    }
}

/// A ladder panel's plot: ratio on a log x axis, rung rows top to bottom.
type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<LogCoord<f64>, RangedCoordf64>>;

fn draw_ladder<DB: DrawingBackend>(
    panel: &DrawingArea<DB, Shift>,
    l: &Ladder,
    x: &std::ops::Range<f64>,
) -> DrawResult<DB> {
    let Some(base) = l.base() else {
        return Ok(());
    };
    let rows = ladder_bars(l);
    let n = l.rungs.len();
    let base_name = base.strategy.name();
    let mut chart = ChartBuilder::on(panel)
        .margin(8)
        .margin_right(70)
        .x_label_area_size(44)
        .y_label_area_size(150)
        .build_cartesian_2d(x.clone().log_scale(), 0f64..n as f64)?;
    super::parts::row_mesh(&mut chart, &format!(
            "ratio against {base_name} (log scale; higher = better)"
        ), |r| format!("×{}", trim(r)), tick_font())?;
    draw_bars(panel, &mut chart, &rows, n)?;
    rung_labels(panel, &mut chart, l, x)
}

/// Each rung's three bars, their whiskers and their values.
fn draw_bars<'a, DB: DrawingBackend + 'a>(
    panel: &DrawingArea<DB, Shift>,
    chart: &mut Plot<'a, DB>,
    rows: &[LadderBars],
    n: usize,
) -> DrawResult<DB> {
    // Row r (0 = base, at the top) occupies [n-1-r, n-r].
    for (i, &(_, col)) in LADDER_BARS.iter().enumerate() {
        let bars: Vec<(f64, Option<Interval>, f64, f64)> = rows
            .iter()
            .enumerate()
            .map(|(k, row)| {
                let (v, ci) = row.bars[i];
                let top = (n - 1 - k) as f64 - 0.1 - 0.27 * i as f64;
                (v, ci, top, top - 0.22)
            })
            .collect();
        chart.draw_series(bars.iter().map(|&(v, _, top, bottom)| {
            Rectangle::new(
                [(1.0_f64.min(v), top), (1.0_f64.max(v), bottom)],
                col.filled(),
            )
        }))?;
        let cis: Vec<(f64, Interval)> = bars
            .iter()
            .filter_map(|&(_, ci, top, bottom)| ci.map(|ci| ((top + bottom) / 2.0, ci)))
            .collect();
        whiskers(chart, &cis, true, 5, WHISKER.stroke_width(1))?;
        for &(v, ci, top, bottom) in &bars {
            let right = v >= 1.0;
            // The label sits past the bar and its whisker.
            let end = match ci {
                Some(ci) if right => v.max(ci.high),
                Some(ci) => v.min(ci.low),
                None => v,
            };
            let (px, py) = chart.backend_coord(&(end, (top + bottom) / 2.0));
            text_at(
                panel,
                fmt_ratio(v),
                (if right { px + 6 } else { px - 6 }, py),
                tick_font(),
                Pos::new(if right { HPos::Left } else { HPos::Right }, VPos::Center),
            )?;
        }
    }
    Ok(())
}

/// The rungs' names and times left of the axis, the base's time beside ×1.
fn rung_labels<'a, DB: DrawingBackend + 'a>(
    panel: &DrawingArea<DB, Shift>,
    chart: &mut Plot<'a, DB>,
    l: &Ladder,
    x: &std::ops::Range<f64>,
) -> DrawResult<DB> {
    let n = l.rungs.len();
    chart.draw_series(LineSeries::new(
        [(1.0, 0.0), (1.0, n as f64)],
        TEXT.stroke_width(1),
    ))?;
    for (r, rung) in l.rungs.iter().enumerate() {
        let mid = (n - r) as f64 - 0.5;
        let (px, py) = chart.backend_coord(&(x.start, mid));
        text_at(
            panel,
            rung.strategy.name().to_string(),
            (px - 12, py - 9),
            label_font(),
            Pos::new(HPos::Right, VPos::Center),
        )?;
        let note = if r == 0 {
            "baseline".to_string()
        } else {
            format!("{} per puzzle", fmt_time(rung.time()))
        };
        text_at(
            panel,
            note,
            (px - 12, py + 11),
            note_font(),
            Pos::new(HPos::Right, VPos::Center),
        )?;
        if r == 0 {
            let (bx, by) = chart.backend_coord(&(1.0, mid));
            text_at(
                panel,
                format!("{} per puzzle (geometric mean)", fmt_time(rung.time())),
                (bx + 8, by),
                note_font(),
                Pos::new(HPos::Left, VPos::Center),
            )?;
        }
    }
    Ok(())
}

