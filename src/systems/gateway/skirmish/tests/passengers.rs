//! Passengers, worked by hand on single rolls: they act just before
//! their lead with their lead's edge, only to Eliminate, Set-up (the free
//! raise to the lead), Aid Another or Disembark; their actions never win
//! the initiative; they are eliminated by their own significance over
//! their lead's line, and leave with their lead.

use super::*;
use moves::Move;

/// Tom (3 dice) against Kroe on one line at `edge`, Tom's passenger the
/// goblin (significance 1) with `gob` as its policy.
fn goblin(edge: i64, gob: ParamValue, extra: Vec<(&str, ParamValue)>) -> SkirmishModel {
    let mut pairs = vec![
        (
            "pcs",
            List(vec![t(&[
                ("name", s("tom")),
                ("policy", List(vec![rule(&["edge"], 0, &[])])),
            ])]),
        ),
        ("key", t(&[("name", s("kroe"))])),
        (
            "minors",
            List(vec![t(&[
                ("name", s("gob")),
                ("lead", s("tom")),
                ("significance", Int(1)),
                ("policy", gob),
            ])]),
        ),
        (
            "lines",
            List(vec![t(&[
                ("between", List(vec![s("tom"), s("kroe")])),
                ("edge", Int(edge)),
            ])]),
        ),
    ];
    pairs.extend(extra);
    skirmish_from(&map(pairs)).unwrap()
}

// Entity indices: tom 0, gob 1 (the PCs' side first), kroe 2.
const TOM: usize = 0;
const GOB: usize = 1;
const KROE: usize = 2;

#[test]
fn a_passenger_sets_up_for_its_lead_with_its_leads_edge_and_never_takes_the_initiative() {
    // Kroe holds and acts first; then the goblin, just before Tom.
    let m = goblin(2, List(vec![rule(&["setup"], 0, &[])]), vec![]);
    let r = &m.rounds;
    let s0 = r.start();
    assert!(s0.is_aboard(GOB));
    assert_eq!(r.turn(1, &s0).actor as usize, KROE);
    let s1 = go(step(r, 1, &s0, 0));
    let t1 = r.turn(1, &s1);
    assert_eq!(t1.actor as usize, GOB);
    // Against Kroe's DT only, with Tom's +2 and no raise to hand it over.
    assert_eq!((t1.targets, t1.need(KROE), t1.paid()), (1 << KROE, -2, 0));
    let s2 = go(step(r, 1, &s1, 1 << KROE));
    assert_eq!((s2.free(TOM), s2.free(GOB)), (1, 0));
    // Tom's Edge spends it (two steps) but fails here; the goblin's
    // successful Set-up does not win the initiative: Kroe keeps it.
    let t2 = r.turn(1, &s2);
    assert_eq!((t2.actor as usize, t2.steps()), (TOM, 2));
    let s3 = go(step(r, 1, &s2, 0));
    assert_eq!((s3.holder(), s3.free(TOM)), (KROE, 0));
    // passenger_setup = "own": the free raise stays with the goblin.
    let m = goblin(
        2,
        List(vec![rule(&["setup"], 0, &[])]),
        vec![("passenger_setup", s("own"))],
    );
    let r = &m.rounds;
    let s1 = go(step(r, 1, &r.start(), 0));
    let s2 = go(step(r, 1, &s1, 1 << KROE));
    assert_eq!((s2.free(TOM), s2.free(GOB)), (0, 1));
}

