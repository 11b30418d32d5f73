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
