//! A skirmish with one PC, the key entity and no minor entity is
//! `gateway.scene`'s duel, number for number.

use super::*;
use crate::systems::gateway::scene::duel_from;

/// One duel, written both ways: `gateway.scene` keys `a.*`/`b.*` and the
/// skirmish's `pcs = [{…}]`, `key = {…}`.
struct Pair {
    a: Vec<(&'static str, ParamValue)>,
    b: Vec<(&'static str, ParamValue)>,
    scene: Vec<(&'static str, ParamValue)>,
    start_edge: i64,
    /// "a" or "b".
    first: &'static str,
}

fn both(c: &Pair) -> (Marginals, Marginals) {
    let mut d = ParamMap::new();
    for (k, v) in &c.a {
        d.set(format!("a.{k}"), v.clone());
    }
    for (k, v) in &c.b {
        d.set(format!("b.{k}"), v.clone());
    }
    for (k, v) in &c.scene {
        d.set(*k, v.clone());
    }
    d.set("start_edge", Int(c.start_edge));
    d.set("initiative", s(c.first));
    let duel = duel_from(&d).unwrap().exact().unwrap();
    let mut k = ParamMap::new();
    k.set("pcs", List(vec![t(&c.a)]));
    k.set("key", t(&c.b));
    for (key, v) in &c.scene {
        k.set(*key, v.clone());
    }
    k.set(
        "lines",
        List(vec![t(&[
            ("between", List(vec![s("pc1"), s("key")])),
            ("edge", Int(c.start_edge)),
        ])]),
    );
    k.set("initiative", s(if c.first == "a" { "pc1" } else { "key" }));
    let sk = skirmish_from(&k).unwrap().exact().unwrap();
    (duel, sk)
}

#[test]
fn one_pc_against_the_key_is_todays_duel() {
    let setup = List(vec![
        rule(&["climax"], 0, &[]),
        rule(&["setup"], 0, &[("when", s("no-free-raise"))]),
        rule(&["edge"], 0, &[]),
    ]);
    let rush = List(vec![
        rule(&["climax"], 0, &[]),
        rule(
            &["edge", "accelerate"],
            1,
            &[("when", t(&[("edge_at_least", Int(1))]))],
        ),
        rule(&["edge"], 0, &[]),
    ]);
    let stall = List(vec![
        rule(&["climax"], 0, &[]),
        rule(&["press"], 0, &[("when", t(&[("edge_at_most", Int(-1))]))]),
        rule(&["edge"], 1, &[]),
    ]);
    let blocker = List(vec![
        rule(&["climax"], 0, &[]),
        rule(&["block", "edge"], 0, &[("when", s("holds-initiative"))]),
        rule(&["edge"], 0, &[]),
    ]);
    let cases = [
        Pair {
            a: vec![],
            b: vec![],
            scene: vec![("ladder", Int(4))],
            start_edge: 0,
            first: "a",
        },
        Pair {
            a: vec![("trait", Int(2)), ("background", Int(1))],
            b: vec![("policy", setup.clone())],
            scene: vec![("ladder", Int(5))],
            start_edge: -2,
            first: "b",
        },
        Pair {
            a: vec![("policy", rush.clone()), ("essence", Int(2))],
            b: vec![("policy", stall.clone()), ("essence", Int(1))],
            scene: vec![("ladder", Int(6)), ("initiative_tie", s("edge"))],
            start_edge: 1,
            first: "a",
        },
        Pair {
            a: vec![("policy", blocker.clone()), ("initiative_order", s("last"))],
            b: vec![
                ("background_relevance", s("partial")),
                ("background", Int(2)),
                ("passengers", Int(1)),
            ],
            scene: vec![("ladder", Int(3)), ("round_cap", Int(12))],
            start_edge: 0,
            first: "a",
        },
        Pair {
            a: vec![
                ("policy", setup),
                ("essence_policy", s("always")),
                ("essence", Int(2)),
            ],
            b: vec![("policy", blocker), ("initiative_order", s("last"))],
            scene: vec![("ladder", Int(2))],
            start_edge: 3,
            first: "b",
        },
    ];
    for (n, c) in cases.iter().enumerate() {
        let (duel, sk) = both(c);
        // winner, rounds, final edge, ladder: the duel's fields 0, 1, 2, 4
        // are the skirmish's 0, 1, FIRST_PC_EDGE, 3.
        for (df, kf) in [(0, WINNER), (1, ROUNDS), (2, FIRST_PC_EDGE), (4, LADDER)] {
            let keys: std::collections::BTreeSet<i64> = duel
                .field(df)
                .keys()
                .chain(sk.field(kf).keys())
                .copied()
                .collect();
            for v in keys {
                let (x, y) = (p(&duel, df, v), p(&sk, kf, v));
                assert!(
                    (x - y).abs() < 1e-9,
                    "case {n} field {df} value {v}: {x} vs {y}"
                );
            }
        }
    }
}
