//! Pieces every chart draws with: the note under a title, rows of text, a
//! legend row or box, panels, text at a pixel, the empty-chart message,
//! 95% interval whiskers, and log ranges with room for markers.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    DrawResult, FAINT, GRID, MUTED, NOTE_SIZE, TEXT, decade_label, decades, label_font, note_font,
    rung_color, tick_font,
};
use crate::base::strategy::Strategy;
use crate::export::chart::crisp::fit_words;
use crate::measure::stats::Interval;

/// What drawing a sub-area returns: the area left below what was drawn.
type AreaResult<DB> =
    Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// [`decades`], with a decade more at an end that a value comes within a
/// tenth of a decade of: markers there would be cut by the frame.
pub(crate) fn decades_with_room(values: impl Iterator<Item = f64> + Clone) -> std::ops::Range<f64> {
    let r = decades(values.clone());
    let finite = || values.clone().filter(|v| v.is_finite() && *v > 0.0);
    let near = |a: f64, b: f64| (a.log10() - b.log10()).abs() < 0.1;
    let lo = if finite().any(|v| near(v, r.start)) {
        r.start / 10.0
    } else {
        r.start
    };
    let hi = if finite().any(|v| near(v, r.end)) {
        r.end * 10.0
    } else {
        r.end
    };
    lo..hi
}

/// A centred note under the title, broken into lines that fit the width.
pub(crate) fn subtitle<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    text: &str,
) -> AreaResult<DB> {
    let (w, _) = root.dim_in_pixel();
    let lines = fit_words(text, NOTE_SIZE, w.saturating_sub(40) as f32);
    for (k, line) in lines.iter().enumerate() {
        root.draw(&Text::new(
            line.clone(),
            (w as i32 / 2, 4 + 18 * k as i32),
            note_font().pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
    }
    Ok(root.margin(26 + 18 * (lines.len() as u32).saturating_sub(1), 0, 0, 0))
}

/// Left-aligned lines of text at the top of `area`; returns the area below.
pub(crate) fn text_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    lines: &[(String, TextStyle<'static>)],
    left: i32,
) -> AreaResult<DB> {
    let mut y = 4;
    for (text, font) in lines {
        area.draw(&Text::new(
            text.clone(),
            (left, y),
            font.pos(Pos::new(HPos::Left, VPos::Top)),
        ))?;
        y += 22;
    }
    Ok(area.margin(y + 2, 0, 0, 0))
}

/// A centred row of colour swatches and labels (used where an inside legend
/// would cover data); returns the area below it.
pub(crate) fn legend_row<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[(&str, RGBColor)],
) -> AreaResult<DB> {
    let font = tick_font();
    let widths: Vec<i32> = items
        .iter()
        .map(|(t, _)| area.estimate_text_size(t, &font).map(|(w, _)| w as i32))
        .collect::<Result<_, _>>()?;
    let total: i32 = widths.iter().map(|w| w + 18 + 28).sum::<i32>() - 28;
    let (w, _) = area.dim_in_pixel();
    let mut x = (w as i32 - total) / 2;
    for ((text, col), tw) in items.iter().zip(widths) {
        area.draw(&Rectangle::new([(x, 6), (x + 12, 18)], col.filled()))?;
        area.draw(&Text::new(
            text.to_string(),
            (x + 18, 12),
            font.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        x += tw + 18 + 28;
    }
    Ok(area.margin(26, 0, 0, 0))
}

pub(crate) fn legend_box<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    pos: SeriesLabelPosition,
) -> DrawResult<DB> {
    chart
        .configure_series_labels()
        .position(pos)
        .background_style(WHITE.mix(0.92))
        .border_style(MUTED)
        .label_font(tick_font())
        .draw()
}

/// Legend items for every strategy that ran, in ladder order.
pub(crate) fn strategy_items(strategies: &[Strategy]) -> Vec<(&'static str, RGBColor)> {
    strategies
        .iter()
        .map(|&s| (s.name(), rung_color(s)))
        .collect()
}

/// Splits `area` into `n` panels: one row for up to two, else two columns.
pub(crate) fn panels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    n: usize,
) -> Vec<DrawingArea<DB, Shift>> {
    match n {
        0 => Vec::new(),
        1 => vec![area.clone()],
        2 => area.split_evenly((1, 2)),
        _ => area.split_evenly((n.div_ceil(2), 2)),
    }
}

/// Draws text at an absolute backend position (as `backend_coord` gives),
/// on any area: areas draw relative to their own corner.
pub(crate) fn text_at<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: String,
    (x, y): (i32, i32),
    style: TextStyle<'static>,
    pos: Pos,
) -> DrawResult<DB> {
    let (bx, by) = area.get_base_pixel();
    area.draw(&Text::new(text, (x - bx, y - by), style.pos(pos)))
}

/// Width in pixels of the widest of `labels` in the tick font (60 for none).
pub(crate) fn widest<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    labels: &[String],
) -> Result<u32, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut widest = None;
    for l in labels {
        let w = area.estimate_text_size(l, &tick_font())?.0;
        widest = Some(widest.map_or(w, |m: u32| m.max(w)));
    }
    Ok(widest.unwrap_or(60))
}

