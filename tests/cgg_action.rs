//! `cgg.action`: the worked examples of the text, the exact solver against
//! a brute-force enumeration of every roll, Monte Carlo against exact on
//! every variant and policy, and the policies' monotonicity as properties.

use oddsmith::systems::cgg::Comparison;
use oddsmith::systems::cgg::DieCode;
use oddsmith::systems::cgg::action::{
    Action, ActionMechanic, FailureRule, Hammer, RiskBase, Rules, Wrench, field,
};
use oddsmith::systems::testing::{Sample, assert_agrees};
use oddsmith::systems::{Define, ParamMap, ParamValue};
use proptest::prelude::*;
use std::collections::BTreeMap;

fn code(s: &str) -> DieCode {
    s.parse().unwrap()
}

fn values(pairs: &[(&str, ParamValue)]) -> ParamMap {
    ParamMap::from_pairs(pairs)
}

fn s(v: &str) -> ParamValue {
    ParamValue::Str(v.into())
}

#[test]
fn the_worked_stunt_example() {
    // Dex 6d, pays one (7d), mastery 2 moves two dice: success 9d, risk 4d.
    let a = ActionMechanic
        .trial(&values(&[
            ("explorer.code", s("6d")),
            ("stunt.paid", ParamValue::Bool(true)),
            ("stunt.moved", ParamValue::Int(2)),
        ]))
        .unwrap();
    assert_eq!(a.success_dice, 9);
    assert_eq!(a.risk_code, Some(code("4d")));
    assert_eq!(a.hours_before, 1);
    // The stunt's hour shows in hours_paid on every roll.
    let m = a.exact();
    assert!(m.field(field::HOURS_PAID).keys().all(|&h| h >= 1));
    // Moving dice without paying, or more than the risk code has: errors.
    let err = ActionMechanic
        .trial(&values(&[("stunt.moved", ParamValue::Int(1))]))
        .unwrap_err();
    assert_eq!(err.key, "stunt.moved");
    let err = ActionMechanic
        .trial(&values(&[
            ("explorer.code", s("2d")),
            ("stunt.paid", ParamValue::Bool(true)),
            ("stunt.moved", ParamValue::Int(3)),
        ]))
        .unwrap_err();
    assert_eq!(err.key, "stunt.moved");
}

#[test]
fn difficulty_and_base_risk() {
    let a = |pairs: &[(&str, ParamValue)]| ActionMechanic.trial(&values(pairs)).unwrap();
    // Base risk table 4, 7 … 22; the example variant says 4d gives 9.
    for (b, risk) in (3..=9).zip([4, 7, 10, 13, 16, 19, 22]) {
        let x = a(&[("difficulty.base", ParamValue::Int(b))]);
        assert_eq!(x.base_target(), risk);
    }
    let ex = a(&[
        ("difficulty.base", s("not-too-hard")),
        ("variant.risk_base", s("example")),
    ]);
    assert_eq!(ex.base_target(), 9);
    // Contest: opponent 3d+2 gives base 4d.
    assert_eq!(a(&[("difficulty.opponent", s("3d+2"))]).base, 4);
    // Adjustments sum: lacking (specialist) +2, rushed +1, teamwork −1,
    // impairs +1, advantage −1, plus −1 = +1; godly 9 + 1 − 3 = 7 → 6.
    let x = a(&[
        ("difficulty.base", s("godly")),
        ("difficulty.adjust", ParamValue::Int(-1)),
        ("difficulty.lacking_ability", s("specialist")),
        ("difficulty.time", s("rushed")),
        ("difficulty.assistance", s("teamwork")),
        ("difficulty.condition", s("impairs")),
        ("difficulty.technology", s("advantage")),
    ]);
    assert_eq!(x.adjust, 1);
    assert_eq!(x.difficulty_dice(), 6, "never more than six");
    // 5d against easy: trivial.
    assert_eq!(
        a(&[("explorer.code", s("5d")), ("difficulty.base", s("easy"))]).difficulty_dice(),
        0
    );
    let err = ActionMechanic
        .trial(&values(&[
            ("difficulty.base", ParamValue::Int(4)),
            ("difficulty.opponent", s("3d")),
        ]))
        .unwrap_err();
    assert_eq!(err.key, "difficulty.opponent");
}

fn action(success_dice: u32, risk: Option<&str>, base: u32, extra: i64, rules: Rules) -> Action {
    Action {
        success_dice,
        risk_code: risk.map(code),
        base,
        adjust: 0,
        risk_extra: extra,
        hours_before: 0,
        rules,
    }
}

