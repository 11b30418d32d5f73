//! How series are told apart, and how colour encodes a value.
//!
//! Series (lines, bars) take the Okabe-Ito palette (Okabe & Ito, "Color
//! Universal Design", 2008), which the common forms of colour blindness
//! keep apart, without its yellow, which vanishes on white; the five most
//! contrasting colours come first (each at least 3:1 against white, the
//! WCAG minimum for graphics). Past seven series the values are usually
//! ordered levels, so they take viridis, darkened where it is too pale
//! for white. A value on a scale (a heatmap cell) takes
//! viridis (Nuñez, Anderton & Renslow, PLOS ONE 2018), which reads in
//! order for colour-blind viewers and in greyscale. Colour alone fails
//! where lines coincide or print in grey, so each series also has its own
//! hollow marker shape and dash pattern, and earlier series are drawn
//! wider: a line drawn over an identical one leaves the wider one showing
//! on both sides.

use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;

/// Okabe-Ito without yellow: blue, vermillion, bluish green, reddish
/// purple, black (contrast 3:1 or more on white), then orange and sky blue
/// (about 2.3:1, so only from the sixth series on).
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0x00, 0x00, 0x00),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x56, 0xB4, 0xE9),
];

/// The colour of series `i` of `n`: the palette in order; past seven
/// series (a challenge level from 0 to 10), viridis instead, so the lines
/// read in order, each darkened until it stands out from white at 3:1.
pub fn colour(i: usize, n: usize) -> RGBColor {
    if n <= PALETTE.len() {
        return PALETTE[i % PALETTE.len()];
    }
    let t = i as f32 / (n - 1) as f32 * 0.9;
    let mut c = ViridisRGB.get_color(t);
    while contrast_on_white(c) < 3.0 {
        let dim = |x: u8| (x as f64 * 0.94).round() as u8;
        c = RGBColor(dim(c.0), dim(c.1), dim(c.2));
    }
    c
}

/// WCAG contrast ratio of `c` against white.
fn contrast_on_white(c: RGBColor) -> f64 {
    1.05 / (luminance(c) + 0.05)
}

/// WCAG relative luminance.
fn luminance(c: RGBColor) -> f64 {
    let lin = |c: u8| {
        let c = c as f64 / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c.0) + 0.7152 * lin(c.1) + 0.0722 * lin(c.2)
}

/// The colour of a value already scaled to 0..=1.
pub fn scale_colour(t: f64) -> RGBColor {
    ViridisRGB.get_color(t.clamp(0.0, 1.0) as f32)
}

/// Black or white, whichever reads better on `bg` (WCAG contrast: black
/// wins above a relative luminance of about 0.18).
pub fn text_on(bg: RGBColor) -> RGBColor {
    let l = luminance(bg);
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
    fn series_colours_are_okabe_ito_and_show_on_white() {
        // The first five of any chart stand out at 3:1 or more, none below
        // 2:1, and no yellow (#F0E442, 1.3:1) is ever used.
        for i in 0..5 {
            assert!(contrast_on_white(colour(i, 5)) >= 3.0, "series {i}");
        }
        for c in PALETTE {
            assert!(contrast_on_white(c) >= 2.2, "{c:?}");
            assert_ne!(c, RGBColor(0xF0, 0xE4, 0x42));
        }
        assert_eq!(colour(0, 4), RGBColor(0x00, 0x72, 0xB2));
        assert_eq!(colour(1, 4), RGBColor(0xD5, 0x5E, 0x00));
        // Seven distinct colours before any repeats.
        for i in 0..7 {
            for j in 0..i {
                assert_ne!(colour(i, 7), colour(j, 7));
            }
        }
        // Many series read in order, and each still shows on white.
        let many: Vec<RGBColor> = (0..11).map(|i| colour(i, 11)).collect();
        for (i, c) in many.iter().enumerate() {
            assert!(contrast_on_white(*c) >= 3.0, "{i}: {c:?}");
            for d in &many[..i] {
                assert_ne!(c, d);
            }
        }
        assert_eq!(many[0], ViridisRGB.get_color(0.0));
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
