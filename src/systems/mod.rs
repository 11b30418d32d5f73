//! The mechanics of the five dice systems, behind one trait, and their
//! registry.
//!
//! A mechanic (e.g. `gateway.challenge`) is defined once, by implementing
//! [`Define`]: its parameters with ranges and defaults, one schema, and a
//! checking constructor that builds a [`Trial`]; once a trial exists,
//! sampling and solving cannot fail. [`Mechanic`] and [`Model`], the
//! object-safe faces everything downstream (sweeps, the engine, exports)
//! is generic over, are derived from it, so a new system only adds a file
//! here and a line in [`registry`].

pub mod cgg;
pub mod cortex;
mod define;
pub mod dice;
pub mod gateway;
mod params;
pub mod policy;
pub mod questworlds;
mod schema;
pub mod statements;
pub mod testing;

pub use define::{Define, Trial};
pub use params::{
    Args, Choice, InRange, Lit, ParamError, ParamKind, ParamMap, ParamSpec, ParamValue, from_value,
    suggest, suggest_param,
};
pub use schema::{
    Complement, FieldKind, FieldSpec, MetricKind, MetricSpec, Pred, Schema, complement_name,
};

use crate::dice::DiceRng;
use crate::dist::Marginals;
use crate::sim::Tally;

/// A named dice mechanic: its parameters, outcome fields and metrics.
/// Provided for every [`Define`].
pub trait Mechanic: Sync {
    /// Dotted name, `system.mechanic`.
    fn name(&self) -> &'static str;
    /// One line saying what a trial is.
    fn summary(&self) -> &'static str;
    /// Every parameter a scenario may set, with kind, default and doc.
    fn params(&self) -> &'static [ParamSpec];
    /// The outcome fields and headline metrics (as documented; a model may
    /// refine labels for its parameters).
    fn schema(&self) -> Schema;
    /// Whether [`Model::exact`] can answer (for some parameters at least).
    fn has_exact(&self) -> bool;
    /// Check a set of values (unset keys take their defaults) and build a
    /// model. Errors name the key, the value and what is allowed.
    fn prepare(&self, values: &ParamMap) -> Result<Box<dyn Model>, ParamError>;
}

/// One fully checked configuration of a mechanic: a [`Trial`] with its
/// schema, as [`Define::model`] makes it.
pub trait Model: Send + Sync {
    /// Outcome fields and headline metrics for this configuration.
    fn schema(&self) -> &Schema;
    /// Run `trials` independent trials on `rng`, recording every outcome.
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally);
    /// The exact marginal distribution of every outcome field, when a
    /// solver exists for this configuration.
    fn exact(&self) -> Option<Marginals>;
    /// The exact answer, or why there is none (`None`: no reason beyond
    /// "no solver for these values").
    fn solve(&self) -> Result<Marginals, Option<String>> {
        self.exact().ok_or(None)
    }
    /// How the parameters were read, in words, where that is not plain
    /// (a dice expression's parse).
    fn reading(&self) -> Option<String> {
        None
    }
    /// Settings that are legal but almost surely not what was meant (a
    /// success target no die can reach): said on stderr, in the report,
    /// and failed by `check --strict`.
    fn warnings(&self) -> Vec<crate::expr::Warning> {
        Vec::new()
    }
}

/// Every mechanic oddsmith knows, in the order `oddsmith systems` lists them.
pub fn registry() -> &'static [&'static dyn Mechanic] {
    &[
        &gateway::Challenge,
        &gateway::Scene,
        &gateway::Ensemble,
        &gateway::Skirmish,
        &cortex::basic::BasicAction,
        &cortex::contested::ContestedAction,
        &cortex::fight::FightAction,
        &cortex::timed::TimedAction,
        &cgg::risk::Risk,
        &cgg::action::ActionMechanic,
        &cgg::fallout::FalloutMechanic,
        &cgg::diligence::DiligenceMechanic,
        &cgg::tension::TensionMechanic,
        &cgg::session::SessionMechanic,
        &questworlds::contest::Contest,
        &questworlds::scored::ScoredSequence,
        &questworlds::wagered::WageredSequence,
        &questworlds::chained::ChainedSequence,
        &questworlds::group_sequence::GroupSequence,
        &questworlds::group::GroupContest,
        &questworlds::prize::PrizeContest,
        &statements::Statement,
        &statements::Scene,
        &statements::Campaign,
        &statements::Experience,
        &dice::DiceRoll,
    ]
}

/// The mechanic called `name`, if any.
pub fn find(name: &str) -> Option<&'static dyn Mechanic> {
    registry().iter().copied().find(|m| m.name() == name)
}

/// The names of every mechanic, for error messages.
pub fn names() -> Vec<&'static str> {
    registry().iter().map(|m| m.name()).collect()
}
