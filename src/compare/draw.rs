//! Drawing the five charts with plotters, each as SVG text and PNG bytes.
//!
//! Text in PNGs is rendered with the DejaVu Sans font embedded in the binary
//! (`assets/`): no system font library is needed at build or run time. The
//! PNG backend lays text out itself, glyph by glyph (`Crisp`): plotters
//! 0.3.7 drops each glyph's side bearing and rounds the pen position, which
//! turned "cl" into "d" and swallowed spaces. SVG text names `sans-serif`
//! and is laid out by the viewer.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use anyhow::anyhow;
use plotters::coord::Shift;
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
// Backend traits by path only: `BackendStyle::stroke_width` in scope would
// clash with plotters' `Color::stroke_width`.
use plotters_backend::{BackendColor, BackendCoord, DrawingErrorKind};

use super::charts::{
    CdfPanel, ChartData, FILL_BAND, FILL_BIN_PERCENT, FillPanel, SizePoint, ladder_bars,
};
use super::summary::Ladder;
use crate::Strategy;
use crate::stats::Interval;

pub(super) use crate::chart::FONT;
use crate::chart::TEXT;
use crate::chart::{FAINT, GRID, MUTED};
use crate::chart::{
    FONT_BYTES, decade_label, decades, encode_png, label_font, tick_font, title_font,
};

/// Registers the embedded font as plotters' `sans-serif`, once per process.
/// Must run before any text is measured, for SVG as well as PNG.
///
/// Public because the lab turns on plotters' `ab_glyph` feature, and Cargo
/// unifies it into every plotters user in the build: criterion's plots too
/// ask for `sans-serif`, and without this they fail with `FontUnavailable`
/// (the benches call it before criterion draws).
pub fn register_font() -> anyhow::Result<()> {
    crate::chart::register_font()?;
    if glyphs().is_some() {
        Ok(())
    } else {
        Err(anyhow!(
            "the embedded font assets/DejaVuSans.ttf is not a valid font"
        ))
    }
}

/// The embedded font, parsed once, for the PNG text layout.
fn glyphs() -> Option<&'static FontRef<'static>> {
    static FONT_REF: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    FONT_REF
        .get_or_init(|| FontRef::try_from_slice(FONT_BYTES).ok())
        .as_ref()
}

/// Width of `text` at `size` pixels: advances plus kerning, as drawn.
fn text_width(font: &FontRef<'static>, size: f64, text: &str) -> f32 {
    let f = font.as_scaled(PxScale::from(size as f32));
    let mut x = 0.0;
    let mut prev = None;
    for c in text.chars() {
        let id = f.glyph_id(c);
        if let Some(p) = prev {
            x += f.kern(p, id);
        }
        x += f.h_advance(id);
        prev = Some(id);
    }
    x
}

/// A bitmap backend that draws text correctly; everything else goes to
/// plotters' bitmap backend unchanged. Glyphs are placed at the exact
/// (fractional) pen position, with their side bearings and kerning; the
/// text box is `width × size` with the baseline at the font's ascent.
struct Crisp<'a>(BitMapBackend<'a>);

type CrispError<'a> = DrawingErrorKind<<BitMapBackend<'a> as DrawingBackend>::ErrorType>;

