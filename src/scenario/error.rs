//! Scenario errors: each names the file, and where it can the line and key.

use std::path::PathBuf;

/// What is wrong with a scenario.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The file could not be read.
    #[error("{}: cannot read the scenario: {message}", path.display())]
    Io { path: PathBuf, message: String },
    /// The file is not valid TOML.
    #[error("{}:{line}: not valid TOML: {message}", path.display())]
    Toml {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// A key or value is wrong.
    #[error("{}:{line}: `{key}` {message}", path.display())]
    Invalid {
        path: PathBuf,
        line: usize,
        key: String,
        message: String,
    },
    /// More than one of the above, in line order, one per line.
    #[error("{}", lines(.0))]
    Several(Vec<ScenarioError>),
}

fn lines(errors: &[ScenarioError]) -> String {
    errors
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

impl ScenarioError {
    /// The line the problem is on (0 when there is none).
    pub fn line(&self) -> usize {
        match self {
            ScenarioError::Io { .. } => 0,
            ScenarioError::Toml { line, .. } | ScenarioError::Invalid { line, .. } => *line,
            ScenarioError::Several(list) => list.first().map_or(0, |e| e.line()),
        }
    }

    /// Every single problem this error holds.
    pub fn all(&self) -> Vec<&ScenarioError> {
        match self {
            ScenarioError::Several(list) => list.iter().flat_map(|e| e.all()).collect(),
            single => vec![single],
        }
    }
}

/// The problems found in one file so far: checking goes on after a
/// mistake, so that one run of `oddsmith` reports every mistake in a file,
/// not just the first.
#[derive(Debug, Default)]
pub(super) struct Problems(Vec<ScenarioError>);

impl Problems {
    pub(super) fn push(&mut self, e: ScenarioError) {
        match e {
            ScenarioError::Several(list) => list.into_iter().for_each(|e| self.push(e)),
            single => self.0.push(single),
        }
    }

    /// The value of `r`, or `None` with its error kept.
    pub(super) fn ok<T>(&mut self, r: Result<T, ScenarioError>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.push(e);
                None
            }
        }
    }

    /// Problems found so far.
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    /// `Ok(value)` if nothing was found, else every problem in line order.
    pub(super) fn result<T>(self, value: T) -> Result<T, ScenarioError> {
        match self.into_error() {
            None => Ok(value),
            Some(e) => Err(e),
        }
    }

    /// The problems as one error, if there are any.
    pub(super) fn into_error(mut self) -> Option<ScenarioError> {
        // Stable: problems on one line keep the order they were found in.
        self.0.sort_by_key(|e| e.line());
        match self.0.len() {
            0 => None,
            1 => self.0.pop(),
            _ => Some(ScenarioError::Several(self.0)),
        }
    }
}
