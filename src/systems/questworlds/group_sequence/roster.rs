//! The two rosters of a group sequence as the scenario writes them, read
//! through serde once (unknown keys refused; errors name the PC, follower
//! or opponent, the key, and what is allowed):
//!
//! ```toml
//! pcs = [ { rating = "5M", followers = [ { rating = "15", role = "secondary" } ], resolve = 5 } ]
//! opponents = [ { rating = "18", kind = "named" }, { rating = "12", kind = "mook", count = 4 } ]
//! ```
//!
//! A string of ratings is the short form of either list (`"15 5M"`: PCs
//! without followers, or named opponents), and `opponents` may carry a
//! name for outputs and charts: `{ name = "four mooks", roster = [ … ] }`.

use serde::{Deserialize, Deserializer};

use super::super::Rating;
use super::super::rating;
use crate::systems::{Choice, InRange, ParamValue, from_value};

/// PCs in one group sequence.
pub const MAX_PCS: usize = 6;
/// Opponents in one group sequence, counting every mook of a `count`.
pub const MAX_OPPONENTS: usize = 12;
/// Followers of one PC.
pub const MAX_FOLLOWERS: usize = 4;

/// What `pcs` accepts.
pub const PCS_EXPECTS: &str = "a list of 1..=6 PCs { rating = \"5M\", followers = [ { rating = \"15\", role = \"contestant\" | \"secondary\" | \"supporter\" } ], resolve = 1..=10 }, or a string of ratings \"15 5M\"";
/// What `opponents` accepts.
pub const OPPONENTS_EXPECTS: &str = "a list of opponents { rating = \"18\", kind = \"named\" | \"mook\" | \"impersonal\", count = 1..=12, resolve = 1..=10 } (1..=12 in all), a string of ratings \"18 12\" (named), or { name = \"…\", roster = [ … ] }";

crate::choice! {
    /// How a follower takes part (§5.2.1.3, §5.3.1.5, §5.4.4).
    pub enum Role {
        /// Rolls as a PC would, with its own tally (3 RP, 3 resolve, its TN in AP).
        Contestant = "contestant",
        /// Sticks by its PC: takes RP (scored), adds its AP (wagered), or
        /// augments and absorbs one defeat (chained).
        Secondary = "secondary",
        /// Only assists.
        Supporter = "supporter",
    }
}

crate::choice! {
    /// What an opponent is (§5.4.5, §5.4.6): its chained resolve.
    pub enum Kind {
        Named = "named",
        Mook = "mook",
        Impersonal = "impersonal",
    }
}

impl Kind {
    /// Chained resolve by kind: named 3, mook 1, impersonal 1 (the text's
    /// usual value; `resolve` sets 1..5 for a harder one).
    pub fn resolve(self) -> i64 {
        match self {
            Kind::Named => 3,
            Kind::Mook | Kind::Impersonal => 1,
        }
    }
}

/// A choice enum inside a table, refused with the allowed names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Named<C: Choice>(pub C);

impl<'de, C: Choice> Deserialize<'de> for Named<C> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = ParamValue::deserialize(d)?;
        Named::try_from(v).map_err(serde::de::Error::custom)
    }
}

impl<C: Choice> TryFrom<ParamValue> for Named<C> {
    type Error = String;

    fn try_from(v: ParamValue) -> Result<Self, String> {
        let allowed = C::NAMES
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ");
        match &v {
            ParamValue::Str(s) => C::parse(s)
                .map(Named)
                .ok_or_else(|| format!("\"{s}\" is not a known name; allowed: {allowed}")),
            other => Err(format!(
                "{} is the wrong type; allowed: {allowed}",
                other.type_name()
            )),
        }
    }
}

/// One follower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FollowerSpec {
    pub rating: Rating,
    pub role: Named<Role>,
}

/// One PC.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PcSpec {
    pub rating: Rating,
    #[serde(default)]
    pub followers: Vec<FollowerSpec>,
    /// Chained resolve (default 5).
    pub resolve: Option<InRange<1, 10>>,
}

impl PcSpec {
    fn of(rating: Rating) -> PcSpec {
        PcSpec {
            rating,
            followers: Vec::new(),
            resolve: None,
        }
    }
}

/// One opponent line: `count` alike opponents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpponentSpec {
    pub rating: Rating,
    pub kind: Option<Named<Kind>>,
    pub count: Option<InRange<1, 12>>,
    /// Chained resolve, instead of the kind's.
    pub resolve: Option<InRange<1, 10>>,
}

/// One opponent of the roster, after `count` is expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opponent {
    pub rating: Rating,
    pub kind: Kind,
    pub resolve: i64,
}

fn ratings(s: &str) -> Result<Vec<Rating>, String> {
    s.split_whitespace()
        .map(|w| rating::rating_of(&ParamValue::Str(w.to_string())))
        .collect()
}

/// The `pcs` value: 1..=6 PCs, each with 0..=4 followers.
pub fn pcs_of(v: &ParamValue) -> Result<Vec<PcSpec>, String> {
    let pcs: Vec<PcSpec> = match v {
        ParamValue::Str(s) => ratings(s)?.into_iter().map(PcSpec::of).collect(),
        ParamValue::List(_) => from_value("pcs", v)?,
        other => return Err(format!("{} is the wrong type", other.type_name())),
    };
    if pcs.is_empty() || pcs.len() > MAX_PCS {
        return Err(format!(
            "{} PCs; a group sequence has 1..={MAX_PCS}",
            pcs.len()
        ));
    }
    for (i, pc) in pcs.iter().enumerate() {
        if pc.followers.len() > MAX_FOLLOWERS {
            return Err(format!(
                "pc {}: {} followers; a PC brings 0..={MAX_FOLLOWERS}; allowed: {PCS_EXPECTS}",
                i + 1,
                pc.followers.len()
            ));
        }
    }
    Ok(pcs)
}

