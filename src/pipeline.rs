//! One trip through: scenario → configs → exact solver and/or Monte Carlo
//! → a table of results. Knows nothing of files or the command line.

use std::time::Instant;

use crate::dist::Marginals;
use crate::report::{Agreement, ConfigResult, FieldRow, Method, MetricRow, Results, Run};
use crate::scenario::{Config, DEFAULT_SEED, DEFAULT_TRIALS, Scenario};
use crate::sim::{self, Plan, Precision, Progress, Tally};
use crate::stats;
use crate::systems::{Model, Schema};

/// Which method answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Exact where the mechanic has a solver, Monte Carlo elsewhere.
    Auto,
    /// Exact only; an error where no solver exists.
    Exact,
    /// Monte Carlo only.
    #[serde(rename = "mc")]
    MonteCarlo,
    /// Both, with an agreement check.
    Both,
}

/// How to run a scenario; `None` falls back to the scenario, then the
/// defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunOptions {
    pub mode: Mode,
    pub trials: Option<u64>,
    pub seed: Option<u64>,
    /// Target half-width of the headline metric's 95% interval.
    pub precision: Option<f64>,
    /// Cap on trials per config in precision mode.
    pub max_trials: u64,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            mode: Mode::Auto,
            trials: None,
            seed: None,
            precision: None,
            max_trials: 100_000_000,
        }
    }
}

/// A run that cannot go ahead.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(
        "{mechanic} has no exact solver for config {config}{point}; use --mode auto or --mode mc"
    )]
    NoExact {
        mechanic: String,
        config: usize,
        point: String,
    },
}

/// |z| above this fails the agreement check of `--mode both`.
pub const AGREEMENT_Z: f64 = 5.0;

/// Run `scenario` as `opts` says.
pub fn run(
    scenario: &Scenario,
    opts: &RunOptions,
    progress: &dyn Progress,
) -> Result<Results, RunError> {
    let models = scenario
        .models()
        .expect("scenario models were checked at load");
    let seed = opts.seed.or(scenario.seed).unwrap_or(DEFAULT_SEED);
    let trials = opts.trials.or(scenario.trials).unwrap_or(DEFAULT_TRIALS);

    let started = Instant::now();
    let mut exact: Vec<Option<Marginals>> = Vec::with_capacity(models.len());
    if opts.mode != Mode::MonteCarlo {
        for (config, model) in &models {
            let solved = model.exact();
            if solved.is_none() && matches!(opts.mode, Mode::Exact | Mode::Both) {
                return Err(RunError::NoExact {
                    mechanic: scenario.mechanic.name().into(),
                    config: config.index,
                    point: describe(scenario, &config.swept),
                });
            }
            exact.push(solved);
        }
    } else {
        exact.resize(models.len(), None);
    }
    let exact_seconds = started.elapsed().as_secs_f64();

    // Monte Carlo for every config (mc, both) or only those without a
    // solver (auto).
    let started = Instant::now();
    let wanted: Vec<usize> = (0..models.len())
        .filter(|&i| match opts.mode {
            Mode::Exact => false,
            Mode::Auto => exact[i].is_none(),
            Mode::MonteCarlo | Mode::Both => true,
        })
        .collect();
    // Configs keep their scenario index as their seed coordinate, so a
    // config's numbers do not depend on which others run beside it.
    let to_simulate: Vec<(usize, &dyn Model)> =
        wanted.iter().map(|&i| (i, models[i].1.as_ref())).collect();
    let plan = Plan {
        seed,
        trials,
        precision: opts.precision.map(|half_width| Precision {
            half_width,
            max_trials: opts.max_trials,
        }),
    };
    let mut tallies: Vec<Option<Tally>> = vec![None; models.len()];
    for (i, tally) in wanted
        .iter()
        .zip(sim::simulate(&to_simulate, &plan, progress))
    {
        tallies[*i] = Some(tally);
    }
    let mc_seconds = started.elapsed().as_secs_f64();

    let mut configs: Vec<ConfigResult> = models
        .iter()
        .zip(exact)
        .zip(tallies)
        .map(|(((config, model), exact), tally)| {
            config_result(config, model.schema(), exact.as_ref(), tally.as_ref())
        })
        .collect();
    let schemas: Vec<&Schema> = models.iter().map(|(_, m)| m.schema()).collect();
    crate::report::complete_support(&mut configs, &schemas);

    Ok(Results {
        name: scenario.name.clone(),
        description: scenario.description.clone(),
        mechanic: scenario.mechanic.name().to_string(),
        swept: scenario
            .swept_paths()
            .into_iter()
            .map(String::from)
            .collect(),
        seed,
        trials,
        mode: opts.mode,
        precision: opts.precision,
        configs,
        exact_seconds,
        mc_seconds,
    })
}

