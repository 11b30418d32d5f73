//! One answer, many faces: "this mechanic, these values → metrics and
//! distributions", as one serde type. `oddsmith odds` prints it as text,
//! CSV or JSON; a web workbench, `tune` and a Python package are to return
//! the same value, so no second path to the numbers can drift.
//!
//! A [`Question`] fixes some parameters and may sweep one or two others;
//! its configs are numbered as a scenario's `[sweep]` numbers them (axes
//! in order, the last fastest), and each config's Monte Carlo streams are
//! keyed by that number, so an answer's numbers are `oddsmith run`'s for
//! the same sweep and seed, bit for bit.

mod params;

pub use params::{Parameter, parameters};

use rayon::prelude::*;
use serde::Serialize;

use crate::dist::Marginals;
use crate::expr::Warning;
use crate::results::{ConfigResult, Run};
use crate::sim::{self, Plan, Progress, Tally};
use crate::systems::{Mechanic, Model, ParamError, ParamMap, ParamValue, Schema};

/// What is asked: a mechanic, fixed values, and up to two swept keys.
#[derive(Clone)]
pub struct Question {
    pub mechanic: &'static dyn Mechanic,
    /// Explicit values of the parameters that are not swept.
    pub params: ParamMap,
    /// Swept keys and their values, in the order a `[sweep]` lists them.
    pub sweep: Vec<(String, Vec<ParamValue>)>,
    /// Monte Carlo trials per config (where it runs).
    pub trials: u64,
    pub seed: u64,
    /// Also simulate where an exact answer exists, and compare.
    pub check: bool,
}

impl Question {
    /// Number of configs the sweep expands to.
    pub fn config_count(&self) -> usize {
        self.sweep.iter().map(|(_, v)| v.len()).product()
    }

    /// Config `index`: its swept values and every explicit value (as
    /// [`crate::scenario::Scenario::config`] makes it: last axis fastest).
    pub fn config(&self, index: usize) -> (Vec<ParamValue>, ParamMap) {
        let mut rest = index;
        let mut swept = vec![ParamValue::Int(0); self.sweep.len()];
        for (i, (_, values)) in self.sweep.iter().enumerate().rev() {
            swept[i] = values[rest % values.len()].clone();
            rest /= values.len();
        }
        let mut values = self.params.clone();
        for ((path, _), v) in self.sweep.iter().zip(&swept) {
            values.set(path.clone(), v.clone());
        }
        (swept, values)
    }
}

/// A question's answer: every config's metrics and distributions, the
/// assumptions behind them, and how they were found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answer {
    /// `system.mechanic`.
    pub mechanic: String,
    /// What one trial is.
    pub summary: String,
    /// Every parameter with its value; swept ones say so.
    pub parameters: Vec<Parameter>,
    /// The swept keys, in sweep order.
    pub swept: Vec<String>,
    /// Monte Carlo seed (used where a config is simulated).
    pub seed: u64,
    /// One entry per config, in sweep order.
    pub configs: Vec<ConfigAnswer>,
}

/// One config's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConfigAnswer {
    /// Position in the sweep, from 0: a scenario's config number.
    pub index: usize,
    /// The swept values, in sweep order, as a scenario's tables print them.
    pub swept: Vec<String>,
    /// How the values were read, in words (a dice expression's parse).
    pub reading: Option<String>,
    /// Settings that are legal but almost surely not what was meant.
    pub warnings: Vec<Warning>,
    /// `exact` or `monte-carlo`: the method the numbers below come from.
    pub method: &'static str,
    /// Monte Carlo trials behind the numbers (0 when exact).
    pub trials: u64,
    /// Why there is no exact answer, when there is none.
    pub inexact: Option<String>,
    /// Headline metrics, then the complements derived from them.
    pub metrics: Vec<MetricAnswer>,
    /// Each outcome field's distribution.
    pub fields: Vec<FieldAnswer>,
}

/// One metric's value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricAnswer {
    pub name: String,
    pub doc: String,
    /// Whether it is a probability (printed as a percentage).
    pub probability: bool,
    pub value: f64,
    /// 95% interval (Monte Carlo only).
    pub interval: Option<(f64, f64)>,
    /// Standard error (Monte Carlo only).
    pub se: Option<f64>,
    /// For a complement (`p_fail`): the metric it is one minus.
    pub complement_of: Option<String>,
    /// With `check`: the Monte Carlo estimate beside the exact value.
    pub check: Option<CheckAnswer>,
}

/// A Monte Carlo estimate checked against the exact value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckAnswer {
    pub trials: u64,
    pub estimate: f64,
    pub interval: (f64, f64),
    pub z: f64,
}

/// One outcome field's distribution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldAnswer {
    pub name: String,
    pub doc: String,
    pub rows: Vec<Row>,
}

/// One value of a field: P(=), P(≥) and P(≤).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub value: i64,
    pub label: String,
    pub p: f64,
    pub p_at_least: f64,
    pub p_at_most: f64,
}

impl Answer {
    /// The only config's answer (a question with no sweep).
    pub fn single(&self) -> &ConfigAnswer {
        &self.configs[0]
    }
}

impl ConfigAnswer {
    /// The metric called `name`, complements included.
    pub fn metric(&self, name: &str) -> Option<&MetricAnswer> {
        self.metrics.iter().find(|m| m.name == name)
    }
}

/// Why a config has no exact answer, when the mechanic says nothing.
fn no_solver(m: &dyn Mechanic) -> String {
    if m.has_exact() {
        format!("{}'s exact solver does not cover these values", m.name())
    } else {
        format!("{} has no exact solver", m.name())
    }
}

