//! `cgg.tension`: hand-traced scenes, and the Monte Carlo simulator against
//! an absorbing-chain solution of a scene small enough to write down.

use oddsmith::dice::DiceRng;
use oddsmith::exact::{Limits, Next, absorb};
use oddsmith::model::Marginals;
use oddsmith::systems::Define;
use oddsmith::systems::cgg::tension::TensionMechanic;
use oddsmith::systems::testing::{Sample, assert_agrees_with, table as t};
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
    assert_eq!(t.sample(&mut rng)[..6], [1, 0, 2, 0, 0, 0]);
    // One explorer against a raise of 1 never moves the track: unresolved
    // after max_rounds.
    let mut one = base.to_vec();
    one.push(("explorers", codes(&["5d"])));
    one.push(("max_rounds", Int(40)));
    let t = TensionMechanic.trial(&values(&one)).unwrap();
    assert_eq!(t.sample(&mut rng)[..6], [0, 0, 40, 0, 0, 0]);
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
            .check(&values(&[("explorers", bad)]))
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
        ("edge.gives", Str("none".into())),
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
    let mut ours = Marginals::new(8);
    for (&v, &q) in exact.marginals.field(0) {
        ours.add(0, v, q);
        ours.add(1, 1 - v, q);
    }
    for (&v, &q) in exact.marginals.field(1) {
        ours.add(2, v, q);
    }
    // hours paid, gained, explorers in crisis, and the explorer's own two
    for f in 3..8 {
        ours.add(f, 0, 1.0);
    }
    assert_agrees_with(m.as_ref(), &ours, Sample::seed(99), "the chain");
}

// --- The levers of rules §3.8 -----------------------------------------

/// A trivial action (5d against easy, no risk roll: always −1, no hours)
/// for every explorer, the Exec raising 1: the track stands still unless a
/// lever moves it.
fn still(extra: &[(&str, ParamValue)]) -> Vec<(String, ParamValue)> {
    use ParamValue::*;
    let mut v: Vec<(String, ParamValue)> = vec![
        ("difficulty.base".into(), Str("easy".into())),
        ("risk".into(), Str("none".into())),
        ("exec.raise".into(), Int(1)),
        ("max_rounds".into(), Int(20)),
    ];
    v.extend(extra.iter().map(|(k, x)| (k.to_string(), x.clone())));
    v
}

fn scene(pairs: &[(String, ParamValue)]) -> oddsmith::systems::cgg::tension::Tension {
    let mut m = ParamMap::new();
    for (k, v) in pairs {
        m.set(k.clone(), v.clone());
    }
    TensionMechanic.trial(&m).unwrap()
}

#[test]
fn the_edge_holders_cumulative_die_against_its_chain() {
    use ParamValue::*;
    // One explorer at 1d against serious (6d): 5 difficulty dice, one
    // fewer each round from the Edge's +1d given to itself at the start of
    // every round (4 in round 1 … 0 from round 5). No risk roll.
    let v = values(&[
        ("explorers", codes(&["1d"])),
        ("difficulty.base", Str("serious".into())),
        ("risk", Str("none".into())),
        ("start", Int(6)),
        ("edge.gives", Str("self".into())),
    ]);
    let exact = absorb(6i64, 2, Limits::default(), |round, &track, out| {
        let r = round as i64;
        let k = (5 - r).max(0);
        let p = 0.7f64.powi(k as i32);
        let push = |out: &mut Vec<_>, t: i64, q: f64| {
            for raise in 1..=3 {
                let to = if t + raise >= 15 {
                    Next::Stop(vec![0, r])
                } else {
                    Next::Go(t + raise)
                };
                out.push((to, q / 3.0));
            }
        };
        if track == 1 {
            out.push((Next::Stop(vec![1, r]), p));
        } else {
            push(out, track - 1, p);
        }
        push(out, track, 1.0 - p);
    })
    .unwrap();
    let m = find("cgg.tension").unwrap().prepare(&v).unwrap();
    let mut ours = Marginals::new(8);
    for (&v, &q) in exact.marginals.field(0) {
        ours.add(0, v, q);
        ours.add(1, 1 - v, q);
    }
    for (&v, &q) in exact.marginals.field(1) {
        ours.add(2, v, q);
    }
    for f in 3..8 {
        ours.add(f, 0, 1.0);
    }
    assert_agrees_with(
        m.as_ref(),
        &ours,
        Sample::seed(7).trials(200_000),
        "the edge chain",
    );
}

