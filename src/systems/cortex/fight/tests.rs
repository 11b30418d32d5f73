//! Tests of `cortex.fight`: the stacking rule and the knock-out by hand,
//! through the one `after` both solver and sampler use; the exact chain
//! against Monte Carlo on 20 configs.

use super::*;
use crate::model::{After, Rounds};
use crate::systems::testing::{
    Sample, assert_agrees, assert_chain_is_enumeration, assert_chain_samples_as, assert_frequencies,
};
use crate::systems::{Define, ParamMap, ParamValue, Trial};

fn fight(values: &[(&str, ParamValue)]) -> Fight {
    let mut map = ParamMap::new();
    for (k, v) in values {
        map.set(k.to_string(), v.clone());
    }
    FightAction.trial(&map).unwrap()
}

fn s(x: &str) -> ParamValue {
    ParamValue::Str(x.into())
}

/// The actor loses an action and takes a complication rated `r` while
/// holding `held`.
fn actor_takes(f: &Fight, held: u32, r: u32) -> After<FightState, [i64; FIELDS]> {
    let state = FightState {
        actor: held,
        opposition: 0,
        actions: 2,
        aider: 0,
        rolled: true,
        phase: Phase::Rate {
            actor_won: false,
            takes: 1,
            total: 9,
            rating: None,
        },
    };
    FightRounds::sampler(f).after(1, &state, &FightRoll::Rating(r))
}

#[test]
fn complications_stack_by_the_text() {
    // "If your opponent already has a higher rating for that Complication,
    // it increases by one step."
    assert_eq!(stack(0, 6), Some(6));
    assert_eq!(stack(6, 6), Some(8));
    assert_eq!(stack(6, 4), Some(8));
    assert_eq!(stack(6, 10), Some(10), "a larger one replaces it");
    assert_eq!(stack(10, 10), Some(12));
    assert_eq!(stack(10, 12), Some(12));
    // "If the selected Complication is already at d12 … Knocked Out"
    assert_eq!(stack(12, 4), None);
    assert_eq!(stack(12, 12), None);
}

#[test]
fn a_d6_complication_steps_up_to_d8() {
    let f = fight(&[]);
    match actor_takes(&f, 6, 6) {
        After::Round(next) => {
            assert_eq!(next.actor, 8);
            assert_eq!(next.actions, 3);
            assert_eq!(
                next.phase,
                Phase::Turn {
                    opp: true,
                    stakes: -1,
                    setter: None
                }
            );
        }
        other => panic!("the fight goes on: {other:?}"),
    }
    // A d4 on a d6 steps it up as well; a d8 replaces it.
    assert!(matches!(actor_takes(&f, 6, 4), After::Round(n) if n.actor == 8));
    assert!(matches!(actor_takes(&f, 6, 8), After::Round(n) if n.actor == 8));
}

#[test]
fn a_complication_on_a_d12_knocks_out_with_trauma() {
    let f = fight(&[]);
    let After::End(o) = actor_takes(&f, 12, 4) else {
        panic!("knocked out")
    };
    assert_eq!(o[WINNER], 1, "the opposition wins");
    assert_eq!(o[ACTIONS], 3);
    assert_eq!(o[ACTOR_COMPLICATION], 12);
    assert_eq!(o[TRAUMA], 2, "trauma taken");
    assert_eq!(o[TRAUMA_RATING], 4, "rated by the same re-roll");
    assert_eq!(o[DEAD], 0);
    // Already at a d12 trauma: more trauma is death.
    let f = fight(&[("actor.trauma", s("d12"))]);
    let After::End(o) = actor_takes(&f, 12, 4) else {
        panic!("knocked out")
    };
    assert_eq!((o[TRAUMA], o[TRAUMA_RATING], o[DEAD]), (2, 12, 2));
    // A d8 trauma brought in steps up to d10 under a d6 one.
    let f = fight(&[("actor.trauma", s("d8"))]);
    let After::End(o) = actor_takes(&f, 12, 6) else {
        panic!("knocked out")
    };
    assert_eq!((o[TRAUMA_RATING], o[DEAD]), (10, 0));
}

