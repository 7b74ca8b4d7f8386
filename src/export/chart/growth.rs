//! The growth chart (`growth.svg`/`.png`): median time and nodes against
//! board size over the puzzles in the same band of cells given
//! (`FILL_BAND`), and per size the median time by share of cells given.

use plotters::coord::Shift;
use plotters::coord::combinators::LogCoord;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::export::chart::crisp::{glyphs, text_width};
use crate::export::chart::parts::{
    decades_with_room, dot, legend_row, strategy_items, subtitle, text_at, text_lines, whiskers,
};
use super::{
    Chart, DrawResult, FAINT, GRID, GROWTH, NOTE_SIZE, decade_label, label_font, note_font,
    rung_color as color, tick_font, title_font,
};
use crate::base::strategy::Strategy;
use crate::analysis::charts::{
    ChartData, FILL_BAND, FILL_BIN_PERCENT, FillPanel, Growth, SizePoint,
};
use crate::export::present::{budget_phrase, fmt_count, fmt_time, size_name};
use crate::measure::stats::Interval;

/// The chart of a report's data.
pub fn new(d: &ChartData) -> Option<impl Chart + '_> {
    Some(GrowthChart(d))
}

struct GrowthChart<'a>(&'a ChartData);

impl GrowthChart<'_> {
    const TOP: u32 = 470;
    const PANEL: u32 = 400;
    fn lower_rows(&self) -> u32 {
        self.0.growth.by_fill.len().div_ceil(2) as u32
    }
}

/// Strategies that hit the budget on at least one run of a size point,
/// per size: "25×25: naive 5/5, blank-list 5/5".
fn stopped_notes(points: &[SizePoint]) -> Vec<String> {
    let mut sides: Vec<u32> = points
        .iter()
        .filter(|p| p.stopped > 0)
        .map(|p| p.side)
        .collect();
    sides.sort_unstable();
    sides.dedup();
    sides
        .into_iter()
        .map(|side| {
            let list: Vec<String> = points
                .iter()
                .filter(|p| p.side == side && p.stopped > 0)
                .map(|p| format!("{} {}/{}", p.strategy.name(), p.stopped, p.runs))
                .collect();
            format!("{}: {}", size_name(side), list.join(", "))
        })
        .collect()
}

/// `first` then `items` joined by "; ", broken into lines no wider than
/// `width` pixels (an item wider than a line gets a line of its own).
fn wrap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    font: &TextStyle<'static>,
    first: &str,
    items: &[String],
    width: u32,
) -> Result<Vec<String>, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut lines = Vec::new();
    let mut line = first.to_string();
    let mut fresh = true;
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item};")
        } else {
            item.clone()
        };
        let candidate = if fresh {
            format!("{line}{piece}")
        } else {
            format!("{line} {piece}")
        };
        if !fresh && area.estimate_text_size(&candidate, font)?.0 > width {
            lines.push(line);
            line = piece;
        } else {
            line = candidate;
        }
        fresh = false;
    }
    lines.push(line);
    Ok(lines)
}

impl Chart for GrowthChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1400, 200 + Self::TOP + self.lower_rows() * Self::PANEL)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        let g = &d.growth;
        let area = root.titled(GROWTH.title, title_font())?;
        let area = subtitle(
            &area,
            &format!(
                "medians over the runs of puzzles with a solution ({} without one left out); whiskers: 95% intervals of the median times; hollow marker = some runs stopped at {} (the median may be a lower bound; lines to it are dashed)",
                g.no_solution,
                budget_phrase(d.budget)
            ),
        )?;
        let area = legend_row(&area, &strategy_items(&d.strategies))?;
        let (top, bottom) = area.split_vertically(Self::TOP);
        let (band_area, notes_area) = top.split_vertically(Self::TOP - 50);
        let halves = band_area.split_evenly((1, 2));
        let band = format!(
            "{:.0}–{:.0}% of cells given",
            FILL_BAND.0 * 100.0,
            FILL_BAND.1 * 100.0
        );
        let sides: Vec<(u32, u64)> = g.band.clone();
        for (k, half) in halves.iter().enumerate() {
            let is_time = k == 0;
            let caption = if is_time {
                format!("median time vs board size, puzzles with {band}")
            } else {
                format!("median nodes vs board size, {band} (same-order rungs overlap)")
            };
            size_panel(half, &caption, d, &sides, is_time)?;
        }
        band_notes(&notes_area, g)?;
        let rows = self.lower_rows() as usize;
        if rows > 0 {
            let cells = bottom.split_evenly((rows, 2));
            for (cell, panel) in cells.iter().zip(&g.by_fill) {
                fill_panel(cell, d, panel)?;
            }
        }
        Ok(())
    }
}

