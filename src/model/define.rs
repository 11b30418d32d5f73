//! One definition per mechanic. A mechanic states its name, parameters,
//! one schema and how to build a [`Trial`] from checked values ([`Define`]);
//! a trial says how to sample and, optionally, solve. Everything the rest
//! of oddsmith needs ([`Mechanic`], [`Model`]) is derived from those two,
//! so the schema a mechanic documents is the schema its models report.

use serde::de::DeserializeOwned;

use super::{
    Args, Marginals, Mechanic, Model, ParamError, ParamMap, ParamSpec, Schema, Tally, Warning,
    fields_of,
};
use crate::dice::DiceRng;

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

    /// Settings that are legal but almost surely not what was meant (see
    /// [`Model::warnings`]).
    fn warnings(&self) -> Vec<Warning> {
        Vec::new()
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

    /// Build a trial from parameters already checked against
    /// [`Define::params`]. Errors (combinations the kinds cannot refuse)
    /// name the key and what is allowed.
    fn build(&self, params: Self::Params) -> Result<Self::Trial, ParamError>;

    /// The schema of one configuration; [`Define::schema`] unless the
    /// field and metric names depend on the parameters (a scene's players).
    fn schema_of(&self, trial: &Self::Trial) -> Schema {
        let _ = trial;
        self.schema()
    }

    /// Check `values` (unset keys take their defaults) and build a trial.
    fn trial(&self, values: &ParamMap) -> Result<Self::Trial, ParamError> {
        self.build(Args::new(self.params(), values)?.typed()?)
    }

    /// The model of a trial built directly (for callers holding one).
    fn model(&self, trial: Self::Trial) -> Box<dyn Model> {
        Box::new(Modelled {
            schema: self.schema_of(&trial),
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

    fn prepare(&self, values: &ParamMap) -> Result<Box<dyn Model>, ParamError> {
        Ok(self.model(self.trial(values)?))
    }

    fn param_fields(&self) -> &'static [&'static str] {
        fields_of::<D::Params>()
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

    fn warnings(&self) -> Vec<Warning> {
        self.trial.warnings()
    }
}
