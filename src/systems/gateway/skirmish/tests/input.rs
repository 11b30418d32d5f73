//! Bad input is named: key, value and what is allowed.

use super::*;
use crate::systems::gateway::skirmish::cast::{GM, PCS};

#[test]
fn the_mechanic_is_registered_and_bad_input_is_named() {
    let m = crate::systems::find("gateway.skirmish").unwrap();
    assert!(m.has_exact());
    let e = skirmish_from(&map(vec![
        ("pcs", List(vec![t(&[("name", s("tom"))])])),
        (
            "lines",
            List(vec![t(&[("between", List(vec![s("tom"), s("nobody")]))])]),
        ),
    ]))
    .err()
    .unwrap();
    assert_eq!(e.key, "lines");
    assert!(
        e.message.contains("\"nobody\" is not an entity") && e.message.contains("tom, key"),
        "{}",
        e.message
    );
    let e = skirmish_from(&map(vec![
        ("pcs", List(vec![t(&[("name", s("tom"))])])),
        (
            "minors",
            List(vec![t(&[("name", s("g")), ("count", Int(6))])]),
        ),
    ]))
    .err()
    .unwrap();
    assert!(e.message.contains("at most 6"), "{}", e.message);
    let e = skirmish_from(&map(vec![(
        "pcs",
        List(vec![t(&[(
            "policy",
            List(vec![rule(&["edge"], 0, &[("to", s("x"))])]),
        )])]),
    )]))
    .err()
    .unwrap();
    assert!(e.message.contains("no setup"), "{}", e.message);
}

#[test]
fn bad_passengers_and_pools_are_named() {
    let with = |minors: ParamValue, extra: Vec<(&str, ParamValue)>| {
        let mut pairs = vec![
            ("pcs", List(vec![t(&[("name", s("tom"))])])),
            ("minors", minors),
        ];
        pairs.extend(extra);
        skirmish_from(&map(pairs)).err().unwrap()
    };
    let gob = |lead: &str| t(&[("name", s("gob")), ("lead", s(lead))]);
    let e = with(List(vec![gob("nobody")]), vec![]);
    assert_eq!(e.key, "minors");
    assert!(
        e.message.contains("\"nobody\" is not an entity"),
        "{}",
        e.message
    );
    let e = with(
        List(vec![
            gob("tom"),
            t(&[("name", s("imp")), ("lead", s("gob"))]),
        ]),
        vec![],
    );
    assert!(e.message.contains("is itself a passenger"), "{}", e.message);
    let e = with(
        List(vec![t(&[
            ("name", s("gob")),
            ("lead", s("tom")),
            ("side", s("gm")),
        ])]),
        vec![],
    );
    assert!(e.message.contains("other side"), "{}", e.message);
    let e = with(
        List(vec![gob("tom")]),
        vec![(
            "lines",
            List(vec![t(&[("between", List(vec![s("gob"), s("key")]))])]),
        )],
    );
    assert_eq!(e.key, "lines");
    assert!(e.message.contains("passenger"), "{}", e.message);
    let e = with(List(vec![gob("tom")]), vec![("initiative", s("gob"))]);
    assert_eq!(e.key, "initiative");
    let e = with(
        List(vec![t(&[
            ("name", s("gob")),
            ("essence", Int(1)),
            ("essence_pools", t(&[("fate", Int(1))])),
        ])]),
        vec![],
    );
    assert!(e.message.contains("both set"), "{}", e.message);
    let e = with(
        List(vec![t(&[
            ("name", s("gob")),
            ("essence_pools", t(&[("luck", Int(1))])),
        ])]),
        vec![],
    );
    assert!(
        e.message.contains("`luck`") && e.message.contains("fate, mental, physical, social"),
        "{}",
        e.message
    );
    let e = with(
        List(vec![t(&[(
            "policy",
            List(vec![rule(&["aid", "setup"], 0, &[])]),
        )])]),
        vec![],
    );
    assert!(e.message.contains("made alone"), "{}", e.message);
}

/// Defaults that depend on the table: the key entity's significance is 6
/// unless its table sets one (the key's spec default is a minor's 1), a
/// minor entity is on the GM's side unless `side` says otherwise, and a
/// PC on the PCs'.
#[test]
fn table_defaults_depend_on_the_kind_of_entity() {
    let sk = |key: Vec<(&str, ParamValue)>| {
        skirmish_from(&map(vec![
            ("pcs", List(vec![t(&[("name", s("tom"))])])),
            ("key", t(&key)),
            (
                "minors",
                List(vec![
                    t(&[("name", s("guard"))]),
                    t(&[("name", s("ally")), ("side", s("pcs"))]),
                ]),
            ),
        ]))
        .unwrap()
        .rounds
        .sk
    };
    let of = |sk: &Skirmish, name: &str| {
        let m = sk.members.iter().find(|m| m.name() == name).unwrap();
        (m.significance, m.side)
    };
    let default = sk(vec![]);
    assert_eq!(of(&default, "key"), (6, GM));
    assert_eq!(of(&default, "guard"), (1, GM));
    assert_eq!(of(&default, "ally"), (1, PCS));
    assert_eq!(of(&default, "tom").1, PCS);
    let set = sk(vec![("significance", Int(1))]);
    assert_eq!(of(&set, "key"), (1, GM));
}