#[test]
fn complication_dice_join_the_opponents_pool() {
    let f = fight(&[("actor.pool", s("d8 d6")), ("opposition.pool", s("d10"))]);
    assert_eq!(f.actor[index(0)], vec![8, 6]);
    assert_eq!(f.actor[index(4)], vec![8, 6, 4], "the opposition's d4");
    assert_eq!(f.opposition[index(12)], vec![10, 12], "the actor's d12");
    assert_eq!(f.reach[index(12)], 20);
}

#[test]
fn a_fight_over_in_one_action_is_a_first_win_by_five() {
    // d12 d12 d12 against a lone d4: the d4 makes at most 4, so the
    // actor never loses by 5 or more, and a fight over in one action is
    // exactly a first action won by 5 or more (trauma dealt at once).
    let f = fight(&[
        ("actor.pool", s("d12 d12 d12")),
        ("opposition.pool", s("d4")),
    ]);
    let m = f.exact().unwrap();
    for field in 0..FIELDS {
        let mass: f64 = m.field(field).values().sum();
        assert!((mass - 1.0).abs() < 1e-9, "field {field}: {mass}");
    }
    // P(actor wins the first action by 5+): knocked out at once.
    let first = {
        let a = RollLaw::of(&[12, 12, 12], RatingTie::Larger);
        let o = RollLaw::of(&[4], RatingTie::Larger);
        let mut p = 0.0;
        for (t, &pa) in a.total.iter().enumerate() {
            for (u, &po) in o.total.iter().enumerate() {
                if t >= u + 5 {
                    p += pa * po;
                }
            }
        }
        p
    };
    let one_action_trauma = m.field(ACTIONS)[&1];
    assert!(
        (one_action_trauma - first).abs() < 1e-12,
        "{one_action_trauma} vs {first}"
    );
}

fn give_in(rules: &[(&str, &str, i64)]) -> ParamValue {
    ParamValue::List(
        rules
            .iter()
            .map(|(price, key, n)| {
                ParamValue::Table(vec![
                    ("give_in".into(), s(price)),
                    (
                        "when".into(),
                        ParamValue::Table(vec![(key.to_string(), ParamValue::Int(*n))]),
                    ),
                ])
            })
            .collect(),
    )
}

