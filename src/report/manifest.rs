//! `manifest.json`: what ran, from what, how long it took, and the
//! SHA-256 of every other file of the run, so a run read back (`report`,
//! `diff`, the notebooks) is known to be the one that was written.
//!
//! The digests are unkeyed: they catch a file damaged in transit or edited
//! by hand, not a forger who edits the manifest too.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::OutputError;
use crate::results::Mode;
use crate::results::Results;

/// The manifest's file name.
pub(super) const FILE: &str = Manifest::FILE;

/// The data files a run read back must match its manifest in: the
/// scenario copy, the tables and the agreement check. (Charts and
/// documents are recorded too, but `report` draws them again.)
pub const DATA_FILES: [&str; 6] = [
    "scenario.toml",
    "summary.csv",
    "summary.parquet",
    "results.csv",
    "results.parquet",
    "agreement.csv",
];

/// Facts about the run that the results themselves do not hold.
#[derive(Clone, Debug)]
pub struct RunMeta {
    pub scenario_path: String,
    pub scenario_sha256: String,
    pub threads: usize,
    pub wall_seconds: f64,
}

/// The `manifest.json` exporter. Its schema, [`ManifestDoc`], is a public
/// interface: change it on purpose.
pub struct Manifest;

/// One file's entry in the manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    /// SHA-256 of its bytes, hex.
    pub sha256: String,
}

/// `manifest.json`, as written and as read back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ManifestDoc {
    /// oddsmith's version.
    pub oddsmith_version: String,
    pub scenario: ScenarioDoc,
    pub mechanic: String,
    pub mode: Mode,
    pub seed: u64,
    /// Trials per config asked for (Monte Carlo).
    pub trials: u64,
    /// Target half-width in precision mode.
    pub precision: Option<f64>,
    pub configs: usize,
    pub threads: usize,
    /// Seconds from start to the moment the outputs were rendered.
    pub wall_seconds: f64,
    pub exact_seconds: f64,
    pub monte_carlo_seconds: f64,
    /// Peak resident memory of the process when the manifest was written
    /// (after the data files), in bytes; null where the system does not
    /// say (it is read from Linux's `/proc/self/status`).
    pub peak_memory_bytes: Option<u64>,
    /// Every other file of the run by name, with its digest; absent in a
    /// run written before oddsmith recorded them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<BTreeMap<String, FileEntry>>,
}

/// The scenario a run ran.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScenarioDoc {
    pub name: String,
    pub path: String,
    pub sha256: String,
    pub swept: Vec<String>,
}

impl ManifestDoc {
    /// The bytes of `manifest.json`.
    pub fn to_json(&self) -> Result<Vec<u8>, OutputError> {
        let mut out = serde_json::to_vec_pretty(self).map_err(|e| OutputError::Encode {
            what: "manifest".into(),
            message: e.to_string(),
        })?;
        out.push(b'\n');
        Ok(out)
    }
}

impl Manifest {
    /// Its file name.
    pub const FILE: &'static str = "manifest.json";

    /// The manifest of `results`, recording `files` (name → SHA-256).
    pub fn render(
        results: &Results,
        configs: usize,
        meta: &RunMeta,
        files: BTreeMap<String, String>,
    ) -> Result<Vec<u8>, OutputError> {
        ManifestDoc {
            oddsmith_version: env!("CARGO_PKG_VERSION").into(),
            scenario: ScenarioDoc {
                name: results.name.clone(),
                path: meta.scenario_path.clone(),
                sha256: meta.scenario_sha256.clone(),
                swept: results.swept.clone(),
            },
            mechanic: results.mechanic.clone(),
            mode: results.mode,
            seed: results.seed,
            trials: results.trials,
            precision: results.precision,
            configs,
            threads: meta.threads,
            wall_seconds: meta.wall_seconds,
            exact_seconds: results.exact_seconds,
            monte_carlo_seconds: results.mc_seconds,
            peak_memory_bytes: peak_memory_bytes(),
            files: Some(
                files
                    .into_iter()
                    .map(|(name, sha256)| (name, FileEntry { sha256 }))
                    .collect(),
            ),
        }
        .to_json()
    }
}

/// The SHA-256 (hex) of the file at `path`, read in blocks.
pub fn sha256_file(path: &Path) -> Result<String, OutputError> {
    let fail = |e: std::io::Error| OutputError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let mut file = std::fs::File::open(path).map_err(fail)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf).map_err(fail)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
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

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
