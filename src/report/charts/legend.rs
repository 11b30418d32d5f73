//! What sits beside the panels, outside every plot area: the legend of a
//! line or distribution chart, or the colour bar of a heatmap. Nothing
//! drawn here can cover a data point, because no plot reaches this column.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::style::{self, Look, MARKER_RADIUS};
use super::text;
use super::{LEGEND_FONT, draw_err};
use crate::report::OutputError;

/// The legend frame's colour: a grey used by nothing else, so a test can
/// find the frame in the SVG.
pub const FRAME: RGBColor = RGBColor(0x8c, 0x8c, 0x8d);
/// Widest a legend label may be before it wraps.
const LABEL_MAX: f64 = 190.0;
const LINE: i32 = 15;
const SWATCH: i32 = 34;
const PAD: i32 = 10;

/// One legend entry.
pub struct Entry {
    pub label: String,
    pub look: Look,
}

/// A legend: an optional title (the parameter the entries are values of)
/// and entries drawn as line samples with markers, or as bars.
pub struct Legend {
    pub title: Option<String>,
    pub entries: Vec<Entry>,
    pub bars: bool,
}

impl Legend {
    fn lines(&self) -> Vec<Vec<String>> {
        self.entries
            .iter()
            .map(|e| text::wrap(&e.label, LEGEND_FONT, LABEL_MAX, 4))
            .collect()
    }

    /// Width of the column the legend needs.
    pub fn width(&self) -> u32 {
        let labels = self
            .lines()
            .iter()
            .flatten()
            .map(|l| text::width(l, LEGEND_FONT))
            .fold(0.0, f64::max);
        let title = self
            .title
            .as_deref()
            .map(|t| {
                text::width(
                    &text::shorten(t, LEGEND_FONT, LABEL_MAX + 40.0),
                    LEGEND_FONT,
                )
            })
            .unwrap_or(0.0);
        (labels + SWATCH as f64 + 8.0).max(title).ceil() as u32 + 2 * PAD as u32 + 16
    }

    /// Draw the legend at the top of `area` (a column beside the panels).
    pub fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), OutputError>
    where
        DB::ErrorType: 'static,
    {
        let w = area.dim_in_pixel().0 as i32;
        let (x0, y0) = (8, 40);
        let inner = w - 16;
        let font = ("sans-serif", LEGEND_FONT)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        let mut y = y0 + PAD;
        let mut texts: Vec<(String, (i32, i32))> = Vec::new();
        if let Some(t) = &self.title {
            let t = text::shorten(t, LEGEND_FONT, (inner - 2 * PAD) as f64);
            texts.push((t, (x0 + PAD, y + 4)));
            y += LINE + 8;
        }
        let mut swatches = Vec::new();
        for (e, lines) in self.entries.iter().zip(self.lines()) {
            let mid = y + 4 + (lines.len() as i32 - 1) * LINE / 2;
            swatches.push((e.look, mid));
            for (k, l) in lines.iter().enumerate() {
                texts.push((l.clone(), (x0 + PAD + SWATCH + 8, y + 4 + k as i32 * LINE)));
            }
            y += lines.len() as i32 * LINE + 6;
        }
        area.draw(&Rectangle::new(
            [(x0, y0), (x0 + inner, y + 2)],
            ShapeStyle::from(&FRAME).stroke_width(1),
        ))
        .map_err(draw_err)?;
        for (look, mid) in swatches {
            let (a, b) = (x0 + PAD, x0 + PAD + SWATCH);
            if self.bars {
                area.draw(&Rectangle::new(
                    [(a + 6, mid - 6), (b - 6, mid + 6)],
                    look.colour.filled(),
                ))
                .map_err(draw_err)?;
                continue;
            }
            let stroke = look.colour.stroke_width(look.width);
            match look.dash {
                None => area
                    .draw(&PathElement::new(vec![(a, mid), (b, mid)], stroke))
                    .map_err(draw_err)?,
                Some((on, off)) => area
                    .draw(&DashedPathElement::new(
                        vec![(a, mid), (b, mid)],
                        on,
                        off,
                        stroke,
                    ))
                    .map_err(draw_err)?,
            }
            let centre = (a + b) / 2;
            let ring: Vec<(i32, i32)> = style::outline(look.marker, MARKER_RADIUS)
                .into_iter()
                .map(|(dx, dy)| (centre + dx, mid + dy))
                .collect();
            area.draw(&PathElement::new(ring, look.colour.stroke_width(2)))
                .map_err(draw_err)?;
        }
        for (t, at) in texts {
            area.draw(&Text::new(t, at, font.clone()))
                .map_err(draw_err)?;
        }
        Ok(())
    }
}

