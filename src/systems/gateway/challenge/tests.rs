//! `gateway.challenge`: exact counts against enumeration and hand-worked
//! fractions, the keys' rules, and Monte Carlo against exact.

use super::*;
use crate::systems::testing::{Sample, assert_agrees};
use crate::systems::{ParamMap, ParamValue};

fn pools(ad: u32, ab: i64, od: u32, ob: i64) -> (Pool, Pool) {
    (
        Pool {
            dice: ad,
            bonus: ab,
        },
        Pool {
            dice: od,
            bonus: ob,
        },
    )
}

#[test]
fn issue_example_3d8_plus_2_vs_2d8_plus_4() {
    let (a, o) = pools(3, 2, 2, 4);
    assert_eq!(Contest::new(a, o, 0, 0).success_fraction(), (11431, 32768));
}

#[test]
fn one_die_each_ties_go_to_the_actor() {
    // 1d8 vs 1d8: P(a ≥ o) = 36/64 by hand (8 ties + 28 wins).
    let (a, o) = pools(1, 0, 1, 0);
    assert_eq!(Contest::new(a, o, 0, 0).success_fraction(), (36, 64));
    // One raise: need a ≥ o + 2: 6+5+…+1 = 21 of 64.
    assert_eq!(Contest::new(a, o, 1, 0).success_fraction(), (21, 64));
}

/// Every roll of every pool, counted one by one.
fn brute_margins(c: &Contest) -> Vec<(i64, u128)> {
    let n = c.actor.dice + c.opposition.dice;
    let mut counts = std::collections::BTreeMap::new();
    for code in 0..8u64.pow(n) {
        let face = |i: u32| ((code >> (3 * i)) & 7) as i64 + 1;
        let a = (0..c.actor.dice).map(face).max().unwrap() + c.actor.bonus;
        let o = (c.actor.dice..n).map(face).max().unwrap() + c.opposition.bonus;
        *counts.entry(a - o).or_insert(0u128) += 1;
    }
    counts.into_iter().collect()
}

#[test]
fn exact_equals_enumeration_up_to_five_dice() {
    for ad in 1..=4u32 {
        for od in 1..=(5 - ad) {
            for (ab, ob, raises) in [(0, 0, 0), (2, 4, 0), (3, 0, 2), (-1, 6, 1), (6, 2, 3)] {
                let (a, o) = pools(ad, ab, od, ob);
                let c = Contest::new(a, o, raises, 1);
                let exact: Vec<_> = c.margin_counts().iter().collect();
                assert_eq!(exact, brute_margins(&c), "{c:?}");
            }
        }
    }
}

fn values(pairs: &[(&str, ParamValue)]) -> ParamMap {
    ParamMap::from_pairs(pairs)
}

#[test]
fn defaults_are_full_trait_against_variable_entity() {
    let c = Challenge.trial(&ParamMap::new()).unwrap();
    assert_eq!(c.actor, Pool { dice: 3, bonus: 0 });
    assert_eq!(c.opposition, Pool { dice: 2, bonus: 0 });
    assert_eq!(c.banked, 0);
}

#[test]
fn rules_for_bonuses_and_raises() {
    use ParamValue::*;
    let c = Challenge
        .trial(&values(&[
            ("actor.trait", Str("partial".into())),
            ("actor.essence", Int(1)),
            ("actor.background", Int(3)),
            ("actor.background_relevance", Str("partial".into())),
            ("actor.specialisation", Bool(true)),
            ("actor.equipment", Int(5)),
            ("actor.edge", Int(-1)),
            ("opposition.variability", Str("tough".into())),
            ("opposition.challenge", Str("tricky".into())),
            ("opposition.edge", Int(1)),
            ("raises", Int(2)),
            ("free_raises", Int(1)),
        ]))
        .unwrap();
    // 2 + 1 dice; 3 + 2 + min(5, 2) − 1 = 6
    assert_eq!(c.actor, Pool { dice: 3, bonus: 6 });
    // 4 dice; 4 + 1 edge + 2×(2 chosen + 1 forced) = 11
    assert_eq!(c.opposition, Pool { dice: 4, bonus: 11 });
    assert_eq!(c.banked, 3);
}

#[test]
fn unusable_background_gives_nothing() {
    use ParamValue::*;
    let c = Challenge
        .trial(&values(&[
            ("actor.background", Int(4)),
            ("actor.background_relevance", Str("none".into())),
            ("actor.specialisation", Bool(true)),
        ]))
        .unwrap();
    assert_eq!(c.actor.bonus, 0);
    assert_eq!(c.opposition.bonus, 0);
}

#[test]
fn character_opposition() {
    use ParamValue::*;
    let c = Challenge
        .trial(&values(&[
            ("opposition.trait", Int(2)),
            ("opposition.background", Int(2)),
            ("opposition.edge", Int(1)),
        ]))
        .unwrap();
    assert_eq!(c.opposition, Pool { dice: 2, bonus: 3 });
    let err = Challenge
        .trial(&values(&[
            ("opposition.trait", Int(2)),
            ("opposition.challenge", Int(2)),
        ]))
        .unwrap_err();
    assert_eq!(err.key, "opposition.challenge");
}

#[test]
fn a_character_key_set_to_its_default_still_makes_a_character() {
    use ParamValue::*;
    let err = Challenge
        .trial(&values(&[
            ("opposition.equipment", Int(0)),
            ("opposition.variability", Int(3)),
        ]))
        .unwrap_err();
    assert_eq!(err.key, "opposition.variability");
    assert_eq!(
        err.message,
        "the opposition is either an entity (variability, challenge) or a character (`opposition.equipment` is set), not both"
    );
    // Alone it makes a character of the default (full) trait: 3 dice, not
    // the entity's default 2.
    let c = Challenge
        .trial(&values(&[("opposition.equipment", Int(0))]))
        .unwrap();
    assert_eq!(c.opposition, Pool { dice: 3, bonus: 0 });
}

#[test]
fn monte_carlo_agrees_with_exact_on_both_sampling_paths() {
    // Up to four dice a side takes the packed fast path; nine dice take
    // the general one. Every metric and every margin, 10^6 trials each.
    for (ad, ab, od, ob, r) in [
        (3, 0, 2, 0, 0),
        (1, 2, 4, 0, 2),
        (9, -3, 4, 2, 1),
        (2, 5, 9, 0, 3),
    ] {
        let (a, o) = pools(ad, ab, od, ob);
        let m = Challenge.model(Contest::new(a, o, r, 1));
        let what = format!("{ad}d8+{ab} vs {od}d8+{ob}, {r} raises");
        assert_agrees(m.as_ref(), Sample::seed(42), &what);
    }
}

#[test]
fn exact_marginals_sum_to_one() {
    let c = Challenge.trial(&ParamMap::new()).unwrap();
    let m = c.exact();
    for f in 0..3 {
        let total: f64 = m.field(f).values().sum();
        assert!((total - 1.0).abs() < 1e-12);
    }
}
