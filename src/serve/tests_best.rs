//! `POST /api/best` through the router: the answer is the library's (as
//! `oddsmith best --format json` gives it), bad bodies are a 400 naming
//! the field, a solve past the time limit is refused, never a late answer
//! or a 500, and the page carries the best-play panel.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::json;

use oddsmith::best::{BestQuestion, best};
use oddsmith::systems::{self, ParamMap, ParamValue};

use super::App;
use super::tests::{post, runtime};

#[test]
fn best_play_is_the_librarys_answer() {
    let app = App::new();
    let (status, v) = post(
        &app,
        "/api/best",
        json!({"mechanic": "gateway.challenge", "params": {"actor.trait": 3, "opposition.challenge": 2}, "metric": "expected_raises"}),
    );
    assert_eq!(status, StatusCode::OK, "{v}");
    let mut params = ParamMap::default();
    params.set("actor.trait".to_string(), ParamValue::Int(3));
    params.set("opposition.challenge".to_string(), ParamValue::Int(2));
    let a = best(&BestQuestion {
        mechanic: systems::find("gateway.challenge").unwrap(),
        params,
        metric: "expected_raises".into(),
        dominance: true,
        opponent: Default::default(),
    })
    .unwrap();
    assert_eq!(v["best"].as_f64().unwrap().to_bits(), a.best.to_bits());
    assert_eq!(v["given"].as_f64().unwrap().to_bits(), a.given.to_bits());
    assert_eq!(v["gap"].as_f64().unwrap().to_bits(), a.gap.to_bits());
    assert_eq!(v["rules"].as_array().unwrap().len(), a.rules.len());
    assert_eq!(v["dominance"].as_array().unwrap().len(), a.dominance.len());
    assert_eq!(v["policy"], json!(a.policy));
    // The metric defaults to the mechanic's first, as on the command line.
    let (status, v) = post(
        &app,
        "/api/best",
        json!({"mechanic": "gateway.challenge", "dominance": false}),
    );
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["metric"], "p_success");
    assert_eq!(v["dominance"], json!([]));
}

#[test]
fn bad_best_bodies_are_400s_naming_the_field() {
    let app = App::new();
    let cases = [
        (json!({"params": {}}), "mechanic", "say whose best play"),
        (
            json!({"mechanic": "gateway.chalenge"}),
            "mechanic",
            "gateway.challenge",
        ),
        (
            json!({"mechanic": "cortex.basic"}),
            "mechanic",
            "no exact best play",
        ),
        (json!({"mechanic": 7}), "mechanic", "not a string"),
        (
            json!({"mechanic": "gateway.challenge", "params": {"actor.trait": 9}}),
            "actor.trait",
            "actor.trait",
        ),
        (
            json!({"mechanic": "gateway.challenge", "params": [1]}),
            "params",
            "not an object",
        ),
        (
            json!({"mechanic": "gateway.challenge", "metric": "p_win"}),
            "metric",
            "is not a metric",
        ),
        (
            json!({"mechanic": "gateway.challenge", "dominance": "yes"}),
            "dominance",
            "true or false",
        ),
    ];
    for (body, field, said) in cases {
        let (status, v) = post(&app, "/api/best", body.clone());
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(v["field"], field, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(said), "{body}: {v}");
    }
    let (status, v) = post(
        &app,
        "/api/best",
        json!({"mechanic": "gateway.challenge", "knob": 1}),
    );
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("knob"), "{v}");
}

#[test]
fn a_solve_past_the_time_limit_is_refused() {
    let app = App::with_limit(Duration::from_millis(1));
    let (status, v) = post(
        &app,
        "/api/best",
        json!({"mechanic": "gateway.scene", "params": {"ladder": 4, "round_cap": 8}}),
    );
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("time limit"), "{v}");
}

#[test]
fn a_large_solve_stops_promptly_at_the_time_limit() {
    // A duel whose best play (with dominance) takes many seconds: the
    // solver polls the request's watch each round, so a 50 ms limit ends
    // it long before its end, with the usual error.
    let app = App::with_limit(Duration::from_millis(50));
    let started = std::time::Instant::now();
    let (status, v) = post(
        &app,
        "/api/best",
        json!({"mechanic": "gateway.scene", "params": {"ladder": 10, "round_cap": 60}}),
    );
    let took = started.elapsed();
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("time limit"), "{v}");
    assert!(took < Duration::from_secs(3), "stopped after {took:?}");
}

#[test]
fn the_page_has_the_best_play_panel() {
    let app = App::new();
    let rt = runtime();
    let (status, page) = rt.block_on(super::tests::call_raw(&app, "GET", "/", Vec::new()));
    assert_eq!(status, StatusCode::OK);
    let page = String::from_utf8(page).unwrap();
    assert!(page.contains("id=\"best-box\"") && page.contains("/best.js"));
    let (status, script) = rt.block_on(super::tests::call_raw(&app, "GET", "/best.js", Vec::new()));
    assert_eq!(status, StatusCode::OK);
    assert!(String::from_utf8(script).unwrap().contains("/api/best"));
    // The registry says which mechanics have best play.
    let (_, v) = rt.block_on(super::tests::call(
        &app,
        "GET",
        "/api/mechanics",
        Vec::new(),
    ));
    let scene = v
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "gateway.scene")
        .unwrap();
    assert!(scene["best"].as_str().unwrap().contains("side A"));
    let basic = v
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "cortex.basic")
        .unwrap();
    assert!(basic["best"].is_null());
}
