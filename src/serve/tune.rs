//! `POST /api/tune`: the knob value that gives the odds a designer wants,
//! asked as `oddsmith tune MECHANIC --knob … key=value` asks it. The body
//! becomes the library's [`TuneQuestion`], read by the scenario parser and
//! answered by [`oddsmith::tune::tune`], so the numbers and every message
//! about a bad question are the command line's.

use serde_json::{Map, Value};

use std::path::Path;

use oddsmith::run::{RunError, RunOptions};
use oddsmith::scenario::{Scenario, ScenarioError};
use oddsmith::systems;
use oddsmith::tune::question::{self, TuneAnswer, TuneQuestion};
use oddsmith::tune::{self, TuneError, TuneOptions};

use super::app::{MAX_CONFIGS, stopped};
use super::body::{self, DEFAULT_TRIALS, MAX_SWEEP_VALUES, MAX_TRIALS, word};
use super::error::ApiError;
use super::jobs::Ticket;

const KEYS: [&str; 16] = [
    "mechanic",
    "params",
    "sweep",
    "knob",
    "metric",
    "target",
    "at_least",
    "at_most",
    "within",
    "range",
    "mode",
    "trials",
    "seed",
    "precision",
    "scan",
    "tab",
];

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::bad(message)
}

/// What a tune body asks: the question, how to answer it, and the tab.
pub struct TuneAsk {
    pub question: TuneQuestion,
    pub options: TuneOptions,
    pub tab: Option<String>,
}

fn text(body: &Map<String, Value>, key: &str) -> Result<Option<String>, ApiError> {
    match body.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(v) => Err(bad(format!("{key}: {v} is not a string")).at(key)),
    }
}

fn number(body: &Map<String, Value>, key: &str) -> Result<Option<f64>, ApiError> {
    match body.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_f64()
            .map(Some)
            .ok_or_else(|| bad(format!("{key}: {v} is not a number")).at(key)),
    }
}

fn unsigned(body: &Map<String, Value>, key: &str) -> Result<Option<u64>, ApiError> {
    match body.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| bad(format!("{key}: {v} is not a whole number ≥ 0")).at(key)),
    }
}

