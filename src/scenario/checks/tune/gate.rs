//! `[[expect]]` in a tune scenario: `knob_between = [a, b]` bounds the
//! knob value found, as the knob counts its values.

use toml_edit::{Table, Value};

use super::super::super::error::Problems;
use super::super::super::{Axis, ScenarioError};
use super::super::entry::{Entry, tables};
use super::super::filter;
use super::{GATE_KEYS, Knob, KnobGate, KnobKind};
use crate::scenario::ctx::Ctx;
use crate::systems::ParamValue;
use crate::systems::questworlds::rating::rating_of;

/// `[[expect]]` of a tune scenario: `knob_between = [a, b]`, optionally
/// `where` and `why`.
pub(super) fn gates(
    ctx: &Ctx,
    root: &Table,
    sweep: &[Axis],
    fixed: &crate::systems::ParamMap,
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
        let filter = problems.ok(filter(ctx, &e, sweep, fixed));
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
