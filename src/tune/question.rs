//! A tune question given as data (mechanic, fixed parameters, sweep, knob,
//! metric, target): what `oddsmith tune MECHANIC --knob …` asks, and what
//! the workbench's `/api/tune` and Python's `oddsmith.tune` ask. The
//! question is written out as scenario text and read by the scenario
//! parser, so every face checks the same things and says so in the same
//! words; the numbers come from [`super::tune`], the one search.

use std::path::Path;

use serde::Serialize;

use super::{Estimate, TuneOptions, Tuned, tune};
use crate::scenario::Scenario;
use crate::sim::Progress;
use crate::systems;

/// The name a question's messages give as its file.
pub const COMMAND_LINE: &str = "command line";

/// A question that cannot be asked as given, or a tune that failed; the
/// message is the command line's.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct QuestionError(pub String);

fn bad<T>(message: String) -> Result<T, QuestionError> {
    Err(QuestionError(message))
}

/// A tune question. Values are written as on the command line
/// (`actor.trait=3`): numbers, booleans, arrays and inline tables as
/// written, anything else as text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TuneQuestion {
    pub mechanic: String,
    /// Fixed parameters: key and value.
    pub params: Vec<(String, String)>,
    /// Swept parameters (one answer per combination): key and values.
    pub sweep: Vec<(String, Vec<String>)>,
    pub knob: Option<String>,
    pub metric: Option<String>,
    pub target: Option<f64>,
    pub at_least: Option<f64>,
    pub at_most: Option<f64>,
    pub within: Option<f64>,
    /// `FROM..TO`, both ends included.
    pub range: Option<String>,
}

impl TuneQuestion {
    /// The question as scenario text.
    pub fn scenario_text(&self) -> Result<String, QuestionError> {
        if systems::find(&self.mechanic).is_none() {
            return bad(format!(
                "{:?} is neither a scenario file nor a mechanic; give a scenario (*.toml) or one of: {}",
                self.mechanic,
                systems::names().join(", ")
            ));
        }
        for (flag, x) in [
            ("--target", self.target),
            ("--at-least", self.at_least),
            ("--at-most", self.at_most),
            ("--within", self.within),
        ] {
            if let Some(x) = x
                && !x.is_finite()
            {
                return bad(format!(
                    "{flag} {x} is not a finite number; give one such as 0.5"
                ));
            }
        }
        for (key, value) in &self.params {
            if is_range(value) {
                return bad(format!(
                    "{}={}: a range takes several values, which is a sweep: give it as one (`key=A..B` on the command line, `sweep` in Python, `[sweep]` in a scenario); tune answers once per combination",
                    key.trim(),
                    value.trim()
                ));
            }
        }
        let mut text = format!(
            "name = \"{} tune\"\nmechanic = {}\n[params]\n",
            self.mechanic,
            quote(&self.mechanic)
        );
        for (key, value) in &self.params {
            text.push_str(&format!("{} = {}\n", quote(key.trim()), literal(value)));
        }
        if !self.sweep.is_empty() {
            text.push_str("[sweep]\n");
            for (key, values) in &self.sweep {
                let values: Vec<String> = values.iter().map(|v| literal(v)).collect();
                text.push_str(&format!(
                    "{} = [{}]\n",
                    quote(key.trim()),
                    values.join(", ")
                ));
            }
        }
        text.push_str("[tune]\n");
        let Some(knob) = self.knob.as_deref() else {
            return bad(
                "--knob is missing: the parameter to search, e.g. --knob opposition.challenge"
                    .into(),
            );
        };
        text.push_str(&format!("knob = {}\n", quote(knob)));
        let Some(metric) = self.metric.as_deref() else {
            return bad(
                "--metric is missing: the headline metric to aim, e.g. --metric p_success".into(),
            );
        };
        text.push_str(&format!("metric = {}\n", quote(metric)));
        let target = match (self.target, self.at_least, self.at_most) {
            (Some(x), None, None) => format!("{x:?}"),
            (None, Some(x), None) => format!("{{ at_least = {x:?} }}"),
            (None, None, Some(x)) => format!("{{ at_most = {x:?} }}"),
            (None, None, None) => {
                return bad("give one of --target X (nearest), --at-least X or --at-most X".into());
            }
            _ => return bad("give only one of --target, --at-least and --at-most".into()),
        };
        text.push_str(&format!("target = {target}\n"));
        if let Some(w) = self.within {
            text.push_str(&format!("within = {w:?}\n"));
        }
        if let Some(r) = &self.range {
            let Some((from, to)) = r.split_once("..") else {
                return bad(format!("--range {r:?} is not FROM..TO (e.g. 0..20)"));
            };
            text.push_str(&format!(
                "range = {{ from = {}, to = {} }}\n",
                literal(from),
                literal(to)
            ));
        }
        Ok(text)
    }

