//! Best play: a [`Choose`] mechanic solved as a Markov decision process
//! by backward induction over its rounds.
//!
//! Three passes over the states the chain solver walks:
//! 1. **Reach** ([`reach`]): every state between rounds that some choice
//!    of options can reach, round by round (a finite horizon: the
//!    mechanic's round cap ends every trial).
//! 2. **Values**, backwards from the last round: a state's value is the
//!    best option's expected value (or the given policy's, or the best
//!    with some options forbidden); rolls within a round are followed
//!    down each path and memoised per round, as the chain solver does.
//! 3. **Visits**, forwards under the best choices: how often each
//!    decision is met, so each option's use is weighted by how often
//!    best play meets the situation, and the best value is summed again
//!    from the outcomes (a check on the first two passes).
//!
//! Ties go to the option listed first (the simplest), within a relative
//! 1e-12, so an option best play "uses" is one it needs.
//! Dominance forbids each tag of options in turn ([`Choose::tags`]) and
//! solves again: the value lost is what the rules would lose without it
//! (0: never needed). Where every option at a decision has the tag, that
//! decision keeps them all (a side always does something).

#[cfg(test)]
pub mod check;
mod graph;
pub mod layered;
pub mod rules;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use crate::model::Choose;

pub use rules::{Box as RuleBox, group};

/// Bounds on the work a best-play solve may do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BestLimits {
    /// Give up when a trial can last more rounds than this.
    pub max_rounds: usize,
    /// Give up when more states between rounds than this are reachable
    /// in one round.
    pub max_states: usize,
}

impl Default for BestLimits {
    fn default() -> Self {
        BestLimits {
            max_rounds: 2_000,
            max_states: 200_000,
        }
    }
}

/// Why there is no exact best play.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BestError {
    #[error(
        "a trial can last more than {0} rounds under some choices (no round cap ends it); best play is solved over a finite horizon"
    )]
    Rounds(usize),
    #[error("more than {0} states are reachable in one round under some choices")]
    States(usize),
    /// The thread's watch or stop said stop ([`crate::exact::watch`]).
    #[error("the solve was stopped before its end")]
    Stopped,
}

/// Go on with round `round` (`states` live in it)? The solvers poll the
/// thread's watch and stop ([`crate::exact::watch`]) before each round of
/// every pass, as the chain solver does, so a cancelled or timed-out
/// request ends within a round.
fn go_on(round: usize, states: usize) -> Result<(), BestError> {
    if super::watch::go_on(round, states, 1.0) {
        Ok(())
    } else {
        Err(BestError::Stopped)
    }
}

/// What the deciding side does at a decision.
enum Play<'a, O> {
    /// The best allowed option (all, when none of them is allowed).
    Best(&'a dyn Fn(&O) -> bool),
    /// What the given policy does.
    Given,
}

// By hand: a derive would ask `O: Copy`.
impl<O> Clone for Play<'_, O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<O> Copy for Play<'_, O> {}

/// The best play of a mechanic for one metric.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved<O> {
    /// The metric under best play.
    pub value: f64,
    /// The metric under the given policy.
    pub given: f64,
    /// The metric summed from the outcomes best play reaches (forward):
    /// equal to `value` up to rounding.
    pub replayed: f64,
    /// Every option met anywhere, in the order first met.
    pub options: Vec<O>,
    /// What the deciding side sees, by name.
    pub features: Vec<&'static str>,
    /// Per (what it sees, option taken): the expected number of times
    /// per trial best play meets that situation and takes that option.
    pub decisions: Vec<Decision>,
    /// Per option: its share of the deciding side's decisions under best
    /// play (by expected visits).
    pub usage: Vec<f64>,
    /// Per tag, in the order first met: the value without it.
    pub dominance: Vec<Dominance>,
    /// Expected decisions per trial under best play.
    pub visits: f64,
    /// States between rounds reachable under some choices, summed over
    /// the rounds, and the rounds.
    pub states: usize,
    pub rounds: usize,
}

/// One row of the best policy: in this situation, this option.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub features: Vec<i64>,
    /// Index into [`Solved::options`].
    pub option: usize,
    /// Expected visits per trial under best play.
    pub visits: f64,
}

/// What forbidding one tag of options costs.
#[derive(Clone, Debug, PartialEq)]
pub struct Dominance {
    pub tag: String,
    /// Best play's value with every option of the tag forbidden.
    pub without: f64,
    /// `value − without` (never negative beyond rounding): 0 means best
    /// play never needs the tag.
    pub loss: f64,
    /// The tag's share of best play's decisions.
    pub usage: f64,
}

