//! Split scenes and squads, worked by hand on single rolls, with bad
//! input, and Monte Carlo against the chain on small configs.

use super::*;
use crate::systems::Mechanic;
use crate::systems::testing::{Sample, assert_agrees_with};

fn line(a: &str, b: &str, e: i64) -> ParamValue {
    t(&[("between", List(vec![s(a), s(b)])), ("edge", Int(e))])
}

fn names(ns: &[&str]) -> ParamValue {
    List(ns.iter().map(|n| s(n)).collect())
}

fn sub(key: &str, entities: &[&str], name: &str) -> ParamValue {
    t(&[
        ("key", s(key)),
        ("entities", names(entities)),
        ("name", s(name)),
    ])
}

/// Tom at the base against the boss, Ann at the mine against the spy:
/// two sub-scenes, PCs first (tom 0, ann 1), the boss 2, the spy 3.
fn split_pairs(lines: Vec<ParamValue>, extra: Vec<(&str, ParamValue)>) -> ParamMap {
    let mut pairs = vec![
        (
            "pcs",
            List(vec![t(&[("name", s("tom"))]), t(&[("name", s("ann"))])]),
        ),
        ("key", t(&[("name", s("boss"))])),
        ("minors", List(vec![t(&[("name", s("spy"))])])),
        (
            "split",
            List(vec![
                sub("boss", &["tom"], "base"),
                sub("spy", &["ann"], "mine"),
            ]),
        ),
        ("lines", List(lines)),
        ("initiative", s("tom")),
        ("ladder", Int(2)),
    ];
    pairs.extend(extra);
    map(pairs)
}

const TOM: usize = 0;
const ANN: usize = 1;
const BOSS: usize = 2;
const SPY: usize = 3;

#[test]
fn a_split_scene_climaxes_only_when_every_sub_scene_is_hit_in_one_round() {
    let m = skirmish_from(&split_pairs(
        vec![line("tom", "boss", 3), line("ann", "spy", 3)],
        vec![],
    ))
    .unwrap();
    let r = &m.rounds;
    let s0 = r.start();
    // Tom's Climax needs a line to the boss alone (his sub-scene), not to
    // the spy, and is rolled against the boss's DT only.
    let t0 = r.turn(1, &s0);
    assert_eq!((t0.actor as usize, t0.targets), (TOM, 1 << BOSS));
    assert!(t0.act.moves.has(moves::Move::Climax));
    // It hits the base: the scene goes on, the boss loses its action.
    let s1 = go(step(r, 1, &s0, 1 << BOSS));
    assert_eq!(s1.climaxed(), 0b01);
    let t1 = r.turn(1, &s1);
    assert_eq!((t1.actor as usize, t1.targets), (ANN, 1 << SPY));
    // Ann's Climax fails: the spy acts next, the boss is skipped.
    let s2 = go(step(r, 1, &s1, 0));
    assert_eq!(r.turn(1, &s2).actor as usize, SPY);
    let s3 = go(step(r, 1, &s2, 0));
    // Round 2: nobody succeeded (a Climax that did not end the scene
    // ranks nothing, the boss counts as a failed Set-up): Tom keeps the
    // initiative; the ladder is down to 1.
    assert_eq!((s3.holder(), s3.ladder()), (TOM, 1));
    // Both climaxes land: the PCs win, both sub-scenes climaxed.
    let s4 = go(step(r, 2, &s3, 1 << BOSS));
    match step(r, 2, &s4, 1 << SPY) {
        After::End(o) => {
            assert_eq!(o[state::F_WINNER], PCS_WIN);
            assert_eq!(o[state::F_CLIMAXED], 0b11);
        }
        other => panic!("the scene went on: {other:?}"),
    }
}

#[test]
fn an_entity_meets_only_the_entities_of_its_sub_scene() {
    // No lines: Ann's Manoeuvre goes to the spy, though the boss comes
    // first in scene order; the boss's to Tom.
    let m = skirmish_from(&split_pairs(vec![], vec![])).unwrap();
    let r = &m.rounds;
    let s0 = r.start();
    let s1 = go(step(r, 1, &s0, 1 << BOSS));
    assert_eq!(r.edge(&s1, TOM, BOSS), 0);
    let t1 = r.turn(1, &s1);
    assert_eq!((t1.actor as usize, t1.targets), (ANN, 1 << SPY));
    let s2 = go(step(r, 1, &s1, 1 << SPY));
    assert_eq!(s2.lines_open(), 2);
    let t2 = r.turn(1, &s2);
    assert_eq!((t2.actor as usize, t2.targets), (BOSS, 1 << TOM));
}

