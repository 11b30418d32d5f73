//! `[[chart]]` and `[[expect]]` tables: what to draw and which balance
//! assertions must hold. Parsed and checked against the sweep and the
//! mechanic's schema, so a typo fails before anything runs. Every mistake
//! of every table is kept, not just the first.

use std::ops::Range;

use toml_edit::{InlineTable, Item, Table, Value};

use super::error::Problems;
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

    /// A finite number: a NaN bound would hold (or fail) for every value,
    /// an infinite one says nothing.
    fn number(&self, ctx: &Ctx, key: &str, v: &Value) -> Result<f64, ScenarioError> {
        let x = v
            .as_float()
            .or_else(|| v.as_integer().map(|i| i as f64))
            .ok_or_else(|| ctx.invalid(self.span(key), &self.name(key), "must be a number"))?;
        if x.is_finite() {
            Ok(x)
        } else {
            Err(ctx.invalid(
                self.span(key),
                &self.name(key),
                format!("{x} is not a usable bound; allowed: a finite number"),
            ))
        }
    }

    fn check_keys(&self, ctx: &Ctx, allowed: &[&str], problems: &mut Problems) {
        for (k, _) in self.table.iter() {
            if !allowed.contains(&k) {
                problems.push(ctx.invalid(
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
    }

    /// The inline table under `key` (`monotonic = { … }`), with only the
    /// keys `allowed`.
    fn inline<'t>(
        &'t self,
        ctx: &Ctx,
        key: &str,
        allowed: &[&str],
        shape: &str,
    ) -> Result<&'t InlineTable, ScenarioError> {
        let t = self
            .value(key)
            .and_then(Value::as_inline_table)
            .ok_or_else(|| {
                ctx.invalid(self.span(key), &self.name(key), format!("must be {shape}"))
            })?;
        let mut problems = Problems::default();
        for (k, _) in t.iter() {
            if !allowed.contains(&k) {
                problems.push(ctx.invalid(
                    self.span(key),
                    &self.name(key),
                    format!(
                        "has an unknown key `{k}`; allowed: {} (as in {shape})",
                        allowed.join(", ")
                    ),
                ));
            }
        }
        problems.result(t)
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
        return match e.table.get("where") {
            None => Ok(Vec::new()),
            Some(_) => Err(ctx.invalid(
                e.span("where"),
                &e.name("where"),
                "must be an inline table { \"path\" = value }",
            )),
        };
    };
    let Some(t) = v.as_inline_table() else {
        return Err(ctx.invalid(
            e.span("where"),
            &e.name("where"),
            "must be an inline table { \"path\" = value }",
        ));
    };
    let mut problems = Problems::default();
    let mut out = Vec::new();
    for (k, x) in t.iter() {
        let Some(path) = problems.ok(swept(ctx, e, "where", k, sweep)) else {
            continue;
        };
        let Some(value) = problems.ok(to_param(ctx, &path, x)) else {
            continue;
        };
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
            problems.push(ctx.invalid(
                e.span("where"),
                &e.name("where"),
                format!(
                    "{path} = {value} is not a value of the sweep; allowed: {}",
                    values.join(", ")
                ),
            ));
            continue;
        }
        out.push((path, value));
    }
    problems.result(out)
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

/// Parse every `[[chart]]`; mistakes go to `problems`.
pub(super) fn charts(
    ctx: &Ctx,
    root: &Table,
    sweep: &[Axis],
    schema: &Schema,
    problems: &mut Problems,
) -> Vec<ChartSpec> {
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
        let filter = problems.ok(filter(ctx, &e, sweep));
        let title = problems.ok(e.string(ctx, "title"));
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
            e.index + 1,
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

/// Parse every `[[expect]]`; mistakes go to `problems`.
pub(super) fn expectations(
    ctx: &Ctx,
    root: &Table,
    sweep: &[Axis],
    schema: &Schema,
    problems: &mut Problems,
) -> Vec<Expectation> {
    let mut out = Vec::new();
    let Some(entries) = problems.ok(tables(ctx, root, "expect")) else {
        return out;
    };
    for e in entries {
        let before = problems.len();
        e.check_keys(ctx, EXPECT_KEYS, problems);
        let metric = problems.ok(metric(ctx, &e, schema));
        let filter = problems.ok(filter(ctx, &e, sweep));
        let rule = problems.ok(rule(ctx, &e, sweep));
        let why = problems.ok(e.string(ctx, "why"));
        if let (Some(metric), Some(filter), Some(rule), Some(why), true) =
            (metric, filter, rule, why, problems.len() == before)
        {
            out.push(Expectation {
                line: ctx.line(e.table.span()),
                why,
                metric,
                filter,
                rule,
            });
        }
    }
    out
}

/// The one bound of an `[[expect]]`.
fn rule(ctx: &Ctx, e: &Entry, sweep: &[Axis]) -> Result<Rule, ScenarioError> {
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
    let along = |t: &InlineTable| -> Result<String, ScenarioError> {
        let along = t.get("along").and_then(Value::as_str).ok_or_else(|| {
            ctx.invalid(e.span(key), &e.name(key), "needs along = \"swept.path\"")
        })?;
        swept(ctx, e, key, along, sweep)
    };
    Ok(match key {
        "between" => {
            let a = v
                .as_array()
                .filter(|a| a.len() == 2)
                .ok_or_else(|| ctx.invalid(e.span(key), &e.name(key), "must be [low, high]"))?;
            let (lo, hi) = (
                e.number(ctx, key, a.get(0).expect("two values"))?,
                e.number(ctx, key, a.get(1).expect("two values"))?,
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
            let t = e.inline(
                ctx,
                key,
                &["along", "direction"],
                "{ along = \"path\", direction = \"increasing\" | \"decreasing\" }",
            )?;
            let along = along(t)?;
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
            let t = e.inline(
                ctx,
                key,
                &["along", "step"],
                "{ along = \"path\", step = 0.15 }",
            )?;
            let along = along(t)?;
            let step = t
                .get("step")
                .ok_or_else(|| ctx.invalid(e.span(key), &e.name(key), "needs step = a number"))?;
            let step = e.number(ctx, key, step)?;
            if step < 0.0 {
                return Err(ctx.invalid(
                    e.span(key),
                    &e.name(key),
                    format!(
                        "step {step} is negative; allowed: a number ≥ 0 (the largest move allowed)"
                    ),
                ));
            }
            Rule::MaxStep { along, step }
        }
    })
}
