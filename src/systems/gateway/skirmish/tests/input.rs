//! Bad input is named: key, value and what is allowed.

use super::*;

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