/// Answer `q`. `before_simulating` hears, before Monte Carlo starts, how
/// many configs it will simulate and why the first had no exact answer
/// (so a caller can say so before a long wait); `progress` counts trials.
pub fn ask(
    q: &Question,
    progress: &dyn Progress,
    before_simulating: &mut dyn FnMut(usize, Option<&str>),
) -> Result<Answer, ParamError> {
    let n = q.config_count();
    let configs: Vec<(Vec<ParamValue>, ParamMap)> = (0..n).map(|i| q.config(i)).collect();
    let models: Vec<Box<dyn Model>> = configs
        .iter()
        .map(|(_, values)| q.mechanic.prepare(values))
        .collect::<Result<_, _>>()?;
    let solved: Vec<Result<Marginals, String>> = models
        .par_iter()
        .map(|m| {
            let r = m
                .solve()
                .map_err(|why| why.unwrap_or_else(|| no_solver(q.mechanic)));
            progress.solved(1);
            r
        })
        .collect();
    let wanted: Vec<usize> = (0..n).filter(|&i| q.check || solved[i].is_err()).collect();
    let mut tallies: Vec<Option<Tally>> = vec![None; n];
    if !wanted.is_empty() {
        let why = wanted.iter().find_map(|&i| solved[i].as_ref().err());
        before_simulating(wanted.len(), why.map(String::as_str));
        let plan = Plan {
            seed: q.seed,
            trials: q.trials,
            precision: None,
        };
        let to_simulate: Vec<(usize, &dyn Model)> =
            wanted.iter().map(|&i| (i, models[i].as_ref())).collect();
        for (&i, t) in wanted
            .iter()
            .zip(sim::simulate(&to_simulate, &plan, progress))
        {
            tallies[i] = Some(t);
        }
    }
    let answers = configs
        .into_iter()
        .zip(models.iter().zip(solved).zip(tallies))
        .enumerate()
        .map(|(i, ((swept, _), ((model, exact), tally)))| {
            config_answer(i, swept, model.as_ref(), exact, tally.as_ref())
        })
        .collect();
    Ok(Answer {
        mechanic: q.mechanic.name().to_string(),
        summary: q.mechanic.summary().to_string(),
        parameters: parameters(q),
        swept: q.sweep.iter().map(|(p, _)| p.clone()).collect(),
        seed: q.seed,
        configs: answers,
    })
}

fn config_answer(
    index: usize,
    swept: Vec<ParamValue>,
    model: &dyn Model,
    exact: Result<Marginals, String>,
    tally: Option<&Tally>,
) -> ConfigAnswer {
    let schema = model.schema();
    let (exact, inexact) = match exact {
        Ok(m) => (Some(m), None),
        Err(why) => (None, Some(why)),
    };
    let result = ConfigResult::new(index, swept.clone(), schema, exact.as_ref(), tally);
    // The exact run when there is one; the simulation checks it.
    let best = &result.runs[0];
    let checked = result.runs.get(1);
    let mut metrics: Vec<MetricAnswer> = schema
        .metrics
        .iter()
        .map(|spec| {
            let row = best.metric(&spec.name).expect("every metric is computed");
            MetricAnswer {
                name: spec.name.clone(),
                doc: spec.doc.to_string(),
                probability: spec.kind.is_probability(),
                value: row.value,
                interval: row.interval,
                se: row.se,
                complement_of: None,
                check: checked.and_then(|run| {
                    let est = run.metric(&spec.name)?;
                    let z = result
                        .agreement
                        .iter()
                        .find(|a| a.metric == spec.name)
                        .map(|a| a.z)?;
                    Some(CheckAnswer {
                        trials: run.trials,
                        estimate: est.value,
                        interval: est.interval?,
                        z,
                    })
                }),
            }
        })
        .collect();
    for c in schema.complements() {
        let doc = format!("1 − {}: the chance it does not happen.", c.of);
        let row = best
            .metric(&c.name)
            .expect("complements derive from metrics");
        let check = metrics
            .iter()
            .find(|m| m.name == c.of)
            .and_then(|m| m.check.clone())
            .map(|k| CheckAnswer {
                estimate: 1.0 - k.estimate,
                interval: (1.0 - k.interval.1, 1.0 - k.interval.0),
                z: -k.z,
                ..k
            });
        metrics.push(MetricAnswer {
            name: c.name,
            doc,
            probability: true,
            value: row.value,
            interval: row.interval,
            se: row.se,
            complement_of: Some(c.of),
            check,
        });
    }
    ConfigAnswer {
        index,
        swept: swept.iter().map(|v| v.to_string()).collect(),
        reading: model.reading(),
        warnings: model.warnings(),
        method: best.method.as_str(),
        trials: best.trials,
        inexact,
        metrics,
        fields: fields(schema, best),
    }
}

fn fields(schema: &Schema, run: &Run) -> Vec<FieldAnswer> {
    schema
        .fields
        .iter()
        .map(|spec| {
            let probs: Vec<(i64, f64)> = run
                .dist
                .iter()
                .filter(|d| d.field == spec.name)
                .map(|d| (d.value, d.probability))
                .collect();
            // Sums from each end, so a tail of 1e-20 is not lost next to 1.
            let mut at_least: Vec<f64> = probs
                .iter()
                .rev()
                .scan(0.0, |s, p| {
                    *s += p.1;
                    Some(*s)
                })
                .collect();
            at_least.reverse();
            let mut below = 0.0;
            let rows = probs
                .iter()
                .zip(at_least)
                .map(|(&(value, p), ge)| {
                    below += p;
                    Row {
                        value,
                        label: spec.label(value),
                        p,
                        p_at_least: ge.min(1.0),
                        p_at_most: below.min(1.0),
                    }
                })
                .collect();
            FieldAnswer {
                name: spec.name.clone(),
                doc: spec.doc.to_string(),
                rows,
            }
        })
        .collect()
}