fn rules(risk_base: RiskBase, failure: FailureRule, wrench: Wrench, hammer: Hammer) -> Rules {
    Rules {
        risk_base,
        failure,
        wrench,
        hammer,
        comparison: Comparison::Ge,
    }
}

#[test]
fn hand_worked_failure_odds() {
    // One difficulty die, no risk roll (so no venture): success 7 in 10 by
    // the procedure, 5 in 10 by the half rule.
    for (failure, p) in [(FailureRule::Procedure, 0.7), (FailureRule::Half, 0.5)] {
        let a = action(
            3,
            None,
            4,
            0,
            rules(RiskBase::Table, failure, Wrench::Greedy, Hammer::Always),
        );
        assert_eq!(a.difficulty_dice(), 1);
        let m = a.exact();
        assert!((m.field(field::SUCCESS)[&1] - p).abs() < 1e-15);
        assert!((m.field(field::AVOIDED)[&1] - 1.0).abs() < 1e-15);
    }
    // Two dice by the procedure: 0.49 success, 0.42 one failure, 0.09 two.
    let a = action(2, None, 4, 0, Rules::default());
    let f = a.exact();
    let f = f.field(field::FAILURES);
    assert!((f[&0] - 0.49).abs() < 1e-15 && (f[&1] - 0.42).abs() < 1e-15);
    assert!((f[&2] - 0.09).abs() < 1e-15);
}

#[test]
fn trivial_action_succeeds_whatever_the_hammer() {
    // RULES.md §3.3 (corrected 2026-11-22): with no difficulty dice left the
    // explorer succeeds handily, whatever venture the risk roll brings.
    // 8d explorer against easy (3d): K = 0; a 4d risk roll brings venture.
    for hammer in [Hammer::None, Hammer::Always, Hammer::OnlyOnSuccess] {
        for wrench in [Wrench::None, Wrench::Greedy] {
            let a = action(
                8,
                Some("4d"),
                3,
                0,
                rules(RiskBase::Table, FailureRule::Procedure, wrench, hammer),
            );
            assert_eq!(a.difficulty_dice(), 0);
            let m = a.exact();
            assert_eq!(
                m.field(field::SUCCESS).get(&1),
                Some(&1.0),
                "{hammer:?} {wrench:?}"
            );
            assert_eq!(m.field(field::HAMMER_USED).get(&0), Some(&1.0));
            // The venture is rolled and left to nobody.
            assert!(m.field(field::VENTURE).get(&0).copied().unwrap_or(0.0) < 1.0);
        }
    }
    // With one difficulty die the hammer bites again.
    let a = action(3, Some("4d"), 3, 0, Rules::default());
    assert_eq!(a.difficulty_dice(), 0);
    let a = Action { adjust: 1, ..a };
    assert_eq!(a.difficulty_dice(), 1);
    assert!(
        a.exact()
            .field(field::HAMMER_USED)
            .get(&1)
            .copied()
            .unwrap_or(0.0)
            > 0.0
    );
}

/// The whole action written again, plainly, from the rules, for one set of
/// dice: `exec` the d10s, `risk` the d6s, `reroll` fresh d10s for "I'm that
/// good!" (as many as it needs are read from the front).
fn reference(a: &Action, exec: &[u32], risk: &[u32], reroll: &[u32]) -> Option<[i64; 10]> {
    let fail_max = match a.rules.failure {
        FailureRule::Procedure => 3,
        FailureRule::Half => 5,
    };
    let base_risk = match a.rules.risk_base {
        RiskBase::Table => 3 * a.base as i64 - 5,
        RiskBase::Example => 3 * a.base as i64 - 3,
    };
    let mut failures = exec.iter().filter(|&&d| d <= fail_max).count() as u32;
    let target = base_risk
        + a.risk_extra
        + exec
            .iter()
            .filter(|&&d| d <= 3)
            .map(|&d| d as i64)
            .sum::<i64>();
    let venture = risk.iter().filter(|&&d| d == 6).count() as u32;
    let total = a.risk_code.map(|c| c.plus() as i64).unwrap_or(0)
        + risk
            .iter()
            .filter(|&&d| d < 6)
            .map(|&d| d as i64)
            .sum::<i64>();
    let mut avoided = a.risk_code.is_none() || total >= target;
    let mut left = venture;
    let mut wrench = 0;
    let greedy = a.rules.wrench == Wrench::Greedy;
    if greedy && !avoided && total + 5 >= target && left > 0 {
        avoided = true;
        left -= 1;
        wrench += 1;
    }
    if greedy && failures >= 2 && left > 0 {
        left -= 1;
        wrench += 1;
        let n = failures as usize;
        if reroll.len() < n {
            return None;
        }
        failures = reroll[..n].iter().filter(|&&d| d <= fail_max).count() as u32;
    }
    if greedy && failures >= 1 && left > 0 {
        left -= 1;
        wrench += 1;
        failures -= 1;
    }
    // No difficulty dice: a trivial success that no hammer can spoil.
    let hammer = left > 0
        && !exec.is_empty()
        && match a.rules.hammer {
            Hammer::None => false,
            Hammer::Always => true,
            Hammer::OnlyOnSuccess => failures == 0,
        };
    if hammer {
        left -= 1;
        failures += 1;
    }
    let success = failures == 0;
    Some([
        failures as i64,
        success as i64,
        avoided as i64,
        (success && avoided) as i64,
        venture as i64,
        left as i64,
        wrench,
        hammer as i64,
        wrench,
        hammer as i64,
    ])
}

