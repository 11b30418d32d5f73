//! The named variants of entities out of play, each told apart from the
//! default on the roll where they part: `search_cost` (the rule's one
//! raise per point of significance over 1, or the First Scene's one per
//! point) and `surprise_lines` (a combined Surprise's lines opened
//! whatever the roll, or only where it wins).

use super::*;

fn line(a: &str, b: &str, e: i64) -> ParamValue {
    t(&[("between", List(vec![s(a), s(b)])), ("edge", Int(e))])
}

/// Tom (at 0 with Kroe) searching for an ally out of play of
/// `significance`, with `extra` keys.
fn search(significance: i64, extra: Vec<(&str, ParamValue)>) -> SkirmishModel {
    let mut pairs = vec![
        (
            "pcs",
            List(vec![t(&[
                ("name", s("tom")),
                (
                    "policy",
                    List(vec![rule(&["search"], 0, &[("entity", s("witness"))])]),
                ),
            ])]),
        ),
        ("key", t(&[("name", s("kroe"))])),
        (
            "minors",
            List(vec![t(&[
                ("name", s("witness")),
                ("side", s("pcs")),
                ("significance", Int(significance)),
                ("in_play", Bool(false)),
            ])]),
        ),
        ("lines", List(vec![line("tom", "kroe", 0)])),
        ("initiative", s("tom")),
        ("ladder", Int(3)),
    ];
    pairs.extend(extra);
    skirmish_from(&map(pairs)).unwrap()
}

/// P(the witness enters), exactly.
fn p_enters(m: &SkirmishModel) -> f64 {
    let names: Vec<String> = super::super::mechanic::schema_of_model(m)
        .fields
        .iter()
        .map(|f| f.name.clone())
        .collect();
    let entered = names.iter().position(|n| n == "witness.entered").unwrap();
    p(&m.exact().unwrap(), entered, 1)
}

#[test]
fn search_cost_significance_pays_a_raise_for_every_point() {
    // The rule: significance 2 needs one raise, 4 needs three; the First
    // Scene's reading ("two raises" for the significance 2 trigger): one
    // per point, 2 and 4. Significance 0 and 1: none by the rule, 0 and 1.
    let significance = vec![("search_cost", s("significance"))];
    for (sig, rule_raises, scene_raises) in [(0, 0, 0), (1, 0, 1), (2, 1, 2), (4, 3, 4)] {
        let by_rule = search(sig, vec![]);
        let by_scene = search(sig, significance.clone());
        let paid = |m: &SkirmishModel| m.rounds.turn(1, &m.rounds.start()).paid();
        assert_eq!(
            (paid(&by_rule), paid(&by_scene)),
            (rule_raises, scene_raises),
            "significance {sig}"
        );
    }
    // Each raise adds 2 to the witness's DT: the First Scene's reading
    // makes a significance 2 witness harder to find, and changes nothing
    // else (a scene with nobody to search is the same).
    let (rule, scene) = (
        p_enters(&search(2, vec![])),
        p_enters(&search(2, significance.clone())),
    );
    assert!(scene < rule - 0.01, "{scene} {rule}");
    let duel = |extra: Vec<(&str, ParamValue)>| {
        let mut pairs = vec![
            ("pcs", List(vec![t(&[("name", s("tom"))])])),
            ("key", t(&[("name", s("kroe"))])),
            ("ladder", Int(3)),
        ];
        pairs.extend(extra);
        let m = skirmish_from(&map(pairs)).unwrap();
        p(&m.exact().unwrap(), WINNER, PCS_WIN)
    };
    assert_eq!(duel(vec![]), duel(significance));
}

/// Tom (the default policy) against Kroe and a guard entering in round
/// 1 and surprising Tom combined with an Edge
/// (one raise), with `extra` keys.
fn surprise(extra: Vec<(&str, ParamValue)>) -> SkirmishModel {
    let mut pairs = vec![
        ("pcs", List(vec![t(&[("name", s("tom"))])])),
        ("key", t(&[("name", s("kroe"))])),
        (
            "minors",
            List(vec![t(&[
                ("name", s("guard")),
                ("significance", Int(2)),
                ("in_play", Bool(false)),
                ("enters", t(&[("round", Int(1))])),
                ("policy", List(vec![rule(&["surprise", "edge"], 0, &[])])),
            ])]),
        ),
        ("lines", List(vec![line("tom", "kroe", 0)])),
        ("initiative", s("tom")),
        ("ladder", Int(4)),
    ];
    pairs.extend(extra);
    skirmish_from(&map(pairs)).unwrap()
}

