//! A fuzz of every endpoint, in-process (`oneshot`), with a fixed seed:
//! bodies made from the schema (real mechanics, keys and metrics with
//! random values), broken bytes, and the headers the server checks (a
//! foreign Host or Origin, a body that is not JSON, the wrong method).
//! Never a 500, never a panic, never a hang, and every error is the
//! documented `{"error": …, "field": …}`. A sweep of `/api/tune` over
//! every metric of a few mechanics, complements included, does the same.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use tower::ServiceExt;

use oddsmith::systems::{self, ParamKind};

use super::tests::{HOST, call, runtime};
use super::{App, router};

/// A small generator for the fuzz (xorshift: no crate, fixed seed).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

fn random_value(rng: &mut Rng, depth: u32) -> Value {
    match rng.below(if depth > 2 { 6 } else { 8 }) {
        0 => json!(rng.next() as i64),
        1 => json!(rng.below(20) as i64 - 5),
        2 => json!(*rng.pick(&[
            "", "d8 d6 d6", "3d6", "{n}d6", "greedy", "always", "x..y", "1..3", "a,b", "[1,",
            "\u{0}", "é€", "true", "auto", "exact", "mc", "both"
        ])),
        3 => json!(rng.below(2) == 0),
        4 => Value::Null,
        5 => json!(f64::from(rng.below(1000) as u32) / 7.0),
        6 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..rng.below(3))
                .map(|i| (format!("k{i}"), random_value(rng, depth + 1)))
                .collect(),
        ),
    }
}

/// Random values for a few of `m`'s keys (and now and then one it lacks).
fn random_params(rng: &mut Rng, m: &dyn systems::Mechanic) -> serde_json::Map<String, Value> {
    let mut params = serde_json::Map::new();
    for _ in 0..rng.below(4) {
        if m.params().is_empty() {
            break;
        }
        let key = if rng.below(5) == 0 {
            "no.such".to_string()
        } else {
            rng.pick(m.params()).path.to_string()
        };
        let v = if rng.below(2) == 0 {
            // The key's default or a neighbour of an integer: near-valid.
            match rng.below(3) {
                0 => json!(rng.below(12) as i64 - 2),
                1 => json!(m.params()[0].default.to_string().trim_matches('"')),
                _ => random_value(rng, 0),
            }
        } else {
            random_value(rng, 0)
        };
        params.insert(key, v);
    }
    params
}

/// A plausible body: a real mechanic and real keys with random values.
fn random_body(rng: &mut Rng) -> Value {
    let m = *rng.pick(systems::registry());
    let mut body = serde_json::Map::new();
    match rng.below(10) {
        0 => body.insert(
            "expression".into(),
            json!(*rng.pick(&[
                "4d6kh3",
                "3d6 >= {t}",
                "d",
                "2d8+",
                "{n}d{n}",
                "(1d6)*(1d6)",
                "100d100"
            ])),
        ),
        _ => body.insert("mechanic".into(), json!(m.name())),
    };
    body.insert("params".into(), Value::Object(random_params(rng, m)));
    // Few trials: the fuzz looks for crashes, not numbers.
    body.insert("trials".into(), json!(1 + rng.below(3000)));
    if rng.below(4) == 0 {
        body.insert("mode".into(), random_value(rng, 0));
    }
    if rng.below(4) == 0 {
        body.insert("seed".into(), random_value(rng, 0));
    }
    if rng.below(5) == 0 {
        body.insert("tab".into(), json!("fuzz"));
    }
    if rng.below(8) == 0 {
        body.insert("sweep".into(), random_value(rng, 0));
    }
    Value::Object(body)
}

/// A knob `/api/tune` can turn on `m` (an integer key) and a small range.
fn knob_of(m: &dyn systems::Mechanic) -> Option<(&'static str, String)> {
    m.params().iter().find_map(|p| match p.kind {
        ParamKind::Int { min, max } | ParamKind::IntOrName { min, max, .. } if max > min => {
            Some((p.path, format!("{min}..{}", max.min(min + 4))))
        }
        _ => None,
    })
}

/// Every metric name of `m`, complements (`p_fail`) included.
fn metrics_of(m: &dyn systems::Mechanic) -> Vec<String> {
    let schema = m.schema();
    let mut names: Vec<String> = schema.metrics.iter().map(|s| s.name.clone()).collect();
    names.extend(schema.complements().into_iter().map(|c| c.name));
    names
}

