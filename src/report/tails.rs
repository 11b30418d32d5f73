//! The "at least / at most" tables of a report: for each outcome field a
//! scenario charts (a histogram, an at-least or at-most chart) or asserts
//! on (a metric read off a field that is more than yes/no), the chance of
//! each value, of that value or more (≥), and of that value or less (≤),
//! at the configs the chart draws or the assertion names. These are the
//! numbers a designer's question is usually about ("how often does the
//! margin reach 3?"), which a mean and a spread do not answer.

use super::balance;
use super::percent::percent;
use crate::results::{ConfigResult, FieldRow, Method, Results};
use crate::scenario::{Labels, Scenario};
use crate::systems::{FieldKind, ParamValue};

/// Sums of exact probabilities are good to about this (see the heatmap's
/// cells), so a sum this close to 1 is 1.
const CERTAIN: f64 = 1e-12;
/// A table shows at most this many configs side by side.
const MAX_CONFIGS: usize = 6;
/// An assertion names its configs when its `where` picks out at most this
/// many (a bound over a whole axis names none).
pub const NAMED: usize = 4;

/// One ≥/≤ table.
#[derive(Clone, Debug, PartialEq)]
pub struct Tail {
    pub heading: String,
    pub note: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// The field and the configs one table is about.
struct Want {
    field: String,
    filter: Vec<(String, ParamValue)>,
    why: String,
}

/// How many configs of `scenario`'s sweep a `where` picks out.
pub fn picked(scenario: &Scenario, filter: &[(String, ParamValue)]) -> usize {
    scenario
        .sweep
        .iter()
        .filter(|a| !filter.iter().any(|(p, _)| *p == a.path))
        .map(|a| a.values.len())
        .product()
}

/// The fields asserted on that are worth a table (more than yes/no), with
/// the narrow `where` of each assertion.
fn asserted(scenario: &Scenario) -> Vec<Want> {
    let schema = scenario.mechanic.schema();
    let mut out = Vec::new();
    for e in &scenario.expectations {
        if e.filter.is_empty() || picked(scenario, &e.filter) > NAMED {
            continue;
        }
        let Some(m) = schema.metrics.iter().find(|m| m.name == e.metric) else {
            continue;
        };
        for f in m.kind.fields() {
            let Some(spec) = schema.fields.get(f) else {
                continue;
            };
            if spec.kind == FieldKind::Bool {
                continue;
            }
            out.push(Want {
                field: spec.name.clone(),
                filter: e.filter.clone(),
                why: format!("the assertion on line {} reads it", e.line),
            });
        }
    }
    out
}

/// Every table the report shows for `scenario`.
pub fn tables(scenario: &Scenario, results: &Results) -> Vec<Tail> {
    let mut wants: Vec<Want> = scenario
        .charts
        .iter()
        .filter(|c| c.kind.draws_field())
        .filter_map(|c| {
            Some(Want {
                field: c.field.clone()?,
                filter: c.filter.clone(),
                why: format!("chart `{}` draws it", c.file),
            })
        })
        .collect();
    wants.extend(asserted(scenario));
    let mut out: Vec<Tail> = Vec::new();
    let mut seen: Vec<(String, Vec<usize>)> = Vec::new();
    for w in wants {
        let configs: Vec<&ConfigResult> = results
            .configs
            .iter()
            .filter(|c| balance::matches(results, c, &w.filter))
            .filter(|c| !rows(c, &w.field).is_empty())
            .collect();
        if configs.is_empty() {
            continue;
        }
        let key = (w.field.clone(), configs.iter().map(|c| c.index).collect());
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        out.push(table(scenario, results, &w, &configs));
    }
    out
}

/// The distribution of `field` at a config: the exact run's, else the first.
fn rows<'a>(c: &'a ConfigResult, field: &str) -> Vec<&'a FieldRow> {
    c.runs
        .iter()
        .find(|r| r.method == Method::Exact)
        .or_else(|| c.runs.first())
        .map(|r| r.dist.iter().filter(|d| d.field == field).collect())
        .unwrap_or_default()
}

