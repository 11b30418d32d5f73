//! Charts of a run's results, as PNG and SVG, drawn with plotters.
//!
//! Text is drawn with DejaVu Sans embedded in the binary (through
//! `ab_glyph`), so charts render the same on a machine with no fonts.
//! Colours come from viridis (Nuñez, Anderton & Renslow, PLOS ONE 2018),
//! which stays readable for colour-blind viewers and in greyscale.

use std::sync::Once;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::OutputError;
use crate::results::{ConfigResult, FieldRow, Method, Results, Run};
use crate::scenario::{ChartKind, ChartSpec};
use crate::systems::ParamValue;

static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

fn register_font() {
    REGISTER.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            // The font is compiled in and known good; failure is a build bug.
            plotters::style::register_font("sans-serif", style, FONT)
                .unwrap_or_else(|_| panic!("embedded font is invalid"));
        }
    });
}

/// Panel size in pixels.
const PANEL: (u32, u32) = (640, 420);
/// Height of the two title lines.
const HEADER: u32 = 56;

/// A rendered chart: PNG bytes, SVG text, and the base file name.
pub struct Rendered {
    pub file: String,
    pub png: Vec<u8>,
    pub svg: String,
}

fn draw_err(e: impl std::fmt::Display) -> OutputError {
    OutputError::Encode {
        what: "chart".into(),
        message: e.to_string(),
    }
}

/// The i-th of n series colours: viridis without its palest end, which
/// vanishes on white.
fn series_colour(i: usize, n: usize) -> RGBColor {
    let t = if n <= 1 {
        0.0
    } else {
        i as f32 / (n - 1) as f32 * 0.85
    };
    ViridisRGB.get_color(t)
}

fn value_index(results: &Results, path: &str) -> usize {
    results
        .swept
        .iter()
        .position(|p| p == path)
        .expect("chart paths are swept")
}

/// Distinct values of a swept path in sweep order.
fn axis_values(results: &Results, path: &str, configs: &[&ConfigResult]) -> Vec<ParamValue> {
    let i = value_index(results, path);
    let mut out: Vec<ParamValue> = Vec::new();
    for c in configs {
        if !out.contains(&c.swept[i]) {
            out.push(c.swept[i].clone());
        }
    }
    out
}

fn best_run(c: &ConfigResult) -> Option<&Run> {
    c.runs
        .iter()
        .find(|r| r.method == Method::Exact)
        .or_else(|| c.runs.first())
}

/// Configs matching the chart's `where`.
fn selected<'a>(results: &'a Results, spec: &ChartSpec) -> Vec<&'a ConfigResult> {
    results
        .configs
        .iter()
        .filter(|c| {
            spec.filter
                .iter()
                .all(|(p, v)| &c.swept[value_index(results, p)] == v)
        })
        .collect()
}

/// The chart's title on one line (for reports and alt text).
pub fn title(results: &Results, spec: &ChartSpec) -> String {
    let (a, b) = title_lines(results, spec);
    if b.is_empty() {
        a
    } else {
        format!("{a} ({b})")
    }
}

/// The scenario name and what is drawn; then what is held fixed.
fn title_lines(results: &Results, spec: &ChartSpec) -> (String, String) {
    let what = spec.title.clone().unwrap_or_else(|| match spec.kind {
        ChartKind::Line | ChartKind::Heatmap => format!(
            "{} by {}",
            spec.metric.as_deref().unwrap_or(""),
            spec.x.as_deref().unwrap_or("")
        ),
        ChartKind::Histogram => format!("distribution of {}", spec.field.as_deref().unwrap_or("")),
        ChartKind::AtLeast => format!("P({} ≥ v)", spec.field.as_deref().unwrap_or("")),
    });
    let fixed: Vec<String> = spec
        .filter
        .iter()
        .map(|(p, v)| format!("{p} = {v}"))
        .collect();
    (format!("{}: {what}", results.name), fixed.join(", "))
}