#[test]
fn aid_another_is_no_roll_and_an_interrupting_lead_leaves_only_aid() {
    // Tom holds and interrupts with a Block: the goblin, whose policy is
    // a Set-up, may only Aid Another: no roll (one outcome, certain),
    // and Tom's Block is paid by its free raise.
    let m = goblin(
        0,
        List(vec![rule(&["setup"], 0, &[])]),
        vec![("initiative", s("tom"))],
    );
    let block = List(vec![
        rule(&["block", "edge"], 0, &[("when", s("holds-initiative"))]),
        rule(&["edge"], 0, &[]),
    ]);
    let m2 = {
        let mut pairs = vec![
            (
                "pcs",
                List(vec![t(&[("name", s("tom")), ("policy", block)])]),
            ),
            ("key", t(&[("name", s("kroe"))])),
            (
                "minors",
                List(vec![t(&[
                    ("name", s("gob")),
                    ("lead", s("tom")),
                    ("policy", List(vec![rule(&["setup"], 0, &[])])),
                ])]),
            ),
            ("initiative", s("tom")),
        ];
        pairs.push(("ladder", Int(5)));
        skirmish_from(&map(pairs)).unwrap()
    };
    // Without the interruption the goblin sets up (a roll).
    let t0 = m.rounds.turn(1, &m.rounds.start());
    assert_eq!(
        (t0.actor as usize, t0.act.moves),
        (GOB, moves::Moves::of(&[Move::Setup]))
    );
    let r = &m2.rounds;
    let s0 = r.start();
    let t0 = r.turn(1, &s0);
    assert_eq!(
        (t0.actor as usize, t0.act.moves),
        (GOB, moves::Moves::of(&[Move::Aid]))
    );
    let mut law = Vec::new();
    r.law(1, &s0, &mut law);
    assert_eq!(law.len(), 1);
    assert_eq!(law[0].1, 1.0);
    let s1 = go(r.after(1, &s0, &law[0].0));
    assert_eq!(s1.free(TOM), 1);
    // Tom's Block + Edge needs one raise for the second effect: free.
    let t1 = r.turn(1, &s1);
    assert_eq!((t1.actor as usize, t1.paid()), (TOM, 0));
    assert!(t1.act.moves.has(Move::Block));
}

#[test]
fn a_passenger_is_eliminated_by_its_own_significance_over_its_leads_line() {
    // A henchman (significance 2) rides with Kroe. Tom at +2 over Kroe
    // may eliminate it, tested against its DT alone; at +1 he may not.
    let mk = |edge: i64| {
        skirmish_from(&map(vec![
            ("pcs", List(vec![t(&[("name", s("tom"))])])),
            ("key", t(&[("name", s("kroe"))])),
            ("henchmen.count", Int(1)),
            ("henchmen.significance", Int(2)),
            ("henchmen.lead", s("kroe")),
            (
                "lines",
                List(vec![t(&[
                    ("between", List(vec![s("tom"), s("kroe")])),
                    ("edge", Int(edge)),
                ])]),
            ),
            ("initiative", s("tom")),
        ]))
        .unwrap()
    };
    let h1 = 2;
    let m = mk(2);
    let r = &m.rounds;
    let s0 = r.start();
    let t0 = r.turn(1, &s0);
    assert!(t0.act.moves.has(Move::Eliminate));
    assert_eq!(t0.targets, 1 << h1);
    let s1 = go(step(r, 1, &s0, 1 << h1));
    assert!(!s1.is_alive(h1));
    assert_eq!(s1.lines_open(), 1);
    let m = mk(1);
    let t0 = m.rounds.turn(1, &m.rounds.start());
    assert_eq!(t0.act.moves, moves::Moves::of(&[Move::Edge]));
    // A passenger leaves with its lead: the boss (significance 1) falls
    // to Tom at +1, and its rider with it.
    let m = skirmish_from(&map(vec![
        ("pcs", List(vec![t(&[("name", s("tom"))])])),
        ("key", t(&[("name", s("kroe"))])),
        (
            "minors",
            List(vec![
                t(&[("name", s("boss")), ("significance", Int(1))]),
                t(&[
                    ("name", s("rider")),
                    ("lead", s("boss")),
                    ("significance", Int(6)),
                ]),
            ]),
        ),
        (
            "lines",
            List(vec![
                t(&[("between", List(vec![s("tom"), s("kroe")]))]),
                t(&[
                    ("between", List(vec![s("tom"), s("boss")])),
                    ("edge", Int(1)),
                ]),
            ]),
        ),
        ("initiative", s("tom")),
    ]))
    .unwrap();
    let r = &m.rounds;
    let s0 = r.start();
    let (boss, rider) = (2, 3);
    assert_eq!(r.turn(1, &s0).targets, 1 << boss);
    let s1 = go(step(r, 1, &s0, 1 << boss));
    assert!(!s1.is_alive(boss) && !s1.is_alive(rider));
}

