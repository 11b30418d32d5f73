//! `[[chart]]` and `[[expect]]` tables: what to draw and which balance
//! assertions must hold. Parsed and checked against the sweep and the
//! mechanic's schema, so a typo fails before anything runs.

use std::ops::Range;

use toml_edit::{Item, Table, Value};

use super::parse::{Ctx, to_param};
use super::{Axis, ScenarioError};
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
}

impl ChartKind {
    pub const NAMES: &'static [&'static str] = &["line", "heatmap", "histogram", "at-least"];

    pub fn as_str(self) -> &'static str {
        match self {
            ChartKind::Line => "line",
            ChartKind::Heatmap => "heatmap",
            ChartKind::Histogram => "histogram",
            ChartKind::AtLeast => "at-least",
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
    /// Base file name (without extension).
    pub file: String,
}

/// The bound an assertion sets.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    Between(f64, f64),
    AtLeast(f64),
    AtMost(f64),
    /// Never rising (decreasing) or never falling (increasing) along a
    /// swept parameter, with every other parameter held.
    Monotonic {
        along: String,
        increasing: bool,
    },
    /// No jump larger than `step` between neighbouring values of `along`.
    MaxStep {
        along: String,
        step: f64,
    },
}

/// One `[[expect]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Expectation {
    /// Where in the file (for messages).
    pub line: usize,
    /// The designer's words, if given as `why`.
    pub why: Option<String>,
    pub metric: String,
    pub filter: Vec<(String, ParamValue)>,
    pub rule: Rule,
}

impl Expectation {
    /// A short statement of the rule, e.g. `p_success in [0.45, 0.65]`.
    pub fn describe(&self) -> String {
        let m = &self.metric;
        match &self.rule {
            Rule::Between(a, b) => format!("{m} in [{a}, {b}]"),
            Rule::AtLeast(a) => format!("{m} ≥ {a}"),
            Rule::AtMost(b) => format!("{m} ≤ {b}"),
            Rule::Monotonic { along, increasing } => {
                format!(
                    "{m} {} along {along}",
                    if *increasing {
                        "never falls"
                    } else {
                        "never rises"
                    }
                )
            }
            Rule::MaxStep { along, step } => {
                format!("{m} moves at most {step} per step of {along}")
            }
        }
    }
}

const CHART_KEYS: &[&str] = &[
    "kind", "metric", "field", "x", "series", "facet", "where", "title", "file",
];
const EXPECT_KEYS: &[&str] = &[
    "metric",
    "where",
    "between",
    "at_least",
    "at_most",
    "monotonic",
    "max_step",
    "why",
];

/// A table of an array of tables, entry by entry, with spans.
struct Entry<'a> {
    table: &'a Table,
    section: &'static str,
    index: usize,
}

