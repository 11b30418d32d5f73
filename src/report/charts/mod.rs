//! Charts of a run's results, as PNG and SVG, drawn with plotters.
//!
//! A figure is a header (the title, then what the chart holds fixed: its
//! `where` and the scenario's `[params]`), one panel per facet value, and a
//! column to the right of the panels for the legend or the colour bar, so
//! neither ever covers data. Every facet shares one scale: the same y range
//! in line charts, the same colour for the same value in heatmaps (0..1 for
//! probabilities).

mod axis;
mod distribution;
mod heatmap;
mod legend;
mod lines;
mod select;
mod style;
#[cfg(test)]
mod tests;
mod text;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::OutputError;
use crate::results::{ConfigResult, Results};
use crate::scenario::{ChartKind, ChartSpec};
use crate::systems::{ParamMap, ParamValue};
use legend::{ColourScale, Legend};

/// Font size of tick labels (plotters' size: the em is size / 1.24).
const TICK_FONT: f64 = 13.0;
/// Font size of legend and colour bar text.
const LEGEND_FONT: f64 = 13.0;
/// Font size of axis descriptions.
const AXIS_FONT: f64 = 15.0;
/// Size of one panel in pixels.
const PANEL: (u32, u32) = (640, 440);
const TITLE_FONT: f64 = 20.0;
const SUBTITLE_FONT: f64 = 14.0;

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

/// What a chart draws from: the run, the chart, and the configs its
/// `where` selects.
struct Figure<'a> {
    results: &'a Results,
    spec: &'a ChartSpec,
    configs: Vec<&'a ConfigResult>,
}

impl Figure<'_> {
    fn metric(&self) -> &str {
        self.spec.metric.as_deref().unwrap_or_default()
    }

    fn field(&self) -> &str {
        self.spec.field.as_deref().unwrap_or_default()
    }

    /// Probabilities get the fixed 0..1 scale.
    fn is_probability(&self) -> bool {
        self.metric().starts_with("p_")
    }
}

/// What goes in the column right of the panels.
enum Side {
    None,
    Legend(Legend),
    Bar(ColourScale),
}

impl Side {
    fn width(&self) -> u32 {
        match self {
            Side::None => 0,
            Side::Legend(l) => l.width(),
            Side::Bar(_) => ColourScale::WIDTH,
        }
    }
}

/// The chart's title on one line (for reports and alt text).
pub fn title(results: &Results, spec: &ChartSpec) -> String {
    let held = held(spec);
    if held.is_empty() {
        heading(results, spec)
    } else {
        format!("{} ({held})", heading(results, spec))
    }
}

/// The scenario name and what is drawn.
fn heading(results: &Results, spec: &ChartSpec) -> String {
    let what = spec.title.clone().unwrap_or_else(|| match spec.kind {
        ChartKind::Line | ChartKind::Heatmap | ChartKind::Compare => format!(
            "{} by {}",
            spec.metric.as_deref().unwrap_or(""),
            spec.x.as_deref().unwrap_or("")
        ),
        ChartKind::Histogram => format!("distribution of {}", spec.field.as_deref().unwrap_or("")),
        ChartKind::AtLeast => format!("P({} ≥ v)", spec.field.as_deref().unwrap_or("")),
        ChartKind::AtMost => format!("P({} ≤ v)", spec.field.as_deref().unwrap_or("")),
    });
    format!("{}: {what}", results.name)
}

