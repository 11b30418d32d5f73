//! Monte Carlo against the exact chain on small skirmishes.

use super::*;
use crate::systems::testing::{Sample, assert_agrees_with};

/// Small skirmishes, exact and simulated.
fn small_configs() -> Vec<ParamMap> {
    let pc = |name: &str, dice: i64| t(&[("name", s(name)), ("trait", Int(dice))]);
    let line =
        |a: &str, b: &str, e: i64| t(&[("between", List(vec![s(a), s(b)])), ("edge", Int(e))]);
    let guard = |sig: i64| {
        t(&[
            ("name", s("guard")),
            ("significance", Int(sig)),
            ("trait", Int(1)),
        ])
    };
    let feed = List(vec![
        rule(&["climax"], 0, &[]),
        rule(&["eliminate"], 0, &[]),
        rule(
            &["setup"],
            0,
            &[("to", s("tom")), ("when", s("no-free-raise"))],
        ),
        rule(&["edge"], 0, &[]),
        rule(&["manoeuvre"], 0, &[]),
    ]);
    let mut out = Vec::new();
    for (ladder, sig, init) in [(2, 1, "tom"), (3, 0, "key"), (3, 2, "tom"), (2, 1, "key")] {
        out.push(map(vec![
            ("pcs", List(vec![pc("tom", 2)])),
            ("minors", List(vec![guard(sig)])),
            ("ladder", Int(ladder)),
            ("initiative", s(init)),
            ("round_cap", Int(25)),
        ]));
    }
    // With lines given, and a manoeuvring key.
    out.push(map(vec![
        ("pcs", List(vec![pc("tom", 3)])),
        ("minors", List(vec![guard(1)])),
        (
            "lines",
            List(vec![line("tom", "key", 0), line("tom", "guard", 0)]),
        ),
        ("ladder", Int(3)),
        ("round_cap", Int(25)),
    ]));
    // Two PCs against the key, no minors, no lines at the start.
    out.push(map(vec![
        ("pcs", List(vec![pc("tom", 2), pc("ann", 1)])),
        ("ladder", Int(2)),
        ("round_cap", Int(20)),
    ]));
    // Two PCs with lines, Ann feeding Tom.
    out.push(map(vec![
        (
            "pcs",
            List(vec![
                pc("tom", 2),
                t(&[("name", s("ann")), ("policy", feed.clone())]),
            ]),
        ),
        (
            "lines",
            List(vec![line("tom", "key", 0), line("ann", "key", 0)]),
        ),
        ("ladder", Int(3)),
        ("setup_free", s("per-raise")),
        ("round_cap", Int(20)),
    ]));
    // Press against accelerate, later wins.
    out.push(map(vec![
        (
            "pcs",
            List(vec![t(&[
                ("name", s("tom")),
                (
                    "policy",
                    List(vec![
                        rule(&["climax"], 0, &[]),
                        rule(&["edge", "accelerate"], 0, &[]),
                    ]),
                ),
            ])]),
        ),
        (
            "key",
            t(&[(
                "policy",
                List(vec![
                    rule(&["climax"], 0, &[]),
                    rule(&["press"], 0, &[("when", t(&[("edge_at_most", Int(-1))]))]),
                    rule(&["edge"], 0, &[]),
                ]),
            )]),
        ),
        ("ladder", Int(4)),
        ("press_accelerate", s("later-wins")),
        ("round_cap", Int(25)),
    ]));
    // Edge tie, an ally on the PCs' side that the key may eliminate.
    out.push(map(vec![
        ("pcs", List(vec![pc("tom", 2)])),
        (
            "minors",
            List(vec![t(&[
                ("name", s("witness")),
                ("side", s("pcs")),
                ("significance", Int(0)),
                ("trait", Int(1)),
            ])]),
        ),
        ("ladder", Int(2)),
        ("initiative_tie", s("edge")),
        ("round_cap", Int(20)),
    ]));
    // Holder tie, disengaging henchman.
    out.push(map(vec![
        ("pcs", List(vec![pc("tom", 2)])),
        (
            "minors",
            List(vec![t(&[
                ("name", s("guard")),
                ("significance", Int(1)),
                (
                    "policy",
                    List(vec![
                        rule(
                            &["disengage"],
                            0,
                            &[("when", t(&[("edge_at_most", Int(-1))]))],
                        ),
                        rule(&["edge"], 0, &[]),
                        rule(&["manoeuvre"], 0, &[]),
                    ]),
                ),
            ])]),
        ),
        ("ladder", Int(2)),
        ("initiative_tie", s("holder")),
        ("round_cap", Int(20)),
    ]));
    out
}

#[test]
fn monte_carlo_agrees_with_the_chain() {
    // Every metric and every value of every field within 5 standard
    // errors, 20,000 trials each at a fixed seed.
    let configs = small_configs();
    assert!(configs.len() >= 10);
    for (n, values) in configs.iter().enumerate() {
        let m = skirmish_from(values).unwrap();
        let exact = m
            .exact()
            .unwrap_or_else(|| panic!("config {n} is beyond the chain"));
        let z = assert_agrees_with(
            &m,
            &exact,
            Sample::seed(70 + n as u64).trials(20_000),
            &format!("config {n}"),
        );
        assert!(z < 5.0);
        // Someone wins or the cap is reached: the winner law is whole.
        let total: f64 = exact.field(WINNER).values().sum();
        assert!((total - 1.0).abs() < 1e-9, "config {n}: {total}");
    }
}
