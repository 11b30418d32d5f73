//! Gateway Roleplaying System, Chapter 1 (Core Mechanics): the worked
//! examples of the challenge roll. (Chapter 3's example scenes are played
//! by the scene tests of the whole-chapter mechanic.)

use crate::fixed;
use oddsmith::systems::gateway::Challenge;
use oddsmith::systems::{Define, ParamMap, ParamValue};

/// Gateway, Chapter 1 "Core Mechanics", section "Essence": heaving a
/// boulder with one physical trait, Deft Fingers, which does not fit the
/// task. The text: "you can spend one point of physical essence to
/// increase your dice pool to 2 dice".
#[test]
fn gateway_ch1_essence_heaving_the_boulder_rolls_two_dice() {
    let boulder = |essence: i64| {
        Challenge
            .trial(&ParamMap::from_pairs(&[
                ("actor.trait", ParamValue::Str("unrelated".into())),
                ("actor.essence", ParamValue::Int(essence)),
            ]))
            .unwrap()
    };
    // Deft Fingers is unrelated to heaving: one die (Table 1.1) …
    assert_eq!(boulder(0).actor.dice, 1);
    // … and the essence point makes the pool 2 dice.
    let with_essence = boulder(1);
    assert_eq!(with_essence.actor.dice, 2);
    // Two dice are read by keeping the highest, not by adding: 3 and 7
    // make 7 (no background, specialisation or equipment here).
    assert_eq!(fixed::gateway_result(&with_essence.actor, &[3, 7]), 7);
    // A third face does not fit a pool of two dice.
    assert_eq!(with_essence.actor.result(&[3, 7, 8]), None);
}
