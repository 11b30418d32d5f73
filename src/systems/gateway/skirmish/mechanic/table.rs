//! One entity's table read: its keys checked, its name, policy and
//! order kept for the names to be resolved against the whole scene.

use super::super::cast::{GM, Kind, Member, PCS};
use super::super::moves::{Policy, parse_policy};
use crate::systems::gateway::scene::entity::{entity, table_entries};
use crate::systems::gateway::scene::shorthand_policy;
use crate::systems::{Args, ParamError, ParamMap, ParamSpec, ParamValue};

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
}

pub(super) fn raw(
    v: &ParamValue,
    specs: &'static [ParamSpec],
    what: &str,
    default_name: &str,
    kind: Kind,
    fallback: &Policy,
) -> Result<Raw, String> {
    let mut map = ParamMap::new();
    for (k, x) in table_entries(v, what)? {
        map.set(k.clone(), x.clone());
    }
    let allowed = || specs.iter().map(|s| s.path).collect::<Vec<_>>().join(", ");
    let say = |e: ParamError| {
        if specs.iter().any(|s| s.path == e.key) {
            format!("{what}: `{}`: {}", e.key, e.message)
        } else {
            format!("{what}: unknown key `{}`; allowed: {}", e.key, allowed())
        }
    };
    let args = Args::new(specs, &map).map_err(say)?;
    let name = match args.value("name") {
        Some(v) => check_name(&v).map_err(|e| format!("{what}: `name`: {e}"))?,
        None => default_name.to_string(),
    };
    let policy = match args.value("policy") {
        Some(v) => parse_policy(&v).map_err(|e| format!("{what}: `policy`: {e}"))?,
        None => fallback.clone(),
    };
    let order = match args.value("order") {
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
    let has = |k: &str| specs.iter().any(|s| s.path == k);
    let significance = if has("significance") {
        args.int("significance").map_err(say)?
    } else {
        6
    };
    let significance = if kind == Kind::Key && !args.is_set("significance") {
        6
    } else {
        significance
    };
    let side = if has("side") {
        match args.value("side") {
            Some(ParamValue::Str(s)) if s == "pcs" => PCS,
            _ => GM,
        }
    } else if kind == Kind::Pc {
        PCS
    } else {
        GM
    };
    let count = if has("count") {
        args.int("count").map_err(say)?
    } else {
        1
    };
    // The scene's entity keys, with a placeholder scene policy (the
    // skirmish policy is kept beside it).
    let e = entity(&args, "", &name, shorthand_policy(true, true, 0)).map_err(say)?;
    Ok(Raw {
        member: Member {
            entity: e,
            kind,
            side,
            significance: significance as u8,
            policy: Vec::new(),
            order: None,
            group: false,
        },
        policy,
        order,
        count,
    })
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
