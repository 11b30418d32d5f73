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
}
