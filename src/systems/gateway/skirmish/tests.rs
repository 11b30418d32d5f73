//! Tests of the skirmish rules: the duel it must reduce to, rounds worked
//! by hand, variants told apart, and the exact chain against Monte Carlo.

use super::*;
use crate::model::{After, Marginals, Rounds};
use crate::systems::ParamMap;
use crate::systems::ParamValue::{self, *};
use crate::systems::gateway::scene::duel_from;
use crate::systems::testing::{Sample, assert_agrees_with, table as t};

fn s(x: &str) -> ParamValue {
    Str(x.into())
}

fn rule(effects: &[&str], raises: i64, extra: &[(&str, ParamValue)]) -> ParamValue {
    let effect = if effects.len() == 1 {
        s(effects[0])
    } else {
        List(effects.iter().map(|e| s(e)).collect())
    };
    let mut pairs = vec![("effect", effect)];
    if raises > 0 {
        pairs.push(("raises", Int(raises)));
    }
    pairs.extend(extra.iter().cloned());
    t(&pairs)
}

fn p(m: &Marginals, field: usize, value: i64) -> f64 {
    m.field(field).get(&value).copied().unwrap_or(0.0)
}

fn map(pairs: Vec<(&str, ParamValue)>) -> ParamMap {
    let mut m = ParamMap::new();
    for (k, v) in pairs {
        m.set(k, v);
    }
    m
}

/// Drive the round function: take the roll whose beaten targets are
/// `beat` and return the state that follows.
fn step(r: &SkirmishRounds, round: usize, state: &State, beat: u16) -> After<State, [i64; 33]> {
    let mut law = Vec::new();
    r.law(round, state, &mut law);
    let (roll, _) = law
        .iter()
        .find(|(roll, q)| roll.beat == beat && *q > 0.0)
        .unwrap_or_else(|| panic!("no roll beating {beat:#b} in {law:?}"));
    r.after(round, state, roll)
}

fn go(a: After<State, [i64; 33]>) -> State {
    match a {
        After::Roll(s) | After::Round(s) => s,
        After::End(o) => panic!("the scene ended: {o:?}"),
    }
}

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

/// PC Tom against the key and one henchman (significance 1), all 1d8.
fn trio(extra: Vec<(&str, ParamValue)>) -> SkirmishModel {
    let mut pairs = vec![
        ("pcs", List(vec![t(&[("name", s("tom"))])])),
        ("key", t(&[("name", s("kroe"))])),
        (
            "minors",
            List(vec![t(&[("name", s("guard")), ("significance", Int(1))])]),
        ),
        ("ladder", Int(3)),
        ("initiative", s("tom")),
    ];
    pairs.extend(extra);
    skirmish_from(&map(pairs)).unwrap()
}

#[test]
fn lines_decide_what_may_be_done() {
    // Three entities: no lines at the start. Tom (no line) may only
    // Manoeuvre or Block; his default policy manoeuvres, at Kroe (the
    // first opponent in scene order).
    let m = trio(vec![]);
    let r = &m.rounds;
    let st = r.start();
    assert_eq!(st.lines_open(), 0);
    let t0 = r.turn(1, &st);
    assert_eq!(t0.act.moves, moves::Moves::of(&[moves::Move::Manoeuvre]));
    assert_eq!(t0.targets, 1 << 1);
    // Success opens the line at 0; the guard (no line) manoeuvres at Tom.
    let s1 = go(step(r, 1, &st, 1 << 1));
    assert_eq!((s1.lines_open(), r.edge(&s1, 0, 1)), (1, 0));
    // A Climax needs a line to every opponent: Tom with a line to Kroe
    // only, ladder 0, edge 5, still cannot climax; the rule is skipped
    // and the default policy manoeuvres onto the guard.
    let m = trio(vec![
        ("ladder", Int(0)),
        (
            "lines",
            List(vec![t(&[
                ("between", List(vec![s("tom"), s("kroe")])),
                ("edge", Int(5)),
            ])]),
        ),
    ]);
    let r = &m.rounds;
    let t0 = r.turn(1, &r.start());
    assert_eq!(t0.act.moves, moves::Moves::of(&[moves::Move::Manoeuvre]));
    assert_eq!(t0.targets, 1 << 2);
}

