//! Unsigned integers of any size, just enough for exact dice counts.
//!
//! Exact distributions weigh each value by a whole number of equally likely
//! cases. Most fit `u128`, but some do not: eight exploding d6 have
//! 6^88 ≈ 2^227 cases, and no common factor can be cancelled (the longest
//! chain of explosions happens in exactly one of them). Counts that outgrow
//! `u128` move here. Only what the distribution algebra needs is provided:
//! addition, multiplication, comparison and the ratio of two counts as a
//! float. A crate such as num-bigint would also do, but it switches on a
//! feature of `num-traits` that polars depends on and so forces a rebuild of
//! the whole dependency tree.

use std::cmp::Ordering;
use std::fmt;

/// A non-negative integer of any size: little-endian 64-bit limbs with no
/// zero limb at the top (zero is the empty vector).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Big {
    limbs: Vec<u64>,
}

impl Big {
    /// Zero.
    pub fn zero() -> Self {
        Big { limbs: Vec::new() }
    }

    /// The value of a `u128`.
    pub fn from_u128(v: u128) -> Self {
        let mut b = Big {
            limbs: vec![v as u64, (v >> 64) as u64],
        };
        b.trim();
        b
    }

    /// The value as a `u128`, when it fits.
    pub fn to_u128(&self) -> Option<u128> {
        match self.limbs.len() {
            0 => Some(0),
            1 => Some(self.limbs[0] as u128),
            2 => Some(self.limbs[0] as u128 | (self.limbs[1] as u128) << 64),
            _ => None,
        }
    }

    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    /// Number of significant bits (0 for zero).
    pub fn bits(&self) -> u64 {
        match self.limbs.last() {
            None => 0,
            Some(top) => 64 * self.limbs.len() as u64 - top.leading_zeros() as u64,
        }
    }

    /// `self += other`.
    pub fn add_assign(&mut self, other: &Big) {
        if self.limbs.len() < other.limbs.len() {
            self.limbs.resize(other.limbs.len(), 0);
        }
        let mut carry = 0u64;
        for (i, a) in self.limbs.iter_mut().enumerate() {
            let b = other.limbs.get(i).copied().unwrap_or(0);
            if b == 0 && carry == 0 && i >= other.limbs.len() {
                break;
            }
            let (s1, c1) = a.overflowing_add(b);
            let (s2, c2) = s1.overflowing_add(carry);
            *a = s2;
            carry = (c1 as u64) + (c2 as u64);
        }
        if carry > 0 {
            self.limbs.push(carry);
        }
    }

    /// `self -= other`; `other` must not exceed `self`.
    pub fn sub_assign(&mut self, other: &Big) {
        assert!(*self >= *other, "Big subtraction below zero");
        let mut borrow = 0u64;
        for (i, a) in self.limbs.iter_mut().enumerate() {
            let b = other.limbs.get(i).copied().unwrap_or(0);
            if b == 0 && borrow == 0 && i >= other.limbs.len() {
                break;
            }
            let (d1, b1) = a.overflowing_sub(b);
            let (d2, b2) = d1.overflowing_sub(borrow);
            *a = d2;
            borrow = (b1 as u64) + (b2 as u64);
        }
        self.trim();
    }

    /// `self + other`.
    pub fn add(&self, other: &Big) -> Big {
        let mut s = self.clone();
        s.add_assign(other);
        s
    }

