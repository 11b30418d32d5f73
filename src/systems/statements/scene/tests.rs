//! The scene's rules by hand-traced plays, Monte Carlo against exact
//! answers worked out by hand, and its errors.

use super::*;
use crate::dice::DiceRng;
use crate::model::Marginals;
use crate::systems::testing::table;
use crate::systems::testing::{Sample, assert_agrees_with};
use crate::systems::{Mechanic, ParamMap, ParamValue};
use ParamValue::*;

fn player(name: &str, luck: i64, statements: Vec<ParamValue>) -> ParamValue {
    table(&[
        ("name", Str(name.into())),
        ("luck", Int(luck)),
        ("statements", List(statements)),
    ])
}

fn fav(f: i64, o: i64) -> ParamValue {
    table(&[("favouring", Int(f)), ("opposing", Int(o))])
}

fn pair(a: &str, b: &str) -> ParamValue {
    List(vec![Str(a.into()), Str(b.into())])
}

fn scene(players: Vec<ParamValue>, conflicts: Vec<ParamValue>) -> ParamMap {
    let mut m = ParamMap::new();
    m.set("players", List(players));
    if !conflicts.is_empty() {
        m.set("conflicts", List(conflicts));
    }
    m
}

fn made(t: &Played, i: usize) -> bool {
    t.made_true & (1 << i) != 0
}

#[test]
fn conflicting_statements_are_never_both_true_and_the_heavier_wins() {
    // ann.1: 4 + 3 against 5 + 4 (weights 0, 7, 14, 21); bob.1: 5
    // against 5 (weights 0, 5, 10, 15); they conflict. cy.1 is free.
    let t = Scene
        .trial(&scene(
            vec![
                player(
                    "ann",
                    0,
                    vec![table(&[
                        ("favouring", List(vec![Int(4), Int(3)])),
                        ("opposing", List(vec![Int(5), Int(4)])),
                    ])],
                ),
                player("bob", 0, vec![fav(5, 5)]),
                player("cy", 0, vec![fav(2, 2)]),
            ],
            vec![pair("ann.1", "bob.1")],
        ))
        .unwrap();
    let mut rng = DiceRng::from_u64(8);
    let mut trial = Played::default();
    let mut seen = [0u32; 4];
    for _ in 0..200_000 {
        t.play(&mut rng, &mut trial);
        let (wa, wb) = (trial.weights[0], trial.weights[1]);
        assert!(
            !(made(&trial, 0) && made(&trial, 1)),
            "both true: {trial:?}"
        );
        match (wa > 0, wb > 0) {
            (true, true) => {
                // Weights 7k and 5j are never equal for k, j in 1..=3.
                assert_eq!(made(&trial, 0), wa > wb, "{trial:?}");
                assert_eq!(made(&trial, 1), wb > wa, "{trial:?}");
                seen[usize::from(wa > wb)] += 1;
            }
            (a, b) => {
                assert_eq!((made(&trial, 0), made(&trial, 1)), (a, b));
                seen[2 + usize::from(a)] += 1;
            }
        }
        assert_eq!(made(&trial, 2), trial.weights[2] > 0);
    }
    // Every case happened.
    assert!(seen.iter().all(|&n| n > 1000), "{seen:?}");
}

#[test]
fn earlier_tiers_come_first_whatever_the_weight() {
    // ann.1 always weighs 3; bob.2 always weighs 30 but conflicts with
    // it and is resolved a tier later, so it never comes true.
    let t = Scene
        .trial(&scene(
            vec![
                player("ann", 0, vec![fav(1, 0)]),
                player("bob", 0, vec![fav(1, 0), fav(10, 0)]),
            ],
            vec![pair("bob.2", "ann.1")],
        ))
        .unwrap();
    let mut rng = DiceRng::from_u64(1);
    let mut trial = Played::default();
    for _ in 0..100 {
        t.play(&mut rng, &mut trial);
        assert_eq!(trial.weights, vec![3, 3, 30]);
        assert_eq!(trial.made_true, 0b011);
    }
}

