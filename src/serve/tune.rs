//! `POST /api/tune`: the knob value that gives the odds a designer wants,
//! asked as `oddsmith tune MECHANIC --knob … key=value` asks it. The body
//! becomes the library's [`TuneQuestion`], read by the scenario parser and
//! answered by [`oddsmith::tune::tune`], so the numbers and every message
//! about a bad question are the command line's.

use serde_json::{Map, Value};

use oddsmith::run::{Mode, RunOptions};
use oddsmith::tune::question::{self, TuneAnswer, TuneQuestion};
use oddsmith::tune::{self, TuneOptions};

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
    let mode = match text(&body, "mode")?.as_deref() {
        None | Some("auto") => Mode::Auto,
        Some("mc") => Mode::MonteCarlo,
        Some(other) => {
            return Err(bad(format!(
                "mode: {other:?} is not a mode; allowed: \"auto\" (exact where it can, else Monte Carlo), \"mc\" (Monte Carlo only)"
            ))
            .at("mode"));
        }
    };
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

/// Answer a tune body, stopping when `ticket` says so.
pub fn answer(ask: &TuneAsk, ticket: &Ticket) -> Result<TuneAnswer, ApiError> {
    let scenario = ask.question.scenario().map_err(|e| bad(e.0))?;
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
    let tuned = tuned.map_err(|e| bad(e.to_string()))?;
    Ok(question::TuneAnswer::of(&tuned))
}
