//! The mechanics of the five dice systems, behind one trait, and their
//! registry.
//!
//! A mechanic (e.g. `gateway.challenge`) is defined once, by implementing
//! [`Define`] (the contract, in [`crate::model`]): its parameters with
//! ranges and defaults, one schema, and a checking constructor that builds
//! a [`Trial`]; once a trial exists, sampling and solving cannot fail. A
//! new system adds a folder here and a line in [`registry`].

pub mod best;
pub mod cgg;
pub mod cortex;
pub mod dice;
pub mod duel;
pub mod gateway;
pub mod questworlds;
pub mod statements;
pub mod testing;

// The contract lives in `crate::model`; the mechanics here speak its
// vocabulary through `crate::systems::…` as well, a convenience of names.
pub use crate::model::policy;
pub use crate::model::{
    Args, CHECKED, Choice, Complement, Define, FieldKind, FieldSpec, InRange, Lit, Mechanic,
    MetricKind, MetricSpec, Model, ParamError, ParamKind, ParamMap, ParamSpec, ParamValue, Pred,
    Schema, Trial, Warning, complement_name, from_value, suggest, suggest_param,
};

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
