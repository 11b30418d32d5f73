//! Running: configs → exact solver and/or Monte Carlo → answers, through
//! one driver ([`execute`]) into a [`Sink`]. A whole run, a shard, a
//! `tune` search and an `odds` question are each a list of [`Piece`]s and
//! a sink; this module knows nothing of files or the command line (the
//! sinks that write files live with their formats, in `report` and
//! `shard`).

mod driver;

pub use driver::{Answered, Each, Methods, Piece, Sink, Source, execute};

use crate::model::{Mechanic, Model, ParamError, ParamValue, Schema};
pub use crate::results::Mode;
use crate::results::{ConfigResult, Results};
use crate::scenario::{DEFAULT_PRECISION_TRIALS, DEFAULT_SEED, DEFAULT_TRIALS, Scenario};
use crate::sim::{Plan, Precision, Progress};

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
    /// A config's values were refused (a scenario's are checked at load,
    /// so only a question's can be).
    #[error(transparent)]
    Param(#[from] ParamError),
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
    let timings = stream(scenario, opts, progress, |c, _| {
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
        swept: scenario.swept_names(),
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

/// Run every config of `scenario` batch by batch, handing each config's
/// result (its support completed) and its schema to `sink` in config
/// order: a whole run is one [`Piece`] per config through [`execute`].
pub fn stream<E: From<RunError>>(
    scenario: &Scenario,
    opts: &RunOptions,
    progress: &dyn Progress,
    sink: impl FnMut(ConfigResult, &Schema) -> Result<(), E>,
) -> Result<Timings, E> {
    execute_scenario(
        scenario,
        opts,
        (0..scenario.config_count()).map(Piece::whole),
        progress,
        &mut Each(sink),
    )
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
    execute_scenario(
        scenario,
        opts,
        indices.iter().map(|&i| Piece::whole(i)),
        progress,
        &mut Each(sink),
    )
}

/// Run `pieces` of `scenario` as `opts` says, into `sink`: the driver
/// every scenario run takes, whole or sharded.
pub fn execute_scenario<S: Sink>(
    scenario: &Scenario,
    opts: &RunOptions,
    pieces: impl IntoIterator<Item = Piece>,
    progress: &dyn Progress,
    sink: &mut S,
) -> Result<Timings, S::Error> {
    execute(
        scenario,
        Methods::from(opts.mode),
        &plan(scenario, opts),
        pieces,
        progress,
        sink,
    )
}

/// The Monte Carlo plan of `scenario` under `opts`.
pub fn plan(scenario: &Scenario, opts: &RunOptions) -> Plan {
    Plan {
        seed: seed(scenario, opts),
        trials: trials(scenario, opts),
        precision: opts.precision.map(|half_width| Precision {
            half_width,
            max_trials: opts.max_trials,
        }),
    }
}

impl Source for Scenario {
    fn mechanic(&self) -> &'static dyn Mechanic {
        self.mechanic
    }

    fn prepare(&self, index: usize) -> Result<(Vec<ParamValue>, Box<dyn Model>), ParamError> {
        let config = self.config(index);
        let model = self.mechanic.prepare(&config.values)?;
        Ok((config.swept, model))
    }

    fn describe(&self, swept: &[ParamValue]) -> String {
        describe(self, swept)
    }
}

/// `a = 1, b = full` for messages.
pub fn describe(scenario: &Scenario, swept: &[ParamValue]) -> String {
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

#[cfg(test)]
mod tests;