/// The `opponents` value, `count`s expanded in roster order: 1..=12.
pub fn opponents_of(v: &ParamValue) -> Result<Vec<Opponent>, String> {
    let specs: Vec<OpponentSpec> = match v {
        ParamValue::Str(s) => ratings(s)?
            .into_iter()
            .map(|rating| OpponentSpec {
                rating,
                kind: None,
                count: None,
                resolve: None,
            })
            .collect(),
        ParamValue::List(_) => from_value("opponents", v)?,
        ParamValue::Table(entries) => return named_roster(entries),
        other => return Err(format!("{} is the wrong type", other.type_name())),
    };
    let mut out = Vec::new();
    for s in specs {
        let kind = s.kind.map_or(Kind::Named, |k| k.0);
        let one = Opponent {
            rating: s.rating,
            kind,
            resolve: s.resolve.map_or(kind.resolve(), |r| r.0),
        };
        out.extend(std::iter::repeat_n(
            one,
            s.count.map_or(1, |c| c.0) as usize,
        ));
    }
    if out.is_empty() || out.len() > MAX_OPPONENTS {
        return Err(format!(
            "{} opponents (counts included); a group sequence has 1..={MAX_OPPONENTS}",
            out.len()
        ));
    }
    Ok(out)
}

/// `{ name = "…", roster = [ … ] }`: the name only labels outputs.
fn named_roster(entries: &[(String, ParamValue)]) -> Result<Vec<Opponent>, String> {
    let mut roster = None;
    for (k, x) in entries {
        match k.as_str() {
            "name" if matches!(x, ParamValue::Str(s) if !s.trim().is_empty()) => {}
            "name" => return Err("`name` must be a non-empty string".into()),
            "roster" if matches!(x, ParamValue::List(_)) => roster = Some(x),
            "roster" => return Err("`roster` must be a list of opponents".into()),
            _ => {
                return Err(format!(
                    "unknown key `{k}`; allowed: name, roster (a list of opponents needs [ … ] around it)"
                ));
            }
        }
    }
    match roster {
        Some(list) => opponents_of(list),
        None => Err("a named roster needs `roster = [ … ]`".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ParamValue::*;

    use crate::systems::testing::table as t;

    #[test]
    fn rosters_read_tables_and_short_forms() {
        let pcs = pcs_of(&List(vec![t(&[
            ("rating", Str("5M".into())),
            (
                "followers",
                List(vec![t(&[
                    ("rating", Int(15)),
                    ("role", Str("secondary".into())),
                ])]),
            ),
            ("resolve", Int(4)),
        ])]))
        .unwrap();
        assert_eq!(pcs[0].rating, Rating(25));
        assert_eq!(pcs[0].followers[0].role.0, Role::Secondary);
        assert_eq!(pcs[0].resolve, Some(InRange(4)));
        assert_eq!(pcs_of(&Str("15 5M".into())).unwrap().len(), 2);
        let opp = opponents_of(&List(vec![
            t(&[("rating", Int(18)), ("kind", Str("named".into()))]),
            t(&[
                ("rating", Int(12)),
                ("kind", Str("mook".into())),
                ("count", Int(4)),
            ]),
        ]))
        .unwrap();
        assert_eq!(opp.len(), 5);
        assert_eq!((opp[0].resolve, opp[4].resolve), (3, 1));
        let named = opponents_of(&t(&[
            ("name", Str("two".into())),
            (
                "roster",
                List(vec![t(&[("rating", Int(9)), ("count", Int(2))])]),
            ),
        ]))
        .unwrap();
        assert_eq!(named.len(), 2);
    }

    #[test]
    fn bad_rosters_name_the_place_and_what_is_allowed() {
        let e = opponents_of(&List(vec![t(&[
            ("rating", Int(12)),
            ("kind", Str("boss".into())),
        ])]))
        .unwrap_err();
        assert!(e.contains("opponent 1: `kind`"), "{e}");
        assert!(e.contains("\"named\", \"mook\", \"impersonal\""), "{e}");
        let e =
            opponents_of(&List(vec![t(&[("rating", Int(12)), ("count", Int(13))])])).unwrap_err();
        assert!(e.contains("`count`") && e.contains("1..=12"), "{e}");
        let e =
            opponents_of(&List(vec![t(&[("rating", Int(12)), ("count", Int(7))]); 2])).unwrap_err();
        assert!(e.contains("14 opponents"), "{e}");
        let e = pcs_of(&List(vec![t(&[
            ("rating", Int(12)),
            (
                "followers",
                List(vec![t(&[
                    ("rating", Int(9)),
                    ("role", Str("bodyguard".into())),
                ])]),
            ),
        ])]))
        .unwrap_err();
        assert!(e.contains("pc 1, follower 1: `role`"), "{e}");
        assert!(
            e.contains("\"contestant\", \"secondary\", \"supporter\""),
            "{e}"
        );
        let e = pcs_of(&List(vec![t(&[("rating", Int(12)), ("resolv", Int(3))])])).unwrap_err();
        assert!(e.contains("unknown key `resolv`"), "{e}");
        let e = pcs_of(&Str("15 15 15 15 15 15 15".into())).unwrap_err();
        assert!(e.contains("7 PCs"), "{e}");
        let e = pcs_of(&List(vec![t(&[("rating", Str("5Q".into()))])])).unwrap_err();
        assert!(e.contains("`rating`"), "{e}");
    }
}
