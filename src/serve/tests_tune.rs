//! `POST /api/tune` through the router: it finds the knob `oddsmith tune`
//! prints, and a bad tune is a 400 with the command line's reason at the
//! body's field.

use axum::http::StatusCode;
use serde_json::json;

use super::App;
use super::tests::post;

#[test]
fn a_tune_finds_the_knob_oddsmith_tune_prints() {
    let app = App::new();
    let (status, v) = post(
        &app,
        "/api/tune",
        json!({"mechanic": "gateway.challenge",
               "params": {"actor.trait": 3, "actor.background": 2},
               "knob": "opposition.challenge", "metric": "p_success", "target": 0.5}),
    );
    assert_eq!(status, StatusCode::OK, "{v}");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{v}");
    // As `oddsmith tune … --target 0.5 actor.trait=3 actor.background=2`
    // prints: 3, 0.5042, below 2 (0.6907), above 4 (0.3488), exact.
    assert_eq!(rows[0]["knob"], "3");
    assert!(
        (rows[0]["value"].as_f64().unwrap() - 0.5042).abs() < 5e-5,
        "{v}"
    );
    assert_eq!(rows[0]["below"], "2");
    assert!((rows[0]["below_value"].as_f64().unwrap() - 0.6907).abs() < 5e-5);
    assert_eq!(rows[0]["above"], "4");
    assert!((rows[0]["above_value"].as_f64().unwrap() - 0.3488).abs() < 5e-5);
    assert_eq!(rows[0]["method"], "exact");
    assert_eq!(rows[0]["reachable"], true);
    // A sweep gives one row per value, the trait-3 row the same answer.
    let (status, v) = post(
        &app,
        "/api/tune",
        json!({"mechanic": "gateway.challenge",
               "params": {"actor.background": 2}, "sweep": {"actor.trait": [2, 3]},
               "knob": "opposition.challenge", "metric": "p_success", "target": 0.5}),
    );
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["swept"][0], "actor.trait");
    assert_eq!(v["rows"][1]["swept"][0], "3");
    assert_eq!(v["rows"][1]["knob"], "3");
}

#[test]
fn a_bad_tune_gives_400_with_the_command_lines_reason_at_the_bodys_field() {
    let app = App::new();
    // The message `oddsmith tune MECHANIC --knob … key=value` prints: the
    // one-line form is this question, read by the same parser.
    let cli = |args: &[&str]| {
        let mut q = oddsmith::tune::question::TuneQuestion {
            mechanic: args[0].into(),
            ..Default::default()
        };
        for pair in args[1..].chunks(2) {
            match pair {
                ["--knob", k] => q.knob = Some(k.to_string()),
                ["--metric", m] => q.metric = Some(m.to_string()),
                ["--target", t] => q.target = t.parse().ok(),
                [kv] | [kv, ..] => {
                    let (k, v) = kv.split_once('=').unwrap();
                    q.params.push((k.into(), v.into()));
                }
                _ => unreachable!(),
            }
        }
        q.scenario().err().expect("an error").0
    };
    let (status, v) = post(
        &app,
        "/api/tune",
        json!({"mechanic": "gateway.challenge", "params": {"actor.trait": 3},
               "knob": "opposition.nonsense", "metric": "p_success", "target": 0.5}),
    );
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let want = cli(&[
        "gateway.challenge",
        "--knob",
        "opposition.nonsense",
        "--metric",
        "p_success",
        "--target",
        "0.5",
        "actor.trait=3",
    ]);
    assert!(want.contains("opposition.nonsense"), "{want}");
    // The command line's reason, said of the body's field: the CLI says
    // "command line: `tune.knob` …", the API "knob: …" at field "knob".
    let reason = want
        .strip_prefix("command line: `tune.knob` ")
        .unwrap_or_else(|| panic!("{want}"));
    assert_eq!(v["error"].as_str().unwrap(), format!("knob: {reason}"));
    assert_eq!(v["field"], "knob");
    let (status, v) = post(
        &app,
        "/api/tune",
        json!({"mechanic": "gateway.challenge", "knob": "opposition.challenge", "metric": "p_success"}),
    );
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["field"], "target", "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("give one of \"target\""),
        "{v}"
    );
}
