//! End-to-end runs of the shipped QuestWorlds scenarios.

mod common;

use common::*;

#[test]
fn ladder_runs_exact_with_notation_in_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ladder");
    let o = oddsmith(&[
        "run",
        "scenarios/questworlds-ladder.toml",
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "exact",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&out.join("summary.csv"));
    assert_eq!(rows.len(), 41 * 9);
    let row = |rating: &str, level: &str| {
        rows.iter()
            .find(|r| r["pc.rating"] == rating && r["resistance.level"] == level)
            .unwrap_or_else(|| panic!("{rating} {level}"))
    };
    // Simple at base 10 is TN −10: assured.
    assert_eq!(
        row("5M2", "simple")["p_victory"].parse::<f64>().unwrap(),
        1.0
    );
    // 10 vs base 10: ties are 20/400 = 0.05, the rest split evenly.
    let p: f64 = row("10", "base")["p_victory"].parse().unwrap();
    assert!((p - 0.475).abs() < 1e-12, "{p}");
    // Ratings 5..=45 in mastery notation.
    for rating in ["5", "20", "1M", "5M", "20M", "1M2", "4M2"] {
        row(rating, "hard");
    }
}

#[test]
fn sequence_scenarios_agree_in_both_mode() {
    let dir = tempfile::tempdir().unwrap();
    for kind in ["scored", "chained"] {
        let out = dir.path().join(kind);
        let o = oddsmith(&[
            "run",
            &format!("scenarios/questworlds-{kind}.toml"),
            "--out",
            out.to_str().unwrap(),
            "--mode",
            "both",
            "--trials",
            "100000",
            "--quiet",
        ]);
        assert!(o.status.success(), "{kind}: {}", stderr(&o));
        assert_eq!(csv_rows(&out.join("summary.csv")).len(), 2 * 25);
    }
}

#[test]
fn a_bad_rating_names_key_value_and_notation() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        "bad.toml",
        "mechanic = \"questworlds.contest\"\n[sweep]\n\"pc.rating\" = [\"15\", \"5Q\"]\n",
    );
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "run",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("`pc.rating`") && err.contains("5Q") && err.contains("4M2"),
        "{err}"
    );
    assert!(entries(&out).is_empty());
}

#[test]
fn party_scenario_runs_every_type_and_gang_with_its_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("party");
    let o = oddsmith(&[
        "run",
        "scenarios/questworlds-party.toml",
        "--out",
        out.to_str().unwrap(),
        "--trials",
        "2000",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&out.join("summary.csv"));
    assert_eq!(rows.len(), 3 * 6 * 2);
    for r in &rows {
        for k in [
            "p_pcs_win",
            "mean_rounds",
            "p_no_pc_out",
            "mean_pcs_out",
            "mean_followers_lost",
            "mean_assists",
        ] {
            let v: f64 = r[k].parse().unwrap();
            assert!(v >= 0.0, "{k} in {r:?}");
        }
        // Named rosters and policies show their names.
        assert!(r["opponents"].starts_with("named + "), "{r:?}");
        assert!(["join", "assist when pressed by 2"].contains(&r["assist"].as_str()));
        if r["assist"] == "join" {
            assert_eq!(r["mean_assists"].parse::<f64>().unwrap(), 0.0, "{r:?}");
        }
    }
}
