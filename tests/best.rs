//! `oddsmith best`: the report, the written policy replayed, JSON, and
//! bad input (exit 2 and a message naming the problem).

mod common;

use common::*;

#[test]
fn the_best_raises_are_written_and_replayed() {
    let o = oddsmith(&[
        "best",
        "gateway.challenge",
        "actor.trait=3",
        "opposition.variability=2",
        "--metric",
        "expected_raises",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        "best play",
        "given policy",
        "gap",
        "dominance",
        "raises = ",
        "replayed by the exact solver",
    ] {
        assert!(out.contains(want), "{want:?} missing:\n{out}");
    }
    let o = oddsmith(&[
        "best",
        "gateway.challenge",
        "actor.trait=3",
        "--metric",
        "expected_raises",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let best = v["best"].as_f64().unwrap();
    let replayed = v["replayed"].as_f64().unwrap();
    assert!((best - replayed).abs() < 1e-9, "{best} vs {replayed}");
    assert!(v["gap"].as_f64().unwrap() >= 0.0);
}

#[test]
fn bad_input_exits_2_and_names_the_problem() {
    let cases: [(&[&str], &str); 4] = [
        (&["best", "cortex.basic"], "no exact best play"),
        (
            &["best", "gateway.challenge", "--metric", "p_win"],
            "is not a metric",
        ),
        (
            &["best", "gateway.challenge", "actor.trait=9"],
            "actor.trait",
        ),
        (
            &["best", "gateway.challenge", "raises=1,2"],
            "one value per key",
        ),
    ];
    for (args, want) in cases {
        let o = oddsmith(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn every_mechanic_answers_or_says_why_not() {
    // Best play on every mechanic of the registry, at its defaults: an
    // answer, or exit 2 with a message naming the mechanic, never a
    // panic. Dominance is left out to keep it quick.
    for m in oddsmith::systems::names() {
        let o = oddsmith(&["best", m, "--no-dominance"]);
        match o.status.code() {
            Some(0) => assert!(stdout(&o).contains("best play"), "{m}: {}", stdout(&o)),
            Some(2) => assert!(stderr(&o).contains(m), "{m}: {}", stderr(&o)),
            code => panic!("{m}: exit {code:?}: {}", stderr(&o)),
        }
    }
}
