//! Hand-worked rounds: exact probabilities from 1d8 against 1d8, and the
//! round function driven one chosen roll at a time; keys and policies.

use super::*;

// ---- Hand-worked rounds ----------------------------------------------

#[test]
fn setup_then_edge_with_the_free_raise() {
    // A (1d8+8) sets up in round 1 (always succeeds), then in round 2 has
    // a free raise, so its rule "setup if no-free-raise" does not hold and
    // it takes an Edge that the free raise pushes 2 steps without raising
    // the DT: certain. B (1d8) always fails. Ladder 5 → 3 after two rounds.
    let mut v = strong("a");
    v.extend(pv(&[
        (
            "a.policy",
            policy(vec![
                rule(&["setup"], 0, Some(s("no-free-raise"))),
                rule(&["edge"], 0, None),
            ]),
        ),
        ("b.trait", Int(1)),
        ("ladder", Int(5)),
        ("round_cap", Int(2)),
    ]));
    let d = duel(v.clone());
    let m = d.exact().unwrap();
    assert_eq!(p(&m, EDGE, 2), 1.0);
    assert_eq!(p(&m, LADDER, 3), 1.0);
    assert_eq!(p(&m, WINNER, STALEMATE), 1.0);
    // Round by round: the Set-up leaves A a free raise and the initiative.
    let r = &d.rounds;
    let s0 = r.start();
    let s1 = go(step(r, 1, &s0, 1 << KEY));
    assert!(s1.has_free(1) && s1.edge(1) == 0);
    let s2 = go(step(r, 1, &s1, 0));
    assert_eq!((s2.holder(), s2.ladder()), (1, 4));
    let mut law = Vec::new();
    r.law(2, &s2, &mut law);
    assert_eq!(law.len(), 1, "certain: {law:?}");
    assert_eq!(law[0].0.raises_used(), Some(1));
    let s3 = go(r.after(2, &s2, &law[0].0));
    assert_eq!((s3.edge(1), s3.has_free(1)), (2, false));
    // The same raise paid instead adds 2 to B's DT: a + 8 ≥ b + 2 fails on
    // (1, 8) only, so the first Edge lands 63/64 of the time (and the
    // second, with the edge at +2, always).
    let mut paid = strong("a");
    paid.extend(pv(&[
        ("a.policy", policy(vec![rule(&["edge"], 1, None)])),
        ("b.trait", Int(1)),
        ("ladder", Int(5)),
        ("round_cap", Int(2)),
    ]));
    let m = duel(paid).exact().unwrap();
    assert!((p(&m, EDGE, 4) - 63.0 / 64.0).abs() < 1e-15);
    assert!((p(&m, EDGE, 2) - 63.0 / 4096.0).abs() < 1e-15);
}

#[test]
fn a_press_holds_the_ladder() {
    // A (1d8+8) presses every round and always succeeds; the ladder never
    // drops. Without the Press it drops by 1 a round.
    let mut v = strong("a");
    v.extend(pv(&[
        ("a.policy", policy(vec![rule(&["press"], 0, None)])),
        ("b.trait", Int(1)),
        ("ladder", Int(3)),
        ("round_cap", Int(4)),
    ]));
    let m = duel(v).exact().unwrap();
    assert_eq!(p(&m, LADDER, 3), 1.0);
    assert_eq!(p(&m, EDGE, 0), 1.0);
    let mut plain = strong("a");
    plain.extend(pv(&[
        ("a.climax", Bool(false)),
        ("b.trait", Int(1)),
        ("ladder", Int(3)),
        ("round_cap", Int(2)),
    ]));
    let m = duel(plain).exact().unwrap();
    assert_eq!(p(&m, LADDER, 1), 1.0);
}