/// Render one chart to PNG and SVG.
pub fn render(results: &Results, spec: &ChartSpec) -> Result<Rendered, OutputError> {
    register_font();
    let configs = selected(results, spec);
    let facets: Vec<Option<ParamValue>> = match &spec.facet {
        Some(f) => axis_values(results, f, &configs)
            .into_iter()
            .map(Some)
            .collect(),
        None => vec![None],
    };
    let cols = (facets.len() as f64).sqrt().ceil() as u32;
    let rows = (facets.len() as u32).div_ceil(cols);
    // Wide enough for the title at ~11 px a character.
    let (line1, line2) = title_lines(results, spec);
    let text = line1.chars().count().max(line2.chars().count() * 3 / 4) as u32;
    let size = (
        (PANEL.0 * cols).max(text * 11 + 40),
        PANEL.1 * rows + HEADER,
    );

    let mut rgb = vec![0u8; (size.0 * size.1 * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area();
        draw(&root, results, spec, &configs, &facets, (rows, cols))?;
        root.present().map_err(draw_err)?;
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root, results, spec, &configs, &facets, (rows, cols))?;
        root.present().map_err(draw_err)?;
    }
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png)
        .write_image(&rgb, size.0, size.1, image::ColorType::Rgb8)
        .map_err(draw_err)?;
    Ok(Rendered {
        file: spec.file.clone(),
        png,
        svg,
    })
}

use image::ImageEncoder;

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    results: &Results,
    spec: &ChartSpec,
    configs: &[&ConfigResult],
    facets: &[Option<ParamValue>],
    grid: (u32, u32),
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE).map_err(draw_err)?;
    let (head, body) = root.split_vertically(HEADER);
    let (line1, line2) = title_lines(results, spec);
    let centre = |size: i32, colour: RGBAColor| {
        ("sans-serif", size)
            .into_font()
            .color(&colour)
            .pos(Pos::new(HPos::Center, VPos::Center))
    };
    let w = head.dim_in_pixel().0 as i32;
    head.draw_text(&line1, &centre(20, BLACK.to_rgba()), (w / 2, 18))
        .map_err(draw_err)?;
    if !line2.is_empty() {
        head.draw_text(&line2, &centre(14, BLACK.mix(0.75)), (w / 2, 42))
            .map_err(draw_err)?;
    }
    let root = body;
    let panels = root.split_evenly((grid.0 as usize, grid.1 as usize));
    for (panel, facet) in panels.iter().zip(facets) {
        let in_facet: Vec<&ConfigResult> = match (facet, &spec.facet) {
            (Some(v), Some(f)) => {
                let i = value_index(results, f);
                configs
                    .iter()
                    .copied()
                    .filter(|c| &c.swept[i] == v)
                    .collect()
            }
            _ => configs.to_vec(),
        };
        let caption = match (facet, &spec.facet) {
            (Some(v), Some(f)) => format!("{f} = {v}"),
            _ => String::new(),
        };
        match spec.kind {
            ChartKind::Line => line(panel, results, spec, &in_facet, &caption)?,
            ChartKind::Heatmap => heatmap(panel, results, spec, &in_facet, &caption)?,
            ChartKind::Histogram => distribution(panel, results, spec, &in_facet, &caption, false)?,
            ChartKind::AtLeast => distribution(panel, results, spec, &in_facet, &caption, true)?,
        }
    }
    Ok(())
}

/// x positions: the numbers themselves for integer axes, else 0, 1, 2…
fn positions(values: &[ParamValue]) -> Vec<f64> {
    if values.iter().all(|v| matches!(v, ParamValue::Int(_))) {
        values
            .iter()
            .map(|v| {
                if let ParamValue::Int(i) = v {
                    *i as f64
                } else {
                    0.0
                }
            })
            .collect()
    } else {
        (0..values.len()).map(|i| i as f64).collect()
    }
}

fn label_at(values: &[ParamValue], xs: &[f64], x: f64) -> String {
    xs.iter()
        .position(|p| (p - x).abs() < 1e-9)
        .map(|i| values[i].to_string())
        .unwrap_or_default()
}

fn padded(lo: f64, hi: f64) -> (f64, f64) {
    if (hi - lo).abs() < 1e-12 {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo - (hi - lo) * 0.05, hi + (hi - lo) * 0.05)
    }
}

/// x, value, and the Monte Carlo interval when there is one.
type LinePoint = (f64, f64, Option<(f64, f64)>);

fn metric_point(c: &ConfigResult, metric: &str) -> Option<(f64, Option<(f64, f64)>)> {
    let run = best_run(c)?;
    let m = run.metrics.iter().find(|m| m.name == metric)?;
    Some((m.value, m.interval))
}

