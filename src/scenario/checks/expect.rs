//! `[[expect]]`: a balance assertion, one bound on one metric.

use toml_edit::{InlineTable, Table, Value};

use super::super::error::Problems;
use super::super::{Axis, ScenarioError};
use super::entry::{Entry, tables};
use super::{filter, metric, swept};
use crate::scenario::ctx::Ctx;
use crate::systems::{ParamMap, ParamValue, Schema};

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

/// The keys that set an assertion's bound, one per `[[expect]]`.
const BOUNDS: &[&str] = &["between", "at_least", "at_most", "monotonic", "max_step"];

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

/// Parse every `[[expect]]`; mistakes go to `problems`.
pub(in crate::scenario) fn expectations(
    ctx: &Ctx,
    root: &Table,
    sweep: &[Axis],
    fixed: &ParamMap,
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
        let filter = problems.ok(filter(ctx, &e, sweep, fixed));
        // With no bound but an unknown key, the key is the likeliest
        // misspelt bound (`at_lest`), and its error (naming it, with the
        // nearest key) is the one to read: no second error for it.
        let misspelt = BOUNDS.iter().all(|k| !e.table.contains_key(k))
            && e.table.iter().any(|(k, _)| !EXPECT_KEYS.contains(&k));
        let rule = if misspelt {
            None
        } else {
            problems.ok(rule(ctx, &e, sweep))
        };
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
    let bounds: Vec<&str> = BOUNDS
        .iter()
        .copied()
        .filter(|k| e.table.contains_key(k))
        .collect();
    if bounds.is_empty() {
        return Err(ctx.invalid(
            e.table.span(),
            &e.name("metric"),
            "has no bound; give one of between, at_least, at_most, monotonic, max_step",
        ));
    }
    if bounds.len() > 1 {
        return Err(ctx.invalid(
            e.span(bounds[1]),
            &e.name(bounds[1]),
            format!(
                "is a second bound beside `{}`; an [[expect]] takes exactly one of between, at_least, at_most, monotonic, max_step (write two [[expect]] tables)",
                bounds[0]
            ),
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
