//! The lab's one chart engine: plotters with the embedded font, every chart
//! drawn once on an SVG backend and once on a bitmap (PNG) whose text is
//! laid out glyph by glyph (`crisp`), the fonts, colours, log axes in
//! whole decades, and the pieces charts share (`parts`).
//!
//! **Every chart is one file in this folder, registered by one line of the
//! `charts!` table** below: its module, its constant, what it is drawn
//! from ([`Source`]), its file stem and its title. A chart's data is
//! computed elsewhere, as plain values (the report's in
//! [`crate::analysis::charts`]); a chart file only draws it, and its text
//! comes from [`crate::export::present`].
//!
//! Text is rendered with the DejaVu Sans font embedded in the binary
//! (`assets/`), through plotters' `ab_glyph` feature: no system font library
//! is needed at build or run time. SVG text names `sans-serif` and is laid
//! out by the viewer.

use std::sync::OnceLock;

use anyhow::anyhow;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The family the font is registered as (plotters' `FontFamily::SansSerif`).
pub(crate) const FONT: &str = "sans-serif";
/// The embedded font (DejaVu Sans): charts look the same on every machine.
pub(crate) const FONT_BYTES: &[u8] = include_bytes!("../../../assets/DejaVuSans.ttf");

mod crisp;
mod parts;

use crate::analysis::charts::ChartData;

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
    if ok && crisp::glyphs().is_some() {
        Ok(())
    } else {
        Err(anyhow!(
            "the embedded font assets/DejaVuSans.ttf is not a valid font"
        ))
    }
}

pub(crate) const GRID: RGBColor = RGBColor(0xDD, 0xDD, 0xDD);
pub(crate) const FAINT: RGBColor = RGBColor(0xF1, 0xF1, 0xF1);
pub(crate) const TEXT: RGBColor = RGBColor(0x22, 0x22, 0x22);
pub(crate) const MUTED: RGBColor = RGBColor(0x77, 0x77, 0x77);

/// The built-in rungs' colours, keyed by name (Tableau's palette): a rung
/// keeps its colour when another is added anywhere on the ladder.
const RUNG_COLOURS: [(&str, RGBColor); 14] = [
    ("naive", RGBColor(0x4E, 0x79, 0xA7)),
    ("blank-list", RGBColor(0xF2, 0x8E, 0x2B)),
    ("used-tables", RGBColor(0xE1, 0x57, 0x59)),
    ("bitmask", RGBColor(0x76, 0xB7, 0xB2)),
    ("mrv", RGBColor(0x59, 0xA1, 0x4F)),
    ("propagate", RGBColor(0xED, 0xC9, 0x48)),
    ("dlx", RGBColor(0xB0, 0x7A, 0xA1)),
    ("fast", RGBColor(0xFF, 0x9D, 0xA7)),
    ("fast-no-cols", RGBColor(0x9C, 0x75, 0x5F)),
    ("fast-stacks", RGBColor(0x79, 0x70, 0x6E)),
    ("fast-generic", RGBColor(0xD3, 0x72, 0x95)),
    ("fast-plain-score", RGBColor(0xB6, 0x99, 0x2D)),
    ("fast-triads", RGBColor(0x5D, 0x3A, 0x9B)),
    ("fast-triads-tdoku", RGBColor(0x8C, 0xD1, 0x7D)),
];

/// A strategy's colour, the same in every chart: the built-in rungs' by
/// name; any other rung (an outside rung added with `Strategy::add`, a new
/// built-in one not in the table yet) the `i`-th of a sequence of hues a
/// golden angle apart, `i` its place among such rungs, so that none repeats.
pub fn rung_color(s: crate::base::strategy::Strategy) -> RGBColor {
    if let Some((_, c)) = RUNG_COLOURS.iter().find(|(n, _)| *n == s.name()) {
        return *c;
    }
    // Built-in rungs first (table order), then outside ones (order added):
    // an outside rung never shifts a built-in one's colour. `every()` lists
    // variants after the outside rungs, so it cannot give this order itself.
    use crate::base::strategy::Strategy;
    let built_in = Strategy::ALL
        .iter()
        .chain(Strategy::VARIANTS.iter())
        .copied();
    let outside = Strategy::every()
        .into_iter()
        .filter(|o| !Strategy::ALL.contains(o) && !Strategy::VARIANTS.contains(o));
    let others = built_in
        .chain(outside)
        .filter(|o| RUNG_COLOURS.iter().all(|(n, _)| *n != o.name()));
    let i = others.take_while(|&o| o != s).count();
    golden_hue(i)
}

