//! Cortex dice pools: a multiset of step dice (d4, d6, d8, d10, d12),
//! written `d8 d6 d6 d10` or with counts, `2d6 d10`.

use std::fmt;
use std::str::FromStr;

/// The die sizes a pool may hold, smallest first.
pub const SIZES: [u32; 5] = [4, 6, 8, 10, 12];
/// The most dice a pool written in a scenario may hold.
pub const MAX_DICE: usize = 20;

/// A pool of step dice, kept sorted largest first so that equal pools
/// compare equal however they were written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Deserialize)]
#[serde(try_from = "crate::systems::ParamValue")]
pub struct Pool {
    dice: Vec<u32>,
}

/// Why a pool did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PoolError(String);

impl Pool {
    /// A pool of these dice (sizes from [`SIZES`], 1..=[`MAX_DICE`] of them).
    pub fn new(mut dice: Vec<u32>) -> Result<Self, PoolError> {
        if let Some(bad) = dice.iter().find(|s| !SIZES.contains(s)) {
            return Err(PoolError(format!(
                "d{bad} is not a step die (d4, d6, d8, d10, d12)"
            )));
        }
        if dice.is_empty() || dice.len() > MAX_DICE {
            return Err(PoolError(format!(
                "a pool holds 1..={MAX_DICE} dice, not {}",
                dice.len()
            )));
        }
        dice.sort_unstable_by(|a, b| b.cmp(a));
        Ok(Pool { dice })
    }

    /// `n` dice of `sides` faces.
    pub fn uniform(n: usize, sides: u32) -> Result<Self, PoolError> {
        Pool::new(vec![sides; n])
    }

    /// The dice, largest first.
    pub fn dice(&self) -> &[u32] {
        &self.dice
    }

    /// Number of dice.
    pub fn len(&self) -> usize {
        self.dice.len()
    }

    /// Always false: a pool has at least one die.
    pub fn is_empty(&self) -> bool {
        self.dice.is_empty()
    }

    /// This pool with `extra`'s dice added (ganging up may pass
    /// [`MAX_DICE`]: the limit is on what one scenario key holds).
    pub fn with(&self, extra: &[u32]) -> Pool {
        let mut dice = self.dice.clone();
        dice.extend_from_slice(extra);
        dice.sort_unstable_by(|a, b| b.cmp(a));
        Pool { dice }
    }
}

impl FromStr for Pool {
    type Err = PoolError;

    /// Dice separated by spaces or commas, each `dK` or `NdK`.
    fn from_str(s: &str) -> Result<Self, PoolError> {
        let mut dice = Vec::new();
        for token in s.split(|c: char| c.is_whitespace() || c == ',') {
            if token.is_empty() {
                continue;
            }
            let bad = || PoolError(format!("\"{token}\" is not a die like d8 or 2d6"));
            let (count, sides) = token
                .to_ascii_lowercase()
                .split_once('d')
                .map(|(n, k)| (n.to_string(), k.to_string()))
                .ok_or_else(bad)?;
            let count: usize = if count.is_empty() {
                1
            } else {
                count.parse().map_err(|_| bad())?
            };
            let sides: u32 = sides.parse().map_err(|_| bad())?;
            if count == 0 {
                return Err(bad());
            }
            if count > MAX_DICE {
                return Err(PoolError(format!(
                    "a pool holds 1..={MAX_DICE} dice, not {count}+"
                )));
            }
            dice.extend(std::iter::repeat_n(sides, count));
        }
        Pool::new(dice)
    }
}

/// Largest dice first, equal dice grouped: `d10 d8 2d6`.
impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for &s in SIZES.iter().rev() {
            let n = self.dice.iter().filter(|&&d| d == s).count();
            if n == 0 {
                continue;
            }
            if !first {
                write!(f, " ")?;
            }
            first = false;
            if n == 1 {
                write!(f, "d{s}")?;
            } else {
                write!(f, "{n}d{s}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_notations_to_the_same_pool() {
        let a: Pool = "d8 d6 d6 d10".parse().unwrap();
        assert_eq!(a.dice(), &[10, 8, 6, 6]);
        let b: Pool = "2d6 d10 d8".parse().unwrap();
        assert_eq!(a, b);
        let c: Pool = "2d6 d10".parse().unwrap();
        assert_eq!(c.dice(), &[10, 6, 6]);
        assert_eq!("D12,d4".parse::<Pool>().unwrap().dice(), &[12, 4]);
    }

    #[test]
    fn prints_grouped_largest_first_and_round_trips() {
        let a: Pool = "d8 d6 d6 d10".parse().unwrap();
        assert_eq!(a.to_string(), "d10 d8 2d6");
        assert_eq!("2d6 d10".parse::<Pool>().unwrap().to_string(), "d10 2d6");
        assert_eq!("d4".parse::<Pool>().unwrap().to_string(), "d4");
        for text in ["d12 3d4", "20d6", "d10 d8 2d6"] {
            let p: Pool = text.parse().unwrap();
            assert_eq!(p.to_string().parse::<Pool>().unwrap(), p);
        }
    }

    #[test]
    fn rejects_bad_sizes_counts_and_tokens() {
        let e = "d8 d7".parse::<Pool>().unwrap_err().to_string();
        assert!(e.contains("d7 is not a step die"), "{e}");
        let e = "".parse::<Pool>().unwrap_err().to_string();
        assert!(e.contains("1..=20 dice, not 0"), "{e}");
        let e = "20d6 d8".parse::<Pool>().unwrap_err().to_string();
        assert!(e.contains("not 21"), "{e}");
        assert!("21d6".parse::<Pool>().is_err());
        assert!("0d6".parse::<Pool>().is_err());
        assert!("8".parse::<Pool>().is_err());
        assert!("d".parse::<Pool>().is_err());
        assert!("xd6".parse::<Pool>().is_err());
        assert_eq!("20d12".parse::<Pool>().unwrap().len(), 20);
    }
}