fn line<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &Results,
    spec: &ChartSpec,
    configs: &[&ConfigResult],
    caption: &str,
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    let metric = spec.metric.as_deref().unwrap_or_default();
    let x_path = spec.x.as_deref().unwrap_or_default();
    let xv = axis_values(results, x_path, configs);
    let xs = positions(&xv);
    let xi = value_index(results, x_path);
    let series: Vec<Option<ParamValue>> = match &spec.series {
        Some(s) => axis_values(results, s, configs)
            .into_iter()
            .map(Some)
            .collect(),
        None => vec![None],
    };
    let series_labels: Vec<String> = series
        .iter()
        .map(|s| match (s, &spec.series) {
            (Some(v), Some(p)) => format!("{p} = {v}"),
            _ => metric.to_string(),
        })
        .collect();
    let is_prob = metric.starts_with("p_");
    let points: Vec<LinePoint> = configs
        .iter()
        .filter_map(|c| {
            metric_point(c, metric).map(|(v, iv)| {
                (
                    xs[xv.iter().position(|x| *x == c.swept[xi]).unwrap()],
                    v,
                    iv,
                )
            })
        })
        .collect();
    let (ylo, yhi) = if is_prob {
        (0.0, 1.0)
    } else {
        let lo = points
            .iter()
            .map(|p| p.2.map_or(p.1, |i| i.0))
            .fold(f64::INFINITY, f64::min);
        let hi = points
            .iter()
            .map(|p| p.2.map_or(p.1, |i| i.1))
            .fold(f64::NEG_INFINITY, f64::max);
        padded(lo.min(0.0), hi)
    };
    let (xlo, xhi) = padded(
        xs.iter().cloned().fold(f64::INFINITY, f64::min),
        xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
    );
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16))
        .margin(12)
        .margin_right(legend_margin(&series_labels))
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(xlo..xhi, ylo..yhi)
        .map_err(draw_err)?;
    let categorical = !xv.iter().all(|v| matches!(v, ParamValue::Int(_)));
    let fmt_x = |x: &f64| {
        if categorical {
            label_at(&xv, &xs, *x)
        } else {
            format!("{x}")
        }
    };
    chart
        .configure_mesh()
        .x_desc(x_path)
        .y_desc(metric)
        .x_labels(if categorical {
            xs.len().min(30)
        } else {
            xs.len().min(12)
        })
        .x_label_formatter(&fmt_x)
        .axis_desc_style(("sans-serif", 15))
        .label_style(("sans-serif", 12))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(draw_err)?;
    for (k, s) in series.iter().enumerate() {
        let colour = series_colour(k, series.len());
        let mut pts: Vec<LinePoint> = configs
            .iter()
            .filter(|c| match (s, &spec.series) {
                (Some(v), Some(p)) => &c.swept[value_index(results, p)] == v,
                _ => true,
            })
            .filter_map(|c| {
                metric_point(c, metric).map(|(v, iv)| {
                    (
                        xs[xv.iter().position(|x| *x == c.swept[xi]).unwrap()],
                        v,
                        iv,
                    )
                })
            })
            .collect();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        if pts.iter().any(|p| p.2.is_some()) {
            // The 95% band of Monte Carlo estimates.
            let mut band: Vec<(f64, f64)> = pts
                .iter()
                .map(|p| (p.0, p.2.map_or(p.1, |i| i.1)))
                .collect();
            band.extend(pts.iter().rev().map(|p| (p.0, p.2.map_or(p.1, |i| i.0))));
            chart
                .draw_series(std::iter::once(Polygon::new(
                    band,
                    colour.mix(0.2).filled(),
                )))
                .map_err(draw_err)?;
        }
        let label = match (s, &spec.series) {
            (Some(v), Some(p)) => format!("{p} = {v}"),
            _ => metric.to_string(),
        };
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|p| (p.0, p.1)),
                colour.stroke_width(2),
            ))
            .map_err(draw_err)?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(3))
            });
        chart
            .draw_series(
                pts.iter()
                    .map(|p| Circle::new((p.0, p.1), 3, colour.filled())),
            )
            .map_err(draw_err)?;
    }
    legend(area, &mut chart, &series_labels)
}

