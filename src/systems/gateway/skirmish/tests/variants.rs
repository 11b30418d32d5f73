//! Every reading the text leaves open changes some number here.

use super::*;

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
fn a_one_effect_block_shields_one_ally_and_costs_the_blocker_the_initiative() {
    // Ann holds and blocks Kroe for Tom; Kroe edges both. "action": Kroe
    // loses his whole action, Ann keeps the initiative. "one-effect":
    // Kroe still acts; his Edge on Tom is void, on Ann it lands (+1),
    // and as it succeeds against Ann she loses the initiative to him.
    let pol = List(vec![
        rule(
            &["block"],
            0,
            &[("when", s("holds-initiative")), ("to", s("tom"))],
        ),
        rule(&["edge"], 0, &[]),
    ]);
    for (v, tom, ann, holder) in [("action", 0, 0, 1), ("one-effect", 0, 1, 2)] {
        let m = skirmish_from(&map(vec![
            (
                "pcs",
                List(vec![
                    t(&[
                        ("name", s("tom")),
                        ("policy", List(vec![rule(&["edge"], 0, &[])])),
                    ]),
                    t(&[("name", s("ann")), ("policy", pol.clone())]),
                ]),
            ),
            ("key", t(&[("name", s("kroe"))])),
            (
                "lines",
                List(vec![
                    t(&[("between", List(vec![s("kroe"), s("tom")]))]),
                    t(&[("between", List(vec![s("kroe"), s("ann")]))]),
                ]),
            ),
            ("initiative", s("ann")),
            ("block", s(v)),
        ]))
        .unwrap();
        let r = &m.rounds;
        let (tom_i, ann_i, kroe) = (0, 1, 2);
        // Ann's Block beats Kroe; Tom's Edge fails.
        let s1 = go(step(r, 1, &r.start(), 1 << kroe));
        let s2 = go(step(r, 1, &s1, 0));
        let s3 = if v == "action" {
            s2
        } else {
            // Kroe's Edge beats both DTs.
            assert_eq!(r.turn(1, &s2).actor as usize, kroe);
            go(step(r, 1, &s2, 1 << tom_i | 1 << ann_i))
        };
        assert_eq!(
            (
                r.edge(&s3, kroe, tom_i),
                r.edge(&s3, kroe, ann_i),
                s3.holder()
            ),
            (tom, ann, holder),
            "{v}"
        );
    }
}

#[test]
fn four_essence_pools_keep_a_category_apart() {
    // Tom has two points of social and one of mental essence, rolls
    // social traits and spends on every roll, acting or resisting. One
    // pool: three points for his action, his resistance to Kroe's, and
    // his second action (4 dice each). Four pools: the social points go
    // on the first two; the second action rolls 3 dice, unless its rule
    // names the mental category.
    for (v, cat, second) in [
        ("one", None, 4),
        ("four", None, 3),
        ("four", Some("mental"), 4),
    ] {
        let mut later = vec![("when", t(&[("round_at_least", Int(2))]))];
        if let Some(c) = cat {
            later.push(("category", s(c)));
        }
        let m = skirmish_from(&map(vec![
            (
                "pcs",
                List(vec![t(&[
                    ("name", s("tom")),
                    (
                        "essence_pools",
                        t(&[("social", Int(2)), ("mental", Int(1))]),
                    ),
                    ("category", s("social")),
                    ("essence_policy", s("always")),
                    (
                        "policy",
                        List(vec![rule(&["edge"], 0, &later), rule(&["edge"], 0, &[])]),
                    ),
                ])]),
            ),
            ("key", t(&[("name", s("kroe"))])),
            ("initiative", s("tom")),
            ("essence_rule", s(v)),
        ]))
        .unwrap();
        let r = &m.rounds;
        let s0 = r.start();
        assert_eq!(r.turn(1, &s0).dice(), 4, "{v}");
        let s1 = go(step(r, 1, &s0, 0));
        let s2 = go(step(r, 1, &s1, 0));
        assert_eq!(
            (s2.holder(), r.turn(2, &s2).dice()),
            (0, second),
            "{v} {cat:?}"
        );
    }
}
