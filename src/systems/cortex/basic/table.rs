//! A basic action as one draw from a table of its whole outcomes.
//!
//! Everything a basic action reports is decided by four things: the
//! actor's total (aid included), the stakes, the winner's re-rolled rating
//! and the actor's 1s. Their joint law is small (a few hundred to a few
//! thousand whole outcomes), so it is worked out once per model, each
//! outcome judged once by [`Basic::resolve`], and a trial is one 64-bit
//! word through an alias table (Walker/Vose) and one count in a flat
//! array; the outcomes are expanded into fields once per chunk.
//!
//! The stakes' law is [`RollLaw::of`] and the helper's die is
//! [`best_die_law`]. The actor's side also needs its 1s *jointly* with its
//! total and rating, which [`RollLaw`] does not carry: it comes from the
//! pool's compositions (how many dice of each size did not show 1). Given
//! the composition, the kept dice show uniform faces 2..=size, and the
//! rating is a fresh re-roll of exactly those dice, so total and rating
//! are independent given it. Tests check the result against `RollLaw`,
//! [`ones_law`] and [`Basic::exact`].

use std::collections::BTreeMap;

use super::super::pool::SIZES;
use super::super::roll::{EMPTY_RATING, RatingTie, RollLaw, best_die_law};
use super::{Basic, FIELDS};
use crate::dice::DiceRng;
use crate::sim::alias::vose;

/// Highest face of any step die.
const FACES: usize = 13;
/// Totals of one pool's two highest dice: 0..=24.
const TOTALS: usize = 2 * FACES - 1;
/// Sizes a die may have.
const KINDS: usize = SIZES.len();
/// Most compositions worked out for one actor pool (5^5 for 20 dice of
/// mixed sizes is the worst case, well inside).
const MAX_COMPOSITIONS: usize = 4096;
/// Bits of a key in an alias entry: outcomes beyond this many fall back to
/// rolling every die.
const KEY_BITS: u32 = 15;

fn kind(sides: u32) -> usize {
    SIZES
        .iter()
        .position(|&s| s == sides)
        .expect("pools hold step dice only")
}

/// The actor's law: `law[t][j][k]` = P(total t, j dice showed 1, a re-roll
/// of the complication pool rates `SIZES[k]`), before any aid.
pub(super) fn actor_law(dice: &[u32], tie: RatingTie) -> Option<Vec<Vec<[f64; KINDS]>>> {
    let n = dice.len();
    let mut have = [0usize; KINDS];
    for &s in dice {
        have[kind(s)] += 1;
    }
    if have.iter().map(|&h| h + 1).product::<usize>() > MAX_COMPOSITIONS {
        return None;
    }
    let mut law = vec![vec![[0.0; KINDS]; n + 1]; TOTALS];
    // Every composition: kept[k] dice of size SIZES[k] did not show 1.
    let mut kept = [0usize; KINDS];
    loop {
        let mut p = 1.0;
        let mut pool = Vec::new();
        for k in 0..KINDS {
            let s = SIZES[k] as f64;
            p *= binomial(have[k], kept[k])
                * ((s - 1.0) / s).powi(kept[k] as i32)
                * (1.0 / s).powi((have[k] - kept[k]) as i32);
            pool.extend(std::iter::repeat_n(SIZES[k], kept[k]));
        }
        let ones = n - pool.len();
        let totals = kept_totals(&pool);
        let rating = reroll_rating(&pool, tie);
        for (t, &pt) in totals.iter().enumerate() {
            for (k, &pr) in rating.iter().enumerate() {
                law[t][ones][k] += p * pt * pr;
            }
        }
        // Next composition, like an odometer.
        let mut k = 0;
        loop {
            if k == KINDS {
                return Some(law);
            }
            if kept[k] < have[k] {
                kept[k] += 1;
                break;
            }
            kept[k] = 0;
            k += 1;
        }
    }
}

fn binomial(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |c, i| c * (n - i) as f64 / (i + 1) as f64)
}

