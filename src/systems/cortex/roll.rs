//! One roll of a Cortex pool, exactly and sampled: dice showing 1 are set
//! aside, the two highest others are the total, and the dice that did not
//! show 1 form the complication pool whose re-roll rates what the loser
//! takes (rules §2.1–2.2).
//!
//! The exact law is a dynamic program over the dice one at a time whose
//! state is the pair (highest, second highest) non-1 face so far, at most
//! 13 × 13 states whatever the pool size. The rating needs the complication
//! pool, i.e. which dice showed 1, which that state forgets; but the rating
//! of the union of independent dice is a bilinear merge (keep the die with
//! the higher (value, size rank)), so each state carries, instead of the
//! composition, the *distribution of the complication pool's re-roll*
//! (highest re-rolled value, size of that die), weighted by the state's
//! probability. Expectation commutes with the bilinear merge because each
//! die's roll and re-roll are independent of the others', which makes the
//! rating exact without enumerating compositions.

use std::sync::Arc;

use super::pool::SIZES;
use crate::dice::DiceRng;
use crate::exact::Memo;

/// Highest face of any step die.
const FACES: usize = 13;
/// Sizes a die may have.
const KINDS: usize = SIZES.len();
/// Re-roll states: highest re-rolled value 0..=12 (0: empty pool) × size.
const REROLL: usize = FACES * KINDS;
/// Top-two states: (highest, second highest) non-1 face, 0 for none.
const TOP2: usize = FACES * FACES;
/// Most dice one rolled pool may hold (20 of its own, 20 ganging up).
pub const MAX_ROLLED: usize = 40;
/// The rating when the complication pool is empty: only an aided actor
/// whose own dice all showed 1 can win with one. The rules are silent; the
/// reading is the smallest die.
pub const EMPTY_RATING: u32 = 4;

/// Which size rates a complication when re-rolled dice tie on the highest
/// value (`variant.rating_tie`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RatingTie {
    /// The larger die (default).
    Larger,
    /// The smaller die.
    Smaller,
}

crate::choice!(RatingTie {
    Larger = "larger",
    Smaller = "smaller",
});

impl RatingTie {
    /// Precedence of a die of `sides` faces among dice tied on value.
    #[inline]
    fn rank(self, sides: u32) -> u32 {
        match self {
            RatingTie::Larger => sides,
            RatingTie::Smaller => 100 - sides,
        }
    }
}

fn kind(sides: u32) -> usize {
    SIZES
        .iter()
        .position(|&s| s == sides)
        .expect("pools hold step dice only")
}

/// The exact law of one side's roll.
#[derive(Clone, Debug, PartialEq)]
pub struct RollLaw {
    /// `total[t]`: P(total = t).
    pub total: Vec<f64>,
    /// `rating[t][k]`: P(total = t and the re-rolled complication pool
    /// rates `SIZES[k]`); each row sums to `total[t]`.
    pub rating: Vec<[f64; KINDS]>,
}

impl RollLaw {
    /// [`RollLaw::of`], worked out once for every config of a run that
    /// rolls the same pool (a pool swept against several oppositions).
    pub fn shared(dice: &[u32], tie: RatingTie) -> Arc<RollLaw> {
        static LAWS: Memo<(Vec<u32>, RatingTie), RollLaw> = Memo::new();
        LAWS.get((dice.to_vec(), tie), || RollLaw::of(dice, tie))
    }

    /// The exact law of rolling `dice`, rating ties broken by `tie`.
    pub fn of(dice: &[u32], tie: RatingTie) -> RollLaw {
        let mut cur = vec![0.0f64; TOP2 * REROLL];
        let mut live = [false; TOP2];
        // Nothing rolled: no kept dice, empty complication pool.
        cur[0] = 1.0;
        live[0] = true;
        let mut next = vec![0.0f64; TOP2 * REROLL];
        let mut added = [0.0f64; REROLL];
        for &sides in dice {
            next.iter_mut().for_each(|w| *w = 0.0);
            let mut next_live = [false; TOP2];
            let p = 1.0 / sides as f64;
            for st in (0..TOP2).filter(|&st| live[st]) {
                let (h1, h2) = (st / FACES, st % FACES);
                let vec = &cur[st * REROLL..(st + 1) * REROLL];
                // Face 1: set aside, pool and complication pool unchanged.
                for (n, w) in next[st * REROLL..(st + 1) * REROLL].iter_mut().zip(vec) {
                    *n += w * p;
                }
                next_live[st] = true;
                // Faces 2..=sides: kept, and the die joins the complication
                // pool, whose re-roll law is the same for every face.
                add_die(vec, sides, tie, &mut added);
                for v in 2..=sides as usize {
                    let ns = if v > h1 {
                        v * FACES + h1
                    } else if v > h2 {
                        h1 * FACES + v
                    } else {
                        st
                    };
                    next_live[ns] = true;
                    for (n, w) in next[ns * REROLL..(ns + 1) * REROLL].iter_mut().zip(&added) {
                        *n += w * p;
                    }
                }
            }
            std::mem::swap(&mut cur, &mut next);
            live = next_live;
        }
        let mut total = vec![0.0; 2 * FACES - 1];
        let mut rating = vec![[0.0; KINDS]; 2 * FACES - 1];
        for st in (0..TOP2).filter(|&st| live[st]) {
            let t = st / FACES + st % FACES;
            let vec = &cur[st * REROLL..(st + 1) * REROLL];
            for x in 0..FACES {
                for k in 0..KINDS {
                    let w = vec[x * KINDS + k];
                    let k = if x == 0 { kind(EMPTY_RATING) } else { k };
                    rating[t][k] += w;
                    total[t] += w;
                }
            }
        }
        RollLaw { total, rating }
    }

