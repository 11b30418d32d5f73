//! One definition per mechanic. A mechanic states its name, parameters,
//! one schema, how to check a set of values ([`Define::check`]) and how to
//! build a [`Trial`] from checked values ([`Define::build`]); a trial says
//! how to sample and, optionally, solve. Everything the rest of oddsmith
//! needs ([`Mechanic`], [`Model`]) is derived from those two, so the schema
//! a mechanic documents is the schema its models report.
//!
//! Checking and building are apart so that every config is checked once,
//! when a scenario loads (every fault and warning reported before anything
//! runs), and built once, when it runs: a build never fails.

use serde::de::DeserializeOwned;

use super::{
    Args, Marginals, Mechanic, Model, ParamError, ParamMap, ParamSpec, Schema, Tally, Warning,
    fields_of,
};
use crate::dice::DiceRng;

/// What a build says where it re-reads what [`Define::check`] has passed
/// (a parse both need): that read cannot fail.
pub const CHECKED: &str = "checked at load by Define::check";

/// What a mechanic builds from one checked set of parameter values: a
/// configuration that can be sampled, and perhaps solved.
pub trait Trial: Send + Sync + 'static {
    /// Run `trials` independent trials on `rng`, recording every outcome
    /// (usually `tally.record_trials(rng, trials, |rng| self.sample(rng))`).
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally);

    /// The exact marginal distribution of every outcome field, when a
    /// solver exists for this configuration.
    fn exact(&self) -> Option<Marginals> {
        None
    }

    /// The exact answer, or why there is none (`None`: no reason beyond
    /// "no solver for these values"). Override where the solver can say
    /// why it gave up.
    fn solve(&self) -> Result<Marginals, Option<String>> {
        self.exact().ok_or(None)
    }

    /// How the parameters were read, in words, where that is not plain
    /// (a dice expression's parse).
    fn reading(&self) -> Option<String> {
        None
    }
}

/// A mechanic, defined once. Implementing this is all a mechanic does:
/// [`Mechanic`] is provided for every `Define`.
pub trait Define: Sync + 'static {
    /// The parameters as the builder reads them: a struct with one field
    /// per declared path, filled once from the checked values (see
    /// [`Args::typed`]).
    type Params: DeserializeOwned;
    /// What [`Define::build`] makes.
    type Trial: Trial;
    /// Dotted name, `system.mechanic`.
    const NAME: &'static str;
    /// One line saying what a trial is.
    const SUMMARY: &'static str;
    /// Whether [`Trial::exact`] can answer (for some parameters at least).
    const EXACT: bool = true;

    /// Every parameter a scenario may set, with kind, default and doc.
    fn params(&self) -> &'static [ParamSpec];

    /// The outcome fields and headline metrics: the one schema of the
    /// mechanic (a pattern, where [`Define::schema_of`] names fields after
    /// the parameters).
    fn schema(&self) -> Schema;

    /// Read `values` (unset keys take their defaults) into the typed
    /// parameters, each key checked against [`Define::params`]. Override
    /// only to word a mechanic's own keys first (dice.roll's `vars.NAME`).
    fn read(&self, values: &ParamMap) -> Result<Self::Params, ParamError> {
        Args::new(self.params(), values)?.typed()
    }

    /// Check what the kinds of [`Define::params`] cannot: combinations of
    /// keys (errors name the key and what is allowed), and settings that
    /// are legal but almost surely not what was meant (the warnings: said
    /// on stderr, in the report, and failed by `check --strict`). Every
    /// config of a scenario is checked here once, at load.
    fn check(&self, params: &Self::Params) -> Result<Vec<Warning>, ParamError> {
        let _ = params;
        Ok(Vec::new())
    }

    /// The keys that have no effect given the others: an alternative not
    /// taken (an entity's keys when the opposition is a character, and a
    /// character's when it is an entity; a trouble pool's size beside a
    /// set pool). A listing of what an answer assumed leaves out their
    /// defaults, so it never says a number rests on them. None unless a
    /// mechanic says.
    fn idle(&self, params: &Self::Params) -> Vec<&'static str> {
        let _ = params;
        Vec::new()
    }

    /// Build a trial from parameters [`Define::check`] has passed. It
    /// cannot fail: every refusal is `check`'s.
    fn build(&self, params: Self::Params) -> Self::Trial;

    /// The schema of one configuration; [`Define::schema`] unless the
    /// field and metric names depend on the parameters (a scene's
    /// players). Read from checked parameters, so a scenario knows its
    /// names at load without building anything.
    fn schema_of(&self, params: &Self::Params) -> Schema {
        let _ = params;
        self.schema()
    }

    /// Read and check `values` and build a trial (for callers that hold
    /// values, not a scenario: tests, other mechanics).
    fn trial(&self, values: &ParamMap) -> Result<Self::Trial, ParamError> {
        let params = self.read(values)?;
        self.check(&params)?;
        Ok(self.build(params))
    }

    /// The model of a trial built directly (for callers holding one), with
    /// the mechanic's [`Define::schema`]: for a mechanic whose names do not
    /// depend on the parameters.
    fn model(&self, trial: Self::Trial) -> Box<dyn Model> {
        Box::new(Modelled {
            schema: self.schema(),
            trial,
        })
    }
}

