//! Distribution charts of one outcome field for the selected configs:
//! histograms (side-by-side bars per config), and the cumulative views
//! P(field ≥ v) ("at least", the view AnyDice users know) and P(field ≤ v)
//! ("at most").

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis::{self, Frame, YTicks};
use super::legend::{Entry, Legend};
use super::lines::{self, pad};
use super::select::{describe_config, field_rows};
use super::style;
use super::{Figure, Side, draw_err};
use crate::report::OutputError;
use crate::results::ConfigResult;

/// The distinct legend labels of the selected configs, in sweep order:
/// one per series value, shared by every facet.
fn labels(fig: &Figure) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in &fig.configs {
        let l = describe_config(fig.results, fig.spec, c);
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out
}

pub fn side(fig: &Figure) -> Side {
    let labels = labels(fig);
    if labels.len() <= 1 {
        return Side::None;
    }
    let n = labels.len();
    Side::Legend(Legend {
        title: fig.spec.series.as_deref().map(|s| fig.label(s).to_string()),
        entries: labels
            .into_iter()
            .enumerate()
            .map(|(k, label)| Entry {
                label,
                look: style::look(k, n),
            })
            .collect(),
        bars: fig.spec.kind == crate::scenario::ChartKind::Histogram,
    })
}

/// Every value of the field among the selected configs, in order, with its
/// label; and whether the values are plain integers (then they sit at
/// themselves on the axis).
fn values(fig: &Figure) -> (Vec<(i64, String)>, bool) {
    let mut values: Vec<(i64, String)> = Vec::new();
    for c in &fig.configs {
        for d in field_rows(c, fig.field()) {
            if !values.iter().any(|(v, _)| *v == d.value) {
                values.push((d.value, d.label.clone()));
            }
        }
    }
    values.sort_by_key(|(v, _)| *v);
    let numeric = values.iter().all(|(v, l)| v.to_string() == *l);
    if numeric {
        // The run lists every value any config reached; these configs'
        // axis runs from the least to the greatest value they reach.
        let reached = |v: i64| {
            fig.configs.iter().any(|c| {
                field_rows(c, fig.field())
                    .iter()
                    .any(|d| d.value == v && d.probability > 0.0)
            })
        };
        let first = values.iter().position(|(v, _)| reached(*v));
        let last = values.iter().rposition(|(v, _)| reached(*v));
        if let (Some(a), Some(b)) = (first, last) {
            values = values[a..=b].to_vec();
        }
    }
    (values, numeric)
}

/// The labels of a categorical field's values (none for integers).
pub fn category_labels(fig: &Figure) -> Vec<String> {
    match values(fig) {
        (_, true) => Vec::new(),
        (values, false) => values.into_iter().map(|(_, l)| l).collect(),
    }
}

fn positions(values: &[(i64, String)], numeric: bool) -> Vec<f64> {
    if numeric {
        values.iter().map(|(v, _)| *v as f64).collect()
    } else {
        (0..values.len()).map(|i| i as f64).collect()
    }
}

/// The probability of each value at one config.
fn probabilities(fig: &Figure, c: &ConfigResult, values: &[(i64, String)]) -> Vec<f64> {
    let rows = field_rows(c, fig.field());
    values
        .iter()
        .map(|(v, _)| {
            rows.iter()
                .find(|d| d.value == *v)
                .map(|d| d.probability)
                .unwrap_or(0.0)
        })
        .collect()
}

/// Percentages unless the chart says `percent = false`.
fn ticks(fig: &Figure) -> YTicks {
    if fig.spec.percent {
        YTicks::Percent
    } else {
        YTicks::Plain
    }
}

pub fn histogram<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    fig: &Figure,
    configs: &[&ConfigResult],
    caption: &str,
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    let (values, numeric) = values(fig);
    let at = positions(&values, numeric);
    let text: Vec<String> = values.iter().map(|(_, l)| l.clone()).collect();
    // Every facet shares the height of the tallest bar in any of them.
    let most = fig
        .configs
        .iter()
        .flat_map(|c| probabilities(fig, c, &values))
        .fold(0.0, f64::max);
    let mut chart = axis::frame(
        area,
        &Frame {
            caption,
            at: &at,
            labels: &text,
            pad: 0.6,
            numeric,
            y: (0.0, (most * 1.1).clamp(0.05, 1.0)),
            x_desc: &fig.x_title(fig.field()),
            y_desc: &fig.y_title(|| "Chance".to_string()),
            y_ticks: ticks(fig),
        },
    )?;
    let all = labels(fig);
    let n = all.len().max(1);
    let width = 0.8 / n as f64;
    for c in configs {
        let k = all
            .iter()
            .position(|l| *l == describe_config(fig.results, fig.spec, c))
            .unwrap_or(0);
        let colour = style::colour(k, n);
        let p = probabilities(fig, c, &values);
        chart
            .draw_series(at.iter().zip(&p).map(|(x, p)| {
                let left = x - 0.4 + k as f64 * width;
                Rectangle::new([(left, 0.0), (left + width * 0.92, *p)], colour.filled())
            }))
            .map_err(draw_err)?;
    }
    Ok(())
}

/// P(field ≥ v) (`at_least`) or P(field ≤ v) curves.
pub fn cumulative<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    fig: &Figure,
    configs: &[&ConfigResult],
    caption: &str,
    at_least: bool,
) -> Result<(), OutputError>
where
    DB::ErrorType: 'static,
{
    let (values, numeric) = values(fig);
    let at = positions(&values, numeric);
    let text: Vec<String> = values.iter().map(|(_, l)| l.clone()).collect();
    let field = fig.lower(fig.field());
    let y_desc = fig.y_title(|| {
        if at_least {
            format!("Chance of {field} ≥ value")
        } else {
            format!("Chance of {field} ≤ value")
        }
    });
    let mut chart = axis::frame(
        area,
        &Frame {
            caption,
            at: &at,
            labels: &text,
            pad: pad(&at, numeric).max(0.3),
            numeric,
            y: (-0.02, 1.02),
            x_desc: &fig.x_title(fig.field()),
            y_desc: &y_desc,
            y_ticks: ticks(fig),
        },
    )?;
    let all = labels(fig);
    for c in configs {
        let k = all
            .iter()
            .position(|l| *l == describe_config(fig.results, fig.spec, c))
            .unwrap_or(0);
        let p = probabilities(fig, c, &values);
        let mut sums = Vec::with_capacity(p.len());
        let mut acc = 0.0;
        if at_least {
            for q in p.iter().rev() {
                acc += q;
                sums.push(acc.min(1.0));
            }
            sums.reverse();
        } else {
            for q in &p {
                acc += q;
                sums.push(acc.min(1.0));
            }
        }
        let pts: Vec<lines::Point> = at.iter().zip(&sums).map(|(x, y)| (*x, *y, None)).collect();
        lines::draw_series(&mut chart, &pts, &style::look(k, all.len()))?;
    }
    Ok(())
}
