//! The rules of lines, Eliminate and Set-up, worked by hand on single
//! rolls.

use super::*;

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
