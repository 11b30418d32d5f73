//! `[tune]` and its gates: which parameter to search (the knob), over which
//! values, for which value of which headline metric, read once into typed
//! values. The search itself lives in `crate::tune`; this module only says
//! what was asked, and refuses what cannot be answered, with the line and
//! key at fault.

use toml_edit::{Item, Table, Value};

use super::super::error::Problems;
use super::super::parse::Ctx;
use super::super::{Axis, ScenarioError};
use super::entry::{Entry, tables};
use super::{filter, metric};
use crate::systems::questworlds::rating::{RATING_EXPECTS, Rating, rating_of};
use crate::systems::{ParamKind, ParamSpec, ParamValue, Schema};

/// The most values a knob may walk.
pub const MAX_KNOB_VALUES: usize = 10_000;
/// The default walk of a rating knob: 1 to 20M (a mastery counts +20).
const RATING_RANGE: (i64, i64) = (1, 40);

/// How a knob's values are written and counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnobKind {
    /// Plain integers.
    Int,
    /// Names with a declared order; each counts as its place, from 0.
    Ordered,
    /// QuestWorlds ratings: 1..20, 1M, 2M …; each counts as its target
    /// number, a mastery being +20 (21 is 1M, 45 is 5M2).
    Rating,
}

/// The parameter a tune searches, and the values it walks, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Knob {
    pub path: String,
    pub kind: KnobKind,
    /// The values, lowest first, as the mechanic reads them.
    pub values: Vec<ParamValue>,
    /// What each value counts as (bounds and charts compare these).
    pub numbers: Vec<i64>,
    /// Line of `knob` in the file.
    pub line: usize,
}

/// What the metric should be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// As near this value as the knob can get.
    Nearest(f64),
    /// At least this, and as near it as the knob can get.
    AtLeast(f64),
    /// At most this, and as near it as the knob can get.
    AtMost(f64),
}

impl Target {
    /// The number the metric is measured against.
    pub fn value(self) -> f64 {
        match self {
            Target::Nearest(x) | Target::AtLeast(x) | Target::AtMost(x) => x,
        }
    }

    /// Whether `x` meets the target (every value meets a nearest target).
    pub fn meets(self, x: f64) -> bool {
        match self {
            Target::Nearest(_) => true,
            Target::AtLeast(b) => x >= b,
            Target::AtMost(b) => x <= b,
        }
    }

    /// `nearest 0.5`, `at least 0.75`, `at most 8`.
    pub fn describe(self) -> String {
        match self {
            Target::Nearest(x) => format!("nearest {x}"),
            Target::AtLeast(x) => format!("at least {x}"),
            Target::AtMost(x) => format!("at most {x}"),
        }
    }
}

/// A `[[tune.also]]` constraint: another metric the answer must keep in
/// bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Also {
    pub metric: String,
    /// [`Target::AtLeast`] or [`Target::AtMost`].
    pub bound: Target,
}

/// `[[expect]]` in a tune scenario: the found knob stays within bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct KnobGate {
    pub line: usize,
    pub why: Option<String>,
    pub filter: Vec<(String, ParamValue)>,
    /// The bounds, as the knob counts them (see [`Knob::numbers`]).
    pub low: i64,
    pub high: i64,
    /// The bounds as written, for messages.
    pub text: (String, String),
}

impl KnobGate {
    /// `knob in [2, 4]`.
    pub fn describe(&self) -> String {
        format!("knob in [{}, {}]", self.text.0, self.text.1)
    }
}

/// A parsed `[tune]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Tune {
    pub knob: Knob,
    /// A headline metric of the mechanic.
    pub metric: String,
    pub target: Target,
    /// Rows whose answer misses the target by more than this are not
    /// reachable.
    pub within: Option<f64>,
    pub also: Vec<Also>,
    /// Half-width that Monte Carlo candidates are refined to.
    pub precision: Option<f64>,
    pub gates: Vec<KnobGate>,
}

const TUNE_KEYS: &[&str] = &[
    "knob",
    "range",
    "metric",
    "target",
    "within",
    "also",
    "precision",
];
const ALSO_KEYS: &[&str] = &["metric", "at_least", "at_most"];
const GATE_KEYS: &[&str] = &["knob_between", "where", "why"];

/// What the parser knows when it reaches `[tune]`.
pub(in crate::scenario) struct Known<'a> {
    pub specs: &'a [ParamSpec],
    pub fixed: &'a [(String, usize)],
    pub sweep: &'a [Axis],
    pub schema: &'a Schema,
}