    /// `self += a × b`, in place (no allocation once `self` is wide
    /// enough): the inner step of every convolution.
    pub fn add_mul_assign(&mut self, a: &Big, b: &Big) {
        if a.is_zero() || b.is_zero() {
            return;
        }
        let need = a.limbs.len() + b.limbs.len() + 1;
        if self.limbs.len() < need {
            self.limbs.resize(need, 0);
        }
        for (i, &x) in a.limbs.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &y) in b.limbs.iter().enumerate() {
                let t = x as u128 * y as u128 + self.limbs[i + j] as u128 + carry;
                self.limbs[i + j] = t as u64;
                carry = t >> 64;
            }
            let mut k = i + b.limbs.len();
            while carry > 0 {
                if k == self.limbs.len() {
                    self.limbs.push(0);
                }
                let t = self.limbs[k] as u128 + carry;
                self.limbs[k] = t as u64;
                carry = t >> 64;
                k += 1;
            }
        }
        self.trim();
    }

    /// `self × other`, schoolbook (counts here have a handful of limbs).
    pub fn mul(&self, other: &Big) -> Big {
        if self.is_zero() || other.is_zero() {
            return Big::zero();
        }
        let mut out = vec![0u64; self.limbs.len() + other.limbs.len()];
        for (i, &a) in self.limbs.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &b) in other.limbs.iter().enumerate() {
                let t = a as u128 * b as u128 + out[i + j] as u128 + carry;
                out[i + j] = t as u64;
                carry = t >> 64;
            }
            let mut k = i + other.limbs.len();
            while carry > 0 {
                let t = out[k] as u128 + carry;
                out[k] = t as u64;
                carry = t >> 64;
                k += 1;
            }
        }
        let mut b = Big { limbs: out };
        b.trim();
        b
    }

    /// The leading 64 bits as a float and the power of two they stand
    /// for: `self ≈ mantissa × 2^exp`.
    fn leading(&self) -> (f64, i64) {
        let bits = self.bits();
        if bits <= 64 {
            return (self.limbs.first().copied().unwrap_or(0) as f64, 0);
        }
        let shift = bits - 64;
        let (limb, off) = ((shift / 64) as usize, (shift % 64) as u32);
        let lo = self.limbs[limb] >> off;
        let hi = if off == 0 {
            0
        } else {
            self.limbs.get(limb + 1).copied().unwrap_or(0) << (64 - off)
        };
        ((lo | hi) as f64, shift as i64)
    }

    /// `self / other` as a float (`other` non-zero); accurate to rounding
    /// whatever the sizes, with no overflow on the way.
    pub fn ratio(&self, other: &Big) -> f64 {
        assert!(!other.is_zero(), "ratio to zero");
        if self.is_zero() {
            return 0.0;
        }
        let (a, ea) = self.leading();
        let (b, eb) = other.leading();
        let e = (ea - eb).clamp(-2000, 2000) as i32;
        // Two steps keep 2^e finite for |e| up to 2000.
        (a / b) * 2f64.powi(e / 2) * 2f64.powi(e - e / 2)
    }

    /// Remainder and quotient of division by a small number.
    fn div_small(&self, d: u64) -> (Big, u64) {
        let mut q = vec![0u64; self.limbs.len()];
        let mut r = 0u128;
        for i in (0..self.limbs.len()).rev() {
            let cur = (r << 64) | self.limbs[i] as u128;
            q[i] = (cur / d as u128) as u64;
            r = cur % d as u128;
        }
        let mut b = Big { limbs: q };
        b.trim();
        (b, r as u64)
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Self) -> Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Decimal digits.
impl fmt::Display for Big {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return f.pad("0");
        }
        const CHUNK: u64 = 10_000_000_000_000_000_000; // 10^19
        let mut parts = Vec::new();
        let mut rest = self.clone();
        while !rest.is_zero() {
            let (q, r) = rest.div_small(CHUNK);
            parts.push(r);
            rest = q;
        }
        let mut s = parts.pop().unwrap_or(0).to_string();
        for p in parts.iter().rev() {
            s.push_str(&format!("{p:019}"));
        }
        f.pad(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(v: u128) -> Big {
        Big::from_u128(v)
    }

    #[test]
    fn small_values_round_trip() {
        for v in [0u128, 1, u64::MAX as u128, u64::MAX as u128 + 1, u128::MAX] {
            assert_eq!(big(v).to_u128(), Some(v));
            assert_eq!(big(v).to_string(), v.to_string());
        }
        assert!(big(0).is_zero());
        assert_eq!(big(0).bits(), 0);
        assert_eq!(big(1 << 70).bits(), 71);
    }

    #[test]
    fn six_to_the_eighty_eighth() {
        let six = big(6);
        let mut p = big(1);
        for _ in 0..88 {
            p = p.mul(&six);
        }
        // 6^88, digits checked against Python's 6**88.
        assert_eq!(
            p.to_string(),
            "300130432287774181063866491774976356909000436905858313406982721110016"
        );
        assert_eq!(p.bits(), 228);
        assert!((big(1).ratio(&p) - 6f64.powi(-88)).abs() < 1e-80);
        assert!((p.ratio(&p.mul(&six)) - 1.0 / 6.0).abs() < 1e-15);
    }

    proptest! {
        #[test]
        fn arithmetic_agrees_with_u128(a in any::<u64>(), b in any::<u64>(), c in any::<u128>(), d in any::<u128>()) {
            let (a, b) = (a as u128, b as u128);
            prop_assert_eq!(big(a).mul(&big(b)).to_u128(), Some(a * b));
            prop_assert_eq!(big(c).add(&big(d)).to_u128(), c.checked_add(d));
            prop_assert_eq!(big(c).cmp(&big(d)), c.cmp(&d));
            let (hi, lo) = (c.max(d), c.min(d));
            let mut diff = big(hi);
            diff.sub_assign(&big(lo));
            prop_assert_eq!(diff.to_u128(), Some(hi - lo));
            if c.checked_add(d).is_none() {
                // The carry lands in a third limb.
                prop_assert_eq!(big(c).add(&big(d)).bits(), 129);
            }
            if d > 0 {
                let r = big(c).ratio(&big(d));
                let want = c as f64 / d as f64;
                prop_assert!((r - want).abs() <= want * 1e-15, "{} vs {}", r, want);
            }
        }

        #[test]
        fn multiplication_distributes(a in any::<u128>(), b in any::<u128>(), c in any::<u128>()) {
            // (a + b)·c = a·c + b·c with multi-limb operands.
            let lhs = big(a).add(&big(b)).mul(&big(c));
            let rhs = big(a).mul(&big(c)).add(&big(b).mul(&big(c)));
            prop_assert_eq!(&lhs, &rhs);
            let mut fused = big(a).mul(&big(c));
            fused.add_mul_assign(&big(b), &big(c));
            prop_assert_eq!(&fused, &lhs);
            // And subtracting one product back leaves the other.
            let mut back = lhs;
            back.sub_assign(&big(a).mul(&big(c)));
            prop_assert_eq!(back, big(b).mul(&big(c)));
        }
    }
}
