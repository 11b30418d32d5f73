//! Scenario files: the TOML schema, its validation, and sweep expansion.
//!
//! A scenario names a mechanic, fixes some parameters in `[params]` and
//! sweeps others in `[sweep]`; the sweep is the cartesian product of its
//! axes in file order (the last axis varies fastest). Every problem is
//! reported with the file, line and key, and what would have been allowed,
//! before anything runs or is written.

mod checks;
mod ctx;
mod error;
mod parse;

pub use checks::{
    Also, BestGate, BestOf, BestSpec, ChartKind, ChartSpec, Expectation, Knob, KnobGate, KnobKind,
    Labels, MAX_KNOB_VALUES, Rule, Target, Tune, where_clause,
};
pub use error::ScenarioError;

use std::path::{Path, PathBuf};

use crate::systems::{Mechanic, Model, ParamMap, ParamValue};

/// Trials per config when neither the scenario nor the command line says.
pub const DEFAULT_TRIALS: u64 = 1_000_000;
/// Trials of precision mode's first round when neither the scenario nor
/// the command line says (one chunk); later rounds double it.
pub const DEFAULT_PRECISION_TRIALS: u64 = 65_536;
/// Seed when neither the scenario nor the command line says.
pub const DEFAULT_SEED: u64 = 1;
/// The most configs one scenario's sweep may expand to: a run's memory
/// does not grow with its configs (about 150 bytes of scratch disk each).
pub const MAX_CONFIGS: usize = 10_000_000;
/// The most configs a `[tune]` may evaluate (its sweep times its knob's
/// values): a tune keeps what it evaluates in memory.
pub const MAX_TUNE_CONFIGS: usize = 1_000_000;

/// One swept parameter and its values, in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// Dotted path as written in `[sweep]`.
    pub path: String,
    pub values: Vec<ParamValue>,
    line: usize,
}

/// A parsed, checked scenario.
pub struct Scenario {
    pub path: PathBuf,
    pub name: String,
    pub description: Option<String>,
    pub mechanic: &'static dyn Mechanic,
    pub seed: Option<u64>,
    pub trials: Option<u64>,
    /// Fixed values from `[params]`.
    pub params: ParamMap,
    pub sweep: Vec<Axis>,
    /// SHA-256 of the file's bytes, hex.
    pub sha256: String,
    /// The file's text, copied beside the outputs so reports can be rebuilt.
    pub text: String,
    /// `[[chart]]` tables.
    pub charts: Vec<ChartSpec>,
    /// `[[expect]]` tables: the balance assertions.
    pub expectations: Vec<Expectation>,
    /// `[tune]`: the knob to search, and what for (its `[[expect]]` gates
    /// are in it, and `expectations` is then empty).
    pub tune: Option<Tune>,
    /// `[best]`: best play in every config of the sweep (its `[[expect]]`
    /// gates are in it, and `expectations` is then empty).
    pub best: Option<BestSpec>,
    /// `[labels]`: the designer's words for parameters, metrics and
    /// fields, in every chart and the report.
    pub labels: Labels,
    /// Settings the mechanic accepts but that are almost surely not what
    /// was meant (`2d10>=12`), per config; `check --strict` fails on them.
    pub warnings: Vec<ConfigWarning>,
    /// Line of each key in `[params]`, for errors found later.
    param_lines: Vec<(String, usize)>,
    mechanic_line: usize,
}

/// A warning about one config's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigWarning {
    /// The config's position in the sweep.
    pub config: usize,
    /// `path = value, …` of its swept values (empty with no sweep).
    pub point: String,
    pub warning: crate::expr::Warning,
}

impl std::fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.point.is_empty() {
            write!(f, "{}", self.warning)
        } else {
            write!(
                f,
                "config {} ({}): {}",
                self.config, self.point, self.warning
            )
        }
    }
}

/// A config with its checked model.
pub type Prepared = (Config, Box<dyn Model>);

/// One point of the sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Position in the sweep, from 0.
    pub index: usize,
    /// The value of each axis, in axis order.
    pub swept: Vec<ParamValue>,
    /// Every explicit value: `[params]` plus this point's swept values.
    pub values: ParamMap,
}

