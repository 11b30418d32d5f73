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
}

impl Weight for Big {
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
}
