//! One entity of a drama scene: its challenge pool, essence, passengers,
//! and its policies; the parameter keys that describe it, shared by the
//! duel (`a.*`, `b.*`) and the many-on-one tables (`pcs`, `key`).

use super::super::challenge::{Background, Pool, RAISE_STEP, Relevance, character_pool};
use super::rules::{Policy, parse_policy};
use crate::systems::{Args, ParamError, ParamMap, ParamSpec, ParamValue};

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

/// One entity's keys as read (the paths `entity_params!` declares,
/// without their prefix): what [`entity`] builds an [`Entity`] from. A
/// table of keys (`pcs`, `key`) deserializes into it directly; a
/// prefixed group (`a.*`) is copied into it from its mechanic's fields.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct EntityKeys {
    /// Trait dice (a relevance name resolved to its count).
    #[serde(rename = "trait")]
    pub dice: i64,
    pub background: i64,
    pub background_relevance: Relevance,
    pub specialisation: bool,
    pub equipment: i64,
    pub essence: i64,
    pub essence_policy: Spend,
    pub passengers: i64,
    pub aid: Aid,
    pub initiative_order: Order,
    /// The policy as written, parsed by [`policy_of`].
    #[serde(default)]
    pub policy: Option<ParamValue>,
}

impl EntityKeys {
    /// What its background, specialisation and equipment add.
    pub fn background(&self) -> Background {
        Background {
            level: self.background,
            relevance: self.background_relevance,
            specialisation: self.specialisation,
            equipment: self.equipment,
        }
    }
}

/// The policy `value` of the key `path`, parsed, if set.
pub fn policy_of(value: &Option<ParamValue>, path: &str) -> Result<Option<Policy>, ParamError> {
    match value {
        None => Ok(None),
        Some(v) => parse_policy(v)
            .map(Some)
            .map_err(|e| ParamError::new(path, e)),
    }
}

/// The entity `keys` describe, named `name`, with the given policy.
pub fn entity(keys: &EntityKeys, name: &str, policy: Policy) -> Entity {
    let (pool, forced) = character_pool(keys.background(), keys.dice);
    Entity {
        name: name.to_string(),
        pool,
        forced,
        essence: keys.essence as u8,
        spend: keys.essence_policy,
        passengers: keys.passengers as u8,
        aid: keys.aid == Aid::Always,
        first: keys.initiative_order == Order::First,
        policy,
    }
}

/// An entity's own table (a PC, K, a minor entity), checked against
/// `specs` and read as its [`EntityKeys`] and the table's other keys `T`
/// (`serde::de::IgnoredAny` when there are none). Errors begin with
/// `what`, and name an unknown key with the keys the table allows.
pub fn read_entity_table<T: serde::de::DeserializeOwned>(
    v: &ParamValue,
    specs: &'static [ParamSpec],
    what: &str,
) -> Result<(EntityKeys, T), String> {
    let mut map = ParamMap::new();
    for (k, x) in table_entries(v, what)? {
        map.set(k.clone(), x.clone());
    }
    let say = |e: ParamError| {
        if specs.iter().any(|s| s.path == e.key) {
            format!("{what}: `{}`: {}", e.key, e.message)
        } else {
            format!(
                "{what}: unknown key `{}`; allowed: {}",
                e.key,
                crate::model::paths(specs)
            )
        }
    };
    let args = Args::new(specs, &map).map_err(say)?;
    Ok((args.typed().map_err(say)?, args.typed().map_err(say)?))
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
