//! `oddsmith run` end to end on the shipped and test scenarios.

mod common;

use common::*;

#[test]
fn exact_raise_table_writes_every_config() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "run",
        "scenarios/gateway-raises.toml",
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "exact",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&out.join("summary.csv"));
    assert_eq!(rows.len(), 4928);
    let text = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert_eq!(
        text.lines().next().unwrap(),
        "actor.trait,actor.background,opposition.variability,opposition.challenge,raises,method,trials,p_success,expected_raises"
    );
    let first = &rows[0];
    assert_eq!(first["actor.trait"], "1");
    assert_eq!(first["method"], "exact");
    assert_eq!(first["trials"], "0");
    // 1d8 against 1d8 + 0 with no raise: 36/64 by hand.
    assert_eq!(first["p_success"].parse::<f64>().unwrap(), 36.0 / 64.0);
    let names = entries(&out);
    for name in [
        "manifest.json",
        "results.csv",
        "results.parquet",
        "summary.csv",
        "scenario.toml",
        "report.md",
        "report.html",
        "difficulty-table.png",
        "difficulty-table.svg",
    ] {
        assert!(
            names.iter().any(|n| n == name),
            "{name} missing from {names:?}"
        );
    }
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["configs"], 4928);
    assert_eq!(manifest["mode"], "exact");
    assert_eq!(manifest["scenario"]["sha256"].as_str().unwrap().len(), 64);
    assert!(manifest["wall_seconds"].as_f64().unwrap() > 0.0);
}

#[test]
fn summary_columns_follow_the_contract() {
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(
        dir.path(),
        "s.toml",
        "mechanic = \"gateway.challenge\"\ntrials = 5000\n[sweep]\n\"opposition.challenge\" = [\"easy\", 3]\nraises = [0, 2]\n",
    );
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "run",
        s.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "both",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let header = text.lines().next().unwrap();
    assert_eq!(
        header,
        "opposition.challenge,raises,method,trials,p_success,p_success_lo,p_success_hi,expected_raises,expected_raises_lo,expected_raises_hi"
    );
    let rows = csv_rows(&out.join("summary.csv"));
    assert_eq!(rows.len(), 8, "one row per config and method");
    assert_eq!(rows[0]["opposition.challenge"], "easy");
    assert_eq!(rows[0]["method"], "exact");
    assert_eq!(rows[0]["p_success_lo"], "");
    assert_eq!(rows[1]["method"], "monte-carlo");
    assert_eq!(rows[1]["trials"], "5000");
    let (lo, p, hi): (f64, f64, f64) = (
        rows[1]["p_success_lo"].parse().unwrap(),
        rows[1]["p_success"].parse().unwrap(),
        rows[1]["p_success_hi"].parse().unwrap(),
    );
    assert!(lo < p && p < hi);
    let long = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(long.starts_with("config_id,opposition.challenge,raises,method,field,value,label,probability,count,trials,lo,hi\n"), "{long}");
    assert!(out.join("agreement.csv").exists());
}

#[test]
fn both_mode_agrees_on_fifty_configs_at_a_million_trials() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "run",
        "tests/scenarios/gateway-50.toml",
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "both",
        "--quiet",
    ]);
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        stderr(&o)
    );
    let rows = csv_rows(&out.join("agreement.csv"));
    assert_eq!(rows.len(), 100, "50 configs × 2 metrics");
    for r in &rows {
        let z: f64 = r["z"].parse().unwrap();
        assert!(z.abs() < 5.0, "{r:?}");
    }
    let summary = csv_rows(&out.join("summary.csv"));
    assert!(
        summary
            .iter()
            .filter(|r| r["method"] == "monte-carlo")
            .all(|r| r["trials"] == "1000000")
    );
}

