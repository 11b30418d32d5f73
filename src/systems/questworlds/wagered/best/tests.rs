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
        })
        .unwrap()
    };
    for (pc, opp, rounds) in [
        ("10", "10", 1),
        ("12", "8", 1),
        ("8", "12", 30),
        ("3", "3", 3),
    ] {
        let a = q(&sides(pc, opp, rounds), "p_victory");
        // One round: one decision, so one wager, written and replayed.
        if rounds == 1 {
            let written = a.policy.as_deref().unwrap_or_default();
            assert!(written.contains("\"pc.wager\""), "{a:?}");
        } else {
            assert!(a.unwritten.is_some(), "{a:?}");
        }
        if let Some(r) = a.replayed {
            assert!((r - a.best).abs() < 1e-9, "{r} vs {}", a.best);
        }
    }
}
