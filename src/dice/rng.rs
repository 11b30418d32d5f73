//! The dice stream: a Xoshiro256++ generator with a bit buffer in front.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// Up to this many d8 faces are looked up at once in [`MAX_TABLES`].
const TABLE_DICE: u32 = 4;

/// `MAX_TABLES[k - 1][bits]` is the highest face (1..=8) among `k` d8 whose
/// faces (minus one) are packed as 3-bit fields in `bits`. Built at compile
/// time; 4 KiB for four dice, so it lives in L1 cache.
static MAX_TABLES: [[u8; 4096]; TABLE_DICE as usize] = build_max_tables();

const fn build_max_tables() -> [[u8; 4096]; TABLE_DICE as usize] {
    let mut tables = [[0u8; 4096]; TABLE_DICE as usize];
    let mut k = 1;
    while k <= TABLE_DICE as usize {
        let mut bits = 0usize;
        while bits < (1usize << (3 * k)) {
            let mut best = 0usize;
            let mut d = 0;
            while d < k {
                let face = (bits >> (3 * d)) & 7;
                if face > best {
                    best = face;
                }
                d += 1;
            }
            tables[k - 1][bits] = (best + 1) as u8;
            bits += 1;
        }
        k += 1;
    }
    tables
}

/// The most d8 whose highest face [`d8_highest_packed`] reads at once.
pub const PACKED_D8_MAX: u32 = TABLE_DICE;

/// The highest face (1..=8) among `k` d8 (1 ≤ k ≤ [`PACKED_D8_MAX`]) whose
/// faces minus one are packed as 3-bit fields in the low `3k` bits of
/// `packed` (higher bits must be zero). For hot loops that slice one random
/// word into several pools themselves.
#[inline(always)]
pub fn d8_highest_packed(k: u32, packed: u64) -> u32 {
    MAX_TABLES[k as usize - 1][packed as usize] as u32
}

/// A seeded stream of dice rolls.
///
/// Random bits are drawn 64 at a time and handed out in fields, so a d8
/// costs three bits rather than a whole generator call. Leftover bits that
/// are too few for a request are dropped, which keeps every field uniform.
#[derive(Clone, Debug)]
pub struct DiceRng {
    rng: Xoshiro256PlusPlus,
    buf: u64,
    left: u32,
}

impl DiceRng {
    /// Run `f` on a copy of this generator held on the caller's stack
    /// frame, then take the copy's state back: the same draws, but a hot
    /// loop inside `f` can keep the state in registers, where through
    /// `&mut self` it would store it back to memory after every draw (the
    /// loop's panic paths might read it).
    #[inline(always)]
    pub fn on_this_frame<R>(&mut self, f: impl FnOnce(&mut DiceRng) -> R) -> R {
        let mut local = self.clone();
        let r = f(&mut local);
        *self = local;
        r
    }

    /// A stream seeded from a single 64-bit value (via SplitMix64, as
    /// `SeedableRng::seed_from_u64` documents).
    pub fn from_u64(seed: u64) -> Self {
        DiceRng {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            buf: 0,
            left: 0,
        }
    }

    /// The stream for chunk `chunk` of config `config` under scenario seed
    /// `seed`. Streams depend only on these three numbers, never on the
    /// thread that runs them, which is what makes results identical for any
    /// thread count.
    pub fn for_chunk(seed: u64, config: u64, chunk: u64) -> Self {
        // Mix the three coordinates with SplitMix64's finaliser so nearby
        // (config, chunk) pairs land far apart before seeding.
        let mut h = splitmix(seed ^ 0x6f64_6473_6d69_7468); // "odsmith"
        h = splitmix(h ^ config);
        h = splitmix(h ^ chunk.rotate_left(32));
        Self::from_u64(h)
    }

    /// A fresh 64-bit word straight from the generator.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// `k` uniform random bits (1 ≤ k ≤ 32) from the buffer.
    #[inline(always)]
    pub fn bits(&mut self, k: u32) -> u64 {
        debug_assert!((1..=32).contains(&k));
        if self.left < k {
            self.buf = self.rng.next_u64();
            self.left = 64;
        }
        let v = self.buf & ((1u64 << k) - 1);
        self.buf >>= k;
        self.left -= k;
        v
    }

    /// One d8, 1..=8.
    #[inline(always)]
    pub fn d8(&mut self) -> u32 {
        self.bits(3) as u32 + 1
    }

    /// The highest of `n` d8 (n ≥ 1), 1..=8.
    #[inline(always)]
    pub fn d8_keep_highest(&mut self, mut n: u32) -> u32 {
        debug_assert!(n >= 1);
        // The usual pool, four dice or fewer, in one lookup (the same
        // draws as the loop's one pass; the range, not `n <= 4`, lets
        // the table's index go unchecked).
        if (1..=TABLE_DICE).contains(&n) {
            return d8_highest_packed(n, self.bits(3 * n));
        }
        let mut best = 0u8;
        while n > 0 {
            let k = n.min(TABLE_DICE);
            let packed = self.bits(3 * k) as usize;
            best = best.max(MAX_TABLES[k as usize - 1][packed]);
            n -= k;
        }
        best as u32
    }

