//! The page's side channels while an answer is computed: what a tab's
//! running request has done (`POST /api/progress`), stopping it
//! (`POST /api/cancel`), and checking a body without answering it
//! (`POST /api/check`: a policy being typed is validated at once, even
//! while a slow exact solve runs).

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Value, json};

use super::app::{self, App};
use super::body::{self, Shape};
use super::error::{self as response, ApiError};
use super::read::Raw;

/// The `tab` of a `{"tab": "…"}` body.
fn tab_of(bytes: &[u8]) -> Result<String, ApiError> {
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad(format!("the body is not JSON: {e}")))?;
    let Value::Object(body) = value else {
        return Err(ApiError::bad("the body is a JSON object {\"tab\": \"…\"}"));
    };
    if let Some(k) = body.keys().find(|k| k.as_str() != "tab") {
        return Err(ApiError::bad(format!(
            "{k:?} is not a key of the body; allowed: tab"
        )));
    }
    match body.get("tab") {
        Some(Value::String(t)) if !t.is_empty() => Ok(t.clone()),
        Some(v) => Err(ApiError::bad(format!("tab: {v} is not a non-empty string")).at("tab")),
        None => Err(
            ApiError::bad("say which tab: {\"tab\": \"…\"} (the id the requests sent)").at("tab"),
        ),
    }
}

/// `{"tab": …}` → what its running request has done: `{"running": true,
/// "what", "phase", "elapsed_ms", "configs", "solved", "round", "states",
/// "in_play", "trials", "trials_done"}`, or `{"running": false}`.
pub async fn progress(State(app): State<App>, Raw(bytes): Raw) -> Response {
    let tab = match tab_of(&bytes) {
        Ok(t) => t,
        Err(e) => return e.into_response(),
    };
    match app.jobs.progress(&tab) {
        Some(s) => response::json_response(StatusCode::OK, &s),
        None => response::json_response(StatusCode::OK, &json!({"running": false})),
    }
}

/// `{"tab": …}` → stop its running request (it answers 409);
/// `{"cancelled": whether one ran}`.
pub async fn cancel(State(app): State<App>, Raw(bytes): Raw) -> Response {
    match tab_of(&bytes) {
        Ok(tab) => {
            response::json_response(StatusCode::OK, &json!({"cancelled": app.jobs.cancel(&tab)}))
        }
        Err(e) => e.into_response(),
    }
}

#[derive(Serialize)]
struct Checked {
    ok: bool,
    configs: usize,
}

/// The body of `/api/answer` (or `/api/sweep`), read and every config
/// checked, nothing built or solved: `{"ok": true, "configs": n}`, or the 400 the
/// answer would give for a bad value.
pub async fn check(State(app): State<App>, Raw(bytes): Raw) -> Response {
    let is_sweep = serde_json::from_slice::<Value>(&bytes)
        .ok()
        .is_some_and(|v| v.get("sweep").is_some());
    let shape = if is_sweep {
        Shape::Sweep
    } else {
        Shape::Answer
    };
    let ask = match body::parse(&bytes, shape) {
        Ok(a) => a,
        Err(e) => return e.into_response(),
    };
    // No tab: a check must not cancel the answer it runs beside.
    app::compute(&app, None, move |_| {
        let q = app::question(&ask)?;
        let n = q.config_count();
        for i in 0..n {
            let (_, values) = q.config(i);
            q.mechanic
                .check(&values)
                .map_err(|e| app::param_error(&q, e.into()))?;
        }
        Ok(Checked {
            ok: true,
            configs: n,
        })
    })
    .await
}
