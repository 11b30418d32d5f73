//! Request bodies: JSON read into the words `oddsmith odds` takes
//! (`key=value`, a sweep as `key=a,b,c`), so the questions and every
//! message about a bad value are the command line's.

use oddsmith::run::Mode;
use serde_json::{Map, Value};

use super::error::ApiError;

/// Most Monte Carlo trials one request may ask for (per config).
pub const MAX_TRIALS: u64 = 20_000_000;
/// Most values a sweep may list per parameter (as `odds` allows).
pub const MAX_SWEEP_VALUES: usize = 1000;
/// Trials the workbench runs when a body names none.
pub const DEFAULT_TRIALS: u64 = 200_000;

/// What a body asks, in the command line's words.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    /// The mechanic's name or the dice expression (`odds WHAT`).
    pub what: String,
    /// Whether `what` is an expression.
    pub expression: bool,
    /// `key=value` words, the swept ones last.
    pub words: Vec<String>,
    /// The keys of `words`, for errors beside the field at fault.
    pub keys: Vec<String>,
    /// How to answer, in `run --mode`'s words.
    pub mode: Mode,
    /// The endpoint that reads it: `/api/answer` takes one config.
    pub shape: Shape,
    pub trials: u64,
    pub seed: u64,
    pub tab: Option<String>,
}

/// Which endpoint reads the body: a sweep needs `sweep`, the others refuse it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Answer,
    Sweep,
    Scenario,
}

const KEYS: [&str; 8] = [
    "mechanic",
    "expression",
    "params",
    "mode",
    "trials",
    "seed",
    "tab",
    "sweep",
];

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::bad(message)
}

/// A JSON value as the command line would write it after `key=`.
pub fn word(key: &str, v: &Value) -> Result<String, ApiError> {
    Ok(match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Array(_) | Value::Object(_) => toml(v).ok_or_else(|| {
            bad(format!(
                "{key}: null has no meaning inside a value; leave the item out"
            ))
        })?,
        Value::Null => {
            return Err(bad(format!(
                "{key}: null is not a value; leave the key out for its default"
            ))
            .at(key));
        }
    })
}

/// A JSON array or object as a TOML inline value (`[1, 2]`, `{a = 1}`).
fn toml(v: &Value) -> Option<String> {
    Some(match v {
        Value::Null => return None,
        Value::String(s) => serde_json::to_string(s).ok()?,
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(toml)
                .collect::<Option<Vec<_>>>()?
                .join(", ")
        ),
        Value::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, x)| Some(format!("{} = {}", serde_json::to_string(k).ok()?, toml(x)?)))
                .collect::<Option<Vec<_>>>()?
                .join(", ")
        ),
    })
}

/// The body's `mode`: `run --mode`'s words (auto when it names none).
pub fn mode(body: &Map<String, Value>) -> Result<Mode, ApiError> {
    match body.get("mode") {
        None => Ok(Mode::Auto),
        Some(Value::String(s)) => s
            .parse::<Mode>()
            .map_err(|e| bad(format!("mode: {e}")).at("mode")),
        Some(v) => Err(bad(format!("mode: {v} is not a string")).at("mode")),
    }
}

fn unsigned(body: &Map<String, Value>, key: &str, default: u64) -> Result<u64, ApiError> {
    match body.get(key) {
        None => Ok(default),
        Some(v) => v
            .as_u64()
            .ok_or_else(|| bad(format!("{key}: {v} is not a whole number ≥ 0")).at(key)),
    }
}

/// A body read as a JSON object whose keys are all among `keys`;
/// `example` shows one in the message when it is not an object.
pub fn object(bytes: &[u8], keys: &[&str], example: &str) -> Result<Map<String, Value>, ApiError> {
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| bad(format!("the body is not JSON: {e}")))?;
    let Value::Object(body) = value else {
        return Err(bad(format!("the body is a JSON object, e.g. {example}")));
    };
    for k in body.keys() {
        if !keys.contains(&k.as_str()) {
            return Err(bad(format!(
                "{k:?} is not a key of the body; allowed: {}",
                keys.join(", ")
            )));
        }
    }
    Ok(body)
}

