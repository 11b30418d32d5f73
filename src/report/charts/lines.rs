//! Line charts (a metric against a swept parameter, one line per series
//! value) and compare charts (the same, beside each value's difference
//! from the first: how much a policy or variant changes the odds).

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis::{self, Coords, Frame, YTicks};
use super::legend::{Entry, Legend};
use super::select::{self, metric_point, value_index};
use super::style::{self, Look, MARKER_RADIUS};
use super::{Figure, Side, draw_err, padded};
use crate::report::OutputError;
use crate::results::ConfigResult;
use crate::systems::ParamValue;

/// x, value, and the Monte Carlo interval when there is one.
pub type Point = (f64, f64, Option<(f64, f64)>);

/// The series of a line chart: each value of `series` (or the one line).
fn series(fig: &Figure) -> Vec<Option<ParamValue>> {
    match &fig.spec.series {
        Some(s) => select::axis_values(fig.results, s, &fig.configs)
            .into_iter()
            .map(Some)
            .collect(),
        None => vec![None],
    }
}

/// The legend: the series parameter as its title, its values as entries.
pub fn side(fig: &Figure) -> Side {
    let Some(path) = &fig.spec.series else {
        return Side::None;
    };
    let values = series(fig);
    let n = values.len();
    Side::Legend(Legend {
        title: Some(fig.label(path).to_string()),
        entries: values
            .iter()
            .enumerate()
            .map(|(k, v)| Entry {
                label: v.as_ref().map(|v| v.to_string()).unwrap_or_default(),
                look: style::look(k, n),
            })
            .collect(),
        bars: false,
    })
}

/// The x values of every selected config (so facets share an axis), their
/// positions and labels.
fn x_axis(fig: &Figure) -> (Vec<ParamValue>, Vec<f64>, Vec<String>, bool) {
    let path = fig.spec.x.as_deref().unwrap_or_default();
    let values = select::axis_values(fig.results, path, &fig.configs);
    let at = axis::positions(&values);
    // Integer sweeps keep their sweep order on the axis by value.
    let labels = values.iter().map(|v| v.to_string()).collect();
    let numeric = axis::numeric(&values);
    (values, at, labels, numeric)
}

/// The points of one series among `configs`, in x order.
fn points(fig: &Figure, configs: &[&ConfigResult], s: &Option<ParamValue>) -> Vec<Point> {
    let (values, at, _, _) = x_axis(fig);
    let xi = value_index(fig.results, fig.spec.x.as_deref().unwrap_or_default());
    let mut pts: Vec<Point> = configs
        .iter()
        .filter(|c| match (s, &fig.spec.series) {
            (Some(v), Some(p)) => &c.swept[value_index(fig.results, p)] == v,
            _ => true,
        })
        .filter_map(|c| {
            let (v, iv) = metric_point(c, fig.metric())?;
            let k = values.iter().position(|x| *x == c.swept[xi])?;
            Some((at[k], v, iv))
        })
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    pts
}

/// The y range every panel shares: 0..1 for probabilities, else all the
/// values and intervals of every selected config, with 0 in view.
fn y_range(fig: &Figure) -> (f64, f64) {
    if fig.is_probability() {
        return (-0.02, 1.02);
    }
    let mut lo = 0.0f64;
    let mut hi = f64::NEG_INFINITY;
    for s in series(fig) {
        for p in points(fig, &fig.configs, &s) {
            lo = lo.min(p.2.map_or(p.1, |i| i.0));
            hi = hi.max(p.2.map_or(p.1, |i| i.1));
        }
    }
    padded(lo, hi)
}

/// Draw one series: its Monte Carlo band, its line, its markers.
pub fn draw_series<DB: DrawingBackend>(
    chart: &mut ChartContext<DB, Coords>,
    pts: &[Point],
    look: &Look,
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    if pts.iter().any(|p| p.2.is_some()) {
        let mut band: Vec<(f64, f64)> = pts
            .iter()
            .map(|p| (p.0, p.2.map_or(p.1, |i| i.1)))
            .collect();
        band.extend(pts.iter().rev().map(|p| (p.0, p.2.map_or(p.1, |i| i.0))));
        chart
            .draw_series(std::iter::once(Polygon::new(
                band,
                look.colour.mix(0.18).filled(),
            )))
            .map_err(draw_err)?;
    }
    let line: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.1)).collect();
    let stroke = look.colour.stroke_width(look.width);
    match look.dash {
        None => chart
            .draw_series(LineSeries::new(line.clone(), stroke))
            .map(|_| ()),
        Some((on, off)) => chart
            .draw_series(DashedLineSeries::new(line.clone(), on, off, stroke))
            .map(|_| ()),
    }
    .map_err(draw_err)?;
    // Smaller markers where points crowd.
    let r = if pts.len() > 16 {
        MARKER_RADIUS - 2
    } else {
        MARKER_RADIUS
    };
    let ring = style::outline(look.marker, r);
    chart
        .draw_series(line.iter().map(|&p| {
            EmptyElement::at(p) + PathElement::new(ring.clone(), look.colour.stroke_width(2))
        }))
        .map_err(draw_err)?;
    Ok(())
}

