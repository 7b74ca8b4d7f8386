//! Drawing the five charts with plotters, each as SVG text and PNG bytes.
//!
//! Text in PNGs is rendered with the DejaVu Sans font embedded in the binary
//! (`assets/`), through plotters' `ab_glyph` feature: no system font library
//! is needed at build or run time. SVG text names `sans-serif` and is laid
//! out with the same font metrics.

use std::sync::OnceLock;

use anyhow::anyhow;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::charts::ChartData;
use crate::Strategy;

/// The family the font is registered as: plotters' `FontFamily::SansSerif`,
/// the one criterion's plots ask for too.
const FONT: &str = "sans-serif";
const FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// Registers the embedded font as plotters' `sans-serif`, once per process.
/// Must run before any text is measured, for SVG as well as PNG.
///
/// Public because the lab turns on plotters' `ab_glyph` feature, and Cargo
/// unifies it into every plotters user in the build: criterion's plots too
/// ask for `sans-serif`, and without this they fail with `FontUnavailable`
/// (the benches call it before criterion draws).
pub fn register_font() -> anyhow::Result<()> {
    static OK: OnceLock<bool> = OnceLock::new();
    let ok = *OK.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(anyhow!(
            "the embedded font assets/DejaVuSans.ttf is not a valid font"
        ))
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
        "time-by-dataset",
        "Solve time per puzzle, by dataset and strategy",
    ),
    (
        "nodes-distribution",
        "Nodes per puzzle: share of puzzles solved within N nodes",
    ),
    ("nodes-vs-time", "Nodes against time, one point per puzzle"),
    (
        "ladder",
        "The ladder: speed-up over the baseline = fewer nodes × cheaper nodes",
    ),
    ("growth", "Growth with board size and with clue count"),
];

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Tableau-10: distinguishable, colour-blind-friendlier than primaries.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x4E, 0x79, 0xA7),
    RGBColor(0xF2, 0x8E, 0x2B),
    RGBColor(0xE1, 0x57, 0x59),
    RGBColor(0x76, 0xB7, 0xB2),
    RGBColor(0x59, 0xA1, 0x4F),
    RGBColor(0xED, 0xC9, 0x48),
    RGBColor(0xB0, 0x7A, 0xA1),
    RGBColor(0xFF, 0x9D, 0xA7),
    RGBColor(0x9C, 0x75, 0x5F),
    RGBColor(0x79, 0x70, 0x6E),
];

/// A strategy's colour: fixed by its ladder position (added rungs after the
/// built-in ones, variants after those), the same in every chart.
pub fn color(s: Strategy) -> RGBColor {
    let i = Strategy::every().iter().position(|&x| x == s).unwrap_or(0);
    PALETTE[i % PALETTE.len()]
}

const GRID: RGBColor = RGBColor(0xDD, 0xDD, 0xDD);
const FAINT: RGBColor = RGBColor(0xF1, 0xF1, 0xF1);
const TEXT: RGBColor = RGBColor(0x22, 0x22, 0x22);
const MUTED: RGBColor = RGBColor(0x77, 0x77, 0x77);

/// `1.5 µs`, `20 ms`: times in nanoseconds for axis labels.
pub fn fmt_time(ns: f64) -> String {
    let (v, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    format!("{} {unit}", trim(v))
}

/// `1`, `250`, `10k`, `3M`: counts for axis labels.
pub fn fmt_count(n: f64) -> String {
    let (v, unit) = if n < 1e3 {
        (n, "")
    } else if n < 1e6 {
        (n / 1e3, "k")
    } else if n < 1e9 {
        (n / 1e6, "M")
    } else {
        (n / 1e9, "G")
    };
    format!("{}{unit}", trim(v))
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

/// A log axis range covering `values`, widened to whole decades.
fn decades(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite() && *v > 0.0) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return 1.0..10.0;
    }
    let lo = 10f64.powf(lo.log10().floor());
    let mut hi = 10f64.powf(hi.log10().ceil());
    if hi <= lo {
        hi = lo * 10.0;
    }
    lo..hi
}

/// Labels only at powers of ten on log axes (other key points print empty).
fn decade_label(v: f64, f: fn(f64) -> String) -> String {
    let l = v.log10();
    if (l - l.round()).abs() < 1e-9 {
        f(v)
    } else {
        String::new()
    }
}

fn title_font() -> TextStyle<'static> {
    (FONT, 26).into_font().color(&TEXT)
}
fn label_font() -> TextStyle<'static> {
    (FONT, 17).into_font().color(&TEXT)
}
fn tick_font() -> TextStyle<'static> {
    (FONT, 14).into_font().color(&TEXT)
}
fn note_font() -> TextStyle<'static> {
    (FONT, 14).into_font().color(&MUTED)
}