#[test]
fn press_and_accelerate_cancel() {
    // 1d8 against 1d8, edge 0, ladder 4, one round. A accelerates first
    // (P = 36/64); B then presses, needing one raise if A's Accelerate
    // succeeded (P(b ≥ a + 2) = 21/64), none otherwise (36/64).
    // Both succeed: they cancel, the ladder drops by 1 → 3.
    // A alone: 1 + 1 → 2. B alone: the Press holds it → 4. Neither: → 3.
    let mut v = pv(&[
        ("a.trait", Int(1)),
        ("b.trait", Int(1)),
        ("a.policy", policy(vec![rule(&["accelerate"], 0, None)])),
        ("b.policy", policy(vec![rule(&["press"], 0, None)])),
        ("ladder", Int(4)),
    ]);
    // Driven below, then solved for one round.
    let d = duel(v.clone());
    v.push(("round_cap".into(), Int(1)));
    let m = duel(v).exact().unwrap();
    let q = 4096.0;
    assert!((p(&m, LADDER, 3) - (36.0 * 21.0 + 28.0 * 28.0) / q).abs() < 1e-15);
    assert!((p(&m, LADDER, 2) - 36.0 * 43.0 / q).abs() < 1e-15);
    assert!((p(&m, LADDER, 4) - 28.0 * 36.0 / q).abs() < 1e-15);
    // Cancelled, neither counts as successful: A (the holder) keeps the
    // initiative. B's Press alone counts and takes it.
    let r = &d.rounds;
    let s0 = r.start();
    let s1 = go(step(r, 1, &s0, 1 << KEY));
    let mut law = Vec::new();
    r.law(1, &s1, &mut law);
    assert_eq!(law[0].0.raises_used(), Some(1), "pressing after 1 level");
    let both = go(step(r, 1, &s1, 1 << 1));
    assert_eq!((both.ladder(), both.holder()), (3, 1));
    let s1 = go(step(r, 1, &s0, 0));
    let press = go(step(r, 1, &s1, 1 << 1));
    assert_eq!((press.ladder(), press.holder()), (4, KEY));
}

#[test]
fn a_block_by_the_holder_cancels_a_success() {
    // A holds the initiative and blocks; B would take an Edge. 1d8 each:
    // the Block lands 36/64 and B does not act; otherwise B's Edge lands
    // 36/64. P(edge −1 after one round) = 28/64 · 36/64.
    let mut v = pv(&[
        ("a.trait", Int(1)),
        ("b.trait", Int(1)),
        ("a.policy", policy(vec![rule(&["block"], 0, None)])),
        ("ladder", Int(5)),
    ]);
    // Driven below, then solved for one round.
    let d = duel(v.clone());
    v.push(("round_cap".into(), Int(1)));
    let m = duel(v.clone()).exact().unwrap();
    assert!((p(&m, EDGE, -1) - 28.0 * 36.0 / 4096.0).abs() < 1e-15);
    // Driven: B's Edge is possible, A's Block lands, and the round ends
    // at once with A keeping the initiative; a failed Block lets B act
    // and B's success takes the initiative.
    let r = &d.rounds;
    let s0 = r.start();
    let blocked = step(r, 1, &s0, 1 << KEY);
    match blocked {
        After::Round(s) => assert_eq!((s.edge(1), s.holder()), (0, 1)),
        other => panic!("the round should end: {other:?}"),
    }
    let s1 = go(step(r, 1, &s0, 0));
    let after = go(step(r, 1, &s1, 1 << 1));
    assert_eq!((after.edge(1), after.holder()), (-1, KEY));
    // Acting last, the holder still interrupts with its Block; without
    // the initiative a Block is not allowed and the rule is skipped.
    let mut last = v.clone();
    last.push(("a.initiative_order".into(), s("last")));
    assert_eq!(duel(last).exact().unwrap(), m);
    let mut b_first = v;
    b_first.push(("initiative".into(), s("b")));
    let m = duel(b_first).exact().unwrap();
    // B acts first with an Edge (36/64); A's Block is not allowed, so A
    // takes an Edge (the fallback) with the edge moved or not.
    let mut law = Vec::new();
    let d = duel(pv(&[
        ("a.trait", Int(1)),
        ("b.trait", Int(1)),
        ("a.policy", policy(vec![rule(&["block"], 0, None)])),
        ("initiative", s("b")),
    ]));
    let s1 = go(step(&d.rounds, 1, &d.rounds.start(), 0));
    d.rounds.law(1, &s1, &mut law);
    assert_eq!(law[0].0.action().unwrap().1, effect::Action::EDGE);
    assert!(p(&m, EDGE, 0) > 0.0);
}