#[test]
fn monte_carlo_agrees_with_exact_on_20_configs() {
    let pool = |k: &str, v: &str| (k.to_string(), s(v));
    let configs: Vec<Vec<(String, ParamValue)>> = vec![
        vec![],
        vec![
            pool("actor.pool", "d8 d8"),
            pool("opposition.pool", "d8 d8"),
        ],
        vec![
            pool("actor.pool", "d10 d8 d6"),
            pool("opposition.pool", "d6 d6"),
        ],
        vec![
            pool("actor.pool", "d6 d6"),
            pool("opposition.pool", "d10 d10 d8"),
        ],
        vec![pool("actor.pool", "d4"), pool("opposition.pool", "d4")],
        vec![
            pool("actor.pool", "d12 d4"),
            ("opposition.trouble".into(), ParamValue::Int(3)),
        ],
        vec![pool("kind", "contested")],
        vec![
            pool("kind", "contested"),
            pool("actor.pool", "d10 d10"),
            pool("opposition.pool", "d8 d6 d6"),
        ],
        vec![
            pool("kind", "contested"),
            pool("actor.pool", "d6 d4"),
            pool("opposition.pool", "d12"),
        ],
        vec![pool("actor.aid", "d8"), pool("opposition.pool", "d10 d8")],
        vec![
            pool("kind", "contested"),
            pool("actor.aid", "d6 d6"),
            pool("opposition.gang", "d6"),
        ],
        vec![
            pool("opposition.gang", "d8 d4"),
            pool("actor.pool", "d10 d8 d8"),
        ],
        vec![
            pool("actor.trauma", "d12"),
            pool("opposition.pool", "d10 d10"),
        ],
        vec![
            pool("kind", "contested"),
            pool("opposition.trauma", "d12"),
            pool("actor.trauma", "d10"),
        ],
        vec![
            pool("variant.tie", "nothing"),
            ("max_actions".into(), ParamValue::Int(6)),
        ],
        vec![
            pool("variant.tie", "nothing"),
            pool("kind", "contested"),
            pool("variant.rating_tie", "smaller"),
        ],
        vec![(
            "policy.give_in".into(),
            give_in(&[("complication", "out_of_reach_by_more_than", -2)]),
        )],
        vec![
            pool("opposition.pool", "d12 d10"),
            (
                "policy.give_in".into(),
                give_in(&[("plot-point", "stakes_at_least", 15)]),
            ),
        ],
        vec![
            pool("kind", "contested"),
            (
                "policy.give_in".into(),
                give_in(&[("complication", "complication_at_least", 10)]),
            ),
        ],
        vec![
            pool("kind", "contested"),
            pool("actor.aid", "d8"),
            (
                "policy.give_in".into(),
                give_in(&[("plot-point", "stakes_at_least", 12)]),
            ),
            ("max_actions".into(), ParamValue::Int(3)),
        ],
    ];
    assert_eq!(configs.len(), 20);
    let mut worst: f64 = 0.0;
    for (i, c) in configs.iter().enumerate() {
        let values: Vec<(&str, ParamValue)> =
            c.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        let what = format!("config {i}: {c:?}");
        let sample = Sample::seed(900 + i as u64);
        let z = assert_agrees(FightAction.model(fight(&values)).as_ref(), sample, &what);
        worst = worst.max(z);
    }
    eprintln!("cortex.fight: worst metric |z| over 20 configs = {worst:.2}");
}

/// The chain is the walk of every path of rolls, and its sampler is the
/// fight's own, on two short fights of one-die pools (a complication die
/// joins a pool, so at most two dice roll): three basic actions with an
/// aid, a give-in policy and a d12 trauma brought in (so death is
/// reached), and two contested actions, whose stakes only rise. Short,
/// because paths multiply by every total of every roll (each walk takes
/// under 10 ms).
#[test]
fn the_chain_is_the_enumeration() {
    let cases = [
        vec![
            ("actor.pool", s("d4")),
            ("actor.aid", s("d4")),
            ("opposition.pool", s("d6")),
            ("actor.trauma", s("d12")),
            ("max_actions", ParamValue::Int(3)),
            (
                "policy.give_in",
                give_in(&[("complication", "stakes_at_least", 6)]),
            ),
        ],
        vec![
            ("kind", s("contested")),
            ("actor.pool", s("d4")),
            ("opposition.pool", s("d6")),
            ("opposition.trauma", s("d8")),
            ("max_actions", ParamValue::Int(2)),
        ],
    ];
    for pairs in cases {
        let f = fight(&pairs);
        let what = format!("{pairs:?}");
        // The solver's rounds, as `Fight::exact` builds them.
        let solver = FightRounds::solver(&f);
        let (exact, lost) = assert_chain_is_enumeration(&solver, FIELDS, 30, &what);
        assert_eq!(lost, 0.0, "{what}: every fight ends at its cap");
        assert_eq!(Some(&exact), f.exact().as_ref(), "{what}");
        // The bespoke roll draws total and rating at once and carries the
        // rating in its state, where the law draws the rating after the
        // total: the two meet in what they make of a fight, so the chain
        // of the law is the mechanic's oracle there.
        let tally = assert_chain_samples_as::<_, FIELDS>(
            &solver,
            20_000,
            |rng, n, t| f.simulate(rng, n, t),
            &what,
        );
        assert_frequencies(&tally, &exact, &what);
    }
}