#[test]
fn both_mode_exits_1_on_disagreement() {
    // Exact solvers are right, so a disagreement has to be a rare sample:
    // 1d8 against 4d8 + 7 succeeds once in 32768 rolls, and a single trial
    // that succeeds is then ~181 standard errors from the exact value. Find
    // a seed whose first trial of config 0 succeeds, and run with it.
    use oddsmith::dice::DiceRng;
    use oddsmith::sim::Tally;
    use oddsmith::systems::Define;
    use oddsmith::systems::gateway::{Challenge, Contest, Pool};
    let m = Challenge.model(Contest::new(
        Pool { dice: 1, bonus: 0 },
        Pool { dice: 4, bonus: 7 },
        0,
        0,
    ));
    let first_trial_succeeds = |s: u64| {
        let mut t = Tally::new(3);
        m.simulate(&mut DiceRng::for_chunk(s, 0, 0), 1, &mut t);
        t.field(0).iter().any(|(v, _)| v == 1)
    };
    let seed = (0u64..10_000_000)
        .find(|&s| first_trial_succeeds(s))
        .expect("some seed succeeds");
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(
        dir.path(),
        "s.toml",
        "mechanic = \"gateway.challenge\"\ntrials = 1\n[params]\nactor.trait = 1\nopposition.variability = 4\nopposition.challenge = 7\n[sweep]\nraises = [0]\n",
    );
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "run",
        s.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "both",
        "--seed",
        &seed.to_string(),
        "--quiet",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("config 0 (raises = 0)") && err.contains("p_success"),
        "{err}"
    );
    // The outputs are still written, so the disagreement can be inspected.
    assert!(out.join("agreement.csv").exists());
}

#[test]
fn summary_is_identical_for_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(
        dir.path(),
        "s.toml",
        "mechanic = \"gateway.challenge\"\nseed = 99\ntrials = 300000\n[sweep]\n\"actor.trait\" = [1, 3]\nraises = [0, 1, 2]\n",
    );
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.path().join(format!("out{threads}"));
        let o = oddsmith(&[
            "run",
            s.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--mode",
            "mc",
            "--threads",
            threads,
            "--quiet",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        outputs.push((
            std::fs::read(out.join("summary.csv")).unwrap(),
            std::fs::read(out.join("results.csv")).unwrap(),
        ));
    }
    assert_eq!(
        outputs[0].0, outputs[1].0,
        "summary.csv differs between --threads 1 and 2"
    );
    assert_eq!(
        outputs[0].1, outputs[1].1,
        "results.csv differs between --threads 1 and 2"
    );
}

#[test]
fn precision_mode_stops_at_the_target() {
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(
        dir.path(),
        "s.toml",
        "mechanic = \"gateway.challenge\"\n[sweep]\nraises = [0, 3]\n",
    );
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "run",
        s.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "mc",
        "--precision",
        "0.0005",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for r in csv_rows(&out.join("summary.csv")) {
        let (lo, hi): (f64, f64) = (
            r["p_success_lo"].parse().unwrap(),
            r["p_success_hi"].parse().unwrap(),
        );
        assert!((hi - lo) / 2.0 < 0.0005, "{r:?}");
        let trials: u64 = r["trials"].parse().unwrap();
        // Rounds double from one chunk of 65536: 65536, 131072, …
        assert!(
            trials % (1 << 16) == 0 && (trials >> 16).is_power_of_two(),
            "{trials}"
        );
    }
}

/// `run` a two-config gateway scenario by Monte Carlo with `args`; its summary.csv rows
/// and the bytes of summary.csv and results.csv.
fn gateway_mc(args: &[&str]) -> (Vec<std::collections::BTreeMap<String, String>>, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(
        dir.path(),
        "s.toml",
        "mechanic = \"gateway.challenge\"\nseed = 3\n[sweep]\nraises = [0, 2]\n",
    );
    let out = dir.path().join("out");
    let mut all = vec![
        "run",
        s.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "mc",
        "-q",
    ];
    all.extend_from_slice(args);
    let o = oddsmith(&all);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    let mut bytes = std::fs::read(out.join("summary.csv")).unwrap();
    bytes.extend(std::fs::read(out.join("results.csv")).unwrap());
    (csv_rows(&out.join("summary.csv")), bytes)
}

fn trials_of(rows: &[std::collections::BTreeMap<String, String>]) -> Vec<u64> {
    rows.iter().map(|r| r["trials"].parse().unwrap()).collect()
}

