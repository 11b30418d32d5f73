//! `GET /api/mechanics`: the registry as `oddsmith systems` lists it, as
//! JSON: each mechanic's parameters (kind, range, default, doc), outcome
//! fields and headline metrics. The page builds its forms from it.

use serde::Serialize;
use serde_json::{Value, json};

use oddsmith::systems::{self, FieldKind, Lit, Mechanic, ParamKind, ParamSpec};

use super::examples::{self, Example, Form};

#[derive(Serialize)]
pub struct MechanicInfo {
    pub name: &'static str,
    pub system: &'static str,
    pub summary: &'static str,
    /// Whether an exact solver exists (else Monte Carlo only).
    pub exact: bool,
    pub params: Vec<ParamInfo>,
    pub fields: Vec<FieldInfo>,
    pub metrics: Vec<MetricInfo>,
    /// What best play decides (`POST /api/best`), or null where the
    /// mechanic has no exact best play.
    pub best: Option<&'static str>,
    /// Where the other side can play best too (`"opponent": "best"`, a
    /// zero-sum duel): what it decides and the metrics a duel is played
    /// for; null where the mechanic has no second deciding side.
    pub duel: Option<DuelInfo>,
}

#[derive(Serialize)]
pub struct DuelInfo {
    pub decision: &'static str,
    pub metrics: &'static [&'static str],
}

#[derive(Serialize)]
pub struct ParamInfo {
    pub key: &'static str,
    /// `int`, `bool`, `choice`, `int_or_name` or `custom`.
    pub kind: &'static str,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// The names a choice (or an integer-or-name) takes.
    pub choices: Vec<&'static str>,
    /// What is allowed, in words (as `oddsmith systems` says it).
    pub allowed: String,
    /// The default, or null when the key is optional and unset.
    pub default: Value,
    pub doc: &'static str,
    /// A wildcard key (`vars.*`) stands for many.
    pub wildcard: bool,
    /// A policy: the page gives it the policy editor, with its `forms`.
    pub policy: bool,
    pub forms: &'static [Form],
    /// Worked examples that fill the field, each naming its source.
    pub examples: &'static [Example],
}

#[derive(Serialize)]
pub struct FieldInfo {
    pub name: String,
    /// `bool`, `int` or `category`.
    pub kind: &'static str,
    pub labels: Vec<&'static str>,
    pub doc: &'static str,
}

#[derive(Serialize)]
pub struct MetricInfo {
    pub name: String,
    pub probability: bool,
    pub doc: &'static str,
}

fn param(mechanic: &str, p: &ParamSpec) -> ParamInfo {
    let (kind, min, max, choices) = match p.kind {
        ParamKind::Int { min, max } => ("int", Some(min), Some(max), vec![]),
        ParamKind::Bool => ("bool", None, None, vec![]),
        ParamKind::Choice(names) | ParamKind::Ordered(names) => {
            ("choice", None, None, names.to_vec())
        }
        ParamKind::IntOrName { min, max, names } => (
            "int_or_name",
            Some(min),
            Some(max),
            names.iter().map(|(n, _)| *n).collect(),
        ),
        ParamKind::Custom { .. } => ("custom", None, None, vec![]),
    };
    ParamInfo {
        key: p.path,
        kind,
        // i64::MAX reads as "no upper bound"; JSON numbers past 2^53 lose
        // digits in a browser, so say null.
        min,
        max: max.filter(|m| *m < (1 << 53)),
        choices,
        allowed: p.kind.allowed(),
        default: match p.default {
            Lit::Int(v) => json!(v),
            Lit::Bool(v) => json!(v),
            Lit::Str(v) => json!(v),
            Lit::Absent => Value::Null,
        },
        doc: p.doc,
        wildcard: p.path.ends_with('*'),
        policy: !examples::forms(mechanic, p.path).is_empty(),
        forms: examples::forms(mechanic, p.path),
        examples: examples::examples(mechanic, p.path),
    }
}

pub fn info(m: &dyn Mechanic) -> MechanicInfo {
    let schema = m.schema();
    MechanicInfo {
        name: m.name(),
        system: m.name().split('.').next().unwrap_or_default(),
        summary: m.summary(),
        best: systems::best::decision(m.name()),
        duel: systems::duel::opposing(m.name()).map(|decision| DuelInfo {
            decision,
            metrics: systems::duel::zero_sum(m.name()),
        }),
        exact: m.has_exact(),
        params: m.params().iter().map(|p| param(m.name(), p)).collect(),
        fields: schema
            .fields
            .iter()
            .map(|f| {
                let (kind, labels) = match &f.kind {
                    FieldKind::Bool => ("bool", vec![]),
                    FieldKind::Int => ("int", vec![]),
                    FieldKind::Category(l) => ("category", l.clone()),
                };
                FieldInfo {
                    name: f.name.clone(),
                    kind,
                    labels,
                    doc: f.doc,
                }
            })
            .collect(),
        metrics: schema
            .metrics
            .iter()
            .map(|x| MetricInfo {
                name: x.name.clone(),
                probability: x.kind.is_probability(),
                doc: x.doc,
            })
            .collect(),
    }
}

/// Every registered mechanic, in the registry's order.
pub fn all() -> Vec<MechanicInfo> {
    systems::registry().iter().map(|m| info(*m)).collect()
}
