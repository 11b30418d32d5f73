//! The best-play question on shipped mechanics: best ≥ every policy
//! tried, the given policy's value is the exact solver's, and the written
//! policy replays to the best value.

use super::*;
use crate::model::ParamValue::{Int, Str};

fn ask(mechanic: &str, pairs: &[(&str, ParamValue)], metric: &str) -> BestAnswer {
    best(&BestQuestion {
        mechanic: systems::find(mechanic).unwrap(),
        params: ParamMap::from_pairs(pairs),
        metric: metric.into(),
        dominance: true,
        opponent: Default::default(),
    })
    .unwrap()
}

/// The metric of `values` by the mechanic's own exact solver.
fn exact(mechanic: &str, values: &ParamMap, metric: &str) -> f64 {
    let m = systems::find(mechanic).unwrap();
    let schema = m.schema_of(values).unwrap();
    metric_of(
        &m.prepare(values).unwrap().exact().unwrap(),
        &schema,
        metric,
    )
    .unwrap()
}

#[test]
fn challenge_raises_by_hand() {
    // Trait 3 against a variable (2-dice) easy opposition: success is best
    // with no raises; expected raises banked has a best count, at least
    // as good as every count the scenario could set.
    let pairs = [("actor.trait", Int(3)), ("opposition.variability", Int(2))];
    let a = ask("gateway.challenge", &pairs, "p_success");
    assert_eq!(a.policy.as_deref(), Some("raises = 0"));
    assert!((a.best - a.given).abs() < 1e-15);
    let a = ask("gateway.challenge", &pairs, "expected_raises");
    for r in 0..=10 {
        let mut v = ParamMap::from_pairs(&pairs);
        v.set("raises", Int(r));
        let x = exact("gateway.challenge", &v, "expected_raises");
        assert!(x <= a.best + 1e-12, "{r}: {x} > {}", a.best);
    }
    let replayed = a.replayed.unwrap();
    assert!((replayed - a.best).abs() < 1e-9, "{replayed} vs {}", a.best);
    assert!(a.gap > 0.0, "{a:?}");
    assert_eq!(a.rules.len(), 1);
    assert_eq!(a.rules[0].when, "always");
}

#[test]
fn the_duel_given_policy_is_the_exact_solver() {
    let pairs = [("ladder", Int(4)), ("round_cap", Int(12))];
    let a = ask("gateway.scene", &pairs, "p_a_wins");
    let given = exact("gateway.scene", &ParamMap::from_pairs(&pairs), "p_a_wins");
    assert!((a.given - given).abs() < 1e-9, "{} vs {given}", a.given);
    assert!(a.best >= a.given - 1e-12);
    if let Some(r) = a.replayed {
        assert!(r <= a.best + 1e-9);
    }
}

#[test]
fn an_uncovered_mechanic_says_why() {
    let e = best(&BestQuestion {
        mechanic: systems::find("cortex.basic").unwrap(),
        params: ParamMap::new(),
        metric: "p_success".into(),
        dominance: false,
        opponent: Default::default(),
    })
    .unwrap_err();
    assert!(e.to_string().contains("no exact best play"), "{e}");
    let _ = Str(String::new());
}

#[test]
fn best_play_beats_every_shipped_strategy() {
    // gateway-strategies' four named A policies against each named B
    // policy, at ladder 4 with a 20-round cap (to keep the test quick):
    // best play for A against that B is at least each of them.
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/gateway-strategies.toml");
    let s = crate::scenario::Scenario::load(&path).unwrap();
    let mut by_b: std::collections::BTreeMap<String, (ParamMap, Vec<f64>)> = Default::default();
    for c in s.configs() {
        if c.values.get("ladder") != Some(&Int(4)) {
            continue;
        }
        let mut v = c.values.clone();
        v.set("round_cap", Int(20));
        let b = format!("{:?}", v.get("b.policy"));
        let given = exact("gateway.scene", &v, "p_a_wins");
        let entry = by_b.entry(b).or_insert_with(|| (v.clone(), Vec::new()));
        entry.1.push(given);
    }
    assert_eq!(by_b.len(), 4);
    for (b, (v, givens)) in &by_b {
        assert_eq!(givens.len(), 4, "{b}");
        let a = best(&BestQuestion {
            mechanic: systems::find("gateway.scene").unwrap(),
            params: v.clone(),
            metric: "p_a_wins".into(),
            dominance: false,
            opponent: Default::default(),
        })
        .unwrap();
        for g in givens {
            assert!(
                *g <= a.best + 1e-12,
                "{b}: a shipped policy {g} beats best play {}",
                a.best
            );
        }
    }
}