#[test]
fn helpers_teamwork_and_the_helpers_risk_die() {
    use ParamValue::*;
    // ann 3d against not-too-hard (4d): one difficulty die, 0.7 alone; with
    // bob's help (teamwork −1) none: the track at 1 is always avoided in
    // round 1 by ann, who acts first.
    let helped = |helps: bool| {
        scene(&[
            (
                "explorers".into(),
                List(vec![
                    t(&[("name", Str("ann".into())), ("code", Str("3d".into()))]),
                    t(&[
                        ("name", Str("bob".into())),
                        ("code", Str("1d".into())),
                        ("helps", Bool(helps)),
                    ]),
                ]),
            ),
            ("difficulty.base".into(), Int(4)),
            ("risk".into(), Str("none".into())),
            ("start".into(), Int(1)),
            ("edge.gives".into(), Str("none".into())),
        ])
    };
    let mut rng = DiceRng::from_u64(5);
    let with = helped(true);
    assert!((0..2000).all(|_| with.sample(&mut rng)[..3] == [1, 0, 1]));
    let without = helped(false);
    let failed = (0..2000)
        .filter(|_| without.sample(&mut rng)[1] == 1 || without.sample(&mut rng)[2] > 1)
        .count();
    assert!(failed > 0);
    // bob helps ann, then rolls his own risk at −1d: from 1d to 0d, so he
    // never rolls venture and never pays an hour; unhelping, he does.
    let risky = |helps: bool| {
        scene(&[
            (
                "explorers".into(),
                List(vec![
                    t(&[("name", Str("ann".into())), ("code", Str("2d".into()))]),
                    t(&[
                        ("name", Str("bob".into())),
                        ("code", Str("1d".into())),
                        ("helps", Bool(helps)),
                    ]),
                ]),
            ),
            ("difficulty.base".into(), Int(4)),
            ("start".into(), Int(14)),
            ("edge.gives".into(), Str("none".into())),
        ])
    };
    let bob_paid = |s: &oddsmith::systems::cgg::tension::Tension, rng: &mut DiceRng| {
        (0..4000).map(|_| s.sample(rng)[8]).sum::<i64>()
    };
    assert_eq!(bob_paid(&risky(true), &mut rng), 0);
    assert!(bob_paid(&risky(false), &mut rng) > 0);
}

#[test]
fn idle_gains_an_hour_each_round_up_to_the_full_clock() {
    use ParamValue::*;
    // Idling every round the track only rises: 7 + 8 = 15 in round 8; the
    // clock goes 5 → 12 and no further.
    let idle = List(vec![t(&[("choose", Str("idle".into()))])]);
    let s = scene(&still(&[
        (
            "explorers",
            List(vec![t(&[
                ("code", Str("5d".into())),
                ("hours", Int(5)),
                ("policy", idle),
            ])]),
        ),
        ("start", Int(7)),
    ]));
    let o = s.sample(&mut DiceRng::from_u64(1));
    assert_eq!(o[..6], [0, 1, 8, 0, 7, 0]);
    assert_eq!(o[6..], [0, 7]);
}

#[test]
fn ready_with_a_cue_raises_the_track_at_once() {
    use ParamValue::*;
    let cue = List(vec![t(&[("choose", Str("ready-cue".into()))])]);
    let s = scene(&still(&[
        (
            "explorers",
            List(vec![t(&[("code", Str("3d".into())), ("policy", cue)])]),
        ),
        ("start", Int(14)),
    ]));
    let mut rng = DiceRng::from_u64(2);
    for _ in 0..100 {
        assert_eq!(s.sample(&mut rng)[..3], [0, 1, 1]);
    }
    // Ready with a cue, then act with the leverage, in turn. 3d against
    // not-too-hard (4d) leaves one difficulty die (0.7 alone); the cue's
    // +1d joins the next action, which then has none and surely succeeds.
    // The track: cue +1 and the Exec's +1 on the Ready rounds, −1 and +1 on
    // the acting ones: 3 → 5 → 5 → 7 … → 13 → 13, then the cue makes 14
    // and the Exec 15 in round 11. A single failed action would spring it
    // sooner.
    let alternate = List(vec![t(&[
        ("choose", Str("ready-cue".into())),
        ("when", t(&[("leverage_at_most", Int(0))])),
    ])]);
    let s = scene(&[
        (
            "explorers".into(),
            List(vec![t(&[
                ("code", Str("3d".into())),
                ("policy", alternate),
            ])]),
        ),
        ("difficulty.base".into(), Int(4)),
        ("risk".into(), Str("none".into())),
        ("exec.raise".into(), Int(1)),
        ("start".into(), Int(3)),
        ("edge.gives".into(), Str("none".into())),
    ]);
    for _ in 0..500 {
        assert_eq!(s.sample(&mut rng)[..3], [0, 1, 11]);
    }
}