/// A message in the middle of an empty chart.
pub fn nothing<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, text: &str) -> DrawResult<DB> {
    let (w, h) = area.dim_in_pixel();
    area.draw(&Text::new(
        text.to_string(),
        (w as i32 / 2, h as i32 / 2),
        label_font().pos(Pos::new(HPos::Center, VPos::Center)),
    ))
}

/// A round marker: filled, or hollow (white, ringed) where its figure is a
/// lower bound or includes estimates.
pub(crate) fn dot(
    at: (f64, f64),
    r: i32,
    col: RGBColor,
    hollow: bool,
) -> Vec<Circle<(f64, f64), i32>> {
    if hollow {
        vec![
            Circle::new(at, r, WHITE.filled()),
            Circle::new(at, r, col.stroke_width(2)),
        ]
    } else {
        vec![Circle::new(at, r, col.filled())]
    }
}

/// Colour of the whiskers of 95% intervals drawn over coloured marks.
pub(crate) const WHISKER: RGBColor = TEXT;

/// Draws 95% interval whiskers: a line from `low` to `high` (along x when
/// `along_x`, else along y) at `at` on the other axis, with end caps `cap`
/// pixels to each side.
pub(crate) fn whiskers<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    items: &[(f64, Interval)],
    along_x: bool,
    cap: i32,
    style: ShapeStyle,
) -> DrawResult<DB>
where
    DB: DrawingBackend + 'a,
    CT: plotters::coord::CoordTranslate<From = (f64, f64)>,
{
    let point = |along: f64, at: f64| if along_x { (along, at) } else { (at, along) };
    let tick = if along_x {
        [(0, -cap), (0, cap)]
    } else {
        [(-cap, 0), (cap, 0)]
    };
    chart.draw_series(
        items
            .iter()
            .map(|&(at, i)| PathElement::new([point(i.low, at), point(i.high, at)], style)),
    )?;
    chart.draw_series(items.iter().flat_map(|&(at, i)| {
        [i.low, i.high].map(|end| EmptyElement::at(point(end, at)) + PathElement::new(tick, style))
    }))?;
    Ok(())
}

/// The mesh of a chart whose rows are names (no y labels, no y grid) and
/// whose x axis is a log scale described by `desc`, its decades labelled by
/// `fmt` and the description set in `desc_style`: the programs,
/// time-by-dataset, full-set and ladder charts.
pub(crate) fn row_mesh<DB: DrawingBackend>(
    chart: &mut ChartContext<
        '_,
        DB,
        Cartesian2d<
            plotters::coord::combinators::LogCoord<f64>,
            plotters::coord::types::RangedCoordf64,
        >,
    >,
    desc: &str,
    fmt: fn(f64) -> String,
    desc_style: TextStyle<'_>,
) -> DrawResult<DB> {
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(FAINT)
        .bold_line_style(GRID)
        .y_labels(0)
        .y_label_formatter(&|_| String::new())
        .x_label_formatter(&|v| decade_label(*v, fmt))
        .x_desc(desc)
        .label_style(tick_font())
        .axis_desc_style(desc_style)
        .draw()
}
