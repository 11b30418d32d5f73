//! One entity of a drama scene: its challenge pool, essence, passengers,
//! and its policies; the parameter keys that describe it, shared by the
//! duel (`a.*`, `b.*`) and the many-on-one tables (`pcs`, `key`).

use super::super::challenge::{Pool, RAISE_STEP, character_pool};
use super::rules::{Policy, parse_policy};
use crate::systems::{Args, ParamError, ParamSpec, ParamValue};

/// Most essence points and passengers one entity may have.
pub const MAX_ESSENCE: i64 = 6;
pub const MAX_PASSENGERS: i64 = 6;

/// When an entity spends essence, one point for +1 die on a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spend {
    Never,
    /// On its own Climax rolls and when resisting a Climax (the default).
    Climax,
    /// On every roll it makes, acting or resisting, while points last.
    Always,
}

crate::choice!(Spend {
    Never = "never",
    Climax = "climax",
    Always = "always"
});

crate::choice! {
    /// Whether passengers Aid Another.
    pub enum Aid {
        Always = "always",
        Never = "never",
    }
}

crate::choice! {
    /// Holding the initiative, act first or last.
    pub enum Order {
        First = "first",
        Last = "last",
    }
}

pub(crate) const SPEND_NAMES: &[&str] = <Spend as crate::systems::Choice>::NAMES;
pub(crate) const AID_NAMES: &[&str] = <Aid as crate::systems::Choice>::NAMES;
pub(crate) const ORDER_NAMES: &[&str] = <Order as crate::systems::Choice>::NAMES;

/// The keys of one entity under a prefix (`"a."`, `"b."`, or `""` inside a
/// `pcs`/`key` table).
macro_rules! entity_params {
    ($p:literal, $who:literal) => {
        [
            ParamSpec {
                path: concat!($p, "trait"),
                kind: ParamKind::IntOrName { min: 1, max: 6, names: TRAIT_NAMES },
                default: Lit::Str("full"),
                doc: concat!("Trait dice of ", $who, ": relevance \"full\" (3), \"partial\" (2), \"unrelated\" (1), or a die count."),
            },
            ParamSpec {
                path: concat!($p, "background"),
                kind: ParamKind::Int { min: 0, max: 6 },
                default: Lit::Int(0),
                doc: "Background level added to every roll.",
            },
            ParamSpec {
                path: concat!($p, "background_relevance"),
                kind: ParamKind::Choice(<Relevance as crate::systems::Choice>::NAMES),
                default: Lit::Str("full"),
                doc: "\"full\"; \"partial\": one forced raise when acting, 2 points off when targeted; \"none\".",
            },
            ParamSpec {
                path: concat!($p, "specialisation"),
                kind: ParamKind::Bool,
                default: Lit::Bool(false),
                doc: "+2 with a usable background.",
            },
            ParamSpec {
                path: concat!($p, "equipment"),
                kind: ParamKind::Int { min: 0, max: 100 },
                default: Lit::Int(0),
                doc: "Applicable equipment traits, +1 each, capped at +2.",
            },
            ParamSpec {
                path: concat!($p, "essence"),
                kind: ParamKind::Int { min: 0, max: MAX_ESSENCE },
                default: Lit::Int(0),
                doc: "Essence pool: points that each buy +1 die on one roll, spent by essence_policy.",
            },
            ParamSpec {
                path: concat!($p, "essence_policy"),
                kind: ParamKind::Choice(SPEND_NAMES),
                default: Lit::Str("climax"),
                doc: "When to spend essence: \"climax\" (on its Climax rolls and resisting a Climax), \"always\" (every roll, acting or resisting), \"never\".",
            },
            ParamSpec {
                path: concat!($p, "passengers"),
                kind: ParamKind::Int { min: 0, max: MAX_PASSENGERS },
                default: Lit::Int(0),
                doc: "Passengers: each gives a free raise every round by Aid Another (see aid).",
            },
            ParamSpec {
                path: concat!($p, "aid"),
                kind: ParamKind::Choice(AID_NAMES),
                default: Lit::Str("always"),
                doc: "Whether passengers Aid Another: \"always\" or \"never\".",
            },
            ParamSpec {
                path: concat!($p, "initiative_order"),
                kind: ParamKind::Choice(ORDER_NAMES),
                default: Lit::Str("first"),
                doc: "Holding the initiative, act \"first\" or \"last\" (a Block is declared at the start of the round either way).",
            },
            ParamSpec {
                path: concat!($p, "policy"),
                kind: ParamKind::Custom { expects: POLICY_EXPECTS },
                default: Lit::Absent,
                doc: "The action policy (default: Climax when allowed, Anticlimax when allowed, else Edge).",
            },
        ]
    };
}