#[test]
fn equal_weights_go_to_higher_favouring_then_a_fair_coin() {
    // ann: F 2, three sure successes, W 6. bob: F 3, three sure
    // successes, one hindered away, W 6. Equal weight: bob's F wins.
    let t = Scene
        .trial(&scene(
            vec![
                player("ann", 0, vec![fav(2, 0)]),
                player(
                    "bob",
                    0,
                    vec![table(&[("favouring", Int(3)), ("support", Int(-1))])],
                ),
            ],
            vec![pair("ann.1", "bob.1")],
        ))
        .unwrap();
    let mut rng = DiceRng::from_u64(2);
    let mut trial = Played::default();
    for _ in 0..100 {
        t.play(&mut rng, &mut trial);
        assert_eq!(trial.weights, vec![6, 6]);
        assert_eq!(trial.made_true, 0b10);
    }
    // Same weight and favouring: a fair coin.
    let m = Scene
        .prepare(&scene(
            vec![
                player("ann", 0, vec![fav(2, 0)]),
                player("bob", 0, vec![fav(2, 0)]),
            ],
            vec![pair("ann.1", "bob.1")],
        ))
        .unwrap();
    let names: Vec<&str> = m.schema().metrics.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names[..2], ["p_true.ann.1", "p_true.bob.1"]);
    // Each player: true with 1/2, three sure successes, no failure, no luck.
    let mut exact = Marginals::new(8);
    for p in [0, 4] {
        exact.add(p, 0, 0.5);
        exact.add(p, 1, 0.5);
        exact.add(p + 1, 3, 1.0);
        exact.add(p + 2, 0, 1.0);
        exact.add(p + 3, 0, 1.0);
    }
    assert_agrees_with(m.as_ref(), &exact, Sample::seed(5), "a fair coin");
}

#[test]
fn luck_is_spent_on_true_statements_earned_by_drives_and_capped() {
    // Starting luck 9. Statement 1 always comes true with a bid of 2:
    // 9 − 2 = 7. Statements 2 and 3 reflect drives and always fail
    // three times: 7 + 3 + 3 = 13, capped at 10. Six failures.
    let t = Scene
        .trial(&scene(
            vec![player(
                "ann",
                9,
                vec![
                    table(&[("favouring", Int(5)), ("luck", Int(2))]),
                    table(&[
                        ("favouring", Int(0)),
                        ("opposing", Int(5)),
                        ("drive", Bool(true)),
                    ]),
                    table(&[
                        ("favouring", Int(0)),
                        ("difficulty", Int(4)),
                        ("drive", Bool(true)),
                    ]),
                ],
            )],
            vec![],
        ))
        .unwrap();
    let mut rng = DiceRng::from_u64(3);
    let mut trial = Played::default();
    t.play(&mut rng, &mut trial);
    assert_eq!(trial.made_true, 0b001);
    assert_eq!((trial.failures[0], trial.luck[0]), (6, 10));
    // A bid is spent only when its statement comes true: luck 3, bid 3
    // on a luck-only statement, which (the weight counting luck) comes
    // true now and then: 3 of a d103 per roll.
    let t = Scene
        .trial(&scene(
            vec![player(
                "bob",
                3,
                vec![table(&[
                    ("favouring", Int(0)),
                    ("opposing", Int(100)),
                    ("luck", Int(3)),
                ])],
            )],
            vec![],
        ))
        .unwrap();
    let mut seen = [0; 2];
    for _ in 0..1000 {
        t.play(&mut rng, &mut trial);
        let made = trial.made_true as usize;
        seen[made] += 1;
        assert_eq!(trial.luck[0], if made == 1 { 0 } else { 3 });
    }
    assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
}

#[test]
fn one_statement_scene_matches_the_statement_exactly() {
    use super::super::statement::Statement;
    let mut single = ParamMap::new();
    single.set("favouring", Int(4));
    single.set("opposing", Int(6));
    single.set("luck", Int(2));
    single.set("support", Int(1));
    let statement = Statement.trial(&single).unwrap().exact();
    let m = Scene
        .prepare(&scene(
            vec![player(
                "ann",
                2,
                vec![table(&[
                    ("favouring", Int(4)),
                    ("opposing", Int(6)),
                    ("luck", Int(2)),
                    ("support", Int(1)),
                ])],
            )],
            vec![],
        ))
        .unwrap();
    let schema = m.schema();
    let names: Vec<&str> = schema.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["ann.1.true", "ann.1.successes", "ann.failures", "ann.luck"]
    );
    // The scene's fields from the statement's (successes, failures,
    // weight, true): the bid of 2 is spent exactly when it comes true.
    let mut exact = Marginals::new(4);
    for (to, from) in [(0, 3), (1, 0), (2, 1)] {
        for (&v, &p) in statement.field(from) {
            exact.add(to, v, p);
        }
    }
    for (&made, &p) in statement.field(3) {
        exact.add(3, if made == 1 { 0 } else { 2 }, p);
    }
    assert_agrees_with(m.as_ref(), &exact, Sample::seed(9), "one-statement scene");
}

