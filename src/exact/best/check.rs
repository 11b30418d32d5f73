//! A test helper every mechanic with [`Choose::repeats`] uses: its
//! graph over repeating rounds against the round-by-round reference.

use super::{BestLimits, Solved, graph, layered};
use crate::model::Choose;

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