impl Scenario {
    /// Read and check a scenario file.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let bytes = std::fs::read(path).map_err(|e| ScenarioError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let text = String::from_utf8(bytes).map_err(|_| ScenarioError::Io {
            path: path.to_path_buf(),
            message: "the file is not UTF-8 text".into(),
        })?;
        Self::parse(path, &text)
    }

    /// Check a scenario given as text (`path` is only used in messages).
    pub fn parse(path: &Path, text: &str) -> Result<Scenario, ScenarioError> {
        parse::scenario(path, text)
    }

    /// The swept paths, in axis order.
    pub fn swept_paths(&self) -> Vec<&str> {
        self.sweep.iter().map(|a| a.path.as_str()).collect()
    }

    /// [`Scenario::swept_paths`], owned, as results keep them.
    pub fn swept_names(&self) -> Vec<String> {
        self.sweep.iter().map(|a| a.path.clone()).collect()
    }

    /// Number of configs the sweep expands to.
    pub fn config_count(&self) -> usize {
        self.sweep.iter().map(|a| a.values.len()).product()
    }

    /// Point `index` of the sweep (last axis fastest).
    pub fn config(&self, index: usize) -> Config {
        let mut rest = index;
        let mut swept = vec![ParamValue::Int(0); self.sweep.len()];
        for (i, axis) in self.sweep.iter().enumerate().rev() {
            swept[i] = axis.values[rest % axis.values.len()].clone();
            rest /= axis.values.len();
        }
        let mut values = self.params.clone();
        for (axis, v) in self.sweep.iter().zip(&swept) {
            values.set(axis.path.clone(), v.clone());
        }
        Config {
            index,
            swept,
            values,
        }
    }

    /// Every point of the sweep, in order, made as it is asked for.
    pub fn configs(&self) -> impl Iterator<Item = Config> + '_ {
        (0..self.config_count()).map(|i| self.config(i))
    }

    /// The scenario a tune evaluates: this sweep with the knob as its last
    /// axis, so that config `row × knob values + k` is row `row` at the
    /// knob's `k`-th value, and `oddsmith run` of the same sweep gives the
    /// same numbers. `None` without `[tune]`.
    pub fn tune_grid(&self) -> Option<Scenario> {
        let tune = self.tune.as_ref()?;
        let mut sweep = self.sweep.clone();
        sweep.push(Axis {
            path: tune.knob.path.clone(),
            values: tune.knob.values.clone(),
            line: tune.knob.line,
        });
        Some(Scenario {
            path: self.path.clone(),
            name: self.name.clone(),
            description: self.description.clone(),
            mechanic: self.mechanic,
            seed: self.seed,
            trials: self.trials,
            params: self.params.clone(),
            sweep,
            sha256: self.sha256.clone(),
            text: self.text.clone(),
            charts: Vec::new(),
            expectations: Vec::new(),
            tune: None,
            best: None,
            labels: self.labels.clone(),
            warnings: self.warnings.clone(),
            param_lines: self.param_lines.clone(),
            mechanic_line: self.mechanic_line,
        })
    }

    /// Check `config`: a combination the mechanic rejects is reported
    /// with the config and the line of the key at fault; the warnings are
    /// kept (in [`Scenario::warnings`]) with the swept point they came
    /// from. Every config is checked once, at load.
    pub fn check(&self, config: &Config) -> Result<Vec<ConfigWarning>, ScenarioError> {
        let warnings = self
            .mechanic
            .check(&config.values)
            .map_err(|e| self.config_error(config, e))?;
        let point = self
            .sweep
            .iter()
            .zip(&config.swept)
            .map(|(a, v)| format!("{} = {v}", a.path))
            .collect::<Vec<_>>()
            .join(", ");
        Ok(warnings
            .into_iter()
            .map(|warning| ConfigWarning {
                config: config.index,
                point: point.clone(),
                warning,
            })
            .collect())
    }

    /// Build the model of `config`, which [`Scenario::check`] passed at
    /// load (not checked again).
    pub fn prepare(&self, config: &Config) -> Result<Box<dyn Model>, ScenarioError> {
        self.mechanic
            .prepare(&config.values)
            .map_err(|e| self.config_error(config, e))
    }

    /// Build the model of every config.
    pub fn models(&self) -> Result<Vec<Prepared>, ScenarioError> {
        self.configs()
            .map(|config| Ok((self.prepare(&config)?, config)))
            .map(|r| r.map(|(m, c)| (c, m)))
            .collect()
    }

    fn config_error(&self, config: &Config, e: crate::systems::ParamError) -> ScenarioError {
        let line = self
            .sweep
            .iter()
            .find(|a| a.path == e.key)
            .map(|a| a.line)
            .or_else(|| {
                self.param_lines
                    .iter()
                    .find(|(k, _)| *k == e.key)
                    .map(|(_, l)| *l)
            })
            .unwrap_or(self.mechanic_line);
        let point = self
            .sweep
            .iter()
            .zip(&config.swept)
            .map(|(a, v)| format!("{} = {v}", a.path))
            .collect::<Vec<_>>()
            .join(", ");
        let at = if point.is_empty() {
            String::new()
        } else {
            format!(" (in the config where {point})")
        };
        ScenarioError::Invalid {
            path: self.path.clone(),
            line,
            key: e.key,
            message: format!("{}{at}", e.message),
        }
    }
}

#[cfg(test)]
mod tests;
