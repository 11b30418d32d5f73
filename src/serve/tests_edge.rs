//! The server's edge, in-process: only requests to its own address, from
//! its own page or no page, with JSON bodies, get in; every error (413,
//! 405, 404, 415, 421, 403, 503) is `{"error": …}`; `/api/answer` answers
//! one config and the trial cap counts configs that fall back to Monte
//! Carlo; every face's mode words are `run --mode`'s; `/api/tune`'s
//! errors name the body's fields, not the command line's flags; and
//! computing requests past the bound get a 503 with Retry-After.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};
use tower::ServiceExt;

use super::guard::Guard;
use super::tests::{HOST, call, post, runtime};
use super::{App, router};

/// A request with exactly these headers; the status, the headers and the
/// body read as JSON (`Value::Null` when it is not JSON).
async fn send(
    app: &App,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> (StatusCode, axum::http::HeaderMap, Value) {
    let mut req = Request::builder().method(method).uri(path);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let req = req.body(Body::from(body)).expect("a request");
    let resp = router(app.clone()).oneshot(req).await.expect("infallible");
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = axum::body::to_bytes(resp.into_body(), 64 << 20)
        .await
        .expect("a body");
    (
        status,
        headers,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn answer_body() -> Vec<u8> {
    json!({"expression": "3d6"}).to_string().into_bytes()
}

const JSON: (&str, &str) = ("content-type", "application/json");

/// The documented error shape: `{"error": "…", "field": …}`.
fn is_error(v: &Value) -> bool {
    v["error"].as_str().is_some_and(|e| !e.is_empty())
        && v.as_object().is_some_and(|o| o.contains_key("field"))
}

#[test]
fn only_the_address_served_is_answered() {
    let app = App::new();
    let rt = runtime();
    for host in [
        "127.0.0.1:7878",
        "localhost:7878",
        "[::1]:7878",
        "LOCALHOST:7878",
    ] {
        let (status, _, v) = rt.block_on(send(
            &app,
            "POST",
            "/api/answer",
            &[("host", host), JSON],
            answer_body(),
        ));
        assert_eq!(status, StatusCode::OK, "{host}: {v}");
    }
    // Another name (a DNS-rebinding page), another port, none at all.
    for host in [
        Some("evil.example:7878"),
        Some("127.0.0.1:8080"),
        Some("127.0.0.1"),
        None,
    ] {
        let mut headers = vec![JSON];
        if let Some(h) = host {
            headers.push(("host", h));
        }
        let (status, _, v) =
            rt.block_on(send(&app, "POST", "/api/answer", &headers, answer_body()));
        assert_eq!(status, StatusCode::MISDIRECTED_REQUEST, "{host:?}: {v}");
        assert!(is_error(&v), "{v}");
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .contains("http://127.0.0.1:7878/"),
            "{v}"
        );
        // GETs too: the page and the registry are read the same way.
        let headers: Vec<(&str, &str)> = host.map(|h| ("host", h)).into_iter().collect();
        let (status, _, _) = rt.block_on(send(&app, "GET", "/api/mechanics", &headers, vec![]));
        assert_eq!(status, StatusCode::MISDIRECTED_REQUEST, "{host:?}");
    }
}

#[test]
fn a_host_flag_opens_its_own_name() {
    let lan = SocketAddr::from(([192, 168, 1, 5], 7878));
    let g = Guard::serving(lan, Some("192.168.1.5"));
    assert!(g.accepts("192.168.1.5:7878"));
    assert!(!g.accepts("localhost:7878"), "not bound to loopback");
    assert!(!g.accepts("evil.example:7878"));
    // A name: that name (and, on loopback, the loopback names).
    let named = Guard::serving(
        SocketAddr::from(([127, 0, 0, 1], 9000)),
        Some("Workbench.local"),
    );
    assert!(named.accepts("workbench.local:9000"));
    assert!(named.accepts("127.0.0.1:9000"));
    assert!(!named.accepts("workbench.local:9001"));
    // Every address: any IP literal with the port, never another name.
    let all = Guard::serving(SocketAddr::from(([0, 0, 0, 0], 7878)), Some("0.0.0.0"));
    assert!(all.accepts("10.0.0.7:7878"));
    assert!(all.accepts("[fe80::1]:7878"));
    assert!(all.accepts("localhost:7878"));
    assert!(!all.accepts("evil.example:7878"));
    assert!(!all.accepts("10.0.0.7:7879"));
    // Port 80 goes unwritten.
    let http = Guard::serving(SocketAddr::from(([127, 0, 0, 1], 80)), None);
    assert!(http.accepts("localhost"));
    assert!(http.accepts("127.0.0.1:80"));
}

#[test]
fn another_sites_page_is_refused() {
    let app = App::new();
    let rt = runtime();
    // The page's own origin, and a script that sends none.
    for origin in [
        Some("http://127.0.0.1:7878"),
        Some("http://localhost:7878"),
        None,
    ] {
        let mut headers = vec![("host", HOST), JSON];
        if let Some(o) = origin {
            headers.push(("origin", o));
        }
        let (status, _, v) =
            rt.block_on(send(&app, "POST", "/api/answer", &headers, answer_body()));
        assert_eq!(status, StatusCode::OK, "{origin:?}: {v}");
    }
    for origin in [
        "http://evil.example",
        "https://127.0.0.1:7878",
        "http://127.0.0.1:7879",
        "null",
        "http://127.0.0.1:7878/path",
    ] {
        let headers = [("host", HOST), JSON, ("origin", origin)];
        let (status, _, v) =
            rt.block_on(send(&app, "POST", "/api/answer", &headers, answer_body()));
        assert_eq!(status, StatusCode::FORBIDDEN, "{origin}: {v}");
        assert!(is_error(&v), "{v}");
        assert!(v["error"].as_str().unwrap().contains("another site"), "{v}");
    }
}

#[test]
fn a_post_must_be_json() {
    let app = App::new();
    let rt = runtime();
    // text/plain is what a page may send anywhere without asking first.
    for kind in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        Some("multipart/form-data; boundary=x"),
        None,
    ] {
        let mut headers = vec![("host", HOST)];
        if let Some(k) = kind {
            headers.push(("content-type", k));
        }
        for path in ["/api/answer", "/api/tune", "/api/cancel"] {
            let (status, _, v) = rt.block_on(send(&app, "POST", path, &headers, answer_body()));
            assert_eq!(
                status,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "{path} {kind:?}: {v}"
            );
            assert!(is_error(&v), "{v}");
            assert!(
                v["error"].as_str().unwrap().contains("application/json"),
                "{v}"
            );
        }
    }
    let headers = [
        ("host", HOST),
        ("content-type", "Application/JSON; charset=utf-8"),
    ];
    let (status, _, v) = rt.block_on(send(&app, "POST", "/api/answer", &headers, answer_body()));
    assert_eq!(status, StatusCode::OK, "{v}");
}

#[test]
fn every_error_is_json() {
    let app = App::new();
    let rt = runtime();
    let headers = [("host", HOST), JSON];
    // 413: over a megabyte.
    let big = format!(
        "{{\"expression\": \"3d6\", \"tab\": \"{}\"}}",
        "x".repeat(2 << 20)
    );
    let (status, _, v) = rt.block_on(send(
        &app,
        "POST",
        "/api/answer",
        &headers,
        big.into_bytes(),
    ));
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(is_error(&v), "{v}");
    assert!(v["error"].as_str().unwrap().contains("1 MB"), "{v}");
    // 405: the wrong method, on the API and on the page.
    for (method, path) in [
        ("GET", "/api/answer"),
        ("PUT", "/api/tune"),
        ("DELETE", "/"),
        ("POST", "/app.js"),
    ] {
        let (status, _, v) = rt.block_on(send(&app, method, path, &headers, vec![]));
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
        assert!(is_error(&v), "{method} {path}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains("POST /api/answer"),
            "{v}"
        );
    }
    // 404.
    let (status, _, v) = rt.block_on(send(&app, "GET", "/nothing", &headers, vec![]));
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(is_error(&v), "{v}");
}

#[test]
fn the_answer_endpoint_answers_one_config() {
    let app = App::new();
    // Before: 1,000 configs ran for 30 s, then failed at the time limit.
    let started = Instant::now();
    let (status, v) = post(
        &app,
        "/api/answer",
        json!({"expression": "{n}d6", "params": {"n": "1..1000"}}),
    );
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["field"], "n", "{v}");
    assert!(v["error"].as_str().unwrap().contains("/api/sweep"), "{v}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    for body in [
        json!({"mechanic": "gateway.challenge", "params": {"actor.trait": "1,2,3"}}),
        json!({"mechanic": "gateway.challenge", "params": {"actor.trait": "0..4"}}),
    ] {
        let (status, v) = post(&app, "/api/answer", body.clone());
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(v["field"], "actor.trait", "{v}");
        assert!(
            v["error"].as_str().unwrap().contains("use /api/sweep")
                || v["error"].as_str().unwrap().contains("to /api/sweep"),
            "{v}"
        );
        // /api/check says what /api/answer would.
        let (status, c) = post(&app, "/api/check", body.clone());
        assert_eq!(
            (status, &c["field"]),
            (StatusCode::BAD_REQUEST, &v["field"]),
            "{c}"
        );
    }
    // The same sweep is the sweep endpoint's.
    let (status, v) = post(
        &app,
        "/api/sweep",
        json!({"mechanic": "gateway.challenge", "sweep": {"actor.trait": [1, 2, 3]}}),
    );
    assert_eq!(status, StatusCode::OK, "{v}");
}

