//! The table of results: what a run found, per config and method.

use crate::pipeline::Mode;
use crate::systems::ParamValue;

/// How a number was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Exact,
    MonteCarlo,
}

impl Method {
    /// The name used in every output: `exact` or `monte-carlo`.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Exact => "exact",
            Method::MonteCarlo => "monte-carlo",
        }
    }
}

/// A headline metric's value (with its 95% interval for Monte Carlo).
#[derive(Clone, Debug, PartialEq)]
pub struct MetricRow {
    pub name: String,
    pub value: f64,
    pub interval: Option<(f64, f64)>,
    /// Standard error (Monte Carlo only).
    pub se: Option<f64>,
}

/// The probability of one value of one outcome field.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldRow {
    pub field: String,
    pub value: i64,
    pub label: String,
    pub probability: f64,
    /// Trials that gave this value (Monte Carlo only).
    pub count: Option<u64>,
    /// Wilson 95% interval (Monte Carlo only).
    pub interval: Option<(f64, f64)>,
}

/// One method's answer for one config.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub method: Method,
    /// Trials run (0 for exact).
    pub trials: u64,
    pub metrics: Vec<MetricRow>,
    pub dist: Vec<FieldRow>,
}

/// Exact against Monte Carlo for one metric of one config.
#[derive(Clone, Debug, PartialEq)]
pub struct Agreement {
    pub metric: String,
    pub exact: f64,
    pub estimate: f64,
    /// Standard error the exact distribution predicts for the estimate.
    pub se: f64,
    pub z: f64,
}

/// Everything found for one config.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigResult {
    pub index: usize,
    /// Swept values in axis order.
    pub swept: Vec<ParamValue>,
    pub runs: Vec<Run>,
    pub agreement: Vec<Agreement>,
}

/// The results of one scenario run.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    pub name: String,
    pub description: Option<String>,
    pub mechanic: String,
    /// Swept paths, as written in `[sweep]`.
    pub swept: Vec<String>,
    pub seed: u64,
    pub trials: u64,
    pub mode: Mode,
    pub precision: Option<f64>,
    pub configs: Vec<ConfigResult>,
    pub exact_seconds: f64,
    pub mc_seconds: f64,
}

impl Results {
    /// Configs where some metric's |z| exceeds `limit`, with those metrics.
    pub fn disagreements(&self, limit: f64) -> Vec<(&ConfigResult, Vec<&Agreement>)> {
        self.configs
            .iter()
            .filter_map(|c| {
                let bad: Vec<&Agreement> = c
                    .agreement
                    .iter()
                    .filter(|a| a.z.is_nan() || a.z.abs() > limit)
                    .collect();
                (!bad.is_empty()).then_some((c, bad))
            })
            .collect()
    }
}