impl<D: Define> Mechanic for D {
    fn name(&self) -> &'static str {
        D::NAME
    }

    fn summary(&self) -> &'static str {
        D::SUMMARY
    }

    fn params(&self) -> &'static [ParamSpec] {
        Define::params(self)
    }

    fn schema(&self) -> Schema {
        Define::schema(self)
    }

    fn has_exact(&self) -> bool {
        D::EXACT
    }

    fn check(&self, values: &ParamMap) -> Result<Vec<Warning>, ParamError> {
        #[cfg(test)]
        counts::CHECKS.with(|c| c.set(c.get() + 1));
        Define::check(self, &self.read(values)?)
    }

    fn schema_of(&self, values: &ParamMap) -> Result<Schema, ParamError> {
        Ok(Define::schema_of(self, &self.read(values)?))
    }

    /// Read and build, without checking again: the values were checked
    /// when the scenario (or question) was.
    fn prepare(&self, values: &ParamMap) -> Result<Box<dyn Model>, ParamError> {
        #[cfg(test)]
        counts::BUILDS.with(|c| c.set(c.get() + 1));
        let params = self.read(values)?;
        let schema = Define::schema_of(self, &params);
        Ok(Box::new(Modelled {
            schema,
            trial: self.build(params),
        }))
    }

    fn param_fields(&self) -> &'static [&'static str] {
        fields_of::<D::Params>()
    }

    fn idle(&self, values: &ParamMap) -> Vec<&'static str> {
        self.read(values)
            .map(|p| Define::idle(self, &p))
            .unwrap_or_default()
    }
}

/// Whether `model` is the one [`Model`] a [`Define`] builds (a trial with
/// its schema), told by its type, which no mechanic declares: a mechanic
/// that writes its own `Mechanic` and `Model` by hand builds a model of
/// another type. The registry's tests use it.
pub fn is_modelled(model: &dyn Model) -> bool {
    let ours = std::any::type_name::<Modelled<()>>();
    let generic = ours.strip_suffix("()>").expect("a generic type's name");
    model.type_name().starts_with(generic)
}

/// A trial with its schema: the one [`Model`] every mechanic shares. Every
/// face of [`Model`] is forwarded to the trial, so a `Define`d mechanic
/// answers exactly what its trial says.
struct Modelled<T> {
    trial: T,
    schema: Schema,
}

impl<T: Trial> Model for Modelled<T> {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        self.trial.simulate(rng, trials, tally);
    }

    fn exact(&self) -> Option<Marginals> {
        self.trial.exact()
    }

    fn solve(&self) -> Result<Marginals, Option<String>> {
        self.trial.solve()
    }

    fn reading(&self) -> Option<String> {
        self.trial.reading()
    }
}

/// How often [`Mechanic::check`] and [`Mechanic::prepare`] ran on this
/// thread: the test that a scenario's configs are checked at load and
/// built only when they run reads them.
#[cfg(test)]
pub mod counts {
    use std::cell::Cell;

    thread_local! {
        pub(super) static CHECKS: Cell<usize> = const { Cell::new(0) };
        pub(super) static BUILDS: Cell<usize> = const { Cell::new(0) };
    }

    /// Checks and builds so far on this thread.
    pub fn now() -> (usize, usize) {
        (CHECKS.with(Cell::get), BUILDS.with(Cell::get))
    }
}