#[test]
fn the_trial_cap_counts_configs_that_fall_back() {
    let app = App::new();
    // dice.roll has an exact solver, but not for the product of two
    // 30,000-sided dice (9e8 count operations, past its budget): each
    // config falls back to Monte Carlo, and 20M trials × 3 configs is past
    // the 50M a request may run. Before, such configs counted as exact (0).
    let started = Instant::now();
    let (status, v) = post(
        &app,
        "/api/sweep",
        json!({"expression": "1d{n}*1d{n} >= 5", "sweep": {"n": [30000, 30001, 30002]}, "trials": 20_000_000}),
    );
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["field"], "trials", "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(
        e.contains("60000000 trials") && e.contains("50000000"),
        "{e}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    // Under the cap it runs.
    let (status, v) = post(
        &app,
        "/api/sweep",
        json!({"expression": "1d{n}*1d{n} >= 5", "sweep": {"n": [30000, 30001]}, "trials": 2000}),
    );
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["answer"]["configs"][0]["method"], "monte-carlo", "{v}");
}

#[test]
fn every_mode_word_of_run_is_taken() {
    let app = App::new();
    let ask = |mode: &str| {
        post(
            &app,
            "/api/answer",
            json!({"mechanic": "gateway.challenge", "params": {"actor.trait": 3}, "mode": mode, "trials": 5000}),
        )
    };
    let (status, v) = ask("exact");
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["configs"][0]["method"], "exact");
    let (status, v) = ask("mc");
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["configs"][0]["method"], "monte-carlo");
    assert_eq!(v["configs"][0]["trials"], 5000);
    let (status, v) = ask("both");
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["configs"][0]["metrics"][0]["check"]["trials"], 5000,
        "{v}"
    );
    let (status, v) = ask("auto");
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["configs"][0]["method"], "exact");
    let (status, v) = ask("check");
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(v["field"], "mode");
    assert!(
        v["error"].as_str().unwrap().contains(
            "allowed: auto (exact where a solver covers the values, else Monte Carlo), exact"
        ),
        "{v}"
    );
    // Mode exact where no solver answers: a 400 at mode that says why.
    let mc_only = oddsmith::systems::registry()
        .iter()
        .find(|m| !m.has_exact())
        .unwrap()
        .name();
    let (status, v) = post(
        &app,
        "/api/answer",
        json!({"mechanic": mc_only, "mode": "exact"}),
    );
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["field"], "mode", "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("no exact answer"),
        "{v}"
    );
    // The tune endpoint takes the same words.
    for mode in ["auto", "exact", "mc", "both"] {
        let (status, v) = post(
            &app,
            "/api/tune",
            json!({"mechanic": "gateway.challenge", "params": {"actor.trait": 3},
                   "knob": "opposition.challenge", "metric": "p_success", "target": 0.5,
                   "range": "1..6", "mode": mode, "trials": 2000}),
        );
        assert_eq!(status, StatusCode::OK, "{mode}: {v}");
    }
}

