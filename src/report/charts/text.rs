//! Text in charts: the embedded font, measuring and wrapping labels, and a
//! bitmap backend that places glyphs correctly.
//!
//! Text is drawn with DejaVu Sans embedded in the binary (through
//! `ab_glyph`), so charts render the same on a machine with no fonts.
//! plotters 0.3.7 rasterises each glyph at the pen position without its
//! left side bearing, so a narrow glyph such as "1" lands too far left and
//! leaves a gap after it ("d1 0"). [`Sharp`] wraps the bitmap backend and
//! lays glyphs out by their outlines' own bounds instead; the SVG backend
//! writes `<text>` and needs no help. Sizes follow plotters' convention
//! (the em is `size / 1.24`), and vertical anchors follow its SVG output
//! (top: baseline 0.76 em down; centre: 0.5 ex down; bottom: 0.5 ex up), so
//! PNG and SVG agree.

use std::sync::{Once, OnceLock};

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

static FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
static REGISTER: Once = Once::new();
static PARSED: OnceLock<FontRef<'static>> = OnceLock::new();

/// Make the embedded font plotters' "sans-serif".
pub fn register_font() {
    REGISTER.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            // The font is compiled in and known good; failure is a build bug.
            plotters::style::register_font("sans-serif", style, FONT)
                .unwrap_or_else(|_| panic!("embedded font is invalid"));
        }
    });
}

fn font() -> &'static FontRef<'static> {
    PARSED.get_or_init(|| FontRef::try_from_slice(FONT).expect("embedded font is invalid"))
}

/// The ab_glyph scale whose em is `size / 1.24` pixels.
fn scale(size: f64) -> PxScale {
    let em = (size / 1.24) as f32;
    font()
        .pt_to_px_scale(em)
        .unwrap_or(PxScale::from(em * 1.164))
}

/// Width in pixels of `text` at plotters font size `size`.
pub fn width(text: &str, size: f64) -> f64 {
    let f = font().as_scaled(scale(size));
    let mut w = 0.0f32;
    let mut prev = None;
    for c in text.chars() {
        let id = f.glyph_id(c);
        if let Some(p) = prev {
            w += f.kern(p, id);
        }
        w += f.h_advance(id);
        prev = Some(id);
    }
    w as f64
}

/// `text` broken at spaces into lines no wider than `max` pixels; a word
/// wider than `max` on its own is shortened with an ellipsis. Never more
/// than `max_lines` lines (the last one shortened if text remains).
pub fn wrap(text: &str, size: f64, max: f64, max_lines: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let candidate = if current.is_empty() {
            word.to_string()
        } else {
            format!("{current} {word}")
        };
        if width(&candidate, size) <= max || current.is_empty() {
            current = candidate;
        } else {
            lines.push(std::mem::take(&mut current));
            current = word.to_string();
        }
    }
    if !current.is_empty() || lines.is_empty() {
        lines.push(current);
    }
    if lines.len() > max_lines {
        let rest = lines.split_off(max_lines - 1).join(" ");
        lines.push(rest);
    }
    lines.iter().map(|l| shorten(l, size, max)).collect()
}

/// `text`, cut and ended with "…" when wider than `max` pixels.
pub fn shorten(text: &str, size: f64, max: f64) -> String {
    if width(text, size) <= max {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    for keep in (0..chars.len()).rev() {
        let cut: String = chars[..keep]
            .iter()
            .collect::<String>()
            .trim_end()
            .to_string()
            + "…";
        if width(&cut, size) <= max {
            return cut;
        }
    }
    "…".into()
}

/// A drawing backend that forwards everything to `B` but draws text with
/// correctly placed glyphs (see the module doc).
pub struct Sharp<B: DrawingBackend>(pub B);

impl<B: DrawingBackend> DrawingBackend for Sharp<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.present()
    }
    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.fill_polygon(vert, style)
    }
    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.blit_bitmap(pos, size, src)
    }
    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        Ok((
            width(text, style.size()).ceil() as u32,
            (style.size() / 1.24).ceil() as u32,
        ))
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let size = style.size();
        let f = font().as_scaled(scale(size));
        let em = (size / 1.24) as f32;
        // x-height of DejaVu Sans: 1120 of 2048 units.
        let ex = em * 1120.0 / 2048.0;
        let w = width(text, size) as f32;
        let x0 = match style.anchor().h_pos {
            HPos::Left => 0.0,
            HPos::Center => -w / 2.0,
            HPos::Right => -w,
        };
        let baseline = match style.anchor().v_pos {
            VPos::Top => 0.76 * em,
            VPos::Center => 0.5 * ex,
            VPos::Bottom => -0.5 * ex,
        };
        let trans = style.transform();
        let (cw, ch) = self.get_size();
        let mut pen = x0;
        let mut prev = None;
        let mut pixels: Vec<(i32, i32, f32)> = Vec::new();
        for c in text.chars() {
            let id = f.glyph_id(c);
            if let Some(p) = prev {
                pen += f.kern(p, id);
            }
            prev = Some(id);
            let glyph = id.with_scale_and_position(f.scale(), point(pen, baseline));
            pen += f.h_advance(id);
            let Some(outline) = font().outline_glyph(glyph) else {
                continue;
            };
            let b = outline.px_bounds();
            outline.draw(|x, y, cover| {
                pixels.push((b.min.x as i32 + x as i32, b.min.y as i32 + y as i32, cover));
            });
        }
        for (x, y, cover) in pixels {
            if cover <= 0.0 {
                continue;
            }
            let (dx, dy) = trans.transform(x, y);
            let (px, py) = (pos.0 + dx, pos.1 + dy);
            if px < 0 || py < 0 || px >= cw as i32 || py >= ch as i32 {
                continue;
            }
            self.0.draw_pixel(
                (px, py),
                BackendColor {
                    alpha: color.alpha * cover.min(1.0) as f64,
                    rgb: color.rgb,
                },
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_digits_take_their_advance_not_their_ink() {
        // "d10" is as wide as "d" plus two digit advances (DejaVu's digits
        // share one advance), however narrow the "1" glyph's ink is.
        let d = width("d", 12.0);
        let one = width("1", 12.0);
        let zero = width("0", 12.0);
        assert!((one - zero).abs() < 1e-6);
        assert!((width("d10", 12.0) - (d + one + zero)).abs() < 0.5);
    }

    #[test]
    fn wrapping_breaks_at_spaces_and_never_overflows() {
        let lines = wrap("actor.pool = d12 d10 d8 d6", 12.0, 70.0, 3);
        assert!(lines.len() > 1, "{lines:?}");
        for l in &lines {
            assert!(width(l, 12.0) <= 70.0, "{l:?} is too wide");
        }
        assert_eq!(
            lines.join(" ").replace('…', ""),
            "actor.pool = d12 d10 d8 d6"
        );
        let cut = shorten("opposition.variability", 12.0, 50.0);
        assert!(cut.ends_with('…') && width(&cut, 12.0) <= 50.0, "{cut}");
        assert_eq!(wrap("a b c d e f", 12.0, 1.0, 2).len(), 2);
    }
}
