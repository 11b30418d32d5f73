//! One action against one target, drawn from a table of its exact law:
//! whether the actor's highest d8 less the target's reaches `need`, as a
//! Bernoulli draw from one 64-bit word.
//!
//! The probability is counted from the two pools' exact highest-die
//! laws (`Counts::keep_highest`, as `gateway.challenge` counts them), not
//! from the scene's own law, so the sampler stays an independent check of
//! the solver. With at most [`MAX_DICE`] dice a side the cases number
//! 8^14 = 2^42 at most, so the chance times 2^53 is a whole number: the
//! top 53 bits of a word below it are a draw with exactly that chance.

use crate::dice::DiceRng;
use crate::exact::Counts;

/// Most dice one roll can have: 6 trait dice and one essence point.
pub const MAX_DICE: usize = 7;
/// The margin runs −7..=7: a need of [`NEED_LO`] or less is always
/// reached, one of [`NEED_HI`] or more never.
const NEED_LO: i16 = -7;
const NEED_HI: i16 = 8;
const NEEDS: usize = (NEED_HI - NEED_LO + 1) as usize;

/// `P(margin ≥ need) · 2^53` for every pair of pool sizes and need.
#[derive(Clone, Debug)]
pub struct Contests {
    /// `[(a − 1) · MAX_DICE + (o − 1)][need − NEED_LO]`.
    thresholds: Vec<[u64; NEEDS]>,
}

impl Contests {
    pub fn new() -> Contests {
        let mut thresholds = Vec::with_capacity(MAX_DICE * MAX_DICE);
        for a in 1..=MAX_DICE as u32 {
            for o in 1..=MAX_DICE as u32 {
                let (ca, co) = (Counts::keep_highest(a, 8), Counts::keep_highest(o, 8));
                let shift = 53 - 3 * (a + o);
                let mut row = [0u64; NEEDS];
                for (k, need) in (NEED_LO..=NEED_HI).enumerate() {
                    let mut cases: u128 = 0;
                    for (r, wa) in ca.iter() {
                        for (x, wo) in co.iter() {
                            if r - x >= need as i64 {
                                cases += wa * wo;
                            }
                        }
                    }
                    row[k] = (cases << shift) as u64;
                }
                thresholds.push(row);
            }
        }
        Contests { thresholds }
    }

    /// `P(margin ≥ need) · 2^53` for `a` d8 against `o` d8.
    #[inline(always)]
    pub fn threshold(&self, a: u8, o: u8, need: i16) -> u64 {
        let row = &self.thresholds[(a as usize - 1) * MAX_DICE + (o as usize - 1)];
        row[(need.clamp(NEED_LO, NEED_HI) - NEED_LO) as usize]
    }

    /// One draw: beaten with the chance `threshold` stands for.
    #[inline(always)]
    pub fn beats(threshold: u64, rng: &mut DiceRng) -> bool {
        rng.next_u64() >> 11 < threshold
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_count_every_roll() {
        let c = Contests::new();
        // Every roll of up to 3 d8 against up to 2, enumerated.
        for a in 1..=3u32 {
            for o in 1..=2u32 {
                for need in -9..=9i16 {
                    let mut cases = 0u64;
                    for roll in 0..8u64.pow(a + o) {
                        let face = |k: u32| (roll / 8u64.pow(k)) % 8 + 1;
                        let top_a = (0..a).map(face).max().unwrap() as i64;
                        let top_o = (a..a + o).map(face).max().unwrap() as i64;
                        cases += u64::from(top_a - top_o >= need as i64);
                    }
                    let want = cases << (53 - 3 * (a + o));
                    assert_eq!(c.threshold(a as u8, o as u8, need), want, "{a} {o} {need}");
                }
            }
        }
        // Certain and impossible at the ends, for the largest pools too.
        assert_eq!(c.threshold(7, 7, -7), 1 << 53);
        assert_eq!(c.threshold(7, 7, 8), 0);
        assert_eq!(c.threshold(7, 1, -99), 1 << 53);
    }

    #[test]
    fn draws_follow_the_thresholds() {
        let c = Contests::new();
        let t = c.threshold(3, 3, 1);
        let p = t as f64 / (1u64 << 53) as f64;
        let mut rng = DiceRng::from_u64(9);
        let n = 400_000;
        let hits = (0..n).filter(|_| Contests::beats(t, &mut rng)).count() as f64;
        let sd = (n as f64 * p * (1.0 - p)).sqrt();
        assert!(
            (hits - n as f64 * p).abs() < 5.0 * sd,
            "{hits} of {n}, p {p}"
        );
    }
}