#[test]
fn tune_errors_name_the_bodys_fields() {
    let app = App::new();
    let base = json!({"mechanic": "gateway.challenge", "params": {"actor.trait": 3},
                      "knob": "opposition.challenge", "metric": "p_success", "target": 0.5});
    let with = |changes: Value| {
        let mut b = base.clone();
        for (k, v) in changes.as_object().unwrap() {
            if v.is_null() {
                b.as_object_mut().unwrap().remove(k);
            } else {
                b[k] = v.clone();
            }
        }
        b
    };
    for (body, field) in [
        (with(json!({"knob": "opposition.nonsense"})), "knob"),
        (with(json!({"knob": null})), "knob"),
        (with(json!({"metric": "p_nothing"})), "metric"),
        (with(json!({"metric": null})), "metric"),
        (with(json!({"target": null})), "target"),
        (with(json!({"target": 1.5})), "target"),
        (with(json!({"at_least": 0.4})), "at_least"),
        (with(json!({"target": null, "at_most": -2})), "at_most"),
        (with(json!({"within": -1})), "within"),
        (with(json!({"range": "0-3"})), "range"),
        (with(json!({"range": "50..60"})), "range"),
        (with(json!({"mechanic": "gateway.nothing"})), "mechanic"),
        (with(json!({"params": {"actor.trait": 99}})), "actor.trait"),
    ] {
        let (status, v) = post(&app, "/api/tune", body.clone());
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(v["field"], field, "{body}: {v}");
        let e = v["error"].as_str().unwrap();
        // Before: "command line: `tune.target` …", "--knob is missing", "give one of --target X …".
        assert!(
            !e.contains("command line") && !e.contains("--"),
            "{body}: {e}"
        );
        assert!(!e.contains("tune."), "{body}: {e}");
        assert!(e.contains(field), "{body}: {e}");
    }
}

