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
//!
//! **A duel** ([`duel`]): where the mechanic gives the opposing side's
//! options too ([`Choose::opposing`]), the opposing side plays best as
//! well, minimising what the deciding side maximises, at its own
//! decisions. The sides decide in turn (never at the same roll), so the
//! zero-sum game has perfect information: backward induction with the
//! max at one side's decisions and the min at the other's is its exact
//! value, and best play is pure (no mixed strategies). Dominance then
//! forbids the deciding side's options against an opposing side that
//! still plays best.

#[cfg(test)]
pub mod check;
mod graph;
pub mod layered;
pub mod rules;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tug;

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

/// Who decides at a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// Nobody: the dice, or the given policy.
    Nobody,
    /// The deciding side (it maximises).
    Max,
    /// The opposing side, in a duel (it minimises).
    Min,
}

/// The options at the next roll of `round` in `s` into `out` (cleared),
/// and whose they are: the opposing side's only in a duel (`both`).
fn menu<P: Choose>(
    p: &P,
    both: bool,
    round: usize,
    s: &P::State,
    out: &mut Vec<P::Option>,
) -> Side {
    out.clear();
    p.options(round, s, out);
    if !out.is_empty() {
        return Side::Max;
    }
    if both {
        p.opposing(round, s, out);
        if !out.is_empty() {
            return Side::Min;
        }
    }
    Side::Nobody
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
    /// In a duel: the best of every option, against the opposing side's
    /// best allowed option (all, when none of them is allowed).
    Against(&'a dyn Fn(&O) -> bool),
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
    /// In a duel: the deciding side's best value against the opposing
    /// side's given policy (one-sided best play); `None` otherwise.
    pub one_sided: Option<f64>,
    /// In a duel: every option the opposing side's best play takes, in
    /// the order first met, and its decisions as [`Solved::decisions`]
    /// (what it sees, index into these options); empty otherwise.
    pub opposing_options: Vec<O>,
    pub opposing: Vec<Decision>,
    /// Per option: its share of the deciding side's decisions under best
    /// play (by expected visits).
    pub usage: Vec<f64>,
    /// Per tag, in the order first met: the value without it.
    pub dominance: Vec<Dominance>,
    /// In a duel, per tag of the opposing side's options: the game's
    /// value with the opposing side's options of the tag forbidden (the
    /// deciding side still playing best), `loss` what the opposing side's
    /// best play loses (`without − value`: what the deciding side gains)
    /// and `usage` its share of the opposing side's decisions; empty
    /// otherwise.
    pub opposing_dominance: Vec<Dominance>,
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
    solve(p, reward, dominance, limits, false)
}

/// Best play for both sides (a zero-sum duel): the deciding side
/// maximises `reward`'s expectation at its decisions, the opposing side
/// ([`Choose::opposing`]) minimises it at its own. `value` is the game's
/// value, `given` both given policies', `one_sided` the deciding side's
/// best against the opposing side's given policy.
pub fn duel<P: Choose>(
    p: &P,
    reward: &dyn Fn(&[i64]) -> f64,
    dominance: bool,
    limits: BestLimits,
) -> Result<Solved<P::Option>, BestError> {
    solve(p, reward, dominance, limits, true)
}

/// [`best`] or, with `opposed`, [`duel`]: over one graph of the repeating
/// rounds when the mechanic says where they repeat, else round by round.
fn solve<P: Choose>(
    p: &P,
    reward: &dyn Fn(&[i64]) -> f64,
    dominance: bool,
    limits: BestLimits,
    opposed: bool,
) -> Result<Solved<P::Option>, BestError> {
    match p.repeats() {
        Some(r) => graph::solve(p, r, reward, dominance, limits, opposed),
        None => layered::solve(p, reward, dominance, limits, opposed),
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
    /// In a duel: one-sided best play's value, and the opposing side's
    /// options and visits as `options` and `table`.
    one_sided: Option<f64>,
    opposing_options: Vec<O>,
    opposing_table: BTreeMap<(Vec<i64>, usize), f64>,
    states: usize,
    rounds: usize,
}

/// Each option's share of the decisions in `table`.
fn shares(table: &BTreeMap<(Vec<i64>, usize), f64>, options: usize) -> Vec<f64> {
    let visits: f64 = table.values().sum();
    let mut usage = vec![0.0; options];
    for ((_, o), v) in table {
        // Visits are sums of probabilities: never negative, but a
        // rounding may leave -0.0, which prints as "-0.0%".
        usage[*o] += (v / visits.max(f64::MIN_POSITIVE)).max(0.0);
    }
    usage
}

/// Rows of a table of visits.
fn rows(table: BTreeMap<(Vec<i64>, usize), f64>) -> Vec<Decision> {
    table
        .into_iter()
        .map(|((features, option), visits)| Decision {
            features,
            option,
            visits,
        })
        .collect()
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
    (every, theirs): (&[P::Option], &[P::Option]),
    mut without: impl FnMut(&[&Allowed<'_, P::Option>], Side) -> Result<Vec<f64>, BestError>,
) -> Result<Solved<P::Option>, BestError> {
    let Raw {
        value,
        given,
        replayed,
        options,
        table,
        one_sided,
        opposing_options,
        opposing_table,
        states,
        rounds,
    } = raw;
    let visits: f64 = table.values().sum();
    let usage = shares(&table, options.len());
    let decisions = rows(table);
    let mut dominance_rows = Vec::new();
    let mut opposing_rows = Vec::new();
    if dominance {
        // The deciding side's tags, then (in a duel) the opposing side's.
        let sides = [
            (every, &options, &usage, Side::Max),
            (
                theirs,
                &opposing_options,
                &shares(&opposing_table, opposing_options.len()),
                Side::Min,
            ),
        ];
        for (menu, taken, usage, side) in sides {
            if side == Side::Min && (one_sided.is_none() || menu.is_empty()) {
                continue;
            }
            let mut tags: Vec<String> = Vec::new();
            for o in menu {
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
            let values = without(&allowed, side)?;
            for (tag, without) in tags.iter().cloned().zip(values) {
                let used: f64 = taken
                    .iter()
                    .zip(usage.iter())
                    .filter(|(o, _)| p.tags(o).contains(&tag))
                    .map(|(_, u)| u)
                    .sum();
                // What forbidding it costs its side: less for the
                // maximiser, more for the minimiser.
                let loss = match side {
                    Side::Min => without - value,
                    _ => value - without,
                };
                let row = Dominance {
                    loss: loss.max(0.0),
                    tag,
                    without,
                    // An empty sum is -0.0, which prints as "-0.0%".
                    usage: used + 0.0,
                };
                match side {
                    Side::Min => opposing_rows.push(row),
                    _ => dominance_rows.push(row),
                }
            }
        }
    }
    Ok(Solved {
        value,
        given,
        replayed,
        options,
        features: p.feature_names(),
        decisions,
        one_sided,
        opposing_options,
        opposing: rows(opposing_table),
        usage,
        dominance: dominance_rows,
        opposing_dominance: opposing_rows,
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
    /// language can say them (in a duel: both sides', when it can say
    /// both).
    pub written: Option<Vec<(String, crate::model::ParamValue)>>,
    /// In a duel: the opposing side's best policy as rules (options
    /// index `solved.opposing_options`); empty otherwise.
    pub opposing_rules: Vec<RuleBox>,
}

/// A [`Choose`] mechanic with its types erased.
pub trait Solve: Sync {
    fn play(
        &self,
        reward: &dyn Fn(&[i64]) -> f64,
        dominance: bool,
        limits: BestLimits,
    ) -> Result<Played, BestError>;

    /// Best play for both sides ([`duel`]).
    fn play_duel(
        &self,
        reward: &dyn Fn(&[i64]) -> f64,
        dominance: bool,
        limits: BestLimits,
    ) -> Result<Played, BestError>;
}

/// The typed rules of `boxes` over `options`.
fn typed<O: Clone>(boxes: &[RuleBox], options: &[O]) -> Vec<crate::model::RuleOf<O>> {
    boxes
        .iter()
        .map(|b| (b.ranges.clone(), options[b.option].clone()))
        .collect()
}

impl<P: Choose> Solve for P {
    fn play(
        &self,
        reward: &dyn Fn(&[i64]) -> f64,
        dominance: bool,
        limits: BestLimits,
    ) -> Result<Played, BestError> {
        words(self, best(self, reward, dominance, limits)?, reward)
    }

    fn play_duel(
        &self,
        reward: &dyn Fn(&[i64]) -> f64,
        dominance: bool,
        limits: BestLimits,
    ) -> Result<Played, BestError> {
        words(self, duel(self, reward, dominance, limits)?, reward)
    }
}

/// A solve with its options as words and its policies written out.
fn words<P: Choose>(
    p: &P,
    solved: Solved<P::Option>,
    reward: &dyn Fn(&[i64]) -> f64,
) -> Result<Played, BestError> {
    let rules = group(&solved.decisions, solved.features.len());
    let written = p.write_for(&typed(&rules, &solved.options), reward);
    let opposing_rules = group(&solved.opposing, solved.features.len());
    // Both sides' policies or none: the deciding side's alone would
    // replay against the opposing side's given policy, not its best.
    let written = match (written, solved.one_sided.is_some()) {
        (w, false) => w,
        (Some(mut w), true) => p
            .write_opposing(&typed(&opposing_rules, &solved.opposing_options))
            .map(|b| {
                w.extend(b);
                w
            }),
        (None, true) => None,
    };
    let Solved {
        value,
        given,
        replayed,
        options,
        features,
        decisions,
        one_sided,
        opposing_options,
        opposing,
        usage,
        dominance,
        opposing_dominance,
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
            one_sided,
            opposing_options: opposing_options.iter().map(ToString::to_string).collect(),
            opposing,
            usage,
            dominance,
            opposing_dominance,
            visits,
            states,
            rounds,
        },
        rules,
        written,
        opposing_rules,
    })
}