/// One entity, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Entity {
    pub name: String,
    /// Its roll when it acts (trait dice, background, specialisation,
    /// equipment; no edge, no essence).
    pub pool: Pool,
    /// Forced raises on its actions (a partially relevant background).
    pub forced: u32,
    pub essence: u8,
    pub spend: Spend,
    pub passengers: u8,
    pub aid: bool,
    /// Holding the initiative, it acts first (else last).
    pub first: bool,
    pub policy: Policy,
}

impl Entity {
    /// Its bonus when it is the target: a partially relevant background
    /// costs it the 2 points a forced raise costs an actor (as a character
    /// opposition in `gateway.challenge`).
    pub fn guard(&self) -> i64 {
        self.pool.bonus - RAISE_STEP * self.forced as i64
    }

    /// Free raises its passengers give it every round.
    pub fn aid_raises(&self) -> u32 {
        if self.aid { self.passengers as u32 } else { 0 }
    }

    /// Whether it spends a point on a roll (acting or resisting) that does
    /// or does not involve a Climax, with `left` points left.
    #[inline]
    pub fn spends(&self, climax: bool, left: u8) -> bool {
        left > 0
            && match self.spend {
                Spend::Never => false,
                Spend::Climax => climax,
                Spend::Always => true,
            }
    }
}

/// The policy set at `path`, if any.
pub fn policy_at(args: &Args, path: &str) -> Result<Option<Policy>, ParamError> {
    match args.value(path) {
        None => Ok(None),
        Some(v) => parse_policy(&v)
            .map(Some)
            .map_err(|e| ParamError::new(path, e)),
    }
}

/// The entity under `prefix` (as `entity_params!` declares it), with the
/// given policy.
pub fn entity(args: &Args, prefix: &str, name: &str, policy: Policy) -> Result<Entity, ParamError> {
    let key = |k: &str| format!("{prefix}{k}");
    let (pool, forced) = character_pool(args, prefix, args.int(&key("trait"))?)?;
    let spend: Spend = args.choice_of(&key("essence_policy"))?;
    Ok(Entity {
        name: name.to_string(),
        pool,
        forced,
        essence: args.int(&key("essence"))? as u8,
        spend,
        passengers: args.int(&key("passengers"))? as u8,
        aid: args.choice_of::<Aid>(&key("aid"))? == Aid::Always,
        first: args.choice_of::<Order>(&key("initiative_order"))? == Order::First,
        policy,
    })
}

/// The entries of a table value, or why it is not one.
pub fn table_entries<'a>(
    v: &'a ParamValue,
    what: &str,
) -> Result<&'a [(String, ParamValue)], String> {
    match v {
        ParamValue::Table(t) => Ok(t),
        other => Err(format!(
            "{what} must be a table {{ … }}, not {}",
            other.type_name()
        )),
    }
}

/// The parameter tables `parts`, one after the other, as one array (for
/// `static` parameter lists built from [`entity_params!`] blocks).
pub const fn concat_params<const N: usize>(parts: &[&[ParamSpec]]) -> [ParamSpec; N] {
    let mut out = [parts[0][0]; N];
    let mut k = 0;
    let mut p = 0;
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            out[k] = parts[p][i];
            k += 1;
            i += 1;
        }
        p += 1;
    }
    assert!(k == N, "concat_params: wrong length");
    out
}
