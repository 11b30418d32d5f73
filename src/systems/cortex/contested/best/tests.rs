//! Best play in `cortex.contested`: the given policy is the exact
//! solver's answer, best play beats every give-in policy the scenarios
//! name and every deterministic policy on a small contest, giving in is
//! dominated for winning, and the written policy replays.

use super::*;
use crate::exact::best::check::best_is_brute_force;
use crate::exact::best::{BestLimits, best, group};
use crate::model::{Marginals, Pred};
use crate::systems::cortex::contested::{GAVE_IN, WIN};
use crate::systems::cortex::{Pool, RatingTie, Sides};

fn contest(a: &str, o: &str, gang: Option<&str>, actor_first: bool) -> Contested {
    let pool = |p: &str| p.parse::<Pool>().unwrap();
    let sides = Sides {
        actor: pool(a),
        aid: None,
        opposition: pool(o),
        gang: gang.map_or(vec![], |g| pool(g).dice().to_vec()),
    };
    Contested::new(sides, RatingTie::Larger, false, actor_first, None)
}

fn p_win(o: &[i64]) -> f64 {
    f64::from(o[WIN] == 1)
}

/// A win is worth 1, giving in ½, losing by a roll (and taking its
/// complication) nothing: a metric where giving in can pay.
fn spared(o: &[i64]) -> f64 {
    o[WIN] as f64 + 0.5 * o[GAVE_IN] as f64
}

/// The same metric from exact marginals.
fn mean_of(m: &Marginals, reward: fn(&[i64]) -> f64) -> f64 {
    let (win, gave_in) = (
        m.share(WIN, Pred::Eq(1)) / m.total(),
        m.share(GAVE_IN, Pred::Eq(1)) / m.total(),
    );
    let mut o = [0; FIELDS];
    o[WIN] = 1;
    let w = reward(&o);
    o[WIN] = 0;
    o[GAVE_IN] = 1;
    w * win + reward(&o) * gave_in
}

fn with_policy(c: &Contested, give_in: Option<i64>, at: Option<i64>) -> Contested {
    with_stakes(c, give_in, at.map(|a| vec![a]))
}

fn with_stakes(c: &Contested, give_in: Option<i64>, at: Option<Vec<i64>>) -> Contested {
    Contested {
        give_in,
        ..c.clone()
    }
    .give_in_at(at)
}

#[test]
fn the_given_policy_is_the_exact_solver() {
    let cases = [
        contest("d8 d6 d6", "d8 d6", Some("3d6"), true),
        contest("d6 d6", "d8 d8", None, false),
        contest("d10 d8", "d8", Some("d6 d4"), true),
    ];
    for c in &cases {
        for (give_in, at) in [
            (None, None),
            (Some(0), None),
            (Some(4), None),
            (None, Some(9)),
            (Some(2), Some(12)),
        ] {
            let c = with_policy(c, give_in, at);
            let exact = c.exact().unwrap();
            let p = GiveInChoice::new(c.clone());
            for reward in [p_win as fn(&[i64]) -> f64, spared] {
                let s = best(&p, &reward, false, BestLimits::default()).unwrap();
                let want = mean_of(&exact, reward);
                assert!(
                    (s.given - want).abs() < 1e-9,
                    "{c:?}: {} vs {want}",
                    s.given
                );
                assert!(s.value >= s.given - 1e-12);
                assert!((s.replayed - s.value).abs() < 1e-9);
            }
        }
    }
}

#[test]
fn best_play_beats_every_named_give_in_policy() {
    // Every threshold the key allows on both of its forms, and never.
    for c in [
        contest("d8 d6", "d8 d6", Some("3d6"), true),
        contest("d8 d8 d6", "d8 d6", Some("6d6"), false),
    ] {
        for reward in [p_win as fn(&[i64]) -> f64, spared] {
            let top = best(
                &GiveInChoice::new(c.clone()),
                &reward,
                false,
                BestLimits::default(),
            )
            .unwrap()
            .value;
            let mut policies = vec![(None, None)];
            policies.extend((0..=30).map(|n| (Some(n), None)));
            policies.extend((0..=30).map(|n| (None, Some(n))));
            for (give_in, at) in policies {
                let v = mean_of(&with_policy(&c, give_in, at).exact().unwrap(), reward);
                assert!(v <= top + 1e-12, "{give_in:?} {at:?}: {v} > best {top}");
            }
        }
    }
}