impl<'a> DrawingBackend for Crisp<'a> {
    type ErrorType = <BitMapBackend<'a> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), CrispError<'a>> {
        self.0.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), CrispError<'a>> {
        self.0.present()
    }
    fn draw_pixel(&mut self, p: BackendCoord, c: BackendColor) -> Result<(), CrispError<'a>> {
        self.0.draw_pixel(p, c)
    }
    fn draw_line<S: plotters_backend::BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), CrispError<'a>> {
        self.0.draw_line(from, to, style)
    }
    fn draw_rect<S: plotters_backend::BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), CrispError<'a>> {
        self.0.draw_rect(a, b, style, fill)
    }
    fn draw_path<S: plotters_backend::BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), CrispError<'a>> {
        self.0.draw_path(path, style)
    }
    fn draw_circle<S: plotters_backend::BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), CrispError<'a>> {
        self.0.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: plotters_backend::BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), CrispError<'a>> {
        self.0.fill_polygon(vert, style)
    }
    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        (w, h): (u32, u32),
        src: &[u8],
    ) -> Result<(), CrispError<'a>> {
        self.0.blit_bitmap(pos, (w, h), src)
    }

    fn estimate_text_size<TStyle: plotters_backend::BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), CrispError<'a>> {
        match glyphs() {
            Some(font) => Ok((
                text_width(font, style.size(), text).ceil() as u32,
                style.size().round() as u32,
            )),
            None => self.0.estimate_text_size(text, style),
        }
    }

    fn draw_text<TStyle: plotters_backend::BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Result<(), CrispError<'a>> {
        let Some(font) = glyphs() else {
            return self.0.draw_text(text, style, pos);
        };
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let size = style.size();
        let f = font.as_scaled(PxScale::from(size as f32));
        let width = text_width(font, size, text);
        let anchor = style.anchor();
        let dx = match anchor.h_pos {
            HPos::Left => 0.0,
            HPos::Center => -width / 2.0,
            HPos::Right => -width,
        };
        let dy = match anchor.v_pos {
            VPos::Top => 0.0,
            VPos::Center => -(size as f32) / 2.0,
            VPos::Bottom => -(size as f32),
        };
        let trans = style.transform();
        let mut pen = dx;
        let mut prev = None;
        for c in text.chars() {
            let id = f.glyph_id(c);
            if let Some(p) = prev {
                pen += f.kern(p, id);
            }
            let glyph = id.with_scale_and_position(f.scale(), point(pen, dy + f.ascent()));
            if let Some(outline) = font.outline_glyph(glyph) {
                let b = outline.px_bounds();
                let mut result = Ok(());
                outline.draw(|gx, gy, coverage| {
                    if result.is_err() || coverage <= 0.0 {
                        return;
                    }
                    let (x, y) =
                        trans.transform(b.min.x as i32 + gx as i32, b.min.y as i32 + gy as i32);
                    result = self.0.draw_pixel(
                        (pos.0 + x, pos.1 + y),
                        BackendColor {
                            alpha: color.alpha * f64::from(coverage.min(1.0)),
                            rgb: color.rgb,
                        },
                    );
                });
                result?;
            }
            pen += f.h_advance(id);
            prev = Some(id);
        }
        Ok(())
    }
}

/// One chart rendered both ways.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// File stem, e.g. `ladder` (written as `ladder.svg` and `ladder.png`).
    pub stem: &'static str,
    pub title: &'static str,
    pub svg: String,
    pub png: Vec<u8>,
}

/// The charts, in report order: (file stem, title).
pub const CHARTS: [(&str, &str); 5] = [
    (
        "ladder",
        "The ladder of each board size: speed-up = fewer nodes × cheaper nodes",
    ),
    (
        "nodes-distribution",
        "Nodes per puzzle, by board size: share of puzzles finished within N nodes",
    ),
    ("nodes-vs-time", "Nodes against time, one point per run"),
    (
        "growth",
        "Growth with board size, and with the share of cells given",
    ),
    (
        "time-by-dataset",
        "Solve time per puzzle, by dataset and strategy",
    ),
];

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;
type AreaResult<DB> =
    Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Tableau-10: distinguishable, colour-blind-friendlier than primaries.
/// A strategy's colour (by name: [`crate::chart::rung_color`]).
pub fn color(s: Strategy) -> RGBColor {
    crate::chart::rung_color(s)
}

const DIAGONAL: RGBColor = RGBColor(0xBB, 0xBB, 0xBB);

/// `1.5 µs`, `20 ms`: times in nanoseconds.
pub fn fmt_time(ns: f64) -> String {
    scaled(ns, &[(1.0, " ns"), (1e3, " µs"), (1e6, " ms"), (1e9, " s")])
}

/// `1`, `250`, `10k`, `3M`: counts.
pub fn fmt_count(n: f64) -> String {
    scaled(n, &[(1.0, ""), (1e3, "k"), (1e6, "M"), (1e9, "G")])
}

/// `x` in the largest unit it reaches, with three significant digits; a
/// value that rounds up to 1000 of a unit is shown as 1 of the next.
fn scaled(x: f64, units: &[(f64, &str)]) -> String {
    let mut k = units.iter().rposition(|&(f, _)| x >= f).unwrap_or(0);
    if trim(x / units[k].0) == "1000" && k + 1 < units.len() {
        k += 1;
    }
    format!("{}{}", trim(x / units[k].0), units[k].1)
}

