//! `oddsmith run` end to end on the shipped `statements` scenarios.

mod common;

use common::*;

#[test]
fn odds_table_is_exact_and_agrees_with_monte_carlo() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "run",
        "scenarios/statements-odds.toml",
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "both",
        "--trials",
        "20000",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&out.join("summary.csv"));
    assert_eq!(rows.len(), 2 * 400);
    // The text's example: favouring 7 against opposing 9, three rolls:
    // P(true) = 1 − (9/16)³.
    let example = rows
        .iter()
        .find(|r| r["favouring"] == "7" && r["opposing"] == "9" && r["method"] == "exact")
        .unwrap();
    let p: f64 = example["p_true"].parse().unwrap();
    assert!((p - (1.0 - (9.0f64 / 16.0).powi(3))).abs() < 1e-12, "{p}");
    let mean_weight: f64 = example["mean_weight"].parse().unwrap();
    assert!((mean_weight - 7.0 * 3.0 * 7.0 / 16.0).abs() < 1e-12);
}

#[test]
fn heist_scene_names_a_metric_per_statement() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "run",
        "scenarios/statements-scene.toml",
        "--out",
        out.to_str().unwrap(),
        "--trials",
        "20000",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let header = text.lines().next().unwrap();
    for name in [
        "p_true.ann.1",
        "p_true.ann.3",
        "p_true.bob.2",
        "p_true.cy.3",
        "mean_luck.cy",
    ] {
        assert!(header.split(',').any(|c| c == name), "{name} in {header}");
    }
    let rows = csv_rows(&out.join("summary.csv"));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["method"], "monte-carlo");
    // ann.1 and bob.1 conflict: together they are true at most once per scene.
    let p = |k: &str| rows[0][k].parse::<f64>().unwrap();
    assert!(p("p_true.ann.1") + p("p_true.bob.1") <= 1.0);
}

#[test]
fn scene_errors_name_key_and_problem() {
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(
        dir.path(),
        "s.toml",
        "mechanic = \"statements.scene\"\n[params]\nplayers = [{ name = \"ann\", statements = [{ favouring = 3, difficulty = 1 }] }]\n",
    );
    let o = oddsmith(&["run", s.to_str().unwrap(), "--out", "/nonexistent/x"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("s.toml:3"), "{err}");
    assert!(err.contains("`players`"), "{err}");
    assert!(err.contains("player 1, statement 1: `difficulty`"), "{err}");
}

#[test]
fn experience_table_matches_the_formula() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "run",
        "scenarios/statements-experience.toml",
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "both",
        "--trials",
        "20000",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&out.join("summary.csv"));
    assert_eq!(rows.len(), 2 * 16 * 6);
    for r in rows.iter().filter(|r| r["method"] == "exact") {
        let f: f64 = r["failures"].parse().unwrap();
        let t: f64 = r["traits"].parse().unwrap();
        let q = t / (f + t);
        let p_improve: f64 = r["p_improve"].parse().unwrap();
        let p_attribute: f64 = r["p_attribute"].parse().unwrap();
        assert!((p_improve - (1.0 - q.powi(3))).abs() < 1e-12, "{r:?}");
        assert!((p_attribute - (1.0 - q).powi(3)).abs() < 1e-12, "{r:?}");
    }
}

/// rules §5.3: a trait, attribute or resource supports at most two
/// statements in a scene; naming one in three is refused.
#[test]
fn a_factor_named_in_three_statements_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let stmt = "{ favouring = { will = 4, charismatic = 3 }, opposing = 5 }";
    let s = scenario(
        dir.path(),
        "s.toml",
        &format!(
            "mechanic = \"statements.scene\"\n[params]\nplayers = [{{ name = \"bob\", statements = [{{ favouring = {{ will = 2 }} }}] }}, {{ name = \"ann\", statements = [{stmt}, {stmt}, {stmt}] }}]\n"
        ),
    );
    let o = oddsmith(&["run", s.to_str().unwrap(), "--out", "/nonexistent/x"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("`players`"), "{err}");
    assert!(err.contains("player 2 (ann)"), "{err}");
    assert!(err.contains("`will`"), "{err}");
    assert!(err.contains("3 statements"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
