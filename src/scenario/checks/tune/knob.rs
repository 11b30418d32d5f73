//! The knob of `[tune]`: which parameters can be walked, and the values
//! a `range` walks, each with the number it counts as.

use toml_edit::{Item, Value};

use super::super::super::ScenarioError;
use super::super::entry::Entry;
use super::{Knob, KnobKind, Known, MAX_KNOB_VALUES};
use crate::scenario::ctx::Ctx;
use crate::systems::cgg::action::wrench::EXPECTS as WRENCH_EXPECTS;
use crate::systems::questworlds::rating::{RATING_EXPECTS, Rating, rating_of};
use crate::systems::{ParamKind, ParamSpec, ParamValue};

/// The default walk of a rating knob: 1 to 20M (a mastery counts +20).
const RATING_RANGE: (i64, i64) = (1, 40);

/// The knob: a declared, ordered parameter that is neither fixed nor
/// swept, with the values its range walks.
pub(super) fn knob(ctx: &Ctx, e: &Entry, known: &Known) -> Result<Knob, ScenarioError> {
    let key = e.name("knob");
    let path = e.string(ctx, "knob")?.ok_or_else(|| {
        ctx.invalid(
            e.span("knob"),
            &key,
            "is missing; it names the parameter to search",
        )
    })?;
    // A pattern (`vars.*`) is listed as its form, `vars.NAME`.
    let tunable: Vec<String> = known
        .specs
        .iter()
        .filter(|s| walk_kind(s).is_some())
        .map(|s| match s.path.strip_suffix(".*") {
            Some(prefix) => format!("{prefix}.NAME"),
            None => s.path.to_string(),
        })
        .collect();
    let Some(spec) = known
        .specs
        .iter()
        .find(|s| crate::model::covers(s.path, &path))
    else {
        return Err(ctx.invalid(
            e.span("knob"),
            &key,
            format!(
                "\"{path}\" is not a parameter of this mechanic{}; allowed: {}",
                crate::systems::suggest(&path, tunable.iter().map(String::as_str)),
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
    let (values, numbers) = walk(ctx, e, spec, kind, &path)?;
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
        // Policies: names and rules, no order.
        ParamKind::Custom { expects } if expects == WRENCH_EXPECTS => None,
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
    knob_path: &str,
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
                        knob_path,
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

/// The value a `[tune]` knob stands at while the sweep's configs are
/// checked, when the knob is a `vars.NAME` of a dice expression that
/// neither `[params]` nor `[sweep]` sets: its `range`'s start, else 1.
/// Other knobs have defaults, so they need none.
pub(in crate::scenario) fn knob_stand_in(
    root: &toml_edit::Table,
    scenario: &crate::scenario::Scenario,
) -> Option<(String, ParamValue)> {
    let tune = root.get("tune")?.as_table()?;
    let knob = tune.get("knob")?.as_str()?;
    let name = knob.strip_prefix("vars.")?;
    if name.is_empty()
        || scenario.params.get(knob).is_some()
        || scenario.sweep.iter().any(|a| a.path == knob)
    {
        return None;
    }
    let from = tune
        .get("range")
        .and_then(|r| r.as_table_like())
        .and_then(|r| r.get("from"))
        .and_then(|f| f.as_integer())
        .unwrap_or(1);
    Some((knob.to_string(), ParamValue::Int(from)))
}
