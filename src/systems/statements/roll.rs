//! The weighted roll of the `statements` system (rules §5.1): a
//! d(F + O) where a roll of F or less is a success, made up to three times.
//!
//! Shared by statements, scenes and experience tests. Exact answers are
//! integer counts over the (F + O)³ equally likely sequences of three
//! rolls, so they can be compared with enumeration bit for bit.

use crate::dice::DiceRng;
use crate::sim::alias::Alias;
use crate::systems::{ParamKind, ParamValue};

/// Most successes (or failures) one statement can get.
pub const MAX_ROLLS: u32 = 3;

/// Largest single factor, and most factors in one list: generous bounds
/// that keep d(F + O) far inside `u32` and the counts inside `u128`.
const MAX_FACTOR: i64 = 1000;
const MAX_FACTORS: usize = 20;

/// What a factor parameter accepts, for help and error messages.
pub const FACTORS_EXPECT: &str = "a non-negative integer, a list of them (summed), e.g. 7 or [4, 3], or named factors (summed), e.g. { will = 4, charismatic = 3 }";

/// The kind of a factor parameter.
pub const FACTORS: ParamKind = ParamKind::Custom {
    expects: FACTORS_EXPECT,
};

/// The sum of a factor value: an integer 0..=1000, or a list or a table of
/// names (`{ will = 4, charismatic = 3 }`, rules §5.3) of up to 20
/// such.
pub fn factors_of(v: &ParamValue) -> Result<u64, String> {
    let one = |x: &ParamValue| match x {
        ParamValue::Int(i) if (0..=MAX_FACTOR).contains(i) => Ok(*i as u64),
        ParamValue::Int(i) => Err(format!("factor {i} is out of range 0..={MAX_FACTOR}")),
        other => Err(format!(
            "a factor must be an integer, not {}",
            other.type_name()
        )),
    };
    match v {
        ParamValue::List(items) if items.len() > MAX_FACTORS => Err(format!(
            "{} factors is more than {MAX_FACTORS}",
            items.len()
        )),
        ParamValue::List(items) => items.iter().map(one).sum(),
        ParamValue::Table(entries) if entries.len() > MAX_FACTORS => Err(format!(
            "{} factors is more than {MAX_FACTORS}",
            entries.len()
        )),
        ParamValue::Table(entries) => entries
            .iter()
            .map(|(name, x)| one(x).map_err(|e| format!("`{name}`: {e}")))
            .sum(),
        other => one(other),
    }
}

/// Summed factors inside a table (a scene's statements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(try_from = "ParamValue")]
pub struct Factors(pub u64);

impl TryFrom<ParamValue> for Factors {
    type Error = String;

    fn try_from(v: ParamValue) -> Result<Factors, String> {
        factors_of(&v).map(Factors)
    }
}

/// How many rolls a statement makes (rules §5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rolls {
    /// Always three rolls (the default).
    Three,
    /// Roll until the first failure or the third success.
    UntilFailure,
}

crate::choice!(Rolls {
    Three = "three",
    UntilFailure = "until-failure",
});

/// One weighted roll: succeed on 1..=`favour` of a d`sides`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roll {
    /// F: favouring factors plus any luck bid.
    pub favour: u64,
    /// F + O: the die's size. Zero means there is nothing to roll (only an
    /// experience test with no failures and no traits): no success.
    pub sides: u64,
}

impl Roll {
    /// F in favour, O against.
    pub fn new(favour: u64, opposing: u64) -> Self {
        Roll {
            favour,
            sides: favour + opposing,
        }
    }

    /// `counts[s]`: in how many of the `sides³` equally likely three-roll
    /// sequences the statement gets `s` successes. Until-failure counts a
    /// sequence by the rolls it actually makes, padded with the unrolled
    /// ones, so both readings share the total `sides³`.
    pub fn success_counts(&self, rolls: Rolls) -> [u128; 4] {
        let (f, n) = (self.favour as u128, self.sides as u128);
        if n == 0 {
            return [1, 0, 0, 0];
        }
        let o = n - f;
        match rolls {
            Rolls::Three => [o * o * o, 3 * f * o * o, 3 * f * f * o, f * f * f],
            Rolls::UntilFailure => [o * n * n, f * o * n, f * f * o, f * f * f],
        }
    }

    /// The law of a statement's successes as an alias table over 0..=3,
    /// from the exact counts (checked against every roll sequence in the
    /// tests): one word a draw, where rolling the dice takes up to three
    /// dice one after another, each a rejection loop.
    pub fn law(&self, rolls: Rolls) -> Alias {
        let counts = self.success_counts(rolls);
        Alias::new((0..=MAX_ROLLS).map(|s| (s, counts[s as usize] as f64)))
    }

    /// How many of `trials` statements came to each success count 0..=3,
    /// drawn from [`Roll::law`]: for the mechanics that are one roll a
    /// trial, counted by key.
    pub fn count_successes(&self, rng: &mut DiceRng, rolls: Rolls, trials: u64) -> Vec<u64> {
        self.law(rolls).count(rng, trials, MAX_ROLLS as usize + 1)
    }