/// Median time or nodes per strategy at each board size, sizes as
/// categories (with their puzzle counts), joined by lines.
fn size_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    caption: &str,
    d: &ChartData,
    sides: &[(u32, u64)],
    is_time: bool,
) -> DrawResult<DB> {
    // Time points carry their medians' 95% intervals (whiskers).
    let y = decades_with_room(
        d.growth.by_size.iter().flat_map(|p| span(measure(p, is_time), whisker(p, is_time))),
    );
    let k = sides.len().max(1);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, label_font())
        .margin(14)
        .margin_right(30)
        .x_label_area_size(50)
        .y_label_area_size(84)
        .build_cartesian_2d(-0.5f64..k as f64 - 0.5, y.log_scale())?;
    let labels: Vec<String> = sides
        .iter()
        .map(|&(s, n)| format!("{} (n={n})", size_name(s)))
        .collect();
    let fmt_x = move |v: &f64| {
        let r = v.round();
        if (v - r).abs() > 1e-6 || r < 0.0 {
            return String::new();
        }
        labels.get(r as usize).cloned().unwrap_or_default()
    };
    let mut mesh = chart.configure_mesh();
    mesh.light_line_style(FAINT)
        .bold_line_style(GRID)
        .disable_x_mesh()
        .x_labels(k + 2)
        .x_label_formatter(&fmt_x)
        .x_desc("board size (puzzles in the band)")
        .y_desc(if is_time {
            "median time per solve"
        } else {
            "median nodes"
        })
        .label_style(tick_font())
        .axis_desc_style(tick_font());
    let figure: fn(f64) -> String = if is_time { fmt_time } else { fmt_count };
    mesh.y_label_formatter(&|v| decade_label(*v, figure)).draw()?;
    size_lines(&mut chart, d, sides, is_time)
}

/// One size: median time per strategy in each fill bin, as points (dodged
/// sideways by strategy), never joined across bins; n above each bin.
fn fill_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    d: &ChartData,
    p: &FillPanel,
) -> DrawResult<DB> {
    let width = f64::from(FILL_BIN_PERCENT);
    let lo = p.bins.first().map_or(0, |b| b.0) as f64 * width;
    let hi = (p.bins.last().map_or(0, |b| b.0) + 1) as f64 * width;
    let y = decades_with_room(p.points.iter().flat_map(|q| span(q.median_nanos, q.nanos_interval)));
    // The caption, then a strip for the puzzle counts (drawn by hand: a
    // top label area would get a second set of axis labels).
    let (head, body) = area.split_vertically(34);
    let (w, _) = head.dim_in_pixel();
    head.draw(&Text::new(
        format!("{}: median time by share of cells given", size_name(p.side)),
        (w as i32 / 2, 22),
        label_font().pos(Pos::new(HPos::Center, VPos::Center)),
    ))?;
    let mut chart = ChartBuilder::on(&body)
        .margin(14)
        .margin_top(FILL_COUNTS)
        .margin_right(30)
        .x_label_area_size(46)
        .y_label_area_size(84)
        .build_cartesian_2d(lo..hi, y.clone().log_scale())?;
    chart
        .configure_mesh()
        .light_line_style(FAINT)
        .bold_line_style(GRID)
        .x_labels(((hi - lo) / width) as usize + 1)
        .x_label_formatter(&|v| format!("{v:.0}%"))
        .x_desc(format!(
            "cells given ({FILL_BIN_PERCENT}-point bins; the number above a bin: puzzles in it)"
        ))
        .y_desc("median time per solve")
        .y_label_formatter(&|v| decade_label(*v, fmt_time))
        .label_style(tick_font())
        .axis_desc_style(tick_font())
        .draw()?;
    let ns = d.strategies.len().max(1) as f64;
    let x_of = |bin: u32, s: Strategy| {
        let k = d.strategies.iter().position(|&x| x == s).unwrap_or(0) as f64;
        (f64::from(bin) + 0.2 + 0.6 * (k + 0.5) / ns) * width
    };
    for q in &p.points {
        let col = color(q.strategy);
        let at = (x_of(q.bin, q.strategy), q.median_nanos);
        if let Some(i) = q.nanos_interval {
            whiskers(&mut chart, &[(at.0, i)], false, 3, col.stroke_width(1))?;
        }
        chart.draw_series(dot(at, 4, col, q.stopped > 0))?;
    }
    fill_counts(area, &chart, p, lo, y.end)
}

/// Height of the strip above a fill panel that holds the puzzle counts.
const FILL_COUNTS: u32 = 38;

