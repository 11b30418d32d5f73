//! `policy.wrench` rules as read: the shorthands are the bounds they
//! stand for, `spent` and `unspent` tell boards apart by the uses spent,
//! a written condition reads back as itself, and each mistake is named.

use std::collections::BTreeMap;

use super::*;
use crate::systems::cgg::action::venture::{ExecDice, Rolled};

/// `policy.wrench` as a scenario writes it.
fn read(text: &str) -> Result<WrenchPolicy, String> {
    let t: BTreeMap<String, ParamValue> =
        toml_edit::de::from_str(&format!("v = {text}")).map_err(|e| e.to_string())?;
    parse(&t["v"])
}

fn rules(text: &str) -> Rules {
    match read(text) {
        Ok(WrenchPolicy::Rules(r)) => r,
        other => panic!("{text}: {other:?}"),
    }
}

/// The first rule's condition.
fn when(text: &str) -> When {
    rules(&format!("[{{ use = \"close\", when = {text} }}]"))
        .written()
        .rules[0]
        .when
        .expect("a condition")
}

/// Draws that never matter here (no use below rolls a die).
struct NoDraw;

impl Draw for NoDraw {
    fn refails(&mut self, _: u32, _: u32) -> u32 {
        unreachable!("no re-roll")
    }
    fn set_aside(&mut self, _: &ExecDice) -> usize {
        unreachable!("no die set aside")
    }
    fn d6(&mut self) -> u32 {
        unreachable!("no risk die")
    }
    fn still_fails(&mut self, _: u32, _: u32) -> bool {
        unreachable!("no re-roll")
    }
}

#[test]
fn a_shorthand_is_both_bounds() {
    for (short, long) in [
        (
            "failures = 1",
            "failures_at_least = 1, failures_at_most = 1",
        ),
        (
            "risk_short = 0",
            "risk_short_at_least = 0, risk_short_at_most = 0",
        ),
        ("venture = 2", "venture_at_least = 2, venture_at_most = 2"),
        ("dice = 3", "dice_at_least = 3, dice_at_most = 3"),
    ] {
        assert_eq!(
            when(&format!("{{ {short} }}")),
            when(&format!("{{ {long} }}"))
        );
        // The same list is one list, whichever way it is written.
        let list = |w: &str| rules(&format!("[{{ use = \"gotta\", when = {{ {w} }} }}]"));
        assert_eq!(list(short), list(long));
    }
    let w = when("{ failures = 1, venture_at_least = 2 }");
    assert!(w.holds(&[1, 0, 2, 1], 0) && w.holds(&[1, 0, 5, 1], 0));
    assert!(!w.holds(&[0, 0, 2, 1], 0) && !w.holds(&[2, 0, 2, 1], 0));
    assert!(!w.holds(&[1, 0, 1, 1], 0));
}

#[test]
fn spent_and_unspent_ask_every_use_named() {
    let gotta = 1 << 1;
    let good = 1 << 2;
    let w = when("{ spent = [\"gotta\", \"good\"], unspent = \"serious\" }");
    assert_eq!((w.spent, w.unspent), (gotta | good, 1 << 3));
    let s = [0, 0, 1, 1];
    assert!(w.holds(&s, gotta | good) && w.holds(&s, gotta | good | 1));
    assert!(!w.holds(&s, gotta), "good is not spent");
    assert!(!w.holds(&s, gotta | good | 1 << 3), "serious is spent");
    // With bounds, all must hold.
    let w = when("{ failures = 1, spent = [\"gotta\"] }");
    assert!(w.holds(&[1, 0, 1, 1], gotta));
    assert!(!w.holds(&[0, 0, 1, 1], gotta) && !w.holds(&[1, 0, 1, 1], 0));
    assert_eq!(w.to_string(), "failures=1 & spent=gotta");
}

