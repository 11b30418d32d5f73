//! The workbench's state and its one way of asking: a request body read
//! as the command line's question, answered by the library under the
//! tab's ticket (watched, so a newer request or Cancel stops it), on a
//! blocking thread, with panics caught and said.

use std::net::SocketAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use oddsmith::answer::{self, Answer, Question};
use oddsmith::exact::watch;
use oddsmith::run::Mode;
use oddsmith::systems;

use tokio::sync::Semaphore;

use super::body::{Ask, Shape};
use super::guard::Guard;
use super::jobs::{CancelOnDrop, Jobs, Stopped, Ticket, Watcher};

use super::error::{ApiError, json_response};

pub const MAX_BODY: usize = 1 << 20;
/// Most configs one request may expand to.
pub const MAX_CONFIGS: usize = 2500;
/// Most Monte Carlo trials one request may run over all its configs.
pub const MAX_TOTAL_TRIALS: u64 = 50_000_000;

/// Most requests that compute (answers, sweeps, tunes, checks, scenario
/// files) at once; past it a request waits [`HEAVY_WAIT`] for a place,
/// then gets a 503 with Retry-After.
pub const MAX_HEAVY: usize = 8;
/// How long a request waits for a place among the [`MAX_HEAVY`] (long
/// enough for a request its tab superseded to stop and leave its place).
pub const HEAVY_WAIT: Duration = Duration::from_secs(2);
/// How long a client may take to send a request's head (or, once it is
/// read, its body) before the connection is closed.
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// The port `oddsmith serve` listens on without `--port`.
pub const DEFAULT_PORT: u16 = 7878;

/// The server's shared state.
#[derive(Clone)]
pub struct App {
    pub(super) jobs: Arc<Jobs>,
    /// How long one request may compute.
    limit: Duration,
    /// The addresses a request may name (Host, Origin).
    pub(super) guard: Arc<Guard>,
    /// Places for requests that compute.
    heavy: Arc<Semaphore>,
    heavy_limit: usize,
    heavy_wait: Duration,
    /// How long a request's head or body may take to arrive.
    pub(super) read_timeout: Duration,
}

impl App {
    /// The workbench as `oddsmith serve` with no flags serves it
    /// (127.0.0.1:7878).
    pub fn new() -> Self {
        App::with_limit(Duration::from_secs(30))
    }

    /// With a time cap other than 30 s (tests).
    pub fn with_limit(limit: Duration) -> Self {
        App {
            jobs: Arc::new(Jobs::default()),
            limit,
            guard: Arc::new(Guard::serving(
                SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)),
                None,
            )),
            heavy: Arc::new(Semaphore::new(MAX_HEAVY)),
            heavy_limit: MAX_HEAVY,
            heavy_wait: HEAVY_WAIT,
            read_timeout: READ_TIMEOUT,
        }
    }

    /// Answering requests to `bound`, listened on for `--host host`.
    pub fn serving(mut self, bound: SocketAddr, host: Option<&str>) -> Self {
        self.guard = Arc::new(Guard::serving(bound, host));
        self
    }

    /// At most `n` computing requests, each waiting `wait` for a place
    /// (tests).
    #[cfg(test)]
    pub fn with_heavy(mut self, n: usize, wait: Duration) -> Self {
        self.heavy = Arc::new(Semaphore::new(n));
        self.heavy_limit = n;
        self.heavy_wait = wait;
        self
    }

    /// Requests' heads and bodies given `timeout` to arrive (tests).
    #[cfg(test)]
    pub fn with_read_timeout(mut self, timeout: Duration) -> Self {
        self.read_timeout = timeout;
        self
    }

    /// Stop all work: the server is closing.
    pub fn shut_down(&self) {
        self.jobs.shut_down();
    }
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
    let asked =
        crate::cli::odds_questions(&ask.what, ask.words.clone(), ask.mode, ask.trials, ask.seed)
            .map_err(|e| {
                let message = format!("{e:#}");
                let field =
                    field_of(&message).or_else(|| ask.expression.then(|| "expression".to_string()));
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
    // `/api/answer` answers one config; a range or list in its params is
    // a sweep, which has its own endpoint (and its own table).
    if ask.shape == Shape::Answer
        && let Some((key, values)) = q.sweep.first()
    {
        let field = match key.strip_prefix("vars.") {
            Some(name) if !ask.keys.contains(key) => name,
            _ => key.as_str(),
        };
        return Err(ApiError::bad(format!(
            "{field}: {} values ask for a sweep ({configs} configs); /api/answer answers one config: give {field} one value, or POST the sweep to /api/sweep (\"sweep\": {{\"{field}\": [...]}})",
            values.len()
        ))
        .at(field));
    }
    if configs > MAX_CONFIGS {
        return Err(ApiError::bad(format!(
            "{configs} configs; the workbench answers at most {MAX_CONFIGS} at once (write a scenario for more)"
        ))
        .at(q.sweep.first().map(|(k, _)| k.as_str()).unwrap_or("sweep")));
    }
    // Configs sure to be simulated; those whose exact solve gives up and
    // falls back are counted as they fall back (`Live::simulating`).
    let simulated = match q.mode {
        Mode::Exact => 0,
        Mode::MonteCarlo | Mode::Both => configs as u64,
        Mode::Auto if q.mechanic.has_exact() => 0,
        Mode::Auto => configs as u64,
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
pub(super) fn ask(q: &Question, ticket: &Ticket) -> Result<Answer, ApiError> {
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
    .map_err(|e| param_error(q, e));
    // Work the ticket stopped is discarded, whatever came of it.
    stopped(ticket)?;
    a
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
pub fn param_error(q: &Question, e: answer::AskError) -> ApiError {
    let field = match &e {
        answer::AskError::Param(p) => p.key.clone(),
        answer::AskError::NoExact { .. } => "mode".to_string(),
        answer::AskError::Interrupted => String::new(),
    };
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
        Some(Stopped::TrialCap) => Err(ApiError::bad(format!(
            "Monte Carlo would run {} trials (configs with no exact answer, and those whose exact solve gave up, are simulated), past the workbench's {MAX_TOTAL_TRIALS} a request; ask for fewer trials or values (or run a scenario: `oddsmith run` has no limit)",
            ticket.live().planned()
        ))
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
    let ticket = app.jobs.ticket(tab, app.limit, MAX_TOTAL_TRIALS);
    let _cancel_if_dropped = CancelOnDrop(ticket.flag());
    // A place among the computing requests, held until the work stops (not
    // merely until its client leaves), so the bound is on work done.
    let permit = match tokio::time::timeout(app.heavy_wait, app.heavy.clone().acquire_owned()).await
    {
        Ok(Ok(permit)) => permit,
        Ok(Err(_)) | Err(_) => return busy(app.heavy_limit),
    };
    let joined = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        catch_unwind(AssertUnwindSafe(|| work(&ticket)))
    })
    .await;
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

/// The 503 past [`MAX_HEAVY`]: try again in a second.
fn busy(limit: usize) -> Response {
    let mut r = ApiError {
        status: StatusCode::SERVICE_UNAVAILABLE,
        message: format!(
            "the workbench is busy: {limit} requests are computing, its limit; try again in a moment (Retry-After says when)"
        ),
        field: None,
    }
    .into_response();
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    r
}
