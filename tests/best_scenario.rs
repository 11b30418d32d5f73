//! `[best]` in a scenario: `check` solves best play in every config of the
//! sweep (the same numbers as the library's one best-play question), its
//! gates pass and fail as written, its outputs are written, and bad input
//! exits 2 naming the file, line, key and what is allowed.

mod common;

use common::*;
use oddsmith::best::{BestQuestion, best};
use oddsmith::scenario::Scenario;

const CHALLENGE: &str = r#"name = "Raises"
mechanic = "gateway.challenge"
[params]
"actor.trait" = 3
[sweep]
"opposition.challenge" = [1, 2, 3]
[best]
metric = "expected_raises"
[[expect]]
of = "gap"
at_least = 0.0
why = "best play is never worse than the given policy"
[[expect]]
of = "usage"
option = "0 raises"
at_most = 1.0
"#;

#[test]
fn check_solves_every_config_as_the_library_does() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(dir.path(), "raises.toml", CHALLENGE);
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "check",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("2 of 2 assertions hold (best play in 3 configs"));
    let got = out.join("raises");
    for f in [
        "best.csv",
        "best.parquet",
        "dominance.csv",
        "dominance.parquet",
        "rules.csv",
        "rules.parquet",
        "dominance.png",
        "dominance.svg",
        "report.md",
        "report.html",
        "scenario.toml",
        "manifest.json",
    ] {
        assert!(got.join(f).is_file(), "{f} missing: {:?}", entries(&got));
    }
    // The table holds the library's answer for each config.
    let s = Scenario::load(&path).unwrap();
    let rows = csv_rows(&got.join("best.csv"));
    assert_eq!(rows.len(), 3);
    for (i, row) in rows.iter().enumerate() {
        let a = best(&BestQuestion {
            mechanic: s.mechanic,
            params: s.config(i).values,
            metric: "expected_raises".into(),
            dominance: true,
        })
        .unwrap();
        let cell = |k: &str| row[k].parse::<f64>().unwrap();
        assert!((cell("best") - a.best).abs() < 1e-12, "{row:?}");
        assert!((cell("given") - a.given).abs() < 1e-12, "{row:?}");
        assert!((cell("gap") - a.gap).abs() < 1e-12, "{row:?}");
        assert_eq!(row["opposition.challenge"], (i + 1).to_string());
        assert!(cell("best") >= cell("given"));
    }
    let dominance = csv_rows(&got.join("dominance.csv"));
    assert!(dominance.iter().any(|r| r["option"] == "0 raises"));
    let md = std::fs::read_to_string(got.join("report.md")).unwrap();
    for want in [
        "## Best play against the given policy",
        "## Dominance",
        "## The best policy",
        "loss if forbidden",
        "✓ best play is never worse than the given policy",
    ] {
        assert!(md.contains(want), "{want:?} missing:\n{md}");
    }
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(got.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["command"], "best");
    // `report DIR` says it cannot rebuild it, and `run` points to `check`.
    let o = oddsmith(&["report", got.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("best play"), "{}", stderr(&o));
    let o = oddsmith(&[
        "run",
        path.to_str().unwrap(),
        "--out",
        dir.path().join("run").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("[best]"), "{}", stderr(&o));
}

#[test]
fn a_broken_gate_fails_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let text = CHALLENGE.replace(
        "of = \"gap\"\nat_least = 0.0",
        "of = \"best\"\nat_least = 5.0\nwhere = { \"opposition.challenge\" = 3 }",
    );
    let path = scenario(dir.path(), "raises.toml", &text);
    let o = oddsmith(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("best ≥ 5"), "{out}");
    assert!(out.contains("FAILS in 1 of 1 config"), "{out}");
    assert!(out.contains("opposition.challenge = 3"), "{out}");
}

#[test]
fn bad_best_tables_exit_2_naming_file_line_key_and_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "metric = \"expected_raises\"",
            "metric = \"p_win\"",
            &["raises.toml:8:", "`best.metric`", "allowed: p_success"],
        ),
        (
            "metric = \"expected_raises\"",
            "metric = \"expected_raises\"\ndominanse = false",
            &["`best.dominanse`", "allowed: metric, dominance"],
        ),
        (
            "of = \"gap\"",
            "of = \"gaps\"",
            &["`expect[1].of`", "allowed: best, given, gap, loss, usage"],
        ),
        (
            "option = \"0 raises\"\n",
            "",
            &["`expect[2].option`", "is missing"],
        ),
        (
            "option = \"0 raises\"",
            "option = \"setup\"",
            &["raises.toml:", "`expect.option`", "\"setup\"", "allowed: "],
        ),
        (
            "metric = \"expected_raises\"",
            "metric = \"expected_raises\"\ndominance = false",
            &["`expect[2].of`", "dominance = false"],
        ),
        (
            "[best]",
            "[tune]\nknob = \"actor.trait\"\n[best]",
            &["`tune`", "not both"],
        ),
        (
            "at_least = 0.0",
            "at_least = 0.0\nat_most = 1.0",
            &["`expect[1].at_most`", "a second bound"],
        ),
    ];
    for (from, to, want) in cases {
        let text = CHALLENGE.replacen(from, to, 1);
        assert_ne!(text, CHALLENGE, "{from:?} not found");
        let path = scenario(dir.path(), "raises.toml", &text);
        let o = oddsmith(&["check", path.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{to:?}: {}{err}", stdout(&o));
        for w in *want {
            assert!(err.contains(w), "{to:?}: {w:?} missing from:\n{err}");
        }
    }
    // A mechanic best play does not cover, and a standard deviation.
    let text = "name = \"x\"\nmechanic = \"dice.roll\"\n[best]\nmetric = \"mean\"\n";
    let path = scenario(dir.path(), "roll.toml", text);
    let o = oddsmith(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("roll.toml:3: `best`"), "{err}");
    assert!(
        err.contains("allowed mechanics: gateway.challenge"),
        "{err}"
    );
}