/// The chart's `where`, as `path = value` pairs.
fn held(spec: &ChartSpec) -> String {
    spec.filter
        .iter()
        .map(|(p, v)| format!("{p} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The subtitle's parts: what the chart holds, then the scenario's fixed
/// values.
fn subtitle(spec: &ChartSpec, fixed: &ParamMap) -> Vec<String> {
    let mut parts = Vec::new();
    let held = held(spec);
    if !held.is_empty() {
        parts.push(format!("held: {held}"));
    }
    let fixed: Vec<String> = fixed.iter().map(|(p, v)| format!("{p} = {v}")).collect();
    if !fixed.is_empty() {
        parts.push(format!("[params]: {}", fixed.join(", ")));
    }
    parts
}

/// Render one chart to PNG and SVG. `fixed` is the scenario's `[params]`.
pub fn render(
    results: &Results,
    spec: &ChartSpec,
    fixed: &ParamMap,
) -> Result<Rendered, OutputError> {
    text::register_font();
    let fig = Figure {
        results,
        spec,
        configs: select::selected(results, spec),
    };
    let facets: Vec<Option<ParamValue>> = match &spec.facet {
        Some(f) => select::axis_values(results, f, &fig.configs)
            .into_iter()
            .map(Some)
            .collect(),
        None => vec![None],
    };
    let side = match spec.kind {
        ChartKind::Line | ChartKind::Compare => lines::side(&fig),
        ChartKind::Heatmap => Side::Bar(heatmap::scale(&fig)),
        ChartKind::Histogram | ChartKind::AtLeast | ChartKind::AtMost => distribution::side(&fig),
    };
    let panel_width = match spec.kind {
        ChartKind::Compare => 2 * (panel_for_labels(&fig) - 60),
        _ => panel_for_labels(&fig),
    };
    // A compare panel is two plots wide already: its facets stack.
    let cols = match spec.kind {
        ChartKind::Compare => 1,
        _ => (facets.len() as f64).sqrt().ceil() as u32,
    };
    let rows = (facets.len() as u32).div_ceil(cols);
    let width = panel_width * cols + side.width();
    let head = Header::new(&heading(results, spec), &subtitle(spec, fixed), width);
    let size = (width, head.height + PANEL.1 * rows);
    let layout = Layout {
        head: &head,
        side: &side,
        grid: (rows, cols),
        panel_width,
    };

    let mut rgb = vec![0u8; (size.0 * size.1 * 3) as usize];
    {
        let root = text::Sharp(BitMapBackend::with_buffer(&mut rgb, size)).into_drawing_area();
        draw(&root, &fig, &facets, &layout)?;
        root.present().map_err(draw_err)?;
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root, &fig, &facets, &layout)?;
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

/// The title and subtitle, wrapped to the figure's width.
struct Header {
    title: Vec<String>,
    subtitle: Vec<String>,
    height: u32,
}

impl Header {
    /// The parts of the subtitle share a line when they fit, else each
    /// starts its own.
    fn new(title: &str, subtitle: &[String], width: u32) -> Header {
        let room = width as f64 - 40.0;
        let title = text::wrap(title, TITLE_FONT, room, 3);
        let joined = subtitle.join("  ·  ");
        let subtitle = if joined.is_empty() {
            Vec::new()
        } else if text::width(&joined, SUBTITLE_FONT) <= room {
            vec![joined]
        } else {
            subtitle
                .iter()
                .flat_map(|p| text::wrap(p, SUBTITLE_FONT, room, 3))
                .collect()
        };
        let height = 16 + 26 * title.len() as u32 + 19 * subtitle.len() as u32 + 14;
        Header {
            title,
            subtitle,
            height,
        }
    }

    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), OutputError>
    where
        DB::ErrorType: 'static,
    {
        let w = area.dim_in_pixel().0 as i32;
        let centre = |size: f64, colour: RGBAColor| {
            ("sans-serif", size)
                .into_font()
                .color(&colour)
                .pos(Pos::new(HPos::Center, VPos::Center))
        };
        let mut y = 18;
        for line in &self.title {
            area.draw(&Text::new(
                line.clone(),
                (w / 2, y),
                centre(TITLE_FONT, BLACK.to_rgba()),
            ))
            .map_err(draw_err)?;
            y += 26;
        }
        for line in &self.subtitle {
            area.draw(&Text::new(
                line.clone(),
                (w / 2, y - 2),
                centre(SUBTITLE_FONT, BLACK.mix(0.75)),
            ))
            .map_err(draw_err)?;
            y += 19;
        }
        Ok(())
    }
}

struct Layout<'a> {
    head: &'a Header,
    side: &'a Side,
    grid: (u32, u32),
    panel_width: u32,
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    facets: &[Option<ParamValue>],
    layout: &Layout,
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE).map_err(draw_err)?;
    let (head, body) = root.split_vertically(layout.head.height);
    layout.head.draw(&head)?;
    let (panels, side) = body.split_horizontally(layout.panel_width * layout.grid.1);
    match layout.side {
        Side::None => {}
        Side::Legend(l) => l.draw(&side)?,
        Side::Bar(scale) => {
            // The bar spans a panel's plot height, beside the first row.
            let h = (PANEL.1 as i32).min(side.dim_in_pixel().1 as i32);
            scale.draw(&side, 48, h - 70)?;
        }
    }
    let cells = panels.split_evenly((layout.grid.0 as usize, layout.grid.1 as usize));
    for (panel, facet) in cells.iter().zip(facets) {
        let (in_facet, caption) = match (facet, &fig.spec.facet) {
            (Some(v), Some(f)) => (
                select::with_value(fig.results, &fig.configs, f, v),
                format!("{f} = {v}"),
            ),
            _ => (fig.configs.clone(), String::new()),
        };
        match fig.spec.kind {
            ChartKind::Line => lines::line(panel, fig, &in_facet, &caption)?,
            ChartKind::Compare => lines::compare(panel, fig, &in_facet, &caption)?,
            ChartKind::Heatmap => heatmap::heatmap(panel, fig, &in_facet, &caption)?,
            ChartKind::Histogram => distribution::histogram(panel, fig, &in_facet, &caption)?,
            ChartKind::AtLeast => distribution::cumulative(panel, fig, &in_facet, &caption, true)?,
            ChartKind::AtMost => distribution::cumulative(panel, fig, &in_facet, &caption, false)?,
        }
    }
    Ok(())
}

/// A panel wide enough for every category label of its x axis on its own
/// (each word fits the room of one category), from the usual size up to
/// three times it.
fn panel_for_labels(fig: &Figure) -> u32 {
    let labels: Vec<String> = match fig.spec.kind {
        ChartKind::Line | ChartKind::Compare | ChartKind::Heatmap => {
            let values = select::axis_values(
                fig.results,
                fig.spec.x.as_deref().unwrap_or_default(),
                &fig.configs,
            );
            if axis::numeric(&values) {
                Vec::new()
            } else {
                values.iter().map(|v| v.to_string()).collect()
            }
        }
        _ => distribution::category_labels(fig),
    };
    let widest = labels
        .iter()
        .flat_map(|l| l.split(' '))
        .map(|w| text::width(w, TICK_FONT))
        .fold(0.0, f64::max);
    // Margins, the y label area (a heatmap's row labels are wider).
    let fixed = if fig.spec.kind == ChartKind::Heatmap {
        220.0
    } else {
        100.0
    };
    let need = fixed + labels.len() as f64 * (widest + 14.0);
    (need.ceil() as u32).clamp(PANEL.0, 3 * PANEL.0)
}

/// The padded range of some values (a unit around a single value).
fn padded(lo: f64, hi: f64) -> (f64, f64) {
    if !lo.is_finite() || !hi.is_finite() {
        (0.0, 1.0)
    } else if (hi - lo).abs() < 1e-12 {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo - (hi - lo) * 0.05, hi + (hi - lo) * 0.05)
    }
}