/// A line chart panel.
pub fn line<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    fig: &Figure,
    configs: &[&ConfigResult],
    caption: &str,
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    let (_, at, labels, numeric) = x_axis(fig);
    let x = fig.spec.x.as_deref().unwrap_or_default();
    let mut chart = axis::frame(
        area,
        &Frame {
            caption,
            at: &at,
            labels: &labels,
            pad: pad(&at, numeric),
            numeric,
            y: y_range(fig),
            x_desc: &fig.x_title(x),
            y_desc: &fig.y_title(|| fig.label(fig.metric()).to_string()),
            y_ticks: if fig.spec.percent {
                YTicks::Percent
            } else {
                YTicks::Plain
            },
        },
    )?;
    let all = series(fig);
    for (k, s) in all.iter().enumerate() {
        draw_series(
            &mut chart,
            &points(fig, configs, s),
            &style::look(k, all.len()),
        )?;
    }
    Ok(())
}

/// Room beside the outermost x values: half a step for categories, 4% of
/// the span for numbers.
pub fn pad(at: &[f64], numeric: bool) -> f64 {
    if !numeric || at.len() < 2 {
        return 0.5;
    }
    let lo = at.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = at.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    (hi - lo) * 0.04
}

/// Each series' difference from the first series at the same x, among
/// `configs` (one facet).
fn differences(fig: &Figure, configs: &[&ConfigResult]) -> Vec<Vec<(f64, f64)>> {
    let all = series(fig);
    let base = points(fig, configs, &all[0]);
    all.iter()
        .map(|s| {
            points(fig, configs, s)
                .iter()
                .filter_map(|p| {
                    let b = base.iter().find(|q| (q.0 - p.0).abs() < 1e-9)?;
                    Some((p.0, p.1 - b.1))
                })
                .collect()
        })
        .collect()
}

/// A compare panel: the metric by series value on the left; on the right,
/// each value's difference from the first value at the same x.
pub fn compare<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    fig: &Figure,
    configs: &[&ConfigResult],
    caption: &str,
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    let w = area.dim_in_pixel().0;
    let (left, right) = area.split_horizontally(w / 2);
    line(&left, fig, configs, caption)?;
    let all = series(fig);
    let Some(Some(base)) = all.first() else {
        return Ok(());
    };
    // Every facet shares the difference scale too.
    let facets: Vec<Vec<&ConfigResult>> = match &fig.spec.facet {
        Some(f) => select::axis_values(fig.results, f, &fig.configs)
            .iter()
            .map(|v| select::with_value(fig.results, &fig.configs, f, v))
            .collect(),
        None => vec![fig.configs.clone()],
    };
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for group in &facets {
        for (_, d) in differences(fig, group).iter().flatten() {
            lo = lo.min(*d);
            hi = hi.max(*d);
        }
    }
    let (_, at, labels, numeric) = x_axis(fig);
    let series_label = fig.label(fig.spec.series.as_deref().unwrap_or_default());
    let caption = if caption.is_empty() {
        format!("Difference from {series_label} = {base}")
    } else {
        format!("{caption}: difference from {base}")
    };
    let metric = fig.label(fig.metric());
    let y_desc = if fig.spec.percent {
        format!("Δ {metric}, percentage points")
    } else {
        format!("Δ {metric}")
    };
    let mut chart = axis::frame(
        &right,
        &Frame {
            caption: &caption,
            at: &at,
            labels: &labels,
            pad: pad(&at, numeric),
            numeric,
            y: padded(lo, hi),
            x_desc: &fig.x_title(fig.spec.x.as_deref().unwrap_or_default()),
            y_desc: &y_desc,
            y_ticks: if fig.spec.percent {
                YTicks::Points
            } else {
                YTicks::Plain
            },
        },
    )?;
    let (xlo, xhi) = (
        at.iter().cloned().fold(f64::INFINITY, f64::min),
        at.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
    );
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(xlo, 0.0), (xhi, 0.0)],
            BLACK.mix(0.45).stroke_width(1),
        )))
        .map_err(draw_err)?;
    for (k, d) in differences(fig, configs).iter().enumerate().skip(1) {
        let pts: Vec<Point> = d.iter().map(|&(x, y)| (x, y, None)).collect();
        draw_series(&mut chart, &pts, &style::look(k, all.len()))?;
    }
    Ok(())
}
