//! Tests of the scene's policy language: parsing, printing and meaning
//! of each rule and `when`, and the decider against the rules.

use super::*;
use crate::systems::ParamValue::{self, *};

use crate::systems::testing::table as t;

fn s(x: &str) -> ParamValue {
    Str(x.into())
}

#[test]
fn the_issue_example_parses_and_prints() {
    let p = parse_policy(&List(vec![
        t(&[("effect", s("climax")), ("when", s("can-climax"))]),
        t(&[("effect", s("setup")), ("when", s("no-free-raise"))]),
        t(&[
            ("effect", List(vec![s("edge"), s("accelerate")])),
            ("raises", Int(1)),
        ]),
        t(&[
            ("effect", s("press")),
            ("when", t(&[("edge_at_most", Int(-2))])),
        ]),
    ]))
    .unwrap();
    assert_eq!(
        p.label(),
        "climax if can-climax; setup if no-free-raise; edge+accelerate r1; press if edge≤-2"
    );
    assert_eq!(
        toml_form(&p),
        "[{ effect = \"climax\", when = \"can-climax\" }, { effect = \"setup\", when = \"no-free-raise\" }, { effect = [\"edge\", \"accelerate\"], raises = 1 }, { effect = \"press\", when = { edge_at_most = -2 } }]"
    );
}

#[test]
fn a_table_of_bounds_must_all_hold() {
    let p = parse_policy(&List(vec![
        t(&[
            ("effect", s("edge")),
            ("raises", Int(1)),
            (
                "when",
                t(&[
                    ("ladder_at_least", Int(2)),
                    ("edge_at_most", Int(-1)),
                    ("holds_initiative", Bool(false)),
                    ("opponent_succeeded", Bool(true)),
                    ("round_at_most", Int(11)),
                ]),
            ),
        ]),
        // A one-key table of the old kind keeps its meaning and form.
        t(&[
            ("effect", s("press")),
            ("when", t(&[("edge_at_most", Int(-2))])),
        ]),
    ]))
    .unwrap();
    assert_eq!(p.rules[1].when, Some(When::EdgeAtMost(-2)));
    assert_eq!(
        p.label(),
        "edge r1 if edge≤-1 and ladder≥2 and round≤11 and not holds-initiative and opponent-succeeded; press if edge≤-2"
    );
    let form = toml_form(&p);
    assert_eq!(
        form,
        "[{ effect = \"edge\", raises = 1, when = { edge_at_most = -1, ladder_at_least = 2, round_at_most = 11, holds_initiative = false, opponent_succeeded = true } }, { effect = \"press\", when = { edge_at_most = -2 } }]"
    );
    let mut v = View {
        edge: -1,
        ladder: 2,
        round: 11,
        holds_initiative: false,
        free: 0,
        can_climax: false,
        can_anticlimax: false,
        can_block: false,
        opponent_succeeded: true,
    };
    let r1 = Action::new(&[Effect::Edge], 1);
    assert_eq!(v.choose(&p), r1);
    for change in 0..5 {
        let mut w = v;
        match change {
            0 => w.edge = 0,
            1 => w.ladder = 1,
            2 => w.round = 12,
            3 => w.holds_initiative = true,
            _ => w.opponent_succeeded = false,
        }
        assert_eq!(w.choose(&p), Action::EDGE, "{change}");
    }
    v.edge = -2;
    assert_eq!(v.choose(&p), r1, "the first rule that holds");
    let e = parse_policy(&List(vec![t(&[
        ("effect", s("edge")),
        ("when", t(&[("ladder_at_least", Int(1)), ("lader", Int(1))])),
    ])]))
    .unwrap_err();
    assert!(
        e.contains("unknown key `lader`") && e.contains("opponent_succeeded"),
        "{e}"
    );
    let e = parse_policy(&List(vec![t(&[
        ("effect", s("edge")),
        (
            "when",
            t(&[("can_climax", Int(1)), ("ladder_at_least", Int(1))]),
        ),
    ])]))
    .unwrap_err();
    assert!(e.contains("can_climax must be true or false"), "{e}");
}

#[test]
fn bad_rules_say_what_is_allowed() {
    let one = |rule: ParamValue| parse_policy(&List(vec![rule])).unwrap_err();
    let e = one(t(&[("effect", s("edg"))]));
    assert!(
        e.starts_with("rule 1: `effect` = \"edg\" is not an effect; allowed: \"edge\""),
        "{e}"
    );
    let e = one(t(&[("effect", s("edge")), ("whn", s("always"))]));
    assert_eq!(
        e,
        "rule 1: unknown key `whn`; allowed: effect, raises, when"
    );
    let e = one(t(&[("effect", List(vec![s("press"), s("accelerate")]))]));
    assert!(e.contains("cancel each other"), "{e}");
    let e = one(t(&[("effect", s("edge")), ("when", s("sometimes"))]));
    assert!(
        e.contains("\"can-climax\"") && e.contains("edge_at_least"),
        "{e}"
    );
    let e = one(t(&[
        ("effect", s("edge")),
        ("when", t(&[("edge_above", Int(1))])),
    ]));
    assert!(e.contains("unknown key `edge_above`"), "{e}");
    let e = one(t(&[("effect", s("edge")), ("raises", Int(11))]));
    assert!(e.contains("0..=10"), "{e}");
    let e = one(t(&[("effect", s("edge")), ("raises", Int(-1))]));
    assert!(e.starts_with("rule 1: invalid value"), "{e}");
    let e = one(t(&[("raises", Int(1))]));
    assert!(e.contains("missing field `effect`"), "{e}");
    let e = one(t(&[("effect", List(vec![s("edge"), s("edge")]))]));
    assert!(e.contains("twice"), "{e}");
}

#[test]
fn views_decide() {
    let p = shorthand_policy(true, true, 2);
    let mut v = View {
        edge: 3,
        ladder: 3,
        round: 1,
        holds_initiative: true,
        free: 0,
        can_climax: true,
        can_anticlimax: false,
        can_block: true,
        opponent_succeeded: false,
    };
    assert_eq!(v.choose(&p), Action::new(&[Effect::Climax], 0));
    v.can_climax = false;
    assert_eq!(v.choose(&p), Action::new(&[Effect::Edge], 2));
    v.can_anticlimax = true;
    assert_eq!(v.choose(&p), Action::new(&[Effect::Anticlimax], 0));
    let none = shorthand_policy(false, false, 0);
    assert_eq!(v.choose(&none), Action::EDGE);
    for (w, yes) in [
        (When::EdgeAtLeast(3), true),
        (When::EdgeAtLeast(4), false),
        (When::EdgeAtMost(3), true),
        (When::LadderAtMost(2), false),
        (When::RoundAtLeast(1), true),
        (When::HasFreeRaise, false),
        (When::NoFreeRaise, true),
        (When::HoldsInitiative, true),
    ] {
        assert_eq!(v.holds(&w), yes, "{w}");
    }
}