#[test]
fn giving_in_is_written_back_and_replays() {
    // cortex-contested's give-in policy (more than 4 behind) against a GM
    // character and three thugs: best play for winning never gives in,
    // written as stakes no roll reaches, and the exact solver agrees.
    let pairs = [
        ("opposition.pool", Str("d8 d6".into())),
        ("opposition.gang", Str("3d6".into())),
        ("policy.give_in", Int(4)),
    ];
    let a = ask("cortex.contested", &pairs, "p_win");
    let given = exact("cortex.contested", &ParamMap::from_pairs(&pairs), "p_win");
    assert!((a.given - given).abs() < 1e-9, "{} vs {given}", a.given);
    assert_eq!(a.policy.as_deref(), Some("\"policy.give_in_at\" = 60"));
    let replayed = a.replayed.unwrap();
    assert!((replayed - a.best).abs() < 1e-9, "{replayed} vs {}", a.best);
    assert!(a.gap > 0.01, "{a:?}");
}

#[test]
fn the_wrench_given_policy_is_the_exact_solver_and_best_beats_every_named_one() {
    // Every wrench and hammer policy, on the default action and on an
    // impaired one with two risk dice: the given wrench's value is the
    // action's exact answer, and best play (against that hammer) is at
    // least every named wrench.
    for extra in [
        vec![],
        vec![
            ("explorer.risk_code", Str("2d+2".into())),
            ("difficulty.condition", Str("impairs".into())),
            ("difficulty.base", Str("difficult".into())),
        ],
    ] {
        for hammer in ["always", "only-on-success", "conditions", "none"] {
            for metric in ["p_success", "p_clean", "p_avoided", "p_fail_2"] {
                let mut best_of = None;
                for wrench in ["none", "greedy", "deny"] {
                    let mut pairs = extra.clone();
                    pairs.push(("policy.hammer", Str(hammer.into())));
                    pairs.push(("policy.wrench", Str(wrench.into())));
                    let a = ask("cgg.action", &pairs, metric);
                    let given = exact("cgg.action", &ParamMap::from_pairs(&pairs), metric);
                    let what = format!("{extra:?} {hammer} {wrench} {metric}");
                    assert!(
                        (a.given - given).abs() < 1e-9,
                        "{what}: {} vs {given}",
                        a.given
                    );
                    assert!(given <= a.best + 1e-12, "{what}: {given} > {}", a.best);
                    let b = *best_of.get_or_insert(a.best);
                    assert!(
                        (a.best - b).abs() < 1e-12,
                        "{what}: best depends on the given wrench"
                    );
                }
            }
        }
    }
}

#[test]
fn the_luck_bid_given_is_the_exact_solver_and_the_written_bid_replays() {
    for pairs in [
        vec![],
        vec![("favouring", Int(3)), ("difficulty", Int(8))],
        vec![
            ("support", Int(-1)),
            ("variant.weight_luck", ParamValue::Bool(false)),
        ],
        vec![("variant.rolls", Str("until-failure".into()))],
    ] {
        for metric in ["p_true", "mean_weight", "mean_successes", "mean_failures"] {
            let mut best_of = None;
            for luck in 0..=5 {
                let mut p = pairs.clone();
                p.push(("luck", Int(luck)));
                let a = ask("statements.statement", &p, metric);
                let given = exact("statements.statement", &ParamMap::from_pairs(&p), metric);
                let what = format!("{p:?} {metric}");
                assert!(
                    (a.given - given).abs() < 1e-9,
                    "{what}: {} vs {given}",
                    a.given
                );
                assert!(given <= a.best + 1e-12, "{what}: {given} > {}", a.best);
                let replayed = a.replayed.expect("a bid is written");
                assert!(
                    (replayed - a.best).abs() < 1e-9,
                    "{what}: {replayed} vs {}",
                    a.best
                );
                let b = *best_of.get_or_insert(a.best);
                assert!((a.best - b).abs() < 1e-12, "{what}");
            }
        }
    }
}

