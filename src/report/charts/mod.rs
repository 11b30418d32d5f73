//! Charts of a run's results, as PNG and SVG, drawn with plotters.
//!
//! A figure is a header (the title; the scenario's subtitle; every value
//! the numbers rest on: the chart's `where`, the scenario's `[params]`,
//! and, smaller, every other parameter at its default), one panel per
//! facet value, and a
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
pub mod style;
#[cfg(test)]
mod tests;
pub mod text;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::OutputError;
use crate::results::{ConfigResult, Results};
use crate::scenario::{ChartKind, ChartSpec};
use crate::systems::ParamValue;
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
/// The defaults line: the smallest text, read last.
const DEFAULTS_FONT: f64 = 12.5;

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

    /// The designer's word for a parameter, metric or field, mid-sentence.
    fn lower(&self, name: &str) -> String {
        lower(self.label(name))
    }

    /// The designer's word for a parameter, metric or field.
    fn label<'b>(&'b self, name: &'b str) -> &'b str {
        self.spec.labels.of(name)
    }

    /// The horizontal axis's title: given, or the label of what it shows.
    fn x_title(&self, shows: &str) -> String {
        self.spec
            .x_title
            .clone()
            .unwrap_or_else(|| self.label(shows).to_string())
    }

    /// The vertical axis's title: given, or `default`.
    fn y_title(&self, default: impl FnOnce() -> String) -> String {
        self.spec.y_title.clone().unwrap_or_else(default)
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

/// What a chart's numbers rest on besides what it draws: the values the
/// scenario fixes, and every other parameter at its default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fixed {
    /// `[params]`: path and value.
    pub set: Vec<(String, String)>,
    /// Parameters neither set nor swept, at their defaults.
    pub defaults: Vec<(String, String)>,
}

/// The chart's title on one line, with what it holds (for reports and alt
/// text).
pub fn title(spec: &ChartSpec) -> String {
    let held = held(spec);
    if held.is_empty() {
        heading(spec)
    } else {
        format!("{} ({held})", heading(spec))
    }
}

/// The chart's title: the scenario's words, or what is drawn in the
/// labels' words. The scenario's name is not repeated: the report it sits
/// in, or the page of the book, says that.
fn heading(spec: &ChartSpec) -> String {
    let l = |name: &Option<String>| spec.labels.of(name.as_deref().unwrap_or("")).to_string();
    spec.title.clone().unwrap_or_else(|| match spec.kind {
        ChartKind::Line | ChartKind::Heatmap | ChartKind::Compare => {
            format!("{} by {}", l(&spec.metric), lower(&l(&spec.x)))
        }
        ChartKind::Histogram => format!("Distribution of {}", lower(&l(&spec.field))),
        ChartKind::AtLeast => format!("Chance of at least each {}", lower(&l(&spec.field))),
        ChartKind::AtMost => format!("Chance of at most each {}", lower(&l(&spec.field))),
    })
}