/// Read a body (already limited in size) as `shape` wants it.
pub fn parse(bytes: &[u8], shape: Shape) -> Result<Ask, ApiError> {
    let body = object(
        bytes,
        &KEYS,
        r#"{"mechanic": "gateway.challenge", "params": {"actor.trait": 3}} or {"expression": "4d6kh3"}"#,
    )?;
    let text = |key: &str| -> Result<Option<String>, ApiError> {
        match body.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(bad(format!("{key}: {v} is not a string")).at(key)),
        }
    };
    let (what, expression) = match (text("mechanic")?, text("expression")?) {
        (Some(m), None) => (m, false),
        (None, Some(e)) => (e, true),
        (Some(_), Some(_)) => {
            return Err(bad("give either \"mechanic\" or \"expression\", not both"));
        }
        (None, None) => {
            return Err(bad(
                "say what to ask: \"mechanic\" (e.g. \"gateway.challenge\") or \"expression\" (e.g. \"4d6kh3\")",
            ));
        }
    };
    if what.trim().is_empty() {
        let key = if expression { "expression" } else { "mechanic" };
        return Err(bad(format!("{key} is empty")).at(key));
    }
    let mode = mode(&body)?;
    let trials = unsigned(&body, "trials", DEFAULT_TRIALS)?;
    if !(1..=MAX_TRIALS).contains(&trials) {
        return Err(bad(format!(
            "trials: {trials} is out of range; the workbench runs 1..={MAX_TRIALS} (for more, write a scenario and `oddsmith run` it)"
        ))
        .at("trials"));
    }
    let seed = unsigned(&body, "seed", 1)?;
    let tab = text("tab")?;
    let mut words = Vec::new();
    let mut keys = Vec::new();
    match body.get("params") {
        None => {}
        Some(Value::Object(params)) => {
            for (k, v) in params {
                words.push(format!("{k}={}", word(k, v).map_err(|e| e.at(k))?));
                keys.push(k.clone());
            }
        }
        Some(v) => {
            return Err(bad(format!(
                "params: {v} is not an object of key: value (e.g. {{\"actor.trait\": 3}})"
            ))
            .at("params"));
        }
    }
    match (body.get("sweep"), shape) {
        (None, Shape::Sweep) => {
            return Err(bad(
                "sweep: say which parameters to sweep, e.g. \"sweep\": {\"actor.trait\": [0, 1, 2, 3]} (one or two)",
            )
            .at("sweep"));
        }
        (None, _) => {}
        (Some(_), Shape::Answer) => {
            return Err(bad("/api/answer takes no sweep; POST it to /api/sweep").at("sweep"));
        }
        (Some(Value::Object(sweep)), _) => {
            if sweep.is_empty() || sweep.len() > 2 {
                return Err(bad(format!(
                    "sweep: {} parameters; sweep one (a line) or two (a heatmap)",
                    sweep.len()
                ))
                .at("sweep"));
            }
            for (k, v) in sweep {
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
                if keys.contains(k) {
                    return Err(bad(format!(
                        "{k} is both in params and swept; give it in one place"
                    ))
                    .at(k));
                }
                let mut items = Vec::new();
                for x in values {
                    let w = word(k, x).map_err(|e| e.at(k))?;
                    if w.contains(',') || w.contains("..") || w.trim().is_empty() {
                        return Err(bad(format!(
                            "sweep: {k}: {w:?} cannot be one value of a sweep (no commas, ranges or empty values)"
                        ))
                        .at(k));
                    }
                    items.push(w);
                }
                // One value is a fixed value; two or more, as `odds` reads
                // `key=a,b,c`, a sweep.
                words.push(format!("{k}={}", items.join(",")));
                keys.push(k.clone());
            }
        }
        (Some(v), _) => {
            return Err(bad(format!(
                "sweep: {v} is not an object of key: [values] (e.g. {{\"actor.trait\": [0, 1, 2, 3]}})"
            ))
            .at("sweep"));
        }
    }
    Ok(Ask {
        what,
        expression,
        words,
        keys,
        mode,
        shape,
        trials,
        seed,
        tab,
    })
}