#[test]
fn precision_starts_from_trials_and_keeps_max_trials_to_the_trial() {
    // A target no run reaches: rounds 1000, 2000, … 64000, then the cap.
    let (rows, _) = gateway_mc(&[
        "--precision",
        "0.0000001",
        "--trials",
        "1000",
        "--max-trials",
        "100000",
    ]);
    assert_eq!(trials_of(&rows), [100_000, 100_000]);
    // A loose target is met by the first round: P(success) ≈ 0.69 and 0.35
    // need a few hundred trials for ±0.05.
    let (rows, _) = gateway_mc(&["--precision", "0.05", "--trials", "1000"]);
    assert_eq!(trials_of(&rows), [1000, 1000]);
    // The default first round is one chunk, not a million.
    let (rows, _) = gateway_mc(&["--precision", "0.05"]);
    assert_eq!(trials_of(&rows), [65_536, 65_536]);
    // A cap below the first round is the only round.
    let (rows, _) = gateway_mc(&["--precision", "0.0000001", "--max-trials", "777"]);
    assert_eq!(trials_of(&rows), [777, 777]);
}

#[test]
fn precision_results_are_a_fixed_run_of_their_trials_for_any_thread_count() {
    let precise = |threads: &str| {
        gateway_mc(&[
            "--precision",
            "0.0000001",
            "--trials",
            "5000",
            "--max-trials",
            "150001",
            "--threads",
            threads,
        ])
        .1
    };
    let one = precise("1");
    assert_eq!(
        one,
        precise("2"),
        "precision mode differs between 1 and 2 threads"
    );
    let (_, fixed) = gateway_mc(&["--trials", "150001", "--threads", "2"]);
    assert_eq!(
        one, fixed,
        "150001 trials by rounds differ from one run of 150001"
    );
}

