//! `manifest.json`: what ran, from what, and how long it took.

use serde::Serialize;

use super::OutputError;
use crate::results::Mode;
use crate::results::Results;

/// Facts about the run that the results themselves do not hold.
#[derive(Clone, Debug)]
pub struct RunMeta {
    pub scenario_path: String,
    pub scenario_sha256: String,
    pub threads: usize,
    pub wall_seconds: f64,
}

/// The `manifest.json` exporter. Its schema, `ManifestDoc`, is a public
/// interface: change it on purpose.
pub struct Manifest;

#[derive(Serialize)]
struct ManifestDoc<'a> {
    /// oddsmith's version.
    oddsmith_version: &'static str,
    scenario: ScenarioDoc<'a>,
    mechanic: &'a str,
    mode: Mode,
    seed: u64,
    /// Trials per config asked for (Monte Carlo).
    trials: u64,
    /// Target half-width in precision mode.
    precision: Option<f64>,
    configs: usize,
    threads: usize,
    /// Seconds from start to the moment the outputs were rendered.
    wall_seconds: f64,
    exact_seconds: f64,
    monte_carlo_seconds: f64,
    /// Peak resident memory of the process when the manifest was written
    /// (after the data files), in bytes; null where the system does not
    /// say (it is read from Linux's `/proc/self/status`).
    peak_memory_bytes: Option<u64>,
}

#[derive(Serialize)]
struct ScenarioDoc<'a> {
    name: &'a str,
    path: &'a str,
    sha256: &'a str,
    swept: &'a [String],
}

pub(super) fn render(results: &Results, meta: &RunMeta) -> Result<Vec<u8>, OutputError> {
    let doc = ManifestDoc {
        oddsmith_version: env!("CARGO_PKG_VERSION"),
        scenario: ScenarioDoc {
            name: &results.name,
            path: &meta.scenario_path,
            sha256: &meta.scenario_sha256,
            swept: &results.swept,
        },
        mechanic: &results.mechanic,
        mode: results.mode,
        seed: results.seed,
        trials: results.trials,
        precision: results.precision,
        configs: results.configs.len(),
        threads: meta.threads,
        wall_seconds: meta.wall_seconds,
        exact_seconds: results.exact_seconds,
        monte_carlo_seconds: results.mc_seconds,
        peak_memory_bytes: peak_memory_bytes(),
    };
    let mut out = serde_json::to_vec_pretty(&doc).map_err(|e| OutputError::Encode {
        what: "manifest".into(),
        message: e.to_string(),
    })?;
    out.push(b'\n');
    Ok(out)
}

/// The process's peak resident set (`VmHWM`), when Linux tells.
fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}