/// Read a tune body.
pub fn parse(bytes: &[u8]) -> Result<TuneAsk, ApiError> {
    let body = body::object(
        bytes,
        &KEYS,
        r#"{"mechanic": "gateway.challenge", "params": {"actor.trait": 3}, "knob": "opposition.challenge", "metric": "p_success", "target": 0.5}"#,
    )?;
    let Some(mechanic) = text(&body, "mechanic")? else {
        return Err(
            bad("say what to tune: \"mechanic\" (e.g. \"gateway.challenge\")").at("mechanic"),
        );
    };
    if systems::find(&mechanic).is_none() {
        let names = systems::names();
        return Err(bad(format!(
            "mechanic: no mechanic is called {mechanic:?}{}; known: {}",
            systems::suggest(&mechanic, names.iter().copied()),
            names.join(", ")
        ))
        .at("mechanic"));
    }
    let mut params = Vec::new();
    match body.get("params") {
        None => {}
        Some(Value::Object(ps)) => {
            for (k, v) in ps {
                params.push((k.clone(), word(k, v).map_err(|e| e.at(k))?));
            }
        }
        Some(v) => {
            return Err(bad(format!(
                "params: {v} is not an object of key: value (e.g. {{\"actor.trait\": 3}})"
            ))
            .at("params"));
        }
    }
    let mut sweep = Vec::new();
    match body.get("sweep") {
        None => {}
        Some(Value::Object(s)) if (1..=2).contains(&s.len()) => {
            for (k, v) in s {
                let Value::Array(values) = v else {
                    return Err(bad(format!("sweep: {k}: {v} is not a list of values")).at(k));
                };
                if values.is_empty() || values.len() > MAX_SWEEP_VALUES {
                    return Err(bad(format!(
                        "sweep: {k}: {} values; give 1..={MAX_SWEEP_VALUES}",
                        values.len()
                    ))
                    .at(k));
                }
                let items = values
                    .iter()
                    .map(|x| word(k, x).map_err(|e| e.at(k)))
                    .collect::<Result<Vec<_>, _>>()?;
                sweep.push((k.clone(), items));
            }
        }
        Some(Value::Object(s)) => {
            return Err(
                bad(format!("sweep: {} parameters; sweep one or two", s.len())).at("sweep"),
            );
        }
        Some(v) => {
            return Err(bad(format!(
                "sweep: {v} is not an object of key: [values] (e.g. {{\"actor.trait\": [1, 2, 3]}})"
            ))
            .at("sweep"));
        }
    }
    let range = match body.get("range") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Array(ends)) if ends.len() == 2 => Some(format!(
            "{}..{}",
            word("range", &ends[0]).map_err(|e| e.at("range"))?,
            word("range", &ends[1]).map_err(|e| e.at("range"))?
        )),
        Some(v) => {
            return Err(bad(format!(
                "range: {v} is not \"FROM..TO\" or [FROM, TO] (e.g. \"0..20\")"
            ))
            .at("range"));
        }
    };
    // What the question needs, said in the body's words (the command
    // line's own messages name its flags).
    for (key, example) in [
        (
            "knob",
            "\"knob\": \"opposition.challenge\", the parameter to search",
        ),
        (
            "metric",
            "\"metric\": \"p_success\", the headline metric to aim",
        ),
    ] {
        if !body.contains_key(key) {
            return Err(bad(format!("{key} is missing: e.g. {example}")).at(key));
        }
    }
    let aims: Vec<&str> = ["target", "at_least", "at_most"]
        .into_iter()
        .filter(|k| body.contains_key(*k))
        .collect();
    match aims.as_slice() {
        [_] => {}
        [] => {
            return Err(bad(
                "target is missing: give one of \"target\" (the knob value whose metric is nearest it), \"at_least\" or \"at_most\"",
            )
            .at("target"));
        }
        [first, second, ..] => {
            return Err(bad(format!(
                "{first} and {second}: give only one of \"target\", \"at_least\" and \"at_most\""
            ))
            .at(second));
        }
    }
    if let Some(r) = &range
        && !r.contains("..")
    {
        return Err(bad(format!(
            "range: {r:?} is not \"FROM..TO\" or [FROM, TO] (e.g. \"0..20\")"
        ))
        .at("range"));
    }
    let question = TuneQuestion {
        mechanic,
        params,
        sweep,
        knob: text(&body, "knob")?,
        metric: text(&body, "metric")?,
        target: number(&body, "target")?,
        at_least: number(&body, "at_least")?,
        at_most: number(&body, "at_most")?,
        within: number(&body, "within")?,
        range,
    };
    let mode = body::mode(&body)?;
    let trials = unsigned(&body, "trials")?.unwrap_or(DEFAULT_TRIALS);
    if !(1..=MAX_TRIALS).contains(&trials) {
        return Err(bad(format!(
            "trials: {trials} is out of range; the workbench runs 1..={MAX_TRIALS} (for more, write a scenario and `oddsmith tune` it)"
        ))
        .at("trials"));
    }
    let scan = match body.get("scan") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(v) => return Err(bad(format!("scan: {v} is not true or false")).at("scan")),
    };
    let options = TuneOptions {
        run: RunOptions {
            mode,
            trials: Some(trials),
            seed: Some(unsigned(&body, "seed")?.unwrap_or(1)),
            precision: number(&body, "precision")?,
            ..RunOptions::default()
        },
        scan,
    };
    Ok(TuneAsk {
        question,
        options,
        tab: text(&body, "tab")?,
    })
}

/// The name a tune body's scenario errors give as their file (never
/// shown: [`scenario_error`] says each in the body's words).
const REQUEST: &str = "request";