    /// One die with `sides` faces (1 ≤ sides ≤ 2^31), 1..=sides, unbiased.
    #[inline]
    pub fn die(&mut self, sides: u32) -> u32 {
        debug_assert!(sides >= 1);
        if sides.is_power_of_two() {
            if sides == 1 {
                return 1;
            }
            return self.bits(sides.trailing_zeros()) as u32 + 1;
        }
        self.lemire(sides)
    }

    /// One d20, 1..=20: the same draw as `die(20)`, with the sides known
    /// at compile time so a hot loop pays no division or branch on them.
    #[inline(always)]
    pub fn d20(&mut self) -> u32 {
        self.lemire(20)
    }

    /// Two d20, the same draws as `(d20(), d20())`. When the buffer is
    /// empty (as it is after every pair) both come from the two halves of
    /// one fresh word, with no buffer bookkeeping; a half that might be
    /// rejected (probability 20 in 2^32) sends the word through the buffer
    /// and the general path, which reads it the same way.
    #[inline(always)]
    pub fn d20_pair(&mut self) -> (u32, u32) {
        if self.left == 0 {
            let x = self.rng.next_u64();
            let a = (x & 0xffff_ffff) * 20;
            let b = (x >> 32) * 20;
            if a as u32 >= 20 && b as u32 >= 20 {
                return ((a >> 32) as u32 + 1, (b >> 32) as u32 + 1);
            }
            self.buf = x;
            self.left = 64;
        }
        (self.d20(), self.d20())
    }

    /// Six d20 (1..=20 each) from one word, with no division: Lemire's
    /// method over the range 20^6, its result read as six base-20 digits by
    /// multiplying the low word by 20 six times (the batched rolls of
    /// Brackett-Rozinsky and Lemire, 2024). Multiplying by 20 six times is
    /// multiplying by 20^6 once, so the digits are uniform exactly when the
    /// last low word passes Lemire's rejection test for 20^6; a word fails
    /// it with probability below 4e-12 and is drawn again. Bypasses the bit
    /// buffer: for loops that draw nothing else.
    #[inline(always)]
    pub fn d20_six(&mut self) -> [u32; 6] {
        const RANGE: u64 = 20u64.pow(6);
        loop {
            let mut low = self.rng.next_u64();
            let mut faces = [0u32; 6];
            for face in &mut faces {
                let m = u128::from(low) * 20;
                *face = (m >> 64) as u32 + 1;
                low = m as u64;
            }
            // `RANGE.wrapping_neg() % RANGE` is 2^64 mod 20^6, computed
            // only in the rare case the cheap test cannot decide.
            if low >= RANGE || low >= RANGE.wrapping_neg() % RANGE {
                return faces;
            }
        }
    }

    /// A d20 (1..=20) for each of `items`, in order, handed to `each`
    /// with its item: six from each word as [`Self::d20_six`] draws them,
    /// the last word's unused faces dropped. Bypasses the bit buffer, as
    /// `d20_six` does.
    #[inline(always)]
    pub fn d20_each<T>(&mut self, items: &[T], mut each: impl FnMut(&T, u32)) {
        for block in items.chunks(6) {
            let faces = self.d20_six();
            for (item, &face) in block.iter().zip(&faces) {
                each(item, face);
            }
        }
    }

    /// Lemire's nearly divisionless method on 32-bit draws, 1..=sides.
    #[inline(always)]
    fn lemire(&mut self, sides: u32) -> u32 {
        let s = sides as u64;
        let mut m = self.bits(32) * s;
        let mut low = m as u32;
        if low < sides {
            let threshold = sides.wrapping_neg() % sides;
            while low < threshold {
                m = self.bits(32) * s;
                low = m as u32;
            }
        }
        (m >> 32) as u32 + 1
    }
}