#[test]
fn the_written_duel_policy_replays_to_best_play() {
    // gateway-best's duels (ladder 4, 6 and 8), and others: a longer
    // ladder, a stronger B, a fixed first initiative, expected raises.
    let shipped = |ladder: i64| {
        vec![
            ("ladder", Int(ladder)),
            ("initiative", Str("random".into())),
            ("round_cap", Int(12)),
            ("a.background", Int(2)),
            ("b.background", Int(2)),
        ]
    };
    let mut cases: Vec<(Vec<(&str, ParamValue)>, &str)> = [4, 6, 8]
        .into_iter()
        .map(|l| (shipped(l), "p_a_wins"))
        .collect();
    cases.push((vec![("ladder", Int(3)), ("round_cap", Int(10))], "p_a_wins"));
    cases.push((
        vec![
            ("ladder", Int(5)),
            ("round_cap", Int(8)),
            ("b.trait", Int(4)),
        ],
        "p_a_wins",
    ));
    cases.push((shipped(4), "p_b_wins"));
    for (pairs, metric) in cases {
        let a = best(&BestQuestion {
            mechanic: systems::find("gateway.scene").unwrap(),
            params: ParamMap::from_pairs(&pairs),
            metric: metric.into(),
            dominance: false,
            opponent: Default::default(),
        })
        .unwrap();
        let policy = a
            .policy
            .as_deref()
            .unwrap_or_else(|| panic!("{pairs:?}: {a:?}"));
        assert!(policy.starts_with("\"a.policy\" = ["), "{policy}");
        let replayed = a.replayed.unwrap();
        assert!(
            (replayed - a.best).abs() < 1e-9,
            "{pairs:?} {metric}: the written policy gives {replayed}, best play {}\n{policy}",
            a.best
        );
    }
}