    /// The question as a scenario, checked by the scenario parser.
    pub fn scenario(&self) -> Result<Scenario, QuestionError> {
        let text = self.scenario_text()?;
        Scenario::parse(Path::new(COMMAND_LINE), &text).map_err(|e| {
            // The lines are those of the scenario the question was written
            // into, which the user never saw: the key says where.
            let lines: Vec<String> = e
                .to_string()
                .lines()
                .map(|l| match l.strip_prefix(&format!("{COMMAND_LINE}:")) {
                    Some(rest) => format!(
                        "{COMMAND_LINE}{}",
                        rest.trim_start_matches(|c: char| c.is_ascii_digit())
                    ),
                    None => l.to_string(),
                })
                .collect();
            QuestionError(lines.join("\n"))
        })
    }
}

/// The answer to a tune question, ready to serialise: one row per
/// combination of the sweep (an ambiguous combination gets one row per
/// candidate).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TuneAnswer {
    pub mechanic: String,
    /// The swept parameters, in the order of each row's `swept`.
    pub swept: Vec<String>,
    pub knob: String,
    pub metric: String,
    pub seed: u64,
    pub trials: u64,
    pub rows: Vec<TuneAnswerRow>,
}

/// One row: the swept values, the knob value found and its metric value,
/// and the neighbours below and above (the step size).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TuneAnswerRow {
    pub swept: Vec<String>,
    /// The knob value found; `None` when none meets the target.
    pub knob: Option<String>,
    pub value: Option<f64>,
    /// 95% interval (Monte Carlo only).
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    pub below: Option<String>,
    pub below_value: Option<f64>,
    pub above: Option<String>,
    pub above_value: Option<f64>,
    pub reachable: bool,
    /// `exact`, `bisection` or `scan`.
    pub method: String,
    pub ambiguous: bool,
    pub monotone: bool,
}

impl TuneAnswer {
    /// The serialisable form of a finished tune.
    pub fn of(t: &Tuned) -> TuneAnswer {
        let neighbour = |n: Option<(usize, Estimate)>| n.map(|(k, e)| (t.label(k), e.value));
        TuneAnswer {
            mechanic: t.mechanic.clone(),
            swept: t.swept.clone(),
            knob: t.knob.path.clone(),
            metric: t.metric.clone(),
            seed: t.seed,
            trials: t.trials,
            rows: t
                .rows
                .iter()
                .map(|r| {
                    let below = neighbour(r.below);
                    let above = neighbour(r.above);
                    TuneAnswerRow {
                        swept: r.swept.iter().map(|v| v.to_string()).collect(),
                        knob: r.knob.map(|k| t.label(k)),
                        value: r.value.map(|e| e.value),
                        lo: r.value.and_then(|e| e.interval).map(|i| i.0),
                        hi: r.value.and_then(|e| e.interval).map(|i| i.1),
                        below_value: below.as_ref().map(|b| b.1),
                        below: below.map(|b| b.0),
                        above_value: above.as_ref().map(|a| a.1),
                        above: above.map(|a| a.0),
                        reachable: r.reachable,
                        method: r.method.as_str().to_string(),
                        ambiguous: r.ambiguous,
                        monotone: r.monotone,
                    }
                })
                .collect(),
        }
    }
}