#[test]
fn best_play_is_the_best_deterministic_policy() {
    // One d4 a side: totals of 0..=4, so the stakes rise to 4 within a
    // few rolls and every way to choose can be counted.
    for actor_first in [true, false] {
        let c = contest("d4", "d4", None, actor_first);
        let p = GiveInChoice::new(c);
        for reward in [p_win as fn(&[i64]) -> f64, spared] {
            let n = best_is_brute_force(&p, &reward, 1 << 16, "d4 against d4");
            assert!(n >= 8, "{n} policies");
        }
    }
}

#[test]
fn giving_in_never_pays_for_winning() {
    let c = contest("d8 d6", "d8 d6", Some("3d6"), true);
    let s = best(
        &GiveInChoice::new(c.clone()),
        &p_win,
        true,
        BestLimits::default(),
    )
    .unwrap();
    let row = |t: &str| s.dominance.iter().find(|d| d.tag == t).unwrap().clone();
    let give_in = row("give in");
    assert!(give_in.loss.abs() < 1e-12, "{give_in:?}");
    assert_eq!(give_in.usage, 0.0);
    // Without raising, the actor gives in at its first turn: it wins only
    // when the opposition fails to beat its first roll.
    let raise = row("raise");
    assert!(raise.loss > 0.05, "{raise:?}");
    assert!((raise.usage - 1.0).abs() < 1e-12);
    // Where giving in is worth half a win, best play gives in at high
    // stakes and forbidding it costs.
    let s = best(&GiveInChoice::new(c), &spared, true, BestLimits::default()).unwrap();
    let give_in = s.dominance.iter().find(|d| d.tag == "give in").unwrap();
    assert!(give_in.loss > 0.01 && give_in.usage > 0.0, "{give_in:?}");
}

#[test]
fn the_written_policy_replays_best_play() {
    for c in [
        contest("d8 d6", "d8 d6", Some("3d6"), true),
        contest("d8 d8 d6", "d10 d6", None, false),
        contest("d6 d6", "d8 d8", Some("d6"), true),
    ] {
        let p = GiveInChoice::new(with_policy(&c, Some(4), None));
        for (winning, reward) in [(true, p_win as fn(&[i64]) -> f64), (false, spared)] {
            let s = best(&p, &reward, false, BestLimits::default()).unwrap();
            let rules: Vec<RuleOf<Turn>> = group(&s.decisions, 2)
                .iter()
                .map(|b| (b.ranges.clone(), s.options[b.option]))
                .collect();
            let written = p.write(&rules).unwrap_or_else(|| panic!("{rules:?}"));
            let [(key, value)] = &written[..] else {
                panic!("{written:?}")
            };
            assert_eq!(key, "policy.give_in_at");
            let at = super::super::give_in_at_of(value).unwrap();
            let replayed = mean_of(
                &with_stakes(&c, None, Some(at.clone())).exact().unwrap(),
                reward,
            );
            assert!(
                (replayed - s.value).abs() < 1e-9,
                "{replayed} vs {}",
                s.value
            );
            if winning {
                assert_eq!(*value, ParamValue::Int(NEVER));
            } else {
                assert!(at.iter().any(|&a| a < NEVER), "{at:?}");
            }
        }
    }
}

#[test]
fn give_in_at_reads_stakes_or_a_list_by_gang_dice() {
    use crate::model::Define;
    let read = |v: ParamValue| {
        let values = crate::model::ParamMap::from_pairs(&[("policy.give_in_at", v)]);
        super::super::ContestedAction
            .read(&values)
            .map(|p| p.give_in_at)
            .map_err(|e| e.to_string())
    };
    assert_eq!(read(ParamValue::Int(9)), Ok(Some(vec![9])));
    let list = ParamValue::List(vec![ParamValue::Int(9), ParamValue::Int(7)]);
    assert_eq!(read(list), Ok(Some(vec![9, 7])));
    let e = read(ParamValue::Int(61)).unwrap_err();
    assert!(
        e.contains("policy.give_in_at") && e.contains("0..=60"),
        "{e}"
    );
    // With 3 gang dice left and a list of two, the last entry holds.
    let c = with_stakes(
        &contest("d8 d6", "d8", Some("3d6"), true),
        None,
        Some(vec![20, 7]),
    );
    assert!(c.gives_in(7, 0, 3) && c.gives_in(20, 0, 0) && !c.gives_in(19, 0, 0));
}
