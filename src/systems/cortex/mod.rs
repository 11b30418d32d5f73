//! `cortex`: step-dice pools where the two highest dice not showing 1 make
//! the total (rules §2).
//!
//! [`pool`] parses pools, [`roll`] holds the exact law of one roll and its
//! sampler, and [`tables`] draws a whole roll from that law for the
//! multi-round mechanics; [`basic`] (one action against set stakes),
//! [`contested`] (stakes raised back and forth), [`timed`] (basic actions
//! against a clock of beats) and [`fight`] (actions until a side is out)
//! are the mechanics. This file holds what they share: the scenario keys
//! for the two sides and the loser's fate.

pub mod basic;
pub mod contested;
pub mod fight;
pub mod pool;
pub mod roll;
pub mod tables;
pub mod timed;

#[cfg(test)]
mod enumeration;
#[cfg(test)]
mod tests_mechanics;

pub use pool::{Pool, PoolError};
pub use roll::RatingTie;

use crate::model::Given;
use crate::systems::{
    CHECKED, Choice, FieldKind, FieldSpec, Lit, ParamError, ParamKind, ParamSpec, ParamValue,
};

/// Labels of `loser_takes`.
pub const TAKES: [&str; 3] = ["none", "complication", "trauma"];
/// Labels of the derived `trauma` field: who ends up with trauma.
pub const TRAUMA: [&str; 3] = ["none", "dealt", "taken"];
/// A margin of this much or more is extraordinary, and knocks out the loser.
pub const KNOCKOUT: i64 = 5;
/// A final push adds this to the pusher's total per step.
pub const PUSH: i64 = 5;

/// A pool parameter's value, read by [`pool_of`].
impl TryFrom<ParamValue> for Pool {
    type Error = String;

    fn try_from(v: ParamValue) -> Result<Pool, String> {
        pool_of(&v)
    }
}

/// The pool a pool value names.
fn pool_of(v: &ParamValue) -> Result<Pool, String> {
    match v {
        ParamValue::Str(s) => s.parse().map_err(|e: PoolError| format!("\"{s}\": {e}")),
        other => Err(format!("{} is the wrong type", other.type_name())),
    }
}

const POOL_KIND: ParamKind = ParamKind::Custom {
    expects: "a pool of 1..=20 step dice such as \"d8 d6 d6\" or \"2d6 d10\" (sizes d4, d6, d8, d10, d12)",
};

pub(crate) const ACTOR_POOL: ParamSpec = ParamSpec {
    path: "actor.pool",
    kind: POOL_KIND,
    default: Lit::Str("d8 d6 d6"),
    doc: "The actor's dice pool.",
};
pub(crate) const ACTOR_AID: ParamSpec = ParamSpec {
    path: "actor.aid",
    kind: POOL_KIND,
    default: Lit::Absent,
    doc: "An aiding helper's pool: its single highest non-1 die is added to the actor's total.",
};
pub(crate) const OPPOSITION_POOL: ParamSpec = ParamSpec {
    path: "opposition.pool",
    kind: POOL_KIND,
    default: Lit::Absent,
    doc: "The opposing character's pool (instead of a trouble pool).",
};
pub(crate) const OPPOSITION_TROUBLE: ParamSpec = ParamSpec {
    path: "opposition.trouble",
    kind: ParamKind::Int { min: 1, max: 20 },
    default: Lit::Int(2),
    doc: "A trouble pool of N d6 (used when `opposition.pool` is not set).",
};
pub(crate) const OPPOSITION_GANG: ParamSpec = ParamSpec {
    path: "opposition.gang",
    kind: POOL_KIND,
    default: Lit::Absent,
    doc: "Ganging up: one die per extra opponent (its best trait), added to the opposition's pool.",
};
pub(crate) const RATING_TIE: ParamSpec = ParamSpec {
    path: "variant.rating_tie",
    kind: ParamKind::Choice(RatingTie::NAMES),
    default: Lit::Str("larger"),
    doc: "Which die rates a complication when re-rolled dice tie on the highest value.",
};
crate::choice! {
    /// The actor's final-push policy.
    pub enum FinalPush {
        Never = "never",
        /// Facing trauma, step down a trait for +5 per step until within 5.
        UntilSafe = "until-safe",
    }
}

