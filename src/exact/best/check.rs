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
    sides_agree(p, reward, false, what);
}

/// As [`graph_is_layered`], for both sides' best play (a duel): also
/// the one-sided value and the opposing side's decisions.
pub fn duel_graph_is_layered<P: Choose>(p: &P, reward: &dyn Fn(&[i64]) -> f64, what: &str)
where
    P::Option: std::fmt::Debug,
{
    sides_agree(p, reward, true, what);
}

fn sides_agree<P: Choose>(p: &P, reward: &dyn Fn(&[i64]) -> f64, both: bool, what: &str)
where
    P::Option: std::fmt::Debug,
{
    let rep = p.repeats().expect("the rounds repeat");
    let limits = BestLimits::default();
    let fast: Solved<P::Option> = graph::solve(p, rep, reward, true, limits, both).unwrap();
    let slow: Solved<P::Option> = layered::solve(p, reward, true, limits, both).unwrap();
    let close = |a: f64, b: f64, name: &str| {
        assert!((a - b).abs() < 1e-9, "{what}: {name} {a} vs {b}");
    };
    close(fast.value, slow.value, "value");
    assert_eq!(fast.one_sided.is_some(), both, "{what}");
    if let (Some(a), Some(b)) = (fast.one_sided, slow.one_sided) {
        close(a, b, "one-sided");
    }
    close(fast.given, slow.given, "given");
    close(fast.replayed, slow.replayed, "replayed");
    close(fast.replayed, fast.value, "replayed vs value");
    close(fast.visits, slow.visits, "visits");
    assert_eq!(fast.rounds, slow.rounds, "{what}: rounds");
    for (f, s) in [
        (&fast.dominance, &slow.dominance),
        (&fast.opposing_dominance, &slow.opposing_dominance),
    ] {
        assert_eq!(f.len(), s.len(), "{what}");
        for a in f {
            let b = s.iter().find(|b| b.tag == a.tag).expect("a tag");
            close(a.without, b.without, &a.tag);
            close(a.loss, b.loss, &a.tag);
            close(a.usage, b.usage, &a.tag);
        }
    }
    assert_eq!(!fast.opposing_dominance.is_empty(), both, "{what}");
    // The same visits per (situation, option), whatever the order the
    // options were met in: the deciding side's, then the opposing side's.
    for opposing in [false, true] {
        let table = |s: &Solved<P::Option>| {
            let (rows, options) = if opposing {
                (&s.opposing, &s.opposing_options)
            } else {
                (&s.decisions, &s.options)
            };
            let mut t: Vec<(Vec<i64>, String, f64)> = rows
                .iter()
                .map(|d| {
                    (
                        d.features.clone(),
                        format!("{:?}", options[d.option]),
                        d.visits,
                    )
                })
                .collect();
            t.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
            t
        };
        let (a, b) = (table(&fast), table(&slow));
        assert_eq!(a.len(), b.len(), "{what}: decisions");
        assert!(both || a.is_empty() || !opposing, "{what}");
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((&x.0, &x.1), (&y.0, &y.1), "{what}");
            close(x.2, y.2, "visits");
        }
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
    fn opposing(&self, round: usize, s: &P::State, out: &mut Vec<P::Option>) {
        self.0.opposing(round, s, out)
    }
    fn opposing_features(&self, round: usize, s: &P::State, out: &mut Vec<i64>) {
        self.0.opposing_features(round, s, out)
    }
    fn write_opposing(
        &self,
        rules: &[RuleOf<P::Option>],
    ) -> Option<Vec<(String, crate::model::ParamValue)>> {
        self.0.write_opposing(rules)
    }
}

/// Every (round, state) where `p` decides, under some choices.
fn decisions<P: Choose>(p: &P) -> BTreeSet<(usize, P::State)> {
    sides(p, false).0
}

/// Decision points: (round, state).
type Points<S> = BTreeSet<(usize, S)>;
/// A deterministic policy: the option at each decision point.
type Table<S, O> = BTreeMap<(usize, S), O>;

