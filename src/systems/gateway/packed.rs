//! The challenge sampler for small pools: whole contests sliced out of one
//! 64-bit word, counted as margin keys in flat arrays.
//!
//! A contest of `a` d8 against `o` d8 (each at most four) reads `3(a + o)`
//! bits: the actor's faces low, the opposition's above. Each word gives as
//! many whole contests as fit, low bits first, and the leftover bits are
//! dropped; that is the stream the sampler has always read, so the numbers
//! do not move. What changed is the work per contest: when both pools fit
//! in 15 bits one table maps the bits straight to the raw margin (highest
//! face minus highest face, before bonuses); larger pools take two lookups
//! of the highest-face tables. Counts go to four arrays in turn, so
//! repeats of a common margin do not wait on each other's increments.

use std::sync::OnceLock;

use crate::dice::{DiceRng, PACKED_D8_MAX, d8_highest_packed};

/// Raw margins −7..=7 as keys 0..=14 (16 slots keep rows aligned).
pub const KEYS: usize = 16;
/// Raw margin of key 0.
pub const KEY_OFFSET: i64 = -7;
/// Pools whose two sides fit in this many bits use one combined table.
const TABLE_BITS: u32 = 15;
/// Independent count arrays the slots of a word rotate through.
const LANES: usize = 4;

/// `MARGIN_TABLES[a - 1][o - 1][bits]`, for `a + o ≤ 5`: the raw margin key
/// of `a` d8 (low `3a` bits) against `o` d8 (the next `3o`). Built on first
/// use; 32 KiB for 3d8 against 2d8.
static MARGIN_TABLES: [[OnceLock<Vec<u8>>; 4]; 4] = [const { [const { OnceLock::new() }; 4] }; 4];

fn margin_table(a: u32, o: u32) -> &'static [u8] {
    MARGIN_TABLES[a as usize - 1][o as usize - 1].get_or_init(|| {
        let a_mask = (1u64 << (3 * a)) - 1;
        (0..1u64 << (3 * (a + o)))
            .map(|bits| raw_key(a, o, bits, a_mask))
            .collect()
    })
}

#[inline(always)]
fn raw_key(a: u32, o: u32, bits: u64, a_mask: u64) -> u8 {
    let hi_a = d8_highest_packed(a, bits & a_mask) as i64;
    let hi_o = d8_highest_packed(o, bits >> (3 * a)) as i64;
    (hi_a - hi_o - KEY_OFFSET) as u8
}

/// Whether [`count_margins`] takes pools of these sizes.
pub fn fits(a: u32, o: u32) -> bool {
    (1..=PACKED_D8_MAX).contains(&a) && (1..=PACKED_D8_MAX).contains(&o)
}

/// Run `trials` contests of `a` d8 against `o` d8 (see [`fits`]) and
/// return how many gave each raw margin key.
pub fn count_margins(rng: &mut DiceRng, trials: u64, a: u32, o: u32) -> [u64; KEYS] {
    assert!(fits(a, o), "{a}d8 against {o}d8 is not a packed contest");
    let bits = 3 * (a + o);
    let per_word = 64 / bits;
    let mut lanes = [[0u64; KEYS]; LANES];
    let whole = trials / per_word as u64;
    if bits <= TABLE_BITS {
        let table = margin_table(a, o);
        let key = |x: u64| table[x as usize] as usize;
        match per_word {
            10 => words::<10>(rng, whole, bits, key, &mut lanes),
            7 => words::<7>(rng, whole, bits, key, &mut lanes),
            5 => words::<5>(rng, whole, bits, key, &mut lanes),
            4 => words::<4>(rng, whole, bits, key, &mut lanes),
            _ => unreachable!("{bits} bits"),
        }
    } else {
        let a_mask = (1u64 << (3 * a)) - 1;
        let key = |x: u64| raw_key(a, o, x, a_mask) as usize;
        match per_word {
            3 => words::<3>(rng, whole, bits, key, &mut lanes),
            2 => words::<2>(rng, whole, bits, key, &mut lanes),
            _ => unreachable!("{bits} bits"),
        }
    }
    // The last, partial word is always drawn, as the sampler always did.
    let mut x = rng.next_u64();
    let mask = (1u64 << bits) - 1;
    for _ in 0..trials % per_word as u64 {
        lanes[0][raw_key(a, o, x & mask, (1u64 << (3 * a)) - 1) as usize] += 1;
        x >>= bits;
    }
    let mut counts = [0u64; KEYS];
    for lane in &lanes {
        for (c, n) in counts.iter_mut().zip(lane) {
            *c += n;
        }
    }
    counts
}

/// `n` words of `P` contests each: the hot loop, unrolled by `P`.
#[inline(always)]
fn words<const P: usize>(
    rng: &mut DiceRng,
    n: u64,
    bits: u32,
    key: impl Fn(u64) -> usize,
    lanes: &mut [[u64; KEYS]; LANES],
) {
    let mask = (1u64 << bits) - 1;
    for _ in 0..n {
        let mut x = rng.next_u64();
        for s in 0..P {
            lanes[s % LANES][key(x & mask) & (KEYS - 1)] += 1;
            x >>= bits;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slicing the sampler did before the tables: contest by contest
    /// through the highest-face tables, a margin histogram.
    fn sliced(rng: &mut DiceRng, trials: u64, a: u32, o: u32) -> [u64; KEYS] {
        let bits = 3 * (a + o);
        let per_word = (64 / bits) as u64;
        let mut counts = [0u64; KEYS];
        let mut contest = |mut x: u64, n: u64| {
            for _ in 0..n {
                let hi_a = d8_highest_packed(a, x & ((1 << (3 * a)) - 1)) as i64;
                x >>= 3 * a;
                let hi_o = d8_highest_packed(o, x & ((1 << (3 * o)) - 1)) as i64;
                x >>= 3 * o;
                counts[(hi_a - hi_o - KEY_OFFSET) as usize] += 1;
            }
        };
        for _ in 0..trials / per_word {
            contest(rng.next_u64(), per_word);
        }
        contest(rng.next_u64(), trials % per_word);
        counts
    }

    #[test]
    fn tables_count_what_slicing_counted() {
        for a in 1..=4 {
            for o in 1..=4 {
                for trials in [0, 1, 7, 1000, 65_536] {
                    let got = count_margins(&mut DiceRng::from_u64(3), trials, a, o);
                    let want = sliced(&mut DiceRng::from_u64(3), trials, a, o);
                    assert_eq!(got, want, "{a}d8 vs {o}d8, {trials} trials");
                }
            }
        }
    }
}
