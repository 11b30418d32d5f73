//! One trip through: scenario → configs → exact solver and/or Monte Carlo
//! → a table of results. Knows nothing of files or the command line.

use std::time::Instant;

use crate::dist::Marginals;
pub use crate::results::Mode;
use crate::results::{ConfigResult, Results};
use crate::scenario::{Config, DEFAULT_PRECISION_TRIALS, DEFAULT_SEED, DEFAULT_TRIALS, Scenario};
use crate::sim::{self, Plan, Precision, Progress, Tally};
use crate::systems::{Model, Schema};

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
    /// Stopped by [`Progress::stopped`] (Ctrl-C); nothing is complete.
    #[error("interrupted; nothing was written")]
    Interrupted,
}

/// |z| above this fails the agreement check of `--mode both`.
pub const AGREEMENT_Z: f64 = 5.0;

/// Configs prepared, solved and simulated at a time: enough to keep every
/// core busy, few enough that one batch's models and results stay small
/// whatever the size of the sweep.
pub const BATCH: usize = 1024;

/// Wall-clock seconds spent by each method.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings {
    pub exact_seconds: f64,
    pub mc_seconds: f64,
}

/// Run `scenario` as `opts` says and collect every config's result.
pub fn run(
    scenario: &Scenario,
    opts: &RunOptions,
    progress: &dyn Progress,
) -> Result<Results, RunError> {
    let mut configs = Vec::with_capacity(scenario.config_count());
    let timings = stream(scenario, opts, progress, |mut c, schema| {
        crate::report::complete_support_of(&mut c, schema);
        configs.push(c);
        Ok::<(), RunError>(())
    })?;
    Ok(results_of(scenario, opts, configs, timings))
}

/// The [`Results`] of `configs`, run under `opts`.
pub fn results_of(
    scenario: &Scenario,
    opts: &RunOptions,
    configs: Vec<ConfigResult>,
    timings: Timings,
) -> Results {
    Results {
        name: scenario.name.clone(),
        description: scenario.description.clone(),
        mechanic: scenario.mechanic.name().to_string(),
        swept: scenario
            .swept_paths()
            .into_iter()
            .map(String::from)
            .collect(),
        seed: seed(scenario, opts),
        trials: trials(scenario, opts),
        mode: opts.mode,
        precision: opts.precision,
        configs,
        exact_seconds: timings.exact_seconds,
        mc_seconds: timings.mc_seconds,
    }
}

/// The seed a run uses: the flag, else the scenario's, else the default.
pub fn seed(scenario: &Scenario, opts: &RunOptions) -> u64 {
    opts.seed.or(scenario.seed).unwrap_or(DEFAULT_SEED)
}

/// Trials per config: the flag, else the scenario's, else the default. In
/// precision mode, the first round's: it starts small and doubles, so its
/// default is one chunk rather than a fixed run's million.
pub fn trials(scenario: &Scenario, opts: &RunOptions) -> u64 {
    opts.trials
        .or(scenario.trials)
        .unwrap_or(match opts.precision {
            Some(_) => DEFAULT_PRECISION_TRIALS,
            None => DEFAULT_TRIALS,
        })
}

/// Run `scenario` batch by batch, handing each config's result (and its
/// schema) to `sink` in config order. Models are built lazily and dropped with their batch,
/// so memory does not grow with the sweep beyond what `sink` keeps. Exact
/// solving runs configs in parallel on the current rayon pool; results do
/// not depend on the thread count.
pub fn stream<E: From<RunError>>(
    scenario: &Scenario,
    opts: &RunOptions,
    progress: &dyn Progress,
    sink: impl FnMut(ConfigResult, &Schema) -> Result<(), E>,
) -> Result<Timings, E> {
    let n = scenario.config_count();
    let batches = (0..n)
        .step_by(BATCH)
        .map(move |from| (from..n.min(from + BATCH)).collect());
    stream_batches(scenario, opts, progress, batches, sink)
}

