//! Best play round by round: every round's reachable states explored
//! on their own and its values memoised over its rolls. The way for a
//! mechanic whose rounds do not repeat ([`Choose::repeats`] is `None`),
//! and the reference the repeating graph (`graph`) is tested against.

use std::collections::{BTreeMap, HashMap};

use foldhash::fast::FixedState;

use super::{BestError, BestLimits, Play, Raw, Side, Solved, assemble, go_on, menu};
use crate::model::{After, Choose};

/// Best play round by round; for both sides when `both` (a duel, see
/// [`super::duel`]).
pub fn solve<P: Choose>(
    p: &P,
    reward: &dyn Fn(&[i64]) -> f64,
    dominance: bool,
    limits: BestLimits,
    both: bool,
) -> Result<Solved<P::Option>, BestError> {
    let layers = reach_sides(p, both, limits)?;
    let all = |_: &P::Option| true;
    let values = backward(p, &layers, reward, Play::Best(&all), both)?;
    let given = backward(p, &layers, reward, Play::Given, false)?;
    let one_sided = if both {
        Some(backward(p, &layers, reward, Play::Best(&all), false)?[0][0])
    } else {
        None
    };
    let mut tables = Tables::default();
    let replayed = forward(p, &layers, &values, reward, both, &mut tables);
    let raw = Raw {
        value: values[0][0],
        given: given[0][0],
        replayed,
        options: tables.options,
        table: tables.table,
        one_sided,
        opposing_options: tables.opposing_options,
        opposing_table: tables.opposing_table,
        states: layers.iter().map(Vec::len).sum(),
        rounds: layers.len(),
    };
    let every = if dominance {
        all_options(p, &layers, both)
    } else {
        Vec::new()
    };
    let theirs = if dominance && both {
        opposing_options(p, &layers)
    } else {
        Vec::new()
    };
    assemble(p, raw, dominance, (&every, &theirs), |sets, side| {
        sets.iter()
            .map(|allowed| {
                let play = match side {
                    Side::Min => Play::Against(*allowed),
                    _ => Play::Best(*allowed),
                };
                Ok(backward(p, &layers, reward, play, both)?[0][0])
            })
            .collect()
    })
}

/// The states between rounds reachable under some choice of options,
/// one sorted layer per round (layer 0: round 1, the start alone).
pub fn reach<P: Choose>(p: &P, limits: BestLimits) -> Result<Vec<Vec<P::State>>, BestError> {
    reach_sides(p, false, limits)
}