/// Decimals a figure `x` (in its display unit) gets beside its interval
/// of half-width `hw`: down to the half-width's first significant digit
/// (the precision the interval supports), never more than the three
/// significant digits a figure without interval gets.
fn ci_decimals(x: f64, hw: f64) -> usize {
    let max = if x >= 100.0 {
        0
    } else if x >= 10.0 {
        1
    } else {
        2
    };
    if hw.is_nan() || hw <= 1e-9 * x.abs() {
        return max;
    }
    ((-hw.log10().floor()).max(0.0) as usize).min(max)
}

/// `×6.0 [5.6, 6.4]`: a ratio with its 95% interval, to the precision the
/// interval supports; `×6.00 [n/a]` without one.
pub fn fmt_ratio_ci(r: f64, ci: Option<Interval>) -> String {
    match ci {
        None => format!("{} [n/a]", fmt_ratio(r)),
        Some(i) => {
            let d = ci_decimals(r, (i.high - i.low) / 2.0);
            format!("×{r:.d$} [{:.d$}, {:.d$}]", i.low, i.high)
        }
    }
}

/// `13400 [12900, 14000]`: a plain figure (a rate, microseconds) with its
/// 95% interval, to the precision the interval supports (at most about
/// three significant digits); `13400 [n/a]` without one.
pub fn fmt_value_ci(x: f64, ci: Option<Interval>) -> String {
    let max = if x.abs() >= 100.0 {
        0
    } else if x.abs() >= 10.0 {
        1
    } else if x.abs() >= 1.0 {
        2
    } else {
        3
    };
    let Some(i) = ci else {
        return format!("{x:.max$} [n/a]");
    };
    let hw = (i.high - i.low) / 2.0;
    let d = if hw.is_nan() || hw <= 1e-9 * x.abs() {
        max
    } else {
        ((-hw.log10().floor()).max(0.0) as usize).min(max)
    };
    format!("{x:.d$} [{:.d$}, {:.d$}]", i.low, i.high)
}

/// `1.2 ms [1.1, 1.4]`: a time (ns) with its 95% interval, in the unit
/// of the time, to the precision the interval supports; `1.23 ms [n/a]`
/// without one.
pub fn fmt_time_ci(ns: f64, ci: Option<Interval>) -> String {
    let Some(i) = ci else {
        return format!("{} [n/a]", fmt_time(ns));
    };
    let units = [(1.0, " ns"), (1e3, " µs"), (1e6, " ms"), (1e9, " s")];
    let mut k = units.iter().rposition(|&(f, _)| ns >= f).unwrap_or(0);
    if trim(ns / units[k].0) == "1000" && k + 1 < units.len() {
        k += 1;
    }
    let (u, name) = units[k];
    if i.high - i.low <= 1e-9 * ns.abs() {
        // No spread (but rounding): the figure as it reads without one.
        return format!(
            "{}{name} [{}, {}]",
            trim(ns / u),
            trim(i.low / u),
            trim(i.high / u)
        );
    }
    let d = ci_decimals(ns / u, (i.high - i.low) / 2.0 / u);
    format!(
        "{:.d$}{name} [{:.d$}, {:.d$}]",
        ns / u,
        i.low / u,
        i.high / u
    )
}

/// `×3.2`, `×0.45`, `×120`: ratios.
pub fn fmt_ratio(r: f64) -> String {
    if r >= 100.0 {
        format!("×{r:.0}")
    } else if r >= 10.0 {
        format!("×{r:.1}")
    } else {
        format!("×{r:.2}")
    }
}

/// `9×9`: a board size.
pub fn size_name(side: u32) -> String {
    format!("{side}×{side}")
}

/// At most three significant digits, no trailing zeros.
fn trim(v: f64) -> String {
    let s = if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    };
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// [`decades`], with a decade more at an end that a value comes within a
/// tenth of a decade of: markers there would be cut by the frame.
fn decades_with_room(values: impl Iterator<Item = f64> + Clone) -> std::ops::Range<f64> {
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

/// Pixel size of [`note_font`].
const NOTE_SIZE: f64 = 14.0;
fn note_font() -> TextStyle<'static> {
    (FONT, NOTE_SIZE).into_font().color(&MUTED)
}

/// A chart that can draw itself on any plotters backend.
pub(super) trait Draw {
    fn size(&self) -> (u32, u32);
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB>;
}

