//! Test helpers every mechanic's best play uses: its graph over
//! repeating rounds against the round-by-round reference
//! ([`graph_is_layered`]), and best play against the brute-force
//! enumeration of every deterministic policy ([`best_is_brute_force`]).

use std::collections::{BTreeMap, BTreeSet};

use super::{BestLimits, Solved, graph, layered};
use crate::model::{After, Choose};

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

/// Every (round, state) where `p` decides, under some choices, in order.
fn decision_points<P: Choose>(p: &P) -> Vec<(usize, P::State)> {
    let mut seen = BTreeSet::new();
    let mut points = Vec::new();
    let mut stack = vec![(1, p.start())];
    let (mut opts, mut law) = (Vec::new(), Vec::new());
    while let Some((round, s)) = stack.pop() {
        if !seen.insert((round, s.clone())) {
            continue;
        }
        opts.clear();
        p.options(round, &s, &mut opts);
        law.clear();
        if opts.is_empty() {
            p.law(round, &s, None, &mut law);
        } else {
            points.push((round, s.clone()));
            for o in &opts {
                p.law(round, &s, Some(o), &mut law);
            }
        }
        for (roll, _) in &law {
            match p.after(round, &s, roll) {
                After::Roll(n) => stack.push((round, n)),
                After::Round(n) => stack.push((round + 1, n)),
                After::End(_) => {}
            }
        }
    }
    points.sort();
    points
}

/// `P` played by a fixed table of choices, one per decision point: its
/// given policy is that table.
struct Fixed<'a, P: Choose> {
    p: &'a P,
    table: BTreeMap<(usize, P::State), P::Option>,
}

impl<P: Choose> Choose for Fixed<'_, P>
where
    P::State: Sync,
    P::Option: Sync,
{
    type State = P::State;
    type Roll = P::Roll;
    type Outcome = P::Outcome;
    type Option = P::Option;

    fn start(&self) -> P::State {
        self.p.start()
    }

    fn options(&self, _: usize, _: &P::State, _: &mut Vec<P::Option>) {}

    fn law(
        &self,
        round: usize,
        s: &P::State,
        _: Option<&P::Option>,
        out: &mut Vec<(P::Roll, f64)>,
    ) {
        let o = self.table.get(&(round, s.clone()));
        self.p.law(round, s, o, out);
    }

    fn after(&self, round: usize, s: &P::State, r: &P::Roll) -> After<P::State, P::Outcome> {
        self.p.after(round, s, r)
    }

    fn feature_names(&self) -> Vec<&'static str> {
        Vec::new()
    }

    fn features(&self, _: usize, _: &P::State, _: &mut Vec<i64>) {}

    fn tags(&self, _: &P::Option) -> Vec<String> {
        Vec::new()
    }
}

/// The value of every deterministic policy of `p` (one option per
/// decision point), at most `most` of them.
pub fn every_policy<P: Choose>(p: &P, reward: &dyn Fn(&[i64]) -> f64, most: usize) -> Vec<f64>
where
    P::State: Sync,
    P::Option: Sync,
{
    let points = decision_points(p);
    let opts: Vec<Vec<P::Option>> = points
        .iter()
        .map(|(r, s)| {
            let mut o = Vec::new();
            p.options(*r, s, &mut o);
            o
        })
        .collect();
    let total = opts
        .iter()
        .try_fold(1usize, |n, o| n.checked_mul(o.len()))
        .filter(|&n| n <= most);
    let total = total.unwrap_or_else(|| panic!("more than {most} policies"));
    (0..total)
        .map(|mut k| {
            let mut table = BTreeMap::new();
            for (point, o) in points.iter().zip(&opts) {
                table.insert(point.clone(), o[k % o.len()].clone());
                k /= o.len();
            }
            let fixed = Fixed { p, table };
            layered::solve(&fixed, reward, false, BestLimits::default())
                .unwrap()
                .given
        })
        .collect()
}

/// Best play is the best of every deterministic policy (brute force, at
/// most `most` policies), to `1e-12`, and the given policy is no better.
/// Returns how many policies there were.
pub fn best_is_brute_force<P: Choose>(
    p: &P,
    reward: &dyn Fn(&[i64]) -> f64,
    most: usize,
    what: &str,
) -> usize
where
    P::State: Sync,
    P::Option: Sync,
{
    let all = every_policy(p, reward, most);
    let top = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let solved: Solved<P::Option> = super::best(p, reward, true, BestLimits::default()).unwrap();
    assert!(
        (solved.value - top).abs() < 1e-12,
        "{what}: best {} vs brute force {top}",
        solved.value
    );
    assert!((solved.replayed - solved.value).abs() < 1e-12, "{what}");
    assert!(solved.given <= solved.value + 1e-12, "{what}");
    all.len()
}
