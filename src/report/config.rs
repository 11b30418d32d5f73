//! The full configuration of a run: every parameter of the mechanic with
//! the value the numbers rest on, and where that value comes from (the
//! scenario's `[params]`, its `[sweep]`, or the mechanic's default). The
//! report lists it whole; a chart's subtitle names the fixed part.

use super::charts::Fixed;
use crate::scenario::Scenario;
use crate::systems::{Lit, ParamValue};

/// Where a parameter's value comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// Set in `[params]`.
    Set(ParamValue),
    /// Swept over these values.
    Swept(Vec<ParamValue>),
    /// Left at the mechanic's default.
    Default(String),
    /// Left out, and the mechanic has no default: its absence means
    /// something (the doc says what).
    Unset,
}

/// One parameter of the run.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub path: String,
    pub source: Source,
    pub doc: &'static str,
}

impl Setting {
    /// The value as the report shows it.
    pub fn value(&self) -> String {
        match &self.source {
            Source::Set(v) => v.to_string(),
            Source::Swept(values) => {
                let all: Vec<String> = values.iter().map(|v| v.to_string()).collect();
                all.join(", ")
            }
            Source::Default(v) => v.clone(),
            Source::Unset => "not set".into(),
        }
    }

    /// Where the value comes from, in words.
    pub fn how(&self) -> &'static str {
        match self.source {
            Source::Set(_) => "set",
            Source::Swept(_) => "swept",
            Source::Default(_) => "default",
            Source::Unset => "not set (no default)",
        }
    }
}

/// A default as the report shows it: bare, like every other value.
fn default_text(lit: Lit) -> Option<String> {
    match lit {
        Lit::Int(v) => Some(v.to_string()),
        Lit::Bool(v) => Some(v.to_string()),
        Lit::Str(v) => Some(v.to_string()),
        Lit::Absent => None,
    }
}

/// Every parameter of `scenario`'s mechanic, in the mechanic's order. A
/// pattern (`vars.*`, whose names are the user's) lists the names the
/// scenario gives it.
///
/// A key left at its default (or unset) that has no effect given the
/// others ([`Mechanic::idle`](crate::systems::Mechanic::idle), read at the
/// first config) is not listed: no number rests on it.
pub fn settings(scenario: &Scenario) -> Vec<Setting> {
    let mut out = Vec::new();
    let idle = scenario.mechanic.idle(&scenario.config(0).values);
    for spec in scenario.mechanic.params() {
        if let Some(prefix) = spec.path.strip_suffix(".*") {
            let under = |p: &str| {
                p.strip_prefix(prefix)
                    .is_some_and(|rest| rest.starts_with('.'))
            };
            for (p, v) in scenario.params.iter().filter(|(p, _)| under(p)) {
                out.push(Setting {
                    path: p.to_string(),
                    source: Source::Set(v.clone()),
                    doc: spec.doc,
                });
            }
            for a in scenario.sweep.iter().filter(|a| under(&a.path)) {
                out.push(Setting {
                    path: a.path.clone(),
                    source: Source::Swept(a.values.clone()),
                    doc: spec.doc,
                });
            }
            continue;
        }
        let source = if let Some(v) = scenario.params.get(spec.path) {
            Source::Set(v.clone())
        } else if let Some(a) = scenario.sweep.iter().find(|a| a.path == spec.path) {
            Source::Swept(a.values.clone())
        } else if idle.contains(&spec.path) {
            continue;
        } else {
            match default_text(spec.default) {
                Some(v) => Source::Default(v),
                None => Source::Unset,
            }
        };
        out.push(Setting {
            path: spec.path.to_string(),
            source,
            doc: spec.doc,
        });
    }
    out
}

/// What every chart of `scenario` holds fixed: its `[params]` and the
/// defaults of every parameter neither set nor swept.
pub fn fixed(scenario: &Scenario) -> Fixed {
    let mut f = Fixed::default();
    for s in settings(scenario) {
        match &s.source {
            Source::Set(v) => f.set.push((s.path.clone(), v.to_string())),
            Source::Default(v) => f.defaults.push((s.path.clone(), v.clone())),
            Source::Swept(_) | Source::Unset => {}
        }
    }
    f
}
