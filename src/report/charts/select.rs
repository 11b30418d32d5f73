//! Picking a chart's data out of a run: the configs its `where` selects,
//! the values of a swept parameter, a metric's value or a field's
//! distribution at one config.

use crate::results::{ConfigResult, FieldRow, Method, Results, Run};
use crate::scenario::ChartSpec;
use crate::systems::ParamValue;

pub fn value_index(results: &Results, path: &str) -> usize {
    results
        .swept
        .iter()
        .position(|p| p == path)
        .expect("chart paths are swept")
}

/// Distinct values of a swept path in sweep order.
pub fn axis_values(results: &Results, path: &str, configs: &[&ConfigResult]) -> Vec<ParamValue> {
    let i = value_index(results, path);
    let mut out: Vec<ParamValue> = Vec::new();
    for c in configs {
        if !out.contains(&c.swept[i]) {
            out.push(c.swept[i].clone());
        }
    }
    out
}

/// The configs among `configs` whose `path` has value `v`.
pub fn with_value<'a>(
    results: &Results,
    configs: &[&'a ConfigResult],
    path: &str,
    v: &ParamValue,
) -> Vec<&'a ConfigResult> {
    let i = value_index(results, path);
    configs
        .iter()
        .copied()
        .filter(|c| &c.swept[i] == v)
        .collect()
}

/// The exact run when there is one, else the first.
pub fn best_run(c: &ConfigResult) -> Option<&Run> {
    c.runs
        .iter()
        .find(|r| r.method == Method::Exact)
        .or_else(|| c.runs.first())
}

/// Configs matching the chart's `where`.
pub fn selected<'a>(results: &'a Results, spec: &ChartSpec) -> Vec<&'a ConfigResult> {
    results
        .configs
        .iter()
        .filter(|c| {
            spec.filter
                .iter()
                .all(|(p, v)| &c.swept[value_index(results, p)] == v)
        })
        .collect()
}

/// A metric's value at a config, with its Monte Carlo interval if any.
pub fn metric_point(c: &ConfigResult, metric: &str) -> Option<(f64, Option<(f64, f64)>)> {
    let run = best_run(c)?;
    let m = run.metric(metric)?;
    Some((m.value, m.interval))
}

/// The distribution rows of one field at a config.
pub fn field_rows<'a>(c: &'a ConfigResult, field: &str) -> Vec<&'a FieldRow> {
    best_run(c)
        .map(|r| r.dist.iter().filter(|d| d.field == field).collect())
        .unwrap_or_default()
}

/// The legend entry for one config in a distribution chart: its `series`
/// value, or every swept value the chart neither fixes nor facets by.
pub fn describe_config(results: &Results, spec: &ChartSpec, c: &ConfigResult) -> String {
    match &spec.series {
        Some(p) => c.swept[value_index(results, p)].to_string(),
        None => {
            let parts: Vec<String> = results
                .swept
                .iter()
                .zip(&c.swept)
                .filter(|(p, _)| {
                    !spec.filter.iter().any(|(f, _)| f == *p)
                        && spec.facet.as_deref() != Some(p.as_str())
                })
                .map(|(p, v)| format!("{} = {v}", spec.labels.of(p)))
                .collect();
            if parts.is_empty() {
                spec.labels
                    .of(spec.field.as_deref().unwrap_or_default())
                    .to_string()
            } else {
                parts.join(", ")
            }
        }
    }
}