pub(crate) const FINAL_PUSH: ParamSpec = ParamSpec {
    path: "policy.final_push",
    kind: ParamKind::Choice(FinalPush::NAMES),
    default: Lit::Str("never"),
    doc: "The actor, facing trauma, steps down a trait for +5 per step until within 5 (never to win).",
};

/// A cortex mechanic's params struct: the five keys of its two sides
/// ([`Sides`]: `actor.pool`, `actor.aid`, `opposition.pool`,
/// `opposition.trouble`, `opposition.gang`), written here once, and the
/// mechanic's own fields. serde cannot prefix or flatten a group of keys
/// and still list them (`fields_of`), hence a macro.
macro_rules! sides_params {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($(#[$fmeta:meta])* $vis:vis $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            #[serde(rename = "actor.pool")]
            pub actor: $crate::systems::cortex::Pool,
            #[serde(rename = "actor.aid", default)]
            pub aid: Option<$crate::systems::cortex::Pool>,
            #[serde(rename = "opposition.pool", default)]
            pub opposition: Option<$crate::systems::cortex::Pool>,
            #[serde(rename = "opposition.trouble")]
            pub trouble: $crate::model::Given<i64>,
            #[serde(rename = "opposition.gang", default)]
            pub gang: Option<$crate::systems::cortex::Pool>,
            $($(#[$fmeta])* $vis $field: $ty,)*
        }
    };
}
pub(crate) use sides_params;

/// Both sides of an action as the scenario sets them.
#[derive(Clone, Debug, PartialEq)]
pub struct Sides {
    pub actor: Pool,
    /// The aiding helper's pool.
    pub aid: Option<Pool>,
    /// The opposition's own pool (a character's, or the trouble pool).
    pub opposition: Pool,
    /// Extra dice from ganging up, largest first.
    pub gang: Vec<u32>,
}

impl Sides {
    /// Check the keys `opposition.pool` and `opposition.trouble`: the
    /// opposition is its own pool or else a trouble pool, never both.
    pub(crate) fn check(opposition: &Option<Pool>, trouble: &Given<i64>) -> Result<(), ParamError> {
        match opposition {
            Some(_) if trouble.given => Err(ParamError::new(
                "opposition.trouble",
                "the opposition is either a pool (`opposition.pool` is set) or a trouble pool, not both",
            )),
            Some(_) => Ok(()),
            None => trouble_pool(trouble.value).map(drop),
        }
    }

    /// The key that has no effect: the trouble pool's size beside a set
    /// `opposition.pool` (rules: a pool excludes the trouble pool).
    pub(crate) fn idle(opposition: &Option<Pool>) -> Vec<&'static str> {
        match opposition {
            Some(_) => vec!["opposition.trouble"],
            None => Vec::new(),
        }
    }

    /// The sides from the keys `actor.pool`, `actor.aid`,
    /// `opposition.pool`, `opposition.trouble` and `opposition.gang`, as
    /// [`Sides::check`] passed them.
    pub(crate) fn new(
        actor: Pool,
        aid: Option<Pool>,
        opposition: Option<Pool>,
        trouble: Given<i64>,
        gang: Option<Pool>,
    ) -> Sides {
        let opposition = match opposition {
            Some(pool) => pool,
            // The pool's own check (a size) is made again: it is the pool.
            None => trouble_pool(trouble.value).expect(CHECKED),
        };
        Sides {
            actor,
            aid,
            opposition,
            gang: gang.map(|p| p.dice().to_vec()).unwrap_or_default(),
        }
    }

    /// The opposition's pool with `g` gang dice still in (the smallest `g`:
    /// knocked-out dice go largest first).
    pub fn opposition_with(&self, g: usize) -> Pool {
        self.opposition.with(&self.gang[self.gang.len() - g..])
    }
}

/// The trouble pool of `dice` d6, or why there is none.
fn trouble_pool(dice: i64) -> Result<Pool, ParamError> {
    Pool::uniform(dice as usize, 6)
        .map_err(|e| ParamError::new("opposition.trouble", e.to_string()))
}

impl FinalPush {
    /// Whether the actor pushes until safe.
    pub fn pushes(self) -> bool {
        match self {
            FinalPush::Never => false,
            FinalPush::UntilSafe => true,
        }
    }
}

/// What the loser of a roll-off by `margin` (winner − loser ≥ 0) takes:
/// `(margin after any final push, takes: 0 none / 1 complication /
/// 2 trauma, push steps)`. A loser that pushes steps down a trait for +5
/// until within 5; since `margin / 5` steps leave `margin % 5`, it never
/// wins (a tie still loses) and never spends a step more than it needs.
/// `tie_deals` says whether a margin of 0 deals a complication: the
/// default, since a tie is a GM win by 0 ("if the GM wins (you roll less
/// than or equal to the stakes) … you may take the Complication", rules
/// §2.2 corrected 2026-11-22); `variant.tie = "nothing"` is the old reading.
#[inline]
pub fn fate_with(margin: i64, loser_pushes: bool, tie_deals: bool) -> (i64, i64, i64) {
    let (m, steps) = if loser_pushes && margin >= KNOCKOUT {
        (margin % PUSH, margin / PUSH)
    } else {
        (margin, 0)
    };
    let takes = match m {
        0 => tie_deals as i64,
        1..KNOCKOUT => 1,
        _ => 2,
    };
    (m, takes, steps)
}

crate::choice! {
    /// What a tie (margin 0) deals the side that rolled (`variant.tie`).
    pub enum TieRule {
        /// A complication: a tie is a GM win by 0.
        Complication = "complication",
        /// Nothing (the old reading).
        Nothing = "nothing",
    }
}

pub(crate) const TIE: ParamSpec = ParamSpec {
    path: "variant.tie",
    kind: ParamKind::Choice(TieRule::NAMES),
    default: Lit::Str("complication"),
    doc: "A tie (margin 0) is a GM win by 0: the side that rolled takes a complication (rules §2.2, corrected 2026-11-22: \"less than or equal to the stakes\"), or, as the old reading, nothing.",
};

impl TieRule {
    /// Whether a tie deals a complication.
    pub fn deals(self) -> bool {
        match self {
            TieRule::Complication => true,
            TieRule::Nothing => false,
        }
    }
}

/// The derived `trauma` field: 1 when the actor deals trauma, 2 when it
/// takes it.
#[inline]
pub fn trauma(actor_wins: bool, takes: i64) -> i64 {
    match (takes, actor_wins) {
        (2, true) => 1,
        (2, false) => 2,
        _ => 0,
    }
}

/// Field specs shared by the mechanics that end in a loser's fate.
pub(crate) fn fate_fields() -> [FieldSpec; 3] {
    [
        FieldSpec::new(
            "loser_takes",
            FieldKind::Category(TAKES.to_vec()),
            "What the loser takes: margin 1..=4 a complication, 5+ trauma (after any final push).",
        ),
        FieldSpec::int(
            "rating",
            "Die size rating the complication or trauma (re-roll of the winner's pool minus its 1s); 0 when none.",
        ),
        FieldSpec::new(
            "trauma",
            FieldKind::Category(TRAUMA.to_vec()),
            "Who ends with trauma: \"dealt\" (the opposition) or \"taken\" (the actor).",
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fate_by_margin_and_push() {
        for tie in [true, false] {
            assert_eq!(fate_with(1, false, tie), (1, 1, 0));
            assert_eq!(fate_with(4, false, tie), (4, 1, 0));
            assert_eq!(fate_with(5, false, tie), (5, 2, 0));
            assert_eq!(fate_with(17, false, tie), (17, 2, 0));
            // pushing: 6 under → one step → 1 under, a complication
            assert_eq!(fate_with(6, true, tie), (1, 1, 1));
            assert_eq!(fate_with(16, true, tie), (1, 1, 3));
            assert_eq!(fate_with(4, true, tie), (4, 1, 0));
        }
    }

    #[test]
    fn tie_is_a_gm_win_by_zero_and_deals_a_complication() {
        // rules §2.2 (corrected): "less than or equal to the stakes".
        assert_eq!(fate_with(0, false, true), (0, 1, 0));
        // 5 under → one step → a tie, which loses and deals a complication
        assert_eq!(fate_with(5, true, true), (0, 1, 1));
        assert_eq!(fate_with(10, true, true), (0, 1, 2));
        // variant.tie = "nothing": the old reading
        assert_eq!(fate_with(0, false, false), (0, 0, 0));
        assert_eq!(fate_with(5, true, false), (0, 0, 1));
    }
}