/// A heatmap's colour scale: the values at its ends, and how a value reads.
#[derive(Clone, Debug, PartialEq)]
pub struct ColourScale {
    pub lo: f64,
    pub hi: f64,
    /// What the colour means (the metric's name).
    pub title: String,
    pub probability: bool,
    /// Probabilities read as percentages.
    pub percent: bool,
}

impl ColourScale {
    /// Where `v` falls on the scale, 0..=1.
    pub fn position(&self, v: f64) -> f64 {
        if self.hi > self.lo {
            ((v - self.lo) / (self.hi - self.lo)).clamp(0.0, 1.0)
        } else {
            0.5
        }
    }

    pub fn colour(&self, v: f64) -> RGBColor {
        style::scale_colour(self.position(v))
    }

    /// Labelled values along the bar: 0, 0.2 … 1 for probabilities, else
    /// five evenly spaced values.
    pub fn ticks(&self) -> Vec<f64> {
        if self.probability {
            (0..=5).map(|k| k as f64 * 0.2).collect()
        } else if self.hi > self.lo {
            (0..=4)
                .map(|k| self.lo + (self.hi - self.lo) * k as f64 / 4.0)
                .collect()
        } else {
            vec![self.lo]
        }
    }

    pub const WIDTH: u32 = 110;

    /// Draw the bar down `area`, from `top` to `bottom` (pixels within the
    /// area): high values at the top.
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        top: i32,
        bottom: i32,
    ) -> Result<(), OutputError>
    where
        DB::ErrorType: 'static,
    {
        let (x0, x1) = (16, 38);
        let steps = 64;
        let h = (bottom - top) as f64;
        for k in 0..steps {
            let (a, b) = (k as f64 / steps as f64, (k + 1) as f64 / steps as f64);
            let y_hi = bottom - (b * h).round() as i32;
            let y_lo = bottom - (a * h).round() as i32;
            let t = (a + b) / 2.0;
            area.draw(&Rectangle::new(
                [(x0, y_hi), (x1, y_lo)],
                style::scale_colour(t).filled(),
            ))
            .map_err(draw_err)?;
        }
        area.draw(&Rectangle::new(
            [(x0, top), (x1, bottom)],
            ShapeStyle::from(&BLACK.mix(0.5)).stroke_width(1),
        ))
        .map_err(draw_err)?;
        let font = ("sans-serif", LEGEND_FONT)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        for v in self.ticks() {
            let y = bottom - (self.position(v) * h).round() as i32;
            area.draw(&PathElement::new(
                vec![(x1, y), (x1 + 5, y)],
                BLACK.stroke_width(1),
            ))
            .map_err(draw_err)?;
            let label = if self.probability && self.percent {
                super::percent_tick(v)
            } else if self.probability {
                format!("{v:.1}")
            } else {
                number(v)
            };
            area.draw(&Text::new(label, (x1 + 8, y), font.clone()))
                .map_err(draw_err)?;
        }
        // The bar's title, along its left edge.
        let title = ("sans-serif", LEGEND_FONT)
            .into_font()
            .transform(FontTransform::Rotate270)
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Center));
        let t = text::shorten(&self.title, LEGEND_FONT, h);
        area.draw(&Text::new(t, (7, (top + bottom) / 2), title))
            .map_err(draw_err)?;
        Ok(())
    }
}

/// A value as a heatmap cell or colour bar shows it: two decimals below 10,
/// one below 100, none beyond.
pub fn number(v: f64) -> String {
    let s = if v.abs() < 10.0 {
        format!("{v:.2}")
    } else if v.abs() < 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.0}")
    };
    // A value that rounds to zero reads "0.00", not "-0.00".
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => s,
    }
}