    /// The successes of a statement whose rolls show `faces`, in order: a
    /// face of F or less succeeds; under until-failure the first failure
    /// ends the statement, and any faces after it are never rolled. The
    /// rule [`Roll::success_counts`] counts (the tests enumerate every
    /// sequence of faces with it). For checking the rules on dice as a text
    /// shows them; `None` unless the faces are in 1..=F + O and there are
    /// three of them (until-failure: or fewer, ending on a failure).
    pub fn successes_shown(&self, faces: &[u64], rolls: Rolls) -> Option<u32> {
        if faces.len() > MAX_ROLLS as usize || faces.iter().any(|f| !(1..=self.sides).contains(f)) {
            return None;
        }
        let mut successes = 0;
        for &face in faces {
            if face <= self.favour {
                successes += 1;
            } else if rolls == Rolls::UntilFailure {
                return Some(successes);
            }
        }
        (faces.len() == MAX_ROLLS as usize).then_some(successes)
    }

    /// Probability of each success count.
    pub fn success_probabilities(&self, rolls: Rolls) -> [f64; 4] {
        let c = self.success_counts(rolls);
        let total: u128 = c.iter().sum();
        c.map(|w| w as f64 / total as f64)
    }
}

/// Successes after a supporting (+1) or hindering (−1) earlier statement,
/// clamped to 0..=3.
pub fn supported(successes: u32, support: i64) -> u32 {
    (successes as i64 + support).clamp(0, MAX_ROLLS as i64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sequence of three rolls of a d`n`, counted one by one.
    pub(crate) fn enumerate(favour: u64, sides: u64, rolls: Rolls) -> [u128; 4] {
        let mut counts = [0u128; 4];
        for a in 1..=sides {
            for b in 1..=sides {
                for c in 1..=sides {
                    let s = Roll { favour, sides }
                        .successes_shown(&[a, b, c], rolls)
                        .unwrap();
                    counts[s as usize] += 1;
                }
            }
        }
        counts
    }

    #[test]
    fn worked_example_is_a_d16_succeeding_on_seven() {
        // Will 4 + Charismatic 3 against Acuity 5 + Shrewd 4.
        let favour = factors_of(&ParamValue::List(vec![
            ParamValue::Int(4),
            ParamValue::Int(3),
        ]))
        .unwrap();
        let opposing = factors_of(&ParamValue::List(vec![
            ParamValue::Int(5),
            ParamValue::Int(4),
        ]))
        .unwrap();
        let roll = Roll::new(favour, opposing);
        assert_eq!((roll.favour, roll.sides), (7, 16));
        // P(success) per roll = 7/16: exactly the faces 1..=7 succeed.
        let mut rng = DiceRng::from_u64(1);
        let (mut hits, mut seen) = (0u64, [false; 17]);
        for _ in 0..160_000 {
            let face = rng.die(16) as u64;
            seen[face as usize] = true;
            hits += u64::from(face <= roll.favour);
        }
        assert!(seen[1..].iter().all(|s| *s));
        let se = (7.0 / 16.0 * 9.0 / 16.0 / 160_000.0f64).sqrt();
        assert!((hits as f64 / 160_000.0 - 7.0 / 16.0).abs() < 5.0 * se);
        // Three rolls: s successes in C(3,s) 7^s 9^(3-s) of 16³ sequences.
        assert_eq!(
            roll.success_counts(Rolls::Three),
            [729, 3 * 7 * 81, 3 * 49 * 9, 343]
        );
        assert_eq!(roll.success_counts(Rolls::Three).iter().sum::<u128>(), 4096);
    }

    #[test]
    fn counts_equal_enumeration_up_to_twelve_a_side() {
        for f in 0..=12 {
            for o in 0..=12 {
                if f + o == 0 {
                    continue;
                }
                let roll = Roll::new(f, o);
                for rolls in [Rolls::Three, Rolls::UntilFailure] {
                    assert_eq!(
                        roll.success_counts(rolls),
                        enumerate(f, f + o, rolls),
                        "{f} vs {o}, {rolls:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn factors_are_checked_and_summed() {
        use ParamValue::*;
        assert_eq!(factors_of(&Int(7)), Ok(7));
        assert_eq!(factors_of(&List(vec![Int(4), Int(3), Int(0)])), Ok(7));
        assert!(factors_of(&Int(-1)).unwrap_err().contains("out of range"));
        assert!(
            factors_of(&List(vec![Int(1), Str("x".into())]))
                .unwrap_err()
                .contains("must be an integer")
        );
        assert!(factors_of(&Bool(true)).is_err());
    }

    #[test]
    fn support_clamps() {
        assert_eq!(supported(3, 1), 3);
        assert_eq!(supported(0, -1), 0);
        assert_eq!(supported(1, 1), 2);
        assert_eq!(supported(2, -1), 1);
    }
}
