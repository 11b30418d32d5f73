//! Best play in `questworlds.wagered`: the PC's given wager is the exact
//! solver's answer, best play beats every wager the keys can name and
//! every deterministic policy on a small sequence, a wager no one should
//! make is found, and a written wager replays.

use super::*;
use crate::best::{BestQuestion, best as ask};
use crate::exact::best::check::{best_is_brute_force, graph_is_layered};
use crate::exact::best::{BestLimits, best};
use crate::model::ParamValue::{Int, Str};
use crate::model::{Marginals, ParamMap, Pred};
use crate::systems::questworlds::sequence::PC;
use crate::systems::questworlds::wagered::WageredSequence;

fn values(pairs: &[(&str, ParamValue)]) -> ParamMap {
    ParamMap::from_pairs(pairs)
}

fn choice(v: &ParamMap) -> WagerChoice {
    let p = WageredSequence.read(v).unwrap();
    WageredSequence.check(&p).unwrap();
    WagerChoice::new(p).unwrap()
}

fn exact(v: &ParamMap) -> Marginals {
    let p = WageredSequence.read(v).unwrap();
    crate::model::Trial::exact(&WageredSequence.build(p)).unwrap()
}

fn p_victory(o: &[i64]) -> f64 {
    f64::from(o[0] == PC)
}

fn victory_of(m: &Marginals) -> f64 {
    m.share(0, Pred::Eq(PC)) / m.total()
}

fn sides(pc: &str, opp: &str, rounds: i64) -> Vec<(&'static str, ParamValue)> {
    vec![
        ("pc.rating", Str(pc.into())),
        ("opponent.rating", Str(opp.into())),
        ("max_rounds", Int(rounds)),
    ]
}

#[test]
fn the_given_wager_is_the_exact_solver() {
    for (pc, opp, w, ow, stake) in [
        ("10", "10", 3, 3, "keep"),
        ("12", "8", 5, 2, "never"),
        ("8", "12", 2, 4, "when-behind"),
    ] {
        let mut pairs = sides(pc, opp, 30);
        pairs.extend([
            ("pc.wager", Int(w)),
            ("opponent.wager", Int(ow)),
            ("pc.desperation_stake", Str(stake.into())),
        ]);
        let v = values(&pairs);
        let s = best(&choice(&v), &p_victory, false, BestLimits::default()).unwrap();
        let want = victory_of(&exact(&v));
        assert!(
            (s.given - want).abs() < 1e-9,
            "{pc} {opp}: {} vs {want}",
            s.given
        );
        assert!(s.value >= s.given - 1e-12);
    }
}

#[test]
fn repeating_rounds_solve_as_round_by_round() {
    let v = values(&sides("8", "10", 6));
    let rounds = |o: &[i64]| o[1] as f64;
    graph_is_layered(&choice(&v), &p_victory, "8 against 10, victory");
    graph_is_layered(&choice(&v), &rounds, "8 against 10, rounds");
}

#[test]
fn best_play_beats_every_wager_the_keys_name() {
    for (pc, opp) in [("10", "10"), ("8", "12")] {
        let base = sides(pc, opp, 30);
        let top = best(
            &choice(&values(&base)),
            &p_victory,
            false,
            BestLimits::default(),
        )
        .unwrap()
        .value;
        let tn: i64 = pc.parse().unwrap();
        for w in 1..=tn {
            for stake in ["keep", "never", "when-behind"] {
                let mut pairs = base.clone();
                pairs.extend([
                    ("pc.wager", Int(w)),
                    ("pc.desperation_stake", Str(stake.into())),
                ]);
                let v = victory_of(&exact(&values(&pairs)));
                assert!(
                    v <= top + 1e-12,
                    "{pc} {opp} wager {w} {stake}: {v} > best {top}"
                );
            }
        }
    }
}

#[test]
fn best_play_is_the_best_deterministic_policy() {
    // Two-point ratings and two rounds: every way to wager 1 or 2 AP in
    // every situation can be counted.
    for (pc, opp) in [("2", "2"), ("2", "3")] {
        let mut pairs = sides(pc, opp, 2);
        pairs.push(("pc.wager", Int(1)));
        let p = choice(&values(&pairs));
        let rounds = |o: &[i64]| o[1] as f64;
        for reward in [&p_victory as &dyn Fn(&[i64]) -> f64, &rounds] {
            let n = best_is_brute_force(&p, reward, 1 << 16, &format!("{pc} against {opp}"));
            assert!(n >= 4, "{n} policies");
        }
    }
}

#[test]
fn a_wager_no_one_should_make() {
    // One round: best play wagers once, so every other wager is never
    // needed.
    let v = values(&sides("10", "10", 1));
    let s = best(&choice(&v), &p_victory, true, BestLimits::default()).unwrap();
    let never: Vec<&str> = s
        .dominance
        .iter()
        .filter(|d| d.loss < 1e-12 && d.usage == 0.0)
        .map(|d| d.tag.as_str())
        .collect();
    assert!(!never.is_empty(), "{:?}", s.dominance);
    assert!(
        s.dominance.iter().any(|d| d.loss > 1e-6),
        "{:?}",
        s.dominance
    );
}