/// A plausible tune body: a real mechanic, knob and metric, random aims.
fn random_tune_body(rng: &mut Rng) -> Value {
    let m = *rng.pick(systems::registry());
    let mut body = serde_json::Map::new();
    body.insert("mechanic".into(), json!(m.name()));
    body.insert("params".into(), Value::Object(random_params(rng, m)));
    let (knob, range) = knob_of(m).unwrap_or(("no.knob", "0..3".into()));
    if rng.below(10) > 0 {
        body.insert("knob".into(), json!(knob));
    }
    if rng.below(3) > 0 {
        body.insert("range".into(), json!(range));
    } else {
        body.insert("range".into(), random_value(rng, 0));
    }
    let metrics = metrics_of(m);
    if rng.below(10) > 0 {
        let metric = if rng.below(6) == 0 {
            "p_nothing".to_string()
        } else {
            rng.pick(&metrics).clone()
        };
        body.insert("metric".into(), json!(metric));
    }
    for aim in ["target", "at_least", "at_most", "within"] {
        if rng.below(3) == 0 {
            let v = match rng.below(3) {
                0 => json!(rng.below(11) as f64 / 10.0),
                1 => json!(rng.below(20) as i64 - 5),
                _ => random_value(rng, 0),
            };
            body.insert(aim.into(), v);
        }
    }
    body.insert("trials".into(), json!(1 + rng.below(2000)));
    for key in ["mode", "seed", "precision", "scan", "sweep"] {
        if rng.below(6) == 0 {
            body.insert(key.into(), random_value(rng, 0));
        }
    }
    Value::Object(body)
}

/// Flip, drop or insert a few bytes.
fn mutate(rng: &mut Rng, mut bytes: Vec<u8>) -> Vec<u8> {
    for _ in 0..1 + rng.below(4) {
        if bytes.is_empty() {
            break;
        }
        let i = rng.below(bytes.len());
        match rng.below(3) {
            0 => bytes[i] = rng.next() as u8,
            1 => {
                bytes.remove(i);
            }
            _ => bytes.insert(i, *rng.pick(b"{}[]\",:0-9e.\\ ")),
        }
    }
    bytes
}

/// What a request's headers do to it: the status they alone must get, if
/// they are refused.
#[derive(Clone, Copy, Debug)]
enum Headers {
    /// The page's own: Host, Origin, JSON.
    Page,
    /// A script's: Host and JSON, no Origin.
    Script,
    ForeignHost,
    ForeignOrigin,
    PlainText,
    NoContentType,
    WrongMethod,
}

impl Headers {
    fn refused_with(self) -> Option<StatusCode> {
        match self {
            Headers::Page | Headers::Script => None,
            Headers::ForeignHost => Some(StatusCode::MISDIRECTED_REQUEST),
            Headers::ForeignOrigin => Some(StatusCode::FORBIDDEN),
            Headers::PlainText | Headers::NoContentType => Some(StatusCode::UNSUPPORTED_MEDIA_TYPE),
            Headers::WrongMethod => Some(StatusCode::METHOD_NOT_ALLOWED),
        }
    }
}

async fn send(app: &App, path: &str, how: Headers, body: Vec<u8>) -> (StatusCode, Vec<u8>) {
    let method = if matches!(how, Headers::WrongMethod) {
        "GET"
    } else {
        "POST"
    };
    let mut req = Request::builder().method(method).uri(path);
    req = match how {
        Headers::ForeignHost => req.header("host", "rebound.example:7878"),
        _ => req.header("host", HOST),
    };
    req = match how {
        Headers::Page => req.header("origin", "http://127.0.0.1:7878"),
        Headers::ForeignOrigin => req.header("origin", "http://evil.example"),
        _ => req,
    };
    req = match how {
        Headers::PlainText => req.header("content-type", "text/plain;charset=UTF-8"),
        Headers::NoContentType => req,
        _ => req.header("content-type", "application/json"),
    };
    let req = req.body(Body::from(body)).expect("a request");
    let resp = router(app.clone()).oneshot(req).await.expect("infallible");
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 64 << 20)
        .await
        .expect("a body");
    (status, bytes.to_vec())
}

