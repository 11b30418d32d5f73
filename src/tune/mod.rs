//! Tune: the inverse question. Given a scenario with `[tune]`, find for
//! each combination of its sweep the knob value whose metric best meets
//! the target ("which challenge gives a trait-3 character even odds?").
//!
//! A tune is a search over the answers `run` gives: every number it reads
//! comes from [`run::stream_some`] on the scenario's tune grid (the
//! sweep with the knob as its last axis, see
//! [`Scenario::tune_grid`]), so a knob value's numbers are exactly those
//! `oddsmith run` writes for the same config and seed. [`search`] decides
//! which knob values to ask for. This module knows nothing of files.

pub mod gate;
pub mod load;
pub mod question;
pub mod report;
pub mod search;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::time::Instant;

pub use gate::{GateVerdict, gates};
pub use search::{Estimate, Found, Goal, Method, Pass, Point, SearchOptions, search};

use crate::results::{ConfigResult, Method as RunMethod};
use crate::run::{self, Mode, RunError, RunOptions};
use crate::scenario::{Knob, Scenario, Target};
use crate::sim::Progress;
use crate::systems::ParamValue;

/// Half-width that Monte Carlo candidates are refined to when neither the
/// scenario nor the command line says.
pub const DEFAULT_PRECISION: f64 = 0.002;

/// How to tune.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TuneOptions {
    /// How each config is run (mode, trials, seed; `precision` is the
    /// half-width candidates are refined to, else the scenario's, else
    /// [`DEFAULT_PRECISION`]).
    pub run: RunOptions,
    /// Scan every knob value even where bisection would do.
    pub scan: bool,
}

/// A tune that cannot go ahead.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("{0}: the scenario has no [tune] table; `oddsmith run` answers it")]
    NotATune(String),
}

/// One row of the answer: a combination of the sweep, and the knob value
/// found for it.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneRow {
    /// Position in the sweep.
    pub row: usize,
    /// Swept values, in axis order.
    pub swept: Vec<ParamValue>,
    /// Position of the knob value found (in [`Knob::values`]); `None`
    /// when no value meets the target and the `[[tune.also]]` bounds.
    pub knob: Option<usize>,
    /// The metric there.
    pub value: Option<Estimate>,
    /// The knob's neighbours and their metric values: the step size.
    pub below: Option<(usize, Estimate)>,
    pub above: Option<(usize, Estimate)>,
    /// Whether the answer is within `within` of the target (always, when
    /// `within` is not given and a value was found).
    pub reachable: bool,
    pub method: Method,
    /// Whether this knob value and another cannot be told apart (each
    /// such value gets its own row).
    pub ambiguous: bool,
    /// Whether the metric never reversed along the knob values evaluated.
    pub monotone: bool,
}

/// A whole tune.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    pub name: String,
    pub mechanic: String,
    pub swept: Vec<String>,
    pub knob: Knob,
    pub metric: String,
    pub target: Target,
    pub within: Option<f64>,
    pub rows: Vec<TuneRow>,
    /// Configs evaluated (a config refined in precision mode counts twice).
    pub evaluations: usize,
    pub seed: u64,
    pub trials: u64,
    /// Half-width Monte Carlo candidates were refined to.
    pub precision: f64,
    pub seconds: f64,
}

impl Tuned {
    /// The label of knob position `k` (`5M`, `hard`, `7`).
    pub fn label(&self, k: usize) -> String {
        self.knob.values[k].to_string()
    }
}

