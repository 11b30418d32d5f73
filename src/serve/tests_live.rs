//! The side channels through the router, in-process: a slow exact solve
//! reports its rounds on `/api/progress`, a newer request from its tab
//! (or `/api/cancel`, or the time limit) abandons it mid-chain, its
//! numbers are `odds`'s when it runs to the end, `/api/check` says what
//! `/api/answer` would without solving, and every policy example is
//! where it says it comes from and is accepted by its mechanic.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use serde_json::{Value, json};

use oddsmith::answer::Question;
use oddsmith::systems::{self, ParamKind};

use super::App;
use super::examples;
use super::tests::{call, odds_json, post, post_text, runtime};

/// The question `oddsmith odds WHAT WORDS…` asks (its default trials and
/// seed, the API's too).
fn odds_question(what: &str, words: &[&str]) -> Question {
    let words = words.iter().map(|w| w.to_string()).collect();
    let asked = crate::cli::odds_questions(what, words, oddsmith::run::Mode::Auto, 200_000, 1)
        .expect("a question");
    asked.into_iter().next().expect("one").1
}

/// gateway.ensemble with two PCs on a ladder of 50: an exact chain of
/// about 50 rounds and thousands of states, half a second or so.
fn slow(tab: &str) -> Value {
    json!({"mechanic": "gateway.ensemble",
           "params": {"pcs": "[{trait = 3}, {trait = 3}]", "ladder": 50},
           "tab": tab})
}

/// POST `body` to `path` on `rt` without waiting for the answer: the
/// request whose progress a test then watches.
fn spawn_post(
    rt: &tokio::runtime::Runtime,
    app: &App,
    path: &'static str,
    body: Value,
) -> tokio::task::JoinHandle<(StatusCode, Value)> {
    let app = app.clone();
    rt.spawn(async move { call(&app, "POST", path, body.to_string().into_bytes()).await })
}

