//! An augment over a whole sequence (rules §4.5: "The augment remains
//! in effect for the duration of the contest"). The augment is settled
//! once, before the first round: assured, it is one bonus; rolled against
//! the base resistance, it is one of a few bonuses (+5 … +20). The
//! sequence then runs with the PC's TN raised by that bonus in every round.
//!
//! So an augmented sequence is a mixture: the sequence is built once per
//! bonus (each with its own rules, written once), a trial draws the bonus
//! and plays that one, and the exact law is the mixture of the bonuses'
//! chains, each solved on its own (so the state limit applies per bonus,
//! not to their union). A sure bonus (the default, +0) draws nothing: the
//! numbers of an unaugmented sequence are unchanged.

use super::{Augment, Rating};
use crate::dice::DiceRng;

/// A sequence for each bonus the augment can give, with its probability.
pub struct Augmented<Q> {
    arms: Vec<(i64, f64, Q)>,
    augment: Augment,
    /// What a rolled augment faces.
    base: Rating,
}

impl<Q> Augmented<Q> {
    /// `build(bonus)`: the sequence with the PC's TN raised by `bonus`.
    pub fn new(augment: Augment, base: Rating, build: impl Fn(i64) -> Q) -> Self {
        let arms = augment
            .bonuses(base)
            .into_iter()
            .map(|(bonus, p)| (bonus, p, build(bonus)))
            .collect();
        Augmented {
            arms,
            augment,
            base,
        }
    }

    /// No augment: the sequence alone.
    pub fn none(sequence: Q) -> Self {
        Augmented {
            arms: vec![(0, 1.0, sequence)],
            augment: Augment::Assured(0),
            base: Rating(super::BASE_RESISTANCE),
        }
    }

    /// The sequence, when the augment is sure (one bonus); else the
    /// mixture back.
    pub fn sure(self) -> Result<Q, Self> {
        if self.arms.len() == 1 {
            Ok(self.arms.into_iter().next().expect("one arm").2)
        } else {
            Err(self)
        }
    }

    /// The sequence of each bonus, with its probability.
    pub fn arms(&self) -> impl Iterator<Item = (i64, f64, &Q)> {
        self.arms.iter().map(|(b, p, q)| (*b, *p, q))
    }

    /// The sequence of a bonus drawn from the augment.
    #[inline]
    pub fn pick(&self, rng: &mut DiceRng) -> &Q {
        &self.arms[self.pick_arm(rng)].2
    }

    /// The number (in [`Self::arms`]' order) of an arm drawn as
    /// [`Self::pick`] draws it.
    #[inline]
    pub fn pick_arm(&self, rng: &mut DiceRng) -> usize {
        if self.arms.len() == 1 {
            return 0;
        }
        let bonus = self.augment.sample(self.base, rng);
        // Every bonus the sampler gives is one of `bonuses`.
        self.arms
            .iter()
            .position(|(b, _, _)| *b == bonus)
            .unwrap_or(0)
    }
}