fn heatmap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &Results,
    spec: &ChartSpec,
    configs: &[&ConfigResult],
    caption: &str,
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    let metric = spec.metric.as_deref().unwrap_or_default();
    let (x_path, y_path) = (
        spec.x.as_deref().unwrap_or_default(),
        spec.series.as_deref().unwrap_or_default(),
    );
    let (xv, yv) = (
        axis_values(results, x_path, configs),
        axis_values(results, y_path, configs),
    );
    let (xi, yi) = (value_index(results, x_path), value_index(results, y_path));
    let cells: Vec<(usize, usize, f64)> = configs
        .iter()
        .filter_map(|c| {
            let (v, _) = metric_point(c, metric)?;
            Some((
                xv.iter().position(|x| *x == c.swept[xi])?,
                yv.iter().position(|y| *y == c.swept[yi])?,
                v,
            ))
        })
        .collect();
    let lo = cells.iter().map(|c| c.2).fold(f64::INFINITY, f64::min);
    let hi = cells.iter().map(|c| c.2).fold(f64::NEG_INFINITY, f64::max);
    let caption = if caption.is_empty() {
        format!("colour: {metric} (dark low, yellow high)")
    } else {
        format!("{caption}; colour: {metric}")
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 15))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..xv.len() as f64, 0f64..yv.len() as f64)
        .map_err(draw_err)?;
    let fx = |x: &f64| {
        let i = (*x - 0.5).round();
        if (x - 0.5 - i).abs() < 1e-6 && i >= 0.0 {
            xv.get(i as usize)
                .map(|v| v.to_string())
                .unwrap_or_default()
        } else {
            String::new()
        }
    };
    let fy = |y: &f64| {
        let i = (*y - 0.5).round();
        if (y - 0.5 - i).abs() < 1e-6 && i >= 0.0 {
            yv.get(i as usize)
                .map(|v| v.to_string())
                .unwrap_or_default()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(x_path)
        .y_desc(y_path)
        .x_labels(xv.len() * 2 + 1)
        .y_labels(yv.len() * 2 + 1)
        .x_label_formatter(&fx)
        .y_label_formatter(&fy)
        .axis_desc_style(("sans-serif", 15))
        .label_style(("sans-serif", 12))
        .draw()
        .map_err(draw_err)?;
    let norm = |v: f64| {
        if hi > lo {
            ((v - lo) / (hi - lo)) as f32
        } else {
            0.5
        }
    };
    chart
        .draw_series(cells.iter().map(|&(x, y, v)| {
            Rectangle::new(
                [(x as f64, y as f64), (x as f64 + 1.0, y as f64 + 1.0)],
                ViridisRGB.get_color(norm(v)).filled(),
            )
        }))
        .map_err(draw_err)?;
    // Print each value in its cell when the cells are big enough to read.
    if xv.len() <= 16 && yv.len() <= 24 {
        let size = if xv.len() <= 8 { 13 } else { 10 };
        chart
            .draw_series(cells.iter().map(|&(x, y, v)| {
                let light = norm(v) > 0.55;
                let colour = if light { BLACK } else { WHITE };
                // +0.0 keeps a rounded-away negative zero from printing "-0.00".
                let text = format!("{:.2}", v + 0.0);
                Text::new(
                    text,
                    (x as f64 + 0.5, y as f64 + 0.5),
                    ("sans-serif", size)
                        .into_font()
                        .color(&colour)
                        .pos(Pos::new(HPos::Center, VPos::Center)),
                )
            }))
            .map_err(draw_err)?;
    }
    Ok(())
}

fn field_rows<'a>(c: &'a ConfigResult, field: &str) -> Vec<&'a FieldRow> {
    best_run(c)
        .map(|r| r.dist.iter().filter(|d| d.field == field).collect())
        .unwrap_or_default()
}