#[test]
fn surprise_lines_on_success_opens_only_the_lines_the_roll_wins() {
    let (tom, guard) = (0, 2);
    // Round 1: Tom and Kroe fail, then the guard surprises Tom with an
    // Edge, rolled against Tom's DT under either reading.
    let at_guard = |m: &SkirmishModel| {
        let r = &m.rounds;
        let s0 = r.start();
        let s1 = go(step(r, 1, &s0, 0));
        let s2 = go(step(r, 1, &s1, 0));
        assert_eq!(r.turn(1, &s2).actor as usize, guard);
        s2
    };
    // By default its failed roll opens the line all the same, and the
    // Surprise takes the initiative.
    let m = surprise(vec![]);
    let s2 = at_guard(&m);
    assert_eq!(m.rounds.turn(1, &s2).targets, 1 << tom);
    let s3 = go(step(&m.rounds, 1, &s2, 0));
    assert_eq!((s3.lines_open(), s3.holder()), (2, guard));
    // On success only: the failed roll opens nothing and wins nothing;
    // the roll that beats Tom opens the line and edges it.
    let m = surprise(vec![("surprise_lines", s("on-success"))]);
    let s2 = at_guard(&m);
    let s3 = go(step(&m.rounds, 1, &s2, 0));
    assert_eq!((s3.lines_open(), s3.holder()), (1, tom));
    let s3 = go(step(&m.rounds, 1, &s2, 1 << tom));
    assert_eq!((s3.lines_open(), m.rounds.edge(&s3, guard, tom)), (2, 1));
    // A Surprise alone has no roll: it opens its lines either way.
    let alone = |extra: Vec<(&str, ParamValue)>| {
        let mut pairs = vec![(
            "minors",
            List(vec![t(&[
                ("name", s("guard")),
                ("in_play", Bool(false)),
                ("enters", t(&[("round", Int(1))])),
            ])]),
        )];
        pairs.extend(extra);
        let m = surprise(pairs);
        let s2 = at_guard(&m);
        let mut law = Vec::new();
        m.rounds.law(1, &s2, &mut law);
        assert_eq!(law.len(), 1);
        go(m.rounds.after(1, &s2, &law[0].0)).lines_open()
    };
    assert_eq!(alone(vec![]), 2);
    assert_eq!(alone(vec![("surprise_lines", s("on-success"))]), 2);
    // The odds move, and against Tom: a Climax needs a line to every
    // opponent, and a failed Surprise leaves him to open the guard's by
    // a Manoeuvre of his own (0.074 against 0.102).
    let tom_wins = |m: &SkirmishModel| p(&m.exact().unwrap(), WINNER, PCS_WIN);
    let (always, on_success) = (
        tom_wins(&surprise(vec![])),
        tom_wins(&surprise(vec![("surprise_lines", s("on-success"))])),
    );
    assert!(always > on_success + 0.02, "{on_success} {always}");
}

#[test]
fn the_entrants_variants_are_idle_where_no_rule_plays_them() {
    // A listing of what a scene's numbers rest on leaves them out when
    // nothing searches or surprises with a roll: the scenes written
    // before the keys existed list the defaults they listed.
    use crate::model::Mechanic;
    let idle = |pairs: Vec<(&str, ParamValue)>| super::super::SkirmishMechanic.idle(&map(pairs));
    let duel = vec![
        ("pcs", List(vec![t(&[("name", s("tom"))])])),
        ("key", t(&[("name", s("kroe"))])),
    ];
    assert_eq!(
        idle(duel),
        vec!["search_cost", "surprise_lines", "squad_aid"]
    );
    let searching = vec![
        (
            "pcs",
            List(vec![t(&[
                ("name", s("tom")),
                (
                    "policy",
                    List(vec![rule(&["search"], 0, &[("entity", s("witness"))])]),
                ),
            ])]),
        ),
        (
            "minors",
            List(vec![t(&[
                ("name", s("witness")),
                ("side", s("pcs")),
                ("in_play", Bool(false)),
            ])]),
        ),
    ];
    assert_eq!(idle(searching), vec!["surprise_lines", "squad_aid"]);
    let guard = |effects: &[&str]| {
        vec![
            ("pcs", List(vec![t(&[("name", s("tom"))])])),
            (
                "minors",
                List(vec![t(&[
                    ("name", s("guard")),
                    ("in_play", Bool(false)),
                    ("enters", t(&[("round", Int(2))])),
                    ("policy", List(vec![rule(effects, 0, &[])])),
                ])]),
            ),
        ]
    };
    assert_eq!(
        idle(guard(&["surprise"])),
        vec!["search_cost", "surprise_lines", "squad_aid"]
    );
    assert_eq!(
        idle(guard(&["surprise", "edge"])),
        vec!["search_cost", "squad_aid"]
    );
    // A squad's Aid Another reads `squad_aid`.
    let mut squad = guard(&["surprise"]);
    squad[1] = (
        "minors",
        List(vec![t(&[("name", s("guards")), ("squad", Int(5))])]),
    );
    assert_eq!(idle(squad), vec!["search_cost", "surprise_lines"]);
}