/// `a = 1, b = full` for messages.
pub fn describe(scenario: &Scenario, swept: &[crate::systems::ParamValue]) -> String {
    let parts: Vec<String> = scenario
        .sweep
        .iter()
        .zip(swept)
        .map(|(a, v)| format!("{} = {v}", a.path))
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// Everything known about one config: the exact and/or Monte Carlo runs,
/// and their agreement when both exist.
pub(crate) fn config_result(
    config: &Config,
    schema: &Schema,
    exact: Option<&Marginals>,
    tally: Option<&Tally>,
) -> ConfigResult {
    let mut runs = Vec::new();
    if let Some(m) = exact {
        runs.push(exact_run(schema, m));
    }
    if let Some(t) = tally {
        runs.push(mc_run(schema, t));
    }
    let agreement = match (exact, tally) {
        (Some(m), Some(t)) => agree(schema, m, t),
        _ => Vec::new(),
    };
    ConfigResult {
        index: config.index,
        swept: config.swept.clone(),
        runs,
        agreement,
    }
}

fn exact_run(schema: &Schema, m: &Marginals) -> Run {
    let metrics = schema
        .metrics
        .iter()
        .map(|spec| {
            let v = stats::exact_value(spec, m);
            MetricRow {
                name: spec.name.clone(),
                value: v.value,
                interval: None,
                se: None,
            }
        })
        .collect();
    let mut dist = Vec::new();
    for (f, spec) in schema.fields.iter().enumerate() {
        for (&value, &p) in m.field(f) {
            dist.push(FieldRow {
                field: spec.name.clone(),
                value,
                label: spec.label(value),
                probability: p,
                count: None,
                interval: None,
            });
        }
    }
    Run {
        method: Method::Exact,
        trials: 0,
        metrics,
        dist,
    }
}

fn mc_run(schema: &Schema, t: &Tally) -> Run {
    let metrics = schema
        .metrics
        .iter()
        .map(|spec| {
            let e = stats::estimate(spec, t);
            MetricRow {
                name: spec.name.clone(),
                value: e.value,
                interval: Some((e.lo, e.hi)),
                se: Some(e.se),
            }
        })
        .collect();
    let n = t.trials();
    let mut dist = Vec::new();
    for (f, spec) in schema.fields.iter().enumerate() {
        for (value, count) in t.field(f).iter() {
            dist.push(FieldRow {
                field: spec.name.clone(),
                value,
                label: spec.label(value),
                probability: count as f64 / n as f64,
                count: Some(count),
                interval: Some(stats::wilson(count, n)),
            });
        }
    }
    Run {
        method: Method::MonteCarlo,
        trials: n,
        metrics,
        dist,
    }
}

fn agree(schema: &Schema, m: &Marginals, t: &Tally) -> Vec<Agreement> {
    schema
        .metrics
        .iter()
        .map(|spec| {
            let exact = stats::exact_value(spec, m);
            let est = stats::estimate(spec, t);
            Agreement {
                metric: spec.name.clone(),
                exact: exact.value,
                estimate: est.value,
                se: exact.sd / (est.trials as f64).sqrt(),
                z: stats::z_score(&exact, &est),
            }
        })
        .collect()
}
