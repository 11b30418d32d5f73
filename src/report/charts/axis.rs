//! Horizontal axes: ticks exactly at the values a sweep (or a field) took,
//! and tick labels wrapped to the room between ticks, never clipped.
//!
//! plotters picks "nice" round ticks (6 and 8 for a sweep of 5, 7, 9) and
//! draws each label on one line however long; so charts bind the ticks to
//! the swept values themselves and draw their own labels.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::text;
use super::{TICK_FONT, draw_err};
use crate::report::OutputError;
use crate::systems::ParamValue;

/// Line height of tick labels, in pixels.
const LINE: u32 = 14;
/// At most this many lines per tick label.
const MAX_LINES: usize = 3;
/// Numeric axes show at most this many ticks.
const MAX_NUMERIC_TICKS: usize = 15;

/// A horizontal axis: its range, and the labelled ticks it shows.
#[derive(Clone, Debug, PartialEq)]
pub struct XAxis {
    pub lo: f64,
    pub hi: f64,
    /// Tick positions with their labels' lines.
    pub ticks: Vec<(f64, Vec<String>)>,
}

impl XAxis {
    /// Tick positions, for the mesh.
    pub fn positions(&self) -> Vec<f64> {
        self.ticks.iter().map(|t| t.0).collect()
    }

    /// Height of the label area below the plot: the labels and the axis
    /// description under them.
    pub fn label_area(&self) -> u32 {
        let lines = self.ticks.iter().map(|t| t.1.len()).max().unwrap_or(1) as u32;
        12 + lines * LINE + 26
    }
}

/// Where the values of a swept parameter sit on the axis: integers at
/// themselves (so the spacing means something), anything else at 0, 1, 2…
pub fn positions(values: &[ParamValue]) -> Vec<f64> {
    if numeric(values) {
        values
            .iter()
            .map(|v| match v {
                ParamValue::Int(i) => *i as f64,
                _ => 0.0,
            })
            .collect()
    } else {
        (0..values.len()).map(|i| i as f64).collect()
    }
}

pub fn numeric(values: &[ParamValue]) -> bool {
    values.iter().all(|v| matches!(v, ParamValue::Int(_)))
}

/// An axis whose ticks are at `at` (in increasing order) labelled `labels`,
/// padded by `pad` on each side, for a plot `plot_width` pixels wide.
/// Labels wrap to the room between ticks; when even one word per line does
/// not fit, only every k-th tick is labelled (k = 2, 5, 10, 20… for numbers
/// so the labels stay round; 2, 3, 4… otherwise).
pub fn axis(at: &[f64], labels: &[String], pad: f64, plot_width: f64, is_numeric: bool) -> XAxis {
    let lo = at.iter().cloned().fold(f64::INFINITY, f64::min) - pad;
    let hi = at.iter().cloned().fold(f64::NEG_INFINITY, f64::max) + pad;
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo, hi)
    } else {
        (-0.5, 0.5)
    };
    let px = |d: f64| d / (hi - lo) * plot_width;
    let strides: Vec<usize> = if is_numeric {
        [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]
            .into_iter()
            .filter(|&k| k < at.len().max(2))
            .collect()
    } else {
        (1..at.len().max(2)).collect()
    };
    let mut chosen: Option<Vec<(f64, Vec<String>)>> = None;
    for &k in &strides {
        let shown = every(at, k, is_numeric);
        if is_numeric && shown.len() > MAX_NUMERIC_TICKS {
            continue;
        }
        let room = shown
            .windows(2)
            .map(|w| px(at[w[1]] - at[w[0]]))
            .fold(plot_width, f64::min)
            - 8.0;
        let fits = shown.iter().all(|&i| {
            labels[i]
                .split(' ')
                .all(|word| text::width(word, TICK_FONT) <= room)
                && text::wrap(&labels[i], TICK_FONT, room, usize::MAX).len() <= MAX_LINES
        });
        let ticks = shown
            .iter()
            .map(|&i| (at[i], text::wrap(&labels[i], TICK_FONT, room, MAX_LINES)))
            .collect();
        chosen = Some(ticks);
        if fits {
            break;
        }
    }
    XAxis {
        lo,
        hi,
        ticks: chosen.unwrap_or_default(),
    }
}

/// Every k-th tick: for integers the multiples of k (so labels stay round),
/// else (or when too few integers are multiples) every k-th position.
fn every(at: &[f64], k: usize, is_numeric: bool) -> Vec<usize> {
    let by_index = || (0..at.len()).filter(|i| i % k == 0).collect();
    if !is_numeric || k == 1 {
        return by_index();
    }
    let round: Vec<usize> = (0..at.len())
        .filter(|&i| (at[i] as i64).rem_euclid(k as i64) == 0)
        .collect();
    if round.len() >= 2 { round } else { by_index() }
}

/// Draw the tick labels of `axis` under a plot whose bottom edge is at
/// backend pixel row `bottom`; `to_px` maps an axis position to its backend
/// pixel column.
pub fn draw_labels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    axis: &XAxis,
    bottom: i32,
    to_px: impl Fn(f64) -> i32,
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    let (bx, by) = area.get_base_pixel();
    let style = ("sans-serif", TICK_FONT)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (x, lines) in &axis.ticks {
        let px = to_px(*x) - bx;
        for (k, line) in lines.iter().enumerate() {
            let py = bottom - by + 8 + k as i32 * LINE as i32;
            area.draw(&Text::new(line.clone(), (px, py), style.clone()))
                .map_err(draw_err)?;
        }
    }
    Ok(())
}

/// Width of the y label area: tick labels and the rotated description.
const Y_AREA: u32 = 66;
/// Margin around a panel's plot.
const MARGIN: u32 = 14;