#[test]
fn split_fields_and_a_scene_without_them() {
    let m = skirmish_from(&split_pairs(vec![], vec![])).unwrap();
    let names: Vec<String> = super::super::mechanic::schema_of_model(&m)
        .fields
        .iter()
        .map(|f| f.name.clone())
        .collect();
    assert!(names.ends_with(&["base.climaxed".to_string(), "mine.climaxed".to_string()]));
    // A sub-scene's key entity leaves only by a Climax: no `survived`.
    assert!(!names.contains(&"spy.survived".to_string()));
    let plain = trio(vec![]);
    let plain: Vec<String> = super::super::mechanic::schema_of_model(&plain)
        .fields
        .iter()
        .map(|f| f.name.clone())
        .collect();
    assert!(!plain.iter().any(|n| n.ends_with(".climaxed")));
}

#[test]
fn bad_split_tables_are_refused_by_name() {
    let err = |split: ParamValue| {
        let mut m = split_pairs(vec![], vec![]);
        m.set("split", split);
        skirmish_from(&m).err().expect("refused").to_string()
    };
    let e = err(List(vec![sub("boss", &["tom", "ann"], "base")]));
    assert!(e.contains("2..=6"), "{e}");
    let e = err(List(vec![sub("boss", &["tom"], "a"), sub("spy", &[], "b")]));
    assert!(e.contains("\"ann\" is in no sub-scene"), "{e}");
    let e = err(List(vec![
        sub("tom", &["boss"], "a"),
        sub("spy", &["ann"], "b"),
    ]));
    assert!(e.contains("must be a GM entity"), "{e}");
    let e = err(List(vec![
        sub("boss", &["tom"], "a"),
        sub("spy", &["ann"], "a"),
    ]));
    assert!(e.contains("taken by another"), "{e}");
    let e = err(List(vec![
        t(&[
            ("key", s("boss")),
            ("entities", names(&["tom"])),
            ("who", Int(1)),
        ]),
        sub("spy", &["ann"], "b"),
    ]));
    assert!(e.contains("unknown key `who`"), "{e}");
    // Tom is at the base, the spy at the mine: they never meet.
    let e = skirmish_from(&split_pairs(vec![line("tom", "spy", 0)], vec![]))
        .err()
        .expect("refused");
    assert_eq!(e.key, "lines");
    let e = e.to_string();
    assert!(
        e.contains("tom – spy joins entities of different sub-scenes"),
        "{e}"
    );
    assert!(skirmish_from(&split_pairs(vec![line("tom", "boss", 1)], vec![])).is_ok());
}

/// Tom against the boss, who has a squad of five guards (scale 2,
/// significance 0) riding with him: tom 0, boss 1, guards 2.
fn squad_model(extra: Vec<(&str, ParamValue)>) -> SkirmishModel {
    let mut pairs = vec![
        (
            "pcs",
            List(vec![t(&[
                ("name", s("tom")),
                ("policy", List(vec![rule(&["eliminate"], 2, &[])])),
            ])]),
        ),
        (
            "key",
            t(&[
                ("name", s("boss")),
                ("policy", List(vec![rule(&["edge"], 0, &[])])),
            ]),
        ),
        (
            "minors",
            List(vec![t(&[
                ("name", s("guards")),
                ("lead", s("boss")),
                ("squad", Int(5)),
                ("scale", Int(2)),
                ("significance", Int(0)),
                ("policy", List(vec![rule(&["aid"], 0, &[])])),
            ])]),
        ),
        ("lines", List(vec![line("tom", "boss", 0)])),
        ("ladder", Int(5)),
    ];
    pairs.extend(extra);
    skirmish_from(&map(pairs)).unwrap()
}