/// Parse `[tune]` and the knob gates of `[[expect]]`; `None` when the file
/// has no `[tune]`. Mistakes go to `problems`.
pub(in crate::scenario) fn tune(
    ctx: &Ctx,
    root: &Table,
    known: &Known,
    problems: &mut Problems,
) -> Option<Tune> {
    let item = root.get("tune")?;
    let Item::Table(table) = item else {
        problems.push(
            ctx.invalid(
                item.span()
                    .or_else(|| root.key("tune").and_then(|k| k.span())),
                "tune",
                "must be a table: [tune]",
            ),
        );
        return None;
    };
    let e = Entry {
        table,
        section: "tune",
        index: None,
    };
    let before = problems.len();
    e.check_keys(ctx, TUNE_KEYS, problems);
    let knob = problems.ok(knob(ctx, &e, known));
    let metric = problems.ok(metric(ctx, &e, known.schema));
    let probability = metric
        .as_deref()
        .is_some_and(|m| is_probability(known.schema, m));
    let target = problems.ok(target(ctx, &e, probability));
    let within = problems.ok(non_negative(ctx, &e, "within"));
    let precision = problems.ok(non_negative(ctx, &e, "precision")).flatten();
    if let Some(p) = precision
        && !(p > 0.0 && p < 1.0)
    {
        problems.push(ctx.invalid(
            e.span("precision"),
            &e.name("precision"),
            format!("{p} is out of range; allowed: a half-width between 0 and 1, e.g. 0.002"),
        ));
    }
    let also = also(ctx, table, known.schema, problems);
    let gates = knob
        .as_ref()
        .map(|k| gates(ctx, root, known.sweep, k, problems))
        .unwrap_or_default();
    match (knob, metric, target, within) {
        (Some(knob), Some(metric), Some(target), Some(within)) if problems.len() == before => {
            Some(Tune {
                knob,
                metric,
                target,
                within,
                also,
                precision,
                gates,
            })
        }
        _ => None,
    }
}

fn is_probability(schema: &Schema, metric: &str) -> bool {
    schema
        .metrics
        .iter()
        .any(|m| m.name == metric && m.kind.is_probability())
}

/// The knob: a declared, ordered parameter that is neither fixed nor
/// swept, with the values its range walks.
fn knob(ctx: &Ctx, e: &Entry, known: &Known) -> Result<Knob, ScenarioError> {
    let key = e.name("knob");
    let path = e.string(ctx, "knob")?.ok_or_else(|| {
        ctx.invalid(
            e.span("knob"),
            &key,
            "is missing; it names the parameter to search",
        )
    })?;
    let tunable: Vec<&str> = known
        .specs
        .iter()
        .filter(|s| walk_kind(s).is_some() && !s.path.ends_with(".*"))
        .map(|s| s.path)
        .collect();
    let Some(spec) = known.specs.iter().find(|s| s.path == path) else {
        return Err(ctx.invalid(
            e.span("knob"),
            &key,
            format!(
                "\"{path}\" is not a parameter of this mechanic{}; allowed: {}",
                crate::systems::suggest(&path, tunable.iter().copied()),
                tunable.join(", ")
            ),
        ));
    };
    if let Some(axis) = known.sweep.iter().find(|a| a.path == path) {
        return Err(ctx.invalid(
            e.span("knob"),
            &key,
            format!(
                "\"{path}\" is swept (line {}); the tune chooses the knob's value for each combination of the sweep: take it out of [sweep]",
                axis.line
            ),
        ));
    }
    if let Some((_, line)) = known.fixed.iter().find(|(p, _)| *p == path) {
        return Err(ctx.invalid(
            e.span("knob"),
            &key,
            format!("\"{path}\" is fixed in [params] (line {line}); the tune chooses it: take it out of [params]"),
        ));
    }
    let Some(kind) = walk_kind(spec) else {
        return Err(ctx.invalid(
            e.span("knob"),
            &key,
            format!(
                "\"{path}\" has no order to search ({}); allowed: an integer, ordered-name or rating parameter: {}",
                spec.kind.allowed(),
                tunable.join(", ")
            ),
        ));
    };
    let (values, numbers) = walk(ctx, e, spec, kind)?;
    Ok(Knob {
        path,
        kind,
        values,
        numbers,
        line: ctx.line(e.span("knob")),
    })
}

