//! Monte Carlo against the exact chain on small skirmishes.

use super::*;
use crate::systems::Mechanic;
use crate::systems::testing::{Sample, assert_agrees_with};

/// Small skirmishes, exact and simulated.
fn small_configs() -> Vec<ParamMap> {
    let pc = |name: &str, dice: i64| t(&[("name", s(name)), ("trait", Int(dice))]);
    let line =
        |a: &str, b: &str, e: i64| t(&[("between", List(vec![s(a), s(b)])), ("edge", Int(e))]);
    let guard = |sig: i64| {
        t(&[
            ("name", s("guard")),
            ("significance", Int(sig)),
            ("trait", Int(1)),
        ])
    };
    let feed = List(vec![
        rule(&["climax"], 0, &[]),
        rule(&["eliminate"], 0, &[]),
        rule(
            &["setup"],
            0,
            &[("to", s("tom")), ("when", s("no-free-raise"))],
        ),
        rule(&["edge"], 0, &[]),
        rule(&["manoeuvre"], 0, &[]),
    ]);
    let mut out = Vec::new();
    for (ladder, sig, init) in [(2, 1, "tom"), (3, 0, "key"), (3, 2, "tom"), (2, 1, "key")] {
        out.push(map(vec![
            ("pcs", List(vec![pc("tom", 2)])),
            ("minors", List(vec![guard(sig)])),
            ("ladder", Int(ladder)),
            ("initiative", s(init)),
            ("round_cap", Int(25)),
        ]));
    }
    // With lines given, and a manoeuvring key.
    out.push(map(vec![
        ("pcs", List(vec![pc("tom", 3)])),
        ("minors", List(vec![guard(1)])),
        (
            "lines",
            List(vec![line("tom", "key", 0), line("tom", "guard", 0)]),
        ),
        ("ladder", Int(3)),
        ("round_cap", Int(25)),
    ]));
    // Two PCs against the key, no minors, no lines at the start.
    out.push(map(vec![
        ("pcs", List(vec![pc("tom", 2), pc("ann", 1)])),
        ("ladder", Int(2)),
        ("round_cap", Int(20)),
    ]));
    // Two PCs with lines, Ann feeding Tom.
    out.push(map(vec![
        (
            "pcs",
            List(vec![
                pc("tom", 2),
                t(&[("name", s("ann")), ("policy", feed.clone())]),
            ]),
        ),
        (
            "lines",
            List(vec![line("tom", "key", 0), line("ann", "key", 0)]),
        ),
        ("ladder", Int(3)),
        ("setup_free", s("per-raise")),
        ("round_cap", Int(20)),
    ]));
    // Press against accelerate, later wins.
    out.push(map(vec![
        (
            "pcs",
            List(vec![t(&[
                ("name", s("tom")),
                (
                    "policy",
                    List(vec![
                        rule(&["climax"], 0, &[]),
                        rule(&["edge", "accelerate"], 0, &[]),
                    ]),
                ),
            ])]),
        ),
        (
            "key",
            t(&[(
                "policy",
                List(vec![
                    rule(&["climax"], 0, &[]),
                    rule(&["press"], 0, &[("when", t(&[("edge_at_most", Int(-1))]))]),
                    rule(&["edge"], 0, &[]),
                ]),
            )]),
        ),
        ("ladder", Int(4)),
        ("press_accelerate", s("later-wins")),
        ("round_cap", Int(25)),
    ]));
    // Edge tie, an ally on the PCs' side that the key may eliminate.
    out.push(map(vec![
        ("pcs", List(vec![pc("tom", 2)])),
        (
            "minors",
            List(vec![t(&[
                ("name", s("witness")),
                ("side", s("pcs")),
                ("significance", Int(0)),
                ("trait", Int(1)),
            ])]),
        ),
        ("ladder", Int(2)),
        ("initiative_tie", s("edge")),
        ("round_cap", Int(20)),
    ]));
    // Holder tie, disengaging henchman.
    out.push(map(vec![
        ("pcs", List(vec![pc("tom", 2)])),
        (
            "minors",
            List(vec![t(&[
                ("name", s("guard")),
                ("significance", Int(1)),
                (
                    "policy",
                    List(vec![
                        rule(
                            &["disengage"],
                            0,
                            &[("when", t(&[("edge_at_most", Int(-1))]))],
                        ),
                        rule(&["edge"], 0, &[]),
                        rule(&["manoeuvre"], 0, &[]),
                    ]),
                ),
            ])]),
        ),
        ("ladder", Int(2)),
        ("initiative_tie", s("holder")),
        ("round_cap", Int(20)),
    ]));
    out
}

#[test]
fn monte_carlo_agrees_with_the_chain() {
    // Every metric and every value of every field within 5 standard
    // errors, 20,000 trials each at a fixed seed.
    let configs = small_configs();
    assert!(configs.len() >= 10);
    for (n, values) in configs.iter().enumerate() {
        let m = SkirmishMechanic.prepare(values).unwrap();
        let exact = m
            .exact()
            .unwrap_or_else(|| panic!("config {n} is beyond the chain"));
        let z = assert_agrees_with(
            m.as_ref(),
            &exact,
            Sample::seed(70 + n as u64).trials(20_000),
            &format!("config {n}"),
        );
        assert!(z < 5.0);
        // Someone wins or the cap is reached: the winner law is whole.
        let total: f64 = exact.field(WINNER).values().sum();
        assert!((total - 1.0).abs() < 1e-9, "config {n}: {total}");
    }
}