/// The `i`-th colour a golden angle (137.5°) around the hue circle from the
/// last, at a saturation and lightness that none of the named ones has:
/// the hues never repeat, and neighbours in the sequence are far apart.
fn golden_hue(i: usize) -> RGBColor {
    let h = (i as f64 * 137.507_764 + 20.0).rem_euclid(360.0) / 60.0;
    let (l, sat) = (0.42, 0.62);
    let c = (1.0 - (2.0 * l - 1.0_f64).abs()) * sat;
    let x = c * (1.0 - (h.rem_euclid(2.0) - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round() as u8;
    RGBColor(byte(r), byte(g), byte(b))
}

pub(crate) fn title_font() -> TextStyle<'static> {
    (FONT, 26).into_font().color(&TEXT)
}
pub(crate) fn label_font() -> TextStyle<'static> {
    (FONT, 17).into_font().color(&TEXT)
}
pub(crate) fn tick_font() -> TextStyle<'static> {
    (FONT, 14).into_font().color(&TEXT)
}
/// Pixel size of [`note_font`].
pub(crate) const NOTE_SIZE: f64 = 14.0;
pub(crate) fn note_font() -> TextStyle<'static> {
    (FONT, NOTE_SIZE).into_font().color(&MUTED)
}

/// What drawing on any plotters backend returns.
pub(crate) type DrawResult<DB> =
    Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// A chart that can draw itself on any plotters backend.
pub trait Chart {
    /// Width and height in pixels.
    fn size(&self) -> (u32, u32);
    /// Draws the chart on `root`, which [`render`] has filled white.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB>;
}

/// What a chart is drawn from, so a caller knows which charts are its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A report's [`ChartData`]: drawn by [`render_all`] into every report.
    Report,
    /// A report's outside programs (only a run with programs draws it).
    Programs,
    /// `diff OLD NEW`.
    Diff,
    /// `trace --chart`.
    Trace,
}

/// A chart's line of the table: file stem (`ladder` → `ladder.svg`,
/// `ladder.png`), title, and what it is drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Info {
    pub stem: &'static str,
    pub title: &'static str,
    pub source: Source,
}

/// One chart rendered both ways: the same drawing code on both backends.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// File stem, e.g. `ladder` (written as `ladder.svg` and `ladder.png`).
    pub stem: &'static str,
    pub svg: String,
    pub png: Vec<u8>,
}

/// Draws `chart` as SVG text and as PNG bytes (the PNG's text glyph by
/// glyph, `crisp`).
pub fn render(info: &Info, chart: &impl Chart) -> anyhow::Result<Rendered> {
    register_font()?;
    let stem = info.stem;
    let (w, h) = chart.size();
    fn draw<DB: DrawingBackend>(root: DB, chart: &impl Chart, file: String) -> anyhow::Result<()> {
        let root = root.into_drawing_area();
        let drawn = root
            .fill(&WHITE)
            .and_then(|()| chart.draw(&root))
            .and_then(|()| root.present());
        drawn.map_err(|e| anyhow!("cannot draw {file}: {e}"))
    }
    let mut svg = String::new();
    draw(
        SVGBackend::with_string(&mut svg, (w, h)),
        chart,
        format!("{stem}.svg"),
    )?;
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    let bitmap = crisp::Crisp(BitMapBackend::with_buffer(&mut rgb, (w, h)));
    draw(bitmap, chart, format!("{stem}.png"))?;
    let png = encode_png(&rgb, w, h)?;
    Ok(Rendered { stem, svg, png })
}

/// The table's macro: per line, the chart's module (`pub mod`), its
/// [`Info`] constant; for the whole table, [`ALL`] and [`render_all`].
macro_rules! charts {
    ($($module:ident: $konst:ident, $source:ident, $stem:literal, $title:literal;)*) => {
        $(pub(crate) mod $module;)*
        $(
            #[doc = concat!("`", $stem, "`: ", $title)]
            pub const $konst: Info = Info { stem: $stem, title: $title, source: Source::$source };
        )*
        /// Every chart, in table order.
        pub const ALL: &[Info] = &[$($konst),*];

        /// Draws every chart of a report's [`ChartData`] that has
        /// something to show, in table order (each such module has
        /// `new(&ChartData) -> Option<impl Chart>`).
        pub fn render_all(data: &ChartData) -> anyhow::Result<Vec<Rendered>> {
            let mut out = Vec::new();
            $(report_chart!($source, $module, data, |chart| {
                out.push(render(&$konst, &chart)?);
            });)*
            Ok(out)
        }

        /// The charts [`render_all`] draws for `data`, in report order.
        pub fn drawn_report_charts(data: &ChartData) -> Vec<&'static Info> {
            let mut out = Vec::new();
            $(report_chart!($source, $module, data, |_chart| out.push(&$konst));)*
            out
        }
    };
}

/// One line of [`render_all`]: a [`Source::Report`] chart is drawn, any
/// other is left to its caller.
macro_rules! report_chart {
    (Report, $module:ident, $data:ident, |$chart:ident| $body:expr) => {
        if let Some($chart) = $module::new($data) {
            $body
        }
    };
    ($other:ident, $($rest:tt)*) => {};
}

