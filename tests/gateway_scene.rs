//! `oddsmith run` end to end on the shipped Gateway drama scene scenario.

mod common;

use common::*;

#[test]
fn scene_table_is_exact_and_agrees_with_monte_carlo() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "run",
        "scenarios/gateway-scene.toml",
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
    assert_eq!(rows.len(), 2 * 11 * 4);
    for r in rows.iter().filter(|r| r["method"] == "exact") {
        let p = |k: &str| r[k].parse::<f64>().unwrap();
        let total = p("p_a_wins") + p("p_b_wins") + p("p_escape");
        assert!(total <= 1.0 + 1e-9, "{r:?}");
        assert!(p("p_rounds_le_5") <= p("p_rounds_le_10"));
    }
    // More trait dice for A never lower its chance, ladder by ladder.
    for ladder in 2..=12 {
        let wins: Vec<f64> = (1..=4)
            .map(|d| {
                rows.iter()
                    .find(|r| {
                        r["method"] == "exact"
                            && r["ladder"] == ladder.to_string()
                            && r["a.trait"] == d.to_string()
                    })
                    .unwrap()["p_a_wins"]
                    .parse()
                    .unwrap()
            })
            .collect();
        assert!(
            wins.windows(2).all(|w| w[0] <= w[1]),
            "ladder {ladder}: {wins:?}"
        );
    }
}