/// The body field a key of the question's scenario comes from:
/// `tune.target` is `target` (or `at_least`, `at_most`: whichever `q`
/// gave), `params."actor.trait"` is `actor.trait`.
fn field_of(key: &str, q: &TuneQuestion) -> String {
    let unquote = |k: &str| k.replace('"', "");
    if let Some(rest) = key.strip_prefix("tune.") {
        let rest = unquote(rest);
        let mut parts = rest.split('.');
        return match (parts.next(), parts.next()) {
            (Some("target"), Some(bound @ ("at_least" | "at_most"))) => bound.to_string(),
            (Some("target"), _) if q.at_least.is_some() => "at_least".to_string(),
            (Some("target"), _) if q.at_most.is_some() => "at_most".to_string(),
            (Some("range"), _) => "range".to_string(),
            (Some(first), _) => first.to_string(),
            (None, _) => "tune".to_string(),
        };
    }
    for table in ["params.", "sweep."] {
        if let Some(rest) = key.strip_prefix(table) {
            return unquote(rest);
        }
    }
    unquote(key)
}

/// A scenario error of the question, said in the body's words: each
/// problem after its field (`target: 1.5 is not a probability; …`), with
/// no file or line (the scenario was never the user's), at the first
/// problem's field.
fn scenario_error(e: &ScenarioError, q: &TuneQuestion) -> ApiError {
    let mut field = None;
    let lines: Vec<String> = e
        .all()
        .into_iter()
        .map(|p| match p {
            ScenarioError::Invalid { key, message, .. } => {
                let f = field_of(key, q);
                let line = format!("{f}: {message}");
                field.get_or_insert(f);
                line
            }
            ScenarioError::Toml { message, .. } => format!("not valid TOML: {message}"),
            ScenarioError::Io { message, .. } => message.clone(),
            ScenarioError::Several(_) => p.to_string(),
        })
        .collect();
    let mut err = bad(lines.join("\n"));
    err.field = field;
    err
}

/// A tune that could not run, in the body's words.
fn tune_error(e: TuneError) -> ApiError {
    match e {
        TuneError::Run(RunError::NoExact {
            mechanic,
            config,
            point,
        }) => bad(format!(
            "mode exact: {mechanic} has no exact answer for config {config}{point}; ask with mode auto or mc"
        ))
        .at("mode"),
        TuneError::Run(RunError::Param(p)) => {
            let field = p.key.clone();
            bad(format!("{field}: {}", p.message)).at(&field)
        }
        other => bad(other.to_string()),
    }
}

/// Answer a tune body, stopping when `ticket` says so.
pub fn answer(ask: &TuneAsk, ticket: &Ticket) -> Result<TuneAnswer, ApiError> {
    let text = ask.question.scenario_text().map_err(|e| bad(e.0))?;
    let scenario = Scenario::parse(Path::new(REQUEST), &text)
        .map_err(|e| scenario_error(&e, &ask.question))?;
    let configs = scenario.tune_grid().map_or(0, |g| g.config_count());
    if configs > MAX_CONFIGS {
        return Err(bad(format!(
            "the tune evaluates up to {configs} configs (every combination of the sweep times every knob value); the workbench evaluates at most {MAX_CONFIGS}: sweep fewer values, give a narrower range, or write a scenario and `oddsmith tune` it"
        )));
    }
    if let Some(p) = ask.options.run.precision
        && !(p > 0.0 && p < 1.0)
    {
        return Err(bad(format!(
            "precision: {p} is out of range; allowed: a half-width between 0 and 1, e.g. 0.002"
        ))
        .at("precision"));
    }
    let tuned = tune::tune(&scenario, &ask.options, ticket);
    stopped(ticket)?;
    let tuned = tuned.map_err(tune_error)?;
    Ok(question::TuneAnswer::of(&tuned))
}
