//! The exact solver against Monte Carlo (10^6 trials, |z| < 5), the
//! one-PC ensemble against the duel, and the state limit.

use super::*;

// ---- Exact against Monte Carlo ----------------------------------------

/// Every metric of `m` against 10^6 simulated trials: |z| < 5.
fn agrees(m: &dyn Model, seed: u64, what: &str) {
    let exact = m
        .exact()
        .unwrap_or_else(|| panic!("{what}: no exact answer"));
    for f in 0..exact.len() {
        let total: f64 = exact.field(f).values().sum();
        assert!((total - 1.0).abs() < 1e-9, "{what} field {f}: {total}");
    }
    let plan = Plan {
        seed,
        trials: 1_000_000,
        precision: None,
    };
    let tally = simulate(&[(0, m)], &plan, &()).remove(0);
    for spec in &m.schema().metrics {
        let z = z_score(&exact_value(spec, &exact), &estimate(spec, &tally));
        assert!(z.abs() < 5.0, "{what}: {} z = {z}", spec.name);
    }
}

pub(super) fn when(name: &str) -> Option<ParamValue> {
    Some(s(name))
}

fn when_n(key: &str, n: i64) -> Option<ParamValue> {
    Some(t(&[(key, Int(n))]))
}

/// Twenty-two duels that together use every effect, combinations, free
/// raises from Set-ups and passengers, essence under each spending policy,
/// both tie rules, both orders and every first initiative.
pub(super) fn duel_configs() -> Vec<Vec<(&'static str, ParamValue)>> {
    let setup = policy(vec![
        rule(&["climax"], 0, None),
        rule(&["anticlimax"], 0, None),
        rule(&["setup"], 0, when("no-free-raise")),
        rule(&["edge"], 0, None),
    ]);
    let rush = policy(vec![
        rule(&["climax"], 0, None),
        rule(&["edge", "accelerate"], 0, when_n("edge_at_least", 1)),
        rule(&["edge"], 0, None),
    ]);
    let stall = policy(vec![
        rule(&["climax"], 0, None),
        rule(&["anticlimax"], 0, None),
        rule(&["press"], 0, when_n("edge_at_most", -1)),
        rule(&["edge"], 0, None),
    ]);
    let block = policy(vec![
        rule(&["climax"], 0, None),
        rule(&["block", "edge"], 0, when("holds-initiative")),
        rule(&["edge"], 0, None),
    ]);
    let late = policy(vec![
        rule(&["climax"], 0, when("can-climax")),
        rule(&["accelerate"], 1, when_n("round_at_least", 3)),
        rule(&["setup", "edge"], 0, when("has-free-raise")),
        rule(&["edge"], 1, when_n("ladder_at_most", 4)),
        rule(&["edge"], 0, None),
    ]);
    vec![
        vec![],
        vec![("ladder", Int(2)), ("a.trait", Int(1)), ("b.trait", Int(4))],
        vec![("ladder", Int(6)), ("a.policy", setup.clone())],
        vec![
            ("ladder", Int(6)),
            ("a.policy", stall.clone()),
            ("b.policy", rush.clone()),
        ],
        vec![
            ("ladder", Int(8)),
            (
                "a.policy",
                policy(vec![
                    rule(&["climax"], 0, None),
                    rule(&["edge", "accelerate"], 1, None),
                ]),
            ),
        ],
        vec![
            ("ladder", Int(5)),
            ("a.policy", block.clone()),
            ("b.policy", block.clone()),
        ],
        vec![
            ("ladder", Int(5)),
            ("a.passengers", Int(2)),
            ("b.passengers", Int(1)),
            ("b.aid", s("never")),
            ("b.policy", setup.clone()),
        ],
        vec![
            ("ladder", Int(4)),
            ("a.essence", Int(2)),
            ("b.essence", Int(1)),
            ("b.essence_policy", s("always")),
        ],
        vec![
            ("ladder", Int(3)),
            ("a.essence", Int(3)),
            ("a.essence_policy", s("always")),
            ("b.essence", Int(3)),
            ("b.essence_policy", s("always")),
            ("a.trait", Int(2)),
        ],
        vec![
            ("ladder", Int(6)),
            ("initiative_tie", s("edge")),
            ("a.policy", setup.clone()),
            ("b.policy", setup.clone()),
        ],
        vec![
            ("ladder", Int(5)),
            ("a.edge_raises", Int(1)),
            ("b.edge_raises", Int(2)),
            ("initiative", s("b")),
        ],
        vec![
            ("ladder", Int(5)),
            ("initiative", s("random")),
            ("a.initiative_order", s("last")),
            ("b.initiative_order", s("last")),
            ("a.policy", block.clone()),
        ],
        vec![
            ("ladder", Int(1)),
            ("start_edge", Int(-3)),
            ("b.climax", Bool(false)),
            ("b.trait", Int(2)),
        ],
        vec![
            ("ladder", Int(3)),
            ("round_cap", Int(6)),
            ("a.climax", Bool(false)),
            ("b.climax", Bool(false)),
        ],
        vec![
            ("ladder", Int(7)),
            ("a.passengers", Int(1)),
            (
                "a.policy",
                policy(vec![
                    rule(&["climax"], 0, None),
                    rule(&["setup", "edge"], 0, None),
                ]),
            ),
            ("b.policy", rush.clone()),
        ],
        vec![
            ("ladder", Int(9)),
            ("a.policy", late.clone()),
            ("initiative_tie", s("edge")),
        ],
        vec![
            ("ladder", Int(6)),
            ("a.background", Int(3)),
            ("a.background_relevance", s("partial")),
            ("b.equipment", Int(2)),
            ("a.policy", late.clone()),
            ("b.policy", stall.clone()),
        ],
        vec![
            ("ladder", Int(4)),
            ("a.policy", policy(vec![rule(&["climax", "edge"], 1, None)])),
            ("b.passengers", Int(2)),
            ("b.policy", setup),
            ("initiative", s("random")),
        ],
        vec![
            // A presses first; B accelerates after it (one raise more).
            ("ladder", Int(6)),
            (
                "a.policy",
                policy(vec![rule(&["climax"], 0, None), rule(&["press"], 0, None)]),
            ),
            (
                "b.policy",
                policy(vec![
                    rule(&["climax"], 0, None),
                    rule(&["accelerate"], 0, None),
                ]),
            ),
        ],
        vec![
            ("ladder", Int(5)),
            ("initiative", s("b")),
            ("a.initiative_order", s("last")),
            ("a.essence", Int(2)),
            ("a.essence_policy", s("never")),
            ("b.policy", stall),
            ("a.policy", rush),
        ],
        vec![
            ("ladder", Int(0)),
            ("start_edge", Int(-1)),
            ("a.essence", Int(1)),
            ("b.essence", Int(2)),
            ("b.trait", Int(2)),
        ],
        vec![
            ("ladder", Int(10)),
            ("a.policy", block),
            ("b.policy", late),
            ("a.passengers", Int(1)),
            ("b.essence", Int(2)),
            ("initiative_tie", s("edge")),
            ("initiative", s("random")),
        ],
    ]
}