fn distribution<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &Results,
    spec: &ChartSpec,
    configs: &[&ConfigResult],
    caption: &str,
    at_least: bool,
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    let field = spec.field.as_deref().unwrap_or_default();
    // Every value any selected config can take, in order, with its label.
    let mut values: Vec<(i64, String)> = Vec::new();
    for c in configs {
        for d in field_rows(c, field) {
            if !values.iter().any(|(v, _)| *v == d.value) {
                values.push((d.value, d.label.clone()));
            }
        }
    }
    values.sort_by_key(|(v, _)| *v);
    let n = configs.len().max(1);
    let config_labels: Vec<String> = configs
        .iter()
        .map(|c| describe_series(results, spec, c))
        .collect();
    let xs: Vec<f64> = (0..values.len()).map(|i| i as f64).collect();
    // Bars use the height they need; "at least" curves always span 0..1.
    let top = if at_least {
        1.0
    } else {
        let most = configs
            .iter()
            .flat_map(|c| field_rows(c, field))
            .map(|d| d.probability)
            .fold(0.0, f64::max);
        (most * 1.15).clamp(0.05, 1.0)
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16))
        .margin(12)
        .margin_right(legend_margin(&config_labels))
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.6f64..(values.len() as f64 - 0.4), 0f64..top)
        .map_err(draw_err)?;
    let step = (values.len() / 12).max(1);
    let fx = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) % step == 0 {
            values
                .get(i as usize)
                .map(|v| v.1.clone())
                .unwrap_or_default()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .x_desc(field)
        .y_desc(if at_least {
            format!("P({field} ≥ value)")
        } else {
            "probability".to_string()
        })
        .x_labels(values.len().min(40))
        .x_label_formatter(&fx)
        .axis_desc_style(("sans-serif", 15))
        .label_style(("sans-serif", 12))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(draw_err)?;
    for (k, c) in configs.iter().enumerate() {
        let colour = series_colour(k, n);
        let rows = field_rows(c, field);
        let prob = |v: i64| {
            rows.iter()
                .find(|d| d.value == v)
                .map(|d| d.probability)
                .unwrap_or(0.0)
        };
        let label = describe_series(results, spec, c);
        if at_least {
            let mut tail = 0.0;
            let mut pts: Vec<(f64, f64)> = values
                .iter()
                .rev()
                .zip(xs.iter().rev())
                .map(|((v, _), x)| {
                    tail += prob(*v);
                    (*x, tail.min(1.0))
                })
                .collect();
            pts.reverse();
            chart
                .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
                .map_err(draw_err)?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(3))
                });
            chart
                .draw_series(pts.iter().map(|p| Circle::new(*p, 3, colour.filled())))
                .map_err(draw_err)?;
        } else {
            let width = 0.8 / n as f64;
            chart
                .draw_series(values.iter().zip(&xs).map(|((v, _), x)| {
                    let left = x - 0.4 + k as f64 * width;
                    Rectangle::new(
                        [(left, 0.0), (left + width * 0.92, prob(*v))],
                        colour.filled(),
                    )
                }))
                .map_err(draw_err)?
                .label(label)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 14, y + 5)], colour.filled())
                });
        }
    }
    legend(area, &mut chart, &config_labels)
}

/// Where the legend goes: inside the plot for a few series; for many, in a
/// margin on the right where it hides no line.
fn legend_margin(labels: &[String]) -> u32 {
    if labels.len() > 5 {
        // ~7 px a character at 12 px, plus the swatch and padding.
        let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
        (longest * 7 + 46).max(150)
    } else {
        12
    }
}

/// The legend of a line or distribution chart: plotters' own, inside the
/// plot, for up to five series; a side legend in the right margin beyond.
fn legend<'a, DB: DrawingBackend + 'a>(
    area: &DrawingArea<DB, Shift>,
    chart: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    labels: &[String],
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    if labels.len() > 5 {
        let entries: Vec<(String, RGBColor)> = labels
            .iter()
            .enumerate()
            .map(|(k, l)| (l.clone(), series_colour(k, labels.len())))
            .collect();
        return side_legend(area, &entries);
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font(("sans-serif", 12))
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(draw_err)
}

/// A legend for many series, drawn in the panel's right margin (plotters'
/// own legend is clipped to the plot, where it would hide lines).
fn side_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, RGBColor)],
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    let labels: Vec<String> = entries.iter().map(|(l, _)| l.clone()).collect();
    let x = area.dim_in_pixel().0 as i32 - legend_margin(&labels) as i32 + 18;
    for (i, (label, colour)) in entries.iter().enumerate() {
        let y = 50 + 18 * i as i32;
        area.draw(&Rectangle::new(
            [(x, y - 5), (x + 16, y + 5)],
            colour.filled(),
        ))
        .map_err(draw_err)?;
        area.draw(&Text::new(
            label.clone(),
            (x + 22, y),
            ("sans-serif", 12)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(draw_err)?;
    }
    Ok(())
}

/// The legend entry for one config in a distribution chart.
fn describe_series(results: &Results, spec: &ChartSpec, c: &ConfigResult) -> String {
    match &spec.series {
        Some(p) => format!("{p} = {}", c.swept[value_index(results, p)]),
        None => {
            let parts: Vec<String> = results
                .swept
                .iter()
                .zip(&c.swept)
                .filter(|(p, _)| {
                    !spec.filter.iter().any(|(f, _)| f == *p)
                        && spec.facet.as_deref() != Some(p.as_str())
                })
                .map(|(p, v)| format!("{p} = {v}"))
                .collect();
            if parts.is_empty() {
                spec.field.clone().unwrap_or_default()
            } else {
                parts.join(", ")
            }
        }
    }
}
