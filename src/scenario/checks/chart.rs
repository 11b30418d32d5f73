//! `[[chart]]`: what to draw, from which metric or field, along which
//! swept parameters.

use toml_edit::Table;

use super::super::error::Problems;
use super::super::{Axis, ScenarioError};
use super::entry::{Entry, tables};
use super::labels::{Labels, Names, labels};
use super::{filter, metric, swept};
use crate::scenario::ctx::Ctx;
use crate::systems::{ParamValue, Schema};

/// The kinds of chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartKind {
    /// A metric against a swept parameter, one line per series value.
    Line,
    /// A metric over two swept parameters: `x` columns, `series` rows.
    Heatmap,
    /// The distribution of an outcome field for the selected configs.
    Histogram,
    /// P(field ≥ v) curves for the selected configs.
    AtLeast,
    /// P(field ≤ v) curves for the selected configs.
    AtMost,
    /// A metric against `x` under each value of `series` (a policy, a
    /// variant), beside each value's difference from the first.
    Compare,
}

impl ChartKind {
    pub const NAMES: &'static [&'static str] = &[
        "line",
        "heatmap",
        "histogram",
        "at-least",
        "at-most",
        "compare",
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ChartKind::Line => "line",
            ChartKind::Heatmap => "heatmap",
            ChartKind::Histogram => "histogram",
            ChartKind::AtLeast => "at-least",
            ChartKind::AtMost => "at-most",
            ChartKind::Compare => "compare",
        }
    }
}

/// One `[[chart]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartSpec {
    pub kind: ChartKind,
    /// Metric (line, heatmap).
    pub metric: Option<String>,
    /// Outcome field (histogram, at-least).
    pub field: Option<String>,
    pub x: Option<String>,
    pub series: Option<String>,
    pub facet: Option<String>,
    /// Fixed values of other swept parameters.
    pub filter: Vec<(String, ParamValue)>,
    pub title: Option<String>,
    /// A line under the title, in the designer's words.
    pub subtitle: Option<String>,
    /// Axis titles; by default the labels of what the axes show.
    pub x_title: Option<String>,
    pub y_title: Option<String>,
    /// The chart's own labels, then the scenario's `[labels]`.
    pub labels: Labels,
    /// Probabilities shown as percentages (on by default for probability
    /// metrics and distribution charts).
    pub percent: bool,
    /// Base file name (without extension).
    pub file: String,
}

impl ChartSpec {
    /// A chart of `kind` with nothing else set (for tests and callers that
    /// fill in the rest).
    pub fn new(kind: ChartKind, file: &str) -> ChartSpec {
        ChartSpec {
            kind,
            metric: None,
            field: None,
            x: None,
            series: None,
            facet: None,
            filter: Vec::new(),
            title: None,
            subtitle: None,
            x_title: None,
            y_title: None,
            labels: Labels::default(),
            percent: kind.draws_field(),
            file: file.to_string(),
        }
    }
}

impl ChartKind {
    /// Whether it draws an outcome field's distribution (its y is then a
    /// probability), not a metric.
    pub fn draws_field(self) -> bool {
        matches!(
            self,
            ChartKind::Histogram | ChartKind::AtLeast | ChartKind::AtMost
        )
    }
}

const CHART_KEYS: &[&str] = &[
    "kind", "metric", "field", "x", "series", "facet", "where", "title", "subtitle", "x_title",
    "y_title", "labels", "percent", "file",
];

