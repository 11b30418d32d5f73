//! Die codes `Xd+Y` and their pip arithmetic (rules §3.1).
//!
//! A code is a number of pips, 3 per die: `3d+2` is 11 pips. Storing pips
//! alone makes normalisation (`3d+3` is `4d`) automatic, and makes bonus
//! pips and combining codes plain addition.

use std::fmt;
use std::str::FromStr;

/// Pips per die.
pub const PIPS_PER_DIE: u32 = 3;

/// A die code `Xd+Y`, always normalised so that Y ∈ {0, 1, 2}.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Deserialize)]
#[serde(try_from = "crate::systems::ParamValue")]
pub struct DieCode {
    pips: u32,
}

impl DieCode {
    /// The code with this many pips (`11` → `3d+2`).
    pub const fn from_pips(pips: u32) -> Self {
        DieCode { pips }
    }

    /// `dice`d+`plus`, normalised (`new(3, 3)` is `4d`).
    pub const fn new(dice: u32, plus: u32) -> Self {
        DieCode {
            pips: PIPS_PER_DIE * dice + plus,
        }
    }

    /// Total pips, 3X + Y.
    pub const fn pips(self) -> u32 {
        self.pips
    }

    /// X, the dice rolled.
    pub const fn dice(self) -> u32 {
        self.pips / PIPS_PER_DIE
    }

    /// Y ∈ {0, 1, 2}, added to the roll.
    pub const fn plus(self) -> u32 {
        self.pips % PIPS_PER_DIE
    }

    /// The code with `bonus` more pips (+5 pips on 2d is 3d+2).
    pub const fn add_pips(self, bonus: u32) -> Self {
        DieCode {
            pips: self.pips + bonus,
        }
    }

    /// The code with `dice` more (or, negative, fewer, never below 0d)
    /// dice; the pips beyond whole dice are kept.
    pub fn add_dice(self, dice: i64) -> Self {
        let d = (self.dice() as i64 + dice).max(0) as u32;
        DieCode::new(d, self.plus())
    }

    /// Combine codes: the highest code, plus one bonus pip per die of every
    /// other (assisting) code. `3d + 2d = 3d+2`; `3d+1 + 2d = 4d`;
    /// `3d + 2d + 2d = 4d+1`. `None` for no codes.
    pub fn combine(codes: &[DieCode]) -> Option<DieCode> {
        let (best, _) = codes.iter().enumerate().max_by_key(|(_, c)| **c)?;
        let bonus: u32 = codes
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != best)
            .map(|(_, c)| c.dice())
            .sum();
        Some(codes[best].add_pips(bonus))
    }
}

/// `4d`, `3d+2`, `0d+1`.
impl fmt::Display for DieCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plus() {
            0 => write!(f, "{}d", self.dice()),
            y => write!(f, "{}d+{}", self.dice(), y),
        }
    }
}

/// The most dice a written code may have; far beyond any sheet, and keeps
/// every exact weight (6^X, 10^X) inside `u128`.
pub const MAX_DICE: u32 = 30;

impl FromStr for DieCode {
    type Err = String;

    /// `Xd` or `Xd+Y` (`D` accepted, spaces ignored); Y may exceed 2 and is
    /// normalised (`3d+3` reads as `4d`).
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("\"{s}\" is not a die code like \"3d\" or \"3d+2\"");
        let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        let t = t.to_ascii_lowercase();
        let (x, y) = t.split_once('d').ok_or_else(bad)?;
        let digits = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
        if !digits(x) {
            return Err(bad());
        }
        let plus = match y {
            "" => 0,
            _ => {
                let y = y.strip_prefix('+').ok_or_else(bad)?;
                if !digits(y) {
                    return Err(bad());
                }
                y.parse::<u32>().map_err(|_| bad())?
            }
        };
        let dice: u32 = x.parse().map_err(|_| bad())?;
        let code = DieCode::new(dice.min(MAX_DICE + 1), plus.min(PIPS_PER_DIE * MAX_DICE));
        if code.dice() > MAX_DICE {
            return Err(format!("\"{s}\" has more than {MAX_DICE} dice"));
        }
        Ok(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> DieCode {
        s.parse().unwrap()
    }

    #[test]
    fn parse_and_print() {
        for s in ["4d", "3d+2", "0d+1", "0d", "30d+2"] {
            assert_eq!(c(s).to_string(), s);
        }
        assert_eq!(c("3D + 2"), DieCode::new(3, 2));
        assert_eq!(c("3d+2").pips(), 11);
        assert_eq!((c("3d+2").dice(), c("3d+2").plus()), (3, 2));
        for bad in [
            "", "d", "3", "3d2", "3d-1", "xd", "3d+", "-1d", "31d", "3d+a",
        ] {
            assert!(bad.parse::<DieCode>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn normalisation() {
        assert_eq!(c("3d+3").to_string(), "4d");
        assert_eq!(c("2d+5").to_string(), "3d+2");
        assert_eq!(DieCode::new(3, 4), c("4d+1"));
    }

    #[test]
    fn combining_codes_as_in_the_text() {
        assert_eq!(DieCode::combine(&[c("3d"), c("2d")]), Some(c("3d+2")));
        assert_eq!(DieCode::combine(&[c("2d"), c("3d")]), Some(c("3d+2")));
        assert_eq!(DieCode::combine(&[c("3d+1"), c("2d")]), Some(c("4d")));
        assert_eq!(
            DieCode::combine(&[c("3d"), c("2d"), c("2d")]),
            Some(c("4d+1"))
        );
        assert_eq!(DieCode::combine(&[c("2d+2")]), Some(c("2d+2")));
        assert_eq!(DieCode::combine(&[]), None);
    }

    #[test]
    fn bonus_pips_as_in_the_text() {
        assert_eq!(c("2d").add_pips(3), c("3d"));
        assert_eq!(c("2d").add_pips(5), c("3d+2"));
    }

    #[test]
    fn every_row_of_the_pip_table() {
        // The text's table, as printed ("21 = 7" is 7d).
        let table = [
            (0, "0d"),
            (1, "0d+1"),
            (2, "0d+2"),
            (3, "1d"),
            (4, "1d+1"),
            (5, "1d+2"),
            (6, "2d"),
            (7, "2d+1"),
            (8, "2d+2"),
            (9, "3d"),
            (10, "3d+1"),
            (11, "3d+2"),
            (12, "4d"),
            (13, "4d+1"),
            (14, "4d+2"),
            (15, "5d"),
            (16, "5d+1"),
            (17, "5d+2"),
            (18, "6d"),
            (19, "6d+1"),
            (20, "6d+2"),
            (21, "7d"),
            (22, "7d+1"),
            (23, "7d+2"),
            (24, "8d"),
            (25, "8d+1"),
            (26, "8d+2"),
            (27, "9d"),
            (28, "9d+1"),
            (29, "9d+2"),
            (30, "10d"),
        ];
        for (pips, code) in table {
            assert_eq!(DieCode::from_pips(pips).to_string(), code, "{pips} pips");
            assert_eq!(c(code).pips(), pips, "{code}");
        }
    }

    #[test]
    fn adding_and_removing_dice_keeps_the_pips() {
        assert_eq!(c("6d+1").add_dice(-2), c("4d+1"));
        assert_eq!(c("1d+2").add_dice(-3), c("0d+2"));
        assert_eq!(c("6d").add_dice(3), c("9d"));
    }
}