    /// This law with an independent `extra` added to the total (an aiding
    /// helper's best die; `extra[v]` = P(extra = v)).
    pub fn plus(&self, extra: &[f64]) -> RollLaw {
        let n = self.total.len() + extra.len() - 1;
        let mut total = vec![0.0; n];
        let mut rating = vec![[0.0; KINDS]; n];
        for (t, &pt) in self.total.iter().enumerate() {
            for (v, &pv) in extra.iter().enumerate() {
                total[t + v] += pt * pv;
                for (r, &w) in rating[t + v].iter_mut().zip(&self.rating[t]) {
                    *r += w * pv;
                }
            }
        }
        RollLaw { total, rating }
    }

    /// P(total < t).
    pub fn below(&self, t: usize) -> f64 {
        self.total[..t.min(self.total.len())].iter().sum()
    }
}

/// The re-roll law `vec` of a complication pool after one more die of
/// `sides` faces joins it, into `out`.
fn add_die(vec: &[f64], sides: u32, tie: RatingTie, out: &mut [f64; REROLL]) {
    out.iter_mut().for_each(|w| *w = 0.0);
    let k_new = kind(sides);
    let rank_new = tie.rank(sides);
    let p = 1.0 / sides as f64;
    for x in 0..FACES {
        for k in 0..KINDS {
            let w = vec[x * KINDS + k];
            if w == 0.0 {
                continue;
            }
            // Re-rolled faces y that take over: above x, or equal to x from
            // a die the tie rule prefers. An empty pool (x = 0) always yields.
            let first_better = if x == 0 {
                1
            } else if rank_new > tie.rank(SIZES[k]) {
                x
            } else {
                x + 1
            };
            let mut better = 0;
            for y in first_better..=sides as usize {
                out[y * KINDS + k_new] += w * p;
                better += 1;
            }
            out[x * KINDS + k] += w * (sides as usize - better) as f64 * p;
        }
    }
}

/// P(a helper's single highest non-1 die shows v), v = 0 (all 1s) ..= 12.
pub fn best_die_law(dice: &[u32]) -> Vec<f64> {
    // P(best ≤ v) = Π P(die ≤ v), a 1 counting as "nothing kept".
    let at_most = |v: usize| -> f64 {
        dice.iter()
            .map(|&s| (v.max(1)).min(s as usize) as f64 / s as f64)
            .product()
    };
    let mut law = vec![0.0; FACES];
    law[0] = at_most(1);
    for (v, p) in law.iter_mut().enumerate().skip(2) {
        *p = at_most(v) - at_most(v - 1);
    }
    law
}

/// P(k dice of `dice` show 1), k = 0..=len: the actor's jinxes.
pub fn ones_law(dice: &[u32]) -> Vec<f64> {
    let mut law = vec![1.0];
    for &s in dice {
        let p = 1.0 / s as f64;
        let mut next = vec![0.0; law.len() + 1];
        for (k, &w) in law.iter().enumerate() {
            next[k] += w * (1.0 - p);
            next[k + 1] += w * p;
        }
        law = next;
    }
    law
}

/// One sampled roll: its total, its 1s, and the dice that did not show 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rolled {
    pub total: i64,
    pub ones: u32,
    kept: [u8; MAX_ROLLED],
    n_kept: usize,
}

impl Rolled {
    /// Roll `dice` (at most [`MAX_ROLLED`]).
    #[inline]
    pub fn roll(rng: &mut DiceRng, dice: &[u32]) -> Rolled {
        Rolled::read(dice, |s| rng.die(s))
    }

    /// The roll of `dice` when they show `faces`, one per die in order: the
    /// rule [`Rolled::roll`] applies to the dice it draws (1s set aside, the
    /// two highest of the rest summed). For checking the rules on dice as a
    /// text shows them; `None` unless there is one face per die, each on
    /// its die, and at most [`MAX_ROLLED`] dice.
    pub fn shown(dice: &[u32], faces: &[u32]) -> Option<Rolled> {
        let fits = dice.len() == faces.len()
            && dice.len() <= MAX_ROLLED
            && dice.iter().zip(faces).all(|(&s, &f)| (1..=s).contains(&f));
        let mut next = faces.iter();
        fits.then(|| Rolled::read(dice, |_| *next.next().unwrap()))
    }

