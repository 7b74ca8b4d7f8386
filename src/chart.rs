//! The one chart engine's setup: plotters with the embedded font, a chart
//! drawn once on an SVG backend and once on a bitmap (PNG), the fonts, log
//! axes in whole decades. `trace`'s depth chart draws with it; it holds the
//! same setup `compare::draw` has, so that both can use one copy.
//!
//! Text is rendered with the DejaVu Sans font embedded in the binary
//! (`assets/`), through plotters' `ab_glyph` feature: no system font library
//! is needed at build or run time. SVG text names `sans-serif` and is laid
//! out with the same font metrics.

use std::sync::OnceLock;

use anyhow::anyhow;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The family the font is registered as (plotters' `FontFamily::SansSerif`).
pub const FONT: &str = "sans-serif";
/// The embedded font (DejaVu Sans): charts look the same on every machine.
pub const FONT_BYTES: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// Registers the embedded font as plotters' `sans-serif`, once per process.
/// Must run before any text is measured, for SVG as well as PNG.
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

pub const GRID: RGBColor = RGBColor(0xDD, 0xDD, 0xDD);
pub const FAINT: RGBColor = RGBColor(0xF1, 0xF1, 0xF1);
pub const TEXT: RGBColor = RGBColor(0x22, 0x22, 0x22);
pub const MUTED: RGBColor = RGBColor(0x77, 0x77, 0x77);

/// The built-in rungs' colours, keyed by name (Tableau's palette): a rung
/// keeps its colour when another is added anywhere on the ladder.
const RUNG_COLOURS: [(&str, RGBColor); 11] = [
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
];

/// A strategy's colour, the same in every chart: the built-in rungs' by
/// name; any other rung (an outside rung added with `Strategy::add`, a new
/// built-in one not in the table yet) the `i`-th of a sequence of hues a
/// golden angle apart, `i` its place among such rungs, so that none repeats.
pub fn rung_color(s: crate::strategy::Strategy) -> RGBColor {
    if let Some((_, c)) = RUNG_COLOURS.iter().find(|(n, _)| *n == s.name()) {
        return *c;
    }
    let others = crate::strategy::Strategy::every()
        .into_iter()
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

pub fn title_font() -> TextStyle<'static> {
    (FONT, 26).into_font().color(&TEXT)
}
pub fn label_font() -> TextStyle<'static> {
    (FONT, 17).into_font().color(&TEXT)
}
pub fn tick_font() -> TextStyle<'static> {
    (FONT, 14).into_font().color(&TEXT)
}
pub fn note_font() -> TextStyle<'static> {
    (FONT, 14).into_font().color(&MUTED)
}

/// What drawing on any plotters backend returns.
pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// A chart that can draw itself on any plotters backend.
pub trait Chart {
    /// Width and height in pixels.
    fn size(&self) -> (u32, u32);
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB>;
}

/// A chart rendered both ways: the same drawing code on both backends.
#[derive(Clone, Debug)]
pub struct Rendered {
    pub svg: String,
    pub png: Vec<u8>,
}

/// Draws `chart` as SVG text and as PNG bytes (`what` names it in errors).
pub fn render(what: &str, chart: &impl Chart) -> anyhow::Result<Rendered> {
    register_font()?;
    let (w, h) = chart.size();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        chart
            .draw(&root)
            .and_then(|()| root.present())
            .map_err(|e| anyhow!("cannot draw {what} as SVG: {e}"))?;
    }
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        chart
            .draw(&root)
            .and_then(|()| root.present())
            .map_err(|e| anyhow!("cannot draw {what} as PNG: {e}"))?;
    }
    let png = encode_png(&rgb, w, h)?;
    Ok(Rendered { svg, png })
}

/// RGB pixels to PNG bytes (best compression: the figures are committed).
pub fn encode_png(rgb: &[u8], w: u32, h: u32) -> anyhow::Result<Vec<u8>> {
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
pub fn decade_label(v: f64, f: fn(f64) -> String) -> String {
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
}

#[cfg(test)]
mod colour_tests {
    use super::*;

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
