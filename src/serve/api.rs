//! The router: the page and its assets, and the JSON API. Every answer is
//! the library's [`Answer`] of the command line's questions; every error
//! is a 400 with the command line's message as JSON (`{"error": …,
//! "field": …}`), never a 500: a panic would be a bug, caught and said.

use axum::Router;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{Method, StatusCode, Uri, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;

use oddsmith::answer::Answer;

use super::body::{self, Shape};
use super::read::Raw;
use super::{best as best_body, error, guard, live, registry, scenario, tune as tune_body};

use super::app::{App, MAX_BODY, ask, compute, question};
use super::error::{ApiError, json_response};

const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const BEST_SCRIPT: &str = include_str!("assets/best.js");
const SWEEP_SCRIPT: &str = include_str!("assets/sweep.js");
const STYLE: &str = include_str!("assets/app.css");

/// The workbench's routes over `app`.
pub fn router(app: App) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(INDEX, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(SCRIPT, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/sweep.js",
            get(|| async { page(SWEEP_SCRIPT, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/best.js",
            get(|| async { page(BEST_SCRIPT, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/app.css",
            get(|| async { page(STYLE, "text/css; charset=utf-8") }),
        )
        .route("/api/mechanics", get(mechanics))
        .route("/api/answer", post(answer))
        .route("/api/sweep", post(sweep))
        .route("/api/scenario", post(scenario))
        .route("/api/tune", post(tune))
        .route("/api/best", post(best))
        .route("/api/check", post(live::check))
        .route("/api/progress", post(live::progress))
        .route("/api/cancel", post(live::cancel))
        .fallback(|| async {
            ApiError {
                status: StatusCode::NOT_FOUND,
                message: format!("no such page; {ROUTES}"),
                field: None,
            }
        })
        .method_not_allowed_fallback(|method: Method, uri: Uri| async move {
            ApiError {
                status: StatusCode::METHOD_NOT_ALLOWED,
                message: format!("{method} {} is not allowed; {ROUTES}", uri.path()),
                field: None,
            }
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        // Only the page's own requests get past (Host, Origin, JSON).
        .layer(middleware::from_fn_with_state(
            app.guard.clone(),
            guard::layer,
        ))
        // Whatever else answers an error answers it as JSON.
        .layer(middleware::from_fn(error::json_errors))
        .with_state(app)
}

/// What the server answers, for 404 and 405.
const ROUTES: &str = "the page is GET /; the API is GET /api/mechanics and POST /api/answer, /api/sweep, /api/scenario, /api/tune, /api/best, /api/check, /api/progress, /api/cancel (JSON bodies)";

fn page(text: &'static str, kind: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

async fn mechanics() -> Response {
    json_response(StatusCode::OK, &registry::all())
}

async fn answer(State(app): State<App>, Raw(bytes): Raw) -> Response {
    let ask_ = match body::parse(&bytes, Shape::Answer) {
        Ok(a) => a,
        Err(e) => return e.into_response(),
    };
    let tab = ask_.tab.clone();
    compute(&app, tab, move |ticket| {
        let q = question(&ask_)?;
        ask(&q, ticket)
    })
    .await
}

/// A sweep's table: the axes, and each headline metric's value (and
/// interval) per config, in sweep order (last axis fastest).
#[derive(Serialize)]
pub struct SweepTable {
    pub axes: Vec<Axis>,
    pub metrics: Vec<MetricColumn>,
    pub answer: Answer,
}

#[derive(Serialize)]
pub struct Axis {
    pub param: String,
    pub values: Vec<String>,
}

#[derive(Serialize)]
pub struct MetricColumn {
    pub name: String,
    pub probability: bool,
    pub values: Vec<f64>,
    pub lo: Vec<Option<f64>>,
    pub hi: Vec<Option<f64>>,
}

async fn sweep(State(app): State<App>, Raw(bytes): Raw) -> Response {
    let ask_ = match body::parse(&bytes, Shape::Sweep) {
        Ok(a) => a,
        Err(e) => return e.into_response(),
    };
    let tab = ask_.tab.clone();
    compute(&app, tab, move |ticket| {
        let q = question(&ask_)?;
        let a = ask(&q, ticket)?;
        let axes = q
            .sweep
            .iter()
            .map(|(k, vs)| Axis {
                param: k.clone(),
                values: vs.iter().map(|v| v.to_string()).collect(),
            })
            .collect();
        let names: Vec<(String, bool)> = a
            .configs
            .first()
            .map(|c| {
                c.metrics
                    .iter()
                    .map(|m| (m.name.clone(), m.probability))
                    .collect()
            })
            .unwrap_or_default();
        let metrics = names
            .into_iter()
            .map(|(name, probability)| {
                let col: Vec<_> = a.configs.iter().map(|c| c.metric(&name)).collect();
                MetricColumn {
                    values: col
                        .iter()
                        .map(|m| m.map_or(f64::NAN, |m| m.value))
                        .collect(),
                    lo: col
                        .iter()
                        .map(|m| m.and_then(|m| m.interval).map(|i| i.0))
                        .collect(),
                    hi: col
                        .iter()
                        .map(|m| m.and_then(|m| m.interval).map(|i| i.1))
                        .collect(),
                    name,
                    probability,
                }
            })
            .collect();
        Ok(SweepTable {
            axes,
            metrics,
            answer: a,
        })
    })
    .await
}

/// The knob value that meets a target, per combination of the sweep
/// (`oddsmith tune MECHANIC --knob …`).
async fn tune(State(app): State<App>, Raw(bytes): Raw) -> Response {
    let ask_ = match tune_body::parse(&bytes) {
        Ok(a) => a,
        Err(e) => return e.into_response(),
    };
    let tab = ask_.tab.clone();
    compute(&app, tab, move |ticket| tune_body::answer(&ask_, ticket)).await
}

/// Best play for one config (`oddsmith best MECHANIC key=value …`).
async fn best(State(app): State<App>, Raw(bytes): Raw) -> Response {
    let ask_ = match best_body::parse(&bytes) {
        Ok(a) => a,
        Err(e) => return e.into_response(),
    };
    let tab = ask_.tab.clone();
    compute(&app, tab, move |ticket| best_body::answer(&ask_, ticket)).await
}

#[derive(Serialize)]
struct ScenarioFile {
    toml: String,
    /// A file name for the download.
    file: String,
}

async fn scenario(State(app): State<App>, Raw(bytes): Raw) -> Response {
    let ask_ = match body::parse(&bytes, Shape::Scenario) {
        Ok(a) => a,
        Err(e) => return e.into_response(),
    };
    let tab = ask_.tab.clone();
    compute(&app, tab, move |ticket| {
        let q = question(&ask_)?;
        // The stub's bounds sit around the value the page shows (for one
        // config; a sweep's stub is left wide).
        let a = ask(&q, ticket)?;
        let first = a.configs.first().and_then(|c| c.metrics.first());
        let metric = first.map(|m| m.name.clone()).unwrap_or_default();
        let shown = match a.configs.as_slice() {
            [one] => one.metrics.first().map(|m| (m.value, m.probability)),
            _ => None,
        };
        let text = scenario::toml(&q, &metric, shown);
        let file = format!("{}.toml", q.mechanic.name().replace('.', "-"));
        Ok(ScenarioFile { toml: text, file })
    })
    .await
}

#[cfg(test)]
pub const INDEX_FOR_TESTS: &str = INDEX;
/// Every script the page loads.
#[cfg(test)]
pub const SCRIPTS_FOR_TESTS: [&str; 3] = [SCRIPT, SWEEP_SCRIPT, BEST_SCRIPT];
