//! The API through the router, in-process (`oneshot`): every mechanic
//! answers at its defaults, the numbers are `odds`'s, bad input is a 400
//! with the command line's message, big bodies are refused, superseded
//! Monte Carlo stops, and tune answers as `oddsmith tune` does (in `tests_tune`). (The
//! fuzz is in `tests_fuzz`, the server's edge in `tests_edge`.)

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use tower::ServiceExt;

use oddsmith::answer::{self, Question};
use oddsmith::run::Mode;
use oddsmith::systems::{self, ParamMap, ParamValue};

use super::{App, router};

pub(super) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

pub(super) async fn call(
    app: &App,
    method: &str,
    path: &str,
    body: Vec<u8>,
) -> (StatusCode, Value) {
    let (status, bytes) = call_raw(app, method, path, body).await;
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

pub(super) async fn call_raw(
    app: &App,
    method: &str,
    path: &str,
    body: Vec<u8>,
) -> (StatusCode, Vec<u8>) {
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("host", HOST)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .expect("a request");
    let resp = router(app.clone()).oneshot(req).await.expect("infallible");
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 64 << 20)
        .await
        .expect("a body");
    (status, bytes.to_vec())
}

/// The Host the page's requests name (`App::new()` serves 127.0.0.1:7878).
pub(super) const HOST: &str = "127.0.0.1:7878";

pub(super) fn post(app: &App, path: &str, body: Value) -> (StatusCode, Value) {
    runtime().block_on(call(app, "POST", path, body.to_string().into_bytes()))
}

/// The answer `oddsmith odds --format json` prints for `q` (the same
/// serialisation, compact): equal text is equal numbers, bit for bit.
pub(super) fn odds_json(q: &Question) -> String {
    let a = answer::ask(q, &(), &mut |_: usize, _: Option<&str>| {}).expect("an answer");
    serde_json::to_string(&a).expect("json")
}

/// The raw text of an answer.
pub(super) fn post_text(app: &App, path: &str, body: Value) -> String {
    let (status, bytes) =
        runtime().block_on(call_raw(app, "POST", path, body.to_string().into_bytes()));
    let text = String::from_utf8(bytes).expect("utf-8");
    assert_eq!(status, StatusCode::OK, "{text}");
    text
}