/// Every (round, state) where the deciding side decides, and (when
/// `both`) where the opposing side does, under some choices of both.
fn sides<P: Choose>(p: &P, both: bool) -> (Points<P::State>, Points<P::State>) {
    let mut out = BTreeSet::new();
    let mut theirs = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut stack = vec![(1, p.start())];
    let (mut opts, mut law) = (Vec::new(), Vec::new());
    while let Some((round, s)) = stack.pop() {
        if !seen.insert((round, s.clone())) {
            continue;
        }
        match super::menu(p, both, round, &s, &mut opts) {
            super::Side::Max => {
                out.insert((round, s.clone()));
            }
            super::Side::Min => {
                theirs.insert((round, s.clone()));
            }
            super::Side::Nobody => {}
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
    (out, theirs)
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

/// Every deterministic policy of each side at its decision points (one
/// option per point), as tables; at most `limit` per side.
fn policies<P: Choose>(
    points: &BTreeSet<(usize, P::State)>,
    menu: impl Fn(usize, &P::State, &mut Vec<P::Option>),
    limit: usize,
) -> Vec<Table<P::State, P::Option>> {
    let points: Vec<&(usize, P::State)> = points.iter().collect();
    let opts: Vec<Vec<P::Option>> = points
        .iter()
        .map(|(r, s)| {
            let mut o = Vec::new();
            menu(*r, s, &mut o);
            o
        })
        .collect();
    let total: usize = opts.iter().map(Vec::len).product();
    assert!(total <= limit, "{total} policies");
    (0..total)
        .map(|mut k| {
            let mut table = BTreeMap::new();
            for (point, o) in points.iter().zip(&opts) {
                table.insert((*point).clone(), o[k % o.len()].clone());
                k /= o.len();
            }
            table
        })
        .collect()
}

/// Both sides' best play (a duel) against brute force over every pair of
/// deterministic policies (at most `most` per side), to `1e-12`: the
/// game's value is max over the deciding side's policies of the min over
/// the opposing side's, equal to min over max (a saddle point in pure
/// policies: the sides decide in turn); the value summed forward agrees;
/// it is at most one-sided best play (the opposing side's given policy
/// is one of its policies here) and one-sided best play is brute force's
/// best against the given policy. Returns the number of pairs.
pub fn duel_is_brute_force<P: Choose>(
    p: &P,
    reward: &dyn Fn(&[i64]) -> f64,
    most: usize,
    what: &str,
) -> usize {
    let (mine, theirs) = sides(p, true);
    let a = policies::<P>(&mine, |r, s, o| p.options(r, s, o), most);
    let b = policies::<P>(&theirs, |r, s, o| p.opposing(r, s, o), most);
    // values[i][j]: A's policy i against B's policy j.
    let values: Vec<Vec<f64>> = a
        .iter()
        .map(|ta| {
            b.iter()
                .map(|tb| {
                    let mut t = ta.clone();
                    t.extend(tb.iter().map(|(k, v)| (k.clone(), v.clone())));
                    walk(p, &t, reward, 1, &p.start())
                })
                .collect()
        })
        .collect();
    let max_min = values
        .iter()
        .map(|row| row.iter().copied().fold(f64::INFINITY, f64::min))
        .fold(f64::NEG_INFINITY, f64::max);
    let min_max = (0..b.len())
        .map(|j| {
            values
                .iter()
                .map(|row| row[j])
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .fold(f64::INFINITY, f64::min);
    let solved = super::duel(p, reward, true, BestLimits::default()).unwrap();
    let close = |x: f64, y: f64, name: &str| {
        assert!((x - y).abs() < 1e-12, "{what}: {name}: {x} vs {y}");
    };
    close(solved.value, max_min, "duel vs max-min");
    close(max_min, min_max, "max-min vs min-max");
    // The opposing side's dominance: with a tag forbidden (at a decision
    // where every option has it, all stay open), the game's value is
    // max-min over the opposing policies that keep to what is open.
    assert!(!solved.opposing_dominance.is_empty(), "{what}");
    for d in &solved.opposing_dominance {
        let keeps = |tb: &Table<P::State, P::Option>| {
            tb.iter().all(|((r, s), o)| {
                let mut menu = Vec::new();
                p.opposing(*r, s, &mut menu);
                let has = |x: &P::Option| p.tags(x).contains(&d.tag);
                !has(o) || menu.iter().all(has)
            })
        };
        let open: Vec<usize> = (0..b.len()).filter(|&j| keeps(&b[j])).collect();
        let without = values
            .iter()
            .map(|row| open.iter().map(|&j| row[j]).fold(f64::INFINITY, f64::min))
            .fold(f64::NEG_INFINITY, f64::max);
        close(
            d.without,
            without,
            &format!("without the opposing {}", d.tag),
        );
        close(d.loss, (without - solved.value).max(0.0), &d.tag);
    }
    close(solved.replayed, solved.value, "replayed");
    let one_sided = solved.one_sided.expect("a duel");
    let alone = super::best(p, reward, false, BestLimits::default()).unwrap();
    close(one_sided, alone.value, "one-sided in the duel vs alone");
    assert!(
        solved.value <= one_sided + 1e-12,
        "{what}: the duel beats one-sided"
    );
    a.len() * b.len()
}
