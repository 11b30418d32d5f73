//! Test helpers every mechanic's best play uses: its graph over
//! repeating rounds against the round-by-round reference
//! ([`graph_is_layered`]), and brute force over every deterministic
//! policy ([`every_policy`], from a chosen state with [`From`]).

use std::collections::{BTreeMap, BTreeSet};

use super::{BestLimits, Solved, graph, layered};
use crate::model::{After, Choose, RuleOf};

/// Best play over the repeating graph equals best play round by round,
/// to `1e-9`: values, the given policy, dominance and the decisions.
pub fn graph_is_layered<P: Choose>(p: &P, reward: &dyn Fn(&[i64]) -> f64, what: &str)
where
    P::Option: std::fmt::Debug,
{
    let rep = p.repeats().expect("the rounds repeat");
    let limits = BestLimits::default();
    let fast: Solved<P::Option> = graph::solve(p, rep, reward, true, limits).unwrap();
    let slow: Solved<P::Option> = layered::solve(p, reward, true, limits).unwrap();
    let close = |a: f64, b: f64, name: &str| {
        assert!((a - b).abs() < 1e-9, "{what}: {name} {a} vs {b}");
    };
    close(fast.value, slow.value, "value");
    close(fast.given, slow.given, "given");
    close(fast.replayed, slow.replayed, "replayed");
    close(fast.replayed, fast.value, "replayed vs value");
    close(fast.visits, slow.visits, "visits");
    assert_eq!(fast.rounds, slow.rounds, "{what}: rounds");
    assert_eq!(fast.dominance.len(), slow.dominance.len(), "{what}");
    for a in &fast.dominance {
        let b = slow
            .dominance
            .iter()
            .find(|b| b.tag == a.tag)
            .expect("a tag");
        close(a.without, b.without, &a.tag);
        close(a.usage, b.usage, &a.tag);
    }
    // The same visits per (situation, option), whatever the order the
    // options were met in.
    let table = |s: &Solved<P::Option>| {
        let mut t: Vec<(Vec<i64>, String, f64)> = s
            .decisions
            .iter()
            .map(|d| {
                (
                    d.features.clone(),
                    format!("{:?}", s.options[d.option]),
                    d.visits,
                )
            })
            .collect();
        t.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        t
    };
    let (a, b) = (table(&fast), table(&slow));
    assert_eq!(a.len(), b.len(), "{what}: decisions");
    for (x, y) in a.iter().zip(&b) {
        assert_eq!((&x.0, &x.1), (&y.0, &y.1), "{what}");
        close(x.2, y.2, "visits");
    }
}

/// A mechanic's decision process started from `.1` instead of its own
/// start (a small case: one roll as it came).
pub struct From<'a, P: Choose>(pub &'a P, pub P::State);

impl<P: Choose> Choose for From<'_, P>
where
    P::State: Sync,
{
    type State = P::State;
    type Roll = P::Roll;
    type Outcome = P::Outcome;
    type Option = P::Option;

    fn start(&self) -> P::State {
        self.1.clone()
    }
    fn options(&self, round: usize, s: &P::State, out: &mut Vec<P::Option>) {
        self.0.options(round, s, out)
    }
    fn law(
        &self,
        round: usize,
        s: &P::State,
        o: Option<&P::Option>,
        out: &mut Vec<(P::Roll, f64)>,
    ) {
        self.0.law(round, s, o, out)
    }
    fn after(&self, round: usize, s: &P::State, r: &P::Roll) -> After<P::State, P::Outcome> {
        self.0.after(round, s, r)
    }
    fn feature_names(&self) -> Vec<&'static str> {
        self.0.feature_names()
    }
    fn features(&self, round: usize, s: &P::State, out: &mut Vec<i64>) {
        self.0.features(round, s, out)
    }
    fn tags(&self, o: &P::Option) -> Vec<String> {
        self.0.tags(o)
    }
    fn write(
        &self,
        rules: &[RuleOf<P::Option>],
    ) -> Option<Vec<(String, crate::model::ParamValue)>> {
        self.0.write(rules)
    }
}

/// Every (round, state) where `p` decides, under some choices.
fn decisions<P: Choose>(p: &P) -> BTreeSet<(usize, P::State)> {
    let mut out = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut stack = vec![(1, p.start())];
    let (mut opts, mut law) = (Vec::new(), Vec::new());
    while let Some((round, s)) = stack.pop() {
        if !seen.insert((round, s.clone())) {
            continue;
        }
        opts.clear();
        p.options(round, &s, &mut opts);
        if !opts.is_empty() {
            out.insert((round, s.clone()));
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
                if *q == 0.0 {
                    continue;
                }
                match p.after(round, &s, roll) {
                    After::Roll(n) => stack.push((round, n)),
                    After::Round(n) => stack.push((round + 1, n)),
                    After::End(_) => {}
                }
            }
        }
    }
    out
}

/// The metric of `p` played by `table` from `(round, s)`, walking every
/// path of rolls.
fn walk<P: Choose>(
    p: &P,
    table: &BTreeMap<(usize, P::State), P::Option>,
    reward: &dyn Fn(&[i64]) -> f64,
    round: usize,
    s: &P::State,
) -> f64 {
    let mut law = Vec::new();
    p.law(round, s, table.get(&(round, s.clone())), &mut law);
    law.iter()
        .filter(|(_, q)| *q > 0.0)
        .map(|(roll, q)| {
            q * match p.after(round, s, roll) {
                After::Roll(n) => walk(p, table, reward, round, &n),
                After::Round(n) => walk(p, table, reward, round + 1, &n),
                After::End(o) => reward(o.as_ref()),
            }
        })
        .sum()
}

/// The value of every deterministic policy of `p` (one option per
/// decision met, by (round, state)), each by walking every path; at most
/// `limit` policies.
pub fn every_policy<P: Choose>(p: &P, reward: &dyn Fn(&[i64]) -> f64, limit: usize) -> Vec<f64> {
    let points: Vec<(usize, P::State)> = decisions(p).into_iter().collect();
    let opts: Vec<Vec<P::Option>> = points
        .iter()
        .map(|(r, s)| {
            let mut o = Vec::new();
            p.options(*r, s, &mut o);
            o
        })
        .collect();
    let total: usize = opts.iter().map(Vec::len).product();
    assert!(total <= limit, "{total} policies");
    (0..total)
        .map(|mut k| {
            let mut table = BTreeMap::new();
            for (point, o) in points.iter().zip(&opts) {
                table.insert(point.clone(), o[k % o.len()].clone());
                k /= o.len();
            }
            walk(p, &table, reward, 1, &p.start())
        })
        .collect()
}

/// Best play equals the best of every deterministic policy (to `1e-12`),
/// and its value summed forward agrees (at most `most` policies); returns
/// how many policies there were.
pub fn best_is_brute_force<P: Choose>(
    p: &P,
    reward: &dyn Fn(&[i64]) -> f64,
    most: usize,
    what: &str,
) -> usize {
    let all = every_policy(p, reward, most);
    let top = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let solved = super::best(p, reward, false, BestLimits::default()).unwrap();
    assert!(
        (solved.value - top).abs() < 1e-12,
        "{what}: best {} vs brute force {top}",
        solved.value
    );
    assert!((solved.replayed - solved.value).abs() < 1e-12, "{what}");
    assert!(solved.given <= solved.value + 1e-12, "{what}");
    all.len()
}
