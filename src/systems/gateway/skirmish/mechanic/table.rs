//! One entity's table read: its keys checked, its name, policy and
//! order kept for the names to be resolved against the whole scene.

use serde::Deserialize;

use super::super::cast::{GM, Kind, Member, PCS};
use super::super::moves::{Category, Move, Play, Policy, parse_policy};
use super::params::SideName;
use crate::model::Given;
use crate::systems::gateway::scene::entity::{
    EntityKeys, MAX_ESSENCE, entity, read_entity_table, table_entries,
};
use crate::systems::gateway::scene::shorthand_policy;
use crate::systems::policy::Rule;
use crate::systems::{ParamSpec, ParamValue};

pub(super) fn check_name(v: &ParamValue) -> Result<String, String> {
    match v {
        ParamValue::Str(s)
            if !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
        {
            Ok(s.clone())
        }
        other => Err(format!("name {other} must be letters, digits, `_` or `-`")),
    }
}

/// One entity read from its table, before names are resolved.
pub(super) struct Raw {
    pub(super) member: Member,
    pub(super) policy: Policy,
    pub(super) order: Option<Vec<String>>,
    pub(super) count: i64,
    /// The name of its lead, when it is a passenger.
    pub(super) lead: Option<String>,
    /// `side` was given (a passenger takes its lead's otherwise).
    pub(super) side_set: bool,
    /// Its `enters` as written (names resolved with the whole scene).
    pub(super) enters: Option<ParamValue>,
}

pub(super) fn raw(
    v: &ParamValue,
    specs: &'static [ParamSpec],
    what: &str,
    default_name: &str,
    kind: Kind,
    fallback: &Policy,
) -> Result<Raw, String> {
    let (keys, t): (EntityKeys, TableKeys) = read_entity_table(v, specs, what)?;
    let name = match &t.name {
        Some(v) => check_name(v).map_err(|e| format!("{what}: `name`: {e}"))?,
        None => default_name.to_string(),
    };
    let policy = match &t.policy {
        Some(v) => parse_policy(v).map_err(|e| format!("{what}: `policy`: {e}"))?,
        // An entrant's default opens with a Surprise on every opponent.
        None if t.in_play == Some(false) => {
            let mut p = fallback.clone();
            p.rules.insert(
                0,
                Rule {
                    when: None,
                    choice: Play::new(&[Move::Surprise], 0),
                },
            );
            p
        }
        None => fallback.clone(),
    };
    let order = match &t.order {
        None => None,
        Some(ParamValue::List(items)) => Some(
            items
                .iter()
                .map(|x| check_name(x).map_err(|e| format!("{what}: `order`: {e}")))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Some(other) => {
            return Err(format!(
                "{what}: `order` must be a list of entity names, not {}",
                other.type_name()
            ));
        }
    };
    // The key entity's significance is 6 unless its table sets one.
    let significance = match t.significance {
        Some(s) if kind != Kind::Key || s.given => s.value,
        _ => 6,
    };
    let side = match (t.side, kind) {
        (Some(s), _) => match s.value {
            SideName::Pcs => PCS,
            SideName::Gm => GM,
        },
        (None, Kind::Pc) => PCS,
        (None, _) => GM,
    };
    if t.enters.is_some() && t.in_play != Some(false) {
        return Err(format!(
            "{what}: `enters` says when an entity out of play enters; it is in play from the start (set `in_play = false`)"
        ));
    }
    // The table's defaults are filled in (`scale` 1), so another `scale`
    // is one the scenario set.
    if t.scale.is_some_and(|x| x != 1) && t.squad.unwrap_or(0) == 0 {
        return Err(format!(
            "{what}: `scale` is a squad's (\"scale 2 mooks\"); set `squad`, its members, or drop `scale`"
        ));
    }
    if t.recruit == Some(true) && t.lead.is_none() {
        return Err(format!(
            "{what}: `recruit = true` needs `lead`, the entity that recruits it"
        ));
    }
    let lead = match &t.lead {
        None => None,
        Some(v) => Some(check_name(v).map_err(|e| format!("{what}: `lead`: {e}"))?),
    };
    let pools = match &t.essence_pools {
        None => None,
        Some(v) => {
            if t.essence.given {
                return Err(format!(
                    "{what}: `essence` and `essence_pools` both set; give one (the pools by category, or one undivided pool)"
                ));
            }
            Some(pools_of(v).map_err(|e| format!("{what}: `essence_pools`: {e}"))?)
        }
    };
    // The scene's entity keys, with a placeholder scene policy (the
    // skirmish policy is kept beside it).
    let e = entity(&keys, &name, shorthand_policy(true, true, 0));
    Ok(Raw {
        member: Member {
            entity: e,
            kind,
            side,
            significance: significance as u8,
            policy: Vec::new(),
            order: None,
            group: false,
            lead: None,
            pools,
            category: t.category.unwrap_or(Category::Physical),
            absent: t.in_play == Some(false),
            enters: None,
            recruit: t.recruit == Some(true),
            passive: t.passive == Some(true),
            squad: t.squad.unwrap_or(0) as u8,
            scale: t.scale.unwrap_or(1) as u8,
        },
        policy,
        order,
        count: t.count.unwrap_or(1),
        lead,
        side_set: t.side.is_some_and(|s| s.given),
        enters: t.enters.clone(),
    })
}

/// The keys of an entity's table beside its entity's ([`EntityKeys`]):
/// each read where the table's kind declares it (a PC's has no
/// `significance`, only a minor entity's has `count`, `side`, `lead`).
#[derive(Deserialize)]
struct TableKeys {
    #[serde(default)]
    name: Option<ParamValue>,
    #[serde(default)]
    policy: Option<ParamValue>,
    #[serde(default)]
    order: Option<ParamValue>,
    #[serde(default)]
    significance: Option<Given<i64>>,
    #[serde(default)]
    count: Option<i64>,
    #[serde(default)]
    side: Option<Given<SideName>>,
    #[serde(default)]
    lead: Option<ParamValue>,
    #[serde(default)]
    essence_pools: Option<ParamValue>,
    #[serde(default)]
    category: Option<Category>,
    #[serde(default)]
    in_play: Option<bool>,
    #[serde(default)]
    enters: Option<ParamValue>,
    #[serde(default)]
    recruit: Option<bool>,
    #[serde(default)]
    passive: Option<bool>,
    #[serde(default)]
    squad: Option<i64>,
    #[serde(default)]
    scale: Option<i64>,
    /// Set beside `essence_pools` is an error.
    essence: Given<i64>,
}

/// Essence pools by category from `{ fate, mental, physical, social }`.
fn pools_of(v: &ParamValue) -> Result<[u8; 4], String> {
    let mut out = [0u8; 4];
    for (k, x) in table_entries(v, "`essence_pools`")? {
        let c = Category::from_name(k).ok_or_else(|| {
            format!(
                "unknown category `{k}`; allowed: {}",
                Category::NAMES.join(", ")
            )
        })?;
        match x {
            ParamValue::Int(n) if (0..=MAX_ESSENCE).contains(n) => out[c as usize] = *n as u8,
            other => {
                return Err(format!(
                    "`{k}` = {other} is out of range; allowed: 0..={MAX_ESSENCE}"
                ));
            }
        }
    }
    Ok(out)
}

pub(super) fn list<'a>(v: &'a ParamValue, what: &str) -> Result<&'a [ParamValue], String> {
    match v {
        ParamValue::List(items) => Ok(items),
        other => Err(format!(
            "must be a list of {what}, not {}",
            other.type_name()
        )),
    }
}