/// Every tuple of `n` faces of a `sides`-sided die.
fn all_rolls(n: usize, sides: u32) -> Vec<Vec<u32>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|r| {
                (1..=sides).map(move |f| {
                    let mut r = r.clone();
                    r.push(f);
                    r
                })
            })
            .collect();
    }
    out
}

#[test]
fn exact_equals_enumeration_of_every_roll() {
    let mut checked = 0;
    for failure in [FailureRule::Procedure, FailureRule::Half] {
        for wrench in [Wrench::None, Wrench::Greedy] {
            for hammer in [Hammer::None, Hammer::Always, Hammer::OnlyOnSuccess] {
                for (sd, risk, base, extra) in [
                    (2, Some("2d+1"), 5, 0),
                    (2, Some("3d"), 4, -2),
                    (3, Some("1d+2"), 5, 1),
                    (4, None, 5, 0),
                ] {
                    let rb = if checked % 2 == 0 {
                        RiskBase::Table
                    } else {
                        RiskBase::Example
                    };
                    let a = action(sd, risk, base, extra, rules(rb, failure, wrench, hammer));
                    let k = a.difficulty_dice() as usize;
                    let x = a.risk_code.map(|c| c.dice()).unwrap_or(0) as usize;
                    let mut brute: Vec<BTreeMap<i64, f64>> = vec![BTreeMap::new(); 10];
                    let rerolls: Vec<Vec<Vec<u32>>> = (0..=k).map(|n| all_rolls(n, 10)).collect();
                    let p_roll = 1.0 / (10f64.powi(k as i32) * 6f64.powi(x as i32));
                    for exec in all_rolls(k, 10) {
                        for risk in all_rolls(x, 6) {
                            // Without a re-roll the outcome needs no more dice.
                            let outcomes: Vec<([i64; 10], f64)> =
                                match reference(&a, &exec, &risk, &[]) {
                                    Some(o) => vec![(o, 1.0)],
                                    None => {
                                        let n = exec.len();
                                        rerolls[n]
                                            .iter()
                                            .filter_map(|rr| reference(&a, &exec, &risk, rr))
                                            .map(|o| (o, 10f64.powi(-(n as i32))))
                                            .collect()
                                    }
                                };
                            for (o, q) in outcomes {
                                for (f, v) in o.iter().enumerate() {
                                    *brute[f].entry(*v).or_insert(0.0) += p_roll * q;
                                }
                            }
                        }
                    }
                    let exact = a.exact();
                    for (f, table) in brute.iter().enumerate() {
                        let e = exact.field(f);
                        for (v, p) in table {
                            let q = e.get(v).copied().unwrap_or(0.0);
                            assert!(
                                (p - q).abs() < 1e-9,
                                "{a:?} field {f} value {v}: {p} vs {q}"
                            );
                        }
                        let extra: f64 = e
                            .iter()
                            .filter(|(v, _)| !table.contains_key(v))
                            .map(|(_, p)| p)
                            .sum();
                        assert!(extra < 1e-9, "{a:?} field {f}");
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 48);
}

/// 36 configs: every variant × policy, each at two explorer/difficulty
/// settings with a stunt and an extra risk here and there, plus a no-risk
/// and a trivial action.
fn mc_configs() -> Vec<Action> {
    let mut out = Vec::new();
    let mut i = 0;
    for risk_base in [RiskBase::Table, RiskBase::Example] {
        for failure in [FailureRule::Procedure, FailureRule::Half] {
            for wrench in [Wrench::None, Wrench::Greedy] {
                for hammer in [Hammer::None, Hammer::Always, Hammer::OnlyOnSuccess] {
                    let r = rules(risk_base, failure, wrench, hammer);
                    let (sd, rc, base, extra) = [
                        (3, "3d+1", 6, 0),
                        (2, "4d", 8, -3),
                        (5, "6d+2", 9, 2),
                        (1, "2d+2", 5, 0),
                    ][i % 4];
                    out.push(action(sd, Some(rc), base, extra, r));
                    i += 1;
                }
            }
        }
    }
    let mut stunt = action(9, Some("4d"), 9, 0, Rules::default());
    stunt.hours_before = 1;
    out.push(stunt);
    out.push(action(3, None, 7, 0, Rules::default()));
    out.push(action(6, Some("6d"), 4, 0, Rules::default()));
    let mut gt = action(2, Some("3d"), 5, 0, Rules::default());
    gt.rules.comparison = Comparison::Gt;
    out.push(gt);
    let mut adj = action(
        3,
        Some("3d+2"),
        7,
        4,
        rules(
            RiskBase::Example,
            FailureRule::Half,
            Wrench::Greedy,
            Hammer::OnlyOnSuccess,
        ),
    );
    adj.adjust = -2;
    out.push(adj);
    out.push(action(0, Some("0d+2"), 3, -1, Rules::default()));
    out
}

#[test]
fn monte_carlo_agrees_with_exact_on_every_variant_and_policy() {
    let configs = mc_configs();
    assert!(configs.len() >= 30);
    let mut worst: f64 = 0.0;
    for (i, a) in configs.iter().enumerate() {
        let m = ActionMechanic.model(*a);
        let z = assert_agrees(m.as_ref(), Sample::seed(2026).config(i), &format!("{a:?}"));
        worst = worst.max(z);
    }
    eprintln!("{} configs, worst |z| = {worst:.2}", configs.len());
}

fn p_success(a: &Action) -> f64 {
    a.exact()
        .field(field::SUCCESS)
        .get(&1)
        .copied()
        .unwrap_or(0.0)
}

fn any_action() -> impl Strategy<Value = Action> {
    (
        0u32..=9,
        prop::option::of((0u32..=8, 0u32..=2)),
        3u32..=9,
        -3i64..=3,
        -4i64..=6,
        prop::bool::ANY,
        prop::bool::ANY,
        prop::bool::ANY,
    )
        .prop_map(
            |(sd, risk, base, adjust, extra, example, half, gt)| Action {
                success_dice: sd,
                risk_code: risk.map(|(x, y)| DieCode::new(x, y)),
                base,
                adjust,
                risk_extra: extra,
                hours_before: 0,
                rules: Rules {
                    risk_base: if example {
                        RiskBase::Example
                    } else {
                        RiskBase::Table
                    },
                    failure: if half {
                        FailureRule::Half
                    } else {
                        FailureRule::Procedure
                    },
                    wrench: Wrench::Greedy,
                    hammer: Hammer::Always,
                    comparison: if gt { Comparison::Gt } else { Comparison::Ge },
                },
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn the_hammer_never_raises_success(a in any_action(), greedy in prop::bool::ANY) {
        let mut a = a;
        a.rules.wrench = if greedy { Wrench::Greedy } else { Wrench::None };
        let none = Action { rules: Rules { hammer: Hammer::None, ..a.rules }, ..a };
        let always = Action { rules: Rules { hammer: Hammer::Always, ..a.rules }, ..a };
        let only = Action { rules: Rules { hammer: Hammer::OnlyOnSuccess, ..a.rules }, ..a };
        prop_assert!(p_success(&always) <= p_success(&none) + 1e-12);
        prop_assert!(p_success(&only) <= p_success(&none) + 1e-12);
    }

    #[test]
    fn a_greedy_wrench_never_lowers_success(a in any_action(), hammer in 0usize..3) {
        let hammer = [Hammer::None, Hammer::Always, Hammer::OnlyOnSuccess][hammer];
        let without = Action { rules: Rules { wrench: Wrench::None, hammer, ..a.rules }, ..a };
        let greedy = Action { rules: Rules { wrench: Wrench::Greedy, hammer, ..a.rules }, ..a };
        prop_assert!(p_success(&greedy) >= p_success(&without) - 1e-12);
        // and never leaves the risk less often avoided
        let avoided = |a: &Action| a.exact().field(field::AVOIDED).get(&1).copied().unwrap_or(0.0);
        prop_assert!(avoided(&greedy) >= avoided(&without) - 1e-12);
    }

    #[test]
    fn probabilities_sum_to_one(a in any_action()) {
        let m = a.exact();
        for f in 0..field::COUNT {
            let total: f64 = m.field(f).values().sum();
            prop_assert!((total - 1.0).abs() < 1e-9, "field {} sums to {}", f, total);
        }
    }
}
