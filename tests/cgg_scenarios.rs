//! The shipped CGG scenarios run end to end, exactly, with the numbers a
//! designer reads off them checked by hand; and a bad die code in a
//! scenario names its key and what is allowed.

mod common;

use common::*;

fn run_exact(scenario: &str, out: &std::path::Path) {
    let o = oddsmith(&[
        "run",
        scenario,
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "auto",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn venture_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("v");
    run_exact("scenarios/cgg-venture.toml", &out);
    let rows = csv_rows(&out.join("summary.csv"));
    assert_eq!(rows.len(), 24 * 27);
    let row = |code: &str, target: &str| {
        rows.iter()
            .find(|r| r["code"] == code && r["target"] == target)
            .unwrap()
    };
    let f = |code: &str, target: &str, m: &str| row(code, target)[m].parse::<f64>().unwrap();
    assert_eq!(row("1d", "4")["method"], "exact");
    // 1d: one venture in six; 1 − (5/6)^3 for 3d.
    assert!((f("1d", "4", "p_venture_1plus") - 1.0 / 6.0).abs() < 1e-12);
    assert!((f("3d+2", "10", "p_venture_1plus") - (1.0 - (5.0f64 / 6.0).powi(3))).abs() < 1e-12);
    assert!((f("8d", "4", "mean_venture") - 8.0 / 6.0).abs() < 1e-12);
    // 1d against 4: faces 4 and 5.
    assert!((f("1d", "4", "p_avoided") - 2.0 / 6.0).abs() < 1e-12);
    // 1d+2 against 4: faces 2..5.
    assert!((f("1d+2", "4", "p_avoided") - 4.0 / 6.0).abs() < 1e-12);
}

#[test]
fn difficulty_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d");
    run_exact("scenarios/cgg-difficulty.toml", &out);
    let rows = csv_rows(&out.join("summary.csv"));
    assert_eq!(rows.len(), 7 * 5 * 8 * 2 * 2);
    let f = |base: &str, adj: &str, code: &str, rb: &str, fail: &str, m: &str| {
        rows.iter()
            .find(|r| {
                r["difficulty.base"] == base
                    && r["difficulty.adjust"] == adj
                    && r["explorer.code"] == code
                    && r["variant.risk_base"] == rb
                    && r["variant.failure"] == fail
            })
            .unwrap()[m]
            .parse::<f64>()
            .unwrap()
    };
    // 8d against easy: trivial; the failure can only come from the hammer.
    assert!(f("3", "0", "8d", "table", "procedure", "p_fail_3plus") == 0.0);
    // The half rule never makes success likelier.
    for code in ["1d", "4d", "8d"] {
        for base in ["4", "7", "9"] {
            let p = f(base, "0", code, "table", "procedure", "p_success");
            let h = f(base, "0", code, "table", "half", "p_success");
            assert!(h <= p + 1e-12, "{code} vs {base}");
            // a higher base risk never makes the risk easier to avoid
            let t = f(base, "0", code, "table", "procedure", "p_avoided");
            let e = f(base, "0", code, "example", "procedure", "p_avoided");
            assert!(e <= t + 1e-12, "{code} vs {base}");
        }
    }
}

#[test]
fn a_bad_die_code_names_key_and_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        "bad.toml",
        "name = \"bad\"\nmechanic = \"cgg.action\"\n[params]\n\"explorer.code\" = \"3x+2\"\n",
    );
    let o = oddsmith(&[
        "run",
        path.to_str().unwrap(),
        "--out",
        dir.path().join("o").to_str().unwrap(),
        "--quiet",
    ]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("explorer.code") && err.contains("3x+2") && err.contains("3d+2"),
        "{err}"
    );
}

#[test]
fn tension_runs_by_simulation_in_auto_mode() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        "tension.toml",
        "name = \"t\"\nmechanic = \"cgg.tension\"\ntrials = 20000\n[params]\nexplorers = [\"3d\", { code = \"4d\", risk_code = \"2d\" }]\n[sweep]\nstart = [3, 12]\n",
    );
    let out = dir.path().join("o");
    let o = oddsmith(&[
        "run",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&out.join("summary.csv"));
    assert_eq!(rows.len(), 2);
    let p = |i: usize| rows[i]["p_avoided"].parse::<f64>().unwrap();
    assert_ne!(rows[0]["method"], "exact");
    // starting nearer 0 avoids the pitfall more often
    assert!(p(0) > p(1), "{} vs {}", p(0), p(1));
}

#[test]
fn session_scenario_is_exact_and_agrees_with_simulation() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    let o = oddsmith(&[
        "run",
        "scenarios/cgg-session.toml",
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "both",
        "--trials",
        "20000",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!csv_rows(&out.join("agreement.csv")).is_empty());
    let exact = dir.path().join("e");
    run_exact("scenarios/cgg-session.toml", &exact);
    let rows = csv_rows(&exact.join("summary.csv"));
    assert_eq!(rows.len(), 3 * 4 * 5);
    assert!(rows.iter().all(|r| r["method"] == "exact"));
    let f = |wrench: &str, hammer: &str, code: &str, m: &str| {
        rows.iter()
            .find(|r| {
                r["policy.wrench"] == wrench
                    && r["policy.hammer"] == hammer
                    && r["explorer.code"] == code
            })
            .unwrap()[m]
            .parse::<f64>()
            .unwrap()
    };
    // Never spending: the clock stays full, the first crisis "after" 20.
    assert_eq!(f("none", "always", "3d", "mean_hours_left"), 12.0);
    assert!((f("none", "none", "3d", "mean_actions_to_first_crisis") - 21.0).abs() < 1e-9);
    // The hammer's hours hold the crisis off; deny burns them.
    assert!(f("greedy", "always", "4d", "mean_crises") < f("greedy", "none", "4d", "mean_crises"));
    assert!(f("deny", "always", "4d", "mean_crises") > f("greedy", "always", "4d", "mean_crises"));
}