pub(super) fn render(
    stem: &'static str,
    title: &'static str,
    chart: &impl Draw,
) -> anyhow::Result<Rendered> {
    register_font()?;
    let (w, h) = chart.size();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        chart
            .draw(&root)
            .and_then(|()| root.present())
            .map_err(|e| anyhow!("cannot draw {stem}.svg: {e}"))?;
    }
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    {
        let root = Crisp(BitMapBackend::with_buffer(&mut rgb, (w, h))).into_drawing_area();
        chart
            .draw(&root)
            .and_then(|()| root.present())
            .map_err(|e| anyhow!("cannot draw {stem}.png: {e}"))?;
    }
    let png = encode_png(&rgb, w, h)?;
    Ok(Rendered {
        stem,
        title,
        svg,
        png,
    })
}

/// Draws all five charts.
pub fn render_all(data: &ChartData) -> anyhow::Result<Vec<Rendered>> {
    let [c1, c2, c3, c4, c5] = CHARTS;
    Ok(vec![
        render(c1.0, c1.1, &LadderChart(data))?,
        render(c2.0, c2.1, &CdfChart(data))?,
        render(c3.0, c3.1, &ScatterChart(data))?,
        render(c4.0, c4.1, &GrowthChart(data))?,
        render(c5.0, c5.1, &TimeChart(data))?,
    ])
}