#[test]
fn a_written_wager_replays_best_play() {
    let q = |pairs: &[(&str, ParamValue)], metric: &str| {
        ask(&BestQuestion {
            mechanic: crate::systems::find("questworlds.wagered").unwrap(),
            params: values(pairs),
            metric: metric.into(),
            dominance: false,
            opponent: Default::default(),
        })
        .unwrap()
    };
    for (pc, opp, rounds, ow) in [
        ("10", "10", 1, 3),
        ("12", "8", 1, 3),
        ("8", "12", 30, 3),
        ("3", "3", 3, 3),
        ("15", "15", 100, 1),
        ("15", "15", 100, 3),
        ("15", "15", 100, 5),
    ] {
        let mut pairs = sides(pc, opp, rounds);
        pairs.push(("opponent.wager", Int(ow)));
        let a = q(&pairs, "p_victory");
        let written = a.policy.as_deref().unwrap_or_default();
        assert!(written.contains("\"pc.wager\""), "{a:?}");
        // One round: one decision, so one wager.
        if rounds == 1 {
            assert!(!written.contains("when"), "{written}");
        }
        let r = a.replayed.expect("replayed");
        assert!(
            (r - a.best).abs() < 1e-9,
            "{pc} {opp} {rounds}: {r} vs {}\n{written}",
            a.best
        );
    }
}

#[test]
fn a_wager_by_situation_is_played_by_the_sampler_too() {
    // Far behind: everything; ahead: 1 AP; else 3.
    let rules = ParamValue::List(vec![
        super::policy::rule(
            10,
            Some(&super::policy::When {
                lead_at_most: Some(-4),
                ..Default::default()
            }),
        ),
        super::policy::rule(
            1,
            Some(&super::policy::When {
                lead_at_least: Some(1),
                ..Default::default()
            }),
        ),
        super::policy::rule(3, None),
    ]);
    let v = values(&[
        ("pc.rating", Str("10".into())),
        ("opponent.rating", Str("10".into())),
        ("pc.wager", rules),
    ]);
    let m = exact(&v);
    let p = WageredSequence.read(&v).unwrap();
    let trial = WageredSequence.build(p);
    let n = 200_000u64;
    let mut rng = crate::dice::DiceRng::from_u64(7);
    let mut tally = crate::model::Tally::new(m.len());
    crate::model::Trial::simulate(&trial, &mut rng, n, &mut tally);
    let want = victory_of(&m);
    let got = tally.share(0, Pred::Eq(PC)) as f64 / n as f64;
    let se = (want * (1.0 - want) / n as f64).sqrt();
    assert!(
        (got - want).abs() < 4.0 * se,
        "MC {got} vs exact {want} (se {se})"
    );
    // And the rules are not a fixed wager in disguise.
    let fixed = victory_of(&exact(&values(&[
        ("pc.rating", Str("10".into())),
        ("opponent.rating", Str("10".into())),
        ("pc.wager", Int(3)),
    ])));
    assert!((fixed - want).abs() > 1e-3, "{fixed} vs {want}");
}

#[test]
fn bad_wager_rules_name_the_key_and_what_is_allowed() {
    use super::policy::parse;
    let t = |pairs: Vec<(&str, ParamValue)>| {
        ParamValue::Table(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    };
    let when = |k: &str, n: i64| t(vec![(k, Int(n))]);
    let e = parse(&ParamValue::List(vec![
        t(vec![("wager", Int(2)), ("when", when("behind_by", 3))]),
        t(vec![("wager", Int(1))]),
    ]))
    .unwrap_err();
    assert!(e.starts_with("rule 1: `when`"), "{e}");
    assert!(e.contains("behind_by") && e.contains("lead_at_most"), "{e}");
    let e = parse(&ParamValue::List(vec![t(vec![("wager", Int(0))])])).unwrap_err();
    assert!(
        e.contains("`wager` = 0 is out of range; allowed: 1..=400"),
        "{e}"
    );
    let e = parse(&ParamValue::List(vec![t(vec![
        ("wager", Int(2)),
        ("when", when("pc_ap_at_most", 3)),
    ])]))
    .unwrap_err();
    assert!(e.contains("the last rule has no `when`"), "{e}");
    let e = parse(&ParamValue::List(vec![t(vec![("stake", Int(2))])])).unwrap_err();
    assert!(
        e.contains("unknown key `stake`; allowed: wager, when"),
        "{e}"
    );
    // A rule's wager above the PC's starting AP is refused by the check.
    let v = values(&[
        ("pc.rating", Str("5".into())),
        (
            "pc.wager",
            ParamValue::List(vec![t(vec![("wager", Int(6))])]),
        ),
    ]);
    let p = WageredSequence.read(&v).unwrap();
    let e = WageredSequence.check(&p).unwrap_err();
    assert!(e.to_string().contains("pc.wager"), "{e}");
}
