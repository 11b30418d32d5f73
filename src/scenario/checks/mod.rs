//! `[[chart]]` and `[[expect]]` tables: what to draw and which balance
//! assertions must hold. Parsed and checked against the sweep and the
//! mechanic's schema, so a typo fails before anything runs. Every mistake
//! of every table is kept, not just the first.
//!
//! [`entry`] reads one table of either kind with its spans; [`chart`] and
//! [`expect`] check their own keys; what both name (a swept path, a
//! `where` filter, a metric) is checked here.

mod best;
mod chart;
mod entry;
mod expect;
mod labels;
mod tune;

pub(super) use best::best;
pub use best::{BestGate, BestOf, BestSpec};
pub(super) use chart::charts;
pub use chart::{ChartKind, ChartSpec};
pub(super) use expect::expectations;
pub use expect::{Expectation, Rule};
pub use labels::Labels;
pub(super) use labels::{Names, labels};
pub use tune::{Also, Knob, KnobGate, KnobKind, MAX_KNOB_VALUES, Target, Tune};
pub(super) use tune::{Known, knob_stand_in, tune};

use super::ctx::{Ctx, to_param};
use super::error::Problems;
use super::{Axis, ScenarioError};
use crate::systems::{ParamMap, ParamValue, Schema};
use entry::Entry;

/// A gate's `where` filter as a report says it: `" where a = 1, b = x"`,
/// or nothing without one (`[[expect]]`, a tune's and best play's gates).
pub fn where_clause(filter: &[(String, ParamValue)]) -> String {
    if filter.is_empty() {
        return String::new();
    }
    let pairs: Vec<String> = filter.iter().map(|(p, x)| format!("{p} = {x}")).collect();
    format!(" where {}", pairs.join(", "))
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
/// A path set in `[params]` is a sweep of one value to the designer: it
/// is accepted when the value is the one set (and then filters nothing
/// out, so it is not kept), and refused, saying the fixed value, when not.
fn filter(
    ctx: &Ctx,
    e: &Entry,
    sweep: &[Axis],
    fixed: &ParamMap,
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
        if let Some(set) = fixed.get(k).filter(|_| !sweep.iter().any(|a| a.path == k)) {
            let Some(value) = problems.ok(to_param(ctx, k, x)) else {
                continue;
            };
            let same =
                value == *set || matches!(&value, ParamValue::Str(s) if *s == set.to_string());
            if !same {
                problems.push(ctx.invalid(
                    e.span("where"),
                    &e.name("where"),
                    format!(
                        "{k} = {value} matches no config: {k} is not swept but fixed at {set} in [params]; use {k} = {set}, or sweep {k}"
                    ),
                ));
            }
            continue;
        }
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
    let names = schema.metric_names();
    if names.contains(&name) {
        Ok(name)
    } else {
        Err(ctx.invalid(
            e.span("metric"),
            &e.name("metric"),
            format!(
                "\"{name}\" is not a metric of this mechanic{}; allowed: {}",
                crate::systems::suggest(&name, names.iter().map(String::as_str)),
                names.join(", ")
            ),
        ))
    }
}