/// A chart that can draw itself on any plotters backend.
trait Draw {
    fn size(&self) -> (u32, u32);
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB>;
}

fn render(stem: &'static str, title: &'static str, chart: &impl Draw) -> anyhow::Result<Rendered> {
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
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
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

fn encode_png(rgb: &[u8], w: u32, h: u32) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Best);
        let mut writer = enc.write_header()?;
        writer.write_image_data(rgb)?;
        writer.finish()?;
    }
    Ok(out)
}

/// Draws all five charts.
pub fn render_all(data: &ChartData, budget: Option<u64>) -> anyhow::Result<Vec<Rendered>> {
    let [c1, c2, c3, c4, c5] = CHARTS;
    Ok(vec![
        render(c1.0, c1.1, &TimeChart(data))?,
        render(c2.0, c2.1, &CdfChart(data, budget))?,
        render(c3.0, c3.1, &ScatterChart(data))?,
        render(c4.0, c4.1, &LadderChart(data))?,
        render(c5.0, c5.1, &GrowthChart(data))?,
    ])
}

/// A centred note under the title.
fn subtitle<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    text: &str,
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
    let (w, _) = root.dim_in_pixel();
    root.draw(&Text::new(
        text.to_string(),
        (w as i32 / 2, 4),
        note_font().pos(Pos::new(HPos::Center, VPos::Top)),
    ))?;
    Ok(root.margin(26, 0, 0, 0))
}

/// A centred row of colour swatches and labels (used where an inside legend
/// would cover data); returns the area below it.
fn legend_row<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[(&str, RGBColor)],
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
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
        .background_style(WHITE.mix(0.9))
        .border_style(MUTED)
        .label_font(tick_font())
        .draw()
}

// ---------------------------------------------------------------- chart 1

struct TimeChart<'a>(&'a ChartData);

impl TimeChart<'_> {
    /// Pixels per strategy row inside a dataset band.
    const ROW: u32 = 11;
}

/// Legend items for every strategy that ran, in ladder order.
fn strategy_items(d: &ChartData) -> Vec<(&'static str, RGBColor)> {
    d.strategies.iter().map(|&s| (s.name(), color(s))).collect()
}

impl Draw for TimeChart<'_> {
    fn size(&self) -> (u32, u32) {
        let band = self.0.strategies.len().max(1) as u32 * Self::ROW + 16;
        (1200, (210 + self.0.datasets.len() as u32 * band).max(560))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        root.fill(&WHITE)?;
        let area = root.titled(CHARTS[0].1, title_font())?;
        let area = subtitle(
            &area,
            "dot = median, bar = 10th to 90th percentile; hollow dot = some runs hit the node budget (times are lower bounds)",
        )?;
        let area = legend_row(&area, &strategy_items(d))?;
        let nd = d.datasets.len().max(1);
        let ns = d.strategies.len().max(1);
        let name_width = d
            .datasets
            .iter()
            .map(|n| root.estimate_text_size(n, &tick_font()).map(|(w, _)| w))
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .max()
            .unwrap_or(60);
        let x = decades(d.time.iter().flat_map(|t| [t.p10, t.p90]));
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
            .x_desc("solve time per puzzle, log scale")
            .label_style(tick_font())
            .axis_desc_style(label_font())
            .draw()?;
        // Dataset di is the band [nd-1-di, nd-di]: the first dataset on top.
        let y_of = |di: usize, s: Strategy| {
            let k = d.strategies.iter().position(|&x| x == s).unwrap_or(0);
            (nd - di) as f64 - 0.1 - 0.8 * (k as f64 + 0.5) / ns as f64
        };
        for (di, name) in d.datasets.iter().enumerate() {
            let mid = (nd - di) as f64 - 0.5;
            let (px, py) = chart.backend_coord(&(x.start, mid));
            root.draw(&Text::new(
                name.clone(),
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
                let style = if t.censored > 0 {
                    WHITE.filled()
                } else {
                    c.filled()
                };
                Circle::new((t.median, y_of(t.dataset, s)), 4, style)
            }))?;
            chart.draw_series(
                spreads
                    .iter()
                    .filter(|t| t.censored > 0)
                    .map(|t| Circle::new((t.median, y_of(t.dataset, s)), 4, c.stroke_width(2))),
            )?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- chart 2

struct CdfChart<'a>(&'a ChartData, Option<u64>);