#[test]
fn the_key_rolls_once_against_every_dt() {
    // K (1d8) takes an Edge against two PCs (1d8 each): one top die r,
    // tested against both. P(both beaten) = Σ (1/8)(r/8)² = 204/512, one
    // only 84/512 each, neither 140/512; two independent rolls would give
    // (36/64)² = 162/512 for both.
    let mut m = ParamMap::new();
    m.set(
        "pcs",
        List(vec![t(&[("trait", Int(1))]), t(&[("trait", Int(1))])]),
    );
    m.set("key", t(&[("trait", Int(1))]));
    let e = ensemble_from(&m).unwrap();
    let r = &e.rounds;
    let mut law = Vec::new();
    r.law(1, &r.start(), &mut law);
    let at = |beat: u8| {
        law.iter()
            .find(|(roll, _)| roll.beat() == Some(beat))
            .map_or(0.0, |(_, p)| *p)
    };
    assert_eq!(at(0b110), 204.0 / 512.0);
    assert_eq!(at(0b010), 84.0 / 512.0);
    assert_eq!(at(0b100), 84.0 / 512.0);
    assert_eq!(at(0b000), 140.0 / 512.0);
    // One beaten, one not: K holds +8 over Tom and −8 against Ann. K's
    // roll r − t + 8 ≥ 1 always beats Tom; r − a − 8 ≤ −1 never beats Ann.
    // Tom (now −9) fails; Ann (+8 < ladder 10) edges: +9. One round.
    m.set(
        "pcs",
        List(vec![
            t(&[
                ("name", s("tom")),
                ("trait", Int(1)),
                ("start_edge", Int(-8)),
            ]),
            t(&[
                ("name", s("ann")),
                ("trait", Int(1)),
                ("start_edge", Int(8)),
            ]),
        ]),
    );
    m.set("round_cap", Int(1));
    let e = ensemble_from(&m).unwrap();
    let exact = e.exact().unwrap();
    let schema = Mechanic::schema_of(&EnsembleMechanic, &m).unwrap();
    let names: Vec<&str> = schema.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "winner",
            "rounds",
            "escaped",
            "final_ladder",
            "tom.edge",
            "ann.edge"
        ]
    );
    assert_eq!(p(&exact, 4, -9), 1.0);
    assert_eq!(p(&exact, 5, 9), 1.0);
    let r = &e.rounds;
    let s1 = go(step(r, 1, &r.start(), 0b010));
    assert_eq!((s1.edge(1), s1.edge(2)), (-9, 8));
}

#[test]
fn initiative_ties_by_raises_or_by_edge() {
    // B holds the initiative and the edge (−3). Both take Edge actions and
    // both succeed: B first (−4), then A with one raise (−2). Equal effects:
    // A used more raises ("raises": A), B has the edge ("edge": B).
    for (tie, holder) in [("raises", 1), ("edge", KEY)] {
        let d = duel(pv(&[
            ("a.edge_raises", Int(1)),
            ("start_edge", Int(-3)),
            ("initiative", s("b")),
            ("initiative_tie", s(tie)),
        ]));
        let r = &d.rounds;
        let s1 = go(step(r, 1, &r.start(), 1 << 1));
        let s2 = go(step(r, 1, &s1, 1 << KEY));
        assert_eq!((s2.edge(1), s2.holder()), (-2, holder), "{tie}");
    }
    // A Set-up outranks an Edge whatever the raises.
    let d = duel(pv(&[
        ("a.edge_raises", Int(3)),
        ("b.policy", policy(vec![rule(&["setup"], 0, None)])),
    ]));
    let r = &d.rounds;
    let s1 = go(step(r, 1, &r.start(), 1 << KEY));
    let s2 = go(step(r, 1, &s1, 1 << 1));
    assert_eq!(s2.holder(), KEY);
}

#[test]
fn the_edge_tie_scores_a_side_behind_as_zero() {
    // Two PCs behind K (Tom −3, Ann −2), Tom holding the initiative: Tom
    // edges (−2), Ann edges (−1), K fails against both. Two equal Edges
    // with no raises. Only the holder of an edge has an edge score, so
    // both score 0 and Tom, the holder, keeps the initiative; ranked by
    // signed edge, Ann (−1 > −2) took it.
    let mut m = ParamMap::new();
    m.set(
        "pcs",
        List(vec![
            t(&[("name", s("tom")), ("start_edge", Int(-3))]),
            t(&[("name", s("ann")), ("start_edge", Int(-2))]),
        ]),
    );
    m.set("initiative", s("pcs"));
    m.set("initiative_tie", s("edge"));
    let e = ensemble_from(&m).unwrap();
    let r = &e.rounds;
    let s1 = go(step(r, 1, &r.start(), 1 << KEY));
    let s2 = go(step(r, 1, &s1, 1 << KEY));
    let s3 = go(step(r, 1, &s2, 0));
    assert_eq!((s3.edge(1), s3.edge(2)), (-2, -1));
    assert_eq!(s3.holder(), 1);
    // Ann ahead (+1 after her Edge) has an edge score and takes it.
    m.set(
        "pcs",
        List(vec![
            t(&[("name", s("tom")), ("start_edge", Int(-3))]),
            t(&[("name", s("ann")), ("start_edge", Int(0))]),
        ]),
    );
    let e = ensemble_from(&m).unwrap();
    let r = &e.rounds;
    let s1 = go(step(r, 1, &r.start(), 1 << KEY));
    let s2 = go(step(r, 1, &s1, 1 << KEY));
    let s3 = go(step(r, 1, &s2, 0));
    assert_eq!((s3.edge(2), s3.holder()), (1, 2));
}

