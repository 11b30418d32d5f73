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

pub mod rules;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashMap};

use foldhash::fast::FixedState;

use crate::model::{After, Choose};

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
/// `dominance` is set.
pub fn best<P: Choose>(
    p: &P,
    reward: &dyn Fn(&[i64]) -> f64,
    dominance: bool,
    limits: BestLimits,
) -> Result<Solved<P::Option>, BestError> {
    let layers = reach(p, limits)?;
    let all = |_: &P::Option| true;
    let values = backward(p, &layers, reward, Play::Best(&all));
    let given = backward(p, &layers, reward, Play::Given);
    let value = values[0][0];
    let mut options: Vec<P::Option> = Vec::new();
    let mut table: BTreeMap<(Vec<i64>, usize), f64> = BTreeMap::new();
    let replayed = forward(p, &layers, &values, reward, &mut options, &mut table);
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
        for o in all_options(p, &layers) {
            for t in p.tags(&o) {
                if !tags.contains(&t) {
                    tags.push(t);
                }
            }
        }
        for tag in tags {
            let forbid = |o: &P::Option| !p.tags(o).contains(&tag);
            let without = backward(p, &layers, reward, Play::Best(&forbid))[0][0];
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
        given: given[0][0],
        replayed,
        options,
        features: p.feature_names(),
        decisions,
        usage,
        dominance: dominance_rows,
        visits,
        states: layers.iter().map(Vec::len).sum(),
        rounds: layers.len(),
    })
}

/// The states between rounds reachable under some choice of options,
/// one sorted layer per round (layer 0: round 1, the start alone).
pub fn reach<P: Choose>(p: &P, limits: BestLimits) -> Result<Vec<Vec<P::State>>, BestError> {
    let mut layers = vec![vec![p.start()]];
    let mut opts = Vec::new();
    let mut law = Vec::new();
    loop {
        let round = layers.len();
        let mut seen: HashMap<P::State, (), FixedState> = HashMap::default();
        let mut next: HashMap<P::State, (), FixedState> = HashMap::default();
        let mut stack: Vec<P::State> = layers[round - 1].clone();
        while let Some(s) = stack.pop() {
            opts.clear();
            p.options(round, &s, &mut opts);
            let choices: Vec<Option<&P::Option>> = if opts.is_empty() {
                vec![None]
            } else {
                opts.iter().map(Some).collect()
            };
            for o in choices {
                law.clear();
                p.law(round, &s, o, &mut law);
                for (roll, q) in &law {
                    if *q == 0.0 {
                        continue;
                    }
                    match p.after(round, &s, roll) {
                        After::Roll(n) => {
                            if seen.insert(n.clone(), ()).is_none() {
                                stack.push(n);
                            }
                        }
                        After::Round(n) => {
                            next.insert(n, ());
                        }
                        After::End(_) => {}
                    }
                }
            }
        }
        if next.is_empty() {
            return Ok(layers);
        }
        if next.len() > limits.max_states {
            return Err(BestError::States(limits.max_states));
        }
        if layers.len() >= limits.max_rounds {
            return Err(BestError::Rounds(limits.max_rounds));
        }
        let mut layer: Vec<P::State> = next.into_keys().collect();
        layer.sort_unstable();
        layers.push(layer);
    }
}

/// Every option open at some reachable decision, in the order met.
fn all_options<P: Choose>(p: &P, layers: &[Vec<P::State>]) -> Vec<P::Option> {
    let mut out: Vec<P::Option> = Vec::new();
    let mut opts = Vec::new();
    let mut law = Vec::new();
    for (r, layer) in layers.iter().enumerate() {
        let round = r + 1;
        let mut seen: HashMap<P::State, (), FixedState> = HashMap::default();
        let mut stack = layer.clone();
        while let Some(s) = stack.pop() {
            opts.clear();
            p.options(round, &s, &mut opts);
            for o in &opts {
                if !out.contains(o) {
                    out.push(o.clone());
                }
            }
            let choices: Vec<Option<&P::Option>> = if opts.is_empty() {
                vec![None]
            } else {
                opts.iter().map(Some).collect()
            };
            for o in choices {
                law.clear();
                p.law(round, &s, o, &mut law);
                for (roll, q) in &law {
                    if *q > 0.0
                        && let After::Roll(n) = p.after(round, &s, roll)
                        && seen.insert(n.clone(), ()).is_none()
                    {
                        stack.push(n);
                    }
                }
            }
        }
    }
    out
}

/// Each layer's values under `play`, aligned with the layer's states.
fn backward<P: Choose>(
    p: &P,
    layers: &[Vec<P::State>],
    reward: &dyn Fn(&[i64]) -> f64,
    play: Play<'_, P::Option>,
) -> Vec<Vec<f64>> {
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); layers.len()];
    for r in (0..layers.len()).rev() {
        let (now, later) = values.split_at_mut(r + 1);
        let next = layers
            .get(r + 1)
            .map(|l| (&l[..], &later.first().expect("a layer")[..]));
        let mut round = Round::new(p, r + 1, next, reward, play);
        now[r] = layers[r].iter().map(|s| round.value(s)).collect();
    }
    values
}

