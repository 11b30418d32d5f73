//! Checking a written directory before it is read back (`oddsmith report
//! DIR` of a tune or of best play): each data file against the SHA-256
//! its manifest records, and the scenario copy against the scenario the
//! manifest names. A run's directory is checked in `load.rs`, which also
//! reads manifests from before digests were recorded.

use std::collections::BTreeMap;
use std::path::Path;

use super::load::LoadError;
use super::manifest::{FileEntry, ScenarioDoc, sha256_file};
use crate::scenario::Scenario;

/// How the messages name what was written, e.g. for a tune: "the tune's
/// manifest.json", "the tune", "after the tune", "tune the scenario
/// again", "the scenario the tune ran".
pub struct Words {
    pub manifest: &'static str,
    pub written: &'static str,
    pub changed: &'static str,
    pub again: &'static str,
    pub scenario: &'static str,
}

fn bad(path: &Path, message: impl Into<String>) -> LoadError {
    LoadError::Bad {
        path: path.display().to_string(),
        message: message.into(),
    }
}

/// Every file of `names` in `dir` is recorded in `files`, present, and
/// has the recorded SHA-256.
pub fn check_digests(
    dir: &Path,
    names: &[&str],
    files: &BTreeMap<String, FileEntry>,
    words: &Words,
) -> Result<(), LoadError> {
    for name in names {
        let path = dir.join(name);
        let Some(entry) = files.get(*name) else {
            return Err(bad(
                &path,
                format!(
                    "is not recorded in {}; the directory is not {} that was written",
                    words.manifest, words.written
                ),
            ));
        };
        if !path.is_file() {
            return Err(bad(
                &path,
                format!(
                    "is missing, but {} records it; the directory is not {} that was written",
                    words.manifest, words.written
                ),
            ));
        }
        let sha = sha256_file(&path)?;
        if sha != entry.sha256 {
            return Err(bad(
                &path,
                format!(
                    "was changed {} (its SHA-256 is {sha}, {} says {}); {} instead of reading it",
                    words.changed, words.manifest, entry.sha256, words.again
                ),
            ));
        }
    }
    Ok(())
}

/// The scenario copy in `dir`, parsed under the path it was written from
/// (as a run's copy is, so the reports name the same file), and checked
/// to be the scenario `doc` names.
pub fn scenario_copy(dir: &Path, doc: &ScenarioDoc, words: &Words) -> Result<Scenario, LoadError> {
    let copy = dir.join("scenario.toml");
    let text =
        std::fs::read_to_string(&copy).map_err(|e| bad(&copy, format!("cannot read: {e}")))?;
    let scenario = Scenario::parse(Path::new(&doc.path), &text)?;
    if scenario.sha256 != doc.sha256 {
        return Err(bad(
            &copy,
            format!(
                "is not {} (its SHA-256 is {}, manifest.json says {})",
                words.scenario, scenario.sha256, doc.sha256
            ),
        ));
    }
    Ok(scenario)
}
