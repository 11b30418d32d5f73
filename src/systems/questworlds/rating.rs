//! Ratings in mastery notation (rules §4.1): `17`, `5M` (25), `4M2`
//! (44), `20M` (40). A rating is stored as its integer target number; the
//! notation is how players write it, so it is parsed from scenarios and
//! printed back in outputs.

use std::fmt;
use std::str::FromStr;

use crate::systems::ParamValue;

/// Faces of the die every rating is rolled against.
pub const D20: i64 = 20;

/// Plain integer ratings accepted in scenarios (wide on purpose: modifiers
/// may push a TN to or below zero, which fails automatically).
pub const MIN_RATING: i64 = -200;
/// The highest rating accepted (a 20M19 and then some).
pub const MAX_RATING: i64 = 400;

/// A target number: masteries `m = (TN − 1) div 20`, die target
/// `t = TN − 20m` (1..=20) for TN ≥ 1; TN ≤ 0 fails automatically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[serde(try_from = "ParamValue")]
pub struct Rating(pub i64);

impl Rating {
    /// The target number.
    pub fn tn(self) -> i64 {
        self.0
    }

    /// Masteries: one automatic success each (0 for TN ≤ 0).
    pub fn masteries(self) -> i64 {
        if self.0 <= 0 { 0 } else { (self.0 - 1) / D20 }
    }

    /// What the d20 is rolled against, 1..=20 (None for TN ≤ 0: no roll).
    pub fn target(self) -> Option<i64> {
        (self.0 > 0).then(|| self.0 - D20 * self.masteries())
    }

    /// The same rating with `by` added to its TN.
    pub fn plus(self, by: i64) -> Rating {
        Rating(self.0 + by)
    }
}

/// A rating inside a table (a rolled augment).
impl TryFrom<ParamValue> for Rating {
    type Error = String;

    fn try_from(v: ParamValue) -> Result<Rating, String> {
        rating_of(&v)
    }
}

/// `17`, `5M`, `4M2`, `20M`; TN ≤ 0 prints as the plain integer.
impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.target(), self.masteries()) {
            (Some(t), 0) => write!(f, "{t}"),
            (Some(t), 1) => write!(f, "{t}M"),
            (Some(t), m) => write!(f, "{t}M{m}"),
            (None, _) => write!(f, "{}", self.0),
        }
    }
}

impl FromStr for Rating {
    type Err = String;

    /// A plain integer, or `tM` / `tMm` with t in 1..=20 and m ≥ 1
    /// (`M` or `m`).
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let bad = || format!("\"{s}\" is not a rating (write 17, 5M, 4M2 or 20M)");
        if let Ok(v) = s.parse::<i64>() {
            return Ok(Rating(v));
        }
        let (t, m) = s.split_once(['M', 'm']).ok_or_else(bad)?;
        let digits = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit());
        if !digits(t) || !(m.is_empty() || digits(m)) {
            return Err(bad());
        }
        let t: i64 = t.parse().map_err(|_| bad())?;
        let m: i64 = if m.is_empty() {
            1
        } else {
            m.parse().map_err(|_| bad())?
        };
        if !(1..=D20).contains(&t) || !(1..=MAX_RATING / D20).contains(&m) {
            return Err(bad());
        }
        Ok(Rating(t + D20 * m))
    }
}

/// What a rating parameter accepts, in words.
pub const RATING_EXPECTS: &str =
    "a rating: an integer -200..=400 or mastery notation such as \"17\", \"5M\", \"4M2\", \"20M\"";

/// The rating a parameter value stands for.
pub fn rating_of(v: &ParamValue) -> Result<Rating, String> {
    let r = match v {
        ParamValue::Int(i) => Rating(*i),
        ParamValue::Str(s) => s.parse()?,
        other => return Err(format!("{} is the wrong type", other.type_name())),
    };
    if (MIN_RATING..=MAX_RATING).contains(&r.0) {
        Ok(r)
    } else {
        Err(format!("{} is out of range", r.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for (s, tn) in [
            ("17", 17),
            ("20", 20),
            ("1M", 21),
            ("5M", 25),
            ("20M", 40),
            ("4M2", 44),
            ("10M3", 70),
        ] {
            assert_eq!(s.parse::<Rating>().unwrap(), Rating(tn), "{s}");
            assert_eq!(Rating(tn).to_string(), s);
        }
        assert_eq!("5m".parse::<Rating>().unwrap(), Rating(25));
        assert_eq!("5M1".parse::<Rating>().unwrap(), Rating(25));
        assert_eq!(Rating(0).to_string(), "0");
        assert_eq!(Rating(-5).to_string(), "-5");
    }

    #[test]
    fn every_tn_prints_and_parses_back() {
        for tn in 1..=MAX_RATING {
            let r = Rating(tn);
            assert_eq!(r.to_string().parse::<Rating>().unwrap(), r);
            let t = r.target().unwrap();
            assert!((1..=20).contains(&t));
            assert_eq!(t + 20 * r.masteries(), tn);
        }
    }

    #[test]
    fn masteries_and_targets() {
        assert_eq!((Rating(25).masteries(), Rating(25).target()), (1, Some(5)));
        assert_eq!((Rating(40).masteries(), Rating(40).target()), (1, Some(20)));
        assert_eq!((Rating(20).masteries(), Rating(20).target()), (0, Some(20)));
        assert_eq!((Rating(0).masteries(), Rating(0).target()), (0, None));
    }

    #[test]
    fn bad_notation_is_refused() {
        for s in ["", "M", "0M", "21M", "5M0", "5X", "5M-1", "M2", "five"] {
            assert!(s.parse::<Rating>().is_err(), "{s}");
        }
        assert!(rating_of(&ParamValue::Int(401)).is_err());
        assert!(rating_of(&ParamValue::Bool(true)).is_err());
        assert_eq!(rating_of(&ParamValue::Str("4M2".into())), Ok(Rating(44)));
    }
}