/// Push the trial's probability forward under the best choices, noting
/// each decision met; returns the metric summed from the outcomes.
fn forward<P: Choose>(
    p: &P,
    layers: &[Vec<P::State>],
    values: &[Vec<f64>],
    reward: &dyn Fn(&[i64]) -> f64,
    options: &mut Vec<P::Option>,
    table: &mut BTreeMap<(Vec<i64>, usize), f64>,
) -> f64 {
    let all = |_: &P::Option| true;
    let mut mass = vec![1.0];
    let mut total = 0.0;
    for r in 0..layers.len() {
        let next = layers.get(r + 1).map(|l| (&l[..], &values[r + 1][..]));
        let mut round = Round::new(p, r + 1, next, reward, Play::Best(&all));
        let mut next_mass = vec![0.0; layers.get(r + 1).map_or(0, Vec::len)];
        for (s, &m) in layers[r].iter().zip(&mass) {
            if m > 0.0 {
                total += round.push(s, m, &mut next_mass, options, table);
            }
        }
        mass = next_mass;
    }
    total
}

/// One round's values, memoised over its rolls.
struct Round<'a, P: Choose> {
    p: &'a P,
    round: usize,
    /// The next round's layer and its values.
    next: Option<(&'a [P::State], &'a [f64])>,
    reward: &'a dyn Fn(&[i64]) -> f64,
    play: Play<'a, P::Option>,
    memo: HashMap<P::State, f64, FixedState>,
}

impl<'a, P: Choose> Round<'a, P> {
    fn new(
        p: &'a P,
        round: usize,
        next: Option<(&'a [P::State], &'a [f64])>,
        reward: &'a dyn Fn(&[i64]) -> f64,
        play: Play<'a, P::Option>,
    ) -> Self {
        Round {
            p,
            round,
            next,
            reward,
            play,
            memo: HashMap::default(),
        }
    }

    /// Where a state between rounds sits in the next layer.
    fn index(&self, s: &P::State) -> usize {
        let (layer, _) = self.next.expect("a next round was reached");
        layer
            .binary_search(s)
            .expect("every state of the next round was reached")
    }

    fn value(&mut self, s: &P::State) -> f64 {
        if let Some(&v) = self.memo.get(s) {
            return v;
        }
        let v = match self.decide(s) {
            Some((_, _, v)) => v,
            None => self.expect(s, None),
        };
        self.memo.insert(s.clone(), v);
        v
    }

    /// At a decision under [`Play::Best`]: the options, the best one's
    /// index and its value; `None` elsewhere.
    fn decide(&mut self, s: &P::State) -> Option<(Vec<P::Option>, usize, f64)> {
        let Play::Best(allowed) = self.play else {
            return None;
        };
        let mut opts = Vec::new();
        self.p.options(self.round, s, &mut opts);
        if opts.is_empty() {
            return None;
        }
        let open: Vec<usize> = {
            let some: Vec<usize> = (0..opts.len()).filter(|&i| allowed(&opts[i])).collect();
            if some.is_empty() {
                (0..opts.len()).collect()
            } else {
                some
            }
        };
        let vals: Vec<f64> = open
            .iter()
            .map(|&i| self.expect(s, Some(&opts[i])))
            .collect();
        let top = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let eps = 1e-12 * top.abs().max(1.0);
        let k = vals
            .iter()
            .position(|&v| v >= top - eps)
            .expect("an option");
        Some((opts, open[k], top))
    }

    fn expect(&mut self, s: &P::State, o: Option<&P::Option>) -> f64 {
        let mut law = Vec::new();
        self.p.law(self.round, s, o, &mut law);
        let mut v = 0.0;
        for (roll, q) in &law {
            if *q == 0.0 {
                continue;
            }
            let x = match self.p.after(self.round, s, roll) {
                After::Roll(n) => self.value(&n),
                After::Round(n) => {
                    let i = self.index(&n);
                    self.next.expect("a next round").1[i]
                }
                After::End(out) => (self.reward)(out.as_ref()),
            };
            v += q * x;
        }
        v
    }

    /// Push mass `m` from `s` through the round under the best choices;
    /// returns the metric's share of the trials that end in it.
    fn push(
        &mut self,
        s: &P::State,
        m: f64,
        next_mass: &mut [f64],
        options: &mut Vec<P::Option>,
        table: &mut BTreeMap<(Vec<i64>, usize), f64>,
    ) -> f64 {
        let choice = self.decide(s).map(|(opts, k, _)| opts[k].clone());
        if let Some(o) = &choice {
            let id = match options.iter().position(|x| x == o) {
                Some(i) => i,
                None => {
                    options.push(o.clone());
                    options.len() - 1
                }
            };
            let mut f = Vec::new();
            self.p.features(self.round, s, &mut f);
            *table.entry((f, id)).or_insert(0.0) += m;
        }
        let mut law = Vec::new();
        self.p.law(self.round, s, choice.as_ref(), &mut law);
        let mut total = 0.0;
        for (roll, q) in &law {
            if *q == 0.0 {
                continue;
            }
            match self.p.after(self.round, s, roll) {
                After::Roll(n) => total += self.push(&n, m * q, next_mass, options, table),
                After::Round(n) => next_mass[self.index(&n)] += m * q,
                After::End(out) => total += m * q * (self.reward)(out.as_ref()),
            }
        }
        total
    }
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
        let written = self.write(&typed);
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
