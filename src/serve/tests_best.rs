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

/// `"opponent": "best"`: both sides' best play, the library's duel; the
/// registry says which mechanics have one and for which metrics.
#[test]
fn a_duel_is_the_librarys_duel() {
    let app = App::new();
    let (status, v) = post(
        &app,
        "/api/best",
        json!({"mechanic": "gateway.scene", "params": {"ladder": 4, "round_cap": 6}, "metric": "p_a_wins", "opponent": "best", "dominance": false}),
    );
    assert_eq!(status, StatusCode::OK, "{v}");
    let mut params = ParamMap::default();
    params.set("ladder".to_string(), ParamValue::Int(4));
    params.set("round_cap".to_string(), ParamValue::Int(6));
    let a = best(&BestQuestion {
        mechanic: systems::find("gateway.scene").unwrap(),
        params,
        metric: "p_a_wins".into(),
        dominance: false,
        opponent: oddsmith::best::Opponent::Best,
    })
    .unwrap();
    let d = a.duel.as_ref().unwrap();
    // JSON's decimal numbers read back within an ulp (serde_json's
    // default float parsing is not always the nearest double).
    let close = |x: &serde_json::Value, y: f64| (x.as_f64().unwrap() - y).abs() < 1e-15;
    assert!(close(&v["best"], a.best), "{v}");
    assert!(close(&v["duel"]["one_sided"], d.one_sided), "{v}");
    assert!(close(&v["duel"]["taken_back"], d.taken_back), "{v}");
    assert!(d.taken_back >= 0.0 && d.one_sided >= a.best);
    assert_eq!(v["duel"]["rules"].as_array().unwrap().len(), d.rules.len());
    assert!(v["policy"].as_str().unwrap().contains("\"b.policy\""));
    // One-sided best play has no duel, and is the duel's one-sided value
    // (the same sums, in another order: within rounding).
    let (status, v) = post(
        &app,
        "/api/best",
        json!({"mechanic": "gateway.scene", "params": {"ladder": 4, "round_cap": 6}, "opponent": "given", "dominance": false}),
    );
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v.get("duel").is_none(), "{v}");
    assert!(
        (v["best"].as_f64().unwrap() - d.one_sided).abs() < 1e-12,
        "{v}"
    );
    // The registry: the duel's side and metrics, null elsewhere.
    let rt = runtime();
    let (_, v) = rt.block_on(super::tests::call(
        &app,
        "GET",
        "/api/mechanics",
        Vec::new(),
    ));
    let of = |name: &str| {
        v.as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(of("gateway.scene")["duel"]["metrics"], json!(["p_a_wins"]));
    assert!(
        of("gateway.scene")["duel"]["decision"]
            .as_str()
            .unwrap()
            .contains("side B")
    );
    assert!(of("cortex.contested")["duel"].is_null());
}

/// A duel the mechanic, metric or values do not allow is a 400 saying
/// why, naming the field, never a 500.
#[test]
fn refused_duels_are_400s_naming_the_field() {
    let app = App::new();
    let cases = [
        (
            json!({"mechanic": "gateway.scene", "params": {"round_cap": 6}, "opponent": "worst"}),
            "opponent",
            "allowed: \"given\"",
        ),
        (
            json!({"mechanic": "gateway.scene", "params": {"round_cap": 6}, "opponent": true}),
            "opponent",
            "allowed: \"given\"",
        ),
        (
            json!({"mechanic": "cortex.contested", "opponent": "best"}),
            "opponent",
            "no best play for both sides",
        ),
        (
            json!({"mechanic": "gateway.scene", "params": {"round_cap": 6}, "metric": "mean_rounds", "opponent": "best"}),
            "metric",
            "not zero-sum",
        ),
        (
            json!({"mechanic": "gateway.scene", "params": {"round_cap": 6, "b.initiative_order": "last"}, "opponent": "best"}),
            "b.initiative_order",
            "needs \"first\"",
        ),
    ];
    for (body, field, said) in cases {
        let (status, v) = post(&app, "/api/best", body.clone());
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(v["field"], field, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(said), "{body}: {v}");
    }
}
