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
        impaired: false,
        risk_extra: extra,
        hours_before: 0,
        rules,
    }
}

fn rules(risk_base: RiskBase, failure: FailureRule, wrench: Wrench, hammer: Hammer) -> Rules {
    Rules {
        risk_base,
        failure,
        wrench: wrench.into(),
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
    // rules §3.3 (corrected 2026-11-22): with no difficulty dice left the
    // explorer succeeds handily, whatever venture the risk roll brings.
    // 8d explorer against easy (3d): K = 0; a 4d risk roll brings venture.
    for hammer in [
        Hammer::None,
        Hammer::Always,
        Hammer::OnlyOnSuccess,
        Hammer::Conditions,
    ] {
        for wrench in [Wrench::None, Wrench::Greedy, Wrench::Deny] {
            let a = action(
                8,
                Some("4d"),
                3,
                0,
                rules(RiskBase::Table, FailureRule::Procedure, wrench, hammer),
            );
            assert_eq!(a.difficulty_dice(), 0);
            let m = a.exact();
            let certain =
                |f: usize, v: i64| (m.field(f).get(&v).copied().unwrap_or(0.0) - 1.0).abs() < 1e-12;
            assert!(certain(field::SUCCESS, 1), "{hammer:?} {wrench:?}");
            assert!(certain(field::CANT, 0) && certain(field::FAILURES, 0));
            // The venture is rolled; the other hammer uses still bite.
            assert!(m.field(field::VENTURE).get(&0).copied().unwrap_or(0.0) < 1.0);
        }
    }
    // With one difficulty die the hammer bites again.
    let a = action(3, Some("4d"), 3, 0, Rules::default());
    assert_eq!(a.difficulty_dice(), 0);
    let a = Action { adjust: 1, ..a };
    assert_eq!(a.difficulty_dice(), 1);
    assert!(a.exact().field(field::CANT).get(&1).copied().unwrap_or(0.0) > 0.0);
}

/// The whole action written again, plainly, from the rules, on the faces
/// themselves: `exec` the d10s in the order rolled, `risk` the d6s, and
/// `draw(sides)` one more fair die for everything venture rolls (the index
/// of the difficulty die set aside among those left, the "get serious"
/// d6, each re-rolled d10).
fn reference(
    a: &Action,
    exec: &[u32],
    risk: &[u32],
    draw: &mut dyn FnMut(u32) -> u32,
) -> [i64; 22] {
    let hf = match a.rules.failure {
        FailureRule::Procedure => 3,
        FailureRule::Half => 5,
    };
    let base_risk = match a.rules.risk_base {
        RiskBase::Table => 3 * a.base as i64 - 5,
        RiskBase::Example => 3 * a.base as i64 - 3,
    };
    let meets = |t: i64, target: i64| match a.rules.comparison {
        Comparison::Ge => t >= target,
        Comparison::Gt => t > target,
    };
    let has_risk = a.risk_code.is_some();
    let mut dice = exec.to_vec();
    let mut failing = dice.iter().filter(|&&d| d <= hf).count() as u32;
    let mut raise: i64 = dice.iter().filter(|&&d| d <= 3).map(|&d| d as i64).sum();
    let mut total = a.risk_code.map(|c| c.plus() as i64).unwrap_or(0)
        + risk
            .iter()
            .filter(|&&d| d < 6)
            .map(|&d| d as i64)
            .sum::<i64>();
    let venture = risk.iter().filter(|&&d| d == 6).count() as u32;
    let mut left = venture;
    // close, gotta, good, serious, not as bad, can't, worse, why now, didn't see
    let mut used = [false; 9];
    let cost = [1u32, 1, 1, 2, 2, 1, 1, 2, 3];
    let (mut spent_w, mut spent_h) = (0u32, 0u32);
    let (mut removed, mut added, mut close, mut aside) = (0u32, 0u32, false, 0i64);
    let d = a.base as i64 + a.adjust - a.success_dice as i64;
    let k_after = |s: i64| (d - s).clamp(0, 6) as usize;
    macro_rules! st {
        () => {{
            let target = base_risk + a.risk_extra + raise;
            let avoided = !has_risk || meets(total + if close { 5 } else { 0 }, target);
            let beyond = !avoided && (close || !meets(total + 5, target));
            let failures = (failing + added).saturating_sub(removed);
            (avoided, beyond, failures)
        }};
    }
    macro_rules! spend {
        ($u:expr) => {{
            used[$u] = true;
            left -= cost[$u];
            if $u < 5 {
                spent_w += cost[$u];
            } else {
                spent_h += cost[$u];
            }
        }};
    }
    if a.rules.wrench != Wrench::None && left > 0 {
        let deny = a.rules.wrench == Wrench::Deny;
        for u in [3usize, 4] {
            let (avoided, beyond, failures) = st!();
            let reserve = (!avoided && !beyond) as u32 + failures.min(2);
            if left.saturating_sub(reserve) < 2 {
                continue;
            }
            let drops = k_after(aside + 1) < dice.len();
            let wanted = if u == 3 {
                (failures >= 2 && drops) || beyond
            } else {
                a.impaired && drops && (failures >= 2 || beyond)
            };
            if (u == 3 || a.impaired) && (wanted || deny) {
                spend!(u);
                aside += 1;
                if drops {
                    let i = draw(dice.len() as u32) as usize - 1;
                    let f = dice.remove(i);
                    failing -= (f <= hf) as u32;
                    raise -= if f <= 3 { f as i64 } else { 0 };
                }
                if u == 3 && has_risk {
                    let face = draw(6);
                    if face == 6 {
                        left += 1;
                    } else {
                        total += face as i64;
                    }
                }
            }
        }
        let (avoided, beyond, _) = st!();
        if !used[0] && left >= 1 && !avoided && !beyond {
            spend!(0);
            close = true;
        }
        let reroll = |failing: &mut u32, draw: &mut dyn FnMut(u32) -> u32| {
            let n = *failing;
            *failing = (0..n).filter(|_| draw(10) <= hf).count() as u32;
        };
        if st!().2 >= 2 && left >= 1 && !used[2] {
            spend!(2);
            reroll(&mut failing, draw);
        }
        if st!().2 >= 1 && left >= 1 && !used[1] {
            spend!(1);
            removed += 1;
        }
        if deny {
            if !used[0] && left >= 1 && has_risk {
                spend!(0);
                close = true;
            }
            if st!().2 >= 1 && left >= 1 && !used[2] {
                spend!(2);
                reroll(&mut failing, draw);
            }
            if st!().2 >= 1 && left >= 1 && !used[1] {
                spend!(1);
                removed += 1;
            }
        }
    }
    let to_hammer = left;
    let cant = match a.rules.hammer {
        Hammer::None | Hammer::Conditions => false,
        Hammer::Always => true,
        Hammer::OnlyOnSuccess => st!().2 == 0,
    };
    if cant && !dice.is_empty() && left >= 1 {
        spend!(5);
        added += 1;
    }
    if a.rules.hammer != Hammer::None {
        for u in [6usize, 7, 8] {
            if left >= cost[u] {
                spend!(u);
            }
        }
    }
    let (avoided, _, failures) = st!();
    let success = failures == 0;
    let mut o = [0i64; 22];
    o[0] = failures as i64;
    o[1] = success as i64;
    o[2] = avoided as i64;
    o[3] = (success && avoided) as i64;
    o[4] = (spent_w + spent_h + left) as i64;
    o[5] = left as i64;
    o[6] = used[..5].iter().filter(|&&u| u).count() as i64;
    o[7] = used[5..].iter().filter(|&&u| u).count() as i64;
    o[8] = (a.hours_before + spent_w) as i64;
    o[9] = spent_h as i64;
    o[10] = spent_w as i64;
    o[11] = spent_h as i64;
    o[12] = to_hammer as i64;
    for (i, u) in used.iter().enumerate() {
        o[13 + i] = *u as i64;
    }
    o
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

/// The law of `reference` on every roll and every die venture rolls,
/// branch by branch: a die past the end of the script is thrown every way.
fn enumerate(a: &Action) -> Vec<BTreeMap<i64, f64>> {
    let k = a.difficulty_dice() as usize;
    let x = a.risk_code.map(|c| c.dice()).unwrap_or(0) as usize;
    let mut law: Vec<BTreeMap<i64, f64>> = vec![BTreeMap::new(); 22];
    let p_roll = 1.0 / (10f64.powi(k as i32) * 6f64.powi(x as i32));
    for exec in all_rolls(k, 10) {
        for risk in all_rolls(x, 6) {
            let mut scripts: Vec<(Vec<u32>, f64)> = vec![(vec![], 1.0)];
            while let Some((script, q)) = scripts.pop() {
                let mut at = 0;
                let mut more: Option<u32> = None;
                let o = reference(a, &exec, &risk, &mut |sides| {
                    at += 1;
                    match script.get(at - 1) {
                        Some(&v) => v,
                        None => {
                            more.get_or_insert(sides);
                            1
                        }
                    }
                });
                match more {
                    None => {
                        for (f, v) in o.iter().enumerate() {
                            *law[f].entry(*v).or_insert(0.0) += p_roll * q;
                        }
                    }
                    Some(sides) => {
                        for v in 1..=sides {
                            let mut s = script.clone();
                            s.push(v);
                            scripts.push((s, q / sides as f64));
                        }
                    }
                }
            }
        }
    }
    law
}

#[test]
fn exact_equals_enumeration_of_every_roll_and_every_venture_die() {
    let mut checked = 0;
    let (mut serious, mut not_as_bad, mut good) = (0.0f64, 0.0f64, 0.0f64);
    for failure in [FailureRule::Procedure, FailureRule::Half] {
        for wrench in [Wrench::None, Wrench::Greedy, Wrench::Deny] {
            for hammer in [
                Hammer::None,
                Hammer::Always,
                Hammer::OnlyOnSuccess,
                Hammer::Conditions,
            ] {
                // (success dice, risk, base, adjust, impaired, extra)
                for (sd, risk, base, adjust, impaired, extra) in [
                    (2, Some("3d"), 4, 0, false, -4),
                    (2, Some("3d+1"), 5, 0, true, -6),
                    (3, Some("1d+2"), 5, 0, false, 1),
                    (2, Some("3d"), 3, 1, true, -3),
                    (4, None, 5, 0, false, 0),
                    (3, Some("4d"), 3, 1, true, 0),
                ] {
                    let rb = if checked % 2 == 0 {
                        RiskBase::Table
                    } else {
                        RiskBase::Example
                    };
                    let mut a = action(sd, risk, base, extra, rules(rb, failure, wrench, hammer));
                    a.adjust = adjust;
                    a.impaired = impaired;
                    let brute = enumerate(&a);
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
                    let p1 = |f: usize| exact.field(f).get(&1).copied().unwrap_or(0.0);
                    serious = serious.max(p1(field::SERIOUS));
                    not_as_bad = not_as_bad.max(p1(field::NOT_AS_BAD));
                    good = good.max(p1(field::GOOD));
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 144);
    // The 2-cost uses and the re-roll are really exercised.
    assert!(
        serious > 0.01 && not_as_bad > 0.0 && good > 0.01,
        "{serious} {not_as_bad} {good}"
    );
}

/// 54 configs: every variant × policy, each at one of four explorer /
/// difficulty settings (two with an impairing condition), plus a stunt, a
/// no-risk and a trivial action and a few more.
fn mc_configs() -> Vec<Action> {
    let mut out = Vec::new();
    let mut i = 0;
    for risk_base in [RiskBase::Table, RiskBase::Example] {
        for failure in [FailureRule::Procedure, FailureRule::Half] {
            for wrench in [Wrench::None, Wrench::Greedy, Wrench::Deny] {
                for hammer in [
                    Hammer::None,
                    Hammer::Always,
                    Hammer::OnlyOnSuccess,
                    Hammer::Conditions,
                ] {
                    let r = rules(risk_base, failure, wrench, hammer);
                    let (sd, rc, base, extra) = [
                        (3, "3d+1", 6, 0),
                        (2, "4d", 8, -3),
                        (5, "6d+2", 9, 2),
                        (1, "2d+2", 5, 0),
                    ][i % 4];
                    let mut a = action(sd, Some(rc), base, extra, r);
                    if i % 2 == 1 {
                        a.adjust = 1;
                        a.impaired = true;
                    }
                    out.push(a);
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
    assert!(configs.len() >= 50);
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
        prop::bool::ANY,
    )
        .prop_map(
            |(sd, risk, base, adjust, extra, example, half, gt, impaired)| Action {
                success_dice: sd,
                risk_code: risk.map(|(x, y)| DieCode::new(x, y)),
                base,
                adjust: adjust + impaired as i64,
                impaired,
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
                    wrench: Wrench::Greedy.into(),
                    hammer: Hammer::Always,
                    comparison: if gt { Comparison::Gt } else { Comparison::Ge },
                },
            },
        )
}

const HAMMERS: [Hammer; 4] = [
    Hammer::None,
    Hammer::Always,
    Hammer::OnlyOnSuccess,
    Hammer::Conditions,
];

/// P(field ≥ k) for k = 1, 2, … up to the largest value seen.
fn tail(a: &Action, f: usize) -> Vec<f64> {
    let m = a.exact();
    let law = m.field(f);
    let top = law.keys().copied().max().unwrap_or(0);
    (1..=top)
        .map(|k| law.range(k..).map(|(_, p)| p).sum())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// rules §3.4: `deny` spends what greedy leaves on any legal use,
    /// so the Exec never gets more: P(venture left to the hammer ≥ k) is
    /// never higher under deny, for every k, whatever the hammer.
    #[test]
    fn deny_never_leaves_more_venture_to_the_hammer_than_greedy(
        a in any_action(),
        hammer in 0usize..4,
    ) {
        let hammer = HAMMERS[hammer];
        let greedy = Action { rules: Rules { wrench: Wrench::Greedy.into(), hammer, ..a.rules }, ..a };
        let deny = Action { rules: Rules { wrench: Wrench::Deny.into(), hammer, ..a.rules }, ..a };
        let (g, d) = (tail(&greedy, field::TO_HAMMER), tail(&deny, field::TO_HAMMER));
        for (k, pd) in d.iter().enumerate() {
            let pg = g.get(k).copied().unwrap_or(0.0);
            prop_assert!(*pd <= pg + 1e-12, "P(to hammer ≥ {}) {} > {}", k + 1, pd, pg);
        }
        let (hg, hd) = (tail(&greedy, field::HAMMER_SPENT), tail(&deny, field::HAMMER_SPENT));
        let mean = |t: &[f64]| t.iter().sum::<f64>();
        prop_assert!(mean(&hd) <= mean(&hg) + 1e-12, "hammer spends {} > {}", mean(&hd), mean(&hg));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn the_hammer_never_raises_success(a in any_action(), wrench in 0usize..3) {
        let mut a = a;
        a.rules.wrench = [Wrench::None, Wrench::Greedy, Wrench::Deny][wrench].into();
        let none = Action { rules: Rules { hammer: Hammer::None, ..a.rules }, ..a };
        let always = Action { rules: Rules { hammer: Hammer::Always, ..a.rules }, ..a };
        let only = Action { rules: Rules { hammer: Hammer::OnlyOnSuccess, ..a.rules }, ..a };
        let conditions = Action { rules: Rules { hammer: Hammer::Conditions, ..a.rules }, ..a };
        prop_assert!(p_success(&always) <= p_success(&none) + 1e-12);
        prop_assert!(p_success(&only) <= p_success(&none) + 1e-12);
        // a hammer that never adds a failure leaves success alone
        prop_assert!((p_success(&conditions) - p_success(&none)).abs() < 1e-12);
    }

    #[test]
    fn a_greedy_wrench_never_lowers_success(a in any_action(), hammer in 0usize..4) {
        let hammer = HAMMERS[hammer];
        let without = Action { rules: Rules { wrench: Wrench::None.into(), hammer, ..a.rules }, ..a };
        let greedy = Action { rules: Rules { wrench: Wrench::Greedy.into(), hammer, ..a.rules }, ..a };
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