/// Run only the configs `indices` of `scenario` (each keeps its scenario
/// index, so its seed coordinate and its numbers are those a whole run
/// gives it), handing their results to `sink` in the order given. A
/// search that needs a few points of a sweep (`tune`) asks here, so its
/// numbers come from the one path `run` takes.
pub fn stream_some<E: From<RunError>>(
    scenario: &Scenario,
    opts: &RunOptions,
    indices: &[usize],
    progress: &dyn Progress,
    sink: impl FnMut(ConfigResult, &Schema) -> Result<(), E>,
) -> Result<Timings, E> {
    let batches = indices.chunks(BATCH).map(<[usize]>::to_vec);
    stream_batches(scenario, opts, progress, batches, sink)
}

/// [`stream`] over the given batches of config indices.
fn stream_batches<E: From<RunError>>(
    scenario: &Scenario,
    opts: &RunOptions,
    progress: &dyn Progress,
    batches: impl Iterator<Item = Vec<usize>>,
    mut sink: impl FnMut(ConfigResult, &Schema) -> Result<(), E>,
) -> Result<Timings, E> {
    use rayon::prelude::*;

    let plan = Plan {
        seed: seed(scenario, opts),
        trials: trials(scenario, opts),
        precision: opts.precision.map(|half_width| Precision {
            half_width,
            max_trials: opts.max_trials,
        }),
    };
    let mut timings = Timings::default();
    for indices in batches {
        let batch: Vec<(Config, Box<dyn Model>)> = indices
            .into_par_iter()
            .map(|i| {
                let config = scenario.config(i);
                let model = scenario
                    .prepare(&config)
                    .expect("scenario models were checked at load");
                (config, model)
            })
            .collect();

        let started = Instant::now();
        let exact: Vec<Option<Marginals>> = if opts.mode == Mode::MonteCarlo {
            vec![None; batch.len()]
        } else {
            batch
                .par_iter()
                .map(|(_, model)| {
                    if progress.stopped() {
                        return None;
                    }
                    let solved = model.exact();
                    progress.solved(1);
                    solved
                })
                .collect()
        };
        if progress.stopped() {
            return Err(RunError::Interrupted.into());
        }
        if matches!(opts.mode, Mode::Exact | Mode::Both)
            && let Some(i) = exact.iter().position(Option::is_none)
        {
            let config = &batch[i].0;
            return Err(RunError::NoExact {
                mechanic: scenario.mechanic.name().into(),
                config: config.index,
                point: describe(scenario, &config.swept),
            }
            .into());
        }
        timings.exact_seconds += started.elapsed().as_secs_f64();

        // Monte Carlo for every config (mc, both) or only those without a
        // solver (auto). Configs keep their scenario index as their seed
        // coordinate, so a config's numbers do not depend on which others
        // run beside it.
        let started = Instant::now();
        let wanted: Vec<usize> = (0..batch.len())
            .filter(|&i| opts.mode.simulates(exact[i].is_some()))
            .collect();
        let to_simulate: Vec<(usize, &dyn Model)> = wanted
            .iter()
            .map(|&i| (batch[i].0.index, batch[i].1.as_ref()))
            .collect();
        let mut tallies: Vec<Option<Tally>> = vec![None; batch.len()];
        for (i, tally) in wanted
            .iter()
            .zip(sim::simulate(&to_simulate, &plan, progress))
        {
            tallies[*i] = Some(tally);
        }
        if progress.stopped() {
            return Err(RunError::Interrupted.into());
        }
        timings.mc_seconds += started.elapsed().as_secs_f64();

        for (((config, model), exact), tally) in batch.into_iter().zip(exact).zip(tallies) {
            let result = ConfigResult::new(
                config.index,
                config.swept,
                model.schema(),
                exact.as_ref(),
                tally.as_ref(),
            );
            // Every test run checks the ranges the mechanics declare,
            // which merges hold shards to.
            debug_assert_eq!(
                result.outside_bounds(model.schema()),
                None,
                "config {}: a value outside its field's declared bounds",
                config.index
            );
            sink(result, model.schema())?;
        }
    }
    Ok(timings)
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
