//! The PNG text backend: plotters' bitmap backend with text laid out glyph
//! by glyph. plotters 0.3.7 drops each glyph's side bearing and rounds the
//! pen position, which turned "cl" into "d", swallowed spaces and drew
//! "puzz le 1"; here glyphs sit at the exact (fractional) pen position,
//! with their side bearings and kerning. Every chart's PNG is drawn on it.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
// Backend traits by path only: `BackendStyle::stroke_width` in scope would
// clash with plotters' `Color::stroke_width`.
use plotters_backend::{BackendColor, BackendCoord, DrawingErrorKind};

use crate::export::chart::FONT_BYTES;

/// The embedded font, parsed once, for the PNG text layout.
pub(super) fn glyphs() -> Option<&'static FontRef<'static>> {
    static FONT_REF: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    FONT_REF
        .get_or_init(|| FontRef::try_from_slice(FONT_BYTES).ok())
        .as_ref()
}

/// Width of `text` at `size` pixels: advances plus kerning, as drawn.
pub(super) fn text_width(font: &FontRef<'static>, size: f64, text: &str) -> f32 {
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
pub(super) struct Crisp<'a>(pub(super) BitMapBackend<'a>);

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
    // Paths, circles and polygons: the trait's own rasterizers, which draw
    // through the lines, rectangles and pixels forwarded here, as plotters'
    // bitmap backend itself does (it overrides none of the three).
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

/// `text` broken at spaces into lines at most `width` pixels wide at font
/// size `size` (a word wider than a line gets a line of its own).
pub(super) fn fit_words(text: &str, size: f64, width: f32) -> Vec<String> {
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

#[cfg(test)]
mod tests {
    use super::super::{FONT, register_font};
    use super::*;

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
}