#[test]
fn odds_answers_the_issue_example() {
    let o = oddsmith(&[
        "odds", "gateway", "--actor", "3d8+2", "--vs", "2d8+4", "--raises", "0..3", "--check",
        "--trials", "200000",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // 11431 / 32768 = 34.8846…%
    assert!(text.contains("34.8846%"), "{text}");
    assert!(text.lines().count() >= 6, "{text}");
    assert!(text.contains("most raises banked"), "{text}");
}

#[test]
fn systems_lists_every_parameter() {
    let o = oddsmith(&["systems"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for key in [
        "gateway.challenge",
        "actor.trait",
        "actor.background_relevance",
        "opposition.variability",
        "free_raises",
        "p_success",
        "expected_raises",
        "raises_banked",
    ] {
        assert!(text.contains(key), "missing {key}");
    }
}

#[test]
fn systems_filters_by_system_or_mechanic() {
    let all = stdout(&oddsmith(&["systems"]));
    let o = oddsmith(&["systems", "cortex"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let cortex = stdout(&o);
    for m in ["cortex.basic  (", "cortex.contested  (", "cortex.timed  ("] {
        assert!(cortex.contains(m), "missing {m}");
    }
    assert!(!cortex.contains("gateway.challenge"), "{cortex}");
    assert!(cortex.lines().count() * 4 < all.lines().count());
    let one = stdout(&oddsmith(&["systems", "cortex.basic"]));
    assert!(
        one.starts_with("cortex.basic  (") && !one.contains("cortex.timed"),
        "{one}"
    );
    let bad = oddsmith(&["systems", "cortx"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad)
            .contains("`cortx` is neither a system nor a mechanic; allowed: gateway, cortex"),
        "{}",
        stderr(&bad)
    );
}

/// The long table read with nothing but string splitting: every config has
/// a row for both values of a boolean field, probability 0 included, and
/// Monte Carlo lists values it never saw with count 0.
#[test]
fn long_table_lists_the_whole_support_without_a_dataframe_library() {
    let dir = tempfile::tempdir().unwrap();
    // Challenge 10 with 3 raises against one d8 cannot succeed; challenge 0
    // with no raise against six d8 + background 6 cannot fail.
    let s = scenario(
        dir.path(),
        "s.toml",
        "mechanic = \"gateway.challenge\"\ntrials = 2000\n[sweep]\n\"actor.trait\" = [1, 6]\n\"actor.background\" = [0, 6]\n\"opposition.challenge\" = [0, 10]\nraises = [0, 3]\n",
    );
    for (mode, method) in [("exact", "exact"), ("mc", "monte-carlo")] {
        let out = dir.path().join(mode);
        let o = oddsmith(&[
            "run",
            s.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--mode",
            mode,
            "--quiet",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let rows = csv_rows(&out.join("results.csv"));
        let mut zero_rows = 0;
        for id in 0..16 {
            let config: Vec<_> = rows
                .iter()
                .filter(|r| r["config_id"] == id.to_string() && r["field"] == "success")
                .collect();
            let labels: Vec<&str> = config.iter().map(|r| r["label"].as_str()).collect();
            assert_eq!(labels, vec!["false", "true"], "config {id} ({mode})");
            for r in &config {
                assert_eq!(r["method"], method);
                if r["probability"].parse::<f64>().unwrap() == 0.0 {
                    zero_rows += 1;
                    // Monte Carlo: count 0 of its trials, with an interval.
                    if mode == "mc" {
                        assert_eq!(r["count"], "0");
                        assert_eq!(r["lo"].parse::<f64>().unwrap(), 0.0);
                        assert!(r["hi"].parse::<f64>().unwrap() > 0.0);
                    } else {
                        assert_eq!(r["count"], "");
                    }
                }
            }
            // Every config lists the margins it reached, in order.
            let margins: Vec<i64> = rows
                .iter()
                .filter(|r| r["config_id"] == id.to_string() && r["field"] == "margin")
                .map(|r| r["value"].parse().unwrap())
                .collect();
            assert!(!margins.is_empty(), "config {id} ({mode})");
            assert!(
                margins.windows(2).all(|w| w[0] < w[1]),
                "config {id} ({mode}): {margins:?}"
            );
        }
        assert!(
            zero_rows >= 2,
            "impossible and certain configs list a 0 row ({mode})"
        );
    }
    // The summary comes as Parquet too (PAR1 at both ends of the file).
    let parquet = std::fs::read(dir.path().join("exact/summary.parquet")).unwrap();
    assert!(parquet.starts_with(b"PAR1") && parquet.ends_with(b"PAR1"));
}

#[test]
fn exact_results_are_identical_for_any_thread_count() {
    // Exact solving runs on every core; the answer must not depend on it.
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.path().join(threads);
        let o = oddsmith(&[
            "run",
            "scenarios/gateway-raises.toml",
            "--out",
            out.to_str().unwrap(),
            "--mode",
            "exact",
            "--threads",
            threads,
            "-q",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        outputs.push(std::fs::read(out.join("results.csv")).unwrap());
    }
    assert!(
        outputs[0] == outputs[1],
        "results.csv differs between 1 and 2 threads"
    );
}

/// Peak memory (from the manifest) of an exact `statements.statement`
/// sweep over `favouring = 1..=n` (1,500 configs per step of n).
fn peak_memory_of_statement_sweep(dir: &std::path::Path, n: usize) -> f64 {
    let scenario = dir.join(format!("sweep-{n}.toml"));
    std::fs::write(
        &scenario,
        format!(
            "name = \"memory\"\nmechanic = \"statements.statement\"\n[sweep]\n\
             favouring = {{ from = 1, to = {n} }}\nopposing = {{ from = 1, to = 50 }}\n\
             luck = {{ from = 0, to = 4 }}\nsupport = {{ from = -1, to = 1 }}\n\
             \"variant.rolls\" = [\"three\", \"until-failure\"]\n"
        ),
    )
    .unwrap();
    let out = dir.join(format!("out-{n}"));
    let o = oddsmith(&[
        "run",
        scenario.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "2",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    manifest["peak_memory_bytes"]
        .as_f64()
        .expect("Linux reports the peak")
}

#[test]
fn peak_memory_grows_by_the_summary_not_by_the_distributions() {
    // The long table streams to disk, so 40,000 more configs cost what
    // their summary rows and chart points cost (about 1.2 KB each), not
    // their distributions (about 6 KB each when every table was held).
    let dir = tempfile::tempdir().unwrap();
    let small = peak_memory_of_statement_sweep(dir.path(), 14);
    let large = peak_memory_of_statement_sweep(dir.path(), 40);
    let per_config = (large - small) / (39_000.0);
    assert!(
        per_config < 2048.0,
        "{per_config:.0} bytes a config ({small:.0} → {large:.0} bytes)"
    );
}

#[test]
fn printing_into_a_closed_pipe_ends_quietly() {
    // `oddsmith systems | head`: the reader goes away early, and the
    // listing (87 KB) is more than a pipe holds, so the write fails.
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' systems | head -c 1 >/dev/null",
            env!("CARGO_BIN_EXE_oddsmith")
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.is_empty(), "{err}");
}
