//! A warning about a configuration: legal, but almost surely not what was
//! meant (a success target no die can reach). Expressions raise most of
//! them (the expression module), and any model may; they are said on stderr, in
//! the report, and failed by `check --strict`.

use std::fmt;

/// What kind of trap a warning is about; the name is stable (JSON, tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WarningKind {
    /// A success test no face passes: the count is always 0.
    UnreachableTarget,
    /// A success test every face passes: the count is always the pool.
    EveryFacePasses,
    /// A keep larger than the pool (all kept) or a drop of every die.
    KeepExceedsPool,
    /// A comparison whose sides cannot overlap: always true or false.
    ConstantComparison,
    /// A reroll, explosion, double or failure test no face matches.
    NoEffect,
}

impl WarningKind {
    pub fn name(self) -> &'static str {
        match self {
            WarningKind::UnreachableTarget => "unreachable-target",
            WarningKind::EveryFacePasses => "every-face-passes",
            WarningKind::KeepExceedsPool => "keep-exceeds-pool",
            WarningKind::ConstantComparison => "constant-comparison",
            WarningKind::NoEffect => "no-effect",
        }
    }
}

/// One warning: its kind and a sentence naming the text, what it does and
/// what was likely meant.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Warning {
    pub kind: WarningKind,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
