//! Labels: the designer's words for the code names a scenario uses.
//!
//! `[labels]` (for the whole scenario) and a chart's `labels = { … }` map a
//! parameter path, a metric or an outcome field to the text charts and
//! reports show in its place: `"opposition.challenge" = "Challenge"`. A
//! key that names nothing the mechanic has is refused with the nearest
//! names, so a typo never leaves a chart silently in code-speak.

use std::ops::Range;

use toml_edit::{Item, Table, Value};

use super::super::error::Problems;
use crate::model::covers;
use crate::scenario::ctx::Ctx;
use crate::systems::{ParamSpec, Schema, suggest};

/// Names and the text shown for them, in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Labels(Vec<(String, String)>);

impl Labels {
    /// Labels from `(name, text)` pairs.
    pub fn from_pairs(pairs: &[(&str, &str)]) -> Labels {
        Labels(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    /// The label of `name`, if it has one.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The text shown for `name`: its label, else the name itself.
    pub fn of<'a>(&'a self, name: &'a str) -> &'a str {
        self.get(name).unwrap_or(name)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// These labels, then those of `fallback` for names these leave out
    /// (a chart's own labels before the scenario's).
    pub fn or(&self, fallback: &Labels) -> Labels {
        let mut out = self.clone();
        for (k, v) in &fallback.0 {
            if out.get(k).is_none() {
                out.0.push((k.clone(), v.clone()));
            }
        }
        out
    }
}

/// What a label may name: every parameter, metric and outcome field.
pub(in crate::scenario) struct Names<'a> {
    pub(in crate::scenario) params: &'a [ParamSpec],
    pub(in crate::scenario) schema: &'a Schema,
    pub(in crate::scenario) mechanic: &'a str,
    /// The values `[params]` fixes.
    pub(in crate::scenario) fixed: &'a crate::systems::ParamMap,
}

impl Names<'_> {
    fn knows(&self, name: &str) -> bool {
        self.params.iter().any(|p| covers(p.path, name))
            || self.schema.metrics.iter().any(|m| m.name == name)
            || self.schema.fields.iter().any(|f| f.name == name)
            || self.complement(name)
    }

    /// Whether `name` is the derived complement of a probability metric
    /// (`p_fail` of `p_success`, `p_not_x` of `p_x`), which charts and
    /// assertions may use too.
    fn complement(&self, name: &str) -> bool {
        self.schema.metrics.iter().any(|m| {
            m.kind.is_probability()
                && m.name.strip_prefix("p_").is_some_and(|what| {
                    name == format!("p_not_{what}")
                        || (what == "success" && name == "p_fail")
                        || (what == "true" && name == "p_false")
                })
        })
    }

    fn all(&self) -> Vec<&str> {
        self.params
            .iter()
            .map(|p| p.path)
            .chain(self.schema.metrics.iter().map(|m| m.name.as_str()))
            .chain(self.schema.fields.iter().map(|f| f.name.as_str()))
            .collect()
    }
}

/// A labels table (`[labels]`, or a chart's inline `labels`) whose key in
/// messages is `key` (`labels`, `chart[2].labels`). Dotted keys written
/// bare (`opposition.challenge = "…"`) nest in TOML; they are read back
/// as the one dotted name.
pub(in crate::scenario) fn labels(
    ctx: &Ctx,
    item: &Item,
    key: &str,
    span: Option<Range<usize>>,
    names: &Names,
    problems: &mut Problems,
) -> Labels {
    let mut flat: Flat = Vec::new();
    match item {
        Item::Table(t) => flatten_table(t, "", &mut flat),
        Item::Value(v @ Value::InlineTable(_)) => flatten_value(v, "", span.clone(), &mut flat),
        _ => {
            problems.push(ctx.invalid(
                span,
                key,
                "must be a table of names and their text, e.g. { \"p_success\" = \"Chance of success\" }",
            ));
            return Labels::default();
        }
    }
    let mut out = Labels::default();
    for (name, at, text) in flat {
        let at = at.or(span.clone());
        let full = format!("{key}.{name}");
        if !names.knows(&name) {
            let all = names.all();
            problems.push(ctx.invalid(
                at,
                &full,
                format!(
                    "\"{name}\" is not a parameter, metric or outcome field of {}{}; allowed: {}",
                    names.mechanic,
                    suggest(&name, all.iter().copied()),
                    all.join(", ")
                ),
            ));
            continue;
        }
        match text {
            Ok(t) if t.trim().is_empty() => {
                problems.push(ctx.invalid(at, &full, "is empty; allowed: the text to show"))
            }
            Ok(t) => out.0.push((name, t)),
            Err(what) => problems.push(ctx.invalid(
                at,
                &full,
                format!("must be a string (the text to show), not {what}"),
            )),
        }
    }
    out
}

type Flat = Vec<(String, Option<Range<usize>>, Result<String, &'static str>)>;

fn join(prefix: &str, k: &str) -> String {
    if prefix.is_empty() {
        k.to_string()
    } else {
        format!("{prefix}.{k}")
    }
}

fn flatten_table(t: &Table, prefix: &str, out: &mut Flat) {
    for (k, item) in t.iter() {
        let path = join(prefix, k);
        let span = t.key(k).and_then(|k| k.span()).or_else(|| item.span());
        match item {
            Item::Table(inner) => flatten_table(inner, &path, out),
            Item::Value(v) => flatten_value(v, &path, span, out),
            _ => out.push((path, span, Err("an array of tables"))),
        }
    }
}

fn flatten_value(v: &Value, path: &str, span: Option<Range<usize>>, out: &mut Flat) {
    match v {
        Value::InlineTable(t) => {
            for (k, x) in t.iter() {
                let at = t.key(k).and_then(|k| k.span()).or_else(|| x.span());
                flatten_value(x, &join(path, k), at.or(span.clone()), out);
            }
        }
        Value::String(s) => out.push((path.to_string(), span, Ok(s.value().clone()))),
        other => out.push((path.to_string(), span, Err(other.type_name()))),
    }
}