/// Parse every `[[chart]]`; mistakes go to `problems`.
pub(in crate::scenario) fn charts(
    ctx: &Ctx,
    root: &Table,
    sweep: &[Axis],
    names: &Names,
    scenario_labels: &Labels,
    problems: &mut Problems,
) -> Vec<ChartSpec> {
    let schema = names.schema;
    let mut out: Vec<ChartSpec> = Vec::new();
    let mut files: Vec<(String, usize)> = Vec::new();
    let Some(entries) = problems.ok(tables(ctx, root, "chart")) else {
        return out;
    };
    for e in entries {
        let before = problems.len();
        e.check_keys(ctx, CHART_KEYS, problems);
        let kind = problems.ok(chart_kind(ctx, &e));
        let path = |key: &str| -> Result<Option<String>, ScenarioError> {
            e.string(ctx, key)?
                .map(|p| swept(ctx, &e, key, &p, sweep))
                .transpose()
        };
        let (x, series, facet) = (
            problems.ok(path("x")),
            problems.ok(path("series")),
            problems.ok(path("facet")),
        );
        let filter = problems.ok(filter(ctx, &e, sweep, names.fixed));
        let title = problems.ok(e.string(ctx, "title"));
        let subtitle = problems.ok(e.string(ctx, "subtitle"));
        let x_title = problems.ok(e.string(ctx, "x_title"));
        let y_title = problems.ok(e.string(ctx, "y_title"));
        let own = match e.table.get("labels") {
            None => Labels::default(),
            Some(item) => labels(
                ctx,
                item,
                &e.name("labels"),
                e.span("labels"),
                names,
                problems,
            ),
        };
        let percent = problems.ok(e.boolean(ctx, "percent"));
        let file = problems.ok(chart_file(ctx, &e, kind));
        let (Some(kind), Some(x), Some(series), Some(facet), Some(filter), Some(title), Some(file)) =
            (kind, x, series, facet, filter, title, file)
        else {
            continue;
        };
        let shape = problems.ok(chart_shape(ctx, &e, kind, &x, &series, sweep, schema));
        // Every swept parameter must be placed (x, series, facet) or fixed,
        // or the chart would silently mix configs.
        let placed = |p: &str| {
            [&x, &series, &facet]
                .iter()
                .any(|o| o.as_deref() == Some(p))
                || filter.iter().any(|(k, _)| k == p)
        };
        let loose: Vec<&str> = sweep
            .iter()
            .filter(|a| a.values.len() > 1 && !placed(&a.path))
            .map(|a| a.path.as_str())
            .collect();
        if !loose.is_empty() {
            problems.push(ctx.invalid(
                e.table.span(),
                &e.name("where"),
                format!(
                    "chart leaves {} varying; fix {} in `where` or use it as x, series or facet",
                    loose.join(", "),
                    if loose.len() == 1 { "it" } else { "them" }
                ),
            ));
        }
        let line = ctx.line(e.span("file"));
        if let Some((_, first)) = files.iter().find(|(f, _)| *f == file) {
            problems.push(ctx.invalid(
                e.span("file"),
                &e.name("file"),
                format!(
                    "\"{file}\" is the file of another chart too (line {first}); every chart needs its own"
                ),
            ));
        }
        files.push((file.clone(), line));
        let Some((metric, field)) = shape else {
            continue;
        };
        // A metric the schema does not list passed the metric check as a
        // derived complement (`p_fail`): a probability too.
        let probability = kind.draws_field()
            || metric.as_deref().is_some_and(|name| {
                schema
                    .metrics
                    .iter()
                    .find(|m| m.name == name)
                    .map_or(name.starts_with("p_"), |m| m.kind.is_probability())
            });
        if percent == Some(Some(true)) && !probability {
            problems.push(ctx.invalid(
                e.span("percent"),
                &e.name("percent"),
                format!(
                    "is true, but {} is not a probability; allowed: false, or leave it out",
                    metric.as_deref().unwrap_or_default()
                ),
            ));
        }
        let (Some(subtitle), Some(x_title), Some(y_title), Some(percent)) =
            (subtitle, x_title, y_title, percent)
        else {
            continue;
        };
        if problems.len() > before {
            continue;
        }
        out.push(ChartSpec {
            kind,
            metric,
            field,
            x,
            series,
            facet,
            filter,
            title,
            subtitle,
            x_title,
            y_title,
            labels: own.or(scenario_labels),
            percent: percent.unwrap_or(probability),
            file,
        });
    }
    out
}