/// How a parameter can be walked, if it can.
fn walk_kind(spec: &ParamSpec) -> Option<KnobKind> {
    match spec.kind {
        ParamKind::Int { .. } | ParamKind::IntOrName { .. } => Some(KnobKind::Int),
        ParamKind::Ordered(_) => Some(KnobKind::Ordered),
        ParamKind::Custom { expects } if expects == RATING_EXPECTS => Some(KnobKind::Rating),
        // A parameter of its own notation that takes plain integers (a
        // sum of factors): walked as integers over a range the file gives.
        ParamKind::Custom { .. } => Some(KnobKind::Int),
        ParamKind::Bool | ParamKind::Choice(_) => None,
    }
}

/// One end of `range`, as the knob counts it.
fn end_number(
    ctx: &Ctx,
    e: &Entry,
    spec: &ParamSpec,
    kind: KnobKind,
    v: &Value,
) -> Result<i64, ScenarioError> {
    let bad = |why: String| ctx.invalid(e.span("range"), &e.name("range"), why);
    match (kind, spec.kind, v) {
        (KnobKind::Ordered, ParamKind::Ordered(names), Value::String(s)) => names
            .iter()
            .position(|n| *n == s.value().as_str())
            .map(|i| i as i64)
            .ok_or_else(|| {
                bad(format!(
                    "\"{}\" is not a name of {}; allowed: {}",
                    s.value(),
                    spec.path,
                    names.join(", ")
                ))
            }),
        (KnobKind::Ordered, _, _) => Err(bad(
            "ends must be names, e.g. { from = \"easy\", to = \"hard\" }".into(),
        )),
        (KnobKind::Rating, _, Value::Integer(i)) => Ok(*i.value()),
        (KnobKind::Rating, _, Value::String(s)) => rating_of(&ParamValue::Str(s.value().clone()))
            .map(|r| r.0)
            .map_err(|why| bad(format!("{why}; allowed: {RATING_EXPECTS}"))),
        (KnobKind::Int, ParamKind::IntOrName { names, .. }, Value::String(s)) => names
            .iter()
            .find(|(n, _)| *n == s.value().as_str())
            .map(|(_, v)| *v)
            .ok_or_else(|| {
                bad(format!(
                    "\"{}\" is not a name of {}; allowed: {}",
                    s.value(),
                    spec.path,
                    spec.kind.allowed()
                ))
            }),
        (KnobKind::Int, _, Value::Integer(i)) => Ok(*i.value()),
        _ => Err(bad(
            "ends must be integers (or names of the knob's values), e.g. { from = 0, to = 20 }"
                .into(),
        )),
    }
}

/// The values the knob walks, and what each counts as.
fn walk(
    ctx: &Ctx,
    e: &Entry,
    spec: &ParamSpec,
    kind: KnobKind,
) -> Result<(Vec<ParamValue>, Vec<i64>), ScenarioError> {
    let key = e.name("range");
    let declared: Option<(i64, i64)> = match (kind, spec.kind) {
        (_, ParamKind::Int { min, max } | ParamKind::IntOrName { min, max, .. }) => {
            Some((min, max))
        }
        (_, ParamKind::Ordered(names)) => Some((0, names.len() as i64 - 1)),
        _ => None,
    };
    let (from, to) = match table_of(e.table.get("range")) {
        None if e.table.contains_key("range") => {
            return Err(ctx.invalid(
                e.span("range"),
                &key,
                "must be a table { from = a, to = b }",
            ));
        }
        None => match (kind, declared) {
            (KnobKind::Rating, _) => RATING_RANGE,
            (_, Some((min, max)))
                if max
                    .checked_sub(min)
                    .is_some_and(|d| d < MAX_KNOB_VALUES as i64) =>
            {
                (min, max)
            }
            _ => {
                return Err(ctx.invalid(
                    e.span("knob"),
                    &key,
                    format!(
                        "is missing, and {} declares no short range ({}); give range = {{ from = a, to = b }}",
                        spec.path,
                        spec.kind.allowed()
                    ),
                ));
            }
        },
        Some(t) => {
            for (k, _) in t.iter() {
                if k != "from" && k != "to" {
                    return Err(ctx.invalid(
                        e.span("range"),
                        &key,
                        format!("has an unknown key `{k}`; allowed: from, to"),
                    ));
                }
            }
            let end = |k: &str| -> Result<i64, ScenarioError> {
                let v = t.get(k).and_then(Item::as_value).ok_or_else(|| {
                    ctx.invalid(
                        e.span("range"),
                        &key,
                        format!("needs `{k}`: {{ from = a, to = b }}"),
                    )
                })?;
                end_number(ctx, e, spec, kind, v)
            };
            (end("from")?, end("to")?)
        }
    };
    if from > to {
        return Err(ctx.invalid(
            e.span("range"),
            &key,
            format!("from {from} to {to} is empty: `from` must not exceed `to`"),
        ));
    }
    if let Some((min, max)) = declared
        && (from < min || to > max)
    {
        return Err(ctx.invalid(
            e.span("range"),
            &key,
            format!(
                "from {from} to {to} leaves the declared range of {}; allowed: {}",
                spec.path,
                spec.kind.allowed()
            ),
        ));
    }
    if to
        .checked_sub(from)
        .is_none_or(|d| d >= MAX_KNOB_VALUES as i64)
    {
        return Err(ctx.invalid(
            e.span("range"),
            &key,
            format!("has more than {MAX_KNOB_VALUES} values"),
        ));
    }
    let numbers: Vec<i64> = (from..=to).collect();
    let values = numbers
        .iter()
        .map(|&n| match (kind, spec.kind) {
            (KnobKind::Ordered, ParamKind::Ordered(names)) => {
                ParamValue::Str(names[n as usize].to_string())
            }
            (KnobKind::Rating, _) => ParamValue::Str(Rating(n).to_string()),
            _ => ParamValue::Int(n),
        })
        .collect();
    Ok((values, numbers))
}