#[test]
fn the_registry_lists_every_mechanic_with_its_parameters() {
    let app = App::new();
    let (status, v) = runtime().block_on(call(&app, "GET", "/api/mechanics", vec![]));
    assert_eq!(status, StatusCode::OK);
    let list = v.as_array().expect("a list");
    assert_eq!(list.len(), systems::registry().len());
    let challenge = list
        .iter()
        .find(|m| m["name"] == "gateway.challenge")
        .expect("gateway.challenge");
    let t = challenge["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["key"] == "actor.trait")
        .expect("actor.trait");
    assert_eq!(t["kind"], "int_or_name");
    assert_eq!(t["choices"], json!(["full", "partial", "unrelated"]));
    assert!(t["min"].is_i64() && t["max"].is_i64(), "{t}");
    assert!(!t["doc"].as_str().unwrap().is_empty());
    assert!(
        challenge["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["name"] == "p_success")
    );
    assert!(!challenge["fields"].as_array().unwrap().is_empty());
}

#[test]
fn every_mechanic_answers_at_its_defaults() {
    let app = App::new();
    let mut missing = Vec::new();
    for m in systems::registry() {
        let (status, v) = post(
            &app,
            "/api/answer",
            json!({"mechanic": m.name(), "trials": 2000, "seed": 3}),
        );
        // A mechanic whose key has no default (a list of PCs) says which,
        // as the command line does; every other answers.
        if status == StatusCode::BAD_REQUEST {
            let e = v["error"].as_str().unwrap();
            assert!(
                e.contains("is missing") || e.contains("is required"),
                "{}: {v}",
                m.name()
            );
            assert!(v["field"].is_string(), "{}: {v}", m.name());
            missing.push(m.name());
            continue;
        }
        assert_eq!(status, StatusCode::OK, "{}: {v}", m.name());
        assert_eq!(v["mechanic"], m.name());
        let c = &v["configs"][0];
        assert!(!c["metrics"].as_array().unwrap().is_empty(), "{}", m.name());
        for f in c["fields"].as_array().unwrap() {
            let total: f64 = f["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["p"].as_f64().unwrap())
                .sum();
            assert!(
                (total - 1.0).abs() < 1e-9,
                "{} {}: {total}",
                m.name(),
                f["name"]
            );
        }
    }
    // Exactly the mechanics that need a list of PCs or players.
    missing.sort_unstable();
    assert_eq!(
        missing,
        [
            "gateway.ensemble",
            "gateway.skirmish",
            "statements.campaign",
            "statements.scene"
        ],
        "the mechanics that do not answer at their defaults"
    );
}

#[test]
fn answers_are_the_ones_odds_gives() {
    let app = App::new();
    // Exact: gateway.challenge with a trait of 3.
    let m = systems::find("gateway.challenge").unwrap();
    let mut params = ParamMap::new();
    params.set("actor.trait", ParamValue::Int(3));
    let q = Question {
        mechanic: m,
        params,
        sweep: vec![],
        trials: 100_000,
        seed: 1,
        mode: Mode::Auto,
    };
    let text = post_text(
        &app,
        "/api/answer",
        json!({"mechanic": "gateway.challenge", "params": {"actor.trait": 3}, "mode": "auto", "trials": 100000, "seed": 1}),
    );
    assert_eq!(text, odds_json(&q));
    // A value sent as the page sends it, a string, reads as the CLI reads it.
    let as_text = post_text(
        &app,
        "/api/answer",
        json!({"mechanic": "gateway.challenge", "params": {"actor.trait": "3"}, "trials": 100000}),
    );
    assert_eq!(as_text, text);
    // Monte Carlo, with a check: the same seed gives the same numbers.
    let q = Question {
        mode: Mode::Both,
        trials: 30_000,
        seed: 9,
        ..q
    };
    let text = post_text(
        &app,
        "/api/answer",
        json!({"mechanic": "gateway.challenge", "params": {"actor.trait": 3}, "mode": "both", "trials": 30000, "seed": 9}),
    );
    assert_eq!(text, odds_json(&q));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["configs"][0]["metrics"][0]["check"]["trials"], 30000);
    // A dice expression: 4d6kh3's mean is 15869/1296.
    let (status, v) = post(&app, "/api/answer", json!({"expression": "4d6kh3"}));
    assert_eq!(status, StatusCode::OK, "{v}");
    let mean = v["configs"][0]["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "mean")
        .unwrap()["value"]
        .as_f64()
        .unwrap();
    assert!((mean - 15869.0 / 1296.0).abs() < 1e-12, "{mean}");
    let dice = systems::find("dice.roll").unwrap();
    let mut params = ParamMap::new();
    params.set("expr", ParamValue::Str("{n}d6kh3".into()));
    params.set("vars.n", ParamValue::Int(5));
    let q = Question {
        mechanic: dice,
        params,
        sweep: vec![],
        trials: 200_000,
        seed: 1,
        mode: Mode::Auto,
    };
    let text = post_text(
        &app,
        "/api/answer",
        json!({"expression": "{n}d6kh3", "params": {"n": 5}}),
    );
    assert_eq!(text, odds_json(&q));
    // A mechanic with no exact solver, simulated with the seed.
    let mc = systems::registry()
        .iter()
        .copied()
        .find(|m| !m.has_exact())
        .expect("a Monte Carlo mechanic");
    let q = Question {
        mechanic: mc,
        params: ParamMap::new(),
        sweep: vec![],
        trials: 5000,
        seed: 4,
        mode: Mode::Auto,
    };
    let text = post_text(
        &app,
        "/api/answer",
        json!({"mechanic": mc.name(), "trials": 5000, "seed": 4}),
    );
    assert_eq!(text, odds_json(&q));
    assert!(text.contains("\"method\":\"monte-carlo\""));
}

#[test]
fn a_sweep_gives_a_table_for_a_line_or_a_heatmap() {
    let app = App::new();
    let (status, v) = post(
        &app,
        "/api/sweep",
        json!({"mechanic": "gateway.challenge", "sweep": {"actor.trait": [1, 2, 3, 4]}}),
    );
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["axes"][0]["param"], "actor.trait");
    let p = v["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "p_success")
        .unwrap();
    let values: Vec<f64> = p["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(values.len(), 4);
    // Each value is the single answer's for that trait.
    for (i, t) in [1, 2, 3, 4].iter().enumerate() {
        let (_, one) = post(
            &app,
            "/api/answer",
            json!({"mechanic": "gateway.challenge", "params": {"actor.trait": t}}),
        );
        let single = one["configs"][0]["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == "p_success")
            .unwrap()["value"]
            .as_f64()
            .unwrap();
        assert_eq!(values[i], single);
    }
    assert!(
        values.windows(2).all(|w| w[1] >= w[0]),
        "a higher trait never lowers the odds: {values:?}"
    );
    let (status, v) = post(
        &app,
        "/api/sweep",
        json!({"expression": "{n}d6kh3 >= {t}", "sweep": {"n": [3, 4, 5], "t": [10, 12, 14, 16]}}),
    );
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["metrics"][0]["values"].as_array().unwrap().len(), 12);
    let (status, v) = post(&app, "/api/sweep", json!({"mechanic": "gateway.challenge"}));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(v["field"], "sweep");
}

#[test]
fn a_scenario_reproduces_the_question() {
    let app = App::new();
    let (status, v) = post(
        &app,
        "/api/scenario",
        json!({"mechanic": "gateway.challenge", "params": {"actor.trait": 3}, "trials": 5000, "seed": 2}),
    );
    assert_eq!(status, StatusCode::OK, "{v}");
    let text = v["toml"].as_str().unwrap();
    assert!(text.contains("mechanic = \"gateway.challenge\""), "{text}");
    assert!(text.contains("\"actor.trait\" = 3"), "{text}");
    assert!(text.contains("[[expect]]"), "{text}");
    let s = oddsmith::scenario::Scenario::parse(std::path::Path::new("saved.toml"), text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(s.config_count(), 1);
    // An expression with a sweep.
    let (status, v) = post(
        &app,
        "/api/scenario",
        json!({"expression": "{n}d6kh3", "sweep": {"n": [3, 4]}}),
    );
    assert_eq!(status, StatusCode::OK, "{v}");
    let text = v["toml"].as_str().unwrap();
    let s = oddsmith::scenario::Scenario::parse(std::path::Path::new("saved.toml"), text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(s.config_count(), 2);
}

/// The message `oddsmith odds WHAT WORDS…` prints for bad input.
fn cli_message(what: &str, words: &[&str]) -> String {
    let asked = crate::cli::odds_questions(
        what,
        words.iter().map(|w| w.to_string()).collect(),
        Mode::Auto,
        1000,
        1,
    );
    match asked {
        Err(e) => format!("{e:#}"),
        Ok(qs) => {
            let q = &qs[0].1;
            let e = answer::ask(q, &(), &mut |_: usize, _: Option<&str>| {}).expect_err("an error");
            format!("{:#}", crate::cli::odds_error(q.mechanic, e))
        }
    }
}

#[test]
fn bad_values_give_400_with_the_command_lines_message() {
    let app = App::new();
    let cases: [(Value, &str, &[&str], &str); 4] = [
        (
            json!({"mechanic": "gateway.challenge", "params": {"actor.trait": 99}}),
            "gateway.challenge",
            &["actor.trait=99"],
            "actor.trait",
        ),
        (
            json!({"mechanic": "gateway.challenge", "params": {"actor.trate": 3}}),
            "gateway.challenge",
            &["actor.trate=3"],
            "actor.trate",
        ),
        (json!({"expression": "4d6kh"}), "4d6kh", &[], "expression"),
        (json!({"expression": "{n}d6"}), "{n}d6", &[], "expression"),
    ];
    for (body, what, words, field) in cases {
        let (status, v) = post(&app, "/api/answer", body.clone());
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(
            v["error"].as_str().unwrap(),
            cli_message(what, words),
            "{body}"
        );
        assert_eq!(v["field"], field, "{body}: {v}");
    }
    // The out-of-range message names the key and what is allowed.
    let (_, v) = post(
        &app,
        "/api/answer",
        json!({"mechanic": "gateway.challenge", "params": {"actor.trait": 99}}),
    );
    let msg = v["error"].as_str().unwrap();
    assert!(msg.contains("actor.trait") && msg.contains("99"), "{msg}");
    for (body, fragment) in [
        (json!([1, 2]), "JSON object"),
        (json!({"mechanic": "nope.nothing"}), "no mechanic is called"),
        (
            json!({"mechanic": "gateway.challenge", "mode": "fast"}),
            "allowed: auto",
        ),
        (
            json!({"mechanic": "gateway.challenge", "trials": 0}),
            "out of range",
        ),
        (
            json!({"mechanic": "gateway.challenge", "trials": 1e12}),
            "not a whole number",
        ),
        (
            json!({"mechanic": "gateway.challenge", "colour": 1}),
            "allowed: mechanic",
        ),
        (
            json!({"mechanic": "gateway.challenge", "params": {"actor.trait": null}}),
            "null",
        ),
        (
            json!({"mechanic": "gateway.challenge", "params": [1]}),
            "not an object",
        ),
        (json!({}), "say what to ask"),
        (
            json!({"expression": "gateway.challenge"}),
            "send it as \"mechanic\"",
        ),
    ] {
        let (status, v) = post(&app, "/api/answer", body.clone());
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains(fragment),
            "{body}: {v}"
        );
    }
    let (status, v) = runtime().block_on(call(&app, "POST", "/api/answer", b"{not json".to_vec()));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("the body is not JSON"),
        "{v}"
    );
}

#[test]
fn a_body_over_a_megabyte_is_refused() {
    let app = App::new();
    let big = format!(
        "{{\"expression\": \"4d6kh3\", \"tab\": \"{}\"}}",
        "x".repeat(2 << 20)
    );
    let (status, _) = runtime().block_on(call(&app, "POST", "/api/answer", big.into_bytes()));
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
}

/// A mechanic with no exact solver: its answers always simulate.
fn simulated() -> &'static str {
    systems::registry()
        .iter()
        .find(|m| !m.has_exact())
        .unwrap()
        .name()
}

#[test]
fn a_newer_request_from_the_same_tab_cancels_the_older() {
    let app = App::with_limit(Duration::from_secs(120));
    let rt = runtime();
    let long = json!({"mechanic": simulated(), "trials": 20_000_000, "tab": "t1"});
    let started = Instant::now();
    let first = rt.spawn({
        let app = app.clone();
        async move { call(&app, "POST", "/api/answer", long.to_string().into_bytes()).await }
    });
    std::thread::sleep(Duration::from_millis(300));
    let (status, v) = rt.block_on(call(
        &app,
        "POST",
        "/api/answer",
        json!({"mechanic": simulated(), "trials": 2000, "tab": "t1"})
            .to_string()
            .into_bytes(),
    ));
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = rt.block_on(first).expect("joined");
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("cancelled"));
    // 20 million trials take far longer than this; the first stopped.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn monte_carlo_stops_at_the_time_limit() {
    let app = App::with_limit(Duration::from_millis(200));
    let started = Instant::now();
    let (status, v) = post(
        &app,
        "/api/answer",
        json!({"mechanic": simulated(), "trials": 20_000_000}),
    );
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["field"], "trials");
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn the_page_and_its_assets_are_served() {
    let app = App::new();
    let rt = runtime();
    for (path, needle) in [
        ("/", "<html"),
        ("/app.js", "api/answer"),
        ("/sweep.js", "api/sweep"),
        ("/app.css", "--accent"),
    ] {
        let req = Request::builder()
            .uri(path)
            .header("host", HOST)
            .body(Body::empty())
            .unwrap();
        let resp = rt.block_on(router(app.clone()).oneshot(req)).unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{path}");
        let bytes = rt
            .block_on(axum::body::to_bytes(resp.into_body(), 1 << 22))
            .unwrap();
        assert!(String::from_utf8_lossy(&bytes).contains(needle), "{path}");
    }
    // The page fetches nothing from the network.
    for asset in std::iter::once(super::api::INDEX_FOR_TESTS).chain(super::api::SCRIPTS_FOR_TESTS) {
        assert!(!asset.contains("http://") || asset.contains("http://www.w3.org/2000/svg"));
        assert!(!asset.contains("https://"));
    }
}