#[test]
fn eliminate_needs_the_edge_to_reach_significance() {
    // Tom +1 over the guard (significance 1), +0 over Kroe: the default
    // policy eliminates the guard, tested against the guard's DT only.
    let lines = List(vec![
        t(&[
            ("between", List(vec![s("tom"), s("kroe")])),
            ("edge", Int(0)),
        ]),
        t(&[
            ("between", List(vec![s("tom"), s("guard")])),
            ("edge", Int(1)),
        ]),
    ]);
    let m = trio(vec![("lines", lines)]);
    let r = &m.rounds;
    let st = r.start();
    let t0 = r.turn(1, &st);
    assert!(t0.act.moves.has(moves::Move::Eliminate));
    assert_eq!(t0.targets, 1 << 2);
    let s1 = go(step(r, 1, &st, 1 << 2));
    assert!(!s1.is_alive(2));
    assert_eq!(s1.lines_open(), 1);
    // At +0 over a significance-1 guard there is nothing to eliminate:
    // the policy edges every line instead.
    let lines = List(vec![
        t(&[
            ("between", List(vec![s("tom"), s("kroe")])),
            ("edge", Int(0)),
        ]),
        t(&[
            ("between", List(vec![s("tom"), s("guard")])),
            ("edge", Int(0)),
        ]),
    ]);
    let m = trio(vec![("lines", lines)]);
    let t0 = m.rounds.turn(1, &m.rounds.start());
    assert_eq!(t0.act.moves, moves::Moves::of(&[moves::Move::Edge]));
    assert_eq!(t0.targets, 0b110);
}

#[test]
fn a_broken_line_comes_back_a_step_toward_the_opponent() {
    // Tom +2 over Kroe disengages (his only line), then manoeuvres the
    // next round: the line returns at +1 (last round's +2, one step to
    // Kroe's advantage). Kroe, never succeeding, changes nothing.
    let m = skirmish_from(&map(vec![
        (
            "pcs",
            List(vec![t(&[
                ("name", s("tom")),
                (
                    "policy",
                    List(vec![
                        rule(&["manoeuvre"], 0, &[]),
                        rule(&["disengage"], 0, &[]),
                    ]),
                ),
            ])]),
        ),
        ("key", t(&[("name", s("kroe"))])),
        (
            "lines",
            List(vec![t(&[
                ("between", List(vec![s("tom"), s("kroe")])),
                ("edge", Int(2)),
            ])]),
        ),
        ("initiative", s("tom")),
    ]))
    .unwrap();
    let r = &m.rounds;
    let st = r.start();
    // Round 1: Tom (a line: no Manoeuvre target) disengages; Kroe has no
    // line left and manoeuvres, failing.
    let s1 = go(step(r, 1, &st, 1 << 1));
    assert_eq!(s1.lines_open(), 0);
    let s2 = go(step(r, 1, &s1, 0));
    // Round 2: Tom manoeuvres and succeeds.
    let s3 = go(step(r, 2, &s2, 1 << 1));
    assert_eq!((s3.lines_open(), r.edge(&s3, 0, 1)), (1, 1));
}

#[test]
fn variants_change_numbers() {
    // setup_free: Tom sets up with 2 raises and succeeds: one free raise
    // ("one"), or 1 + 2 ("per-raise").
    let pol = List(vec![rule(&["setup"], 2, &[])]);
    let mk = |v: &str| {
        skirmish_from(&map(vec![
            (
                "pcs",
                List(vec![t(&[
                    ("name", s("tom")),
                    ("trait", Int(1)),
                    ("background", Int(6)),
                    ("specialisation", Bool(true)),
                    ("policy", pol.clone()),
                ])]),
            ),
            ("key", t(&[("name", s("kroe")), ("trait", Int(1))])),
            ("initiative", s("tom")),
            ("setup_free", s(v)),
        ]))
        .unwrap()
    };
    for (v, free) in [("one", 1), ("per-raise", 3)] {
        let m = mk(v);
        let r = &m.rounds;
        let s1 = go(step(r, 1, &r.start(), 1 << 1));
        assert_eq!(s1.free(0), free, "{v}");
    }
    // press_accelerate: Kroe accelerates, then Tom presses (one raise per
    // level accelerated); both succeed. Cancel: the ladder drops 1, and
    // nobody's effect counts (Kroe keeps the initiative as holder).
    // Later wins: Tom's Press counts, the ladder stays, Tom takes it.
    let mk = |v: &str| {
        skirmish_from(&map(vec![
            (
                "pcs",
                List(vec![t(&[
                    ("name", s("tom")),
                    ("policy", List(vec![rule(&["press"], 0, &[])])),
                ])]),
            ),
            (
                "key",
                t(&[
                    ("name", s("kroe")),
                    ("policy", List(vec![rule(&["accelerate"], 0, &[])])),
                ]),
            ),
            ("ladder", Int(5)),
            ("press_accelerate", s(v)),
        ]))
        .unwrap()
    };
    for (v, ladder, holder) in [("cancel", 4, 1), ("later-wins", 5, 0)] {
        let m = mk(v);
        let r = &m.rounds;
        let s1 = go(step(r, 1, &r.start(), 1 << 0));
        let s2 = go(step(r, 1, &s1, 1 << 1));
        assert_eq!((s2.ladder(), s2.holder()), (ladder, holder), "{v}");
    }
    // initiative_tie "holder": Kroe holds; both edge, Tom with a raise.
    // raises: Tom; holder: Kroe.
    for (v, holder) in [("raises", 0), ("holder", 1), ("edge", 1)] {
        let m = skirmish_from(&map(vec![
            (
                "pcs",
                List(vec![t(&[
                    ("name", s("tom")),
                    ("policy", List(vec![rule(&["edge"], 1, &[])])),
                ])]),
            ),
            ("key", t(&[("name", s("kroe"))])),
            (
                "lines",
                List(vec![t(&[
                    ("between", List(vec![s("kroe"), s("tom")])),
                    ("edge", Int(3)),
                ])]),
            ),
            ("initiative_tie", s(v)),
        ]))
        .unwrap();
        let r = &m.rounds;
        let s1 = go(step(r, 1, &r.start(), 1 << 0));
        let s2 = go(step(r, 1, &s1, 1 << 1));
        assert_eq!(s2.holder(), holder, "{v}");
    }
}