#[test]
fn support_from_an_earlier_statement_counts_only_if_it_came_true() {
    // ann.1 (W 6) beats cy.1 (W 3) in their conflict. bob.2 is hindered
    // by ann.1, which is true: 3 − 1 = 2 successes. cy.2 is hindered by
    // cy.1, which is not: 3 successes. cy.3 is supported by ann.1 and
    // hindered by cy.1: 0 + 1 successes although it never succeeds.
    let t = Scene
        .trial(&scene(
            vec![
                player("ann", 0, vec![fav(2, 0)]),
                player(
                    "bob",
                    0,
                    vec![
                        fav(1, 0),
                        table(&[("favouring", Int(1)), ("hindered_by", Str("ann.1".into()))]),
                    ],
                ),
                player(
                    "cy",
                    0,
                    vec![
                        fav(1, 0),
                        table(&[("favouring", Int(1)), ("hindered_by", Str("cy.1".into()))]),
                        table(&[
                            ("favouring", Int(0)),
                            ("opposing", Int(4)),
                            ("supported_by", Str("ann.1".into())),
                            ("hindered_by", Str("cy.1".into())),
                        ]),
                    ],
                ),
            ],
            vec![pair("ann.1", "cy.1")],
        ))
        .unwrap();
    let mut rng = DiceRng::from_u64(4);
    let mut trial = Played::default();
    for _ in 0..100 {
        t.play(&mut rng, &mut trial);
        assert_eq!(trial.successes, vec![3, 3, 2, 3, 3, 1]);
        // True: ann.1, bob.1, bob.2, cy.2; cy.1 lost its conflict and
        // cy.3 weighs 1 × favouring 0.
        assert_eq!(trial.made_true, 0b010111);
    }
    // Only earlier statements can support a statement.
    let e = Scene
        .trial(&scene(
            vec![
                player("ann", 0, vec![fav(1, 1)]),
                player(
                    "bob",
                    0,
                    vec![table(&[
                        ("favouring", Int(1)),
                        ("supported_by", Str("ann.1".into())),
                    ])],
                ),
            ],
            vec![],
        ))
        .unwrap_err();
    assert!(
        e.message
            .contains("bob.1 is supported or hindered by ann.1, which is not an earlier statement"),
        "{e}"
    );
}

#[test]
fn bad_scenes_name_what_is_wrong() {
    let err = |m: &ParamMap| Scene.trial(m).unwrap_err();
    let e = err(&ParamMap::new());
    assert_eq!(e.key, "players");
    assert!(e.message.contains("required"), "{e}");
    let e = err(&scene(
        vec![player(
            "ann",
            1,
            vec![table(&[("favouring", Int(2)), ("luck", Int(2))])],
        )],
        vec![],
    ));
    assert!(e.message.contains("bids 2 luck but starts with 1"), "{e}");
    let e = err(&scene(
        vec![player("ann", 0, vec![fav(1, 1)])],
        vec![pair("ann.1", "bob.1")],
    ));
    assert_eq!(e.key, "conflicts");
    assert!(e.message.contains("\"bob.1\" is not a statement"), "{e}");
    let bad = |v: ParamValue| players_of(&List(vec![v])).unwrap_err();
    let e = bad(player(
        "ann",
        0,
        vec![table(&[("favouring", Int(1)), ("dificulty", Int(2))])],
    ));
    assert!(
        e.contains("player 1, statement 1: unknown key `dificulty` (did you mean `difficulty`?)"),
        "{e}"
    );
    let e = bad(player(
        "ann",
        0,
        vec![table(&[("favouring", Int(1)), ("difficulty", Int(1))])],
    ));
    assert!(e.contains("`difficulty`") && e.contains("2..=12"), "{e}");
    let e = bad(player("ann", 0, vec![fav(1, 1); 4]));
    assert!(e.contains("4 statements"), "{e}");
    let e = bad(player("ann", 0, vec![table(&[("opposing", Int(1))])]));
    assert!(e.contains("`favouring` is missing"), "{e}");
    let e = bad(player("a.b", 0, vec![fav(1, 1)]));
    assert!(e.contains("name \"a.b\""), "{e}");
    let e = conflicts_of(&List(vec![pair("ann.4", "bob.1")])).unwrap_err();
    assert!(e.contains("1..=3"), "{e}");
    let e = conflicts_of(&List(vec![pair("ann.1", "ann.1")])).unwrap_err();
    assert!(e.contains("itself"), "{e}");
}