impl Entry<'_> {
    fn span(&self, key: &str) -> Option<Range<usize>> {
        self.table
            .get(key)
            .and_then(|i| i.span())
            .or_else(|| self.table.key(key).and_then(|k| k.span()))
            .or_else(|| self.table.span())
    }

    fn name(&self, key: &str) -> String {
        format!("{}[{}].{key}", self.section, self.index + 1)
    }

    fn value(&self, key: &str) -> Option<&Value> {
        self.table.get(key).and_then(Item::as_value)
    }

    fn string(&self, ctx: &Ctx, key: &str) -> Result<Option<String>, ScenarioError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(item) => item
                .as_str()
                .map(|s| Some(s.to_string()))
                .ok_or_else(|| ctx.invalid(self.span(key), &self.name(key), "must be a string")),
        }
    }

    fn number(&self, ctx: &Ctx, key: &str, v: &Value) -> Result<f64, ScenarioError> {
        v.as_float()
            .or_else(|| v.as_integer().map(|i| i as f64))
            .ok_or_else(|| ctx.invalid(self.span(key), &self.name(key), "must be a number"))
    }

    fn check_keys(&self, ctx: &Ctx, allowed: &[&str]) -> Result<(), ScenarioError> {
        for (k, _) in self.table.iter() {
            if !allowed.contains(&k) {
                return Err(ctx.invalid(
                    self.span(k),
                    &self.name(k),
                    format!(
                        "is not a key of [[{}]]; allowed: {}",
                        self.section,
                        allowed.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }
}

fn tables<'a>(
    ctx: &Ctx,
    root: &'a Table,
    section: &'static str,
) -> Result<Vec<Entry<'a>>, ScenarioError> {
    match root.get(section) {
        None => Ok(Vec::new()),
        Some(Item::ArrayOfTables(a)) => Ok(a
            .iter()
            .enumerate()
            .map(|(index, table)| Entry {
                table,
                section,
                index,
            })
            .collect()),
        Some(item) => Err(ctx.invalid(
            item.span(),
            section,
            format!("must be written as [[{section}]] tables"),
        )),
    }
}

/// A swept path named by `key`, or an error listing the swept paths.
fn swept(
    ctx: &Ctx,
    e: &Entry,
    key: &str,
    path: &str,
    sweep: &[Axis],
) -> Result<String, ScenarioError> {
    if sweep.iter().any(|a| a.path == path) {
        Ok(path.to_string())
    } else {
        let paths: Vec<&str> = sweep.iter().map(|a| a.path.as_str()).collect();
        Err(ctx.invalid(
            e.span(key),
            &e.name(key),
            format!(
                "\"{path}\" is not swept; allowed: {}",
                if paths.is_empty() {
                    "(nothing is swept)".into()
                } else {
                    paths.join(", ")
                }
            ),
        ))
    }
}

/// `where = { path = value, … }`: swept paths and values of their axes.
fn filter(
    ctx: &Ctx,
    e: &Entry,
    sweep: &[Axis],
) -> Result<Vec<(String, ParamValue)>, ScenarioError> {
    let Some(v) = e.value("where") else {
        return Ok(Vec::new());
    };
    let Some(t) = v.as_inline_table() else {
        return Err(ctx.invalid(
            e.span("where"),
            &e.name("where"),
            "must be an inline table { \"path\" = value }",
        ));
    };
    let mut out = Vec::new();
    for (k, x) in t.iter() {
        let path = swept(ctx, e, "where", k, sweep)?;
        let value = to_param(ctx, &path, x)?;
        let axis = sweep
            .iter()
            .find(|a| a.path == path)
            .expect("swept() checked it");
        // A string may name a table or list value by its printed label
        // (a named policy: `where = { "a.policy" = "turtle" }`).
        let labelled = match &value {
            ParamValue::Str(s) => axis.values.iter().find(|v| {
                matches!(v, ParamValue::Table(_) | ParamValue::List(_)) && v.to_string() == *s
            }),
            _ => None,
        };
        if let Some(v) = labelled {
            out.push((path, v.clone()));
            continue;
        }
        if !axis.values.contains(&value) {
            let values: Vec<String> = axis.values.iter().map(|v| v.to_string()).collect();
            return Err(ctx.invalid(
                e.span("where"),
                &e.name("where"),
                format!(
                    "{path} = {value} is not a value of the sweep; allowed: {}",
                    values.join(", ")
                ),
            ));
        }
        out.push((path, value));
    }
    Ok(out)
}

fn metric(ctx: &Ctx, e: &Entry, schema: &Schema) -> Result<String, ScenarioError> {
    let name = e
        .string(ctx, "metric")?
        .ok_or_else(|| ctx.invalid(e.span("metric"), &e.name("metric"), "is missing"))?;
    if schema.metrics.iter().any(|m| m.name == name) {
        Ok(name)
    } else {
        let names: Vec<&str> = schema.metrics.iter().map(|m| m.name.as_str()).collect();
        Err(ctx.invalid(
            e.span("metric"),
            &e.name("metric"),
            format!(
                "\"{name}\" is not a metric of this mechanic; allowed: {}",
                names.join(", ")
            ),
        ))
    }
}

/// Parse every `[[chart]]`.
pub(super) fn charts(
    ctx: &Ctx,
    root: &Table,
    sweep: &[Axis],
    schema: &Schema,
) -> Result<Vec<ChartSpec>, ScenarioError> {
    let mut out = Vec::new();
    for e in tables(ctx, root, "chart")? {
        e.check_keys(ctx, CHART_KEYS)?;
        let kind_name = e.string(ctx, "kind")?.ok_or_else(|| {
            ctx.invalid(
                e.span("kind"),
                &e.name("kind"),
                format!("is missing; allowed: {}", ChartKind::NAMES.join(", ")),
            )
        })?;
        let kind = match kind_name.as_str() {
            "line" => ChartKind::Line,
            "heatmap" => ChartKind::Heatmap,
            "histogram" => ChartKind::Histogram,
            "at-least" => ChartKind::AtLeast,
            other => {
                return Err(ctx.invalid(
                    e.span("kind"),
                    &e.name("kind"),
                    format!(
                        "\"{other}\" is not a chart kind; allowed: {}",
                        ChartKind::NAMES.join(", ")
                    ),
                ));
            }
        };
        let path = |key: &str| -> Result<Option<String>, ScenarioError> {
            e.string(ctx, key)?
                .map(|p| swept(ctx, &e, key, &p, sweep))
                .transpose()
        };
        let (x, series, facet) = (path("x")?, path("series")?, path("facet")?);
        let filter = filter(ctx, &e, sweep)?;
        let (metric, field) = match kind {
            ChartKind::Line | ChartKind::Heatmap => {
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
                (Some(metric(ctx, &e, schema)?), None)
            }
            ChartKind::Histogram | ChartKind::AtLeast => {
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
                (None, Some(f))
            }
        };
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
            return Err(ctx.invalid(
                e.table.span(),
                &e.name("where"),
                format!(
                    "chart leaves {} varying; fix {} in `where` or use it as x, series or facet",
                    loose.join(", "),
                    if loose.len() == 1 { "it" } else { "them" }
                ),
            ));
        }
        let file = e
            .string(ctx, "file")?
            .unwrap_or_else(|| format!("chart-{}-{}", e.index + 1, kind.as_str()));
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
        out.push(ChartSpec {
            kind,
            metric,
            field,
            x,
            series,
            facet,
            filter,
            title: e.string(ctx, "title")?,
            file,
        });
    }
    Ok(out)
}

/// Parse every `[[expect]]`.
pub(super) fn expectations(
    ctx: &Ctx,
    root: &Table,
    sweep: &[Axis],
    schema: &Schema,
) -> Result<Vec<Expectation>, ScenarioError> {
    let mut out = Vec::new();
    for e in tables(ctx, root, "expect")? {
        e.check_keys(ctx, EXPECT_KEYS)?;
        let metric = metric(ctx, &e, schema)?;
        let filter = filter(ctx, &e, sweep)?;
        let bounds: Vec<&str> = ["between", "at_least", "at_most", "monotonic", "max_step"]
            .into_iter()
            .filter(|k| e.table.contains_key(k))
            .collect();
        if bounds.len() != 1 {
            return Err(ctx.invalid(
                e.table.span(),
                &e.name("between"),
                "needs exactly one of between, at_least, at_most, monotonic, max_step",
            ));
        }
        let key = bounds[0];
        let v = e
            .value(key)
            .ok_or_else(|| ctx.invalid(e.span(key), &e.name(key), "must be a value"))?;
        let inline = |what: &str| {
            v.as_inline_table()
                .ok_or_else(|| ctx.invalid(e.span(key), &e.name(key), format!("must be {what}")))
        };
        let rule = match key {
            "between" => {
                let a = v
                    .as_array()
                    .filter(|a| a.len() == 2)
                    .ok_or_else(|| ctx.invalid(e.span(key), &e.name(key), "must be [low, high]"))?;
                let (lo, hi) = (
                    e.number(ctx, key, a.get(0).unwrap())?,
                    e.number(ctx, key, a.get(1).unwrap())?,
                );
                if lo > hi {
                    return Err(ctx.invalid(
                        e.span(key),
                        &e.name(key),
                        format!("[{lo}, {hi}] is empty: low must not exceed high"),
                    ));
                }
                Rule::Between(lo, hi)
            }
            "at_least" => Rule::AtLeast(e.number(ctx, key, v)?),
            "at_most" => Rule::AtMost(e.number(ctx, key, v)?),
            "monotonic" => {
                let t =
                    inline("{ along = \"path\", direction = \"increasing\" | \"decreasing\" }")?;
                let along = t.get("along").and_then(Value::as_str).ok_or_else(|| {
                    ctx.invalid(e.span(key), &e.name(key), "needs along = \"swept.path\"")
                })?;
                let along = swept(ctx, &e, key, along, sweep)?;
                let increasing = match t.get("direction").and_then(Value::as_str) {
                    Some("increasing") => true,
                    Some("decreasing") => false,
                    _ => {
                        return Err(ctx.invalid(
                            e.span(key),
                            &e.name(key),
                            "needs direction = \"increasing\" or \"decreasing\"",
                        ));
                    }
                };
                Rule::Monotonic { along, increasing }
            }
            _ => {
                let t = inline("{ along = \"path\", step = 0.15 }")?;
                let along = t.get("along").and_then(Value::as_str).ok_or_else(|| {
                    ctx.invalid(e.span(key), &e.name(key), "needs along = \"swept.path\"")
                })?;
                let along = swept(ctx, &e, key, along, sweep)?;
                let step = t.get("step").ok_or_else(|| {
                    ctx.invalid(e.span(key), &e.name(key), "needs step = a number")
                })?;
                let step = e.number(ctx, key, step)?;
                Rule::MaxStep { along, step }
            }
        };
        out.push(Expectation {
            line: ctx.line(e.table.span()),
            why: e.string(ctx, "why")?,
            metric,
            filter,
            rule,
        });
    }
    Ok(out)
}