/// A centred note under the title, broken into lines that fit the width.
pub(super) fn subtitle<DB: DrawingBackend>(
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
fn text_lines<DB: DrawingBackend>(
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
fn legend_row<DB: DrawingBackend>(
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

fn legend_box<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
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
fn strategy_items(d: &ChartData) -> Vec<(&'static str, RGBColor)> {
    d.strategies.iter().map(|&s| (s.name(), color(s))).collect()
}

/// Names joined with commas.
fn names(list: &[Strategy]) -> String {
    list.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")
}

/// The budget as a phrase: "the 5M-node budget".
fn budget_phrase(budget: Option<u64>) -> String {
    match budget {
        Some(b) => format!("the {}-node budget", fmt_count(b as f64)),
        None => "the node budget".to_string(),
    }
}

/// Splits `area` into `n` panels: one row for up to two, else two columns.
fn panels<DB: DrawingBackend>(
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
fn text_at<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: String,
    (x, y): (i32, i32),
    style: TextStyle<'static>,
    pos: Pos,
) -> DrawResult<DB> {
    let (bx, by) = area.get_base_pixel();
    area.draw(&Text::new(text, (x - bx, y - by), style.pos(pos)))
}

/// A message in the middle of an empty chart.
fn nothing<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, text: &str) -> DrawResult<DB> {
    let (w, h) = area.dim_in_pixel();
    area.draw(&Text::new(
        text.to_string(),
        (w as i32 / 2, h as i32 / 2),
        label_font().pos(Pos::new(HPos::Center, VPos::Center)),
    ))
}

/// Colour of the whiskers of 95% intervals drawn over coloured marks.
const WHISKER: RGBColor = TEXT;

/// Draws 95% interval whiskers: a line from `low` to `high` (along x when
/// `along_x`, else along y) at `at` on the other axis, with end caps `cap`
/// pixels to each side.
fn whiskers<'a, DB, CT>(
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

// ---------------------------------------------------------------- ladder

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

/// The ladders in the report's order: 9×9 first (the headline), then the
/// other sizes from the smallest.
pub fn report_order(ladders: &[Ladder]) -> Vec<&Ladder> {
    let mut v: Vec<&Ladder> = ladders.iter().collect();
    v.sort_by_key(|l| (l.side != 9, l.side));
    v
}

/// The ladder panels that have something to draw, in report order.
fn drawn_ladders(d: &ChartData) -> Vec<&Ladder> {
    report_order(&d.ladders)
        .into_iter()
        .filter(|l| !l.rungs.is_empty() && l.set > 0)
        .collect()
}

/// How a ladder's set was chosen, in one line.
pub fn ladder_header(l: &Ladder) -> String {
    let mut left = Vec::new();
    if l.no_solution > 0 {
        left.push(format!("{} with no solution", l.no_solution));
    }
    if l.unfinished > 0 {
        left.push(format!(
            "{} that some rung did not finish within the budget",
            l.unfinished
        ));
    }
    if l.missing > 0 {
        left.push(format!("{} not run by every rung", l.missing));
    }
    let left = if left.is_empty() {
        String::new()
    } else {
        format!("; left out: {}", left.join(", "))
    };
    format!(
        "{}: {} of {} puzzles, those every rung on this ladder solved{left}",
        size_name(l.side),
        l.set,
        l.puzzles
    )
}

/// The strategies not on a ladder, and why, in one line (empty if none);
/// strategies with the same reason share it.
pub fn ladder_absent(l: &Ladder) -> String {
    let mut parts = Vec::new();
    let mut off = l.off.clone();
    while let Some(&(_, solved)) = off.first() {
        let same: Vec<Strategy> = off.iter().filter(|o| o.1 == solved).map(|o| o.0).collect();
        off.retain(|o| o.1 != solved);
        parts.push(format!(
            "{} (solved {solved} of {}, under half)",
            names(&same),
            l.solvable
        ));
    }
    if !l.not_run.is_empty() {
        parts.push(format!(
            "{} ({} not run {})",
            names(&l.not_run),
            if l.not_run.len() == 1 { "does" } else { "do" },
            size_name(l.side)
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("not on this ladder: {}", parts.join("; "))
    }
}

impl Draw for LadderChart<'_> {
    fn size(&self) -> (u32, u32) {
        let rows: u32 = drawn_ladders(self.0)
            .iter()
            .map(|l| LADDER_PANEL + l.rungs.len() as u32 * RUNG_ROW)
            .sum();
        (1200, (150 + rows).max(520))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        root.fill(&WHITE)?;
        let area = root.titled(CHARTS[0].1, title_font())?;
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
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(FAINT)
        .bold_line_style(GRID)
        .y_labels(0)
        .y_label_formatter(&|_| String::new())
        .x_label_formatter(&|v| decade_label(*v, |r| format!("×{}", trim(r))))
        .x_desc(format!(
            "ratio against {base_name} (log scale; higher = better)"
        ))
        .label_style(tick_font())
        .axis_desc_style(tick_font())
        .draw()?;
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
        whiskers(&mut chart, &cis, true, 5, WHISKER.stroke_width(1))?;
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

// ---------------------------------------------------------------- CDF

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

/// `text` broken at spaces into lines at most `width` pixels wide at font
/// size `size` (a word wider than a line gets a line of its own).
fn fit_words(text: &str, size: f64, width: f32) -> Vec<String> {
    let Some(font) = glyphs() else {
        return vec![text.to_string()];
    };
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && text_width(font, size, &candidate) > width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    lines.push(line);
    lines
}

impl Draw for CdfChart<'_> {
    fn size(&self) -> (u32, u32) {
        let n = self.0.cdf.len();
        let rows = if n <= 2 { 1 } else { n.div_ceil(2) } as u32;
        (1400, 120 + rows * (Self::PLOT + self.legend_height()))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        root.fill(&WHITE)?;
        let area = root.titled(CHARTS[1].1, title_font())?;
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
            let puzzles = p.curves.iter().map(|c| c.measured).max().unwrap_or(0);
            let mut chart = ChartBuilder::on(&panel)
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
                chart.draw_series(c.proofs.iter().flat_map(|&(n, f)| {
                    [
                        Circle::new((n, f * 100.0), 6, WHITE.filled()),
                        Circle::new((n, f * 100.0), 6, col.stroke_width(2)),
                    ]
                }))?;
            }
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
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- scatter

struct ScatterChart<'a>(&'a ChartData);

impl Draw for ScatterChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1200, 820)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        root.fill(&WHITE)?;
        let area = root.titled(CHARTS[2].1, title_font())?;
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
        // Iso-cost diagonals: time = c × nodes, labelled outside the plot
        // where they leave it (right edge or top edge), never over points.
        let mut labels: Vec<(String, (i32, i32), bool)> = Vec::new();
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
        // Colour = strategy, shape = board size (a 25×25 node costs far
        // more than a 4×4 one); hollow = stopped at the budget.
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

// ---------------------------------------------------------------- growth

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

impl Draw for GrowthChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1400, 200 + Self::TOP + self.lower_rows() * Self::PANEL)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        let g = &d.growth;
        root.fill(&WHITE)?;
        let area = root.titled(CHARTS[3].1, title_font())?;
        let area = subtitle(
            &area,
            &format!(
                "medians over the runs of puzzles with a solution ({} without one left out); whiskers: 95% intervals of the median times; hollow marker = some runs stopped at {} (the median may be a lower bound; lines to it are dashed)",
                g.no_solution,
                budget_phrase(d.budget)
            ),
        )?;
        let area = legend_row(&area, &strategy_items(d))?;
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
        let notes = stopped_notes(&g.by_size);
        let lines = if notes.is_empty() {
            vec!["every run in the band finished within the budget".to_string()]
        } else {
            let (w, _) = notes_area.dim_in_pixel();
            wrap(
                &notes_area,
                &note_font(),
                "stopped at the budget in the band: ",
                &notes,
                w.saturating_sub(60),
            )?
        };
        let lines: Vec<(String, TextStyle<'static>)> =
            lines.into_iter().map(|l| (l, note_font())).collect();
        text_lines(&notes_area, &lines, 30)?;
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
    let pts = &d.growth.by_size;
    let value = |p: &SizePoint| {
        if is_time {
            p.median_nanos
        } else {
            p.median_nodes
        }
    };
    // Time points carry their medians' 95% intervals (whiskers).
    let ci = |p: &SizePoint| if is_time { p.nanos_interval } else { None };
    let y = decades_with_room(pts.iter().flat_map(|p| {
        let v = value(p);
        let i = ci(p);
        [v, i.map_or(v, |i| i.low), i.map_or(v, |i| i.high)]
    }));
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
    if is_time {
        mesh.y_label_formatter(&|v| decade_label(*v, fmt_time))
            .draw()?;
    } else {
        mesh.y_label_formatter(&|v| decade_label(*v, fmt_count))
            .draw()?;
    }
    let index = |side: u32| sides.iter().position(|&(s, _)| s == side).unwrap_or(0) as f64;
    for &s in &d.strategies {
        let col = color(s);
        let mine: Vec<&SizePoint> = pts.iter().filter(|p| p.strategy == s).collect();
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
            .filter_map(|p| ci(p).map(|i| (index(p.side), i)))
            .collect();
        whiskers(&mut chart, &cis, false, 5, col.stroke_width(1))?;
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
    let y = decades_with_room(p.points.iter().flat_map(|q| {
        let (v, i) = (q.median_nanos, q.nanos_interval);
        [v, i.map_or(v, |i| i.low), i.map_or(v, |i| i.high)]
    }));
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
        if q.stopped > 0 {
            chart.draw_series([
                Circle::new(at, 4, WHITE.filled()),
                Circle::new(at, 4, col.stroke_width(2)),
            ])?;
        } else {
            chart.draw_series([Circle::new(at, 4, col.filled())])?;
        }
    }
    // Puzzle counts in the strip above the plot, off the data; where a
    // count is wider than its bin, neighbours alternate between two rows.
    let bin_px = {
        let (a, _) = chart.backend_coord(&(lo, y.end));
        let (b, _) = chart.backend_coord(&(lo + width, y.end));
        (b - a).max(1)
    };
    let widest = p
        .bins
        .iter()
        .map(|&(_, n)| glyphs().map_or(0.0, |f| text_width(f, NOTE_SIZE, &n.to_string())))
        .fold(0.0f32, f32::max);
    let stagger = widest + 4.0 > bin_px as f32;
    for &(bin, n) in &p.bins {
        let (px, top) = chart.backend_coord(&((f64::from(bin) + 0.5) * width, y.end));
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

/// Height of the strip above a fill panel that holds the puzzle counts.
const FILL_COUNTS: u32 = 38;

// ---------------------------------------------------------------- time by dataset

struct TimeChart<'a>(&'a ChartData);

impl TimeChart<'_> {
    /// Pixels per strategy row inside a dataset band.
    const ROW: u32 = 11;
}

impl Draw for TimeChart<'_> {
    fn size(&self) -> (u32, u32) {
        let band = self.0.strategies.len().max(1) as u32 * Self::ROW + 16;
        (1200, (210 + self.0.datasets.len() as u32 * band).max(560))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        root.fill(&WHITE)?;
        let area = root.titled(CHARTS[4].1, title_font())?;
        let area = subtitle(
            &area,
            &format!(
                "per-thread CPU time; dot = median, black whisker = its 95% interval, coloured bar = 10th to 90th percentile; hollow dot = some runs stopped at {} (times are lower bounds)",
                budget_phrase(d.budget)
            ),
        )?;
        let area = legend_row(&area, &strategy_items(d))?;
        let nd = d.datasets.len().max(1);
        let ns = d.strategies.len().max(1);
        let label = |i: usize| {
            let info = &d.datasets[i];
            match info.side {
                Some(s) => format!("{} · {}", info.name, size_name(s)),
                None => info.name.clone(),
            }
        };
        let name_width = (0..d.datasets.len())
            .map(|i| {
                root.estimate_text_size(&label(i), &tick_font())
                    .map(|(w, _)| w)
            })
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .max()
            .unwrap_or(60);
        let x = decades(d.time.iter().flat_map(|t| {
            let i = t.median_interval;
            [
                t.p10,
                t.p90,
                i.map_or(t.p10, |i| i.low),
                i.map_or(t.p90, |i| i.high),
            ]
        }));
        let mut chart = ChartBuilder::on(&area)
            .margin(16)
            .margin_right(36)
            .x_label_area_size(56)
            .y_label_area_size(name_width + 24)
            .build_cartesian_2d(x.clone().log_scale(), 0f64..nd as f64)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(FAINT)
            .bold_line_style(GRID)
            .y_labels(0)
            .y_label_formatter(&|_| String::new())
            .x_label_formatter(&|v| decade_label(*v, fmt_time))
            .x_desc("time per solve (per-thread CPU time), log scale")
            .label_style(tick_font())
            .axis_desc_style(label_font())
            .draw()?;
        // Dataset di is the band [nd-1-di, nd-di]: the first dataset on top.
        let y_of = |di: usize, s: Strategy| {
            let k = d.strategies.iter().position(|&x| x == s).unwrap_or(0);
            (nd - di) as f64 - 0.1 - 0.8 * (k as f64 + 0.5) / ns as f64
        };
        for di in 0..d.datasets.len() {
            let mid = (nd - di) as f64 - 0.5;
            let (px, py) = chart.backend_coord(&(x.start, mid));
            root.draw(&Text::new(
                label(di),
                (px - 10, py),
                tick_font().pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
            if di > 0 {
                let y = (nd - di) as f64;
                chart.draw_series(LineSeries::new(
                    [(x.start, y), (x.end, y)],
                    GRID.stroke_width(1),
                ))?;
            }
        }
        for &(di, s) in &d.not_run {
            let (px, py) = chart.backend_coord(&(x.start, y_of(di, s)));
            let what = match d.datasets[di].side {
                Some(side) => format!("{}: does not run {}", s.name(), size_name(side)),
                None => format!("{}: does not run this size", s.name()),
            };
            text_at(
                &area,
                what,
                (px + 6, py),
                (FONT, 11).into_font().color(&MUTED),
                Pos::new(HPos::Left, VPos::Center),
            )?;
        }
        for &s in &d.strategies {
            let c = color(s);
            let spreads: Vec<_> = d.time.iter().filter(|t| t.strategy == s).collect();
            chart.draw_series(spreads.iter().map(|t| {
                ErrorBar::new_horizontal(
                    y_of(t.dataset, s),
                    t.p10,
                    t.median,
                    t.p90,
                    c.stroke_width(2),
                    6,
                )
            }))?;
            chart.draw_series(spreads.iter().map(|t| {
                let style = if t.stopped > 0 {
                    WHITE.filled()
                } else {
                    c.filled()
                };
                Circle::new((t.median, y_of(t.dataset, s)), 4, style)
            }))?;
            chart.draw_series(
                spreads
                    .iter()
                    .filter(|t| t.stopped > 0)
                    .map(|t| Circle::new((t.median, y_of(t.dataset, s)), 4, c.stroke_width(2))),
            )?;
            // Over the dot: an interval narrower than the dot stays inside it.
            let cis: Vec<(f64, Interval)> = spreads
                .iter()
                .filter_map(|t| t.median_interval.map(|i| (y_of(t.dataset, s), i)))
                .collect();
            whiskers(&mut chart, &cis, true, 4, WHISKER.stroke_width(1))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(fmt_time(1500.0), "1.5 µs");
        assert_eq!(fmt_time(20e6), "20 ms");
        assert_eq!(fmt_time(1e9), "1 s");
        assert_eq!(fmt_count(1e5), "100k");
        assert_eq!(fmt_count(3e6), "3M");
        assert_eq!(fmt_count(7.0), "7");
        assert_eq!(fmt_ratio(3.216), "×3.22");
        assert_eq!(fmt_ratio(120.4), "×120");
        let ci = |low, high| Some(Interval { low, high });
        assert_eq!(fmt_ratio_ci(6.02, ci(5.6, 6.4)), "×6.0 [5.6, 6.4]");
        assert_eq!(fmt_ratio_ci(6.02, ci(5.98, 6.05)), "×6.02 [5.98, 6.05]");
        assert_eq!(fmt_ratio_ci(6.02, ci(2.1, 15.3)), "×6 [2, 15]");
        assert_eq!(fmt_ratio_ci(6.02, None), "×6.02 [n/a]");
        assert_eq!(
            fmt_time_ci(1_234_000.0, ci(1.1e6, 1.4e6)),
            "1.2 ms [1.1, 1.4]"
        );
        assert_eq!(
            fmt_time_ci(1_234_000.0, ci(1.233e6, 1.236e6)),
            "1.23 ms [1.23, 1.24]"
        );
        assert_eq!(fmt_time_ci(52_000.0, None), "52 µs [n/a]");
        assert_eq!(decades([3.0, 4500.0].into_iter()), 1.0..10000.0);
        assert_eq!(size_name(16), "16×16");
        // Rounding up to 1000 of a unit moves to the next unit.
        assert_eq!(fmt_time(999.9999), "1 µs");
        assert_eq!(fmt_time(999.4), "999 ns");
        assert_eq!(fmt_count(999_999.0), "1M");
        assert_eq!(fmt_time(0.5), "0.5 ns");
    }

    /// Text is laid out with advances, bearings and kerning: "cl" is as wide
    /// as "c" then "l", a space takes room, and glyphs are drawn where the
    /// width says (the ink of "l" starts right of the ink of "c").
    #[test]
    fn png_text_keeps_letters_apart() {
        register_font().unwrap();
        let font = glyphs().unwrap();
        let w = |t: &str| text_width(font, 14.0, t);
        assert!((w("cl") - (w("c") + w("l"))).abs() < 0.5);
        assert!(w("a b") > w("ab") + 3.0);
        // Draw "cl" and find the columns with ink: two separate runs.
        let (width, height) = (40u32, 24u32);
        let mut rgb = vec![255u8; (width * height * 3) as usize];
        {
            let root =
                Crisp(BitMapBackend::with_buffer(&mut rgb, (width, height))).into_drawing_area();
            root.draw(&Text::new(
                "cl",
                (2, 2),
                (FONT, 20).into_font().color(&BLACK),
            ))
            .unwrap();
            root.present().unwrap();
        }
        let inked: Vec<bool> = (0..width)
            .map(|x| (0..height).any(|y| rgb[((y * width + x) * 3) as usize] < 128))
            .collect();
        let runs = inked.windows(2).filter(|w| !w[0] && w[1]).count() + usize::from(inked[0]);
        assert_eq!(runs, 2, "{inked:?}");
    }

    /// The whiskers reach the SVG: the ladder and time charts of data with
    /// intervals draw three more dark strokes (a line and two caps) per
    /// interval than the same data without them.
    #[test]
    fn svg_draws_one_whisker_per_interval() {
        use super::super::summary::{Aggregate, solved_row};
        let mut agg = Aggregate::default();
        for (i, t) in [1000u64, 3000, 2000, 9000, 4000].into_iter().enumerate() {
            let i = i as u64 + 1;
            agg.push(&solved_row("d", i, 9, Strategy::Naive, 100 * i, t));
            agg.push(&solved_row("d", i, 9, Strategy::Mrv, 10 * i, t / (i + 1)));
        }
        let with = ChartData::new(&agg);
        let mut without = with.clone();
        for t in &mut without.time {
            t.median_interval = None;
        }
        let dark = |r: Rendered| r.svg.matches("stroke=\"#222222\"").count();
        let time = |d: &ChartData| dark(render("t", "t", &TimeChart(d)).unwrap());
        assert_eq!(time(&with) - time(&without), 3 * 2);
        // The ladder: one step (mrv over naive), three bars with intervals.
        assert_eq!(ladder_bars(&with.ladders[0]).len(), 1);
        let ladder = |d: &ChartData| dark(render("l", "l", &LadderChart(d)).unwrap());
        let mut one = Aggregate::default();
        one.push(&solved_row("d", 1, 9, Strategy::Naive, 100, 1000));
        one.push(&solved_row("d", 1, 9, Strategy::Mrv, 10, 500));
        let single = ChartData::new(&one);
        assert!(
            ladder_bars(&single.ladders[0])[0]
                .bars
                .iter()
                .all(|b| b.1.is_none())
        );
        assert_eq!(ladder(&with) - ladder(&single), 3 * 3);
    }
}