#[test]
fn disembark_takes_the_leads_lines_or_none_and_ranks_below_edge() {
    for (v, lines) in [("lines", 2), ("disengaged", 1)] {
        let m = goblin(
            1,
            List(vec![rule(&["disembark"], 0, &[])]),
            vec![("initiative", s("tom")), ("disembark", s(v))],
        );
        let r = &m.rounds;
        let s0 = r.start();
        // The goblin first (before its lead), no roll.
        let mut law = Vec::new();
        r.law(1, &s0, &mut law);
        assert_eq!((r.turn(1, &s0).actor as usize, law.len()), (GOB, 1));
        let s1 = go(r.after(1, &s0, &law[0].0));
        assert!(!s1.is_aboard(GOB), "{v}");
        assert_eq!(s1.lines_open(), lines, "{v}");
        if v == "lines" {
            // Hank "leaves with a +1 edge bonus", his lead's.
            assert_eq!(r.edge(&s1, GOB, KROE), 1);
        }
        // Tom's Edge fails, Kroe's fails: the Disembark takes the
        // initiative. Had Tom's Edge succeeded, Edge outranks it.
        let s2 = go(step(r, 1, &s1, 0));
        let s3 = go(step(r, 1, &s2, 0));
        assert_eq!(s3.holder(), GOB, "{v}");
        let s2 = go(step(r, 1, &s1, 1 << KROE));
        let s3 = go(step(r, 1, &s2, 0));
        assert_eq!(s3.holder(), TOM, "{v}");
    }
}

#[test]
fn a_passenger_that_only_aids_and_stays_is_the_scenes_passengers_key() {
    // `passengers = 1` (gateway.scene's anonymous passenger) against a
    // goblin riding with Tom that Aids Another every round, with a Kroe
    // who never eliminates: the same scene, to 1e-9, and worth more than
    // ten points of P(Tom wins).
    let kroe = t(&[
        ("name", s("kroe")),
        ("background", Int(2)),
        (
            "policy",
            List(vec![
                rule(&["climax"], 0, &[]),
                rule(&["anticlimax"], 0, &[]),
                rule(&["edge"], 0, &[]),
            ]),
        ),
    ]);
    let tom = |passengers: i64| {
        t(&[
            ("name", s("tom")),
            ("background", Int(2)),
            ("passengers", Int(passengers)),
        ])
    };
    let scene = |extra: Vec<(&str, ParamValue)>, passengers: i64| {
        let mut pairs = vec![
            ("pcs", List(vec![tom(passengers)])),
            ("key", kroe.clone()),
            ("ladder", Int(5)),
            ("round_cap", Int(30)),
        ];
        pairs.extend(extra);
        skirmish_from(&map(pairs)).unwrap().exact().unwrap()
    };
    let anonymous = scene(vec![], 1);
    let gob = List(vec![t(&[
        ("name", s("gob")),
        ("lead", s("tom")),
        ("policy", List(vec![rule(&["aid"], 0, &[])])),
    ])]);
    let riding = scene(vec![("minors", gob)], 0);
    let alone = scene(vec![], 0);
    for f in [WINNER, ROUNDS, LADDER, FIRST_PC_EDGE] {
        for v in -20..60 {
            let (x, y) = (p(&anonymous, f, v), p(&riding, f, v));
            assert!((x - y).abs() < 1e-9, "field {f} value {v}: {x} vs {y}");
        }
    }
    let (with, without) = (p(&riding, WINNER, PCS_WIN), p(&alone, WINNER, PCS_WIN));
    assert!(with > without + 0.1, "{with} against {without}");
}
