//! The dominance chart of a best-play scenario: one row per option
//! group, and two panels side by side, what best play loses if the option
//! is forbidden and how often best play uses it, one bar per config (up
//! to [`MAX_SERIES`]). Every bar carries its number, so a loss too small
//! to see still reads ("0" is a finding: the option is never needed).

use image::ImageEncoder;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::super::sweep::{BestRun, loss_text, usage_text};
use crate::report::OutputError;
use crate::report::charts::{Rendered, style, text};

/// The base name of the chart's files.
pub const CHART_FILE: &str = "dominance";
/// The most configs drawn (the palette's colours); the rest are in the
/// tables.
pub const MAX_SERIES: usize = 7;

const WIDTH: u32 = 1100;
const TITLE: f64 = 20.0;
const SUB: f64 = 14.0;
const LABEL: f64 = 14.0;
const SMALL: f64 = 12.5;
/// Height of one bar, and the gap between option rows.
const BAR: i32 = 14;
const ROW_GAP: i32 = 14;

fn err(e: impl std::fmt::Display) -> OutputError {
    OutputError::Encode {
        what: "chart".into(),
        message: e.to_string(),
    }
}

/// One config's bars: its label, and per option row (loss, usage), if
/// it has the option.
type Series = (String, Vec<Option<(f64, f64)>>);

/// What is drawn: option rows, and per config its values in them.
struct Bars {
    options: Vec<String>,
    series: Vec<Series>,
    title: String,
    subtitle: String,
    probability: bool,
}

fn bars(run: &BestRun) -> Option<Bars> {
    let mut options: Vec<String> = Vec::new();
    for r in &run.rows {
        for d in &r.answer.dominance {
            if !options.contains(&d.option) {
                options.push(d.option.clone());
            }
        }
    }
    if options.is_empty() {
        return None;
    }
    let shown: Vec<_> = run.rows.iter().take(MAX_SERIES).collect();
    // The costliest options first, as the eye reads down.
    let worst = |o: &str| {
        shown
            .iter()
            .filter_map(|r| r.answer.dominance.iter().find(|d| d.option == o))
            .map(|d| (d.loss, d.usage))
            .fold((0.0f64, 0.0f64), |a, b| (a.0.max(b.0), a.1.max(b.1)))
    };
    options.sort_by(|a, b| {
        let (wa, wb) = (worst(a), worst(b));
        wb.0.total_cmp(&wa.0).then(wb.1.total_cmp(&wa.1))
    });
    let series = shown
        .iter()
        .map(|r| {
            let label = r.point(&run.swept);
            let label = if label.is_empty() {
                "best play".into()
            } else {
                label
            };
            let values = options
                .iter()
                .map(|o| {
                    r.answer
                        .dominance
                        .iter()
                        .find(|d| d.option == *o)
                        .map(|d| (d.loss, d.usage))
                })
                .collect();
            (label, values)
        })
        .collect();
    let more = run.rows.len().saturating_sub(MAX_SERIES);
    let more = if more > 0 {
        format!(" The first {MAX_SERIES} configs; {more} more are in the tables.")
    } else {
        String::new()
    };
    Some(Bars {
        options,
        series,
        title: format!("{}: what each option is worth to best play", run.name),
        subtitle: if run.opponent == crate::best::Opponent::Best {
            format!(
                "{} — a duel: {}; A's best play maximises {}, B plays best too. Left: what A's best play loses if the option is forbidden (B still playing best); right: its share of A's decisions.{more}",
                run.mechanic, run.decision, run.metric
            )
        } else {
            format!(
                "{} — {}; best play maximises {}. Left: what best play loses if the option is forbidden; right: its share of best play's decisions.{more}",
                run.mechanic, run.decision, run.metric
            )
        },
        probability: run.probability,
    })
}

/// Layout heights: header lines, one row band per option, legend.
fn header_lines(b: &Bars) -> (Vec<String>, Vec<String>) {
    let room = WIDTH as f64 - 40.0;
    (
        text::wrap(&b.title, TITLE, room, 2),
        text::wrap(&b.subtitle, SUB, room, 4),
    )
}

fn row_height(b: &Bars) -> i32 {
    BAR * b.series.len() as i32 + ROW_GAP
}

fn size(b: &Bars) -> (u32, u32) {
    let (t, s) = header_lines(b);
    let head = 12 + 28 * t.len() as i32 + 20 * s.len() as i32 + 16;
    let legend = if b.series.len() > 1 {
        22 * b.series.len() as i32 + 10
    } else {
        0
    };
    let body = 30 + row_height(b) * b.options.len() as i32 + 40;
    (WIDTH, (head + body + legend + 10) as u32)
}

/// Draw and encode the chart; `None` without a dominance table.
pub fn chart(run: &BestRun) -> Result<Option<Rendered>, OutputError> {
    let Some(b) = bars(run) else {
        return Ok(None);
    };
    text::register_font();
    let size = size(&b);
    let mut rgb = vec![0u8; (size.0 * size.1 * 3) as usize];
    {
        let root = text::Sharp(BitMapBackend::with_buffer(&mut rgb, size)).into_drawing_area();
        draw(&root, &b)?;
        root.present().map_err(err)?;
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root, &b)?;
        root.present().map_err(err)?;
    }
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png)
        .write_image(&rgb, size.0, size.1, image::ColorType::Rgb8)
        .map_err(err)?;
    Ok(Some(Rendered {
        file: CHART_FILE.into(),
        png,
        svg,
    }))
}