/// P(two highest faces sum to t) for dice that each show 2..=size
/// uniformly (the dice that did not show 1).
fn kept_totals(pool: &[u32]) -> [f64; TOTALS] {
    // State: (highest, second highest), 0 for none.
    let mut cur = [[0.0f64; FACES]; FACES];
    cur[0][0] = 1.0;
    for &s in pool {
        let mut next = [[0.0f64; FACES]; FACES];
        let p = 1.0 / (s - 1) as f64;
        for (h1, row) in cur.iter().enumerate() {
            for (h2, &w) in row.iter().enumerate().take(h1 + 1) {
                if w == 0.0 {
                    continue;
                }
                for v in 2..=s as usize {
                    let (a, b) = if v > h1 {
                        (v, h1)
                    } else if v > h2 {
                        (h1, v)
                    } else {
                        (h1, h2)
                    };
                    next[a][b] += w * p;
                }
            }
        }
        cur = next;
    }
    let mut out = [0.0; TOTALS];
    for (h1, row) in cur.iter().enumerate() {
        for (h2, &w) in row.iter().enumerate() {
            out[h1 + h2] += w;
        }
    }
    out
}

/// P(re-rolling `pool` rates `SIZES[k]`): the die showing the highest
/// value, ties to the die `tie` prefers; an empty pool rates
/// [`EMPTY_RATING`].
fn reroll_rating(pool: &[u32], tie: RatingTie) -> [f64; KINDS] {
    let prefers = |new: u32, old: u32| match tie {
        RatingTie::Larger => new > old,
        RatingTie::Smaller => new < old,
    };
    // State: (highest value so far, the size showing it); value 0: empty.
    let mut cur = [[0.0f64; KINDS]; FACES];
    cur[0][kind(EMPTY_RATING)] = 1.0;
    for &s in pool {
        let mut next = [[0.0f64; KINDS]; FACES];
        let p = 1.0 / s as f64;
        for x in 0..FACES {
            for k in 0..KINDS {
                let w = cur[x][k];
                if w == 0.0 {
                    continue;
                }
                for y in 1..=s as usize {
                    if y > x || (y == x && prefers(s, SIZES[k])) {
                        next[y][kind(s)] += w * p;
                    } else {
                        next[x][k] += w * p;
                    }
                }
            }
        }
        cur = next;
    }
    let mut out = [0.0; KINDS];
    for row in &cur {
        for (o, &w) in out.iter_mut().zip(row) {
            *o += w;
        }
    }
    out
}

/// The whole outcomes of one basic action and an alias table to draw
/// them.
#[derive(Clone, Debug)]
pub struct OutcomeTable {
    /// Whole outcomes (the mechanic's fields), in increasing order.
    outcomes: Vec<[i64; FIELDS]>,
    /// log2 of the alias table's length.
    bits: u32,
    /// Alias entries: own key in bits 0..15, alias key in 15..30, and the
    /// cut (keep the own key when the low 32 bits of the word fall below
    /// it, out of 2^32) from bit 30.
    entries: Vec<u64>,
}

/// The exact law of `basic`'s whole outcomes; `None` when its actor pool
/// has too many compositions.
fn outcome_law(basic: &Basic) -> Option<BTreeMap<[i64; FIELDS], f64>> {
    let law = actor_law(&basic.actor, basic.tie)?;
    let aid = match &basic.aid {
        Some(h) => best_die_law(h),
        None => vec![1.0],
    };
    let opp = RollLaw::of(&basic.opposition, basic.tie);
    let mut mass: BTreeMap<[i64; FIELDS], f64> = BTreeMap::new();
    let mut add = |o: [i64; FIELDS], p: f64| {
        if p > 0.0 {
            *mass.entry(o).or_insert(0.0) += p;
        }
    };
    for (t0, by_ones) in law.iter().enumerate() {
        for (h, &ph) in aid.iter().enumerate().filter(|(_, p)| **p > 0.0) {
            let t = t0 + h;
            for (j, ratings) in by_ones.iter().enumerate() {
                let pa: f64 = ratings.iter().sum::<f64>() * ph;
                if pa == 0.0 {
                    continue;
                }
                for (u, &po) in opp.total.iter().enumerate().filter(|(_, p)| **p > 0.0) {
                    let r = basic.resolve(t as i64, u as i64);
                    if r.takes == 0 {
                        add(super::fields(&r, 0, j as u32), pa * po);
                        continue;
                    }
                    for (k, &size) in SIZES.iter().enumerate() {
                        // The winner's re-roll rates what the loser takes.
                        let p = if r.win {
                            ratings[k] * ph * po
                        } else {
                            pa * opp.rating[u][k]
                        };
                        add(super::fields(&r, size, j as u32), p);
                    }
                }
            }
        }
    }
    Some(mass)
}