    /// The rule on the faces `face` gives each die (by its size).
    #[inline(always)]
    fn read(dice: &[u32], mut face: impl FnMut(u32) -> u32) -> Rolled {
        let mut r = Rolled {
            total: 0,
            ones: 0,
            kept: [0; MAX_ROLLED],
            n_kept: 0,
        };
        let (mut h1, mut h2) = (0u32, 0u32);
        for &s in dice {
            let v = face(s);
            if v == 1 {
                r.ones += 1;
                continue;
            }
            r.kept[r.n_kept] = s as u8;
            r.n_kept += 1;
            if v > h1 {
                h2 = h1;
                h1 = v;
            } else if v > h2 {
                h2 = v;
            }
        }
        r.total = (h1 + h2) as i64;
        r
    }

    /// The dice that did not show 1: the complication pool.
    pub fn kept(&self) -> &[u8] {
        &self.kept[..self.n_kept]
    }

    /// Re-roll the complication pool and rate it: the size of the die
    /// showing the highest value, ties by `tie`.
    #[inline]
    pub fn rate(&self, rng: &mut DiceRng, tie: RatingTie) -> u32 {
        let mut best = (0u32, 0u32, EMPTY_RATING);
        for &s in self.kept() {
            let s = s as u32;
            let key = (rng.die(s), tie.rank(s), s);
            if (key.0, key.1) > (best.0, best.1) {
                best = key;
            }
        }
        best.2
    }
}

/// A helper's single highest non-1 die (0 if all show 1).
#[inline]
pub fn roll_best_die(rng: &mut DiceRng, dice: &[u32]) -> i64 {
    let mut best = 0;
    for &s in dice {
        let v = rng.die(s);
        if v > 1 && v > best {
            best = v;
        }
    }
    best as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn approx(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-14
    }

    #[test]
    fn one_die_only_its_own_face_counts() {
        // A d6 alone: total 0 on a 1, else its face; 1/6 each.
        let law = RollLaw::of(&[6], RatingTie::Larger);
        assert!(approx(law.total[0], 1.0 / 6.0));
        for t in 2..=6 {
            assert!(approx(law.total[t], 1.0 / 6.0));
        }
        assert!(law.total[7..].iter().all(|&p| p == 0.0));
        // Its complication pool is that d6, so it rates d6 (or, all 1s, the
        // empty reading).
        assert!(approx(law.rating[4][kind(6)], 1.0 / 6.0));
    }

    #[test]
    fn all_ones_total_zero() {
        // d4 d6: total 0 exactly when both show 1: 1/24.
        let law = RollLaw::of(&[4, 6], RatingTie::Larger);
        assert!(approx(law.total[0], 1.0 / 24.0));
        // total 2 can't happen with two kept dice (min 2 + 2 = 4): only a
        // lone kept 2 next to a 1: d4=2,d6=1 or d4=1,d6=2.
        assert!(approx(law.total[2], 2.0 / 24.0));
    }

    #[test]
    fn rating_of_d8_d6_by_tie_rule() {
        // Re-rolling d8 + d6: the d6 rates only when it shows more than the
        // d8, or ties and ties go to the smaller die.
        // P(d6 > d8) = 15/48; P(tie) = 6/48.
        for (tie, p6) in [
            (RatingTie::Larger, 15.0 / 48.0),
            (RatingTie::Smaller, 21.0 / 48.0),
        ] {
            let mut out = [0.0; REROLL];
            let mut one = [0.0; REROLL];
            one[0] = 1.0;
            let mut mid = [0.0; REROLL];
            add_die(&one, 8, tie, &mut mid);
            add_die(&mid, 6, tie, &mut out);
            let d6: f64 = (0..FACES).map(|x| out[x * KINDS + kind(6)]).sum();
            assert!(approx(d6, p6), "{tie:?} {d6}");
        }
    }

    #[test]
    fn helper_best_die_law() {
        // d6: 0 with 1/6, 2..=6 with 1/6 each.
        let law = best_die_law(&[6]);
        assert!(approx(law[0], 1.0 / 6.0) && approx(law[1], 0.0) && approx(law[6], 1.0 / 6.0));
        let law = best_die_law(&[4, 4]);
        assert!(approx(law[0], 1.0 / 16.0));
        assert!(approx(law[4], 7.0 / 16.0));
        assert!(approx(law.iter().sum::<f64>(), 1.0));
    }

    #[test]
    fn ones_are_binomial_per_die() {
        let law = ones_law(&[4, 12]);
        assert!(approx(law[2], 1.0 / 48.0));
        assert!(approx(law[0], 33.0 / 48.0));
    }
}
