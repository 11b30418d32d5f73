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

use serde::Serialize;

use crate::model::{
    Marginals, Mechanic, Model, ParamError, ParamMap, ParamValue, Schema, Tally, Warning,
};
use crate::results::{ConfigResult, Mode, Run};
use crate::run::{self, Answered, Methods, Piece, RunError, Sink, Source};
use crate::sim::{Plan, Progress};

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
    /// How it is answered, in `run --mode`'s words: `Auto` solves where a
    /// solver covers the values and simulates elsewhere; `Exact` only
    /// solves ([`AskError::NoExact`] where no solver covers a config);
    /// `MonteCarlo` only simulates; `Both` also simulates what it solves
    /// and sets the estimate beside the exact value (where no solver
    /// covers a config, it is simulated, as in `Auto`).
    pub mode: Mode,
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
    /// Whether the values are ordered (an integer field), so that P(≥)
    /// and P(≤) mean something; a category's or a yes/no's rows carry
    /// them too, but they are not shown.
    pub ordered: bool,
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

/// Why a question has no answer.
#[derive(Debug, thiserror::Error)]
pub enum AskError {
    /// A value was refused: the key and what is allowed.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// `progress` said stop before every config was answered.
    #[error("interrupted")]
    Interrupted,
    /// Mode exact, and no solver covers config `config`.
    #[error(
        "mode exact: no exact answer{point}: {why}; ask with mode auto (exact where it can, else Monte Carlo) or mc"
    )]
    NoExact {
        config: usize,
        /// ` for config 3 (a = 1)` in a sweep, else nothing.
        point: String,
        why: String,
    },
}

impl From<RunError> for AskError {
    fn from(e: RunError) -> AskError {
        match e {
            RunError::Param(e) => AskError::Param(e),
            // Mode exact is checked by the sink, which knows why.
            RunError::Interrupted | RunError::NoExact { .. } => AskError::Interrupted,
        }
    }
}

impl Source for Question {
    fn mechanic(&self) -> &'static dyn Mechanic {
        self.mechanic
    }

    /// Build config `index`, which [`ask`] checked before the run.
    fn prepare(&self, index: usize) -> Result<(Vec<ParamValue>, Box<dyn Model>), ParamError> {
        let (swept, values) = self.config(index);
        Ok((swept, self.mechanic.prepare(&values)?))
    }

    fn describe(&self, _: &[ParamValue]) -> String {
        String::new()
    }
}

/// `odds`' sink: each config's answer, in a designer's terms.
struct Answers<'a> {
    mechanic: &'static dyn Mechanic,
    /// Each config's warnings, from its check.
    warnings: Vec<Vec<Warning>>,
    configs: Vec<ConfigAnswer>,
    before_simulating: &'a mut dyn FnMut(usize, Option<&str>),
    /// Mode exact: a config with no exact answer is an error; mode mc: no
    /// config is solved.
    mode: Mode,
    /// The swept keys, for [`AskError::NoExact`].
    swept: Vec<String>,
}

impl Sink for Answers<'_> {
    type Error = AskError;

    fn simulating(&mut self, configs: usize, unsolved: Option<Option<&str>>) {
        let why = unsolved.map(|why| why.map_or_else(|| no_solver(self.mechanic), String::from));
        (self.before_simulating)(configs, why.as_deref());
    }

    fn answer(&mut self, a: Answered<'_>) -> Result<(), AskError> {
        let exact = a.exact.map_err(|why| match (why, self.mode) {
            (Some(why), _) => why,
            (None, Mode::MonteCarlo) => "mode mc: Monte Carlo only".to_string(),
            (None, _) => no_solver(self.mechanic),
        });
        if self.mode == Mode::Exact
            && let Err(why) = &exact
        {
            let point = if self.swept.is_empty() {
                String::new()
            } else {
                let values: Vec<String> = self
                    .swept
                    .iter()
                    .zip(&a.swept)
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect();
                format!(" for config {} ({})", a.piece.config, values.join(", "))
            };
            return Err(AskError::NoExact {
                config: a.piece.config,
                point,
                why: why.clone(),
            });
        }
        self.configs.push(config_answer(
            a.piece.config,
            a.swept,
            a.model,
            std::mem::take(&mut self.warnings[a.piece.config]),
            exact,
            a.tally.as_ref(),
        ));
        Ok(())
    }
}

/// Answer `q` through the run driver: every config solved where a solver
/// exists, and simulated where none does (or, with `check`, everywhere).
/// `before_simulating` hears, before Monte Carlo starts, how many configs
/// it will simulate and why the first had no exact answer (so a caller can
/// say so before a long wait); `progress` counts trials and may stop the
/// work ([`AskError::Interrupted`]).
pub fn ask(
    q: &Question,
    progress: &dyn Progress,
    before_simulating: &mut dyn FnMut(usize, Option<&str>),
) -> Result<Answer, AskError> {
    // As `run`'s modes, but a config no solver covers is simulated in
    // mode both too, and mode exact's refusal says why (the sink's).
    let methods = Methods {
        solve: q.mode != Mode::MonteCarlo,
        solve_every_piece: true,
        simulate_always: matches!(q.mode, Mode::MonteCarlo | Mode::Both),
        simulate_unsolved: q.mode != Mode::Exact,
        require_exact: false,
    };
    let plan = Plan {
        seed: q.seed,
        trials: q.trials,
        precision: None,
    };
    // Every config checked once, before any is built: a refused value is
    // said before anything runs, and the warnings go with each answer.
    let warnings = (0..q.config_count())
        .map(|i| q.mechanic.check(&q.config(i).1))
        .collect::<Result<Vec<_>, _>>()?;
    let mut sink = Answers {
        mechanic: q.mechanic,
        warnings,
        configs: Vec::with_capacity(q.config_count()),
        before_simulating,
        mode: q.mode,
        swept: q.sweep.iter().map(|(k, _)| k.clone()).collect(),
    };
    run::execute(
        q,
        methods,
        &plan,
        (0..q.config_count()).map(Piece::whole),
        progress,
        &mut sink,
    )?;
    Ok(Answer {
        mechanic: q.mechanic.name().to_string(),
        summary: q.mechanic.summary().to_string(),
        parameters: parameters(q),
        swept: q.sweep.iter().map(|(p, _)| p.clone()).collect(),
        seed: q.seed,
        configs: sink.configs,
    })
}

fn config_answer(
    index: usize,
    swept: Vec<ParamValue>,
    model: &dyn Model,
    warnings: Vec<Warning>,
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
        warnings,
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
                ordered: spec.kind.is_ordered(),
                rows,
            }
        })
        .collect()
}
