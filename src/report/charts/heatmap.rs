//! Heatmaps: a two-way difficulty table, `x` the columns and `series` the
//! rows, each cell coloured by its value on one scale shared by every
//! facet (0..1 for probabilities, so 0.13 never looks like 0 and the same
//! colour always means the same number) and labelled with the value in
//! black or white, whichever contrasts more with the cell.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{self, Ticked};
use super::legend::{ColourScale, number};
use super::select::{self, metric_point, value_index};
use super::style;
use super::text;
use super::{Figure, TICK_FONT, draw_err};
use crate::report::OutputError;
use crate::results::ConfigResult;

/// The colour scale every panel shares.
pub fn scale(fig: &Figure) -> ColourScale {
    let title = fig.label(fig.metric()).to_string();
    if fig.is_probability() {
        return ColourScale {
            lo: 0.0,
            hi: 1.0,
            title,
            probability: true,
            percent: fig.spec.percent,
        };
    }
    let values: Vec<f64> = fig
        .configs
        .iter()
        .filter_map(|c| metric_point(c, fig.metric()).map(|p| p.0))
        .collect();
    let lo = values.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    ColourScale {
        lo: if lo.is_finite() { lo } else { 0.0 },
        hi: if hi.is_finite() { hi } else { 1.0 },
        title,
        probability: false,
        percent: false,
    }
}

/// Exact solvers are good to about this (the absorbing chains stop below
/// 1e-12 of live mass; sums leave an ulp or two), so a probability this
/// close to 0 or 1 is shown as 0 or 1: otherwise a certain event reads
/// ">0.99" in one cell and "1" in the next by rounding noise alone.
const CERTAIN: f64 = 1e-12;

/// A cell's text: probabilities that are not 0 or 1 (to [`CERTAIN`]) never
/// round to them; as percentages, whole ones.
fn cell_text(v: f64, probability: bool, percent: bool) -> String {
    if probability && percent {
        if v <= CERTAIN {
            return "0%".into();
        } else if v >= 1.0 - CERTAIN {
            return "100%".into();
        } else if v < 0.005 {
            return "<1%".into();
        } else if v > 0.995 {
            return ">99%".into();
        }
        return format!("{:.0}%", v * 100.0);
    }
    if probability {
        if v <= CERTAIN {
            return "0".into();
        } else if v >= 1.0 - CERTAIN {
            return "1".into();
        } else if v < 0.005 {
            return "<0.01".into();
        } else if v > 0.995 {
            return ">0.99".into();
        }
    }
    number(v)
}