#[test]
fn the_rules_tell_gotta_spent_from_gotta_to_come() {
    // One failing die (face 1) and four venture: "Gotta make it!"
    // first, then "get serious" only once it is spent and "That was
    // close!" is not; with "close" spent too the rules hold.
    let a = Action {
        success_dice: 2,
        risk_code: Some("3d".parse().unwrap()),
        base: 4,
        adjust: 0,
        impaired: false,
        risk_extra: 0,
        hours_before: 0,
        rules: Default::default(),
    };
    let r = rules(
        "[{ use = \"serious\", when = { spent = [\"gotta\"], unspent = [\"close\"] } }, \
         { use = \"hold\", when = { spent = \"gotta\" } }, { use = \"gotta\" }]",
    );
    let mut b = a.board(&Rolled {
        dice: ExecDice([1, 0, 0, 0, 0]),
        venture: 4,
        total: 0,
    });
    assert_eq!(r.choose(&a, &b), Spend::Wrench(Use::Gotta));
    a.wrench_use(&mut b, Use::Gotta, &mut NoDraw);
    assert_eq!((b.failures(), spent(&b)), (0, 1 << 1));
    assert_eq!(r.choose(&a, &b), Spend::Wrench(Use::Serious));
    a.wrench_use(&mut b, Use::Close, &mut NoDraw);
    assert_eq!(r.choose(&a, &b), Spend::Hold, "close is spent");
}

#[test]
fn a_written_condition_reads_back_as_itself() {
    let w = When {
        spent: 1 << 1,
        unspent: 1 | 1 << 4,
        ..When::of([
            (Some(1), Some(1)),
            (None, Some(5)),
            (Some(2), None),
            (Some(0), Some(2)),
        ])
    };
    let v = rule(Spend::Wrench(Use::Serious), Some(&w));
    let keys: Vec<String> = match &v {
        ParamValue::Table(t) => match &t[1].1 {
            ParamValue::Table(w) => w.iter().map(|(k, _)| k.clone()).collect(),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    };
    assert_eq!(
        keys,
        [
            "failures",
            "risk_short_at_most",
            "venture_at_least",
            "dice_at_least",
            "dice_at_most",
            "spent",
            "unspent"
        ]
    );
    let WrenchPolicy::Rules(r) = parse(&ParamValue::List(vec![v])).unwrap() else {
        panic!("rules")
    };
    assert_eq!(r.written().rules[0].when, Some(w));
}

#[test]
fn mistakes_name_the_key_and_what_is_allowed() {
    let err = |w: &str| {
        read(&format!(
            "[{{ use = \"hold\" }}, {{ use = \"serious\", when = {w} }}]"
        ))
        .unwrap_err()
    };
    let cases = [
        (
            "{ failures = 1, failures_at_most = 2 }",
            "rule 2: `when`: `failures` = 1 and `failures_at_most` both bound the failures; allowed: `failures` alone, or `failures_at_least` / `failures_at_most`",
        ),
        (
            "{ venture = -1 }",
            "rule 2: `when`: `venture` = -1 is out of range; allowed: 0 or more",
        ),
        (
            "{ spent = [\"gotta\", \"hammer\"] }",
            "rule 2: `when`: `spent`: \"hammer\" is not a wrench use; allowed: close, gotta, good, serious, not-as-bad",
        ),
        (
            "{ unspent = [] }",
            "rule 2: `when`: `unspent` = [] is not a list of uses; allowed: a list of one or more of close, gotta, good, serious, not-as-bad",
        ),
        (
            "{ spent = 2 }",
            "rule 2: `when`: `spent` = 2 is not a list of uses",
        ),
        (
            "{ spent = [\"good\"], unspent = [\"close\", \"good\"] }",
            "rule 2: `when`: \"good\" is in both `spent` and `unspent`, so the rule never holds",
        ),
        (
            "{ spent = [\"serious\"] }",
            "rule 2: `when`: `spent` names \"serious\", the rule's own use",
        ),
        ("{ open = [\"gotta\"] }", "unknown field `open`"),
    ];
    for (w, expect) in cases {
        let e = err(w);
        assert!(e.starts_with(expect) || e.contains(expect), "{w}: {e}");
    }
    // An unknown key lists every key, the new ones too.
    let e = err("{ open = [\"gotta\"] }");
    assert!(
        e.contains("failures, risk_short, venture, dice (= n")
            && e.contains("spent, unspent (lists of uses"),
        "{e}"
    );
}
