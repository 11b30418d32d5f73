//! Tension scenes played from tables and chains against the same scenes
//! rolling every die.

use super::drawn::Drawn;
use super::prepared::{Prepared, Rolls};
use super::{Standing, Tension, TensionMechanic};
use crate::dice::DiceRng;
use crate::sim::Tally;
use crate::systems::cgg::diligence::Diligence;
use crate::systems::testing::assert_same_law;
use crate::systems::{Define, ParamMap, ParamValue, Trial};

/// The dice rolled one by one: [`Action::sample`] and the diligence
/// roll, which share nothing with the tables but the settling.
struct Dice;

impl Rolls for Dice {
    fn act(
        &self,
        t: &Tension,
        rng: &mut DiceRng,
        i: usize,
        s: &Standing,
        helpers: u32,
        helped: bool,
    ) -> Drawn {
        Drawn::of(&t.action(i, s, helpers as usize, helped).sample(rng))
    }

    fn ready(&self, t: &Tension, rng: &mut DiceRng, i: usize) -> u32 {
        let d = Diligence {
            code: t.explorers[i].code,
            enhancing: None,
        };
        d.leverage(d.sample(rng)[0]).dice()
    }
}

use ParamValue::{Bool, Int, List, Str};

pub(super) fn table(pairs: &[(&str, ParamValue)]) -> ParamValue {
    ParamValue::Table(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

fn s(v: &str) -> ParamValue {
    Str(v.into())
}

pub(super) fn scene(pairs: &[(&str, ParamValue)]) -> Tension {
    let mut m = ParamMap::new();
    for (k, v) in pairs {
        m.set(k.to_string(), v.clone());
    }
    TensionMechanic.trial(&m).unwrap()
}

/// `n` scenes of `t` drawn from `rolls` through the general loop, with
/// explorer `clock.0`'s clock at `clock.1` when one is carried in (what
/// the scene returns then counted as two more fields).
fn run(t: &Tension, rolls: &impl Rolls, seed: u64, n: u64, clock: Option<(usize, u32)>) -> Tally {
    let prep = Prepared::new(t);
    count(t, seed, n, clock, |rng, out| {
        t.play_by(&prep, rolls, rng, clock, out)
    })
}

/// `n` scenes of the plain scene `t` played by its explorers' chains a
/// turn at a time.
fn chains(t: &Tension, seed: u64, n: u64, clock: Option<(usize, u32)>) -> Tally {
    let prep = Prepared::new(t);
    let plain = prep.plain.as_ref().expect("a plain scene");
    count(t, seed, n, clock, |rng, out| {
        plain.play(t, &prep.order, rng, clock, out)
    })
}

/// `n` scenes of the plain two-explorer scene `t` played a round at a
/// time, one after another.
fn rounds(t: &Tension, seed: u64, n: u64, clock: Option<(usize, u32)>) -> Tally {
    let prep = Prepared::new(t);
    let plain = prep.plain.as_ref().expect("a plain scene");
    let pair = prep
        .pair
        .as_ref()
        .expect("a scene played a round at a time");
    count(t, seed, n, clock, |rng, out| {
        pair.play(plain, t, rng, clock, out)
    })
}

fn count(
    t: &Tension,
    seed: u64,
    n: u64,
    clock: Option<(usize, u32)>,
    mut play: impl FnMut(&mut DiceRng, &mut Vec<i64>) -> (u32, bool),
) -> Tally {
    let fields = 6 + 2 * t.explorers.len() + 2 * clock.is_some() as usize;
    let mut tally = Tally::new(fields);
    let (mut rng, mut out) = (DiceRng::from_u64(seed), Vec::new());
    for _ in 0..n {
        let (hours, ran_out) = play(&mut rng, &mut out);
        if clock.is_some() {
            out.extend([hours as i64, ran_out as i64]);
        }
        tally.record_outcome(&out);
    }
    tally
}

/// A 2d and a 5d+1 explorer against a 6d opponent plus 2, the Edge to
/// the strongest, the Exec raising 2 a round, and `more` besides.
fn weak_and_strong(more: &[(&'static str, ParamValue)]) -> Vec<(&'static str, ParamValue)> {
    let mut pairs = vec![
        ("explorers", List(vec![s("2d"), s("5d+1")])),
        ("difficulty.opponent", s("6d")),
        ("difficulty.adjust", Int(2)),
        ("edge.first", s("strongest")),
        ("exec.raise", Int(2)),
    ];
    pairs.extend_from_slice(more);
    pairs
}

/// Three explorers on two pitfalls, difficulty 6: one stunting (moving a
/// die) with 3 hours on its clock, one helping, and a third at 4d with a
/// 2d risk code and `third` besides.
fn stunts_and_help(third: (&'static str, ParamValue)) -> Vec<(&'static str, ParamValue)> {
    vec![
        (
            "explorers",
            List(vec![
                table(&[
                    ("code", s("3d")),
                    ("stunt", Bool(true)),
                    ("moved", Int(1)),
                    ("hours", Int(3)),
                ]),
                table(&[
                    ("code", s("2d+2")),
                    ("helps", Bool(true)),
                    ("wrench", s("deny")),
                ]),
                table(&[("code", s("4d")), ("risk_code", s("2d")), third]),
            ]),
        ),
        ("difficulty.base", Int(6)),
        ("variant.failure", s("half")),
        ("pitfalls", List(vec![Int(8), Int(11)])),
        ("edge.gives", s("weakest")),
    ]
}

/// A 4d explorer acting first, helped by a 2d one, against difficulty 4
/// from a track at 3: the first explorer's success often ends the scene
/// before the second's turn.
fn strong_first() -> Vec<(&'static str, ParamValue)> {
    vec![
        (
            "explorers",
            List(vec![
                table(&[("code", s("2d")), ("helps", Bool(true))]),
                table(&[
                    ("code", s("4d")),
                    ("stunt", Bool(true)),
                    ("moved", Int(1)),
                    ("hours", Int(2)),
                ]),
            ]),
        ),
        ("edge.first", s("strongest")),
        ("edge.gives", s("weakest")),
        ("difficulty.base", Int(4)),
        ("max_rounds", Int(9)),
        ("exec.raise", Int(1)),
        ("start", Int(3)),
    ]
}

/// The shipped scenario's scene (scenarios/cgg-tension.toml) at
/// difficulty 5.
fn shipped(gives: &str, start: i64, wrench: &str) -> Vec<(&'static str, ParamValue)> {
    vec![
        (
            "explorers",
            List(vec![
                table(&[("name", s("ann")), ("code", s("4d"))]),
                table(&[("name", s("bob")), ("code", s("3d")), ("helps", Bool(true))]),
                table(&[
                    ("name", s("cy")),
                    ("code", s("2d")),
                    (
                        "policy",
                        List(vec![table(&[
                            ("choose", s("idle")),
                            ("when", table(&[("hours_at_most", Int(2))])),
                        ])]),
                    ),
                ]),
            ]),
        ),
        ("edge.holder", s("ann")),
        ("edge.first", s("self")),
        ("edge.gives", s(gives)),
        ("start", Int(start)),
        ("difficulty.base", Int(5)),
        ("policy.wrench", s(wrench)),
    ]
}

/// Scenes played from the tables agree with the same scenes rolling
/// every die, field by field: help, stunts, moved dice, clocks that
/// run out, a policy that idles and gets ready, several pitfalls, and
/// both readings of "particularly effective", and the shipped
/// scenario's scene. The first at 10^6 trials a side.
#[test]
fn tables_play_the_scenes_rolling_every_die_plays() {
    let when =
        |pairs: &[(&str, i64)]| table(&pairs.iter().map(|&(k, v)| (k, Int(v))).collect::<Vec<_>>());
    let scenes = [
        (stunts_and_help(("helps", Bool(true))), 1_000_000),
        (
            vec![
                (
                    "explorers",
                    List(vec![
                        table(&[
                            ("code", s("3d")),
                            ("hours", Int(2)),
                            (
                                "policy",
                                List(vec![
                                    table(&[
                                        ("choose", s("idle")),
                                        ("when", when(&[("hours_at_most", 1)])),
                                    ]),
                                    table(&[
                                        ("choose", s("ready-cue")),
                                        (
                                            "when",
                                            when(&[("leverage_at_most", 0), ("track_at_most", 9)]),
                                        ),
                                    ]),
                                ]),
                            ),
                        ]),
                        table(&[
                            ("code", s("3d")),
                            ("helps", Bool(true)),
                            ("stunt", Bool(true)),
                            ("hours", Int(1)),
                        ]),
                    ]),
                ),
                ("variant.effective", s("edge")),
                ("policy.hammer", s("conditions")),
                ("pitfalls.address", s("lowest")),
                ("pitfalls", List(vec![Int(5), Int(9)])),
            ],
            300_000,
        ),
        (weak_and_strong(&[]), 300_000),
        (shipped("none", 4, "greedy"), 300_000),
        (shipped("weakest", 7, "deny"), 300_000),
    ];
    for (k, (pairs, n)) in scenes.into_iter().enumerate() {
        let t = scene(&pairs);
        let prep = Prepared::new(&t);
        let tables = run(&t, &prep, 21 + k as u64, n, None);
        let dice = run(&t, &Dice, 42 + k as u64, n, None);
        let z = assert_same_law(&tables, &dice, &format!("scene {k}"));
        eprintln!("scene {k}: worst |z| = {z:.2} over {n} trials a side");
    }
}

/// Plain scenes played by their explorers' chains agree with the same
/// scenes rolling every die through the general loop: helpers (one and
/// two on an action, a helper acting after it helped), the Edge's bonus
/// growing past the cut, stunts and moved dice, clocks that run out, a
/// session's clock carried in (and what the scene hands back), several
/// pitfalls addressed either way, both readings of "particularly
/// effective", a fixed raise and scenes cut off at `max_rounds`. Scenes
/// of two explorers are played a round at a time too, and must agree
/// as well.
#[test]
fn chains_play_the_plain_scenes_rolling_every_die_plays() {
    let scenes = [
        (vec![], None, 1_000_000),
        (stunts_and_help(("roles", Int(2))), Some((1, 2)), 300_000),
        (
            weak_and_strong(&[
                ("variant.effective", s("edge")),
                ("pitfalls.address", s("lowest")),
                ("pitfalls", List(vec![Int(5), Int(9), Int(3)])),
            ]),
            Some((0, 0)),
            300_000,
        ),
        (
            vec![
                (
                    "explorers",
                    List(vec![
                        table(&[("code", s("1d")), ("hours", Int(1)), ("stunt", Bool(true))]),
                        table(&[("code", s("3d")), ("helps", Bool(true))]),
                        table(&[("code", s("2d")), ("helps", Bool(true))]),
                    ]),
                ),
                ("stunt.paid", Bool(true)),
                ("policy.hammer", s("conditions")),
                ("max_rounds", Int(4)),
                ("exec.raise", Int(1)),
                ("start", Int(12)),
            ],
            None,
            300_000,
        ),
        (strong_first(), Some((0, 2)), 1_000_000),
    ];
    for (k, (pairs, clock, n)) in scenes.into_iter().enumerate() {
        let t = scene(&pairs);
        let dice = run(&t, &Dice, 81 + k as u64, n, clock);
        let chained = chains(&t, 61 + k as u64, n, clock);
        let z = assert_same_law(&chained, &dice, &format!("plain scene {k}"));
        eprintln!("plain scene {k}: worst |z| = {z:.2} over {n} trials a side");
        if t.explorers.len() == 2 {
            let rounds = rounds(&t, 101 + k as u64, n, clock);
            let z = assert_same_law(&rounds, &dice, &format!("plain scene {k} by rounds"));
            eprintln!("plain scene {k} by rounds: worst |z| = {z:.2}");
        }
    }
}

/// Plain scenes of two explorers counted by [`Trial::simulate`], several
/// in play at once, agree with the same scenes rolling every die: one
/// pitfall and several, and a first explorer who often ends the scene
/// on its own turn. Every scene begun is counted, once.
#[test]
fn scenes_in_play_at_once_play_as_rolling_every_die_plays() {
    let scenes = [
        (vec![], 1_000_000),
        (
            weak_and_strong(&[("pitfalls", List(vec![Int(5), Int(9), Int(3)]))]),
            300_000,
        ),
        (strong_first(), 1_000_000),
    ];
    for (k, (pairs, n)) in scenes.into_iter().enumerate() {
        let t = scene(&pairs);
        let mut counted = Tally::new(6 + 2 * t.explorers.len());
        t.simulate(&mut DiceRng::from_u64(121 + k as u64), n, &mut counted);
        let dice = run(&t, &Dice, 141 + k as u64, n, None);
        let z = assert_same_law(&counted, &dice, &format!("scenes in play at once {k}"));
        eprintln!("scenes in play at once {k}: worst |z| = {z:.2} over {n} trials a side");
    }
    let t = scene(&[]);
    for n in [0, 1, 3, 4, 5, 1001] {
        let mut counted = Tally::new(10);
        t.simulate(&mut DiceRng::from_u64(7), n, &mut counted);
        assert_eq!(counted.trials(), n, "scenes counted of {n}");
    }
}