#[test]
fn computing_requests_past_the_bound_get_503_with_retry_after() {
    // One place, a short wait: a second request while a long one computes.
    let app = App::with_limit(Duration::from_secs(60)).with_heavy(1, Duration::from_millis(200));
    let rt = runtime();
    let mc = oddsmith::systems::registry()
        .iter()
        .find(|m| !m.has_exact())
        .unwrap()
        .name();
    let long = json!({"mechanic": mc, "trials": 20_000_000, "tab": "long"});
    let first = rt.spawn({
        let app = app.clone();
        async move { call(&app, "POST", "/api/answer", long.to_string().into_bytes()).await }
    });
    std::thread::sleep(Duration::from_millis(300));
    let (status, headers, v) = rt.block_on(send(
        &app,
        "POST",
        "/api/answer",
        &[("host", HOST), JSON],
        json!({"expression": "3d6", "tab": "other"})
            .to_string()
            .into_bytes(),
    ));
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert_eq!(headers[header::RETRY_AFTER], "1");
    assert!(
        is_error(&v) && v["error"].as_str().unwrap().contains("busy"),
        "{v}"
    );
    // The light side channels still answer, and cancel frees the place.
    let (status, v) = post(&app, "/api/cancel", json!({"tab": "long"}));
    assert_eq!(
        (status, &v["cancelled"]),
        (StatusCode::OK, &json!(true)),
        "{v}"
    );
    let (status, _) = rt.block_on(first).expect("joined");
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, v) = post(&app, "/api/answer", json!({"expression": "3d6"}));
    assert_eq!(status, StatusCode::OK, "{v}");
}