impl OutcomeTable {
    /// The table of `basic`; `None` when its actor pool has too many
    /// compositions or the action too many outcomes for the table.
    pub fn new(basic: &Basic) -> Option<OutcomeTable> {
        let mass = outcome_law(basic)?;
        let (outcomes, probs): (Vec<_>, Vec<f64>) = mass.into_iter().unzip();
        if outcomes.len() >= 1 << KEY_BITS {
            return None;
        }
        let (bits, entries) = alias(&probs);
        Some(OutcomeTable {
            outcomes,
            bits,
            entries,
        })
    }

    /// The outcome of key `k`.
    pub fn outcome(&self, k: usize) -> [i64; FIELDS] {
        self.outcomes[k]
    }

    /// Run `trials` actions; `counts[k]` is how many gave outcome `k`.
    /// One word a trial: its top `bits` pick an entry, its low 32 bits
    /// choose between the entry's own key and its alias.
    pub fn count(&self, rng: &mut DiceRng, trials: u64) -> Vec<u64> {
        // Four lanes in turn, so a run of one common outcome does not wait
        // on its own increments; the counts' length is a power of two so a
        // mask keeps every index in bounds.
        const LANES: usize = 4;
        let n = self.outcomes.len();
        let size = (n * LANES).next_power_of_two();
        let mut counts = vec![0u64; size];
        let shift = 64 - self.bits;
        let entries = &self.entries[..];
        let mask = entries.len() - 1;
        let key = |rng: &mut DiceRng| {
            let w = rng.next_u64();
            let e = entries[((w >> shift) as usize) & mask];
            let own = (w as u32 as u64) < (e >> 30);
            let k = if own { e } else { e >> KEY_BITS };
            (k & ((1 << KEY_BITS) - 1)) as usize
        };
        for _ in 0..trials / LANES as u64 {
            for lane in 0..LANES {
                counts[(key(rng) * LANES + lane) & (size - 1)] += 1;
            }
        }
        for lane in 0..(trials % LANES as u64) as usize {
            counts[(key(rng) * LANES + lane) & (size - 1)] += 1;
        }
        (0..n)
            .map(|k| counts[k * LANES..(k + 1) * LANES].iter().sum())
            .collect()
    }
}

/// Vose's alias table for `probs` (summing to about 1), padded with
/// impossible entries to a power-of-two length of at least 2: returns
/// (log2 length, entries as [`OutcomeTable::entries`] packs them).
fn alias(probs: &[f64]) -> (u32, Vec<u64>) {
    let len = probs.len().next_power_of_two().max(2);
    let bits = len.trailing_zeros();
    let total: f64 = probs.iter().sum();
    let mut q: Vec<f64> = (0..len)
        .map(|i| probs.get(i).map_or(0.0, |p| p / total * len as f64))
        .collect();
    let mut alias_of = vose(&mut q);
    // A padded entry left over (by rounding only) is never drawn: its
    // share is 0 and its alias the first key.
    for i in probs.len()..len {
        if alias_of[i] == i {
            q[i] = 0.0;
            alias_of[i] = 0;
        }
    }
    let entries = (0..len)
        .map(|i| {
            let cut = (q[i] * 4_294_967_296.0).round().clamp(0.0, 4_294_967_296.0) as u64;
            // A padded entry is never its own key: its cut is 0.
            let own = i.min(probs.len() - 1) as u64;
            (cut << 30) | ((alias_of[i] as u64) << KEY_BITS) | own
        })
        .collect();
    (bits, entries)
}

#[cfg(test)]
mod tests {
    use super::super::super::pool::Pool;
    use super::super::super::roll::ones_law;
    use super::super::super::{RatingTie, Sides};
    use super::*;
    use crate::model::Marginals;

    fn basic(actor: &str, aid: Option<&str>, opp: &str, tie: RatingTie, push: bool) -> Basic {
        let sides = Sides {
            actor: actor.parse::<Pool>().unwrap(),
            aid: aid.map(|h| h.parse::<Pool>().unwrap()),
            opposition: opp.parse::<Pool>().unwrap(),
            gang: vec![],
        };
        Basic::new(sides, tie, push)
    }