#[test]
fn duel_exact_and_monte_carlo_agree_on_22_configs() {
    let configs = duel_configs();
    assert!(configs.len() >= 20);
    for (i, pairs) in configs.iter().enumerate() {
        let m = SceneMechanic.prepare(&values(pairs)).unwrap();
        agrees(m.as_ref(), 12 + i as u64, &format!("config {i} {pairs:?}"));
    }
}

fn pc_table(side: &[(&str, ParamValue)]) -> ParamValue {
    t(side)
}

#[test]
fn a_one_pc_ensemble_is_the_duel() {
    // A becomes the PC, B the key entity; the same rules run, so the
    // ensemble's exact law is the duel's, and 10^6 simulated ensembles
    // agree with the duel's exact metrics within 5 standard errors.
    for (i, pairs) in duel_configs().iter().enumerate().step_by(4) {
        let duel = SceneMechanic.prepare(&values(pairs)).unwrap();
        let mut m = ParamMap::new();
        let side = |p: &str| {
            pairs
                .iter()
                .filter_map(|(k, v)| k.strip_prefix(p).map(|k| (k, v.clone())))
                .collect::<Vec<_>>()
        };
        let shorthand = |k: &str| matches!(k, "edge_raises" | "climax" | "anticlimax");
        if side("a.").iter().any(|(k, _)| shorthand(k))
            || side("b.").iter().any(|(k, _)| shorthand(k))
        {
            continue;
        }
        let mut pc = side("a.");
        let edge = pairs
            .iter()
            .find(|(k, _)| *k == "start_edge")
            .map(|(_, v)| v.clone());
        if let Some(e) = edge {
            pc.push(("start_edge", e));
        }
        m.set("pcs", List(vec![pc_table(&pc)]));
        m.set("key", pc_table(&side("b.")));
        for (k, v) in pairs {
            match *k {
                "ladder" | "round_cap" | "initiative_tie" => m.set(*k, v.clone()),
                "initiative" => match v {
                    Str(x) if x == "b" => m.set("initiative", s("key")),
                    Str(x) if x == "a" => m.set("initiative", s("pcs")),
                    _ => {}
                },
                _ => {}
            }
        }
        if !pairs.iter().any(|(k, _)| *k == "initiative") {
            m.set("initiative", s("pcs"));
        }
        if pairs
            .iter()
            .any(|(k, v)| *k == "initiative" && *v == s("random"))
        {
            continue;
        }
        let ens = EnsembleMechanic.prepare(&m).unwrap();
        let exact = duel.exact().unwrap();
        let (de, ee) = (duel.schema(), ens.schema());
        let ens_exact = ens.exact().unwrap();
        let plan = Plan {
            seed: 77 + i as u64,
            trials: 1_000_000,
            precision: None,
        };
        let tally = simulate(&[(0, ens.as_ref())], &plan, &()).remove(0);
        for (dm, em) in de.metrics.iter().zip(&ee.metrics) {
            let x = exact_value(dm, &exact);
            assert!(
                (x.value - exact_value(em, &ens_exact).value).abs() < 1e-12,
                "config {i} {}",
                em.name
            );
            let z = z_score(&x, &estimate(em, &tally));
            assert!(
                z.abs() < 5.0,
                "config {i}: {} vs {}: z = {z}",
                dm.name,
                em.name
            );
        }
    }
}

