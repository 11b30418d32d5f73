//! Cortex, "Scenes and Actions": the text's one worked example, a gang of
//! thugs ganging up.

use crate::fixed;
use oddsmith::systems::cortex::basic::BasicAction;
use oddsmith::systems::{Define, ParamMap, ParamValue};

/// Cortex, "Scenes and Actions", section "Ganging Up": "a gang of six
/// Thugs d6, which amounts to a roll of 6d6 (first thug is d6, each
/// additional thug adds another d6, so it's 6d6)"; still "it's still two"
/// dice added together to set the stakes.
#[test]
fn cortex_ganging_up_six_thugs_roll_6d6_and_add_two() {
    let s = |v: &str| ParamValue::Str(v.into());
    let basic = BasicAction
        .trial(&ParamMap::from_pairs(&[
            ("actor.pool", s("d8 d6")),
            // The first thug's d6, and one d6 for each of the five others.
            ("opposition.pool", s("d6")),
            ("opposition.gang", s("5d6")),
        ]))
        .unwrap();
    let thugs = basic.sides.opposition_with(basic.sides.gang.len());
    assert_eq!(thugs.dice(), &[6; 6], "6d6");
    // Six dice rolled, two added: 2, 6, 1, 4, 5, 3 set stakes of 6 + 5 = 11
    // (the 1 is set aside as for any roll).
    let stakes = fixed::cortex(thugs.dice(), &[2, 6, 1, 4, 5, 3]);
    assert_eq!(stakes.total, 11);
    assert_eq!(stakes.ones, 1);
    // The actor's d8 and d6 showing 7 and 5 (12) beat the stakes by 1.
    let actor = fixed::cortex(basic.sides.actor.dice(), &[7, 5]);
    assert_eq!(actor.total, 12);
    let r = basic.resolve(actor.total, stakes.total);
    assert!(r.win);
    assert_eq!(r.margin, 1);
}