fn table_of(item: Option<&Item>) -> Option<&dyn toml_edit::TableLike> {
    match item? {
        Item::Value(Value::InlineTable(t)) => Some(t),
        Item::Table(t) => Some(t),
        _ => None,
    }
}

/// A probability's bound must be one.
fn check_probability(
    ctx: &Ctx,
    e: &Entry,
    key: &str,
    x: f64,
    probability: bool,
) -> Result<f64, ScenarioError> {
    if probability && !(0.0..=1.0).contains(&x) {
        return Err(ctx.invalid(
            e.span(key),
            &e.name(key),
            format!("{x} is not a probability; the metric is one, so allowed: a number in [0, 1]"),
        ));
    }
    Ok(x)
}

/// `target = 0.5`, `{ at_least = 0.75 }` or `{ at_most = 0.33 }`.
fn target(ctx: &Ctx, e: &Entry, probability: bool) -> Result<Target, ScenarioError> {
    let key = e.name("target");
    let shape = "a number, { at_least = x } or { at_most = x }";
    let v = e.value("target").ok_or_else(|| {
        ctx.invalid(
            e.span("target"),
            &key,
            format!("is missing; allowed: {shape}"),
        )
    })?;
    if let Some(t) = v.as_inline_table() {
        let keys: Vec<&str> = t.iter().map(|(k, _)| k).collect();
        let (k, x) = match keys.as_slice() {
            [k @ ("at_least" | "at_most")] => (*k, t.get(k).expect("listed")),
            _ => return Err(ctx.invalid(e.span("target"), &key, format!("must be {shape}"))),
        };
        let x = e.number(ctx, "target", x)?;
        let x = check_probability(ctx, e, "target", x, probability)?;
        return Ok(if k == "at_least" {
            Target::AtLeast(x)
        } else {
            Target::AtMost(x)
        });
    }
    let x = e.number(ctx, "target", v)?;
    Ok(Target::Nearest(check_probability(
        ctx,
        e,
        "target",
        x,
        probability,
    )?))
}

/// An optional number ≥ 0.
fn non_negative(ctx: &Ctx, e: &Entry, key: &str) -> Result<Option<f64>, ScenarioError> {
    let Some(v) = e.value(key) else {
        return match e.table.get(key) {
            None => Ok(None),
            Some(_) => Err(ctx.invalid(e.span(key), &e.name(key), "must be a number")),
        };
    };
    let x = e.number(ctx, key, v)?;
    if x < 0.0 {
        return Err(ctx.invalid(
            e.span(key),
            &e.name(key),
            format!("{x} is negative; allowed: a number ≥ 0"),
        ));
    }
    Ok(Some(x))
}