#[test]
fn a_squad_aids_by_its_scale_and_loses_a_member_per_raise() {
    let (tom, boss, guards) = (0, 1, 2);
    let m = squad_model(vec![]);
    let r = &m.rounds;
    let s0 = r.start();
    assert_eq!(s0.troop(guards), 5);
    // "His guards surround them as aid another actions": five scale 2
    // guards give two free raises, so the boss's Edge would move 3.
    assert_eq!(r.turn(1, &s0).actor as usize, guards);
    let s1 = go(step(r, 1, &s0, 0));
    assert_eq!(s1.free(boss), 2);
    assert_eq!(r.turn(1, &s1).steps(), 3);
    let s2 = go(step(r, 1, &s1, 0));
    // Tom "risks a couple of raises to take out three guards": two left.
    let t2 = r.turn(1, &s2);
    assert_eq!(
        (t2.actor as usize, t2.paid(), t2.targets),
        (tom, 2, 1 << guards)
    );
    let s3 = go(step(r, 1, &s2, 1 << guards));
    assert!(s3.is_alive(guards));
    assert_eq!(s3.troop(guards), 2);
    // Round 2: Tom's Eliminate took the initiative; he acts first, and
    // the two left go with one more Eliminate of two raises.
    assert_eq!((s3.holder(), r.turn(2, &s3).actor as usize), (tom, tom));
    let s4 = go(step(r, 2, &s3, 0));
    // "a single free raise from the two remaining guards".
    assert_eq!(r.turn(2, &s4).actor as usize, guards);
    let s5 = go(step(r, 2, &s4, 0));
    assert_eq!(s5.free(boss), 1);
    let s6 = go(step(r, 2, &s5, 0));
    let s7 = go(step(r, 3, &s6, 1 << guards));
    assert!(!s7.is_alive(guards));
    assert_eq!(s7.troop(guards), 0);
}

#[test]
fn squad_aid_member_gives_a_free_raise_per_member() {
    let m = squad_model(vec![("squad_aid", s("member"))]);
    let r = &m.rounds;
    let s1 = go(step(r, 1, &r.start(), 0));
    assert_eq!(s1.free(1), 5);
}

/// Small split scenes (four entities, two possible lines) and squads
/// (three entities), exact and simulated.
fn configs() -> Vec<ParamMap> {
    let mut out = Vec::new();
    for (init, edges, ladder) in [("tom", (0, 0), 2), ("boss", (1, -1), 2), ("spy", (2, 0), 3)] {
        out.push(split_pairs(
            vec![line("tom", "boss", edges.0), line("ann", "spy", edges.1)],
            vec![
                ("initiative", s(init)),
                ("ladder", Int(ladder)),
                ("round_cap", Int(20)),
            ],
        ));
    }
    // No lines at the start: Manoeuvres within each sub-scene.
    out.push(split_pairs(vec![], vec![("round_cap", Int(20))]));
    for (aid, raises) in [("scale", 1), ("member", 0), ("scale", 2)] {
        out.push(map(vec![
            (
                "pcs",
                List(vec![t(&[
                    ("name", s("tom")),
                    ("trait", Int(2)),
                    (
                        "policy",
                        List(vec![
                            rule(&["climax"], 0, &[]),
                            rule(&["eliminate"], raises, &[]),
                            rule(&["edge"], 0, &[]),
                        ]),
                    ),
                ])]),
            ),
            ("key", t(&[("name", s("boss"))])),
            (
                "minors",
                List(vec![t(&[
                    ("name", s("guards")),
                    ("lead", s("boss")),
                    ("squad", Int(4)),
                    ("scale", Int(2)),
                    ("significance", Int(0)),
                    ("policy", List(vec![rule(&["aid"], 0, &[])])),
                ])]),
            ),
            ("lines", List(vec![line("tom", "boss", 0)])),
            ("squad_aid", s(aid)),
            ("ladder", Int(2)),
            ("round_cap", Int(20)),
        ]));
    }
    out
}

#[test]
fn monte_carlo_agrees_with_the_chain_on_split_scenes_and_squads() {
    // 20,000 trials a config at a fixed seed, 5 standard errors.
    for (n, values) in configs().iter().enumerate() {
        let m = SkirmishMechanic.prepare(values).unwrap();
        let exact = m
            .exact()
            .unwrap_or_else(|| panic!("split config {n} is beyond the chain"));
        let z = assert_agrees_with(
            m.as_ref(),
            &exact,
            Sample::seed(370 + n as u64).trials(20_000),
            &format!("split config {n}"),
        );
        assert!(z < 5.0);
        let total: f64 = exact.field(WINNER).values().sum();
        assert!((total - 1.0).abs() < 1e-9, "split config {n}: {total}");
    }
}