/// A chart's coordinates: x bound to the axis's ticks, y plain.
pub type Coords = Cartesian2d<Ticked, RangedCoordf64>;

/// A linear range whose only ticks (and grid lines) are the given values.
#[derive(Clone, Debug)]
pub struct Ticked {
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<f64>,
}

impl Ranged for Ticked {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    /// The same mapping as plotters' own `f64` ranges.
    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        if self.hi == self.lo {
            return (limit.1 - limit.0) / 2;
        }
        let t = (v - self.lo) / (self.hi - self.lo);
        let len = limit.1 - limit.0;
        if len >= 0 {
            limit.0 + (len as f64 * t + 1e-3).floor() as i32
        } else {
            limit.0 + (len as f64 * t - 1e-3).ceil() as i32
        }
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

impl ValueFormatter<f64> for Ticked {
    fn format(v: &f64) -> String {
        format!("{v}")
    }
}

/// What a panel's frame shows.
pub struct Frame<'s> {
    pub caption: &'s str,
    /// Positions of the x values, in increasing order, and their labels.
    pub at: &'s [f64],
    pub labels: &'s [String],
    /// Room left and right of the outermost values, in axis units.
    pub pad: f64,
    pub numeric: bool,
    pub y: (f64, f64),
    pub x_desc: &'s str,
    pub y_desc: &'s str,
    /// How y tick labels read: plain numbers, percentages, or percentage
    /// points.
    pub y_ticks: YTicks,
}

/// How a y axis labels its ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YTicks {
    Plain,
    /// Probabilities as percentages: 0.25 reads "25%".
    Percent,
    /// Differences of probabilities in percentage points: 0.05 reads "+5".
    Points,
}

/// Build a panel's chart: caption, axes with ticks at the given x values
/// and wrapped labels under them, and a light grid.
pub fn frame<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    f: &Frame,
) -> Result<ChartContext<'a, DB, Coords>, OutputError>
where
    DB::ErrorType: 'static,
{
    let plot_width = area.dim_in_pixel().0 as f64 - (2 * MARGIN + Y_AREA) as f64;
    let axis = axis(f.at, f.labels, f.pad, plot_width, f.numeric);
    let mut builder = ChartBuilder::on(area);
    let caption = text::shorten(f.caption, 16.0, area.dim_in_pixel().0 as f64 - 20.0);
    if !caption.is_empty() {
        builder.caption(caption, ("sans-serif", 16));
    }
    let mut chart = builder
        .margin(MARGIN)
        .x_label_area_size(axis.label_area())
        .y_label_area_size(Y_AREA)
        .build_cartesian_2d(
            Ticked {
                lo: axis.lo,
                hi: axis.hi,
                ticks: axis.positions(),
            },
            f.y.0..f.y.1,
        )
        .map_err(draw_err)?;
    let percent = |v: &f64| super::percent_tick(*v);
    let points = |v: &f64| {
        let p = super::points(*v);
        if *v > 0.0 && p != "0" {
            format!("+{p}")
        } else {
            p
        }
    };
    // x labels are drawn by `draw_labels`, wrapped.
    let no_label = |_: &f64| String::new();
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(f.x_desc)
        .y_desc(f.y_desc)
        .x_label_formatter(&no_label)
        .axis_desc_style(("sans-serif", super::AXIS_FONT))
        .label_style(("sans-serif", TICK_FONT))
        .bold_line_style(BLACK.mix(0.12))
        .light_line_style(WHITE.mix(0.0));
    match f.y_ticks {
        YTicks::Plain => {}
        YTicks::Percent => {
            mesh.y_label_formatter(&percent);
        }
        YTicks::Points => {
            mesh.y_label_formatter(&points);
        }
    }
    mesh.draw().map_err(draw_err)?;
    let y0 = f.y.0;
    let bottom = chart.backend_coord(&(axis.lo, y0)).1;
    draw_labels(area, &axis, bottom, |x| chart.backend_coord(&(x, y0)).0)?;
    Ok(chart)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(xs: &[i64]) -> Vec<String> {
        xs.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn ticks_sit_on_the_swept_values() {
        let at = [5.0, 7.0, 9.0];
        let a = axis(&at, &labels(&[5, 7, 9]), 0.2, 500.0, true);
        let shown: Vec<f64> = a.positions();
        assert_eq!(shown, vec![5.0, 7.0, 9.0]);
        assert_eq!(a.ticks[1].1, vec!["7".to_string()]);
    }

    #[test]
    fn long_numeric_sweeps_thin_to_round_strides() {
        let xs: Vec<i64> = (5..=45).collect();
        let at: Vec<f64> = xs.iter().map(|&x| x as f64).collect();
        let a = axis(&at, &labels(&xs), 1.0, 500.0, true);
        let shown: Vec<f64> = a.positions();
        assert_eq!(
            shown,
            vec![5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0, 40.0, 45.0]
        );
    }

    #[test]
    fn long_category_labels_wrap_instead_of_clipping() {
        let names: Vec<String> = ["d12 d10 d8 d6", "d10 d8 d6", "2d12 d10 d8 d4", "d6"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let a = axis(&[0.0, 1.0, 2.0, 3.0], &names, 0.5, 220.0, false);
        assert_eq!(a.ticks.len(), 4);
        for ((_, lines), name) in a.ticks.iter().zip(&names) {
            assert_eq!(&lines.join(" "), name, "nothing lost from {name}");
            for l in lines {
                assert!(text::width(l, TICK_FONT) <= 220.0 / 4.0);
            }
        }
        assert!(a.ticks[0].1.len() > 1);
    }
}