/// `[[tune.also]]`: further bounds the answer must keep.
fn also(ctx: &Ctx, table: &Table, schema: &Schema, problems: &mut Problems) -> Vec<Also> {
    let mut out = Vec::new();
    let Some(entries) = problems.ok(tables(ctx, table, "also")) else {
        return out;
    };
    for mut e in entries {
        e.section = "tune.also";
        let before = problems.len();
        e.check_keys(ctx, ALSO_KEYS, problems);
        let Some(metric) = problems.ok(metric(ctx, &e, schema)) else {
            continue;
        };
        let probability = is_probability(schema, &metric);
        let bound = match (e.value("at_least"), e.value("at_most")) {
            (Some(v), None) => e
                .number(ctx, "at_least", v)
                .and_then(|x| check_probability(ctx, &e, "at_least", x, probability))
                .map(Target::AtLeast),
            (None, Some(v)) => e
                .number(ctx, "at_most", v)
                .and_then(|x| check_probability(ctx, &e, "at_most", x, probability))
                .map(Target::AtMost),
            _ => Err(ctx.invalid(
                e.table.span(),
                &e.name("at_least"),
                "needs exactly one of at_least, at_most",
            )),
        };
        if let (Some(bound), true) = (problems.ok(bound), problems.len() == before) {
            out.push(Also { metric, bound });
        }
    }
    out
}

/// `[[expect]]` of a tune scenario: `knob_between = [a, b]`, optionally
/// `where` and `why`.
fn gates(
    ctx: &Ctx,
    root: &Table,
    sweep: &[Axis],
    knob: &Knob,
    problems: &mut Problems,
) -> Vec<KnobGate> {
    let mut out = Vec::new();
    let Some(entries) = problems.ok(tables(ctx, root, "expect")) else {
        return out;
    };
    for e in entries {
        let before = problems.len();
        e.check_keys(ctx, GATE_KEYS, problems);
        let filter = problems.ok(filter(ctx, &e, sweep));
        let why = problems.ok(e.string(ctx, "why")).flatten();
        let bounds = problems.ok(knob_between(ctx, &e, knob));
        if let (Some(filter), Some((low, high, text)), true) =
            (filter, bounds, problems.len() == before)
        {
            out.push(KnobGate {
                line: ctx.line(e.table.span()),
                why,
                filter,
                low,
                high,
                text,
            });
        }
    }
    out
}

/// A value of the knob, as written in a gate, counted as the knob counts.
fn knob_number(knob: &Knob, v: &Value) -> Result<(i64, String), String> {
    match (knob.kind, v) {
        (KnobKind::Int | KnobKind::Rating, Value::Integer(i)) => {
            Ok((*i.value(), i.value().to_string()))
        }
        (KnobKind::Rating, Value::String(s)) => {
            rating_of(&ParamValue::Str(s.value().clone())).map(|r| (r.0, s.value().clone()))
        }
        (_, Value::String(s)) => knob
            .values
            .iter()
            .position(|x| matches!(x, ParamValue::Str(n) if n == s.value()))
            .map(|i| (knob.numbers[i], s.value().clone()))
            .ok_or_else(|| format!("\"{}\" is not a value the knob walks", s.value())),
        _ => Err("must be a value of the knob".into()),
    }
}

fn knob_between(
    ctx: &Ctx,
    e: &Entry,
    knob: &Knob,
) -> Result<(i64, i64, (String, String)), ScenarioError> {
    let key = e.name("knob_between");
    let shape = "[low, high], two values of the knob";
    if !e.table.contains_key("knob_between") {
        return Err(ctx.invalid(
            e.table.span(),
            &key,
            format!("is missing: in a tune scenario an [[expect]] bounds the found knob, knob_between = {shape}"),
        ));
    }
    let a = e
        .value("knob_between")
        .and_then(Value::as_array)
        .filter(|a| a.len() == 2)
        .ok_or_else(|| ctx.invalid(e.span("knob_between"), &key, format!("must be {shape}")))?;
    let end = |v: &Value| {
        knob_number(knob, v).map_err(|why| {
            ctx.invalid(
                e.span("knob_between"),
                &key,
                format!("{why}; allowed: {shape}"),
            )
        })
    };
    let (lo, hi) = (end(a.get(0).expect("two"))?, end(a.get(1).expect("two"))?);
    if lo.0 > hi.0 {
        return Err(ctx.invalid(
            e.span("knob_between"),
            &key,
            format!("[{}, {}] is empty: low must not exceed high", lo.1, hi.1),
        ));
    }
    Ok((lo.0, hi.0, (lo.1, hi.1)))
}
