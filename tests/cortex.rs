//! The shipped Cortex scenarios end to end, and bad Cortex input.

mod common;

use common::*;

#[test]
fn pool_table_is_exact_for_every_pool_and_trouble() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "run",
        "scenarios/cortex-pools.toml",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&out.join("summary.csv"));
    // 15 + 35 + 70 pools of 2..=4 dice, 5 trouble pools.
    assert_eq!(rows.len(), 600);
    assert!(rows.iter().all(|r| r["method"] == "exact"));
    // 2d6 against 2d6 trouble: P(tie) = Σ n_t² / 36² = 130/1296 (n_t the
    // ways to total t without 1s: 1,2,2,3,4,5,4,5,4,3,2,1), and by
    // symmetry P(win) = (1 − 130/1296) / 2 = 583/1296.
    let row = rows
        .iter()
        .find(|r| r["actor.pool"] == "2d6" && r["opposition.trouble"] == "2")
        .unwrap();
    let p: f64 = row["p_win"].parse().unwrap();
    assert!((p - 583.0 / 1296.0).abs() < 1e-12, "{p}");
}

#[test]
fn contested_timed_and_fight_scenarios_agree_with_simulation() {
    for name in [
        "cortex-contested",
        "cortex-timed",
        "cortex-fight",
        "cortex-buying-time",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let o = oddsmith(&[
            "run",
            &format!("scenarios/{name}.toml"),
            "--out",
            out.to_str().unwrap(),
            "--mode",
            "both",
            "--trials",
            "20000",
            "--quiet",
        ]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let rows = csv_rows(&out.join("agreement.csv"));
        assert!(!rows.is_empty());
    }
}

#[test]
fn a_bad_pool_names_the_key_and_what_is_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        "bad.toml",
        "mechanic = \"cortex.basic\"\n[params]\nactor.pool = \"d8 d7\"\n",
    );
    let o = oddsmith(&[
        "run",
        path.to_str().unwrap(),
        "--out",
        dir.path().join("out").to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("`actor.pool`") && e.contains("d7 is not a step die"),
        "{e}"
    );
    assert!(e.contains("d4, d6, d8, d10, d12"), "{e}");
}

#[test]
fn bad_give_in_and_buy_time_policies_name_the_key_rule_and_choices() {
    let dir = tempfile::tempdir().unwrap();
    for (mechanic, line, wanted) in [
        (
            "cortex.fight",
            "\"policy.give_in\" = [{ give_in = \"run\" }]",
            "`policy.give_in` rule 1: `give_in` = \"run\" is not a price; allowed: \"complication\", \"plot-point\"",
        ),
        (
            "cortex.timed",
            "\"policy.buy_time\" = [{ buy_time = true, when = { beats = 2 } }]",
            "`policy.buy_time` rule 1: `when`: unknown field `beats`",
        ),
        (
            "cortex.timed",
            "helpers = [\"d8\", \"d7\"]",
            "`helpers` helper 2 \"d7\": d7 is not a step die",
        ),
    ] {
        let text = format!("mechanic = \"{mechanic}\"\n[params]\n{line}\n");
        let path = scenario(dir.path(), "bad.toml", &text);
        let o = oddsmith(&[
            "run",
            path.to_str().unwrap(),
            "--out",
            dir.path().join("out").to_str().unwrap(),
            "--quiet",
        ]);
        assert_eq!(o.status.code(), Some(2), "{line}");
        let e = stderr(&o);
        assert!(e.contains("bad.toml:3") && e.contains(wanted), "{e}");
    }
}