/// As [`reach`], with the opposing side's options too when `both`.
fn reach_sides<P: Choose>(
    p: &P,
    both: bool,
    limits: BestLimits,
) -> Result<Vec<Vec<P::State>>, BestError> {
    let mut layers = vec![vec![p.start()]];
    let mut opts = Vec::new();
    let mut law = Vec::new();
    loop {
        let round = layers.len();
        go_on(round, layers[round - 1].len())?;
        let mut seen: HashMap<P::State, (), FixedState> = HashMap::default();
        let mut next: HashMap<P::State, (), FixedState> = HashMap::default();
        let mut stack: Vec<P::State> = layers[round - 1].clone();
        while let Some(s) = stack.pop() {
            menu(p, both, round, &s, &mut opts);
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

/// Every option open to the deciding side at some reachable decision, in
/// the order met.
fn all_options<P: Choose>(p: &P, layers: &[Vec<P::State>], both: bool) -> Vec<P::Option> {
    side_options(p, layers, both, Side::Max)
}

/// Every option open to the opposing side at some reachable decision of
/// a duel, in the order met.
fn opposing_options<P: Choose>(p: &P, layers: &[Vec<P::State>]) -> Vec<P::Option> {
    side_options(p, layers, true, Side::Min)
}

/// Every option open to `side` at some reachable decision, in the order
/// met.
fn side_options<P: Choose>(
    p: &P,
    layers: &[Vec<P::State>],
    both: bool,
    side: Side,
) -> Vec<P::Option> {
    let mut out: Vec<P::Option> = Vec::new();
    let mut opts = Vec::new();
    let mut law = Vec::new();
    for (r, layer) in layers.iter().enumerate() {
        let round = r + 1;
        let mut seen: HashMap<P::State, (), FixedState> = HashMap::default();
        let mut stack = layer.clone();
        while let Some(s) = stack.pop() {
            if menu(p, both, round, &s, &mut opts) == side {
                for o in &opts {
                    if !out.contains(o) {
                        out.push(o.clone());
                    }
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

/// Each layer's values under `play` (and, when `both`, the opposing
/// side's best at its decisions), aligned with the layer's states.
fn backward<P: Choose>(
    p: &P,
    layers: &[Vec<P::State>],
    reward: &dyn Fn(&[i64]) -> f64,
    play: Play<'_, P::Option>,
    both: bool,
) -> Result<Vec<Vec<f64>>, BestError> {
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); layers.len()];
    for r in (0..layers.len()).rev() {
        go_on(r + 1, layers[r].len())?;
        let (now, later) = values.split_at_mut(r + 1);
        let next = layers
            .get(r + 1)
            .map(|l| (&l[..], &later.first().expect("a layer")[..]));
        let mut round = Round::new(p, r + 1, next, reward, play, both);
        now[r] = layers[r].iter().map(|s| round.value(s)).collect();
    }
    Ok(values)
}

/// The options each side's best play takes, in the order met, and the
/// visits per (what the side sees, index into them).
struct Tables<O> {
    options: Vec<O>,
    table: BTreeMap<(Vec<i64>, usize), f64>,
    opposing_options: Vec<O>,
    opposing_table: BTreeMap<(Vec<i64>, usize), f64>,
}

// By hand: a derive would ask `O: Default`.
impl<O> Default for Tables<O> {
    fn default() -> Self {
        Tables {
            options: Vec::new(),
            table: BTreeMap::new(),
            opposing_options: Vec::new(),
            opposing_table: BTreeMap::new(),
        }
    }
}

/// Push the trial's probability forward under the best choices (both
/// sides' when `both`), noting each decision met; returns the metric
/// summed from the outcomes.
fn forward<P: Choose>(
    p: &P,
    layers: &[Vec<P::State>],
    values: &[Vec<f64>],
    reward: &dyn Fn(&[i64]) -> f64,
    both: bool,
    tables: &mut Tables<P::Option>,
) -> f64 {
    let all = |_: &P::Option| true;
    let mut mass = vec![1.0];
    let mut total = 0.0;
    for r in 0..layers.len() {
        let next = layers.get(r + 1).map(|l| (&l[..], &values[r + 1][..]));
        let mut round = Round::new(p, r + 1, next, reward, Play::Best(&all), both);
        let mut next_mass = vec![0.0; layers.get(r + 1).map_or(0, Vec::len)];
        for (s, &m) in layers[r].iter().zip(&mass) {
            if m > 0.0 {
                total += round.push(s, m, &mut next_mass, tables);
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
    /// Whether the opposing side plays best at its decisions.
    both: bool,
    memo: HashMap<P::State, f64, FixedState>,
}

impl<'a, P: Choose> Round<'a, P> {
    fn new(
        p: &'a P,
        round: usize,
        next: Option<(&'a [P::State], &'a [f64])>,
        reward: &'a dyn Fn(&[i64]) -> f64,
        play: Play<'a, P::Option>,
        both: bool,
    ) -> Self {
        Round {
            p,
            round,
            next,
            reward,
            play,
            both,
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
            Some((_, _, v, _)) => v,
            None => self.expect(s, None),
        };
        self.memo.insert(s.clone(), v);
        v
    }

    /// At a decision under [`Play::Best`]: the options, the best one's
    /// index, its value and whose decision it is; `None` elsewhere.
    fn decide(&mut self, s: &P::State) -> Option<(Vec<P::Option>, usize, f64, Side)> {
        let every: &dyn Fn(&P::Option) -> bool = &|_| true;
        // Each side's allowed options (all, at the opposing side's
        // decisions, unless dominance forbids some of them).
        let (allowed, theirs) = match self.play {
            Play::Best(a) => (a, None),
            Play::Against(b) => (every, Some(b)),
            Play::Given => return None,
        };
        let mut opts = Vec::new();
        // The options `allowed` leaves open (all, when it leaves none).
        let open = |opts: &[P::Option], allowed: &dyn Fn(&P::Option) -> bool| {
            let some: Vec<usize> = (0..opts.len()).filter(|&i| allowed(&opts[i])).collect();
            if some.is_empty() {
                (0..opts.len()).collect()
            } else {
                some
            }
        };
        match menu(self.p, self.both, self.round, s, &mut opts) {
            Side::Nobody => return None,
            Side::Max => {}
            Side::Min => {
                // The opposing side: the least value of its options.
                let open: Vec<usize> = match theirs {
                    None => (0..opts.len()).collect(),
                    Some(t) => open(&opts, t),
                };
                let vals: Vec<f64> = open
                    .iter()
                    .map(|&i| self.expect(s, Some(&opts[i])))
                    .collect();
                let low = vals.iter().copied().fold(f64::INFINITY, f64::min);
                let eps = 1e-12 * low.abs().max(1.0);
                let k = vals
                    .iter()
                    .position(|&v| v <= low + eps)
                    .expect("an option");
                return Some((opts, open[k], low, Side::Min));
            }
        }
        let open: Vec<usize> = open(&opts, allowed);
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
        Some((opts, open[k], top, Side::Max))
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
        tables: &mut Tables<P::Option>,
    ) -> f64 {
        let decided = self
            .decide(s)
            .map(|(opts, k, _, side)| (opts[k].clone(), side));
        if let Some((o, side)) = &decided {
            let mut f = Vec::new();
            let (options, table) = if *side == Side::Min {
                self.p.opposing_features(self.round, s, &mut f);
                (&mut tables.opposing_options, &mut tables.opposing_table)
            } else {
                self.p.features(self.round, s, &mut f);
                (&mut tables.options, &mut tables.table)
            };
            let id = match options.iter().position(|x| x == o) {
                Some(i) => i,
                None => {
                    options.push(o.clone());
                    options.len() - 1
                }
            };
            *table.entry((f, id)).or_insert(0.0) += m;
        }
        let choice = decided.map(|(o, _)| o);
        let mut law = Vec::new();
        self.p.law(self.round, s, choice.as_ref(), &mut law);
        let mut total = 0.0;
        for (roll, q) in &law {
            if *q == 0.0 {
                continue;
            }
            match self.p.after(self.round, s, roll) {
                After::Roll(n) => total += self.push(&n, m * q, next_mass, tables),
                After::Round(n) => next_mass[self.index(&n)] += m * q,
                After::End(out) => total += m * q * (self.reward)(out.as_ref()),
            }
        }
        total
    }
}
