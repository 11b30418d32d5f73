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

use crate::model::{Given, parse_value};
use crate::systems::{Choice, Lit, ParamError, ParamKind, ParamSpec, ParamValue, from_value};

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

/// A modifier key, for `#[serde(deserialize_with = "modifier")]`.
pub fn modifier<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    parse_value(d, modifier_of)
}

/// An augment key, for `#[serde(deserialize_with = "augment")]`.
pub fn augment<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Augment, D::Error> {
    parse_value(d, augment_of)
}

/// A modifier key and whether the scenario set it.
pub fn given_modifier<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Given<i64>, D::Error> {
    parse_given(d, modifier_of)
}

/// An augment key and whether the scenario set it.
pub fn given_augment<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Given<Augment>, D::Error> {
    parse_given(d, augment_of)
}

/// [`parse_value`] for a [`Given`] field.
fn parse_given<'de, D: serde::Deserializer<'de>, T>(
    d: D,
    parse: impl FnOnce(&ParamValue) -> Result<T, String>,
) -> Result<Given<T>, D::Error> {
    use serde::Deserialize;
    let v = Given::<ParamValue>::deserialize(d)?;
    let value = parse(&v.value).map_err(serde::de::Error::custom)?;
    Ok(Given {
        value,
        given: v.given,
    })
}

/// The three resistance keys as read.
#[derive(Clone, Copy, Debug)]
pub struct Resistance {
    /// `resistance.rating`.
    pub rating: Option<Rating>,
    /// `resistance.level`.
    pub level: Option<Level>,
    /// `resistance.base`.
    pub base: Rating,
}

impl Resistance {
    /// The resistance a PC faces: `resistance.rating`, or
    /// `resistance.level` applied to `resistance.base` (default: the base).
    pub fn tn(&self) -> Result<Rating, ParamError> {
        if let Some(rating) = self.rating {
            if self.level.is_some() {
                return Err(ParamError::new(
                    "resistance.level",
                    "give either `resistance.rating` or `resistance.level`, not both",
                ));
            }
            return Ok(rating);
        }
        Ok(self.base.plus(self.level.map_or(0, Level::offset)))
    }
}

/// The keys of whom the PC faces that have no effect: a resistance's
/// beside a character (`character`: an `opponent.*` key is set), a
/// character's beside a resistance, and `resistance.level` and
/// `resistance.base` beside a set `resistance.rating`. `resistance.base`
/// is never idle while an augment is rolled (`rolled`): a rolled augment
/// faces it, whoever the opposition is.
pub fn idle_opposition(
    character: bool,
    resistance: &Resistance,
    rolled: bool,
) -> Vec<&'static str> {
    let mut idle = if character {
        vec!["resistance.rating", "resistance.level", "resistance.base"]
    } else {
        let mut idle = vec!["opponent.rating", "opponent.modifier", "opponent.augment"];
        if resistance.rating.is_some() {
            idle.extend(["resistance.level", "resistance.base"]);
        }
        idle
    };
    if rolled {
        idle.retain(|&k| k != "resistance.base");
    }
    idle
}

/// PC against another character: its TN (`opponent.rating` plus
/// `opponent.modifier`) when `set` names one of the opponent's keys the
/// scenario set, which rules out a resistance; `None` when the PC faces a
/// resistance.
pub fn opponent(
    set: Option<&str>,
    rating: Option<Rating>,
    modifier: i64,
    resistance: &Resistance,
) -> Result<Option<Rating>, ParamError> {
    let Some(key) = set else {
        return Ok(None);
    };
    for (rk, given) in [
        ("resistance.rating", resistance.rating.is_some()),
        ("resistance.level", resistance.level.is_some()),
    ] {
        if given {
            return Err(ParamError::new(
                rk,
                format!(
                    "the PC faces either a resistance or a character (`{key}` is set), not both"
                ),
            ));
        }
    }
    let Some(rating) = rating else {
        return Err(ParamError::new(
            "opponent.rating",
            format!("is required when `{key}` is set"),
        ));
    };
    Ok(Some(rating.plus(modifier)))
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