#[test]
fn two_pc_ensembles_exact_and_monte_carlo_agree() {
    let kroe = t(&[
        ("trait", Int(3)),
        ("background", Int(4)),
        ("essence", Int(1)),
        (
            "policy",
            List(vec![
                rule(&["climax"], 0, None),
                rule(&["block"], 0, when("holds-initiative")),
                rule(&["edge"], 1, None),
            ]),
        ),
    ]);
    let tom = t(&[
        ("name", s("tom")),
        ("trait", Int(3)),
        ("background", Int(1)),
        ("start_edge", Int(-2)),
        ("passengers", Int(1)),
    ]);
    let ann = t(&[
        ("name", s("ann")),
        ("trait", s("partial")),
        ("background", Int(3)),
        ("start_edge", Int(-2)),
        (
            "policy",
            List(vec![
                rule(&["climax"], 0, None),
                rule(&["setup"], 0, when("no-free-raise")),
                rule(&["edge", "accelerate"], 0, None),
            ]),
        ),
    ]);
    for (i, (ladder, tie, init)) in [
        (4, "raises", "key"),
        (6, "edge", "pcs"),
        (3, "raises", "pcs"),
    ]
    .into_iter()
    .enumerate()
    {
        let mut m = ParamMap::new();
        m.set("pcs", List(vec![tom.clone(), ann.clone()]));
        m.set("key", kroe.clone());
        m.set("ladder", Int(ladder));
        m.set("initiative_tie", s(tie));
        m.set("initiative", s(init));
        let e = EnsembleMechanic.prepare(&m).unwrap();
        agrees(e.as_ref(), 40 + i as u64, &format!("ensemble {i}"));
    }
}

#[test]
fn a_symmetric_duel_with_a_random_first_initiative_is_fair() {
    let d = duel(pv(&[
        ("a.trait", Int(2)),
        ("b.trait", Int(2)),
        ("ladder", Int(6)),
        ("initiative", s("random")),
        (
            "a.policy",
            policy(vec![
                rule(&["climax"], 0, None),
                rule(&["setup"], 0, when("no-free-raise")),
                rule(&["edge"], 0, None),
            ]),
        ),
        (
            "b.policy",
            policy(vec![
                rule(&["climax"], 0, None),
                rule(&["setup"], 0, when("no-free-raise")),
                rule(&["edge"], 0, None),
            ]),
        ),
    ]));
    let m = d.exact().unwrap();
    assert!((p(&m, WINNER, A_CLIMAX) - p(&m, WINNER, B_CLIMAX)).abs() < 1e-12);
    // With A always first it is not: the first mover's advantage.
    let first = duel(pv(&[
        ("a.trait", Int(2)),
        ("b.trait", Int(2)),
        ("ladder", Int(6)),
    ]))
    .exact()
    .unwrap();
    assert!(p(&first, WINNER, A_CLIMAX) > p(&first, WINNER, B_CLIMAX) + 0.01);
}