/// The line under the upper panels: who stopped at the budget in the band.
fn band_notes<DB: DrawingBackend>(
    notes_area: &DrawingArea<DB, Shift>,
    g: &Growth,
) -> DrawResult<DB> {
    let notes = stopped_notes(&g.by_size);
    let lines = if notes.is_empty() {
        vec!["every run in the band finished within the budget".to_string()]
    } else {
        let (w, _) = notes_area.dim_in_pixel();
        wrap(
            notes_area,
            &note_font(),
            "stopped at the budget in the band: ",
            &notes,
            w.saturating_sub(60),
        )?
    };
    let lines: Vec<(String, TextStyle<'static>)> =
        lines.into_iter().map(|l| (l, note_font())).collect();
    text_lines(notes_area, &lines, 30)?;
    Ok(())
}

/// A panel's plot: sizes as categories, or the share of cells given, on
/// x; time or nodes on a log y axis.
type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, LogCoord<f64>>>;

/// Each strategy's medians across the sizes, joined by lines (dashed to a
/// point with stopped runs), with whiskers; hollow where runs stopped.
fn size_lines<'a, DB: DrawingBackend + 'a>(
    chart: &mut Plot<'a, DB>,
    d: &ChartData,
    sides: &[(u32, u64)],
    is_time: bool,
) -> DrawResult<DB> {
    let value = |p: &SizePoint| measure(p, is_time);
    let index = |side: u32| sides.iter().position(|&(s, _)| s == side).unwrap_or(0) as f64;
    for &s in &d.strategies {
        let col = color(s);
        let mine: Vec<&SizePoint> = d.growth.by_size.iter().filter(|p| p.strategy == s).collect();
        if mine.is_empty() {
            continue;
        }
        // Segments to or from a point with stopped runs are dashed: that
        // median may be a lower bound, so the slope is too.
        for w in mine.windows(2) {
            let ends = [
                (index(w[0].side), value(w[0])),
                (index(w[1].side), value(w[1])),
            ];
            if w[0].stopped > 0 || w[1].stopped > 0 {
                chart.draw_series(DashedLineSeries::new(ends, 6, 4, col.stroke_width(2)))?;
            } else {
                chart.draw_series(LineSeries::new(ends, col.stroke_width(2)))?;
            }
        }
        let cis: Vec<(f64, Interval)> = mine
            .iter()
            .filter_map(|p| whisker(p, is_time).map(|i| (index(p.side), i)))
            .collect();
        whiskers(chart, &cis, false, 5, col.stroke_width(1))?;
        chart.draw_series(mine.iter().map(|p| {
            let style = if p.stopped > 0 {
                WHITE.filled()
            } else {
                col.filled()
            };
            Circle::new((index(p.side), value(p)), 5, style)
        }))?;
        chart.draw_series(
            mine.iter()
                .filter(|p| p.stopped > 0)
                .map(|p| Circle::new((index(p.side), value(p)), 5, col.stroke_width(2))),
        )?;
    }
    Ok(())
}

/// The puzzle count of each bin, in the strip above a fill panel's plot.
fn fill_counts<'a, DB: DrawingBackend + 'a>(
    area: &DrawingArea<DB, Shift>,
    chart: &Plot<'a, DB>,
    p: &FillPanel,
    lo: f64,
    top: f64,
) -> DrawResult<DB> {
    let width = f64::from(FILL_BIN_PERCENT);
    // Puzzle counts in the strip above the plot, off the data; where a
    // count is wider than its bin, neighbours alternate between two rows.
    let bin_px = {
        let (a, _) = chart.backend_coord(&(lo, top));
        let (b, _) = chart.backend_coord(&(lo + width, top));
        (b - a).max(1)
    };
    let widest = p
        .bins
        .iter()
        .map(|&(_, n)| glyphs().map_or(0.0, |f| text_width(f, NOTE_SIZE, &n.to_string())))
        .fold(0.0f32, f32::max);
    let stagger = widest + 4.0 > bin_px as f32;
    for &(bin, n) in &p.bins {
        let (px, top) = chart.backend_coord(&((f64::from(bin) + 0.5) * width, top));
        let row = if stagger { (bin % 2) as i32 } else { 0 };
        text_at(
            area,
            n.to_string(),
            (px, top - 4 - row * 16),
            note_font(),
            Pos::new(HPos::Center, VPos::Bottom),
        )?;
    }
    Ok(())
}

/// The figure a size panel plots: the median time, or the median nodes.
fn measure(p: &SizePoint, is_time: bool) -> f64 {
    if is_time { p.median_nanos } else { p.median_nodes }
}

/// Its 95% interval, when it has one (times only: node counts are exact).
fn whisker(p: &SizePoint, is_time: bool) -> Option<Interval> {
    if is_time { p.nanos_interval } else { None }
}

/// A figure and the ends of its interval, for the range of an axis.
fn span(v: f64, i: Option<Interval>) -> [f64; 3] {
    [v, i.map_or(v, |i| i.low), i.map_or(v, |i| i.high)]
}