/// Answer `q`: check it, tune it with [`super::tune`], and return the rows.
pub fn answer(
    q: &TuneQuestion,
    opts: &TuneOptions,
    progress: &dyn Progress,
) -> Result<TuneAnswer, QuestionError> {
    if let Some(p) = opts.run.precision
        && !(p > 0.0 && p < 1.0)
    {
        return bad(format!(
            "--precision {p} is out of range; allowed: a half-width between 0 and 1, e.g. 0.002"
        ));
    }
    let scenario = q.scenario()?;
    let tuned = tune(&scenario, opts, progress).map_err(|e| QuestionError(e.to_string()))?;
    Ok(TuneAnswer::of(&tuned))
}

/// Whether `text` is a range of whole numbers (`1..4`, `0..12:3`): what
/// the command line reads as a sweep, never one value.
fn is_range(text: &str) -> bool {
    let whole = |t: &str| {
        let t = t.trim();
        let digits = t.strip_prefix('-').unwrap_or(t);
        !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
    };
    let Some((lo, rest)) = text.trim().split_once("..") else {
        return false;
    };
    let hi = rest
        .split_once(':')
        .map_or(rest, |(hi, step)| if whole(step) { hi } else { "" });
    whole(lo) && whole(hi)
}

/// A TOML basic string.
pub fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A command-line value as TOML: numbers, booleans, arrays and inline
/// tables as written, anything else as text (surrounding quotes removed).
pub fn literal(text: &str) -> String {
    let t = text.trim();
    let plain = t.parse::<i64>().is_ok()
        || t.parse::<bool>().is_ok()
        || (t.parse::<f64>().is_ok()
            && t.chars().any(|c| c.is_ascii_digit())
            && !t.contains(char::is_alphabetic));
    let structured =
        (t.starts_with('[') && t.ends_with(']')) || (t.starts_with('{') && t.ends_with('}'));
    if plain || structured {
        return t.to_string();
    }
    let unquoted = ['"', '\'']
        .iter()
        .find_map(|q| t.strip_prefix(*q).and_then(|s| s.strip_suffix(*q)))
        .unwrap_or(t);
    quote(unquoted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gateway() -> TuneQuestion {
        TuneQuestion {
            mechanic: "gateway.challenge".into(),
            params: vec![
                ("actor.trait".into(), "3".into()),
                ("actor.background".into(), "2".into()),
            ],
            knob: Some("opposition.challenge".into()),
            metric: Some("p_success".into()),
            target: Some(0.5),
            ..TuneQuestion::default()
        }
    }

    #[test]
    fn even_odds_for_a_trait_3_character() {
        let a = answer(&gateway(), &TuneOptions::default(), &()).unwrap();
        assert_eq!(a.rows.len(), 1);
        let r = &a.rows[0];
        assert_eq!(r.knob.as_deref(), Some("3"));
        assert!((r.value.unwrap() - 0.5042).abs() < 5e-5);
        assert_eq!(r.below.as_deref(), Some("2"));
        assert_eq!(r.above.as_deref(), Some("4"));
        assert_eq!(r.method, "exact");
    }

    #[test]
    fn a_sweep_gives_one_row_per_value() {
        let mut q = gateway();
        q.params.retain(|(k, _)| k != "actor.trait");
        q.sweep = vec![("actor.trait".into(), vec!["2".into(), "3".into()])];
        let a = answer(&q, &TuneOptions::default(), &()).unwrap();
        assert_eq!(a.swept, ["actor.trait"]);
        let knobs: Vec<_> = a.rows.iter().map(|r| r.swept[0].clone()).collect();
        assert_eq!(knobs, ["2", "3"]);
        // The trait-3 row is the unswept question's answer.
        assert_eq!(a.rows[1].knob.as_deref(), Some("3"));
    }

    #[test]
    fn bad_questions_say_what_is_wrong() {
        let mut q = gateway();
        q.target = None;
        let e = answer(&q, &TuneOptions::default(), &()).unwrap_err();
        assert!(e.0.contains("--target X"), "{e}");
        let mut q = gateway();
        q.target = Some(1.5);
        let e = answer(&q, &TuneOptions::default(), &()).unwrap_err();
        assert_eq!(
            e.0,
            "command line: `tune.target` 1.5 is not a probability; the metric is one, so allowed: a number in [0, 1]"
        );
    }
}
