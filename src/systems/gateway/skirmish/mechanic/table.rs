//! One entity's table read: its keys checked, its name, policy and
//! order kept for the names to be resolved against the whole scene.

use super::super::cast::{GM, Kind, Member, PCS};
use super::super::moves::{Category, Policy, parse_policy};
use crate::systems::gateway::scene::entity::{MAX_ESSENCE, entity, table_entries};
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
    /// The name of its lead, when it is a passenger.
    pub(super) lead: Option<String>,
    /// `side` was given (a passenger takes its lead's otherwise).
    pub(super) side_set: bool,
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
    let allowed = || crate::model::paths(specs);
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
    let opt = |k: &str| if has(k) { args.value(k) } else { None };
    let lead = match opt("lead") {
        None => None,
        Some(v) => Some(check_name(&v).map_err(|e| format!("{what}: `lead`: {e}"))?),
    };
    let pools = match opt("essence_pools") {
        None => None,
        Some(v) => {
            if args.is_set("essence") {
                return Err(format!(
                    "{what}: `essence` and `essence_pools` both set; give one (the pools by category, or one undivided pool)"
                ));
            }
            Some(pools_of(&v).map_err(|e| format!("{what}: `essence_pools`: {e}"))?)
        }
    };
    let category = match opt("category") {
        Some(ParamValue::Str(c)) => Category::from_name(&c).unwrap_or(Category::Physical),
        _ => Category::Physical,
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
            lead: None,
            pools,
            category,
        },
        policy,
        order,
        count,
        lead,
        side_set: has("side") && args.is_set("side"),
    })
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
