//! The integer type that counts cases in an exact distribution.
//!
//! Exact evaluation runs first with `u128` counts and checked arithmetic;
//! the first operation that would overflow stops it with [`Overflow`], and
//! the whole expression is evaluated again with [`Big`] counts, which
//! cannot overflow. So no count is ever wrong, and the common case pays
//! nothing for the rare one.

use super::big::Big;

/// A `u128` operation would have overflowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

/// Whole-number counts of equally likely cases.
pub trait Weight: Clone + PartialEq + std::fmt::Debug {
    /// The most bits a count holds.
    const MAX_BITS: u64;

    fn zero() -> Self;
    fn from_u64(v: u64) -> Self;
    fn is_zero(&self) -> bool;
    fn add(&self, other: &Self) -> Result<Self, Overflow>;
    fn mul(&self, other: &Self) -> Result<Self, Overflow>;
    /// `self − other`, where `other ≤ self` always holds by construction.
    fn sub(&self, other: &Self) -> Self;
    /// `self += a × b`.
    fn add_product(&mut self, a: &Self, b: &Self) -> Result<(), Overflow> {
        *self = self.add(&a.mul(b)?)?;
        Ok(())
    }
    /// The same count as a [`Big`].
    fn to_big(&self) -> Big;

    /// Significant bits (0 for zero): what a count's arithmetic costs
    /// grows with.
    fn bits(&self) -> u64;

    /// The cost of `ops` steps `self += a × b` with `a` of `a_bits` bits and
    /// `b` of `b_bits`, in the [`Budget`](super::dist::Budget)'s units
    /// (one unit: one `u128` step).
    fn cost(ops: u64, a_bits: u64, b_bits: u64) -> u64;

    fn one() -> Self {
        Self::from_u64(1)
    }

    /// `self^k`, by repeated squaring (`0^0 = 1`).
    fn pow(&self, mut k: u64) -> Result<Self, Overflow> {
        let mut out = Self::one();
        let mut base = self.clone();
        while k > 0 {
            if k & 1 == 1 {
                out = out.mul(&base)?;
            }
            k >>= 1;
            if k > 0 {
                base = base.mul(&base)?;
            }
        }
        Ok(out)
    }
}

impl Weight for u128 {
    const MAX_BITS: u64 = 128;
    fn zero() -> Self {
        0
    }
    fn from_u64(v: u64) -> Self {
        v as u128
    }
    fn is_zero(&self) -> bool {
        *self == 0
    }
    #[inline]
    fn add(&self, other: &Self) -> Result<Self, Overflow> {
        self.checked_add(*other).ok_or(Overflow)
    }
    #[inline]
    fn mul(&self, other: &Self) -> Result<Self, Overflow> {
        self.checked_mul(*other).ok_or(Overflow)
    }
    fn sub(&self, other: &Self) -> Self {
        self.checked_sub(*other)
            .expect("a count went below zero: a bug in the distribution algebra")
    }
    fn to_big(&self) -> Big {
        Big::from_u128(*self)
    }
    fn bits(&self) -> u64 {
        128 - self.leading_zeros() as u64
    }
    /// Flat: a `u128` step costs the same whatever its values.
    fn cost(ops: u64, _: u64, _: u64) -> u64 {
        ops
    }
}

impl Weight for Big {
    const MAX_BITS: u64 = u64::MAX;
    fn zero() -> Self {
        Big::zero()
    }
    fn from_u64(v: u64) -> Self {
        Big::from_u128(v as u128)
    }
    fn is_zero(&self) -> bool {
        Big::is_zero(self)
    }
    fn add(&self, other: &Self) -> Result<Self, Overflow> {
        Ok(Big::add(self, other))
    }
    fn mul(&self, other: &Self) -> Result<Self, Overflow> {
        Ok(Big::mul(self, other))
    }
    fn sub(&self, other: &Self) -> Self {
        let mut d = self.clone();
        d.sub_assign(other);
        d
    }
    fn add_product(&mut self, a: &Self, b: &Self) -> Result<(), Overflow> {
        self.add_mul_assign(a, b);
        Ok(())
    }
    fn to_big(&self) -> Big {
        self.clone()
    }
    fn bits(&self) -> u64 {
        Big::bits(self)
    }
    /// Schoolbook: a step multiplies every limb of `a` by every limb of
    /// `b`, after a fixed cost per call (see [`BIG_CALL`], [`BIG_LIMB`]).
    fn cost(ops: u64, a_bits: u64, b_bits: u64) -> u64 {
        let limbs = |bits: u64| bits.div_ceil(64).max(1);
        let product = limbs(a_bits).saturating_mul(limbs(b_bits));
        let tenths = BIG_CALL.saturating_add(BIG_LIMB.saturating_mul(product));
        ops.saturating_mul(tenths) / 10
    }
}

/// The fixed cost of one big-count step, in tenths of a `u128` step.
///
/// Measured in one run (`calibrate` in `expr/tests_budget.rs`), time
/// against the units spent: a sum of 12 d1000 (`u128`, 6.6e7 steps) and
/// of 13 d1000 (big counts of two limbs) set the ratio of a big step to a
/// `u128` step (5.6), and sums of 200, 500 and 1,000 d6 (counts up to
/// 41 limbs) split it into a fixed part and a part per limb product; with
/// these constants the five agree on the time per unit within 10%.
pub const BIG_CALL: u64 = 10;
/// The cost of one limb-by-limb product inside a big-count step, in
/// tenths of a `u128` step (see [`BIG_CALL`]).
pub const BIG_LIMB: u64 = 24;
