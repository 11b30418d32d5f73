//! Single rolls drawn whole from tables of their exact laws, for the
//! multi-round mechanics (contested actions, timed actions, fights): one
//! random word a roll instead of one per die.
//!
//! What the round rules read of a pool's roll is its total and, when the
//! roll wins an action whose loser takes something, the rating of a
//! re-roll of its dice that did not show 1. The re-roll is fresh dice, so
//! given the roll's composition it is independent of the faces; and each
//! roll is rated at most once (only the roll that last set the stakes, or
//! the actor's winning basic roll, is ever rated). So drawing the pair
//! (total, rating) from its joint law when the pool is rolled, and reading
//! the rating only if the rules ask for it, gives every outcome the same
//! law as rolling the dice and re-rolling the winner's later. That joint
//! law is [`RollLaw::rating`] (total × rating, the helper's die included
//! through [`RollLaw::plus`]), the single-roll law the solvers use and the
//! tests check against enumeration; the rounds themselves stay the shared
//! [`crate::model::Rounds`] rules, so Monte Carlo still checks the solvers'
//! chains independently.
//!
//! Pools that change during a fight (a complication die joins the
//! opponent's pool) get their tables on first use through [`Lazy`]: a
//! slot per pool the model can roll, shared by the model's clones.

use std::sync::{Arc, OnceLock};

use super::pool::SIZES;
use super::roll::RollLaw;
use crate::dice::DiceRng;
use crate::sim::alias::Alias;

/// Bits of a drawn value that hold the rating (a die size, at most 12).
const RATING_BITS: u32 = 4;

/// One drawn roll: its total and the rating a re-roll of its dice that
/// did not show 1 gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Drawn {
    pub total: i64,
    /// The die size rating a complication, should this roll win.
    pub rating: u32,
}

/// A pool's roll as one alias draw over (total, rating).
#[derive(Clone, Debug)]
pub struct RollTable {
    alias: Alias,
    /// The highest total the law can give.
    max_total: i64,
}

impl RollTable {
    /// The table of the joint law in `law`.
    pub fn new(law: &RollLaw) -> RollTable {
        let joint = law.rating.iter().enumerate().flat_map(|(t, row)| {
            row.iter()
                .zip(SIZES)
                .map(move |(&p, size)| (((t as u32) << RATING_BITS) | size, p))
        });
        RollTable {
            alias: Alias::new(joint),
            max_total: law.total.iter().rposition(|&p| p > 0.0).unwrap_or(0) as i64,
        }
    }

    /// The highest total this table draws.
    pub fn max_total(&self) -> i64 {
        self.max_total
    }

    /// One roll.
    #[inline(always)]
    pub fn draw(&self, rng: &mut DiceRng) -> Drawn {
        let v = self.alias.draw(rng);
        Drawn {
            total: (v >> RATING_BITS) as i64,
            rating: v & ((1 << RATING_BITS) - 1),
        }
    }
}

/// Tables built on first use, one slot each, shared by a model's clones.
/// A cache, not part of the model: two models compare equal whether or not
/// either has built a table. Reading a built slot is one load, no lock.
#[derive(Clone, Debug)]
pub struct Lazy<T>(Arc<[OnceLock<T>]>);

impl<T> Lazy<T> {
    /// `slots` empty slots.
    pub fn new(slots: usize) -> Lazy<T> {
        Lazy((0..slots).map(|_| OnceLock::new()).collect())
    }

    /// Slot `i`, built by `build` if it is empty.
    #[inline(always)]
    pub fn get(&self, i: usize, build: impl FnOnce() -> T) -> &T {
        self.0[i].get_or_init(build)
    }
}

impl<T> PartialEq for Lazy<T> {
    fn eq(&self, _: &Lazy<T>) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::RatingTie;
    use super::super::roll::best_die_law;
    use super::*;

    #[test]
    fn draws_follow_the_joint_law() {
        // d8 d6 d6 aided by a d6: total and rating drawn together.
        let law = RollLaw::of(&[8, 6, 6], RatingTie::Larger).plus(&best_die_law(&[6]));
        let table = RollTable::new(&law);
        let mut rng = DiceRng::from_u64(11);
        let n = 1_000_000u64;
        let mut seen = vec![[0u64; SIZES.len()]; law.total.len()];
        for _ in 0..n {
            let d = table.draw(&mut rng);
            let k = SIZES.iter().position(|&s| s == d.rating).unwrap();
            seen[d.total as usize][k] += 1;
        }
        for (t, row) in law.rating.iter().enumerate() {
            for (k, &p) in row.iter().enumerate() {
                let got = seen[t][k] as f64;
                let sd = (n as f64 * p * (1.0 - p)).sqrt();
                assert!(
                    (got - n as f64 * p).abs() <= 5.0 * sd + 1.0,
                    "total {t} rating d{}: {got} of {n}, p {p}",
                    SIZES[k]
                );
            }
        }
    }

    #[test]
    fn a_slot_is_built_once_and_shared_by_clones() {
        let lazy: Lazy<u32> = Lazy::new(3);
        let clone = lazy.clone();
        assert_eq!(*lazy.get(1, || 7), 7);
        assert_eq!(*clone.get(1, || unreachable!("already built")), 7);
        assert_eq!(*clone.get(2, || 9), 9);
        assert!(lazy == Lazy::new(1), "a cache does not tell models apart");
    }
}
