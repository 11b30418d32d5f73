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

/// Small skirmishes with an entity out of play, Search, Surprise
/// entrances, Recruit and ticking bombs (three entities each).
fn entrant_configs() -> Vec<ParamMap> {
    let pc = |name: &str, policy: Option<ParamValue>| {
        let mut pairs = vec![("name", s(name)), ("trait", Int(2))];
        if let Some(p) = policy {
            pairs.push(("policy", p));
        }
        t(&pairs)
    };
    let line =
        |a: &str, b: &str, e: i64| t(&[("between", List(vec![s(a), s(b)])), ("edge", Int(e))]);
    let minor = |pairs: &[(&str, ParamValue)]| List(vec![t(pairs)]);
    let search = |who: &str| {
        List(vec![
            rule(&["climax"], 0, &[]),
            rule(&["search"], 0, &[("entity", s(who))]),
            rule(&["edge"], 0, &[]),
            rule(&["manoeuvre"], 0, &[]),
        ])
    };
    let bomb = |c: &str, tr: &str| {
        t(&[
            ("countdown", List(vec![s(c)])),
            ("trigger", List(vec![s(tr)])),
        ])
    };
    let mut out = Vec::new();
    // Tom searches for an ally out of play (significance 1 and 3).
    for sig in [1, 3] {
        out.push(map(vec![
            ("pcs", List(vec![pc("tom", Some(search("ally")))])),
            (
                "minors",
                minor(&[
                    ("name", s("ally")),
                    ("side", s("pcs")),
                    ("significance", Int(sig)),
                    ("trait", Int(1)),
                    ("in_play", Bool(false)),
                ]),
            ),
            ("ladder", Int(3)),
            ("initiative", s("tom")),
            ("round_cap", Int(20)),
        ]));
    }
    // A guard entering by itself: in round 2, once the ladder is 1.
    for enters in [t(&[("round", Int(2))]), t(&[("ladder", Int(1))])] {
        out.push(map(vec![
            ("pcs", List(vec![pc("tom", None)])),
            (
                "minors",
                minor(&[
                    ("name", s("guard")),
                    ("trait", Int(1)),
                    ("in_play", Bool(false)),
                    ("enters", enters),
                ]),
            ),
            ("ladder", Int(3)),
            ("round_cap", Int(20)),
        ]));
    }
    // A surprise combined with an edge.
    out.push(map(vec![
        ("pcs", List(vec![pc("tom", None)])),
        (
            "minors",
            minor(&[
                ("name", s("guard")),
                ("trait", Int(2)),
                ("significance", Int(2)),
                ("in_play", Bool(false)),
                ("enters", t(&[("round", Int(1))])),
                (
                    "policy",
                    List(vec![
                        rule(&["surprise", "edge"], 0, &[]),
                        rule(&["eliminate"], 0, &[]),
                        rule(&["edge"], 0, &[]),
                    ]),
                ),
            ]),
        ),
        ("ladder", Int(3)),
        ("round_cap", Int(20)),
    ]));
    // The key out of play, entering when its guard is eliminated.
    out.push(map(vec![
        ("pcs", List(vec![pc("tom", None)])),
        (
            "key",
            t(&[
                ("trait", Int(2)),
                ("in_play", Bool(false)),
                ("enters", t(&[("eliminated", List(vec![s("guard")]))])),
            ]),
        ),
        (
            "minors",
            minor(&[
                ("name", s("guard")),
                ("trait", Int(1)),
                ("significance", Int(1)),
            ]),
        ),
        ("ladder", Int(2)),
        ("round_cap", Int(20)),
    ]));
    // Recruit of an ally in play, and Search with Recruit of one out of
    // play.
    for absent in [false, true] {
        let mut tom = vec![rule(&["climax"], 0, &[])];
        tom.push(if absent {
            rule(&["search", "recruit"], 0, &[("entity", s("gob"))])
        } else {
            rule(&["recruit"], 0, &[("entity", s("gob"))])
        });
        tom.push(rule(&["edge"], 0, &[]));
        out.push(map(vec![
            ("pcs", List(vec![pc("tom", Some(List(tom)))])),
            (
                "minors",
                minor(&[
                    ("name", s("gob")),
                    ("trait", Int(1)),
                    ("lead", s("tom")),
                    ("recruit", Bool(true)),
                    ("in_play", Bool(!absent)),
                    ("policy", List(vec![rule(&["aid"], 0, &[])])),
                ]),
            ),
            ("lines", List(vec![line("tom", "key", 0)])),
            ("ladder", Int(3)),
            ("round_cap", Int(20)),
        ]));
    }
    // A ticking bomb: the key counts down to a passive trigger on the
    // PCs' side, in play or out of it (a line at 0: the bomb at ladder 0).
    for (in_play, press) in [(true, false), (false, true)] {
        let tom = if press {
            List(vec![
                rule(&["climax"], 0, &[]),
                rule(&["press"], 0, &[]),
                rule(&["edge"], 0, &[]),
            ])
        } else {
            List(vec![rule(&["climax"], 0, &[]), rule(&["edge"], 0, &[])])
        };
        let mut lines = vec![line("tom", "key", 0)];
        if in_play {
            lines.push(line("key", "mine", 0));
        }
        out.push(map(vec![
            ("pcs", List(vec![pc("tom", Some(tom))])),
            (
                "minors",
                minor(&[
                    ("name", s("mine")),
                    ("side", s("pcs")),
                    ("trait", Int(1)),
                    ("passive", Bool(true)),
                    ("in_play", Bool(in_play)),
                ]),
            ),
            ("lines", List(lines)),
            ("ticking_bomb", bomb("key", "mine")),
            ("ladder", Int(3)),
            ("round_cap", Int(20)),
        ]));
    }
    // The countdown itself out of play, entering at ladder 0 to surprise
    // and climax at once ("he can simply enter the scene when the climax
    // ladder runs down").
    out.push(map(vec![
        ("pcs", List(vec![pc("tom", None)])),
        (
            "key",
            t(&[
                ("trait", Int(2)),
                ("in_play", Bool(false)),
                ("enters", t(&[("ladder", Int(0))])),
                ("policy", List(vec![rule(&["surprise", "climax"], 0, &[])])),
            ]),
        ),
        (
            "minors",
            minor(&[
                ("name", s("mine")),
                ("side", s("pcs")),
                ("trait", Int(1)),
                ("passive", Bool(true)),
            ]),
        ),
        ("ticking_bomb", bomb("key", "mine")),
        ("initiative", s("tom")),
        ("ladder", Int(2)),
        ("round_cap", Int(20)),
    ]));
    out
}

#[test]
fn monte_carlo_agrees_with_the_chain_on_entrants_and_bombs() {
    // As above: 20,000 trials a config at a fixed seed, 5 standard
    // errors; every config has an entity out of play or a bomb, and its
    // new fields.
    let configs = entrant_configs();
    assert!(configs.len() >= 10);
    for (n, values) in configs.iter().enumerate() {
        let m = SkirmishMechanic.prepare(values).unwrap();
        let exact = m
            .exact()
            .unwrap_or_else(|| panic!("entrant config {n} is beyond the chain"));
        let z = assert_agrees_with(
            m.as_ref(),
            &exact,
            Sample::seed(270 + n as u64).trials(20_000),
            &format!("entrant config {n}"),
        );
        assert!(z < 5.0);
        let total: f64 = exact.field(WINNER).values().sum();
        assert!((total - 1.0).abs() < 1e-9, "entrant config {n}: {total}");
    }
}