/// A config by the swept values its table's `where` leaves free.
fn describe(
    results: &Results,
    labels: &Labels,
    c: &ConfigResult,
    filter: &[(String, ParamValue)],
) -> String {
    let parts: Vec<String> = results
        .swept
        .iter()
        .zip(&c.swept)
        .filter(|(p, _)| !filter.iter().any(|(f, _)| f == *p))
        .map(|(p, v)| format!("{} = {v}", labels.of(p)))
        .collect();
    parts.join(", ")
}

fn table(scenario: &Scenario, results: &Results, w: &Want, configs: &[&ConfigResult]) -> Tail {
    let labels = &scenario.labels;
    let shown = &configs[..configs.len().min(MAX_CONFIGS)];
    // Every value any shown config reaches, from the least to the greatest.
    let mut values: Vec<(i64, String)> = Vec::new();
    for c in shown {
        for d in rows(c, &w.field) {
            if d.probability > 0.0 && !values.iter().any(|(v, _)| *v == d.value) {
                values.push((d.value, d.label.clone()));
            }
        }
    }
    values.sort_by_key(|(v, _)| *v);
    // Tails only where values are ordered: "tie or more" means nothing.
    let ordered = scenario
        .mechanic
        .schema()
        .fields
        .iter()
        .find(|f| f.name == w.field)
        .map_or_else(
            || values.iter().all(|(v, label)| *label == v.to_string()),
            |f| f.kind.is_ordered(),
        );
    let field = labels.of(&w.field);
    let one = shown.len() == 1;
    let mut header = vec![field.to_string()];
    for c in shown {
        let who = describe(results, labels, c, &w.filter);
        let cols: &[&str] = if !ordered {
            &["="]
        } else if shown.len() <= 2 {
            &["=", "≥", "≤"]
        } else {
            &["≥", "≤"]
        };
        for op in cols {
            header.push(if one || who.is_empty() {
                format!("{op} value")
            } else {
                format!("{who}: {op}")
            });
        }
    }
    let body: Vec<Vec<String>> = values
        .iter()
        .map(|(v, label)| {
            let mut row = vec![label.clone()];
            for c in shown {
                let dist = rows(c, &w.field);
                // A sum of every value is 1 but for rounding, which must
                // not read as "not quite certain".
                let sum = |keep: &dyn Fn(i64) -> bool| -> f64 {
                    let s: f64 = dist
                        .iter()
                        .filter(|d| keep(d.value))
                        .map(|d| d.probability)
                        .sum();
                    if s > 1.0 - CERTAIN { 1.0 } else { s }
                };
                if shown.len() <= 2 || !ordered {
                    row.push(percent(sum(&|x| x == *v)));
                }
                if ordered {
                    row.push(percent(sum(&|x| x >= *v)));
                    row.push(percent(sum(&|x| x <= *v)));
                }
            }
            row
        })
        .collect();
    let held: Vec<String> = w
        .filter
        .iter()
        .map(|(p, v)| format!("{} = {v}", labels.of(p)))
        .collect();
    let mut note = if !ordered {
        format!("The chance of each {field}")
    } else if shown.len() <= 2 {
        format!("The chance of each {field} (=), of it or more (≥) and of it or less (≤)")
    } else {
        format!("The chance of each {field} or more (≥) and of it or less (≤)")
    };
    if !held.is_empty() {
        note.push_str(&format!(", where {}", held.join(", ")));
    }
    if one {
        let who = describe(results, labels, shown[0], &w.filter);
        if !who.is_empty() {
            note.push_str(&format!(", at {who}"));
        }
    }
    note.push_str(&format!(" ({}).", w.why));
    if configs.len() > shown.len() {
        note.push_str(&format!(
            " The first {} of {} configs; every value is in `results.csv`.",
            shown.len(),
            configs.len()
        ));
    }
    Tail {
        heading: if ordered {
            format!("{field}: at least and at most")
        } else {
            format!("{field}: the chance of each")
        },
        note,
        header,
        rows: body,
    }
}