fn label<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &str,
    at: (i32, i32),
    size: f64,
    pos: (HPos, VPos),
    colour: RGBAColor,
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    area.draw(&Text::new(
        s.to_string(),
        at,
        ("sans-serif", size)
            .into_font()
            .color(&colour)
            .pos(Pos::new(pos.0, pos.1)),
    ))
    .map_err(err)
}

fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, b: &Bars) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    let black = BLACK.to_rgba();
    let grey = BLACK.mix(0.65);
    area.fill(&WHITE).map_err(err)?;
    let w = WIDTH as i32;
    let (title, sub) = header_lines(b);
    let mut y = 12;
    for t in &title {
        label(
            area,
            t,
            (w / 2, y + 14),
            TITLE,
            (HPos::Center, VPos::Center),
            black,
        )?;
        y += 28;
    }
    for s in &sub {
        label(
            area,
            s,
            (w / 2, y + 10),
            SUB,
            (HPos::Center, VPos::Center),
            grey,
        )?;
        y += 20;
    }
    y += 16;
    // Columns: option names, the loss panel, the usage panel.
    let names = b
        .options
        .iter()
        .map(|o| text::width(o, LABEL))
        .fold(0.0, f64::max) as i32
        + 24;
    let gap = 90;
    let panel = (w - names - gap - 70) / 2;
    let loss_x = names;
    let use_x = names + panel + gap;
    let max_loss = b
        .series
        .iter()
        .flat_map(|(_, v)| v.iter().flatten().map(|x| x.0))
        .fold(0.0, f64::max);
    let unit = if b.probability { " (points)" } else { "" };
    label(
        area,
        &format!("loss if forbidden{unit}"),
        (loss_x + panel / 2, y + 8),
        LABEL,
        (HPos::Center, VPos::Center),
        black,
    )?;
    label(
        area,
        "used by best play",
        (use_x + panel / 2, y + 8),
        LABEL,
        (HPos::Center, VPos::Center),
        black,
    )?;
    y += 30;
    let top = y;
    let rows = row_height(b);
    let bottom = top + rows * b.options.len() as i32;
    // Light bands on every other row keep a long row list readable.
    for (i, o) in b.options.iter().enumerate() {
        let ry = top + rows * i as i32;
        if i % 2 == 1 {
            area.draw(&Rectangle::new(
                [(8, ry), (w - 8, ry + rows)],
                RGBColor(0xF2, 0xF2, 0xF2).filled(),
            ))
            .map_err(err)?;
        }
        label(
            area,
            o,
            (names - 12, ry + rows / 2),
            LABEL,
            (HPos::Right, VPos::Center),
            black,
        )?;
    }
    // Axes: a baseline per panel at 0.
    for x in [loss_x, use_x] {
        area.draw(&PathElement::new(vec![(x, top - 4), (x, bottom)], black))
            .map_err(err)?;
        area.draw(&PathElement::new(
            vec![(x, bottom), (x + panel, bottom)],
            black,
        ))
        .map_err(err)?;
    }
    label(
        area,
        "0",
        (loss_x, bottom + 6),
        SMALL,
        (HPos::Center, VPos::Top),
        grey,
    )?;
    label(
        area,
        &loss_text(max_loss, b.probability, ""),
        (loss_x + panel, bottom + 6),
        SMALL,
        (HPos::Center, VPos::Top),
        grey,
    )?;
    for (t, at) in [("0%", 0.0), ("50%", 0.5), ("100%", 1.0)] {
        let x = use_x + (panel as f64 * at) as i32;
        label(
            area,
            t,
            (x, bottom + 6),
            SMALL,
            (HPos::Center, VPos::Top),
            grey,
        )?;
    }
    let n = b.series.len();
    for (s, (_, values)) in b.series.iter().enumerate() {
        let colour = style::colour(s, n);
        for (i, v) in values.iter().enumerate() {
            let Some((loss, usage)) = v else { continue };
            let by = top + rows * i as i32 + ROW_GAP / 2 + BAR * s as i32;
            let bars = [
                (
                    loss_x,
                    if max_loss > 0.0 { loss / max_loss } else { 0.0 },
                    loss_text(*loss, b.probability, ""),
                ),
                (use_x, *usage, usage_text(*usage)),
            ];
            for (x0, frac, text) in bars {
                let len = (panel as f64 * frac).round() as i32;
                if len > 0 {
                    area.draw(&Rectangle::new(
                        [(x0, by + 1), (x0 + len, by + BAR - 1)],
                        colour.filled(),
                    ))
                    .map_err(err)?;
                }
                label(
                    area,
                    &text,
                    (x0 + len + 5, by + BAR / 2),
                    SMALL,
                    (HPos::Left, VPos::Center),
                    black,
                )?;
            }
        }
    }
    // The legend: which bar is which config.
    if n > 1 {
        let mut ly = bottom + 34;
        for (s, (name, _)) in b.series.iter().enumerate() {
            let colour = style::colour(s, n);
            area.draw(&Rectangle::new(
                [(names, ly), (names + 26, ly + 12)],
                colour.filled(),
            ))
            .map_err(err)?;
            label(
                area,
                name,
                (names + 34, ly + 6),
                LABEL,
                (HPos::Left, VPos::Center),
                black,
            )?;
            ly += 22;
        }
    }
    Ok(())
}