/// Solve best play for `reward` (the metric's value of an outcome, to
/// maximise in expectation), with dominance over every tag when
/// `dominance` is set: over one graph of the repeating rounds when the
/// mechanic says where they repeat, else round by round.
pub fn best<P: Choose>(
    p: &P,
    reward: &dyn Fn(&[i64]) -> f64,
    dominance: bool,
    limits: BestLimits,
) -> Result<Solved<P::Option>, BestError> {
    match p.repeats() {
        Some(r) => graph::solve(p, r, reward, dominance, limits),
        None => layered::solve(p, reward, dominance, limits),
    }
}

/// What either way of solving hands back, before the tables are made.
struct Raw<O> {
    value: f64,
    given: f64,
    replayed: f64,
    /// The options best play takes, in the order met, and per (what the
    /// side sees, index into them) the expected visits.
    options: Vec<O>,
    table: BTreeMap<(Vec<i64>, usize), f64>,
    states: usize,
    rounds: usize,
}

/// Which options a solve may take.
type Allowed<'a, O> = dyn Fn(&O) -> bool + 'a;

/// The answer from a raw solve; `without` solves again once per set of
/// options allowed (all sets at once, so a solver can share its walks),
/// over `every` option met (for the tags).
fn assemble<P: Choose>(
    p: &P,
    raw: Raw<P::Option>,
    dominance: bool,
    every: &[P::Option],
    without: impl FnOnce(&[&Allowed<'_, P::Option>]) -> Result<Vec<f64>, BestError>,
) -> Result<Solved<P::Option>, BestError> {
    let Raw {
        value,
        given,
        replayed,
        options,
        table,
        states,
        rounds,
    } = raw;
    let visits: f64 = table.values().sum();
    let mut usage = vec![0.0; options.len()];
    for ((_, o), v) in &table {
        // Visits are sums of probabilities: never negative, but a
        // rounding may leave -0.0, which prints as "-0.0%".
        usage[*o] += (v / visits.max(f64::MIN_POSITIVE)).max(0.0);
    }
    let decisions = table
        .into_iter()
        .map(|((features, option), visits)| Decision {
            features,
            option,
            visits,
        })
        .collect();
    let mut dominance_rows = Vec::new();
    if dominance {
        let mut tags: Vec<String> = Vec::new();
        for o in every {
            for t in p.tags(o) {
                if !tags.contains(&t) {
                    tags.push(t);
                }
            }
        }
        let forbid: Vec<Box<Allowed<'_, P::Option>>> = tags
            .iter()
            .map(|tag| Box::new(move |o: &P::Option| !p.tags(o).contains(tag)) as Box<_>)
            .collect();
        let allowed: Vec<&Allowed<'_, P::Option>> = forbid.iter().map(|f| &**f).collect();
        let values = without(&allowed)?;
        for (tag, without) in tags.iter().cloned().zip(values) {
            let used: f64 = options
                .iter()
                .zip(&usage)
                .filter(|(o, _)| p.tags(o).contains(&tag))
                .map(|(_, u)| u)
                .sum();
            dominance_rows.push(Dominance {
                loss: (value - without).max(0.0),
                tag,
                without,
                // An empty sum is -0.0, which prints as "-0.0%".
                usage: used + 0.0,
            });
        }
    }
    Ok(Solved {
        value,
        given,
        replayed,
        options,
        features: p.feature_names(),
        decisions,
        usage,
        dominance: dominance_rows,
        visits,
        states,
        rounds,
    })
}

/// Best play with its options as words and its policy written out: what
/// the question above this floor reads, whatever the mechanic.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub solved: Solved<String>,
    /// The best policy as rules, most visited first; options index
    /// `solved.options`.
    pub rules: Vec<RuleBox>,
    /// The rules as the mechanic's own parameter values, when its policy
    /// language can say them.
    pub written: Option<Vec<(String, crate::model::ParamValue)>>,
}

/// A [`Choose`] mechanic with its types erased.
pub trait Solve: Sync {
    fn play(
        &self,
        reward: &dyn Fn(&[i64]) -> f64,
        dominance: bool,
        limits: BestLimits,
    ) -> Result<Played, BestError>;
}

impl<P: Choose> Solve for P {
    fn play(
        &self,
        reward: &dyn Fn(&[i64]) -> f64,
        dominance: bool,
        limits: BestLimits,
    ) -> Result<Played, BestError> {
        let solved = best(self, reward, dominance, limits)?;
        let rules = group(&solved.decisions, solved.features.len());
        let typed: Vec<crate::model::RuleOf<P::Option>> = rules
            .iter()
            .map(|b| (b.ranges.clone(), solved.options[b.option].clone()))
            .collect();
        let written = self.write_for(&typed, reward);
        let Solved {
            value,
            given,
            replayed,
            options,
            features,
            decisions,
            usage,
            dominance,
            visits,
            states,
            rounds,
        } = solved;
        Ok(Played {
            solved: Solved {
                value,
                given,
                replayed,
                options: options.iter().map(ToString::to_string).collect(),
                features,
                decisions,
                usage,
                dominance,
                visits,
                states,
                rounds,
            },
            rules,
            written,
        })
    }
}