#[test]
fn stunts_pay_an_hour_until_the_clock_runs_out() {
    use ParamValue::*;
    // One stunt an action: 12 hours last 12 rounds, then the crisis: no
    // more stunts, no more hours.
    let s = scene(&still(&[
        (
            "explorers",
            List(vec![t(&[
                ("code", Str("5d".into())),
                ("stunt", Bool(true)),
            ])]),
        ),
        ("start", Int(5)),
    ]));
    let o = s.sample(&mut DiceRng::from_u64(3));
    assert_eq!(o[..6], [0, 0, 20, 12, 0, 1]);
    // Two roles: 9 hours.
    let s = scene(&still(&[
        (
            "explorers",
            List(vec![t(&[
                ("code", Str("5d".into())),
                ("stunt", Bool(true)),
                ("roles", Int(2)),
            ])]),
        ),
        ("start", Int(5)),
    ]));
    assert_eq!(s.sample(&mut DiceRng::from_u64(3))[3], 9);
}

#[test]
fn several_pitfalls_and_which_one_is_addressed() {
    use ParamValue::*;
    let two = |address: &str| {
        scene(&still(&[
            ("explorers", codes(&["5d"])),
            ("pitfalls", List(vec![Int(1), Int(14)])),
            ("pitfalls.address", Str(address.into())),
        ]))
    };
    let mut rng = DiceRng::from_u64(4);
    // The lowest: 1 → 0 at once.
    assert_eq!(two("lowest").sample(&mut rng)[..3], [1, 0, 1]);
    // The highest: 14 → 13, the Exec's +1 on it → 14, forever.
    assert_eq!(two("highest").sample(&mut rng)[..3], [0, 0, 20]);
    let err = TensionMechanic
        .trial(&values(&[
            ("pitfalls", List(vec![Int(3)])),
            ("start", Int(4)),
        ]))
        .unwrap_err();
    assert_eq!(err.key, "start");
}

#[test]
fn particularly_effective_by_the_edge_holder() {
    use ParamValue::*;
    // No risk roll, so never a venture left: −1 and +1 stand still; by the
    // holder every success is −2: 4 → 2 → 3 → 1 → 2 → 0 in round 3.
    let s = |variant: &str| {
        scene(&still(&[
            ("explorers", codes(&["5d"])),
            ("start", Int(4)),
            ("variant.effective", Str(variant.into())),
        ]))
    };
    let mut rng = DiceRng::from_u64(6);
    assert_eq!(s("edge").sample(&mut rng)[..3], [1, 0, 3]);
    assert_eq!(s("venture-left").sample(&mut rng)[..3], [0, 0, 20]);
}

#[test]
fn explorers_own_wrench_and_bad_levers_named() {
    use ParamValue::*;
    // A 2d explorer against a hard task spends venture (and hours) with
    // the scene's greedy wrench; with its own "none" it never pays.
    let s = |own: Option<&str>| {
        let mut e = vec![("code", Str("2d".into())), ("name", Str("cy".into()))];
        if let Some(w) = own {
            e.push(("wrench", Str(w.into())));
        }
        scene(&[
            ("explorers".into(), List(vec![t(&e)])),
            ("difficulty.base".into(), Int(6)),
            ("start".into(), Int(14)),
        ])
    };
    let mut rng = DiceRng::from_u64(8);
    let paid = |x: &oddsmith::systems::cgg::tension::Tension, rng: &mut DiceRng| {
        (0..4000).map(|_| x.sample(rng)[6]).sum::<i64>()
    };
    assert!(paid(&s(None), &mut rng) > 0);
    assert_eq!(paid(&s(Some("none")), &mut rng), 0);
    // Per-explorer fields are named after the explorer.
    let m = find("cgg.tension")
        .unwrap()
        .prepare(&values(&[(
            "explorers",
            List(vec![t(&[
                ("code", Str("2d".into())),
                ("name", Str("cy".into())),
            ])]),
        )]))
        .unwrap();
    assert_eq!(m.schema().fields[6].name, "cy.hours_paid");
    for (key, bad) in [
        (
            "explorers",
            List(vec![t(&[
                ("code", Str("2d".into())),
                ("wrench", Str("spite".into())),
            ])]),
        ),
        (
            "explorers",
            List(vec![t(&[
                ("code", Str("2d".into())),
                ("policy", List(vec![t(&[("choose", Str("nap".into()))])])),
            ])]),
        ),
        (
            "explorers",
            List(vec![
                Str("2d".into()),
                Str("2d".into()),
                t(&[("code", Str("2d".into())), ("name", Str("e1".into()))]),
            ]),
        ),
        ("edge.gives", Str("zed".into())),
        ("edge.holder", Str("zed".into())),
        ("pitfalls", List(vec![Int(15)])),
    ] {
        let err = find("cgg.tension")
            .unwrap()
            .check(&values(&[(key, bad)]))
            .err()
            .unwrap();
        assert_eq!(err.key, key);
        assert!(err.message.contains("allowed"), "{err}");
    }
}