pub fn heatmap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    fig: &Figure,
    configs: &[&ConfigResult],
    caption: &str,
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    let (x_path, y_path) = (
        fig.spec.x.as_deref().unwrap_or_default(),
        fig.spec.series.as_deref().unwrap_or_default(),
    );
    let (xv, yv) = (
        select::axis_values(fig.results, x_path, &fig.configs),
        select::axis_values(fig.results, y_path, &fig.configs),
    );
    let (xi, yi) = (
        value_index(fig.results, x_path),
        value_index(fig.results, y_path),
    );
    let scale = scale(fig);
    let cells: Vec<(usize, usize, f64)> = configs
        .iter()
        .filter_map(|c| {
            let (v, _) = metric_point(c, fig.metric())?;
            Some((
                xv.iter().position(|x| *x == c.swept[xi])?,
                yv.iter().position(|y| *y == c.swept[yi])?,
                v,
            ))
        })
        .collect();
    let y_labels: Vec<String> = yv.iter().map(|v| v.to_string()).collect();
    let y_area = (y_labels
        .iter()
        .map(|l| text::width(l, TICK_FONT))
        .fold(0.0, f64::max)
        .min(150.0)
        + 40.0) as u32;
    let margin = 14;
    let (w, h) = area.dim_in_pixel();
    let plot_width = w as f64 - (2 * margin + y_area) as f64;
    let at: Vec<f64> = (0..xv.len()).map(|i| i as f64 + 0.5).collect();
    let x_labels: Vec<String> = xv.iter().map(|v| v.to_string()).collect();
    let x_axis = axis::axis(&at, &x_labels, 0.5, plot_width, false);
    let mut builder = ChartBuilder::on(area);
    let caption = text::shorten(caption, 16.0, w as f64 - 20.0);
    if !caption.is_empty() {
        builder.caption(caption, ("sans-serif", 16));
    }
    // Every k-th row label, as many as fit one above another.
    let row_h = (h as f64 - x_axis.label_area() as f64 - 60.0) / yv.len().max(1) as f64;
    let k = (17.0 / row_h).ceil().max(1.0) as usize;
    let y_at: Vec<f64> = (0..yv.len())
        .filter(|i| i % k == 0)
        .map(|i| i as f64 + 0.5)
        .collect();
    let mut chart = builder
        .margin(margin)
        .x_label_area_size(x_axis.label_area())
        .y_label_area_size(y_area)
        .build_cartesian_2d(
            Ticked {
                lo: 0.0,
                hi: xv.len() as f64,
                ticks: x_axis.positions(),
            },
            Ticked {
                lo: 0.0,
                hi: yv.len() as f64,
                ticks: y_at,
            },
        )
        .map_err(draw_err)?;
    let fy = |y: &f64| {
        let i = (*y - 0.5).round();
        y_labels
            .get(i.max(0.0) as usize)
            .map(|l| text::shorten(l, TICK_FONT, 150.0))
            .unwrap_or_default()
    };
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(fig.x_title(x_path))
        .y_desc(fig.y_title(|| fig.label(y_path).to_string()))
        .x_label_formatter(&|_| String::new())
        .y_label_formatter(&fy)
        .axis_desc_style(("sans-serif", super::AXIS_FONT))
        .label_style(("sans-serif", TICK_FONT))
        .draw()
        .map_err(draw_err)?;
    let bottom = chart.backend_coord(&(0.0, 0.0)).1;
    axis::draw_labels(area, &x_axis, bottom, |x| chart.backend_coord(&(x, 0.0)).0)?;
    chart
        .draw_series(cells.iter().map(|&(x, y, v)| {
            Rectangle::new(
                [(x as f64, y as f64), (x as f64 + 1.0, y as f64 + 1.0)],
                scale.colour(v).filled(),
            )
        }))
        .map_err(draw_err)?;
    // Each value in its cell, as large as the cell allows (none when the
    // cells are too small to read).
    let cell_w = plot_width / xv.len().max(1) as f64;
    let cell_h = row_h;
    let widest = cells
        .iter()
        .map(|c| cell_text(c.2, scale.probability, scale.percent))
        .max_by_key(|t| t.chars().count())
        .unwrap_or_default();
    let size = [15.0, 14.0, 13.0, 12.0, 11.0, 10.0]
        .into_iter()
        .find(|&s| text::width(&widest, s) <= cell_w - 6.0 && s / 1.24 <= cell_h - 4.0);
    if let Some(size) = size {
        chart
            .draw_series(cells.iter().map(|&(x, y, v)| {
                let colour = style::text_on(scale.colour(v));
                Text::new(
                    cell_text(v, scale.probability, scale.percent),
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

#[cfg(test)]
mod tests {
    use super::cell_text;

    #[test]
    fn probabilities_never_round_to_certainty() {
        assert_eq!(cell_text(0.0, true, false), "0");
        assert_eq!(cell_text(0.001, true, false), "<0.01");
        assert_eq!(cell_text(0.13, true, false), "0.13");
        assert_eq!(cell_text(0.999, true, false), ">0.99");
        assert_eq!(cell_text(1.0, true, false), "1");
        assert_eq!(cell_text(0.9999999999999999, true, false), "1");
        assert_eq!(cell_text(0.99999, true, false), ">0.99");
        assert_eq!(cell_text(12.34, false, false), "12.3");
        assert_eq!(cell_text(-0.001, false, false), "0.00");
    }

    #[test]
    fn percent_cells_are_whole_percentages_that_never_round_to_certainty() {
        assert_eq!(cell_text(0.0, true, true), "0%");
        assert_eq!(cell_text(0.001, true, true), "<1%");
        assert_eq!(cell_text(0.1349, true, true), "13%");
        assert_eq!(cell_text(0.82, true, true), "82%");
        assert_eq!(cell_text(0.999, true, true), ">99%");
        assert_eq!(cell_text(1.0, true, true), "100%");
    }
}
