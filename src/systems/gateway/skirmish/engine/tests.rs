//! Tests of the engine's own tables and short cuts, against the plain
//! reading they stand for.

use super::*;
use crate::systems::ParamMap;
use crate::systems::ParamValue::{Int, List, Str};
use crate::systems::testing::table as t;

/// [`SkirmishRounds::lined_to`] reads a row or a column of slots at
/// once: the same entities as testing each opponent's slot, on a
/// scene of six a side (every slot in use).
#[test]
fn lined_to_is_each_opponents_slot() {
    let named = |n: &str| t(&[("name", Str(n.into()))]);
    let minor = |n: &str| t(&[("name", Str(n.into())), ("significance", Int(1))]);
    let mut m = ParamMap::new();
    m.set(
        "pcs",
        List(["a", "b", "c", "d", "e", "f"].map(named).to_vec()),
    );
    m.set("key", named("k"));
    m.set(
        "minors",
        List(["m", "n", "o", "p", "q"].map(minor).to_vec()),
    );
    let r = super::super::skirmish_from(&m).unwrap().rounds;
    assert_eq!(r.n, N);
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..2000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let lines = x & ((1 << PAIRS) - 1);
        for a in 0..r.n {
            let each = (0..r.n)
                .filter(|&j| r.side[j] != r.side[a] && lines >> r.pair(a, j) & 1 == 1)
                .fold(0u16, |m, j| m | 1 << j);
            assert_eq!(r.lined_to(lines, a), each, "lines {lines:#x}, entity {a}");
        }
    }
}

/// The short cuts of [`Eng::aims`] (per-line effects on every line, a
/// Manoeuvre alone) aim as the general path does, for every rule of
/// every entity in every state a few hundred scenes pass through: a
/// henchmen scene with a shared "feed the leader" policy, and one with
/// a passenger (whose rules never take the short cut).
#[test]
fn short_cuts_aim_as_the_general_path() {
    use crate::systems::gateway::skirmish::tests::{map, rule, s};
    let feed = List(vec![
        rule(&["climax"], 0, &[]),
        rule(&["eliminate"], 0, &[]),
        rule(&["manoeuvre"], 0, &[]),
        rule(&["setup"], 0, &[("to", s("tom"))]),
        rule(&["edge", "setup"], 1, &[]),
        rule(&["edge"], 0, &[]),
    ]);
    let pc = |n: &str| t(&[("name", s(n)), ("trait", Int(2)), ("policy", feed.clone())]);
    let minor = |n: &str, lead: Option<&str>| {
        let mut pairs = vec![("name", s(n)), ("significance", Int(1)), ("trait", Int(1))];
        if let Some(l) = lead {
            pairs.push(("lead", s(l)));
        }
        t(&pairs)
    };
    let scenes = [
        map(vec![
            ("pcs", List(vec![pc("tom"), pc("ann"), pc("bob")])),
            ("minors", List(vec![minor("a", None), minor("b", None)])),
            ("ladder", Int(5)),
        ]),
        map(vec![
            ("pcs", List(vec![pc("tom"), pc("ann")])),
            (
                "minors",
                List(vec![minor("a", None), minor("goblin", Some("tom"))]),
            ),
            ("ladder", Int(4)),
        ]),
    ];
    let mut compared = 0;
    for values in scenes {
        let r = super::super::skirmish_from(&values).unwrap().rounds;
        let e = r.full();
        let mut rng = crate::dice::DiceRng::from_u64(11);
        for _ in 0..300 {
            let (mut s, mut round) = (r.start(), 1);
            loop {
                for i in 0..r.n {
                    if s.alive >> i & 1 == 0 {
                        continue;
                    }
                    let seen = e.sight(i, &s);
                    let v = e.view(i, &s, round);
                    let acts = r.policies[i].iter().map(|(_, a)| a);
                    for act in acts.chain(&r.fallback).chain(&r.rider_fallback) {
                        let general = Act {
                            shape: SHAPE_OTHER,
                            ..*act
                        };
                        let (short, long) = (
                            e.aims(i, &s, &v, seen, act),
                            e.aims(i, &s, &v, seen, &general),
                        );
                        assert_eq!(short, long, "entity {i}, {act:?}, {s:?}");
                        compared += usize::from(act.shape != SHAPE_OTHER);
                    }
                }
                let roll = e.roll_here(round, &s, &mut rng);
                match e.advance(round, &mut s, &roll) {
                    Step::Roll => {}
                    Step::Round => round += 1,
                    Step::End(_) => break,
                }
            }
        }
    }
    assert!(compared > 10_000, "{compared} short cuts compared");
}