    #[test]
    fn actor_law_matches_roll_law_and_ones_law() {
        for dice in [
            &[6u32][..],
            &[8, 6, 6],
            &[12, 10, 8, 6, 4],
            &[4, 4, 4],
            &[12; 20],
        ] {
            for tie in [RatingTie::Larger, RatingTie::Smaller] {
                let law = actor_law(dice, tie).unwrap();
                let exact = RollLaw::of(dice, tie);
                assert_eq!(law.len(), TOTALS);
                for (t, by_ones) in law.iter().enumerate() {
                    for k in 0..KINDS {
                        let p: f64 = by_ones.iter().map(|r| r[k]).sum();
                        assert!(
                            (p - exact.rating[t][k]).abs() < 1e-12,
                            "{dice:?} t {t} k {k}"
                        );
                    }
                }
                for (j, &want) in ones_law(dice).iter().enumerate() {
                    let p: f64 = law.iter().map(|row| row[j].iter().sum::<f64>()).sum();
                    assert!((p - want).abs() < 1e-12, "{dice:?} ones {j}");
                }
            }
        }
    }

    #[test]
    fn table_law_equals_the_exact_marginals() {
        let configs = [
            ("d8 d6 d6", None, "2d6", RatingTie::Larger, false),
            ("d6 d6", None, "d6", RatingTie::Smaller, true),
            (
                "3d4 d12",
                Some("d6 d6"),
                "d10 d10 d8",
                RatingTie::Larger,
                true,
            ),
            (
                "d4 d6 d8 d10 d12",
                Some("d4"),
                "d12 d12 2d6",
                RatingTie::Smaller,
                false,
            ),
            ("2d8", None, "20d6", RatingTie::Larger, false),
            ("20d12", None, "20d12", RatingTie::Larger, true),
        ];
        for (i, (a, aid, o, tie, push)) in configs.into_iter().enumerate() {
            let b = basic(a, aid, o, tie, push).tie_complication(i % 2 == 0);
            let mut m = Marginals::new(FIELDS);
            for (outcome, p) in outcome_law(&b).unwrap() {
                m.add_outcome(&outcome, p);
            }
            assert!(OutcomeTable::new(&b).is_some(), "{a} vs {o} fits a table");
            let exact = b.exact();
            for f in 0..FIELDS {
                let (e, t) = (exact.field(f), m.field(f));
                for v in e.keys().chain(t.keys()) {
                    let (x, y) = (e.get(v).unwrap_or(&0.0), t.get(v).unwrap_or(&0.0));
                    assert!(
                        (x - y).abs() < 1e-12,
                        "{a} vs {o}: field {f} value {v}: {x} {y}"
                    );
                }
            }
        }
    }

    #[test]
    fn counts_every_trial_once() {
        let b = basic("d8 d6 d6", None, "2d6", RatingTie::Larger, false);
        let table = OutcomeTable::new(&b).unwrap();
        for trials in [0, 1, 3, 4, 1_001] {
            let counts = table.count(&mut DiceRng::from_u64(7), trials);
            assert_eq!(counts.iter().sum::<u64>(), trials);
        }
    }

    #[test]
    fn alias_table_keeps_every_probability() {
        // Reading the cuts back: each key's share of the 2^32 × len slots.
        let probs = [0.5, 0.25, 0.125, 0.0625, 0.0625 - 1e-9, 1e-9];
        let (bits, entries) = alias(&probs);
        assert_eq!(bits, 3);
        let mut share = vec![0.0; probs.len()];
        for e in &entries {
            let cut = (e >> 30) as f64 / 4_294_967_296.0;
            let own = (e & 0x7fff) as usize;
            let other = ((e >> KEY_BITS) & 0x7fff) as usize;
            if cut > 0.0 {
                share[own] += cut / 8.0;
            }
            if cut < 1.0 {
                share[other] += (1.0 - cut) / 8.0;
            }
        }
        for (s, p) in share.iter().zip(probs) {
            assert!((s - p).abs() < 1e-9, "{share:?}");
        }
    }
}
