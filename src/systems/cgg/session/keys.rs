//! The keys of `cgg.session`: its params struct (those of `cgg.action`,
//! then its own) and the entries of `sequence`, each an action over the
//! session's action keys or a tension scene.

use super::super::action::{ActionKeys, ActionMechanic, ActionParams, action_params};
use super::super::tension::TensionMechanic;
use super::{FULL, MAX_ACTIONS, SEQUENCE_EXPECTS, Step};
use crate::model::{Given, parse_some};
use crate::systems::{Args, Define, ParamError, ParamMap, ParamValue};

/// A tension scene entry `{ tension = { … }, explorer = "name" }`.
fn entry_scene(
    keys: &[(String, ParamValue)],
    full: u32,
    bad: impl Fn(String) -> ParamError,
) -> Result<Step, ParamError> {
    let mut values = ParamMap::new();
    let mut name = None;
    for (k, v) in keys {
        match (k.as_str(), v) {
            ("tension", ParamValue::Table(t)) => {
                for (tk, tv) in t {
                    values.set(tk.clone(), tv.clone());
                }
            }
            ("explorer", ParamValue::Str(n)) => name = Some(n.clone()),
            _ => {
                return Err(bad(format!(
                    "`{k}` does not belong in a scene; allowed: tension (a table of cgg.tension keys), explorer (a name)"
                )));
            }
        }
    }
    let mut tension = TensionMechanic
        .trial(&values)
        .map_err(|e| bad(format!("tension: `{}`: {}", e.key, e.message)))?;
    let who = match name {
        None => 0,
        Some(n) => tension
            .explorers
            .iter()
            .position(|e| e.name == n)
            .ok_or_else(|| {
                bad(format!(
                    "`explorer`: \"{n}\" is not in the scene; allowed: {}",
                    tension
                        .explorers
                        .iter()
                        .map(|e| format!("\"{}\"", e.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?,
    };
    tension.explorers[who].full = full;
    Ok(Step::Scene {
        tension: Box::new(tension),
        who,
    })
}

/// The step of one `sequence` entry: a scene, or an action of the
/// session's action keys with the entry's in their place.
pub fn entry_step(
    session: ActionKeys,
    i: usize,
    entry: &ParamValue,
    full: u32,
) -> Result<Step, ParamError> {
    let bad = |msg: String| ParamError::new("sequence", format!("action {}: {msg}", i + 1));
    let ParamValue::Table(keys) = entry else {
        return Err(bad(format!(
            "{} is not a table of cgg.action keys; allowed: {SEQUENCE_EXPECTS}",
            entry.type_name()
        )));
    };
    if keys.iter().any(|(k, _)| k == "tension") {
        return entry_scene(keys, full, bad);
    }
    let mut values = ParamMap::new();
    for (k, v) in keys {
        values.set(k.clone(), v.clone());
    }
    Args::new(Define::params(&ActionMechanic), &values)
        .and_then(|args| args.typed::<ActionParams>())
        .and_then(|over| session.overlay(over.keys()).action())
        .map(Step::Action)
        .map_err(|e| bad(format!("`{}`: {}", e.key, e.message)))
}

action_params! {
    /// The parameters of `cgg.session`, one field per path of [`PARAMS`]:
    /// those of `cgg.action`, then its own; the entries of `sequence`
    /// are read in `build`, over the session's action keys.
    pub struct SessionParams {
        pub actions: Given<usize>,
        #[serde(default, deserialize_with = "sequence")]
        pub sequence: Option<Vec<ParamValue>>,
        #[serde(rename = "explorer.roles")]
        pub explorer_roles: usize,
        #[serde(rename = "explorer.hours", default)]
        pub explorer_hours: Option<u32>,
        #[serde(rename = "crisis.actions")]
        pub crisis_actions: u32,
    }
}

fn sequence<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<ParamValue>>, D::Error> {
    parse_some(d, |v| match v {
        ParamValue::List(items) if (1..=MAX_ACTIONS).contains(&items.len()) => Ok(items.clone()),
        ParamValue::List(items) => Err(format!("{} actions", items.len())),
        other => Err(format!("{} is the wrong type", other.type_name())),
    })
}

/// The session's steps, its full clock and the explorer's starting hours,
/// as the keys describe them.
pub(super) fn steps(p: &SessionParams) -> Result<(Vec<Step>, u32, u32), ParamError> {
    let full = FULL[p.explorer_roles - 1];
    let keys = p.keys();
    let actions = match &p.sequence {
        Some(items) => {
            if p.actions.given {
                return Err(ParamError::new(
                    "actions",
                    "give either actions (repeats of one action) or sequence, not both",
                ));
            }
            items
                .iter()
                .enumerate()
                .map(|(i, e)| entry_step(keys, i, e, full))
                .collect::<Result<Vec<_>, _>>()?
        }
        None => vec![Step::Action(keys.action()?); p.actions.value],
    };
    let start = match p.explorer_hours {
        Some(h) => {
            if h > full {
                return Err(ParamError::new(
                    "explorer.hours",
                    format!("{h} is more than the full clock of {full}; allowed: 1..={full}"),
                ));
            }
            h
        }
        None => full,
    };
    Ok((actions, full, start))
}
