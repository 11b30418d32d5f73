//! A multi-round mechanic with one side's decision left open: the
//! [`Rounds`](super::Rounds) shape with the policy taken out, so that a
//! solver can ask "what is best here" instead of "what does the policy
//! say". It is a Markov decision process: at a roll where the deciding
//! side acts, [`Choose::options`] lists what it may do, and
//! [`Choose::law`] gives the roll's law for each; everywhere else (dice,
//! the other side's given policy) the law is the mechanic's own.
//!
//! `exact::best` solves it by backward induction over the rounds; the
//! mechanic's own `Rounds` and this trait share their rules, so the
//! value of the given policy here ([`Choose::law`] with `None` at every
//! decision) is the exact solver's answer, a test each mechanic makes.

use std::fmt;
use std::hash::Hash;

use super::{After, ParamValue};

/// One rule of a best policy: a range per feature (inclusive), and the
/// option taken there.
pub type RuleOf<O> = (Vec<(i64, i64)>, O);

/// Where a mechanic's rounds repeat, so a solver can build one round's
/// graph once and walk it for every round instead of exploring each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repeats {
    /// Every round from this one up to the one before `cap` has this
    /// round's options, laws, results and features, except for the round
    /// an outcome records (in `round_field`).
    pub from: usize,
    /// The last round: every trial ends in it, if not before.
    pub cap: usize,
    /// The outcome field that records the round a trial ends in, if any.
    pub round_field: Option<usize>,
}

/// One side's decision left open in a multi-round mechanic.
pub trait Choose: Sync {
    /// What must be remembered (as [`super::Rounds::State`]).
    type State: Ord + Clone + Hash;
    /// One roll's result, as the rules read it.
    type Roll;
    /// The outcome field values of a finished trial.
    type Outcome: AsRef<[i64]>;
    /// What the deciding side may do at one roll. Equal options are one
    /// option (the solver counts each option's use across states).
    type Option: Clone + PartialEq + fmt::Display;

    /// The state before the first roll.
    fn start(&self) -> Self::State;

    /// What the deciding side may do at the next roll of round `round` in
    /// `state`, simplest first (ties in value go to the earlier); empty
    /// where it does not decide (the dice, the other side's turn).
    fn options(&self, round: usize, state: &Self::State, out: &mut Vec<Self::Option>);

    /// The law of the next roll when the deciding side takes `option`;
    /// `None` is what the given policy does (and the only call where
    /// [`Choose::options`] is empty).
    fn law(
        &self,
        round: usize,
        state: &Self::State,
        option: Option<&Self::Option>,
        out: &mut Vec<(Self::Roll, f64)>,
    );

    /// What the rules make of `roll` in `state`.
    fn after(
        &self,
        round: usize,
        state: &Self::State,
        roll: &Self::Roll,
    ) -> After<Self::State, Self::Outcome>;

    /// The names of what the deciding side sees (for rules a designer can
    /// read: `ladder`, `edge` …), in the order [`Choose::features`] fills.
    fn feature_names(&self) -> Vec<&'static str>;

    /// What the deciding side sees at a decision in `state`, one value per
    /// [`Choose::feature_names`].
    fn features(&self, round: usize, state: &Self::State, out: &mut Vec<i64>);

    /// The groups an option belongs to, for dominance ("setup", "raises
    /// 2"): forbidding a group forbids every option in it.
    fn tags(&self, option: &Self::Option) -> Vec<String>;

    /// Where the rounds repeat ([`Repeats`]); `None` (the default): each
    /// round is explored on its own.
    fn repeats(&self) -> Option<Repeats> {
        None
    }

    /// The best policy written as the mechanic's own parameter values
    /// (`raises = 2`, `"a.policy" = [ … ]`), from its rules in order: each
    /// rule's range per feature (inclusive) and option. `None` when the
    /// policy language cannot say it (the default).
    fn write(&self, rules: &[RuleOf<Self::Option>]) -> Option<Vec<(String, ParamValue)>> {
        let _ = rules;
        None
    }

    /// [`Choose::write`] for best play of `reward` (the metric's value of
    /// an outcome): a mechanic whose rules see less than its states
    /// (several states to a situation) picks, per situation, a move best
    /// in each of them, which it needs the metric for. The default
    /// writes `rules` as they are.
    fn write_for(
        &self,
        rules: &[RuleOf<Self::Option>],
        reward: &dyn Fn(&[i64]) -> f64,
    ) -> Option<Vec<(String, ParamValue)>> {
        let _ = reward;
        self.write(rules)
    }

    /// What the opposing side may do at the next roll where it decides,
    /// for a duel where it plays best too (minimising what the deciding
    /// side maximises); [`Choose::law`] with one of them is the roll's law
    /// when the opposing side takes it. Only asked where
    /// [`Choose::options`] is empty: the sides decide in turn, never at
    /// once (so the duel has perfect information and pure best play).
    /// Empty (the default): the opposing side only plays its given policy,
    /// and only one-sided best play is offered.
    fn opposing(&self, round: usize, state: &Self::State, out: &mut Vec<Self::Option>) {
        let _ = (round, state, out);
    }

    /// What the opposing side sees at its decision, one value per
    /// [`Choose::feature_names`] (read from its side: its own edge …).
    fn opposing_features(&self, round: usize, state: &Self::State, out: &mut Vec<i64>) {
        self.features(round, state, out);
    }

    /// The opposing side's best policy written as the mechanic's own
    /// parameter values, as [`Choose::write`] does for the deciding side.
    fn write_opposing(&self, rules: &[RuleOf<Self::Option>]) -> Option<Vec<(String, ParamValue)>> {
        let _ = rules;
        None
    }
}