/// The documented error shape.
fn check_error(status: StatusCode, bytes: &[u8], what: &str) {
    let v: Value = serde_json::from_slice(bytes).unwrap_or_else(|_| {
        panic!(
            "{what}: {status} is not JSON: {}",
            String::from_utf8_lossy(bytes)
        )
    });
    assert!(
        v["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{what}: {status} {v}"
    );
    assert!(
        v.as_object().is_some_and(|o| o.contains_key("field")),
        "{what}: {status} {v}"
    );
}

#[test]
fn fuzzed_requests_never_give_a_500_a_panic_or_a_hang() {
    let app = App::with_limit(Duration::from_secs(2));
    let rt = runtime();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let paths = [
        "/api/answer",
        "/api/sweep",
        "/api/scenario",
        "/api/check",
        "/api/progress",
        "/api/cancel",
        "/api/tune",
    ];
    let headers = [
        Headers::ForeignHost,
        Headers::ForeignOrigin,
        Headers::PlainText,
        Headers::NoContentType,
        Headers::WrongMethod,
    ];
    let started = Instant::now();
    let mut statuses = BTreeMap::new();
    for i in 0..3000 {
        let path = *rng.pick(&paths);
        let body = if path == "/api/tune" {
            random_tune_body(&mut rng)
        } else {
            random_body(&mut rng)
        };
        let bytes = if i % 3 == 0 {
            mutate(&mut rng, body.to_string().into_bytes())
        } else {
            body.to_string().into_bytes()
        };
        // One request in eight with headers the server refuses.
        let how = match rng.below(16) {
            0 | 1 => *rng.pick(&headers),
            2..=8 => Headers::Page,
            _ => Headers::Script,
        };
        let what = format!("{how:?} {path} {}", String::from_utf8_lossy(&bytes));
        let one = Instant::now();
        let (status, answer) = rt.block_on(send(&app, path, how, bytes.clone()));
        assert!(!status.is_server_error(), "{what}: {status}");
        assert!(
            one.elapsed() < Duration::from_secs(20),
            "{what} took {:?}",
            one.elapsed()
        );
        if let Some(refused) = how.refused_with() {
            assert_eq!(status, refused, "{what}");
        }
        if status != StatusCode::OK {
            check_error(status, &answer, &what);
        }
        *statuses.entry(status.as_u16()).or_insert(0) += 1;
    }
    // Some requests were good, most were not, every refusal was seen.
    assert!(
        statuses.get(&200).copied().unwrap_or(0) > 50,
        "{statuses:?}"
    );
    assert!(
        statuses.get(&400).copied().unwrap_or(0) > 500,
        "{statuses:?}"
    );
    for refused in [403, 405, 415, 421] {
        assert!(statuses.contains_key(&refused), "{refused}: {statuses:?}");
    }
    assert!(
        started.elapsed() < Duration::from_secs(300),
        "{:?}",
        started.elapsed()
    );
    // The server still answers.
    let (status, _) = rt.block_on(call(&app, "GET", "/api/mechanics", vec![]));
    assert_eq!(status, StatusCode::OK);
    let (status, v) = rt.block_on(call(
        &app,
        "POST",
        "/api/answer",
        json!({"expression": "4d6kh3"}).to_string().into_bytes(),
    ));
    assert_eq!(status, StatusCode::OK, "{v}");
}

#[test]
fn every_metric_of_a_few_mechanics_tunes_without_a_500() {
    let app = App::with_limit(Duration::from_secs(10));
    let rt = runtime();
    let mut answered = 0;
    for name in [
        "gateway.challenge",
        "cortex.basic",
        "questworlds.contest",
        "cgg.risk",
    ] {
        let Some(m) = systems::find(name) else {
            panic!("{name} is not registered");
        };
        let (knob, range) = knob_of(m).unwrap_or_else(|| panic!("{name}: no integer knob"));
        for metric in metrics_of(m) {
            for aim in ["target", "at_least", "at_most"] {
                let body = json!({"mechanic": name, "knob": knob, "range": range,
                                  "metric": metric, aim: 0.5, "trials": 2000});
                let (status, bytes) = rt.block_on(send(
                    &app,
                    "/api/tune",
                    Headers::Page,
                    body.to_string().into_bytes(),
                ));
                let what = format!("{body}");
                assert!(
                    status == StatusCode::OK || status == StatusCode::BAD_REQUEST,
                    "{what}: {status} {}",
                    String::from_utf8_lossy(&bytes)
                );
                if status == StatusCode::OK {
                    answered += 1;
                } else {
                    check_error(status, &bytes, &what);
                }
            }
        }
    }
    assert!(answered > 10, "only {answered} tunes answered");
}
