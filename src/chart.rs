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