/// Small skirmishes with passengers and the newer variants (three
/// entities each, so the chain solves them).
fn passenger_configs() -> Vec<ParamMap> {
    let pc = |name: &str, dice: i64, policy: Option<ParamValue>| {
        let mut pairs = vec![("name", s(name)), ("trait", Int(dice))];
        if let Some(p) = policy {
            pairs.push(("policy", p));
        }
        t(&pairs)
    };
    let gob = |policy: ParamValue| {
        List(vec![t(&[
            ("name", s("gob")),
            ("lead", s("tom")),
            ("trait", Int(1)),
            ("significance", Int(1)),
            ("policy", policy),
        ])])
    };
    let line =
        |a: &str, b: &str, e: i64| t(&[("between", List(vec![s(a), s(b)])), ("edge", Int(e))]);
    let setup = List(vec![rule(&["eliminate"], 0, &[]), rule(&["setup"], 0, &[])]);
    let mut out = Vec::new();
    // An aiding passenger (the default policy), Tom holding.
    out.push(map(vec![
        ("pcs", List(vec![pc("tom", 2, None)])),
        ("minors", gob(List(vec![rule(&["aid"], 0, &[])]))),
        ("ladder", Int(3)),
        ("initiative", s("tom")),
        ("round_cap", Int(25)),
    ]));
    // A setting-up passenger, to its lead and (variant) to itself; Tom
    // interrupting with a Block when he holds.
    let blocker = List(vec![
        rule(&["climax"], 0, &[]),
        rule(&["block", "edge"], 0, &[("when", s("holds-initiative"))]),
        rule(&["edge"], 0, &[]),
    ]);
    for v in ["lead", "own"] {
        out.push(map(vec![
            ("pcs", List(vec![pc("tom", 2, Some(blocker.clone()))])),
            ("minors", gob(setup.clone())),
            ("ladder", Int(3)),
            ("passenger_setup", s(v)),
            ("round_cap", Int(25)),
        ]));
    }
    // A henchman riding with the key entity, which Tom may eliminate.
    out.push(map(vec![
        ("pcs", List(vec![pc("tom", 2, None)])),
        ("henchmen.count", Int(1)),
        ("henchmen.significance", Int(1)),
        ("henchmen.trait", Int(1)),
        ("henchmen.lead", s("key")),
        ("ladder", Int(3)),
        ("round_cap", Int(25)),
    ]));
    // A passenger disembarking in round 2, both readings.
    for v in ["lines", "disengaged"] {
        out.push(map(vec![
            ("pcs", List(vec![pc("tom", 2, None)])),
            (
                "minors",
                gob(List(vec![
                    rule(
                        &["disembark"],
                        0,
                        &[("when", t(&[("round_at_least", Int(2))]))],
                    ),
                    rule(&["aid"], 0, &[]),
                ])),
            ),
            ("ladder", Int(2)),
            ("disembark", s(v)),
            ("round_cap", Int(20)),
        ]));
    }
    // A one-effect Block in many-on-one: Ann shields Tom.
    out.push(map(vec![
        (
            "pcs",
            List(vec![
                pc("tom", 2, None),
                pc(
                    "ann",
                    2,
                    Some(List(vec![
                        rule(&["climax"], 0, &[]),
                        rule(
                            &["block"],
                            0,
                            &[("when", s("holds-initiative")), ("to", s("tom"))],
                        ),
                        rule(&["edge"], 0, &[]),
                    ])),
                ),
            ]),
        ),
        (
            "lines",
            List(vec![line("tom", "key", 0), line("ann", "key", 0)]),
        ),
        ("initiative", s("ann")),
        ("ladder", Int(2)),
        ("block", s("one-effect")),
        ("round_cap", Int(20)),
    ]));
    // Four essence pools: Tom's climax rolls are social, the key's
    // resistance mental.
    out.push(map(vec![
        (
            "pcs",
            List(vec![t(&[
                ("name", s("tom")),
                ("trait", Int(2)),
                (
                    "essence_pools",
                    t(&[("social", Int(1)), ("physical", Int(2))]),
                ),
                ("category", s("physical")),
                ("essence_policy", s("always")),
                (
                    "policy",
                    List(vec![
                        rule(&["climax"], 0, &[("category", s("social"))]),
                        rule(&["edge"], 0, &[]),
                    ]),
                ),
            ])]),
        ),
        (
            "key",
            t(&[
                ("trait", Int(2)),
                ("essence", Int(2)),
                ("category", s("mental")),
            ]),
        ),
        ("ladder", Int(2)),
        ("essence_rule", s("four")),
        ("round_cap", Int(20)),
    ]));
    out
}

#[test]
fn monte_carlo_agrees_with_the_chain_on_passengers_and_variants() {
    // As above: 20,000 trials a config at a fixed seed, 5 standard
    // errors.
    let configs = passenger_configs();
    assert!(configs.len() >= 8);
    for (n, values) in configs.iter().enumerate() {
        let m = SkirmishMechanic.prepare(values).unwrap();
        let exact = m
            .exact()
            .unwrap_or_else(|| panic!("passenger config {n} is beyond the chain"));
        let z = assert_agrees_with(
            m.as_ref(),
            &exact,
            Sample::seed(170 + n as u64).trials(20_000),
            &format!("passenger config {n}"),
        );
        assert!(z < 5.0);
    }
}
