//! The explorers of a tension scene as a scenario lists them: a die code,
//! or a table with a name, codes, a crisis clock, a stunt, help and the
//! explorer's own policies (rules §3.8).

use serde::Deserialize;

use super::choice::{self, TurnPolicy};
use crate::systems::cgg::FULL;
use crate::systems::cgg::action::Wrench;
use crate::systems::cgg::{DieCode, code_of};
use crate::systems::{Choice, InRange, ParamValue, from_value};

/// The most explorers a scenario may list.
pub const MAX_EXPLORERS: usize = 12;

pub const EXPLORERS_EXPECT: &str = "a non-empty list of explorers, each a die code or a table { name, code, risk_code, hours, roles, stunt, moved, helps, wrench, policy }, e.g. [\"3d\", { code = \"4d+1\", risk_code = \"3d\", helps = true }]";

/// One explorer.
#[derive(Clone, Debug, PartialEq)]
pub struct Explorer {
    pub name: String,
    pub code: DieCode,
    pub risk_code: DieCode,
    /// Hours on the clock at the start, and a full clock.
    pub hours: u32,
    pub full: u32,
    /// Stunts on every action (pays one hour: +1d), moving `moved` dice
    /// from risk to success.
    pub stunt: bool,
    pub moved: u32,
    /// Helps the first explorer to act after it while it has neither acted
    /// nor helped this round.
    pub helps: bool,
    /// Its own wrench policy (the scene's when unset).
    pub wrench: Option<Wrench>,
    /// Act, Idle or Ready (act when unset).
    pub policy: Option<TurnPolicy>,
}

/// An explorer written as a table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    name: Option<String>,
    code: DieCode,
    risk_code: Option<DieCode>,
    hours: Option<InRange<1, 12>>,
    roles: Option<InRange<1, 2>>,
    #[serde(default)]
    stunt: bool,
    #[serde(default)]
    moved: InRange<0, 9>,
    #[serde(default)]
    helps: bool,
    wrench: Option<String>,
    policy: Option<ParamValue>,
}

fn explorer(i: usize, v: &ParamValue) -> Result<Explorer, String> {
    let default_name = format!("e{}", i + 1);
    if !matches!(v, ParamValue::Table(_)) {
        let code = code_of(v).map_err(|e| format!("explorer {}: {e}", i + 1))?;
        return Ok(Explorer {
            name: default_name,
            code,
            risk_code: code,
            hours: FULL[0],
            full: FULL[0],
            stunt: false,
            moved: 0,
            helps: false,
            wrench: None,
            policy: None,
        });
    }
    let at = |e: String| format!("explorer {}: {e}", i + 1);
    let t: Table = from_value("explorer", v).map_err(at)?;
    let full = FULL[t.roles.map_or(1, |r| r.0) as usize - 1];
    let hours = t.hours.map_or(full as i64, |h| h.0) as u32;
    if hours > full {
        return Err(at(format!(
            "`hours`: {hours} is more than the full clock of {full}; allowed: 1..={full}"
        )));
    }
    let risk_code = t.risk_code.unwrap_or(t.code);
    let moved = t.moved.0 as u32;
    if moved > 0 && !t.stunt {
        return Err(at(
            "`moved`: moving dice is part of a stunt; set stunt = true; allowed: 0 without a stunt"
                .into(),
        ));
    }
    if moved > risk_code.dice() {
        return Err(at(format!(
            "`moved`: {moved} is more dice than the risk code {risk_code} has; allowed: 0..={}",
            risk_code.dice()
        )));
    }
    let wrench = match t.wrench {
        None => None,
        Some(w) => Some(Wrench::parse(&w).ok_or_else(|| {
            at(format!(
                "`wrench`: \"{w}\" is not a policy; allowed: {}",
                Wrench::NAMES.join(", ")
            ))
        })?),
    };
    let policy = match &t.policy {
        None => None,
        Some(p) => Some(
            choice::parse(p)
                .map_err(|e| at(format!("`policy`: {e}")))
                .map_err(|e| {
                    if e.contains("allowed:") {
                        e
                    } else {
                        format!("{e}; allowed: {}", crate::systems::policy::FORM)
                    }
                })?,
        ),
    };
    Ok(Explorer {
        name: t.name.unwrap_or(default_name),
        code: t.code,
        risk_code,
        hours,
        full,
        stunt: t.stunt,
        moved,
        helps: t.helps,
        wrench,
        policy,
    })
}

/// Parse the explorers list.
pub fn explorers(v: &ParamValue) -> Result<Vec<Explorer>, String> {
    let ParamValue::List(items) = v else {
        return Err(format!("{} is the wrong type", v.type_name()));
    };
    match items.len() {
        0 => return Err("the list is empty".into()),
        n if n > MAX_EXPLORERS => return Err(format!("more than {MAX_EXPLORERS} explorers")),
        _ => {}
    }
    let list = items
        .iter()
        .enumerate()
        .map(|(i, v)| explorer(i, v))
        .collect::<Result<Vec<_>, _>>()?;
    for (i, e) in list.iter().enumerate() {
        if e.name.is_empty() || e.name.contains(['.', ',', ' ']) {
            return Err(format!(
                "explorer {}: `name` \"{}\" must be a non-empty word (no spaces, dots or commas); allowed: e.g. \"ann\"",
                i + 1,
                e.name
            ));
        }
        if list[..i].iter().any(|o| o.name == e.name) {
            return Err(format!(
                "explorer {}: `name` \"{}\" is taken; allowed: a name no other explorer has",
                i + 1,
                e.name
            ));
        }
    }
    Ok(list)
}

/// Whom a choice of the Edge holder picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    Nobody,
    Holder,
    Weakest,
    Strongest,
    /// An explorer by its place in the list.
    Named(usize),
}

impl Pick {
    /// Read `"none"`, `"self"`, `"weakest"`, `"strongest"` or a name.
    pub fn parse(v: &ParamValue, list: &[Explorer], none: bool) -> Result<Pick, String> {
        let ParamValue::Str(s) = v else {
            return Err(format!("{} is the wrong type", v.type_name()));
        };
        Ok(match s.as_str() {
            "none" if none => Pick::Nobody,
            "self" => Pick::Holder,
            "weakest" => Pick::Weakest,
            "strongest" => Pick::Strongest,
            name => match list.iter().position(|e| e.name == name) {
                Some(i) => Pick::Named(i),
                None => {
                    return Err(format!(
                        "\"{name}\" is neither a choice nor an explorer's name; allowed: {}\"self\", \"weakest\", \"strongest\" or one of {}",
                        if none { "\"none\", " } else { "" },
                        list.iter()
                            .map(|e| format!("\"{}\"", e.name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            },
        })
    }

    /// The explorer picked (by place), the holder being `holder`; the
    /// weakest and the strongest by their code, the first listed on a tie.
    pub fn who(self, holder: usize, list: &[Explorer]) -> Option<usize> {
        let by_code = |best: fn(u32, u32) -> bool| {
            let mut pick = 0;
            for (i, e) in list.iter().enumerate() {
                if best(e.code.pips(), list[pick].code.pips()) {
                    pick = i;
                }
            }
            pick
        };
        match self {
            Pick::Nobody => None,
            Pick::Holder => Some(holder),
            Pick::Weakest => Some(by_code(|a, b| a < b)),
            Pick::Strongest => Some(by_code(|a, b| a > b)),
            Pick::Named(i) => Some(i),
        }
    }
}