// The charts: one line each. Adding a chart = its file + one line here.
charts! {
    ladder: LADDER, Report, "ladder",
        "The ladder of each board size: speed-up = fewer nodes × cheaper nodes";
    nodes_distribution: NODES_DISTRIBUTION, Report, "nodes-distribution",
        "Nodes per puzzle, by board size: share of puzzles finished within N nodes";
    nodes_vs_time: NODES_VS_TIME, Report, "nodes-vs-time",
        "Nodes against time, one point per run";
    growth: GROWTH, Report, "growth",
        "Growth with board size, and with the share of cells given";
    time_by_dataset: TIME_BY_DATASET, Report, "time-by-dataset",
        "Solve time per puzzle, by dataset and strategy";
    full_set: FULL_SET, Report, "full-set-ladder",
        "The full set of each board size: cut-off runs enter with their estimates";
    programs: PROGRAMS, Programs, "programs",
        "Outside programs among the rungs: median time per puzzle";
    diff: DIFF, Diff, "diff", "Time NEW ÷ OLD";
    depth: DEPTH, Trace, "depth", "Nodes per depth: the shape of the search tree";
}

/// The charts a report may draw from its [`ChartData`], in report order
/// ([`drawn_report_charts`]: those it draws for given data).
pub fn report_charts() -> impl Iterator<Item = &'static Info> {
    ALL.iter().filter(|c| c.source == Source::Report)
}

/// Every chart file a report folder may hold (the programs chart only with
/// programs).
pub(crate) fn report_folder_charts() -> impl Iterator<Item = &'static Info> {
    ALL.iter()
        .filter(|c| matches!(c.source, Source::Report | Source::Programs))
}

/// RGB pixels to PNG bytes (best compression: the figures are committed).
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

/// A log axis range covering the positive finite `values`, widened to whole
/// decades (`1..10` when there are none).
pub fn decades(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
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

/// A label only at powers of ten on log axes (other key points print empty).
pub(crate) fn decade_label(v: f64, f: fn(f64) -> String) -> String {
    let l = v.log10();
    if (l - l.round()).abs() < 1e-9 {
        f(v)
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decades_are_whole() {
        assert_eq!(decades([3.0, 4500.0].into_iter()), 1.0..10_000.0);
        assert_eq!(decades([10.0].into_iter()), 10.0..100.0);
        assert_eq!(decades([0.0, f64::NAN].into_iter()), 1.0..10.0);
        assert_eq!(decade_label(1000.0, |v| format!("{v}")), "1000");
        assert_eq!(decade_label(300.0, |v| format!("{v}")), "");
    }

    /// Without a cut-off run the full-set chart has nothing to show: it is
    /// neither drawn nor listed, and every other report chart is.
    #[test]
    fn report_charts_drawn_are_those_with_data() {
        use crate::analysis::summary::{Aggregate, solved_row};
        use crate::base::strategy::Strategy;
        let mut agg = Aggregate::default();
        agg.push(&solved_row("d", 1, 9, Strategy::Naive, 100, 1000));
        agg.push(&solved_row("d", 1, 9, Strategy::Mrv, 10, 500));
        let data = ChartData::new(&agg);
        let drawn: Vec<&str> = render_all(&data).unwrap().iter().map(|r| r.stem).collect();
        let listed: Vec<&str> = drawn_report_charts(&data).iter().map(|c| c.stem).collect();
        let want: Vec<&str> = report_charts()
            .map(|c| c.stem)
            .filter(|&s| s != FULL_SET.stem)
            .collect();
        assert_eq!((drawn, listed), (want.clone(), want));
    }

    /// The whiskers reach the SVG: the ladder and time charts of data with
    /// intervals draw three more dark strokes (a line and two caps) per
    /// interval than the same data without them.
    #[test]
    fn svg_draws_one_whisker_per_interval() {
        use crate::analysis::charts::{ChartData, ladder_bars};
        use crate::analysis::summary::{Aggregate, solved_row};
        use crate::base::strategy::Strategy;
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
        let time = |d: &ChartData| {
            dark(render(&TIME_BY_DATASET, &time_by_dataset::new(d).unwrap()).unwrap())
        };
        assert_eq!(time(&with) - time(&without), 3 * 2);
        // The ladder: one step (mrv over naive), three bars with intervals.
        assert_eq!(ladder_bars(&with.ladders[0]).len(), 1);
        let ladder = |d: &ChartData| dark(render(&LADDER, &ladder::new(d).unwrap()).unwrap());
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

    #[test]
    fn outside_rung_colours_never_repeat_nor_take_a_named_one() {
        let mut seen: std::collections::HashSet<(u8, u8, u8)> =
            RUNG_COLOURS.iter().map(|(_, c)| (c.0, c.1, c.2)).collect();
        assert_eq!(seen.len(), RUNG_COLOURS.len());
        for i in 0..64 {
            let c = golden_hue(i);
            assert!(seen.insert((c.0, c.1, c.2)), "colour {i} repeats");
        }
    }
}
