//! `POST /api/best`: best play for one config, asked as `oddsmith best
//! MECHANIC key=value … --metric M [--against best]` asks it (`"opponent":
//! "best"` for both sides' best play, a zero-sum duel) (the command line's question
//! and messages, [`crate::cli::best_question`]), answered by the library's
//! one best-play question ([`oddsmith::best::best`]).
//!
//! The exact best-play solver polls the request's watch before each round
//! of each of its passes (as the chain solver does), so a request
//! cancelled, superseded or past the time limit stops within a round and
//! gets its error, never a late answer.

use serde_json::{Map, Value};

use oddsmith::best::{BestAnswer, Opponent};
use oddsmith::exact::watch;
use oddsmith::systems;

use super::app::stopped;
use super::body::{self, word};
use super::error::ApiError;
use super::jobs::{Stopped, Ticket};

const KEYS: [&str; 6] = [
    "mechanic",
    "params",
    "metric",
    "dominance",
    "opponent",
    "tab",
];

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::bad(message)
}

/// What a best-play body asks.
pub struct BestAsk {
    pub mechanic: &'static dyn systems::Mechanic,
    /// `key=value` words, as `oddsmith best` takes them.
    pub words: Vec<String>,
    pub keys: Vec<String>,
    pub metric: Option<String>,
    pub dominance: bool,
    /// What the other side plays: its given policy, or best play too.
    pub opponent: Opponent,
    pub tab: Option<String>,
}

/// Read a best-play body.
pub fn parse(bytes: &[u8]) -> Result<BestAsk, ApiError> {
    let body = body::object(
        bytes,
        &KEYS,
        r#"{"mechanic": "gateway.scene", "params": {"ladder": 6, "round_cap": 12}, "metric": "p_a_wins"}"#,
    )?;
    let name = match body.get("mechanic") {
        Some(Value::String(s)) => s.clone(),
        None => {
            return Err(
                bad("say whose best play: \"mechanic\" (e.g. \"gateway.scene\")").at("mechanic"),
            );
        }
        Some(v) => return Err(bad(format!("mechanic: {v} is not a string")).at("mechanic")),
    };
    let covered = systems::best::covered();
    let Some(mechanic) = systems::find(&name) else {
        let names = systems::names();
        return Err(bad(format!(
            "mechanic: no mechanic is called {name:?}{}; best play covers: {}",
            systems::suggest(&name, names.iter().copied()),
            covered.join(", ")
        ))
        .at("mechanic"));
    };
    if !covered.contains(&mechanic.name()) {
        return Err(bad(format!(
            "mechanic: {}; best play covers: {}",
            systems::best::why_not(mechanic.name()),
            covered.join(", ")
        ))
        .at("mechanic"));
    }
    let (words, keys) = params(&body)?;
    let metric = match body.get("metric") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(v) => return Err(bad(format!("metric: {v} is not a string")).at("metric")),
    };
    let dominance = match body.get("dominance") {
        None => true,
        Some(Value::Bool(b)) => *b,
        Some(v) => {
            return Err(bad(format!("dominance: {v} is not true or false")).at("dominance"));
        }
    };
    let opponent = match body.get("opponent") {
        None => Opponent::Given,
        Some(Value::String(s)) if s == "given" => Opponent::Given,
        Some(Value::String(s)) if s == "best" => Opponent::Best,
        Some(v) => {
            return Err(bad(format!(
                "opponent: {v} is not what the other side plays; allowed: \"given\" (its given policy, the default) or \"best\" (best play too: a zero-sum duel)"
            ))
            .at("opponent"));
        }
    };
    let tab = match body.get("tab") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(v) => return Err(bad(format!("tab: {v} is not a string")).at("tab")),
    };
    Ok(BestAsk {
        mechanic,
        words,
        keys,
        metric,
        dominance,
        opponent,
        tab,
    })
}

/// The body's `params` as `key=value` words, and their keys.
fn params(body: &Map<String, Value>) -> Result<(Vec<String>, Vec<String>), ApiError> {
    match body.get("params") {
        None => Ok((Vec::new(), Vec::new())),
        Some(Value::Object(ps)) => {
            let mut words = Vec::new();
            let mut keys = Vec::new();
            for (k, v) in ps {
                words.push(format!("{k}={}", word(k, v).map_err(|e| e.at(k))?));
                keys.push(k.clone());
            }
            Ok((words, keys))
        }
        Some(v) => Err(bad(format!(
            "params: {v} is not an object of key: value (e.g. {{\"ladder\": 6}})"
        ))
        .at("params")),
    }
}

/// The field a command-line message is about: the parameter it starts
/// with, or the metric.
fn field_of(message: &str, ask: &BestAsk) -> Option<String> {
    let body = message
        .strip_prefix(ask.mechanic.name())
        .map_or(message, str::trim_start);
    if message.contains("--metric") || message.contains("metric `") {
        return Some("metric".into());
    }
    if message.contains("no best play for both sides") {
        return Some("opponent".into());
    }
    ask.keys
        .iter()
        .find(|k| {
            body.starts_with(&format!("`{k}`"))
                || body.starts_with(&format!("{k} "))
                || body.starts_with(&format!("{k}="))
                || body.starts_with(&format!("{k}:"))
        })
        .cloned()
}

/// Answer a best-play body; an error if `ticket` stopped the request
/// meanwhile (cancelled, superseded, past the time limit).
pub fn answer(ask: &BestAsk, ticket: &Ticket) -> Result<BestAnswer, ApiError> {
    let said = |e: anyhow::Error| {
        let message = format!("{e:#}");
        let mut err = bad(message.clone());
        err.field = field_of(&message, ask);
        err
    };
    let mut q =
        crate::cli::best_question(ask.mechanic, &ask.words, ask.metric.clone(), ask.dominance)
            .map_err(said)?;
    q.opponent = ask.opponent;
    ticket.live().asking(ask.mechanic.name(), 1);
    stopped(ticket)?;
    // Best play and the replay of its written policy both poll the
    // ticket's watch.
    let watcher = ticket.watcher();
    let a = watch::watched(watcher.watch(), || crate::cli::best_answer(&q));
    if oddsmith::sim::Progress::stopped(ticket)
        && ticket.stopped_because() == Some(Stopped::TimedOut)
    {
        return Err(bad(
            "best play took longer than the workbench's time limit; ask a smaller question (a lower round_cap or ladder), or use `oddsmith best` (no limit)",
        ));
    }
    stopped(ticket)?;
    a.map_err(said)
}