#[test]
fn combined_effects_cost_a_raise_each_and_free_raises_pay_first() {
    // Edge + Accelerate with one chosen raise: 1 + 1 raises, +4 to the DT;
    // with two passengers aiding, both are free. Success moves the edge 2
    // and accelerates 2.
    let base = pv(&[(
        "a.policy",
        policy(vec![rule(&["edge", "accelerate"], 1, None)]),
    )]);
    for (passengers, used, dt) in [(0, 2, 4), (2, 2, 0), (3, 3, 0)] {
        let mut v = base.clone();
        v.push(("a.passengers".into(), Int(passengers)));
        let d = duel(v);
        let r = &d.rounds;
        let mut law = Vec::new();
        r.law(1, &r.start(), &mut law);
        let ok = law.iter().find(|(roll, _)| roll.beat() == Some(1)).unwrap();
        assert_eq!(ok.0.raises_used(), Some(used), "{passengers} passengers");
        // 3d8 against 3d8 + dt.
        let c = crate::systems::gateway::Contest::new(
            crate::systems::gateway::Pool { dice: 3, bonus: 0 },
            crate::systems::gateway::Pool { dice: 3, bonus: dt },
            0,
            0,
        );
        let (w, n) = c.success_fraction();
        assert!((ok.1 - w as f64 / n as f64).abs() < 1e-15);
        let s1 = go(r.after(1, &r.start(), &ok.0));
        // Every free raise beyond the costs is one more step.
        assert_eq!(s1.edge(1), 1 + used as i64 - 1, "{passengers}");
    }
}

#[test]
fn essence_buys_a_die_on_climaxes_and_runs_out() {
    // Ladder 0, edge 0: A climaxes at once, spending its one point: 2d8
    // against B's 1d8, and B (policy always) spends one resisting: 2d8.
    let d = duel(pv(&[
        ("a.trait", Int(1)),
        ("a.essence", Int(1)),
        ("b.trait", Int(1)),
        ("b.essence", Int(2)),
        ("b.essence_policy", s("always")),
        ("ladder", Int(0)),
        ("round_cap", Int(1)),
    ]));
    let r = &d.rounds;
    let mut law = Vec::new();
    r.law(1, &r.start(), &mut law);
    let ok = law
        .iter()
        .find(|(roll, _)| roll.beat() == Some(1))
        .unwrap()
        .1;
    // P(max of 2d8 ≥ max of 2d8) = Σ_r P(r) · (r/8)²
    let want: f64 = (1..=8)
        .map(|r| {
            let pr = ((r * r) as f64 - ((r - 1) * (r - 1)) as f64) / 64.0;
            pr * (r as f64 / 8.0).powi(2)
        })
        .sum();
    assert!((ok - want).abs() < 1e-15);
    let m = d.exact().unwrap();
    // A always spends its point; B spends one resisting and, if A failed,
    // one more on its own Climax.
    assert_eq!(p(&m, A_ESS, 0), 1.0);
    assert!((p(&m, B_ESS, 1) - want).abs() < 1e-12);
    assert!((p(&m, B_ESS, 0) - (1.0 - want)).abs() < 1e-12);
    assert!((p(&m, ROUNDS, 1) - 1.0).abs() < 1e-12);
}

#[test]
fn ladder_zero_is_a_climax_race_by_hand() {
    // 1d8 against 1d8 at ladder 0, edge 0: both sides attempt a Climax
    // every round, each succeeding with p = 36/64 (ties to the roller).
    // A first: P(A) = p / (1 − q²), q = 28/64; P(rounds = 1) = 1 − q².
    let d = duel(pv(&[
        ("a.trait", Int(1)),
        ("b.trait", Int(1)),
        ("ladder", Int(0)),
    ]));
    let m = d.exact().unwrap();
    let (p1, q) = (36.0 / 64.0, 28.0 / 64.0);
    assert!((p(&m, WINNER, A_CLIMAX) - p1 / (1.0 - q * q)).abs() < 1e-12);
    assert!((p(&m, WINNER, B_CLIMAX) - q * p1 / (1.0 - q * q)).abs() < 1e-12);
    assert!((p(&m, ROUNDS, 1) - (1.0 - q * q)).abs() < 1e-12);
    assert!((p(&m, ROUNDS, 3) - q.powi(4) * (1.0 - q * q)).abs() < 1e-12);
}