#[test]
fn beyond_the_state_limit_there_is_no_exact_answer() {
    // Two PCs and K with essence, Set-ups, Presses and Accelerates on a
    // ladder of 50, nobody ever climaxing: edges spread on two lines and
    // the ladder spreads too, so the chain outgrows MAX_STATES live states
    // and `--mode auto` simulates.
    let press_or_rush = |raises| {
        policy(vec![
            rule(&["press"], 0, when_n("edge_at_most", -1)),
            rule(&["setup"], 0, when("no-free-raise")),
            rule(&["edge", "accelerate"], raises, None),
        ])
    };
    let mut m = ParamMap::new();
    m.set(
        "pcs",
        List(vec![
            t(&[
                ("essence", Int(6)),
                ("passengers", Int(1)),
                ("policy", press_or_rush(0)),
            ]),
            t(&[
                ("essence", Int(6)),
                ("essence_policy", s("always")),
                (
                    "policy",
                    policy(vec![
                        rule(&["setup"], 0, when("no-free-raise")),
                        rule(&["edge"], 1, None),
                    ]),
                ),
            ]),
        ]),
    );
    m.set(
        "key",
        t(&[("essence", Int(6)), ("policy", press_or_rush(1))]),
    );
    m.set("ladder", Int(50));
    m.set("round_cap", Int(1000));
    assert!(ensemble_from(&m).unwrap().exact().is_none());
    let mut m = ParamMap::new();
    m.set("pcs", List(vec![t(&[]), t(&[]), t(&[])]));
    assert!(
        ensemble_from(&m).unwrap().exact().is_none(),
        "three PCs: simulated"
    );
}

// ---- The chain against the walk of every path --------------------------

/// The chain on a scene's rounds is the walk of every path of rolls,
/// and its sampler draws as the plain loop with the bespoke roll
/// (`model::play`, what the chain draws the states it does not keep
/// by): every duel above cut at 7
/// rounds (the first initiative's coin, then two actions a round, each
/// beating its DT or not: 2 × 4^7 paths at most), and a key entity
/// against 2 PCs cut at 4 rounds and 3 PCs at 3 (K's action branches on
/// each PC's DT: up to 2 × 16^4 and 2 × 64^3 paths). Cut short so that
/// the walk, which merges no states, takes milliseconds.
#[test]
fn the_chain_is_the_enumeration() {
    use crate::model::play;
    use crate::systems::gateway::scene::state::FIELDS;
    use crate::systems::testing::{
        assert_chain_is_enumeration, assert_chain_samples_as, assert_frequencies,
        assert_roll_is_law,
    };
    let check = |rounds: &SceneRounds, cap: usize, what: &str| {
        let rolls = 1 + cap * (rounds.pcs() + 1);
        let (exact, lost) = assert_chain_is_enumeration(rounds, FIELDS, rolls, what);
        assert_eq!(lost, 0.0, "{what}: the round cap ends every scene");
        assert_roll_is_law(rounds, rounds, 2_000, what);
        let tally = assert_chain_samples_as::<_, FIELDS>(
            rounds,
            5_000,
            |rng, n, tally| tally.record_trials(rng, n, |rng| play(rounds, rng)),
            what,
        );
        assert_frequencies(&tally, &exact, what);
    };
    for (i, mut pairs) in duel_configs().into_iter().enumerate() {
        pairs.retain(|(k, _)| *k != "round_cap");
        pairs.push(("round_cap", Int(7)));
        let d = duel_from(&values(&pairs)).unwrap();
        check(&d.rounds, 7, &format!("duel {i}"));
    }
    let (key, pc) = blocking_ensemble(1);
    for (n, cap) in [(2, 4), (3, 3)] {
        let mut m = ParamMap::new();
        let pcs = (1..=n).map(|k| pc(&format!("p{k}"), 1 - k)).collect();
        m.set("pcs", List(pcs));
        m.set("key", key.clone());
        m.set("ladder", Int(3));
        m.set("round_cap", Int(cap));
        let e = ensemble_from(&m).unwrap();
        check(&e.rounds, cap as usize, &format!("{n} PCs"));
    }
}