#[inline]
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_on_the_frame_leaves_the_stream_where_it_would_be() {
        let (mut a, mut b) = (DiceRng::from_u64(3), DiceRng::from_u64(3));
        // Eleven 32-bit draws: half a word is left in the bit buffer, which
        // must come back with the rest of the state.
        let inside = a.on_this_frame(|r| (0..11).map(|_| r.die(6)).collect::<Vec<_>>());
        let straight: Vec<u32> = (0..11).map(|_| b.die(6)).collect();
        assert_eq!(inside, straight);
        assert_eq!((a.die(20), a.next_u64()), (b.die(20), b.next_u64()));
    }

    /// Chi-square statistic of observed counts against a uniform expectation.
    fn chi_square(counts: &[u64]) -> f64 {
        let n: u64 = counts.iter().sum();
        let e = n as f64 / counts.len() as f64;
        counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum()
    }

    #[test]
    fn tables_hold_the_highest_face() {
        // faces 3, 8, 1 packed low to high: (2) | (7 << 3) | (0 << 6)
        assert_eq!(MAX_TABLES[2][2 | (7 << 3)], 8);
        assert_eq!(MAX_TABLES[0][0], 1);
        assert_eq!(MAX_TABLES[3][0o1234], 5);
    }

    #[test]
    fn dice_are_uniform() {
        // With 6 or 7 degrees of freedom, chi-square above 30 has p < 1e-4;
        // the seed is fixed, so this never flakes.
        let mut rng = DiceRng::from_u64(7);
        for sides in [6u32, 8, 10, 3] {
            let mut counts = vec![0u64; sides as usize];
            for _ in 0..600_000 {
                let v = rng.die(sides);
                assert!((1..=sides).contains(&v));
                counts[v as usize - 1] += 1;
            }
            assert!(chi_square(&counts) < 30.0, "d{sides}: {counts:?}");
        }
    }

    #[test]
    fn d20_is_die_20() {
        let (mut a, mut b) = (DiceRng::from_u64(8), DiceRng::from_u64(8));
        for _ in 0..10_000 {
            assert_eq!(a.d20(), b.die(20));
        }
        // Pairs, also after an odd draw has left half a word buffered.
        for skew in [0, 1, 3] {
            let (mut a, mut b) = (DiceRng::from_u64(9), DiceRng::from_u64(9));
            for _ in 0..skew {
                assert_eq!(a.bits(3), b.bits(3));
            }
            for _ in 0..10_000 {
                assert_eq!(a.d20_pair(), (b.die(20), b.die(20)));
            }
        }
    }

    #[test]
    fn six_d20_are_the_base_20_digits_of_one_lemire_draw() {
        // Each word's six faces are the digits of ⌊w · 20^6 / 2^64⌋, the
        // Lemire draw over 20^6, first digit most significant.
        let range = 20u128.pow(6);
        let (mut a, mut b) = (DiceRng::from_u64(12), DiceRng::from_u64(12));
        let mut counts = [[0u64; 20]; 6];
        let mut pairs = vec![0u64; 400];
        for _ in 0..200_000 {
            let faces = a.d20_six();
            let w = b.next_u64();
            let mut x = ((u128::from(w) * range) >> 64) as u64;
            for i in (0..6).rev() {
                assert_eq!(faces[i], (x % 20) as u32 + 1, "word {w:#x}");
                x /= 20;
            }
            for (i, &f) in faces.iter().enumerate() {
                counts[i][f as usize - 1] += 1;
            }
            pairs[(faces[0] as usize - 1) * 20 + faces[1] as usize - 1] += 1;
        }
        // 19 degrees of freedom: chi-square above 50 has p < 1e-4; 399:
        // above 520 has p < 1e-4. The seed is fixed, so this never flakes.
        for (i, c) in counts.iter().enumerate() {
            assert!(chi_square(c) < 50.0, "face {i}: {c:?}");
        }
        assert!(chi_square(&pairs) < 520.0, "{}", chi_square(&pairs));
    }

    #[test]
    fn d20_each_takes_six_a_word_and_drops_the_rest() {
        let (mut a, mut b) = (DiceRng::from_u64(3), DiceRng::from_u64(3));
        for n in [0, 1, 5, 6, 7, 12, 16] {
            let items: Vec<usize> = (0..n).collect();
            let mut got = Vec::new();
            a.d20_each(&items, |&i, face| got.push((i, face)));
            let want: Vec<(usize, u32)> = (0..n.div_ceil(6))
                .flat_map(|_| b.d20_six())
                .take(n)
                .enumerate()
                .collect();
            assert_eq!(got, want, "{n} faces");
        }
        assert_eq!(a.next_u64(), b.next_u64(), "both streams at the same word");
    }

    #[test]
    fn keep_highest_matches_rolling_each_die() {
        // P(max of n d8 = k) = (k^n - (k-1)^n) / 8^n
        let n = 5u32;
        let trials = 800_000u64;
        let mut rng = DiceRng::from_u64(11);
        let mut counts = [0u64; 8];
        for _ in 0..trials {
            counts[rng.d8_keep_highest(n) as usize - 1] += 1;
        }
        for k in 1..=8u32 {
            let p = (k.pow(n) - (k - 1).pow(n)) as f64 / 8f64.powi(n as i32);
            let se = (p * (1.0 - p) / trials as f64).sqrt();
            let got = counts[k as usize - 1] as f64 / trials as f64;
            assert!(
                (got - p).abs() < 5.0 * se + 1e-12,
                "k={k} got {got} want {p}"
            );
        }
    }

    #[test]
    fn chunk_streams_are_fixed_and_distinct() {
        let a = DiceRng::for_chunk(1, 0, 0).next_u64();
        let b = DiceRng::for_chunk(1, 0, 1).next_u64();
        let c = DiceRng::for_chunk(1, 1, 0).next_u64();
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_eq!(a, DiceRng::for_chunk(1, 0, 0).next_u64());
    }
}
