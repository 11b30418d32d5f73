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