#[test]
fn eliminate_shortfall_pays_the_missing_edge_with_raises() {
    // Tom +1 over a significance-2 guard (and +0 over Kroe). "none": no
    // Eliminate allowed, so he edges both lines, no raise paid. "raises":
    // he eliminates, paying one raise for the point short.
    for (v, eliminates, paid) in [("none", false, 0), ("raises", true, 1)] {
        let lines = List(vec![
            t(&[
                ("between", List(vec![s("tom"), s("kroe")])),
                ("edge", Int(0)),
            ]),
            t(&[
                ("between", List(vec![s("tom"), s("guard")])),
                ("edge", Int(1)),
            ]),
        ]);
        let m = skirmish_from(&map(vec![
            ("pcs", List(vec![t(&[("name", s("tom"))])])),
            ("key", t(&[("name", s("kroe"))])),
            (
                "minors",
                List(vec![t(&[("name", s("guard")), ("significance", Int(2))])]),
            ),
            ("lines", lines),
            ("initiative", s("tom")),
            ("eliminate_shortfall", s(v)),
        ]))
        .unwrap();
        let t0 = m.rounds.turn(1, &m.rounds.start());
        assert_eq!(t0.act.moves.has(moves::Move::Eliminate), eliminates, "{v}");
        assert_eq!(t0.paid(), paid, "{v}");
    }
}

#[test]
fn a_set_up_handed_over_goes_to_the_ally_and_wins_the_tie() {
    // Ann sets up for Tom (one raise to hand it over); Tom sets up for
    // himself. Both Set-ups succeed: equal effects, Ann used more raises,
    // but she gave hers to Tom, so Tom wins the tie.
    let m = skirmish_from(&map(vec![
        (
            "pcs",
            List(vec![
                t(&[
                    ("name", s("tom")),
                    ("policy", List(vec![rule(&["setup"], 0, &[])])),
                ]),
                t(&[
                    ("name", s("ann")),
                    (
                        "policy",
                        List(vec![rule(&["setup"], 0, &[("to", s("tom"))])]),
                    ),
                ]),
            ]),
        ),
        ("key", t(&[("name", s("kroe"))])),
        (
            "lines",
            List(vec![
                t(&[("between", List(vec![s("tom"), s("kroe")]))]),
                t(&[("between", List(vec![s("ann"), s("kroe")]))]),
            ]),
        ),
        ("initiative", s("ann")),
    ]))
    .unwrap();
    let r = &m.rounds;
    // Ann (holder) first, then Tom, then Kroe.
    let s1 = go(step(r, 1, &r.start(), 1 << 2));
    assert_eq!((s1.free(0), s1.free(1)), (1, 0));
    let s2 = go(step(r, 1, &s1, 1 << 2));
    // Tom's own Set-up spent Ann's raise and earned his own.
    assert_eq!(s2.free(0), 1);
    let s3 = go(step(r, 1, &s2, 0));
    assert_eq!(s3.holder(), 0);
}

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
        let m = skirmish_from(values).unwrap();
        let exact = m
            .exact()
            .unwrap_or_else(|| panic!("config {n} is beyond the chain"));
        let z = assert_agrees_with(
            &m,
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

#[test]
fn the_mechanic_is_registered_and_bad_input_is_named() {
    let m = crate::systems::find("gateway.skirmish").unwrap();
    assert!(m.has_exact());
    let e = skirmish_from(&map(vec![
        ("pcs", List(vec![t(&[("name", s("tom"))])])),
        (
            "lines",
            List(vec![t(&[("between", List(vec![s("tom"), s("nobody")]))])]),
        ),
    ]))
    .err()
    .unwrap();
    assert_eq!(e.key, "lines");
    assert!(
        e.message.contains("\"nobody\" is not an entity") && e.message.contains("tom, key"),
        "{}",
        e.message
    );
    let e = skirmish_from(&map(vec![
        ("pcs", List(vec![t(&[("name", s("tom"))])])),
        (
            "minors",
            List(vec![t(&[("name", s("g")), ("count", Int(6))])]),
        ),
    ]))
    .err()
    .unwrap();
    assert!(e.message.contains("at most 6"), "{}", e.message);
    let e = skirmish_from(&map(vec![(
        "pcs",
        List(vec![t(&[(
            "policy",
            List(vec![rule(&["edge"], 0, &[("to", s("x"))])]),
        )])]),
    )]))
    .err()
    .unwrap();
    assert!(e.message.contains("no setup"), "{}", e.message);
}
