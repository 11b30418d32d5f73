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