/// Poll `tab`'s progress until its exact solve has propagated a round.
async fn first_rounds(app: &App, tab: &str) -> Value {
    let started = Instant::now();
    loop {
        let (status, v) = call(
            app,
            "POST",
            "/api/progress",
            json!({ "tab": tab }).to_string().into_bytes(),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if v["running"] == true && v["round"].as_u64().unwrap_or(0) >= 2 {
            return v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no progress: {v}"
        );
        // block_on's own thread: the runtime's workers go on.
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_slow_exact_solve_reports_rounds_and_a_newer_request_abandons_it() {
    let app = App::new();
    let rt = runtime();
    let first = spawn_post(&rt, &app, "/api/answer", slow("t"));
    let seen = rt.block_on(first_rounds(&app, "t"));
    assert_eq!(seen["what"], "gateway.ensemble");
    assert_eq!(seen["phase"], "exact");
    assert_eq!(seen["configs"], 1);
    assert!(seen["states"].as_u64().unwrap() > 0, "{seen}");
    let in_play = seen["in_play"].as_f64().unwrap();
    // A sum of many probabilities: 1 within rounding.
    assert!(in_play > 0.0 && in_play <= 1.0 + 1e-9, "{seen}");
    // A newer request from the same tab: answered, and the older one is
    // abandoned within its chain (not solved to the end and discarded).
    let (status, v) = rt.block_on(call(
        &app,
        "POST",
        "/api/answer",
        json!({"mechanic": "gateway.challenge", "tab": "t"})
            .to_string()
            .into_bytes(),
    ));
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = rt.block_on(first).expect("joined");
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    let message = v["error"].as_str().unwrap();
    assert!(
        message.contains("cancelled") && message.contains("abandoned at round"),
        "{message}"
    );
    // Nothing runs for the tab any more.
    let (_, v) = post(&app, "/api/progress", json!({"tab": "t"}));
    assert_eq!(v, json!({"running": false}));
}

#[test]
fn cancel_stops_a_tabs_exact_solve() {
    let app = App::new();
    let rt = runtime();
    let first = spawn_post(&rt, &app, "/api/answer", slow("c"));
    rt.block_on(first_rounds(&app, "c"));
    let (status, v) = rt.block_on(call(
        &app,
        "POST",
        "/api/cancel",
        json!({"tab": "c"}).to_string().into_bytes(),
    ));
    assert_eq!((status, v), (StatusCode::OK, json!({"cancelled": true})));
    let (status, v) = rt.block_on(first).expect("joined");
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("abandoned at round"),
        "{v}"
    );
    // Nothing left to cancel.
    let (_, v) = post(&app, "/api/cancel", json!({"tab": "c"}));
    assert_eq!(v, json!({"cancelled": false}));
}

#[test]
fn a_watched_exact_solve_gives_the_numbers_odds_gives() {
    let app = App::new();
    let q = odds_question(
        "gateway.ensemble",
        &["pcs=[{trait = 3}, {trait = 3}]", "ladder=50"],
    );
    assert_eq!(post_text(&app, "/api/answer", slow("w")), odds_json(&q));
}

#[test]
fn progress_and_cancel_read_only_a_tab() {
    let app = App::new();
    for body in [
        json!({}),
        json!({"tab": 3}),
        json!({"tab": ""}),
        json!({"tab": "x", "mechanic": "gateway.challenge"}),
        json!(["tab"]),
    ] {
        for path in ["/api/progress", "/api/cancel"] {
            let (status, v) = post(&app, path, body.clone());
            assert_eq!(status, StatusCode::BAD_REQUEST, "{path} {body}: {v}");
            assert!(v["error"].as_str().unwrap().contains("tab"), "{v}");
        }
    }
    let (status, v) = post(&app, "/api/progress", json!({"tab": "nobody"}));
    assert_eq!((status, v), (StatusCode::OK, json!({"running": false})));
}

#[test]
fn check_says_what_answer_would_without_solving() {
    let app = App::new();
    let (status, v) = post(&app, "/api/check", slow("k"));
    assert_eq!(
        (status, v),
        (StatusCode::OK, json!({"ok": true, "configs": 1}))
    );
    let bad = json!({"mechanic": "gateway.scene",
                     "params": {"a.policy": "[{ effect = \"climb\" }]"}});
    let (status, checked) = post(&app, "/api/check", bad.clone());
    assert_eq!(status, StatusCode::BAD_REQUEST, "{checked}");
    let (_, answered) = post(&app, "/api/answer", bad);
    assert_eq!(checked, answered);
    assert_eq!(checked["field"], "a.policy");
    let message = checked["error"].as_str().unwrap();
    assert!(
        message.contains("rule 1") && message.contains("\"climb\" is not an effect"),
        "{message}"
    );
    // A sweep's every config is built.
    let (status, v) = post(
        &app,
        "/api/check",
        json!({"mechanic": "gateway.challenge", "sweep": {"actor.trait": [1, 2, 3]}}),
    );
    assert_eq!(
        (status, v),
        (StatusCode::OK, json!({"ok": true, "configs": 3}))
    );
}

/// The text without whitespace or `#` comments, for "appears in its
/// source" (the manual comments its example's rules).
fn squeezed(s: &str) -> String {
    s.lines()
        .map(|l| l.split('#').next().unwrap_or_default())
        .flat_map(|l| l.chars())
        .filter(|c| !c.is_whitespace())
        .collect()
}

#[test]
fn every_policy_has_forms_and_examples_from_its_sources() {
    let app = App::new();
    let root = env!("CARGO_MANIFEST_DIR");
    let mut policies = Vec::new();
    let mut checked = 0;
    for m in systems::registry() {
        for p in m.params() {
            let forms = examples::forms(m.name(), p.path);
            let xs = examples::examples(m.name(), p.path);
            // A value written as rules is a policy, and gets the editor.
            if let ParamKind::Custom { expects } = p.kind
                && expects.contains("rule")
            {
                assert!(!forms.is_empty(), "{} {} has no forms", m.name(), p.path);
                policies.push(format!("{} {}", m.name(), p.path));
            } else {
                assert!(forms.is_empty(), "{} {} is no policy", m.name(), p.path);
            }
            if !forms.is_empty() {
                assert!(!xs.is_empty(), "{} {} has no example", m.name(), p.path);
            }
            for x in xs {
                let text = std::fs::read_to_string(format!("{root}/{}", x.source))
                    .unwrap_or_else(|e| panic!("{}: {e}", x.source));
                assert!(
                    squeezed(&text).contains(&squeezed(x.value)),
                    "{} {}: {:?} is not in {}",
                    m.name(),
                    p.path,
                    x.value,
                    x.source
                );
                // Accepted by the mechanic (a skirmish or an ensemble
                // needs its PCs: their own example).
                let mut params = json!({ (p.path): x.value });
                let pcs = examples::examples(m.name(), "pcs");
                if p.path != "pcs" && !pcs.is_empty() {
                    params["pcs"] = json!(pcs[0].value);
                }
                let (status, v) = post(
                    &app,
                    "/api/check",
                    json!({"mechanic": m.name(), "params": params}),
                );
                assert_eq!(status, StatusCode::OK, "{} {}: {v}", m.name(), x.label);
                checked += 1;
            }
        }
    }
    assert_eq!(policies.len(), 17, "{policies:?}");
    assert!(checked >= 20, "{checked}");
}

#[test]
fn a_policy_example_changes_the_answer_as_odds_says() {
    let app = App::new();
    let rush = examples::examples("gateway.scene", "a.policy")
        .iter()
        .find(|x| x.label.starts_with("rush"))
        .unwrap();
    let q = odds_question("gateway.scene", &[&format!("a.policy={}", rush.value)]);
    let text = post_text(
        &app,
        "/api/answer",
        json!({"mechanic": "gateway.scene", "params": {"a.policy": rush.value}}),
    );
    assert_eq!(text, odds_json(&q));
    let p = |v: &Value| v["configs"][0]["metrics"][0]["value"].as_f64().unwrap();
    let (_, plain) = post(&app, "/api/answer", json!({"mechanic": "gateway.scene"}));
    let with: Value = serde_json::from_str(&text).unwrap();
    assert!(
        (p(&with) - p(&plain)).abs() > 0.01,
        "{} {}",
        p(&with),
        p(&plain)
    );
}

#[test]
fn the_registry_carries_the_policy_editor() {
    let app = App::new();
    let (_, v) = runtime().block_on(call(&app, "GET", "/api/mechanics", vec![]));
    let scene = v
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "gateway.scene")
        .unwrap();
    let policy = scene["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["key"] == "a.policy")
        .unwrap();
    assert_eq!(policy["policy"], true);
    assert_eq!(policy["forms"].as_array().unwrap().len(), 3);
    let labels: Vec<&str> = policy["examples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["label"].as_str().unwrap())
        .collect();
    assert!(labels.iter().any(|l| l.starts_with("rush")), "{labels:?}");
    assert!(
        policy["examples"][0]["source"]
            .as_str()
            .unwrap()
            .starts_with("scenarios/")
    );
}

#[test]
fn an_exact_solve_stops_at_the_time_limit() {
    let app = App::with_limit(Duration::from_millis(100));
    let started = Instant::now();
    let (status, v) = post(&app, "/api/answer", slow("l"));
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let message = v["error"].as_str().unwrap();
    assert!(
        message.contains("exact solve stopped at the workbench's time limit")
            && message.contains("abandoned at round")
            && message.contains("oddsmith run"),
        "{message}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// A sweep of slow exact configs (solved in parallel on the request's own
/// watched pool).
fn slow_sweep(tab: &str, ladders: &[i64]) -> Value {
    json!({"mechanic": "gateway.ensemble",
           "params": {"pcs": "[{trait = 3}, {trait = 3}]"},
           "sweep": {"ladder": ladders},
           "tab": tab})
}

#[test]
fn a_sweeps_parallel_exact_solves_report_and_stop_too() {
    let app = App::new();
    let rt = runtime();
    let body = slow_sweep("s", &[44, 45, 46, 47, 48, 49, 50]);
    let first = spawn_post(&rt, &app, "/api/sweep", body);
    let seen = rt.block_on(first_rounds(&app, "s"));
    assert_eq!(seen["configs"], 7, "{seen}");
    let (_, v) = post(&app, "/api/cancel", json!({"tab": "s"}));
    assert_eq!(v, json!({"cancelled": true}));
    let (status, v) = rt.block_on(first).expect("joined");
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("abandoned at round"),
        "{v}"
    );
    // Run to its end, the sweep's numbers are `odds`'s.
    let text = post_text(&app, "/api/sweep", slow_sweep("s", &[20, 30]));
    let table: Value = serde_json::from_str(&text).unwrap();
    let q = odds_question(
        "gateway.ensemble",
        &["pcs=[{trait = 3}, {trait = 3}]", "ladder=20,30"],
    );
    let odds: Value = serde_json::from_str(&odds_json(&q)).unwrap();
    assert!(table["answer"] == odds, "the sweep's answer is not odds'");
}
