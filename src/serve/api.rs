//! The router: the page and its assets, and the JSON API. Every answer is
//! the library's [`Answer`] of the command line's questions; every error
//! is a 400 with the command line's message as JSON (`{"error": …,
//! "field": …}`), never a 500: a panic would be a bug, caught and said.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;
use serde_json::json;

use oddsmith::answer::{self, Answer, Question};
use oddsmith::dist::watch;
use oddsmith::systems;

use super::body::{self, Ask, Shape};
use super::jobs::{CancelOnDrop, Jobs, Stopped, Ticket, Watcher};
use super::{live, registry, scenario, tune as tune_body};

/// Largest request body read (bigger ones get 413).
pub const MAX_BODY: usize = 1 << 20;
/// Most configs one request may expand to.
pub const MAX_CONFIGS: usize = 2500;
/// Most Monte Carlo trials one request may run over all its configs.
pub const MAX_TOTAL_TRIALS: u64 = 50_000_000;

/// The server's shared state.
#[derive(Clone)]
pub struct App {
    pub(super) jobs: Arc<Jobs>,
    /// How long one request may compute.
    limit: Duration,
}

impl App {
    pub fn new() -> Self {
        App::with_limit(Duration::from_secs(30))
    }

    /// With a time cap other than 30 s (tests).
    pub fn with_limit(limit: Duration) -> Self {
        App {
            jobs: Arc::new(Jobs::default()),
            limit,
        }
    }

    /// Stop all work: the server is closing.
    pub fn shut_down(&self) {
        self.jobs.shut_down();
    }
}

/// An API error: its status, the message, and the field at fault.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub field: Option<String>,
}

impl ApiError {
    pub fn bad(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
            field: None,
        }
    }

    /// Name the field at fault (the first named wins).
    pub fn at(mut self, field: &str) -> Self {
        if self.field.is_none() {
            self.field = Some(field.to_string());
        }
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": self.message, "field": self.field});
        json_response(self.status, &body)
    }
}

/// `value` as a JSON response (axum's `Json` needs a feature that would
/// also pull in its own body parsing, which the API does itself).
pub fn json_response(status: StatusCode, value: &impl Serialize) -> Response {
    match serde_json::to_vec(value) {
        Ok(bytes) => (status, [(header::CONTENT_TYPE, "application/json")], bytes).into_response(),
        // Non-finite numbers serialise as null, so this does not happen.
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot write JSON: {e}"),
        )
            .into_response(),
    }
}

const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/app.css");

