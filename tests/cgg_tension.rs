//! `cgg.tension`: hand-traced scenes, and the Monte Carlo simulator against
//! an absorbing-chain solution of a scene small enough to write down.

use oddsmith::dice::DiceRng;
use oddsmith::dist::{Limits, Marginals, Next, absorb};
use oddsmith::systems::Define;
use oddsmith::systems::cgg::tension::TensionMechanic;
use oddsmith::systems::testing::{Sample, assert_agrees_with};
use oddsmith::systems::{ParamMap, ParamValue, find};

fn values(pairs: &[(&str, ParamValue)]) -> ParamMap {
    ParamMap::from_pairs(pairs)
}

fn codes(list: &[&str]) -> ParamValue {
    ParamValue::List(
        list.iter()
            .map(|s| ParamValue::Str(s.to_string()))
            .collect(),
    )
}

#[test]
fn trivial_actions_walk_the_track_down() {
    use ParamValue::*;
    // 5d against easy (3d): no difficulty dice, no risk: every action
    // succeeds with no venture, lowering the track by 1.
    let base = [
        ("difficulty.base", Str("easy".into())),
        ("risk", Str("none".into())),
        ("exec.raise", Int(1)),
        ("start", Int(3)),
    ];
    // Two explorers: 3 → 2 → 1, +1 = 2; → 1 → 0 in round 2.
    let mut two = base.to_vec();
    two.push(("explorers", codes(&["5d", "6d"])));
    let t = TensionMechanic.trial(&values(&two)).unwrap();
    let mut rng = DiceRng::from_u64(1);
    assert_eq!(t.sample(&mut rng), [1, 0, 2, 0, 0]);
    // One explorer against a raise of 1 never moves the track: unresolved
    // after max_rounds.
    let mut one = base.to_vec();
    one.push(("explorers", codes(&["5d"])));
    one.push(("max_rounds", Int(40)));
    let t = TensionMechanic.trial(&values(&one)).unwrap();
    assert_eq!(t.sample(&mut rng), [0, 0, 40, 0, 0]);
}

#[test]
fn a_raise_of_three_from_fourteen_springs_the_pitfall_at_once() {
    use ParamValue::*;
    // One explorer lowers the track by at most 2; 14 − 2 + 3 = 15.
    let t = TensionMechanic
        .trial(&values(&[
            ("explorers", codes(&["2d"])),
            ("start", Int(14)),
            ("exec.raise", Int(3)),
        ]))
        .unwrap();
    let mut rng = DiceRng::from_u64(3);
    for _ in 0..1000 {
        let o = t.sample(&mut rng);
        assert_eq!(&o[..3], &[0, 1, 1]);
    }
}

#[test]
fn explorers_may_give_a_separate_risk_code() {
    let t = TensionMechanic
        .trial(&values(&[(
            "explorers",
            ParamValue::List(vec![
                ParamValue::Str("4d+1".into()),
                ParamValue::Table(vec![
                    ("code".into(), ParamValue::Str("5d".into())),
                    ("risk_code".into(), ParamValue::Str("2d+2".into())),
                ]),
            ]),
        )]))
        .unwrap();
    assert_eq!(t.actions[0].success_dice, 4);
    assert_eq!(t.actions[0].risk_code, Some("4d+1".parse().unwrap()));
    assert_eq!(t.actions[1].success_dice, 5);
    assert_eq!(t.actions[1].risk_code, Some("2d+2".parse().unwrap()));
}

#[test]
fn bad_explorer_lists_name_the_key() {
    for bad in [
        ParamValue::List(vec![]),
        codes(&["3d", "three"]),
        ParamValue::List(vec![ParamValue::Table(vec![(
            "risk_code".into(),
            ParamValue::Str("3d".into()),
        )])]),
        ParamValue::Str("3d".into()),
    ] {
        let err = find("cgg.tension")
            .unwrap()
            .prepare(&values(&[("explorers", bad)]))
            .err()
            .unwrap();
        assert_eq!(err.key, "explorers");
    }
}

#[test]
fn monte_carlo_agrees_with_the_chain() {
    use ParamValue::*;
    // One explorer at 3d against 4d, no risk: one difficulty die, success
    // 7 in 10 (never with venture, so always −1); the Exec raises 1d3.
    let v = values(&[
        ("explorers", codes(&["3d"])),
        ("difficulty.base", Int(4)),
        ("risk", Str("none".into())),
        ("start", Int(4)),
    ]);
    let exact = absorb(4i64, 2, Limits::default(), |round, &track, out| {
        let r = round as i64;
        // success: −1, maybe avoided at once
        if track == 1 {
            out.push((Next::Stop(vec![1, r]), 0.7));
        } else {
            for raise in 1..=3 {
                let t = track - 1 + raise;
                let to = if t >= 15 {
                    Next::Stop(vec![0, r])
                } else {
                    Next::Go(t)
                };
                out.push((to, 0.7 / 3.0));
            }
        }
        for raise in 1..=3 {
            let t = track + raise;
            let to = if t >= 15 {
                Next::Stop(vec![0, r])
            } else {
                Next::Go(t)
            };
            out.push((to, 0.3 / 3.0));
        }
    })
    .unwrap();
    assert!(exact.leftover < 1e-12);
    let m = find("cgg.tension").unwrap().prepare(&v).unwrap();
    // The mechanic's fields from the chain's (avoided, rounds): the pitfall
    // is the only other ending, and with no risk roll there is no venture,
    // so no hours are paid or gained.
    let mut ours = Marginals::new(5);
    for (&v, &q) in exact.marginals.field(0) {
        ours.add(0, v, q);
        ours.add(1, 1 - v, q);
    }
    for (&v, &q) in exact.marginals.field(1) {
        ours.add(2, v, q);
    }
    ours.add(3, 0, 1.0);
    ours.add(4, 0, 1.0);
    assert_agrees_with(m.as_ref(), &ours, Sample::seed(99), "the chain");
}
