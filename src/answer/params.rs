//! Every assumption behind an answer: each declared parameter with the
//! value it had, and whether that value was given, swept or left at its
//! default (policies and variants included: the numbers depend on them).

use serde::Serialize;

use super::Question;
use crate::systems::{Lit, ParamSpec};

/// One parameter of the question.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Parameter {
    pub key: String,
    /// The value, as a scenario's tables print it; `swept` for a swept
    /// key (its values are the configs'), `(unset)` for an optional key
    /// left out.
    pub value: String,
    /// `set`, `swept` or `default`.
    pub source: &'static str,
    pub doc: String,
}

impl Parameter {
    pub fn is_default(&self) -> bool {
        self.source == "default"
    }
}

fn default_text(spec: &ParamSpec) -> String {
    match spec.default {
        Lit::Int(v) => v.to_string(),
        Lit::Bool(v) => v.to_string(),
        Lit::Str(v) => v.to_string(),
        Lit::Absent => "(unset)".to_string(),
    }
}

/// Every parameter of `q`'s mechanic, in declaration order. A wildcard
/// key (`vars.*`) lists the keys given under it. A key left at its
/// default that has no effect given the others ([`Mechanic::idle`], read
/// at the first config) is not listed: the answer does not rest on it.
pub fn parameters(q: &Question) -> Vec<Parameter> {
    let mut out = Vec::new();
    let idle = q.mechanic.idle(&q.config(0).1);
    for spec in q.mechanic.params() {
        let doc = spec.doc.to_string();
        if let Some(prefix) = spec.path.strip_suffix('*') {
            for (key, value) in q.params.iter().filter(|(k, _)| k.starts_with(prefix)) {
                out.push(Parameter {
                    key: key.to_string(),
                    value: value.to_string(),
                    source: "set",
                    doc: doc.clone(),
                });
            }
            for (key, _) in q.sweep.iter().filter(|(k, _)| k.starts_with(prefix)) {
                out.push(Parameter {
                    key: key.clone(),
                    value: "swept".into(),
                    source: "swept",
                    doc: doc.clone(),
                });
            }
            continue;
        }
        let (value, source) = if q.sweep.iter().any(|(k, _)| k == spec.path) {
            ("swept".to_string(), "swept")
        } else if let Some(v) = q.params.get(spec.path) {
            (v.to_string(), "set")
        } else if idle.contains(&spec.path) {
            continue;
        } else {
            (default_text(spec), "default")
        };
        out.push(Parameter {
            key: spec.path.to_string(),
            value,
            source,
            doc,
        });
    }
    out
}