/// Tune `scenario` (which must have `[tune]`).
pub fn tune(
    scenario: &Scenario,
    opts: &TuneOptions,
    progress: &dyn Progress,
) -> Result<Tuned, TuneError> {
    let started = Instant::now();
    let (Some(spec), Some(grid)) = (scenario.tune.as_ref(), scenario.tune_grid()) else {
        return Err(TuneError::NotATune(scenario.path.display().to_string()));
    };
    let n = spec.knob.values.len();
    let rows = scenario.config_count();
    let precision = opts
        .run
        .precision
        .or(spec.precision)
        .unwrap_or(DEFAULT_PRECISION);
    let plain = RunOptions {
        precision: None,
        ..opts.run
    };
    let precise = RunOptions {
        precision: Some(precision),
        ..opts.run
    };
    let mut evaluations = 0;
    let also: Vec<&str> = spec.also.iter().map(|a| a.metric.as_str()).collect();
    let point = |c: &ConfigResult| point_of(c, &spec.metric, &also);

    // Where exact answers exist, the whole grid is one parallel pass.
    let mut known: Vec<BTreeMap<usize, Point>> = vec![BTreeMap::new(); rows];
    if scenario.mechanic.has_exact() && opts.run.mode != Mode::MonteCarlo {
        let all: Vec<usize> = (0..rows * n).collect();
        run::stream_some(&grid, &plain, &all, progress, |c, _| {
            known[c.index / n].insert(c.index % n, point(&c));
            Ok::<(), RunError>(())
        })?;
        evaluations += rows * n;
    }

    let goal = Goal {
        target: spec.target,
        also: spec.also.clone(),
    };
    let mut out = Vec::with_capacity(rows);
    for (row, known) in known.into_iter().enumerate() {
        let mut eval = |ks: &[usize], pass: Pass| -> Result<Vec<Point>, RunError> {
            let indices: Vec<usize> = ks.iter().map(|k| row * n + k).collect();
            let opts = match pass {
                Pass::Plain => &plain,
                Pass::Precise => &precise,
            };
            let mut got = Vec::with_capacity(ks.len());
            run::stream_some(&grid, opts, &indices, progress, |c, _| {
                got.push(point(&c));
                Ok::<(), RunError>(())
            })?;
            evaluations += ks.len();
            Ok(got)
        };
        let options = SearchOptions {
            scan: opts.scan,
            refine: true,
        };
        let found = search(n, &goal, options, known, &mut eval)?;
        let swept = scenario.config(row).swept;
        out.extend(rows_of(row, swept, &found, spec.within, spec.target));
    }
    Ok(Tuned {
        name: scenario.name.clone(),
        mechanic: scenario.mechanic.name().to_string(),
        swept: scenario.swept_names(),
        knob: spec.knob.clone(),
        metric: spec.metric.clone(),
        target: spec.target,
        within: spec.within,
        rows: out,
        evaluations,
        seed: run::seed(scenario, &plain),
        trials: run::trials(scenario, &plain),
        precision,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The tuned metric and the `also` metrics of one config, from its exact
/// run where it has one.
fn point_of(c: &ConfigResult, metric: &str, also: &[&str]) -> Point {
    let run = c
        .runs
        .iter()
        .find(|r| r.method == RunMethod::Exact)
        .or_else(|| c.runs.first())
        .expect("every config has a run");
    // `Run::metric` derives a complement (`p_fail`) as the scenario
    // parser allows it.
    let estimate = |name: &str| {
        run.metric(name)
            .map(|m| Estimate {
                value: m.value,
                se: m.se,
                interval: m.interval,
            })
            .expect("the scenario parser checked the metric names")
    };
    Point {
        metric: estimate(metric),
        also: also.iter().map(|m| estimate(m)).collect(),
    }
}

/// The row (or rows, when candidates cannot be told apart) of one
/// combination.
fn rows_of(
    row: usize,
    swept: Vec<ParamValue>,
    found: &Found,
    within: Option<f64>,
    target: Target,
) -> Vec<TuneRow> {
    let at = |k: usize| found.points.get(&k).map(|p| (k, p.metric));
    let Some(knob) = found.knob else {
        return vec![TuneRow {
            row,
            swept,
            knob: None,
            value: None,
            below: None,
            above: None,
            reachable: false,
            method: found.method,
            ambiguous: false,
            monotone: found.monotone,
        }];
    };
    let ambiguous = !found.ambiguous_with.is_empty();
    std::iter::once(knob)
        .chain(found.ambiguous_with.iter().copied())
        .map(|k| {
            let value = found.points[&k].metric;
            TuneRow {
                row,
                swept: swept.clone(),
                knob: Some(k),
                value: Some(value),
                below: k.checked_sub(1).and_then(at),
                above: at(k + 1),
                reachable: within.is_none_or(|w| (value.value - target.value()).abs() <= w),
                method: found.method,
                ambiguous,
                monotone: found.monotone,
            }
        })
        .collect()
}
