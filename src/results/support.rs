//! The whole support of every outcome field, in every run.
//!
//! Solvers and tallies only hold the values that happen, so a config that
//! cannot reach a value would have no row for it, and a pivot of the long
//! table into a difficulty table would show a hole (NaN) where the answer
//! is 0. Every run of a config therefore lists both booleans, every
//! category, and every integer any run of that config reached (so the
//! exact and the Monte Carlo rows of a config line up), with probability 0
//! (and, for Monte Carlo, count 0 and its Wilson interval) where it did
//! not.
//!
//! Integers are not completed over the whole sweep, nor between a
//! config's lowest and highest value: a statement's weight reaches only
//! multiples of its favouring sum, up to 190 in a big sweep, and filling
//! either way multiplied a 90,000-config table's rows by fifty.

use std::collections::{BTreeMap, BTreeSet};

use super::{ConfigResult, FieldRow};
use crate::model::{FieldKind, Schema};

/// Fill every run of `configs` (whose schemas are `schemas`, in the same
/// order) with a row for each value of each field's support.
pub fn complete(configs: &mut [ConfigResult], schemas: &[&Schema]) {
    for (c, schema) in configs.iter_mut().zip(schemas) {
        complete_one(c, schema);
    }
}

/// Fill every run of one config, whose schema is `schema`.
pub fn complete_one(c: &mut ConfigResult, schema: &Schema) {
    let mut support: BTreeMap<&str, BTreeSet<i64>> = BTreeMap::new();
    for f in &schema.fields {
        let values = support.entry(f.name.as_str()).or_default();
        match &f.kind {
            FieldKind::Bool => values.extend([0, 1]),
            FieldKind::Category(labels) => values.extend(0..labels.len() as i64),
            FieldKind::Int => {
                let reached = c
                    .runs
                    .iter()
                    .flat_map(|r| &r.dist)
                    .filter(|d| d.field == f.name)
                    .map(|d| d.value);
                values.extend(reached);
            }
        }
    }
    for run in &mut c.runs {
        let taken = std::mem::take(&mut run.dist);
        let mut by_field: BTreeMap<String, Vec<FieldRow>> = BTreeMap::new();
        for d in taken {
            by_field.entry(d.field.clone()).or_default().push(d);
        }
        let mut dist = Vec::new();
        for f in &schema.fields {
            let mut seen: BTreeMap<i64, FieldRow> = by_field
                .remove(&f.name)
                .unwrap_or_default()
                .into_iter()
                .map(|d| (d.value, d))
                .collect();
            for &value in support.get(f.name.as_str()).into_iter().flatten() {
                dist.push(seen.remove(&value).unwrap_or_else(|| {
                    let (probability, count, interval) = run.method.unreached(run.trials);
                    FieldRow {
                        field: f.name.clone(),
                        value,
                        label: f.label(value),
                        probability,
                        count,
                        interval,
                    }
                }));
            }
            // A value outside the support (it cannot be, but never drop a row).
            dist.extend(seen.into_values());
        }
        run.dist = dist;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FieldSpec;
    use crate::results::{Method, MetricRow, Run};

    fn row(field: &str, value: i64, p: f64, count: Option<u64>) -> FieldRow {
        FieldRow {
            field: field.into(),
            value,
            label: value.to_string(),
            probability: p,
            count,
            interval: None,
        }
    }

    fn config(index: usize, method: Method, dist: Vec<FieldRow>) -> ConfigResult {
        ConfigResult {
            index,
            swept: Vec::new(),
            runs: vec![Run {
                method,
                trials: if method == Method::Exact { 0 } else { 10 },
                metrics: Vec::<MetricRow>::new(),
                dist,
            }],
            agreement: Vec::new(),
        }
    }

    #[test]
    fn every_run_lists_every_boolean_category_and_reached_integer() {
        let schema = Schema {
            fields: vec![
                FieldSpec::new("win", FieldKind::Bool, ""),
                FieldSpec::new("side", FieldKind::Category(vec!["a", "b", "c"]), ""),
                FieldSpec::new("margin", FieldKind::Int, ""),
            ],
            metrics: Vec::new(),
        };
        let mut configs = vec![
            config(
                0,
                Method::Exact,
                vec![
                    row("win", 1, 1.0, None),
                    row("side", 2, 1.0, None),
                    row("margin", 3, 1.0, None),
                ],
            ),
            config(
                1,
                Method::MonteCarlo,
                vec![
                    row("win", 0, 1.0, Some(10)),
                    row("side", 0, 1.0, Some(10)),
                    row("margin", -1, 0.6, Some(6)),
                    row("margin", 2, 0.4, Some(4)),
                ],
            ),
        ];
        complete(&mut configs, &[&schema, &schema]);
        // Integers: the values each config reached (3; -1 and 2).
        for (c, margins) in configs.iter().zip([vec![3], vec![-1, 2]]) {
            let dist = &c.runs[0].dist;
            let listed: Vec<(&str, i64)> =
                dist.iter().map(|d| (d.field.as_str(), d.value)).collect();
            let mut want = vec![
                ("win", 0),
                ("win", 1),
                ("side", 0),
                ("side", 1),
                ("side", 2),
            ];
            want.extend(margins.into_iter().map(|m| ("margin", m)));
            assert_eq!(listed, want);
            let mass: f64 = dist
                .iter()
                .filter(|d| d.field == "side")
                .map(|d| d.probability)
                .sum();
            assert_eq!(mass, 1.0);
        }
        // Filled rows: probability 0; Monte Carlo ones count 0 with an interval.
        let exact = &configs[0].runs[0].dist;
        assert_eq!((exact[0].probability, exact[0].count), (0.0, None));
        assert_eq!(exact[2].label, "a");
        let mc = &configs[1].runs[0].dist;
        let unseen = mc
            .iter()
            .find(|d| d.field == "side" && d.value == 2)
            .unwrap();
        assert_eq!((unseen.probability, unseen.count), (0.0, Some(0)));
        let (lo, hi) = unseen.interval.unwrap();
        assert!(lo == 0.0 && hi > 0.0 && hi < 0.5);
    }
}