/// rules §5.3: statements may name their factors; named factors sum as
/// numbers do, and one name may support at most two of a player's
/// statements in a scene.
#[test]
fn named_factors_sum_and_support_at_most_two_statements() {
    let named = |names: &[(&str, i64)]| {
        table(&[
            (
                "favouring",
                table(&names.iter().map(|(n, v)| (*n, Int(*v))).collect::<Vec<_>>()),
            ),
            ("opposing", Int(9)),
        ])
    };
    let will = named(&[("will", 4), ("charismatic", 3)]);
    // Named factors are the same scene as their sum: d16, success on 1..=7.
    let by_name = Scene
        .trial(&scene(vec![player("ann", 0, vec![will.clone()])], vec![]))
        .unwrap();
    let by_sum = Scene
        .trial(&scene(vec![player("ann", 0, vec![fav(7, 9)])], vec![]))
        .unwrap();
    assert_eq!(by_name, by_sum);
    // Twice is allowed, by each player.
    let twice = vec![will.clone(), will.clone(), named(&[("acuity", 5)])];
    assert!(
        Scene
            .trial(&scene(
                vec![player("ann", 0, twice.clone()), player("bob", 0, twice)],
                vec![]
            ))
            .is_ok()
    );
    // Three times is an error naming the factor and the player.
    let e = Scene
        .trial(&scene(
            vec![
                player("bob", 0, vec![will.clone()]),
                player(
                    "ann",
                    0,
                    vec![named(&[("charismatic", 1)]), will.clone(), will],
                ),
            ],
            vec![],
        ))
        .unwrap_err();
    assert_eq!(e.key, "players");
    assert!(e.message.contains("player 2 (ann)"), "{}", e.message);
    assert!(
        e.message.contains("`charismatic` in 3 statements"),
        "{}",
        e.message
    );
    // A named factor must still be a number in range.
    let e = players_of(&List(vec![player(
        "ann",
        0,
        vec![table(&[("favouring", table(&[("will", Int(-1))]))])],
    )]))
    .unwrap_err();
    assert!(e.contains("`will`"), "{e}");
}

/// The registry's example scene (two players, two statements each, no
/// conflict, luck or support): a statement comes true exactly when it has
/// a success, so the scene's law is its statements' own, convolved for
/// each player's failures. A million trials (successes drawn from alias
/// tables, counted by key) agree with it.
#[test]
fn the_example_scene_agrees_with_its_statements_laws() {
    use super::super::roll::{Roll, Rolls};
    let model = Scene
        .prepare(&crate::systems::testing::example(&Scene))
        .unwrap();
    let mut exact = Marginals::new(12);
    for (p, favouring) in [(0, 3), (1, 5)] {
        let law = |f: u64| Roll::new(f, 4).success_probabilities(Rolls::Three);
        let laws = [law(favouring), law(favouring + 1)];
        let at = 6 * p;
        for (k, l) in laws.iter().enumerate() {
            exact.add(at + 2 * k, 0, l[0]);
            exact.add(at + 2 * k, 1, 1.0 - l[0]);
            for (s, &q) in l.iter().enumerate() {
                exact.add(at + 2 * k + 1, s as i64, q);
            }
        }
        for (x, &a) in laws[0].iter().enumerate() {
            for (y, &b) in laws[1].iter().enumerate() {
                exact.add(at + 4, 6 - x as i64 - y as i64, a * b);
            }
        }
        exact.add(at + 5, 0, 1.0);
    }
    let z = assert_agrees_with(model.as_ref(), &exact, Sample::seed(18), "example scene");
    eprintln!("example scene: worst |z| {z:.2}");
}
