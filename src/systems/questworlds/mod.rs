//! `questworlds`: d20 rolls against ratings with masteries (rules §4).
//!
//! A side rolls a d20 against its rating's target: under it is a success,
//! equal a big success (two), over a failure; each mastery adds one. The
//! single contest ([`contest`]) is solved exactly by classes of faces; the
//! group contest ([`group`]) and the one-prize contest ([`prize`]) combine single
//! rolls; the three sequences ([`scored`], [`wagered`], [`chained`]) are
//! absorbing Markov chains over round-by-round contests ([`sequence`]),
//! solved by `exact::markov::absorb` below a documented state-space limit and
//! simulated always, with augments ([`augmented`]) and parting shots
//! ([`parting`]) in all three. A party against a gang plays them in
//! pairings ([`group_sequence`], Monte Carlo).

pub mod augmented;
pub mod chained;
pub mod contest;
pub mod group;
pub mod group_sequence;
mod memo;
mod outcomes;
pub mod parting;
pub mod prize;
pub mod rating;
pub mod roll;
pub mod scored;
pub mod sequence;
pub mod wagered;

#[cfg(test)]
mod tests_memo;
#[cfg(test)]
mod tests_parting;

pub use rating::Rating;
pub use roll::{Augment, Exchange, Matchup, Roll, Verdict};

use crate::systems::{Args, Choice, Lit, ParamError, ParamKind, ParamSpec, ParamValue, from_value};

crate::choice! {
    /// The resistance ladder (Table 2.3.3.1).
    pub enum Level {
        Simple = "simple",
        Easy = "easy",
        Routine = "routine",
        Straightforward = "straightforward",
        Base = "base",
        Challenging = "challenging",
        Hard = "hard",
        Punishing = "punishing",
        Exceptional = "exceptional",
    }
}

impl Level {
    /// The modifier to the base resistance.
    pub fn offset(self) -> i64 {
        match self {
            Level::Simple => -20,
            Level::Easy => -15,
            Level::Routine => -10,
            Level::Straightforward => -5,
            Level::Base => 0,
            Level::Challenging => 5,
            Level::Hard => 10,
            Level::Punishing => 15,
            Level::Exceptional => 20,
        }
    }
}

/// The default base resistance (§2.3.3).
pub const BASE_RESISTANCE: i64 = 10;

/// Modifiers come in steps of 5 (§2.4).
pub const MODIFIER_STEP: i64 = 5;

/// A rating parameter kind.
pub const RATING: ParamKind = ParamKind::Custom {
    expects: rating::RATING_EXPECTS,
};

/// A modifier: a multiple of 5 in -100..=100.
pub const MODIFIER: ParamKind = ParamKind::Custom {
    expects: "a multiple of 5 in -100..=100",
};

fn modifier_of(v: &ParamValue) -> Result<i64, String> {
    match v {
        ParamValue::Int(x) if (-100..=100).contains(x) && x % MODIFIER_STEP == 0 => Ok(*x),
        ParamValue::Int(x) => Err(format!("{x} is not a multiple of 5 in range")),
        other => Err(format!("{} is the wrong type", other.type_name())),
    }
}

/// An augment: 0, 5, 10, or `{ rating = "15" }`.
pub const AUGMENT: ParamKind = ParamKind::Custom {
    expects: "0, 5 or 10 (assured), or { rating = \"15\" } (rolled against the base resistance)",
};

/// A rolled augment as a table: `{ rating = "15" }`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RolledAugment {
    rating: Rating,
}

fn augment_of(v: &ParamValue) -> Result<Augment, String> {
    match v {
        ParamValue::Int(b @ (0 | 5 | 10)) => Ok(Augment::Assured(*b)),
        ParamValue::Int(b) => Err(format!("{b} is not an assured augment")),
        ParamValue::Table(_) => {
            let t: RolledAugment = from_value("augment", v)?;
            Ok(Augment::Rolled(t.rating))
        }
        other => Err(format!("{} is the wrong type", other.type_name())),
    }
}

/// Read an augment parameter.
pub fn augment(args: &Args, path: &str) -> Result<Augment, ParamError> {
    args.parsed(path, augment_of)
}

/// Read a modifier parameter.
pub fn modifier(args: &Args, path: &str) -> Result<i64, ParamError> {
    args.parsed(path, modifier_of)
}

/// The resistance a PC faces, from `resistance.rating`, or
/// `resistance.level` applied to `resistance.base` (default: the base).
pub fn resistance(args: &Args) -> Result<Rating, ParamError> {
    let base = rating::rating(args, "resistance.base")?;
    if args.is_set("resistance.rating") {
        if args.is_set("resistance.level") {
            return Err(ParamError::new(
                "resistance.level",
                "give either `resistance.rating` or `resistance.level`, not both",
            ));
        }
        return rating::rating(args, "resistance.rating");
    }
    let level = args.choice_if_set::<Level>("resistance.level")?;
    Ok(base.plus(level.map_or(0, Level::offset)))
}

/// PC against another character: its TN (`opponent.rating` plus
/// `opponent.modifier`) when any of `keys` is set, which rules out a
/// resistance; `None` when the PC faces a resistance.
pub fn opponent(args: &Args, keys: &[&str]) -> Result<Option<Rating>, ParamError> {
    let Some(key) = keys.iter().find(|k| args.is_set(k)) else {
        return Ok(None);
    };
    for rk in ["resistance.rating", "resistance.level"] {
        if args.is_set(rk) {
            return Err(ParamError::new(
                rk,
                format!(
                    "the PC faces either a resistance or a character (`{key}` is set), not both"
                ),
            ));
        }
    }
    if !args.is_set("opponent.rating") {
        return Err(ParamError::new(
            "opponent.rating",
            format!("is required when `{key}` is set"),
        ));
    }
    let rating = rating::rating(args, "opponent.rating")?;
    Ok(Some(rating.plus(modifier(args, "opponent.modifier")?)))
}

/// The three resistance keys.
pub const RESISTANCE_PARAMS: [ParamSpec; 3] = [
    ParamSpec {
        path: "resistance.rating",
        kind: RATING,
        default: Lit::Absent,
        doc: "The resistance's TN (default: the base resistance); ≤ 0 makes the contest assured.",
    },
    ParamSpec {
        path: "resistance.level",
        // The ladder runs from simple (−20) to exceptional (+20).
        kind: ParamKind::Ordered(Level::NAMES),
        default: Lit::Absent,
        doc: "A level of the resistance ladder applied to `resistance.base`: simple −20, easy −15, routine −10, straightforward −5, base 0, challenging +5, hard +10, punishing +15, exceptional +20.",
    },
    ParamSpec {
        path: "resistance.base",
        kind: RATING,
        default: Lit::Int(BASE_RESISTANCE),
        doc: "The base resistance: what levels apply to and what rolled augments face.",
    },
];