#[test]
fn no_climax_hits_a_sub_scene_whose_key_entity_is_out_of_play() {
    // The boss is out of play; Tom's line to the guard at +3 beats the
    // ladder, but a Climax must hit the base's key entity: he edges.
    let mut m = split_pairs(vec![line("tom", "guard", 3), line("ann", "spy", 3)], vec![]);
    m.set("key", t(&[("name", s("boss")), ("in_play", Bool(false))]));
    m.set(
        "minors",
        List(vec![t(&[("name", s("spy"))]), t(&[("name", s("guard"))])]),
    );
    m.set(
        "split",
        List(vec![
            sub("boss", &["tom", "guard"], "base"),
            sub("spy", &["ann"], "mine"),
        ]),
    );
    let m = skirmish_from(&m).unwrap();
    let r = &m.rounds;
    let s0 = r.start();
    let t0 = r.turn(1, &s0);
    assert_eq!(t0.actor as usize, TOM);
    assert!(!t0.act.moves.has(moves::Move::Climax));
    // Ann's sub-scene has its key entity: she may.
    let s1 = go(step(r, 1, &s0, 0));
    assert!(r.turn(1, &s1).act.moves.has(moves::Move::Climax));
}

#[test]
fn squad_aid_without_a_squad_is_refused_not_ignored() {
    // `squad_aid` would change nothing without a squad.
    let mut m = split_pairs(vec![], vec![]);
    m.set("squad_aid", s("member"));
    let e = skirmish_from(&m).err().expect("refused").to_string();
    assert!(
        e.contains("squad_aid") && e.contains("no entity is a squad"),
        "{e}"
    );
    // Nor would a `scale` on an entity that is no squad.
    let e = SkirmishMechanic
        .check(&map(vec![
            ("pcs", List(vec![t(&[("name", s("tom"))])])),
            (
                "minors",
                List(vec![
                    t(&[("name", s("guard")), ("scale", Int(2))]),
                    t(&[("name", s("spy"))]),
                ]),
            ),
        ]))
        .expect_err("refused")
        .to_string();
    assert!(e.contains("minor entity 1: `scale` is a squad's"), "{e}");
    // With a squad both are read (`squad_model` unwraps its reading).
    squad_model(vec![("squad_aid", s("member"))]);
}

#[test]
fn a_search_finds_only_an_entity_of_the_searchers_sub_scenes() {
    // The boss starts out of play at the base. Both PCs would search for
    // him first: Tom at the base does, Ann at the mine never meets him
    // and edges against the spy instead.
    let searcher = |name: &str| {
        t(&[
            ("name", s(name)),
            (
                "policy",
                List(vec![
                    rule(&["search"], 0, &[("entity", s("boss"))]),
                    rule(&["edge"], 0, &[]),
                ]),
            ),
        ])
    };
    let mut m = split_pairs(vec![line("ann", "spy", 0)], vec![]);
    m.set("key", t(&[("name", s("boss")), ("in_play", Bool(false))]));
    m.set("pcs", List(vec![searcher("tom"), searcher("ann")]));
    let m = skirmish_from(&m).unwrap();
    let r = &m.rounds;
    let s0 = r.start();
    let t0 = r.turn(1, &s0);
    assert_eq!(t0.actor as usize, TOM);
    assert!(t0.act.moves.has(moves::Move::Search));
    let s1 = go(step(r, 1, &s0, 0));
    let t1 = r.turn(1, &s1);
    assert_eq!(t1.actor as usize, ANN);
    assert!(!t1.act.moves.has(moves::Move::Search));
    assert!(t1.act.moves.has(moves::Move::Edge));
}

#[test]
fn a_squads_members_left_is_a_field_that_agrees_with_its_survival() {
    let m = squad_model(vec![]);
    let names: Vec<String> = super::super::mechanic::schema_of_model(&m)
        .fields
        .iter()
        .map(|f| f.name.clone())
        .collect();
    let at = |n: &str| names.iter().position(|x| x == n).expect(n);
    let (left, survived) = (at("guards.members_left"), at("guards.survived"));
    assert_eq!(left, names.len() - 1, "a squad's field comes last");
    let exact = m.exact().expect("three entities: exact");
    let joint = exact.joint().expect("whole outcomes");
    let mut total = 0.0;
    for (o, &q) in joint {
        // Five guards at the start; none left exactly when eliminated.
        assert!((0..=5).contains(&o[left]), "{o:?}");
        assert_eq!(o[left] == 0, o[survived] == 0, "{o:?}");
        total += q;
    }
    assert!((total - 1.0).abs() < 1e-9);
    // Tom's Eliminates take them out: some scenes end with fewer.
    assert!(joint.iter().any(|(o, _)| (1..5).contains(&o[left])));
}