/// `name = value` pairs with names in the labels' words.
fn pairs<'a>(spec: &ChartSpec, list: impl Iterator<Item = (&'a str, String)>) -> String {
    list.map(|(p, v)| format!("{} = {v}", spec.labels.of(p)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The chart's `where`, as `name = value` pairs.
fn held(spec: &ChartSpec) -> String {
    pairs(
        spec,
        spec.filter.iter().map(|(p, v)| (p.as_str(), v.to_string())),
    )
}

/// One part of the header: its text, font size, shade of black, and the
/// most lines it may wrap to.
struct Part {
    text: String,
    size: f64,
    shade: f64,
    max_lines: usize,
}

/// Spaces that wrapping must not break at: a `name = value` pair stays on
/// one line. Drawn as plain spaces.
const KEEP: char = '\u{a0}';

/// `text` with its spaces kept together.
fn unbroken(text: &str) -> String {
    text.replace(' ', &KEEP.to_string())
}

/// The defaults in a compact form: unlabelled names grouped under their
/// common first part (`actor: essence = 0, edge = 0; raises = 0`), each
/// pair kept on one line.
fn compact(spec: &ChartSpec, defaults: &[(String, String)]) -> String {
    let mut groups: Vec<(Option<&str>, Vec<String>)> = Vec::new();
    for (path, v) in defaults {
        let (group, name) = match (spec.labels.get(path), path.split_once('.')) {
            (None, Some((head, rest))) => (Some(head), rest.to_string()),
            (label, _) => (None, label.unwrap_or(path).to_string()),
        };
        let pair = unbroken(&format!("{name} = {v}"));
        match groups.last_mut() {
            Some((g, list)) if group.is_some() && *g == group => list.push(pair),
            _ => groups.push((group, vec![pair])),
        }
    }
    groups
        .into_iter()
        .map(|(g, list)| match g {
            Some(g) => format!("{g}:{KEEP}{}", list.join(", ")),
            None => list.join(", "),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A label in the middle of a sentence: a leading capital dropped, unless
/// the first word is an abbreviation ("PC wins").
fn lower(label: &str) -> String {
    let mut chars = label.chars();
    match (chars.next(), chars.next()) {
        (Some(a), Some(b)) if a.is_uppercase() && !b.is_uppercase() => {
            a.to_lowercase().chain(label.chars().skip(1)).collect()
        }
        _ => label.to_string(),
    }
}

/// The subtitle's parts: the scenario's own subtitle, then every value the
/// numbers rest on: what the chart holds and the scenario sets, then the
/// defaults, smaller.
fn subtitle(spec: &ChartSpec, fixed: &Fixed) -> Vec<Part> {
    let mut parts = Vec::new();
    if let Some(s) = &spec.subtitle {
        parts.push(Part {
            text: s.clone(),
            size: SUBTITLE_FONT + 1.0,
            shade: 0.85,
            max_lines: 2,
        });
    }
    let set: Vec<String> = spec
        .filter
        .iter()
        .map(|(p, v)| (p.as_str(), v.to_string()))
        .chain(fixed.set.iter().map(|(p, v)| (p.as_str(), v.clone())))
        .map(|(p, v)| unbroken(&format!("{} = {v}", spec.labels.of(p))))
        .collect();
    if !set.is_empty() {
        parts.push(Part {
            text: set.join(", "),
            size: SUBTITLE_FONT,
            shade: 0.75,
            max_lines: 3,
        });
    }
    if !fixed.defaults.is_empty() {
        parts.push(Part {
            text: format!("at their defaults: {}", compact(spec, &fixed.defaults)),
            size: DEFAULTS_FONT,
            shade: 0.6,
            max_lines: 4,
        });
    }
    parts
}

/// Render one chart to PNG and SVG; `fixed` is what the scenario holds.
pub fn render(results: &Results, spec: &ChartSpec, fixed: &Fixed) -> Result<Rendered, OutputError> {
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
    let head = Header::new(&heading(spec), &subtitle(spec, fixed), width);
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
    /// Each line: text, font size, shade of black.
    lines: Vec<(String, f64, f64)>,
    height: u32,
}

/// Room above the header's first line.
const TOP: u32 = 5;

/// The height of a header line in a font of `size`.
fn line_height(size: f64) -> u32 {
    (size * 1.3).round() as u32 + 1
}

impl Header {
    /// Each part starts its own line and wraps to the width.
    fn new(title: &str, parts: &[Part], width: u32) -> Header {
        let room = width as f64 - 40.0;
        let mut lines: Vec<(String, f64, f64)> = text::wrap(title, TITLE_FONT, room, 3)
            .into_iter()
            .map(|l| (l, TITLE_FONT, 1.0))
            .collect();
        for p in parts {
            for l in text::wrap(&p.text, p.size, room, p.max_lines) {
                lines.push((l.replace(KEEP, " "), p.size, p.shade));
            }
        }
        let height = TOP + lines.iter().map(|l| line_height(l.1)).sum::<u32>() + 18;
        Header { lines, height }
    }

    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), OutputError>
    where
        DB::ErrorType: 'static,
    {
        let w = area.dim_in_pixel().0 as i32;
        // Each line is centred in its own band of `line_height`, one band
        // under the other.
        let mut top = TOP as i32;
        for (line, size, shade) in &self.lines {
            let h = line_height(*size) as i32;
            let y = top + h / 2;
            top += h;
            let colour = if *shade >= 1.0 {
                BLACK.to_rgba()
            } else {
                BLACK.mix(*shade)
            };
            area.draw(&Text::new(
                line.clone(),
                (w / 2, y),
                ("sans-serif", *size)
                    .into_font()
                    .color(&colour)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            ))
            .map_err(draw_err)?;
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
                format!("{} = {v}", fig.label(f)),
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

/// A probability as a percentage tick label: 0.25 → "25%", 0.025 →
/// "2.5%" (no more digits than the tick needs).
pub fn percent_tick(v: f64) -> String {
    format!("{}%", points(v))
}

/// A probability (or a difference of two) in percentage points, with no
/// more digits than it needs: 0.25 → "25", -0.025 → "-2.5".
pub fn points(v: f64) -> String {
    let s = format!("{:.2}", v * 100.0);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    match s {
        "-0" => "0".to_string(),
        s => s.to_string(),
    }
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
