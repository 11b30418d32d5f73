//! `oddsmith tune`: the shipped tunes against a brute-force scan of the
//! same configs, Monte Carlo bisection against a full scan, the one-line
//! form, the gate, the outputs, and bad input (exit 2, file, line, key);
//! every metric of every mechanic tuned without a panic ([`metrics`]);
//! the faces' rough edges ([`faces`]); an expression's `{name}` as the
//! knob ([`dice`]); the output directory read back
//! ([`outputs`]).

#[path = "../common/mod.rs"]
mod common;
mod dice;
mod faces;
mod metrics;
mod outputs;

use std::path::{Path, PathBuf};

use common::*;
use oddsmith::results::Method;
use oddsmith::run::{self, Mode, RunOptions};
use oddsmith::scenario::{Scenario, Target};
use oddsmith::tune::{self, TuneOptions};

fn shipped_tunes() -> Vec<PathBuf> {
    let mut list: Vec<PathBuf> = std::fs::read_dir(root().join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter(|p| std::fs::read_to_string(p).unwrap().contains("\n[tune]"))
        .collect();
    list.sort();
    list
}

#[test]
fn every_system_ships_a_tune() {
    let names: Vec<String> = shipped_tunes()
        .iter()
        .map(|p| Scenario::load(p).unwrap().mechanic.name().to_string())
        .collect();
    for system in ["gateway", "cgg", "cortex", "questworlds", "statements"] {
        assert!(
            names.iter().any(|n| n.starts_with(&format!("{system}."))),
            "no shipped tune for {system}: {names:?}"
        );
    }
    assert!(
        names.iter().any(|n| n == "gateway.scene"),
        "the ladder tune"
    );
}

/// For every shipped tune: run the whole grid (every knob value of every
/// row) as `run` does, pick each row's answer by brute force, and compare
/// with what `tune` found, value for value.
#[test]
fn exact_tunes_equal_a_brute_force_scan_of_the_whole_range() {
    for path in shipped_tunes() {
        let scenario = Scenario::load(&path).unwrap();
        let spec = scenario.tune.clone().unwrap();
        let tuned = tune::tune(&scenario, &TuneOptions::default(), &()).unwrap();
        let grid = scenario.tune_grid().unwrap();
        let all = run::run(&grid, &RunOptions::default(), &()).unwrap();
        let n = spec.knob.values.len();
        assert_eq!(all.configs.len(), scenario.config_count() * n);
        let t = spec.target.value();
        let rows: Vec<_> = tuned.rows.iter().filter(|r| !r.ambiguous).collect();
        assert_eq!(rows.len(), scenario.config_count(), "{}", path.display());
        for (row, found) in rows.iter().enumerate() {
            let mut best: Option<(usize, f64)> = None;
            for k in 0..n {
                let c = &all.configs[row * n + k];
                assert_eq!(c.runs.len(), 1);
                assert_eq!(
                    c.runs[0].method,
                    Method::Exact,
                    "{}: ship exact tunes",
                    path.display()
                );
                let value = |name: &str| {
                    c.runs[0]
                        .metrics
                        .iter()
                        .find(|m| m.name == name)
                        .unwrap()
                        .value
                };
                let v = value(&spec.metric);
                let meets = match spec.target {
                    Target::Nearest(_) => true,
                    Target::AtLeast(b) => v >= b,
                    Target::AtMost(b) => v <= b,
                } && spec.also.iter().all(|a| match a.bound {
                    Target::AtLeast(b) => value(&a.metric) >= b,
                    Target::AtMost(b) => value(&a.metric) <= b,
                    Target::Nearest(_) => true,
                });
                // Strictly nearer replaces: ties stay with the lower knob.
                if meets && best.is_none_or(|(_, d)| (v - t).abs() < d) {
                    best = Some((k, (v - t).abs()));
                }
            }
            assert_eq!(
                found.knob,
                best.map(|b| b.0),
                "{} row {row}",
                path.display()
            );
            assert_eq!(found.method, tune::Method::Exact);
            if let Some(k) = found.knob {
                let c = &all.configs[row * n + k];
                let v = c.runs[0]
                    .metrics
                    .iter()
                    .find(|m| m.name == spec.metric)
                    .unwrap()
                    .value;
                assert_eq!(found.value.unwrap().value, v, "the numbers `run` gives");
            }
        }
    }
}

const GATEWAY: &str = r#"
mechanic = "gateway.challenge"
[params]
"opposition.variability" = 2
[sweep]
"actor.trait" = [1, 2, 3, 4]
"actor.background" = [0, 2, 4]
[tune]
knob = "opposition.challenge"
range = { from = 0, to = 20 }
metric = "p_success"
target = 0.5
"#;

#[test]
fn monte_carlo_bisection_and_a_full_scan_agree() {
    let text = r#"
mechanic = "gateway.challenge"
trials = 40000
[sweep]
"actor.trait" = [2, 4]
[tune]
knob = "opposition.challenge"
metric = "p_success"
target = 0.4
precision = 0.005
"#;
    let s = Scenario::parse(Path::new("t.toml"), text).unwrap();
    let mc = RunOptions {
        mode: Mode::MonteCarlo,
        ..RunOptions::default()
    };
    let bisected = tune::tune(
        &s,
        &TuneOptions {
            run: mc,
            scan: false,
        },
        &(),
    )
    .unwrap();
    let scanned = tune::tune(
        &s,
        &TuneOptions {
            run: mc,
            scan: true,
        },
        &(),
    )
    .unwrap();
    let exact = tune::tune(&s, &TuneOptions::default(), &()).unwrap();
    assert!(
        bisected
            .rows
            .iter()
            .all(|r| r.method == tune::Method::Bisection)
    );
    assert!(scanned.rows.iter().all(|r| r.method == tune::Method::Scan));
    assert!(bisected.evaluations < scanned.evaluations);
    let knobs = |t: &tune::Tuned| t.rows.iter().map(|r| r.knob).collect::<Vec<_>>();
    assert_eq!(knobs(&bisected), knobs(&scanned));
    // And both agree with the exact answer here (no candidate is close).
    assert_eq!(knobs(&bisected), knobs(&exact));
    // The Monte Carlo interval covers the exact value.
    for (m, e) in bisected.rows.iter().zip(&exact.rows) {
        let (lo, hi) = m.value.unwrap().interval.unwrap();
        let x = e.value.unwrap().value;
        assert!(lo <= x && x <= hi, "{x} outside [{lo}, {hi}]");
    }
}

/// 1M against a resistance of 20 wins 0.525 and against 1M 0.475 (a tie
/// is no victory): equally near one half, so no number of trials can tell
/// them apart, and Monte Carlo must report both.
#[test]
fn monte_carlo_candidates_that_cannot_be_told_apart_are_both_reported() {
    let o = oddsmith(&[
        "tune",
        "questworlds.contest",
        "--knob",
        "resistance.rating",
        "--metric",
        "p_victory",
        "--target",
        "0.5",
        "--range",
        "15..25",
        "pc.rating=1M",
        "--mode",
        "mc",
        "--trials",
        "20000",
        "--precision",
        "0.01",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(
        rows[0].starts_with("20 ") && rows[0].ends_with("ambiguous"),
        "{text}"
    );
    assert!(
        rows[1].starts_with("1M ") && rows[1].ends_with("ambiguous"),
        "{text}"
    );
    // The exact answer names one (the tie rule) and is not ambiguous.
    let o = oddsmith(&[
        "tune",
        "questworlds.contest",
        "--knob",
        "resistance.rating",
        "--metric",
        "p_victory",
        "--target",
        "0.5",
        "--range",
        "15..25",
        "pc.rating=1M",
    ]);
    assert_eq!(stdout(&o).lines().count(), 2);
}

#[test]
fn tune_writes_its_outputs_and_its_numbers_are_runs() {
    let dir = tempfile::tempdir().unwrap();
    let file = scenario(dir.path(), "even.toml", GATEWAY);
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "tune",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut files = entries(&out);
    files.sort();
    assert_eq!(
        files,
        [
            "knob-ladder.png",
            "knob-ladder.svg",
            "manifest.json",
            "report.html",
            "report.md",
            "scenario.toml",
            "tune.csv",
            "tune.parquet"
        ]
    );
    let rows = csv_rows(&out.join("tune.csv"));
    assert_eq!(rows.len(), 12);
    let header: Vec<&String> = rows[0].keys().collect();
    for col in [
        "actor.trait",
        "actor.background",
        "knob",
        "metric_value",
        "metric_lo",
        "metric_hi",
        "below",
        "below_value",
        "above",
        "above_value",
        "reachable",
        "method",
        "ambiguous",
    ] {
        assert!(header.iter().any(|h| *h == col), "no column {col}");
    }
    // The same configs through `oddsmith run`, the knob swept last.
    let swept = GATEWAY.replace(
        "\"actor.background\" = [0, 2, 4]\n",
        "\"actor.background\" = [0, 2, 4]\n\"opposition.challenge\" = { from = 0, to = 20 }\n",
    );
    let swept = &swept[..swept.find("[tune]").unwrap()];
    let run_file = scenario(dir.path(), "swept.toml", swept);
    let run_out = dir.path().join("run");
    let o = oddsmith(&[
        "run",
        run_file.to_str().unwrap(),
        "--out",
        run_out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary = csv_rows(&run_out.join("summary.csv"));
    for r in &rows {
        let at = summary
            .iter()
            .find(|s| {
                s["actor.trait"] == r["actor.trait"]
                    && s["actor.background"] == r["actor.background"]
                    && s["opposition.challenge"] == r["knob"]
            })
            .unwrap();
        assert_eq!(at["p_success"], r["metric_value"]);
        // Even odds: the answer's neighbours straddle 0.5 (or it is an end).
        let v: f64 = r["metric_value"].parse().unwrap();
        assert!((v - 0.5).abs() < 0.25, "{r:?}");
    }
    // A trait-3 character without background: hand-checked against the
    // swept run, p_success falls with the challenge and the answer is the
    // value nearest 0.5.
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("knob-ladder.png"));
}

#[test]
fn the_one_line_form_answers_one_row() {
    let o = oddsmith(&[
        "tune",
        "gateway.challenge",
        "--knob",
        "opposition.challenge",
        "--metric",
        "p_success",
        "--target",
        "0.5",
        "actor.trait=3",
        "actor.background=2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("opposition.challenge  p_success"));
    assert!(lines[1].ends_with("exact"), "{text}");
    // The same question as a scenario gives the same answer.
    let dir = tempfile::tempdir().unwrap();
    let file = scenario(
        dir.path(),
        "one.toml",
        "mechanic = \"gateway.challenge\"\n[params]\n\"actor.trait\" = 3\n\"actor.background\" = 2\n[tune]\nknob = \"opposition.challenge\"\nmetric = \"p_success\"\ntarget = 0.5\n",
    );
    let o2 = oddsmith(&["tune", file.to_str().unwrap()]);
    assert_eq!(stdout(&o2), text);
}

#[test]
fn ratings_and_ordered_names_are_knobs() {
    // QuestWorlds: a rating knob walks 1..20, 1M, 2M … (21 is 1M).
    let o = oddsmith(&[
        "tune",
        "questworlds.contest",
        "--knob",
        "resistance.rating",
        "--metric",
        "p_victory",
        "--target",
        "0.5",
        "--range",
        "10..2M",
        "pc.rating=1M",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    // A tie is no victory, so 1M against 1M wins 0.475 and against 20
    // wins 0.525: equally near one half, and the tie goes to the lower
    // value.
    let line = text.lines().nth(1).unwrap();
    assert!(line.starts_with("20 "), "{text}");
    assert!(line.contains("1M (0.4750)"), "{text}");
    // The resistance ladder, lowest first.
    let o = oddsmith(&[
        "tune",
        "questworlds.contest",
        "--knob",
        "resistance.level",
        "--metric",
        "p_victory",
        "--at-least",
        "0.5",
        "pc.rating=15",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let line = stdout(&o).lines().nth(1).unwrap().to_string();
    // Base resistance 10 + 5 (challenging) = 15 against 15 wins only
    // 0.475 (a tie is no victory), so the highest rung that still leaves
    // one half is the one below: base (10), 0.69.
    assert!(line.starts_with("base "), "{line}");
    assert!(line.contains("challenging (0.4750)"), "{line}");
}

#[test]
fn the_gate_bounds_the_found_knob() {
    let dir = tempfile::tempdir().unwrap();
    let holds = format!(
        "{GATEWAY}\n[[expect]]\nwhy = \"trait 3 stays in 2..4\"\nwhere = {{ \"actor.trait\" = 3, \"actor.background\" = 2 }}\nknob_between = [2, 4]\n"
    );
    let fails = format!("{GATEWAY}\n[[expect]]\nknob_between = [0, 1]\n");
    let a = scenario(dir.path(), "holds.toml", &holds);
    let b = scenario(dir.path(), "fails.toml", &fails);
    let o = oddsmith(&["check", a.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("1 of 1 assertions hold"));
    let o = oddsmith(&["check", b.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("fails.toml:"), "{}", stdout(&o));
    assert!(stdout(&o).contains("FAILS in"), "{}", stdout(&o));
    // A tune scenario is not a run.
    let o = oddsmith(&["run", a.to_str().unwrap(), "--out", "/tmp/never"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("oddsmith tune"));
}

/// Each bad input exits 2 naming the file, the line and the key.
#[test]
fn bad_input_names_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "unknown knob",
            "knob = \"opposition.challenge\"",
            "knob = \"opposition.chalenge\"",
            ":9: `tune.knob` \"opposition.chalenge\" is not a parameter",
        ),
        (
            "swept knob",
            "knob = \"opposition.challenge\"",
            "knob = \"actor.trait\"",
            ":9: `tune.knob` \"actor.trait\" is swept",
        ),
        (
            "not a headline metric",
            "metric = \"p_success\"",
            "metric = \"success\"",
            ":11: `tune.metric` \"success\" is not a metric",
        ),
        (
            "target outside [0, 1]",
            "target = 0.5",
            "target = 1.5",
            ":12: `tune.target` 1.5 is not a probability",
        ),
        (
            "empty range",
            "range = { from = 0, to = 20 }",
            "range = { from = 8, to = 3 }",
            ":10: `tune.range` from 8 to 3 is empty",
        ),
        (
            "range outside the parameter's",
            "range = { from = 0, to = 20 }",
            "range = { from = 0, to = 30 }",
            ":10: `tune.range` from 0 to 30 leaves the declared range",
        ),
    ];
    for (what, from, to, want) in cases {
        let text = GATEWAY.replace(from, to);
        assert_ne!(text, GATEWAY, "{what}");
        let file = scenario(dir.path(), "bad.toml", &text);
        let o = oddsmith(&["tune", file.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(&format!("bad.toml{want}")), "{what}: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
    }
    // A knob with no order, and a knob in [params].
    let text = GATEWAY.replace(
        "knob = \"opposition.challenge\"",
        "knob = \"actor.specialisation\"",
    );
    let file = scenario(dir.path(), "bad.toml", &text);
    let o = oddsmith(&["tune", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(":9: `tune.knob` \"actor.specialisation\" has no order"));
    let text = GATEWAY.replace(
        "knob = \"opposition.challenge\"",
        "knob = \"opposition.variability\"",
    );
    let file = scenario(dir.path(), "bad.toml", &text);
    let o = oddsmith(&["tune", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o)
            .contains(":9: `tune.knob` \"opposition.variability\" is fixed in [params] (line 4)"),
        "{}",
        stderr(&o)
    );
    // A grid too large to search.
    let file = scenario(
        dir.path(),
        "big.toml",
        "mechanic = \"statements.statement\"\n[sweep]\nfavouring = { from = 0, to = 1000 }\n[tune]\nknob = \"opposing\"\nrange = { from = 0, to = 1000 }\nmetric = \"mean_weight\"\ntarget = 5\n",
    );
    let o = oddsmith(&["tune", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("big.toml:4: `tune.range` the sweep times the knob's values is more than 1000000 configs"),
        "{}",
        stderr(&o)
    );
    // The one-line form says the same.
    let o = oddsmith(&[
        "tune",
        "gateway.challenge",
        "--knob",
        "opposition.challenge",
        "--metric",
        "p_success",
        "--target",
        "-0.5",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`tune.target` -0.5 is not a probability"),
        "{}",
        stderr(&o)
    );
}