// ---- Keys and policies ------------------------------------------------

#[test]
fn shorthands_are_policies_and_do_not_mix_with_one() {
    let short = duel(pv(&[
        ("a.edge_raises", Int(2)),
        ("a.anticlimax", Bool(false)),
    ]));
    let long = duel(pv(&[(
        "a.policy",
        policy(vec![rule(&["climax"], 0, None), rule(&["edge"], 2, None)]),
    )]));
    assert_eq!(short.exact(), long.exact());
    let err = duel_from(&values(&[
        ("a.edge_raises", Int(2)),
        ("a.policy", policy(vec![rule(&["edge"], 0, None)])),
    ]))
    .err()
    .unwrap();
    assert_eq!(err.key, "a.edge_raises");
    assert!(
        err.message.contains(
            "\"a.policy\" = [{ effect = \"climax\" }, { effect = \"anticlimax\" }, { effect = \"edge\", raises = 2 }]"
        ),
        "{err}"
    );
    let err = duel_from(&values(&[("a.policy", Int(3))])).err().unwrap();
    assert_eq!(err.key, "a.policy");
    // The default is the rules' (as modelled): Climax, Anticlimax, else Edge.
    assert_eq!(
        duel(vec![]).drama().entities[1].policy.label(),
        "climax; anticlimax; edge"
    );
}

#[test]
fn ensemble_tables_say_what_is_wrong() {
    let bad = |pcs: ParamValue| {
        let mut m = ParamMap::new();
        m.set("pcs", pcs);
        ensemble_from(&m).err().unwrap().message
    };
    let e = bad(List(vec![t(&[("trait", Int(3)), ("trate", Int(1))])]));
    assert!(
        e.starts_with("PC 1: unknown key `trate`; allowed: trait, background"),
        "{e}"
    );
    let e = bad(List(vec![t(&[]), t(&[("essence", Int(9))])]));
    assert!(e.starts_with("PC 2: `essence`: 9 is out of range"), "{e}");
    let e = bad(List(vec![t(&[("name", s("a"))]), t(&[("name", s("a"))])]));
    assert!(e.contains("\"a\" is taken"), "{e}");
    let e = bad(List(vec![t(&[]); 7]));
    assert!(e.contains("1..=6"), "{e}");
    let e = bad(List(vec![t(&[(
        "policy",
        List(vec![rule(&["climb"], 0, None)]),
    )])]));
    assert!(
        e.contains("PC 1: `policy`: rule 1: `effect` = \"climb\" is not an effect"),
        "{e}"
    );
    let e = ensemble_from(&ParamMap::new()).err().unwrap();
    assert_eq!(e.key, "pcs");
}

#[test]
fn a_partial_background_costs_a_forced_raise_acting_and_two_points_targeted() {
    // A: 2d8 + 3 with a partially relevant background and equipment 5
    // (capped at +2). Acting, A's Edge is 2d8 + 5 against B's 3d8 + 2 for
    // the forced raise; targeted, A defends with 2d8 + 5 − 2.
    use crate::systems::gateway::{Contest, Pool};
    let d = duel(pv(&[
        ("a.trait", s("partial")),
        ("a.background", Int(3)),
        ("a.background_relevance", s("partial")),
        ("a.equipment", Int(5)),
        ("initiative", s("a")),
    ]));
    let r = &d.rounds;
    let ok = |state: &State, beat: u8| {
        let mut law = Vec::new();
        r.law(1, state, &mut law);
        law.iter()
            .find(|(roll, _)| roll.beat() == Some(beat))
            .map_or(0.0, |(_, p)| *p)
    };
    let want = |a: Pool, b: Pool| {
        let (w, n) = Contest::new(a, b, 0, 0).success_fraction();
        w as f64 / n as f64
    };
    let s0 = r.start();
    let a = ok(&s0, 1 << KEY);
    assert!((a - want(Pool { dice: 2, bonus: 5 }, Pool { dice: 3, bonus: 2 })).abs() < 1e-15);
    let s1 = go(step(r, 1, &s0, 0));
    let b = ok(&s1, 1 << 1);
    assert!((b - want(Pool { dice: 3, bonus: 0 }, Pool { dice: 2, bonus: 3 })).abs() < 1e-15);
}
