//! The skirmish's chain against the brute-force walk of every path of
//! rolls, and the chain's sampler against the skirmish's own, on scenes
//! small enough to walk: short ladders and a low round cap, so no path
//! is longer than a few dozen rolls.

use super::*;
use crate::systems::testing::{
    assert_chain_is_enumeration, assert_chain_samples_as, assert_roll_is_law,
};

/// Tom alone against the key (ladder 3, cap 6 rounds); Tom and a guard of
/// significance 1 (ladder 3, cap 5); Tom with a passenger who aids
/// (ladder 3, cap 5).
fn walkable() -> Vec<(&'static str, ParamMap)> {
    let pc = |name: &str, dice: i64| t(&[("name", s(name)), ("trait", Int(dice))]);
    let guard = t(&[
        ("name", s("guard")),
        ("significance", Int(1)),
        ("trait", Int(1)),
    ]);
    let rider = t(&[
        ("name", s("goblin")),
        ("significance", Int(1)),
        ("trait", Int(1)),
        ("lead", s("tom")),
    ]);
    vec![
        (
            "duel, ladder 3, cap 6",
            map(vec![
                ("pcs", List(vec![pc("tom", 2)])),
                ("ladder", Int(3)),
                ("round_cap", Int(6)),
            ]),
        ),
        (
            "a guard, ladder 3, cap 5",
            map(vec![
                ("pcs", List(vec![pc("tom", 2)])),
                ("minors", List(vec![guard])),
                ("ladder", Int(3)),
                ("round_cap", Int(5)),
            ]),
        ),
        (
            "a passenger, ladder 3, cap 5",
            map(vec![
                ("pcs", List(vec![pc("tom", 2)])),
                ("minors", List(vec![rider])),
                ("ladder", Int(3)),
                ("round_cap", Int(5)),
            ]),
        ),
    ]
}

#[test]
fn the_chain_is_the_walk_and_samples_as_the_skirmish() {
    for (what, values) in walkable() {
        let model = skirmish_from(&values).unwrap_or_else(|e| panic!("{what}: {e}"));
        let fields = state::FIELDS;
        assert_chain_is_enumeration(&model.rounds, fields, 64, what);
        assert_roll_is_law(&model.rounds, &model.rounds, 2_000, what);
        assert_chain_samples_as::<_, { state::FIELDS }>(
            &model.rounds,
            5_000,
            |rng, n, tally| {
                for _ in 0..n {
                    tally.record_outcome(&crate::model::play(&model.rounds, rng));
                }
            },
            what,
        );
    }
}

/// The sampler's loop, which changes its state in place
/// (`SkirmishRounds::play`), draws what the generic loop draws from the
/// same stream, scene for scene.
#[test]
fn the_loop_in_place_plays_as_the_generic_loop() {
    let pc = |name: &str| t(&[("name", s(name)), ("trait", Int(2))]);
    let guard = |name: &str| {
        t(&[
            ("name", s(name)),
            ("significance", Int(1)),
            ("trait", Int(1)),
        ])
    };
    let mut scenes = walkable();
    scenes.push((
        "two PCs, two guards, ladder 6",
        map(vec![
            ("pcs", List(vec![pc("tom"), pc("norris")])),
            ("minors", List(vec![guard("a"), guard("b")])),
            ("ladder", Int(6)),
        ]),
    ));
    for (what, values) in scenes {
        let model = skirmish_from(&values).unwrap_or_else(|e| panic!("{what}: {e}"));
        let mut a = crate::dice::DiceRng::from_u64(7);
        let mut b = crate::dice::DiceRng::from_u64(7);
        for k in 0..2_000 {
            let generic = crate::model::play(&model.rounds, &mut a);
            assert_eq!(model.rounds.play(&mut b), generic, "{what}: scene {k}");
        }
    }
}