impl Draw for CdfChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1200, 720)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        root.fill(&WHITE)?;
        let area = root.titled(CHARTS[1].1, title_font())?;
        let note = match self.1 {
            Some(b) => format!(
                "all datasets pooled; a curve ends below 100% when puzzles ran out of the {} node budget",
                fmt_count(b as f64)
            ),
            None => "all datasets pooled; a curve ends below 100% when puzzles ran out of the node budget".to_string(),
        };
        let area = subtitle(&area, &note)?;
        let x = decades(
            d.cdf
                .iter()
                .flat_map(|c| c.points.iter().map(|p| p.0))
                .chain(self.1.map(|b| b as f64)),
        );
        let mut chart = ChartBuilder::on(&area)
            .margin(16)
            .margin_right(40)
            .x_label_area_size(56)
            .y_label_area_size(80)
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
            .y_desc("puzzles solved within that many nodes")
            .label_style(tick_font())
            .axis_desc_style(label_font())
            .draw()?;
        if let Some(b) = self.1 {
            chart.draw_series(DashedLineSeries::new(
                [(b as f64, 0.0), (b as f64, 100.0)],
                6,
                4,
                MUTED.stroke_width(1),
            ))?;
            let (px, py) = chart.backend_coord(&(b as f64, 100.0));
            root.draw(&Text::new(
                "budget",
                (px - 6, py + 4),
                note_font().pos(Pos::new(HPos::Right, VPos::Top)),
            ))?;
        }
        for c in &d.cdf {
            let col = color(c.strategies[0]);
            // Start each curve at 0% just left of its first point: a step up.
            let start = c.points.first().map(|p| (p.0, 0.0));
            let pts: Vec<(f64, f64)> = start
                .into_iter()
                .chain(c.points.iter().map(|&(n, f)| (n, f * 100.0)))
                .collect();
            chart
                .draw_series(LineSeries::new(pts, col.stroke_width(3)))?
                .label({
                    let names: Vec<&str> = c.strategies.iter().map(|s| s.name()).collect();
                    let same = if names.len() > 1 {
                        ": identical trees"
                    } else {
                        ""
                    };
                    format!(
                        "{} ({} of {} solved{same})",
                        names.join(" = "),
                        c.solved,
                        c.measured
                    )
                })
                .legend(move |(x, y)| {
                    PathElement::new([(x - 8, y), (x + 8, y)], col.stroke_width(3))
                });
        }
        legend_box(&mut chart, SeriesLabelPosition::LowerRight)
    }
}

// ---------------------------------------------------------------- chart 3

struct ScatterChart<'a>(&'a ChartData);

