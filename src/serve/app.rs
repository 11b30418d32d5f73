//! The workbench's state and its one way of asking: a request body read
//! as the command line's question, answered by the library under the
//! tab's ticket (watched, so a newer request or Cancel stops it), on a
//! blocking thread, with panics caught and said.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use oddsmith::answer::{self, Answer, Question};
use oddsmith::exact::watch;
use oddsmith::systems;

use super::body::Ask;
use super::jobs::{CancelOnDrop, Jobs, Stopped, Ticket, Watcher};

use super::error::{ApiError, json_response};

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