#[test]
fn the_written_wrench_replays_best_play() {
    // Each config of cgg-best.toml, and a few built to reach every use:
    // best play written as `policy.wrench` rules gives best play's value
    // through the action's own exact solver, on all 54.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/cgg-best.toml");
    let s = crate::scenario::Scenario::load(&path).unwrap();
    let mut cases: Vec<(ParamMap, &str)> = s.configs().map(|c| (c.values, "p_success")).collect();
    for extra in [
        vec![],
        vec![
            ("explorer.risk_code", Str("2d+2".into())),
            ("difficulty.condition", Str("impairs".into())),
            ("difficulty.base", Str("difficult".into())),
        ],
        vec![
            ("explorer.code", Str("2d".into())),
            ("explorer.risk_code", Str("4d".into())),
            ("variant.failure", Str("half".into())),
        ],
    ] {
        for hammer in ["always", "only-on-success", "conditions", "none"] {
            for metric in ["p_success", "p_clean", "p_avoided", "p_fail_2"] {
                let mut pairs = extra.clone();
                pairs.push(("policy.hammer", Str(hammer.into())));
                cases.push((ParamMap::from_pairs(&pairs), metric));
            }
        }
    }
    let mut bad = Vec::new();
    let mut spent = Vec::new();
    for (v, metric) in &cases {
        let a = best(&BestQuestion {
            mechanic: systems::find("cgg.action").unwrap(),
            params: v.clone(),
            metric: (*metric).into(),
            dominance: false,
            opponent: Opponent::Given,
        })
        .unwrap();
        let policy = a.policy.clone().unwrap_or_default();
        match a.replayed {
            Some(r) if (r - a.best).abs() < 1e-9 => {
                assert!(
                    policy.starts_with("\"policy.wrench\" = [{ use = "),
                    "{policy}"
                );
                // The shorthand wherever a quantity is bounded to one value.
                for q in ["failures", "risk_short", "venture", "dice"] {
                    for n in 0..=40 {
                        let both = format!("{q}_at_least = {n}, {q}_at_most = {n} ");
                        assert!(!policy.contains(&both), "{both}in {policy}");
                    }
                }
                if policy.contains("spent = [") {
                    spent.push(format!("{v:?} {metric}"));
                }
            }
            r => bad.push(format!(
                "{v:?} {metric}: replayed {r:?}, best {}\n{policy}: {:?}",
                a.best, a.unwritten
            )),
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {}:\n{}",
        bad.len(),
        cases.len(),
        bad.join("\n")
    );
    // The uses spent are in sight only where the four quantities do not
    // tell best play's boards apart: a 2d explorer rolling 4d for risk on
    // the half rule, for a clean success.
    assert!(
        !spent.is_empty()
            && spent
                .iter()
                .all(|c| c.contains("4d") && c.ends_with("p_clean")),
        "{spent:#?}"
    );
}

/// Both sides' best play in a small duel, asked as the library does.
fn duel(pairs: &[(&str, ParamValue)], metric: &str) -> Result<BestAnswer, BestError> {
    best(&BestQuestion {
        mechanic: systems::find("gateway.scene").unwrap(),
        params: ParamMap::from_pairs(pairs),
        metric: metric.into(),
        dominance: false,
        opponent: Opponent::Best,
    })
}

#[test]
fn both_sides_best_replays_to_the_duel_value() {
    let pairs = [
        ("ladder", Int(4)),
        ("round_cap", Int(8)),
        ("initiative", Str("random".into())),
        ("a.background", Int(2)),
        ("b.background", Int(2)),
    ];
    let d = duel(&pairs, "p_a_wins").unwrap();
    let one = ask("gateway.scene", &pairs, "p_a_wins");
    let x = d.duel.as_ref().expect("a duel");
    // One-sided best play is the same solve's, bit for bit; B playing
    // best takes some of it back.
    assert_eq!(x.one_sided, one.best);
    assert_eq!(d.given, one.given);
    assert!(
        d.best <= x.one_sided + 1e-12,
        "{} vs {}",
        d.best,
        x.one_sided
    );
    assert!(x.taken_back > 1e-3, "{x:?}");
    assert!(!x.rules.is_empty() && x.decisions > 1.0);
    // Both policies written as `a.policy` and `b.policy` replay through
    // the duel's own exact solver to the duel's value.
    let policy = d.policy.as_deref().expect("both policies written");
    assert!(policy.contains("\"a.policy\"") && policy.contains("\"b.policy\""));
    let replayed = d.replayed.unwrap();
    assert!((replayed - d.best).abs() < 1e-9, "{replayed} vs {}", d.best);
    // Against B's policy in the duel, A's best reply is worth at least
    // the duel's value (A's duel policy gets it already).
    let v = ParamMap::from_pairs(&pairs);
    let m = systems::find("gateway.scene").unwrap();
    let (reward, _) = reward(&m.schema_of(&v).unwrap(), "p_a_wins").unwrap();
    let played = systems::duel::process("gateway.scene", &v)
        .unwrap()
        .unwrap()
        .play_duel(&*reward, false, BestLimits::default())
        .unwrap();
    let (_, b) = played
        .written
        .unwrap()
        .into_iter()
        .find(|(k, _)| k == "b.policy")
        .unwrap();
    let mut v = v;
    v.set("b.policy".to_string(), b);
    let reply = best(&BestQuestion {
        mechanic: systems::find("gateway.scene").unwrap(),
        params: v,
        metric: "p_a_wins".into(),
        dominance: false,
        opponent: Opponent::Given,
    })
    .unwrap();
    assert!(reply.best >= d.best - 1e-9, "{} vs {}", reply.best, d.best);
}

#[test]
fn a_duel_is_refused_where_it_is_not_a_duel() {
    let e = duel(&[("ladder", Int(4))], "p_b_wins").unwrap_err();
    let BestError::Metric(m) = e else {
        panic!("{e}")
    };
    assert!(
        m.contains("not zero-sum") && m.contains("allowed in a duel: p_a_wins"),
        "{m}"
    );
    let e = best(&BestQuestion {
        mechanic: systems::find("cortex.contested").unwrap(),
        params: ParamMap::new(),
        metric: "p_win".into(),
        dominance: false,
        opponent: Opponent::Best,
    })
    .unwrap_err();
    let BestError::Unsolved(m) = e else {
        panic!("{e}")
    };
    assert!(
        m.contains("no best play for both sides") && m.contains("gateway.scene"),
        "{m}"
    );
    // B acting last when it holds the initiative leaves its lead a
    // decision of its own.
    let e = duel(&[("b.initiative_order", Str("last".into()))], "p_a_wins").unwrap_err();
    assert!(e.to_string().contains("b.initiative_order"), "{e}");
}
