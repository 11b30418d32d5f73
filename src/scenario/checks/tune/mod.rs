//! `[tune]` and its gates: which parameter to search (the knob), over which
//! values, for which value of which headline metric, read once into typed
//! values. The search itself lives in `crate::tune`; this module only says
//! what was asked, and refuses what cannot be answered, with the line and
//! key at fault.

use toml_edit::{Item, Table};

mod gate;
mod knob;

use super::super::error::Problems;
use super::super::{Axis, ScenarioError};
use super::entry::{Entry, tables};
use super::metric;
use crate::scenario::ctx::Ctx;
use crate::systems::{ParamSpec, ParamValue, Schema};
use gate::gates;
use knob::knob;
pub(in crate::scenario) use knob::knob_stand_in;

/// The most values a knob may walk.
pub const MAX_KNOB_VALUES: usize = 10_000;

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
    /// A value within [`Target::SLACK`] of its bound meets it: an exact
    /// answer is a sum of products of floats, so 3/4 may arrive as
    /// 0.7499999999999999, and that last bit must not fail "at least 0.75".
    pub fn meets(self, x: f64) -> bool {
        match self {
            Target::Nearest(_) => true,
            Target::AtLeast(b) => x >= b - Self::SLACK,
            Target::AtMost(b) => x <= b + Self::SLACK,
        }
    }

    /// How far below an at-least bound (above an at-most) a value may fall
    /// and still meet it: float noise, far below any Monte Carlo error.
    pub const SLACK: f64 = 1e-12;

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
    /// The values `[params]` fixes.
    pub params: &'a crate::systems::ParamMap,
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
        .map(|k| gates(ctx, root, known.sweep, known.params, k, problems))
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

#[cfg(test)]
mod tests {
    use super::Target;

    #[test]
    fn a_bound_is_met_through_float_noise_but_not_beyond_it() {
        let three_quarters = 0.75_f64.next_down(); // 0.7499999999999999
        assert!(three_quarters < 0.75);
        assert!(Target::AtLeast(0.75).meets(three_quarters));
        assert!(!Target::AtLeast(0.75).meets(0.7499));
        assert!(Target::AtMost(0.3).meets(0.1 + 0.2)); // 0.30000000000000004
        assert!(!Target::AtMost(0.3).meets(0.3001));
        assert!(Target::Nearest(0.5).meets(0.9));
    }
}
