//! How series are told apart, and how colour encodes a value.
//!
//! Colours come from viridis (Nuñez, Anderton & Renslow, PLOS ONE 2018),
//! which stays readable for colour-blind viewers and in greyscale. Colour
//! alone fails where lines coincide or print in grey, so each series also
//! has its own hollow marker shape and dash pattern, and earlier series are
//! drawn wider: a line drawn over an identical one leaves the wider one
//! showing on both sides.

use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;

/// The i-th of n series colours: viridis without its palest end, which
/// vanishes on white.
pub fn colour(i: usize, n: usize) -> RGBColor {
    let t = if n <= 1 {
        0.0
    } else {
        i as f32 / (n - 1) as f32 * 0.85
    };
    ViridisRGB.get_color(t)
}

/// The colour of a value already scaled to 0..=1.
pub fn scale_colour(t: f64) -> RGBColor {
    ViridisRGB.get_color(t.clamp(0.0, 1.0) as f32)
}

/// Black or white, whichever reads better on `bg` (WCAG contrast: black
/// wins above a relative luminance of about 0.18).
pub fn text_on(bg: RGBColor) -> RGBColor {
    let lin = |c: u8| {
        let c = c as f64 / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let l = 0.2126 * lin(bg.0) + 0.7152 * lin(bg.1) + 0.0722 * lin(bg.2);
    if (l + 0.05) / 0.05 > 1.05 / (l + 0.05) {
        BLACK
    } else {
        WHITE
    }
}

/// Marker shapes, in the order series take them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Circle,
    Triangle,
    Square,
    Diamond,
    Down,
    Cross,
}

const MARKERS: [Marker; 6] = [
    Marker::Circle,
    Marker::Triangle,
    Marker::Square,
    Marker::Diamond,
    Marker::Down,
    Marker::Cross,
];

/// Half the size of a marker, in pixels.
pub const MARKER_RADIUS: i32 = 5;

/// How one series is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Look {
    pub colour: RGBColor,
    pub marker: Marker,
    /// Dash and gap lengths in pixels; `None` is a solid line.
    pub dash: Option<(u32, u32)>,
    pub width: u32,
}

/// The look of series `i` of `n`. Dashes cycle more slowly than markers, so
/// no two of the first 24 series share both.
pub fn look(i: usize, n: usize) -> Look {
    const DASHES: [Option<(u32, u32)>; 4] = [None, Some((10, 5)), Some((3, 4)), Some((16, 4))];
    Look {
        colour: colour(i, n),
        marker: MARKERS[i % MARKERS.len()],
        dash: DASHES[(i / MARKERS.len() + i) % DASHES.len()],
        width: if n <= 1 {
            3
        } else {
            // From 4 px for the first series down to 2 px for the last.
            (4.0 - 2.0 * i as f64 / (n - 1) as f64).round() as u32
        },
    }
}

/// The outline of a marker centred on (0, 0), closed, in pixels.
pub fn outline(marker: Marker, r: i32) -> Vec<(i32, i32)> {
    let mut pts: Vec<(i32, i32)> = match marker {
        Marker::Circle => (0..12)
            .map(|k| {
                let a = k as f64 * std::f64::consts::TAU / 12.0;
                (
                    (a.cos() * r as f64).round() as i32,
                    (a.sin() * r as f64).round() as i32,
                )
            })
            .collect(),
        Marker::Triangle => vec![(0, -r - 1), (r + 1, r), (-r - 1, r)],
        Marker::Down => vec![(0, r + 1), (r + 1, -r), (-r - 1, -r)],
        Marker::Square => vec![
            (-r + 1, -r + 1),
            (r - 1, -r + 1),
            (r - 1, r - 1),
            (-r + 1, r - 1),
        ],
        Marker::Diamond => vec![(0, -r - 1), (r + 1, 0), (0, r + 1), (-r - 1, 0)],
        // A cross is two strokes through the centre, drawn as one path.
        Marker::Cross => vec![(-r, -r), (r, r), (0, 0), (r, -r), (-r, r), (0, 0)],
    };
    pts.push(pts[0]);
    pts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_colour_contrasts_with_every_viridis_cell() {
        // Dark purple wants white text, yellow wants black; every shade in
        // between gets whichever has the higher contrast.
        assert_eq!(text_on(scale_colour(0.0)), WHITE);
        assert_eq!(text_on(scale_colour(1.0)), BLACK);
        assert_eq!(text_on(scale_colour(0.13)), WHITE);
    }

    #[test]
    fn the_first_series_differ_in_marker_and_dash_or_colour() {
        let looks: Vec<Look> = (0..24).map(|i| look(i, 24)).collect();
        for (i, a) in looks.iter().enumerate() {
            for b in &looks[i + 1..] {
                assert!(a.marker != b.marker || a.dash != b.dash, "{a:?} and {b:?}");
            }
        }
        assert!(look(0, 3).width > look(2, 3).width);
    }
}