impl Draw for ScatterChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1200, 800)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        root.fill(&WHITE)?;
        let area = root.titled(CHARTS[2].1, title_font())?;
        let sampled = d.scatter.iter().any(|s| s.points.len() < s.total);
        let note = if sampled {
            "log-log; grey diagonals = constant cost per node; an even subsample of runs is shown"
        } else {
            "log-log; grey diagonals = constant cost per node: same nodes, higher line = costlier nodes"
        };
        let area = subtitle(&area, note)?;
        let x = decades(d.scatter.iter().flat_map(|s| s.points.iter().map(|p| p.0)));
        let y = decades(d.scatter.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
        let mut chart = ChartBuilder::on(&area)
            .margin(16)
            .margin_right(40)
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
            .y_desc("solve time (log scale)")
            .label_style(tick_font())
            .axis_desc_style(label_font())
            .draw()?;
        // Iso-cost diagonals: time = c × nodes (labelled after the points).
        let mut labels: Vec<(String, (i32, i32))> = Vec::new();
        let mut cost = 0.1;
        while cost <= 1e5 {
            let x0 = x.start.max(y.start / cost);
            let x1 = x.end.min(y.end / cost);
            if x0 < x1 {
                chart.draw_series(DashedLineSeries::new(
                    [(x0, x0 * cost), (x1, x1 * cost)],
                    5,
                    5,
                    RGBColor(0xBB, 0xBB, 0xBB).stroke_width(1),
                ))?;
                let at = chart.backend_coord(&(x1, x1 * cost));
                labels.push((format!("{}/node", fmt_time(cost)), at));
            }
            cost *= 10.0;
        }
        for s in &d.scatter {
            let col = color(s.strategy);
            chart
                .draw_series(
                    s.points
                        .iter()
                        .map(|&p| Circle::new(p, 3, col.mix(0.55).filled())),
                )?
                .label(s.strategy.name())
                .legend(move |(x, y)| Circle::new((x, y), 5, col.filled()));
        }
        for (label, (px, py)) in labels {
            let (tw, th) = root.estimate_text_size(&label, &note_font())?;
            let (tw, th) = (tw as i32, th as i32);
            // A white box keeps the label readable over the points.
            root.draw(&Rectangle::new(
                [(px - 8 - tw, py + 2), (px - 2, py + 6 + th)],
                WHITE.mix(0.85).filled(),
            ))?;
            root.draw(&Text::new(
                label,
                (px - 5, py + 4),
                note_font().pos(Pos::new(HPos::Right, VPos::Top)),
            ))?;
        }
        legend_box(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}

// ---------------------------------------------------------------- chart 4

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

impl Draw for LadderChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1200, (260 + self.0.ladder.len() as u32 * 110).max(520))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        root.fill(&WHITE)?;
        let base = d.baseline.map(|b| b.name()).unwrap_or("-");
        let title = format!("The ladder: speed-up over {base} = fewer nodes × cheaper nodes");
        let area = root.titled(&title, title_font())?;
        let area = subtitle(
            &area,
            &format!(
                "geometric means over the puzzles both {base} and the rung solved; ×1 = no change, left of ×1 = worse"
            ),
        )?;
        let items: Vec<(&str, RGBColor)> = LADDER_BARS.to_vec();
        let area = legend_row(&area, &items)?;
        let n = d.ladder.len().max(1);
        let x = decades(
            d.ladder
                .iter()
                .flat_map(|r| [r.acc.node_ratio(), r.acc.cost_ratio(), r.acc.speedup()])
                .chain([1.0]),
        );
        let mut chart = ChartBuilder::on(&area)
            .margin(16)
            .margin_right(60)
            .x_label_area_size(56)
            .y_label_area_size(140)
            .build_cartesian_2d(x.clone().log_scale(), 0f64..n as f64)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(FAINT)
            .bold_line_style(GRID)
            .y_labels(0)
            .y_label_formatter(&|_| String::new())
            .x_label_formatter(&|v| decade_label(*v, |r| format!("×{}", trim(r))))
            .x_desc(format!("ratio against {base} (log scale; higher = better)"))
            .label_style(tick_font())
            .axis_desc_style(label_font())
            .draw()?;
        for (i, &(_, col)) in LADDER_BARS.iter().enumerate() {
            let bars: Vec<(f64, f64, f64)> = d
                .ladder
                .iter()
                .enumerate()
                .map(|(r, rung)| {
                    let v = [
                        rung.acc.node_ratio(),
                        rung.acc.cost_ratio(),
                        rung.acc.speedup(),
                    ][i];
                    // Top rung first: rung r occupies slot n-1-r.
                    let top = (n - r) as f64 - 0.12 - 0.26 * i as f64;
                    (v, top, top - 0.22)
                })
                .collect();
            chart.draw_series(bars.iter().map(|&(v, top, bottom)| {
                Rectangle::new(
                    [(1.0_f64.min(v), top), (1.0_f64.max(v), bottom)],
                    col.filled(),
                )
            }))?;
            for &(v, top, bottom) in &bars {
                let (px, py) = chart.backend_coord(&(v, (top + bottom) / 2.0));
                let right = v >= 1.0;
                root.draw(&Text::new(
                    fmt_ratio(v),
                    (if right { px + 6 } else { px - 6 }, py),
                    tick_font().pos(Pos::new(
                        if right { HPos::Left } else { HPos::Right },
                        VPos::Center,
                    )),
                ))?;
            }
        }
        chart.draw_series(LineSeries::new(
            [(1.0, 0.0), (1.0, n as f64)],
            TEXT.stroke_width(1),
        ))?;
        for (r, rung) in d.ladder.iter().enumerate() {
            let mid = (n - r) as f64 - 0.5;
            let (px, py) = chart.backend_coord(&(x.start, mid));
            root.draw(&Text::new(
                rung.strategy.name().to_string(),
                (px - 12, py - 9),
                label_font().pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
            root.draw(&Text::new(
                format!("{} puzzles", rung.acc.pairs),
                (px - 12, py + 11),
                note_font().pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
        }
        if d.ladder.is_empty() {
            let (w, h) = area.dim_in_pixel();
            area.draw(&Text::new(
                "no rung to compare: run at least two strategies that solve the same puzzles",
                (w as i32 / 2, h as i32 / 2),
                label_font().pos(Pos::new(HPos::Center, VPos::Center)),
            ))?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- chart 5

struct GrowthChart<'a>(&'a ChartData);

impl Draw for GrowthChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1400, 1000)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        root.fill(&WHITE)?;
        let area = root.titled(CHARTS[4].1, title_font())?;
        let area = subtitle(
            &area,
            "medians over measured runs; hollow marker = some runs hit the node budget (a lower bound); rungs that keep the same search order share one node curve",
        )?;
        let area = legend_row(&area, &strategy_items(d))?;
        let panels = area.split_evenly((2, 2));
        let clue_note = d
            .clue_side
            .map(|s| format!("{s}×{s} puzzles"))
            .unwrap_or_default();
        let specs: [(&[super::charts::GrowthPoint], bool, String, &str); 4] = [
            (
                &d.by_size,
                true,
                "median time vs board size".into(),
                "board side",
            ),
            (
                &d.by_size,
                false,
                "median nodes vs board size".into(),
                "board side",
            ),
            (
                &d.by_clues,
                true,
                format!("median time vs clue count ({clue_note})"),
                "clues (givens)",
            ),
            (
                &d.by_clues,
                false,
                format!("median nodes vs clue count ({clue_note})"),
                "clues (givens)",
            ),
        ];
        for (k, (panel, (points, is_time, caption, xdesc))) in panels.iter().zip(specs).enumerate()
        {
            let value = |p: &super::charts::GrowthPoint| {
                if is_time {
                    p.median_nanos
                } else {
                    p.median_nodes
                }
            };
            let xs: Vec<u32> = points.iter().map(|p| p.x).collect();
            let (xmin, xmax) = (
                xs.iter().copied().min().unwrap_or(0) as f64,
                xs.iter().copied().max().unwrap_or(1) as f64,
            );
            let pad = ((xmax - xmin) * 0.06).max(1.0);
            let y = decades(points.iter().map(value));
            let mut chart = ChartBuilder::on(panel)
                .caption(caption, label_font())
                .margin(14)
                .margin_right(24)
                .x_label_area_size(46)
                .y_label_area_size(84)
                .build_cartesian_2d(xmin - pad..xmax + pad, y.log_scale())?;
            let by_size = k < 2;
            let mut distinct = xs.clone();
            distinct.sort_unstable();
            distinct.dedup();
            let fmt_x = move |v: &f64| {
                let r = v.round();
                if (v - r).abs() > 1e-6 || r < 0.0 {
                    return String::new();
                }
                let r = r as u32;
                if by_size {
                    if distinct.contains(&r) {
                        format!("{r}×{r}")
                    } else {
                        String::new()
                    }
                } else {
                    format!("{r}")
                }
            };
            let mut mesh = chart.configure_mesh();
            mesh.light_line_style(FAINT)
                .bold_line_style(GRID)
                .x_label_formatter(&fmt_x)
                .x_desc(xdesc)
                .y_desc(if is_time {
                    "median time"
                } else {
                    "median nodes"
                })
                .label_style(tick_font())
                .axis_desc_style(tick_font());
            if by_size {
                mesh.x_labels(((xmax - xmin) as usize + 3).min(40));
            }
            if is_time {
                mesh.y_label_formatter(&|v| decade_label(*v, fmt_time))
                    .draw()?;
            } else {
                mesh.y_label_formatter(&|v| decade_label(*v, fmt_count))
                    .draw()?;
            }
            for &s in &d.strategies {
                let col = color(s);
                let pts: Vec<_> = points.iter().filter(|p| p.strategy == s).collect();
                if pts.is_empty() {
                    continue;
                }
                let series = chart.draw_series(LineSeries::new(
                    pts.iter().map(|p| (p.x as f64, value(p))),
                    col.stroke_width(2),
                ))?;
                if k == 0 {
                    series.label(s.name()).legend(move |(x, y)| {
                        PathElement::new([(x - 8, y), (x + 8, y)], col.stroke_width(3))
                    });
                }
                chart.draw_series(pts.iter().map(|p| {
                    let style = if p.censored > 0 {
                        WHITE.filled()
                    } else {
                        col.filled()
                    };
                    Circle::new((p.x as f64, value(p)), 4, style)
                }))?;
                chart.draw_series(
                    pts.iter()
                        .filter(|p| p.censored > 0)
                        .map(|p| Circle::new((p.x as f64, value(p)), 4, col.stroke_width(2))),
                )?;
            }
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
        assert_eq!(decades([3.0, 4500.0].into_iter()), 1.0..10000.0);
    }

    #[test]
    fn every_strategy_has_a_distinct_colour_up_to_ten() {
        let n = Strategy::ALL.len().min(PALETTE.len());
        let colours: std::collections::HashSet<(u8, u8, u8)> = Strategy::ALL[..n]
            .iter()
            .map(|&s| {
                let c = color(s);
                (c.0, c.1, c.2)
            })
            .collect();
        assert_eq!(colours.len(), n);
    }
}