fn chart_kind(ctx: &Ctx, e: &Entry) -> Result<ChartKind, ScenarioError> {
    let kind_name = e.string(ctx, "kind")?.ok_or_else(|| {
        ctx.invalid(
            e.span("kind"),
            &e.name("kind"),
            format!("is missing; allowed: {}", ChartKind::NAMES.join(", ")),
        )
    })?;
    match kind_name.as_str() {
        "line" => Ok(ChartKind::Line),
        "heatmap" => Ok(ChartKind::Heatmap),
        "histogram" => Ok(ChartKind::Histogram),
        "at-least" => Ok(ChartKind::AtLeast),
        "at-most" => Ok(ChartKind::AtMost),
        "compare" => Ok(ChartKind::Compare),
        other => Err(ctx.invalid(
            e.span("kind"),
            &e.name("kind"),
            format!(
                "\"{other}\" is not a chart kind; allowed: {}",
                ChartKind::NAMES.join(", ")
            ),
        )),
    }
}

/// The chart's base file name: given, or from its position and kind.
fn chart_file(ctx: &Ctx, e: &Entry, kind: Option<ChartKind>) -> Result<String, ScenarioError> {
    let file = e.string(ctx, "file")?.unwrap_or_else(|| {
        format!(
            "chart-{}-{}",
            e.index.unwrap_or(0) + 1,
            kind.map_or("chart", ChartKind::as_str)
        )
    });
    if file.is_empty()
        || !file
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(ctx.invalid(
            e.span("file"),
            &e.name("file"),
            "must be a plain file name: letters, digits, - and _",
        ));
    }
    Ok(file)
}

/// What a chart of `kind` draws: a metric (line, heatmap) or an outcome
/// field (histogram, at-least).
fn chart_shape(
    ctx: &Ctx,
    e: &Entry,
    kind: ChartKind,
    x: &Option<String>,
    series: &Option<String>,
    sweep: &[Axis],
    schema: &Schema,
) -> Result<(Option<String>, Option<String>), ScenarioError> {
    match kind {
        ChartKind::Line | ChartKind::Heatmap | ChartKind::Compare => {
            if x.is_none() {
                return Err(ctx.invalid(
                    e.span("x"),
                    &e.name("x"),
                    "is missing: the swept parameter along the horizontal axis",
                ));
            }
            if kind == ChartKind::Heatmap && series.is_none() {
                return Err(ctx.invalid(
                    e.span("series"),
                    &e.name("series"),
                    "is missing: a heatmap's rows are the values of a second swept parameter",
                ));
            }
            if kind == ChartKind::Compare {
                let values = series
                    .as_deref()
                    .and_then(|p| sweep.iter().find(|a| a.path == p))
                    .map_or(0, |a| a.values.len());
                if values < 2 {
                    return Err(ctx.invalid(
                        e.span("series"),
                        &e.name("series"),
                        "must be a swept parameter with two or more values: the policies or variants compared",
                    ));
                }
            }
            Ok((Some(metric(ctx, e, schema)?), None))
        }
        ChartKind::Histogram | ChartKind::AtLeast | ChartKind::AtMost => {
            let f = e.string(ctx, "field")?.ok_or_else(|| {
                ctx.invalid(
                    e.span("field"),
                    &e.name("field"),
                    "is missing: the outcome field to draw",
                )
            })?;
            if !schema.fields.iter().any(|s| s.name == f) {
                let names: Vec<&str> = schema.fields.iter().map(|s| s.name.as_str()).collect();
                return Err(ctx.invalid(
                    e.span("field"),
                    &e.name("field"),
                    format!(
                        "\"{f}\" is not an outcome field; allowed: {}",
                        names.join(", ")
                    ),
                ));
            }
            Ok((None, Some(f)))
        }
    }
}