/// The workbench's routes over `app`.
pub fn router(app: App) -> Router {
    Router::new()
        .route("/", get(|| async { page(INDEX, "text/html; charset=utf-8") }))
        .route(
            "/app.js",
            get(|| async { page(SCRIPT, "text/javascript; charset=utf-8") }),
        )
        .route("/app.css", get(|| async { page(STYLE, "text/css; charset=utf-8") }))
        .route("/api/mechanics", get(mechanics))
        .route("/api/answer", post(answer))
        .route("/api/sweep", post(sweep))
        .route("/api/scenario", post(scenario))
        .route("/api/tune", post(tune))
        .route("/api/check", post(live::check))
        .route("/api/progress", post(live::progress))
        .route("/api/cancel", post(live::cancel))
        .fallback(|| async {
            ApiError {
                status: StatusCode::NOT_FOUND,
                message: "no such page; the API is GET /api/mechanics, POST /api/answer, /api/sweep, /api/scenario, /api/tune, /api/check, /api/progress, /api/cancel".into(),
                field: None,
            }
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

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

/// The questions a body asks (one: the body names one mechanic or one
/// expression), through the command line.
pub fn question(ask: &Ask) -> Result<Question, ApiError> {
    let field_of = |message: &str| {
        ask.keys
            .iter()
            .find(|k| {
                let name = k.strip_prefix("vars.").unwrap_or(k);
                message.starts_with(&format!("{k} "))
                    || message.starts_with(&format!("{k}="))
                    || message.starts_with(&format!("{k}:"))
                    || message.starts_with(&format!("{name}="))
            })
            .cloned()
    };
    if ask.expression
        && (systems::find(&ask.what).is_some()
            || systems::names()
                .iter()
                .any(|n| n.split('.').next() == Some(ask.what.trim())))
    {
        return Err(ApiError::bad(format!(
            "{:?} is a mechanic's name, not a dice expression; send it as \"mechanic\"",
            ask.what
        ))
        .at("expression"));
    }
    if !ask.expression && systems::find(&ask.what).is_none() {
        let names = systems::names();
        return Err(ApiError::bad(format!(
            "no mechanic is called {:?}{}; known: {}",
            ask.what,
            systems::suggest(&ask.what, names.iter().copied()),
            names.join(", ")
        ))
        .at("mechanic"));
    }
    let asked = crate::cli::odds_questions(
        &ask.what,
        ask.words.clone(),
        ask.check,
        ask.trials,
        ask.seed,
    )
    .map_err(|e| {
        let message = format!("{e:#}");
        let field = field_of(&message).or_else(|| ask.expression.then(|| "expression".to_string()));
        let mut err = ApiError::bad(message);
        err.field = field;
        err
    })?;
    let Some((_, q)) = asked.into_iter().next() else {
        return Err(ApiError::bad("nothing to ask"));
    };
    let configs: usize = q
        .sweep
        .iter()
        .map(|(_, v)| v.len())
        .try_fold(1usize, |a, n| a.checked_mul(n))
        .unwrap_or(usize::MAX);
    if configs > MAX_CONFIGS {
        return Err(ApiError::bad(format!(
            "{configs} configs; the workbench answers at most {MAX_CONFIGS} at once (write a scenario for more)"
        ))
        .at(q.sweep.first().map(|(k, _)| k.as_str()).unwrap_or("sweep")));
    }
    let simulated = if q.check || !q.mechanic.has_exact() {
        configs as u64
    } else {
        0
    };
    if simulated.saturating_mul(q.trials) > MAX_TOTAL_TRIALS {
        return Err(ApiError::bad(format!(
            "{configs} configs × {} trials is past the workbench's {MAX_TOTAL_TRIALS} trials a request; ask for fewer trials or values",
            q.trials
        ))
        .at("trials"));
    }
    Ok(q)
}

/// Answer `q`, stopping when `ticket` says so. Its [`Live`](super::jobs::Live)
/// follows the work: the exact chain solver's rounds, the configs solved,
/// the trials run. A single config is solved on this thread, which the
/// watch is set on; a sweep's configs are solved in parallel, on a pool
/// of this request's own whose every thread has the watch, so a newer
/// request stops them too.
fn ask(q: &Question, ticket: &Ticket) -> Result<Answer, ApiError> {
    let live = ticket.live();
    live.asking(q.mechanic.name(), q.config_count());
    let mut simulating = |configs: usize, _: Option<&str>| {
        live.simulating((configs as u64).saturating_mul(q.trials));
    };
    let watcher = ticket.watcher();
    let mut run = || watch::watched(watcher.watch(), || answer::ask(q, ticket, &mut simulating));
    let pool = (q.config_count() > 1)
        .then(|| watched_pool(&watcher))
        .flatten();
    let a = match pool {
        Some(pool) => pool.install(run),
        None => run(),
    }
    .map_err(|e| param_error(q, e))?;
    stopped(ticket)?;
    Ok(a)
}

/// A rayon pool as wide as the global one whose threads run under
/// `watcher`'s watch (`None` if threads cannot be started: the answer is
/// then worked out as before, without the watch on the parallel configs).
fn watched_pool(watcher: &Watcher) -> Option<rayon::ThreadPool> {
    let watcher = watcher.clone();
    rayon::ThreadPoolBuilder::new()
        .num_threads(rayon::current_num_threads())
        .spawn_handler(move |thread| {
            let w = watcher.clone();
            std::thread::Builder::new()
                .name("oddsmith-serve-sweep".into())
                .spawn(move || watch::watched(w.watch(), || thread.run()))
                .map(|_| ())
        })
        .build()
        .ok()
}

/// A parameter error as the command line says it, at its key.
pub fn param_error(q: &Question, e: oddsmith::systems::ParamError) -> ApiError {
    let field = e.key.clone();
    let mut err = ApiError::bad(format!("{:#}", crate::cli::odds_error(q.mechanic, e)));
    if !field.is_empty() {
        err.field = Some(field);
    }
    err
}

/// An error if `ticket` stopped the work (its partial numbers are discarded).
pub fn stopped(ticket: &Ticket) -> Result<(), ApiError> {
    match ticket.stopped_because() {
        None => Ok(()),
        Some(Stopped::Superseded) => Err(ApiError {
            status: StatusCode::CONFLICT,
            message: format!(
                "cancelled: a newer request came from the same tab (or Cancel, or the client left){}",
                abandoned(ticket)
            ),
            field: None,
        }),
        Some(Stopped::TimedOut) if ticket.live().abandoned() => Err(ApiError::bad(format!(
            "the exact solve stopped at the workbench's time limit{}; write a scenario and `oddsmith run` it (no limit)",
            abandoned(ticket)
        ))),
        Some(Stopped::TimedOut) => Err(ApiError::bad(
            "Monte Carlo stopped at the workbench's time limit; ask for fewer trials (or run a scenario: `oddsmith run` has no limit)",
        )
        .at("trials")),
        Some(Stopped::Shutdown) => Err(ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: "the server is shutting down".into(),
            field: None,
        }),
    }
}

/// Where an abandoned exact solve stopped, for messages.
fn abandoned(ticket: &Ticket) -> String {
    if ticket.live().abandoned() {
        format!(
            "; the exact solve was abandoned at round {}",
            ticket.live().round()
        )
    } else {
        String::new()
    }
}

/// Run `work` off the async threads, cancelled if this future is dropped;
/// a panic becomes a 500 that says it is a bug (the tests check there is
/// none).
pub async fn compute<T: Serialize + Send + 'static>(
    app: &App,
    tab: Option<String>,
    work: impl FnOnce(&Ticket) -> Result<T, ApiError> + Send + 'static,
) -> Response {
    let ticket = app.jobs.ticket(tab, app.limit);
    let _cancel_if_dropped = CancelOnDrop(ticket.flag());
    let joined =
        tokio::task::spawn_blocking(move || catch_unwind(AssertUnwindSafe(|| work(&ticket)))).await;
    match joined {
        Ok(Ok(Ok(value))) => json_response(StatusCode::OK, &value),
        Ok(Ok(Err(e))) => e.into_response(),
        Ok(Err(_)) | Err(_) => ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: "internal error (a bug in oddsmith: please report the request)".into(),
            field: None,
        }
        .into_response(),
    }
}

async fn answer(State(app): State<App>, bytes: Bytes) -> Response {
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

async fn sweep(State(app): State<App>, bytes: Bytes) -> Response {
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
async fn tune(State(app): State<App>, bytes: Bytes) -> Response {
    let ask_ = match tune_body::parse(&bytes) {
        Ok(a) => a,
        Err(e) => return e.into_response(),
    };
    let tab = ask_.tab.clone();
    compute(&app, tab, move |ticket| tune_body::answer(&ask_, ticket)).await
}

#[derive(Serialize)]
struct ScenarioFile {
    toml: String,
    /// A file name for the download.
    file: String,
}

async fn scenario(State(app): State<App>, bytes: Bytes) -> Response {
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
#[cfg(test)]
pub const SCRIPT_FOR_TESTS: &str = SCRIPT;
