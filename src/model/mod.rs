//! The contract every mechanic and every engine meets, and nothing else:
//! a leaf that imports only [`crate::dice`].
//!
//! A mechanic is defined once by implementing [`Define`]: its parameters
//! ([`params`]) with ranges and defaults, one [`Schema`] of outcome fields
//! and metrics, a check of what the kinds cannot refuse, and a builder
//! that makes a [`Trial`] from checked values. The object-safe faces
//! downstream code is generic over, [`Mechanic`] and [`Model`], are
//! derived from it. A multi-round mechanic states its rules
//! once as [`Rounds`]; its outcomes go in one table, [`Outcomes`], counted
//! in a [`Tally`] (Monte Carlo) or weighed in [`Marginals`] (exact solvers). Policies ([`policy`]) are
//! the players' decision rules, read from scenario tables.
//!
//! Everything above this floor (the exact solvers, the engine, the
//! systems, the run driver) imports from here; this module imports from
//! none of them (`tests/floors.rs` checks it).

mod choose;
mod define;
mod outcomes;
mod params;
pub mod policy;
mod rounds;
mod schema;
mod warning;

pub use choose::{Choose, Repeats, RuleOf};
#[cfg(test)]
pub use define::counts;
pub use define::{CHECKED, Define, Trial, is_modelled};
pub use outcomes::{Column, Hist, Joint, Marginals, Outcomes, Tally, Weight};
pub use params::{
    Args, Choice, Given, InRange, Lit, ParamError, ParamKind, ParamMap, ParamSpec, ParamValue,
    choice_from, covers, fields_of, from_value, parse_some, parse_value, paths, suggest,
    suggest_param,
};
pub use rounds::{After, Rounds, law_table, pack_fields, play, play_from};
pub use schema::{
    Complement, FieldKind, FieldSpec, MetricKind, MetricSpec, Pred, Schema, complement_name,
};
/// For [`choice!`](crate::choice)'s `Deserialize`.
#[doc(hidden)]
pub use serde as __serde;
pub use warning::{Warning, WarningKind};

use crate::dice::DiceRng;

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
    /// Check a set of values (unset keys take their defaults): every key
    /// and every combination. Errors name the key, the value and what is
    /// allowed; the warnings are settings that are legal but almost surely
    /// not what was meant (a success target no die can reach), said on
    /// stderr, in the report, and failed by `check --strict`. A scenario
    /// checks each config once, at load.
    fn check(&self, values: &ParamMap) -> Result<Vec<Warning>, ParamError>;
    /// The schema of a checked set of values (names may depend on them),
    /// without building a model.
    fn schema_of(&self, values: &ParamMap) -> Result<Schema, ParamError>;
    /// Build the model of a set of values [`Mechanic::check`] has passed.
    /// The combinations are not checked again (only reading the values
    /// can fail), so values `check` would refuse may make a build panic:
    /// a caller checks first, as a scenario does at load and a question
    /// before it runs.
    fn prepare(&self, values: &ParamMap) -> Result<Box<dyn Model>, ParamError>;
    /// The fields of the struct the builder reads its parameters into
    /// ([`Define::Params`]): one per declared path (the registry's test
    /// checks it).
    fn param_fields(&self) -> &'static [&'static str];
    /// The keys that have no effect given the others (an opposing
    /// character's keys when the opposition is an entity): a listing of
    /// what an answer assumed leaves out their defaults. Nothing when the
    /// values do not read.
    fn idle(&self, values: &ParamMap) -> Vec<&'static str>;
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
    /// The model's Rust type, as [`std::any::type_name`] writes it: for
    /// diagnostics, and for [`is_modelled`], which tells the model every
    /// [`Define`] builds from one written by hand. Not overridden.
    fn type_name(&self) -> &'static str {
        std::any::type_name::<Self>()
    }
}
