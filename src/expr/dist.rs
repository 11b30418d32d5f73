//! Exact distributions with whole-number counts, and their algebra:
//! sums, products, maxima, comparisons of independent rolls.
//!
//! A [`Dist`] keeps its own `total` (the product of the totals it was
//! built from) instead of deriving it from the weights, so "the weights add
//! up to the total", i.e. "the probabilities sum to 1", is an invariant the
//! tests can check rather than a definition.

use super::weight::{Overflow, Weight};

/// The most values one distribution may span (dense storage).
pub const MAX_SUPPORT: usize = 1 << 22;

/// Why an exact evaluation stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A `u128` count overflowed: evaluate again with big counts.
    Overflow,
    /// The work or the table would be too large; says which.
    TooLarge(String),
    /// The solve was told to stop (Ctrl-C, a cancelled request).
    Cancelled,
}

impl From<Overflow> for Stop {
    fn from(_: Overflow) -> Self {
        Stop::Overflow
    }
}

/// A cap on the arithmetic an exact answer may do, so one that would take
/// minutes is refused before it starts (and Monte Carlo answers instead).
/// Each operation states its cost before it runs, from the sizes of its
/// tables and the widths of their counts ([`Weight::cost`]): with big
/// counts the width, not the number of steps, is most of the work (a sum
/// of 2,000 d6 has counts of 81 limbs). Spending also polls the thread's
/// stop ([`crate::exact::watch::stopped`]), so a cancelled solve ends
/// within one operation.
#[derive(Clone, Debug)]
pub struct Budget {
    left: u64,
    /// Units spent so far.
    pub spent: u64,
}

impl Budget {
    pub fn new(units: u64) -> Self {
        Budget {
            left: units,
            spent: 0,
        }
    }

    /// Spend `units`, or stop saying `what` was too large.
    pub fn spend(&mut self, units: u64, what: &str) -> Result<(), Stop> {
        if crate::exact::watch::stopped() {
            return Err(Stop::Cancelled);
        }
        if units > self.left {
            return Err(Stop::TooLarge(format!(
                "{what} would take about {} of arithmetic, more than the second an exact answer may take",
                duration(units)
            )));
        }
        self.left -= units;
        self.spent += units;
        Ok(())
    }

    /// Spend `ops` steps on counts as wide as `a` and `b`.
    pub fn spend_on<W: Weight>(&mut self, ops: u64, a: &W, b: &W, what: &str) -> Result<(), Stop> {
        self.spend(W::cost(ops, a.bits(), b.bits()), what)
    }
}

/// The work an exact answer may do, in `u128` count operations (about a
/// second's work); big counts cost more per operation
/// ([`Weight::cost`]), from the same budget.
pub const WORK: u64 = 400_000_000;

/// `units` of work as a rough time ([`WORK`] is a second).
fn duration(units: u64) -> String {
    let secs = units as f64 / WORK as f64;
    match secs {
        s if s < 90.0 => format!("{s:.1} s"),
        s if s < 90.0 * 60.0 => format!("{:.0} min", s / 60.0),
        s if s < 48.0 * 3600.0 => format!("{:.0} h", s / 3600.0),
        s if s < 1e3 * 86400.0 * 365.0 => format!("{:.0} days", s / 86400.0),
        s => format!("{:.0e} years", s / (86400.0 * 365.0)),
    }
}

/// Counts over consecutive integers `lo..lo + w.len()`.
#[derive(Clone, Debug, PartialEq)]
pub struct Acc<W> {
    pub lo: i64,
    pub w: Vec<W>,
}

impl<W: Weight> Acc<W> {
    /// All zero over `lo..=hi`.
    pub fn zeros(lo: i64, hi: i64) -> Result<Self, Stop> {
        let len = hi as i128 - lo as i128 + 1;
        if len > MAX_SUPPORT as i128 {
            return Err(Stop::TooLarge(format!(
                "a table of {len} values (from {lo} to {hi}) is more than {MAX_SUPPORT}"
            )));
        }
        Ok(Acc {
            lo,
            w: vec![W::zero(); len.max(0) as usize],
        })
    }

    pub fn hi(&self) -> i64 {
        self.lo + self.w.len() as i64 - 1
    }

    /// Grow to cover `lo..=hi` too.
    pub fn cover(&mut self, lo: i64, hi: i64) -> Result<(), Stop> {
        if self.w.is_empty() {
            *self = Acc::zeros(lo, hi)?;
            return Ok(());
        }
        let (nlo, nhi) = (self.lo.min(lo), self.hi().max(hi));
        if nlo < self.lo || nhi > self.hi() {
            let mut grown = Acc::zeros(nlo, nhi)?;
            let off = (self.lo - nlo) as usize;
            for (i, w) in self.w.drain(..).enumerate() {
                grown.w[off + i] = w;
            }
            *self = grown;
        }
        Ok(())
    }

    /// `self[v] += w × f` (`v` inside the range).
    #[inline]
    pub fn add_at(&mut self, v: i64, w: &W, f: &W) -> Result<(), Overflow> {
        self.w[(v - self.lo) as usize].add_product(w, f)
    }

    /// `self[v + shift] += src[v] × f` for every `v` (growing as needed).
    pub fn add_shifted(&mut self, src: &Acc<W>, shift: i64, f: &W) -> Result<(), Stop> {
        if src.w.is_empty() || f.is_zero() {
            return Ok(());
        }
        self.cover(src.lo + shift, src.hi() + shift)?;
        let off = (src.lo + shift - self.lo) as usize;
        for (i, w) in src.w.iter().enumerate() {
            if !w.is_zero() {
                self.w[off + i].add_product(w, f)?;
            }
        }
        Ok(())
    }

    /// Drop zero counts at both ends.
    pub fn trim(&mut self) {
        let first = self.w.iter().position(|w| !w.is_zero());
        match first {
            None => self.w.clear(),
            Some(i) => {
                let last = self
                    .w
                    .iter()
                    .rposition(|w| !w.is_zero())
                    .expect("one is non-zero");
                self.w.truncate(last + 1);
                self.w.drain(..i);
                self.lo += i as i64;
            }
        }
    }

    /// `(value, count)` for every non-zero count.
    pub fn iter(&self) -> impl Iterator<Item = (i64, &W)> {
        self.w
            .iter()
            .enumerate()
            .filter(|(_, w)| !w.is_zero())
            .map(move |(i, w)| (self.lo + i as i64, w))
    }
}

/// A distribution: counts and the total number of cases they share.
#[derive(Clone, Debug, PartialEq)]
pub struct Dist<W> {
    pub counts: Acc<W>,
    pub total: W,
}

impl<W: Weight> Dist<W> {
    /// `v` for certain.
    pub fn point(v: i64) -> Self {
        Dist {
            counts: Acc {
                lo: v,
                w: vec![W::one()],
            },
            total: W::one(),
        }
    }

    /// One draw from `faces` (sorted), each entry equally likely.
    pub fn uniform(faces: &[i64]) -> Result<Self, Stop> {
        let mut counts = Acc::zeros(faces[0], *faces.last().expect("faces"))?;
        let one = W::one();
        for &f in faces {
            counts.add_at(f, &one, &one)?;
        }
        Ok(Dist {
            counts,
            total: W::from_u64(faces.len() as u64),
        })
    }

    /// Finish counts built over `total` cases.
    pub fn new(mut counts: Acc<W>, total: W) -> Self {
        counts.trim();
        Dist { counts, total }
    }

    pub fn lo(&self) -> i64 {
        self.counts.lo
    }

    pub fn hi(&self) -> i64 {
        self.counts.hi()
    }

    pub fn len(&self) -> usize {
        self.counts.w.len()
    }

    /// The distribution of `f(value)`.
    pub fn map(&self, mut f: impl FnMut(i64) -> i64, budget: &mut Budget) -> Result<Self, Stop> {
        budget.spend_on(
            self.len() as u64,
            &self.total,
            &W::one(),
            "mapping a distribution",
        )?;
        let values: Vec<i64> = self.counts.iter().map(|(v, _)| f(v)).collect();
        let lo = *values.iter().min().expect("non-empty");
        let hi = *values.iter().max().expect("non-empty");
        let mut out = Acc::zeros(lo, hi)?;
        let one = W::one();
        for ((_, w), v) in self.counts.iter().zip(values) {
            out.add_at(v, w, &one)?;
        }
        Ok(Dist::new(out, self.total.clone()))
    }

    /// `−X`.
    pub fn neg(&self) -> Self {
        let mut w = self.counts.w.clone();
        w.reverse();
        Dist {
            counts: Acc { lo: -self.hi(), w },
            total: self.total.clone(),
        }
    }

    /// `X + Y` for independent `X`, `Y`: convolution.
    pub fn add(&self, other: &Self, budget: &mut Budget) -> Result<Self, Stop> {
        let ops = self.len() as u64 * other.len() as u64;
        budget.spend_on(ops, &self.total, &other.total, "a sum")?;
        self.convolve(other)
    }

    /// [`Dist::add`], its cost already paid.
    fn convolve(&self, other: &Self) -> Result<Self, Stop> {
        let mut out = Acc::<W>::zeros(self.lo() + other.lo(), self.hi() + other.hi())?;
        for (i, a) in self.counts.w.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            for (j, b) in other.counts.w.iter().enumerate() {
                out.w[i + j].add_product(a, b)?;
            }
        }
        Ok(Dist::new(out, self.total.mul(&other.total)?))
    }

    /// The sum of `n` independent copies (`n = 0`: certainly 0). The
    /// whole cost is paid before the first step: step `i` convolves `i`
    /// copies (a span of `i·(len − 1) + 1` values, counts of `i` times the
    /// total's bits) with one more.
    pub fn sum_of(&self, n: u32, budget: &mut Budget) -> Result<Self, Stop> {
        let (len, bits) = (self.len() as u64, self.total.bits());
        // The total, T^n, has at least n·(bits − 1) + 1 bits: past what
        // a count holds, go to big counts now, whose estimate is the one
        // that matters.
        if (n as u64).saturating_mul(bits.saturating_sub(1)) + 1 > W::MAX_BITS {
            return Err(Stop::Overflow);
        }
        let mut cost = 0u64;
        for i in 0..n as u64 {
            let span = i * len.saturating_sub(1) + 1;
            cost = cost.saturating_add(W::cost(span * len, i * bits, bits));
        }
        budget.spend(cost, &format!("the sum of {n} dice"))?;
        let mut out = Dist::point(0);
        for _ in 0..n {
            budget.spend(0, "the sum of dice")?;
            out = out.convolve(self)?;
        }
        Ok(out)
    }

    /// `X × Y` for independent `X`, `Y`.
    pub fn mul(&self, other: &Self, budget: &mut Budget) -> Result<Self, Stop> {
        let ops = self.len() as u64 * other.len() as u64;
        budget.spend_on(ops, &self.total, &other.total, "a product")?;
        let corners = [
            self.lo() as i128 * other.lo() as i128,
            self.lo() as i128 * other.hi() as i128,
            self.hi() as i128 * other.lo() as i128,
            self.hi() as i128 * other.hi() as i128,
        ];
        let lo = *corners.iter().min().expect("four") as i64;
        let hi = *corners.iter().max().expect("four") as i64;
        let mut out = Acc::zeros(lo, hi)?;
        for (x, a) in self.counts.iter() {
            for (y, b) in other.counts.iter() {
                out.add_at(x * y, a, b)?;
            }
        }
        Ok(Dist::new(out, self.total.mul(&other.total)?))
    }

    /// Counts of values below each value: `prefix[i]` is the count of the
    /// first `i` slots.
    fn prefix(&self) -> Result<Vec<W>, Stop> {
        let mut p = Vec::with_capacity(self.len() + 1);
        let mut run = W::zero();
        p.push(run.clone());
        for w in &self.counts.w {
            run = run.add(w)?;
            p.push(run.clone());
        }
        Ok(p)
    }

    /// `max(X, Y)` for independent `X`, `Y`:
    /// P(max = x) = P(X = x)·P(Y ≤ x) + P(X < x)·P(Y = x).
    pub fn max(&self, other: &Self, budget: &mut Budget) -> Result<Self, Stop> {
        let (lo, hi) = (self.lo().max(other.lo()), self.hi().max(other.hi()));
        let ops = (hi - lo + 1) as u64 * 2 + (self.len() + other.len()) as u64;
        budget.spend_on(ops, &self.total, &other.total, "a maximum")?;
        let (pa, pb) = (self.prefix()?, other.prefix()?);
        let mut out = Acc::<W>::zeros(lo, hi)?;
        for x in lo..=hi {
            let a = weight_at(self, x);
            let b = weight_at(other, x);
            let b_le = below(other, &pb, x + 1);
            let a_lt = below(self, &pa, x);
            let slot = &mut out.w[(x - lo) as usize];
            slot.add_product(&a, &b_le)?;
            slot.add_product(&a_lt, &b)?;
        }
        Ok(Dist::new(out, self.total.mul(&other.total)?))
    }

    /// `min(X, Y) = −max(−X, −Y)`.
    pub fn min(&self, other: &Self, budget: &mut Budget) -> Result<Self, Stop> {
        Ok(self.neg().max(&other.neg(), budget)?.neg())
    }

    /// Count the pairs `(x, y)` with `x op y`, from running sums of `Y`'s
    /// counts: linear in the two supports, never their product.
    fn pairs(&self, other: &Self, op: super::ast::CmpOp) -> Result<W, Stop> {
        use super::ast::CmpOp::*;
        let pb = other.prefix()?;
        let all = pb.last().expect("prefix has one more").clone();
        let mut count = W::zero();
        for (x, a) in self.counts.iter() {
            let lt = below(other, &pb, x);
            let le = below(other, &pb, x + 1);
            let matching = match op {
                Lt => above(&all, &le),
                Le => above(&all, &lt),
                Gt => lt,
                Ge => le,
                Eq => weight_at(other, x),
                Ne => lt.add(&above(&all, &le))?,
            };
            count.add_product(a, &matching)?;
        }
        Ok(count)
    }

    /// `X op Y` as 1 (true) or 0 (false).
    pub fn compare(
        &self,
        other: &Self,
        op: super::ast::CmpOp,
        budget: &mut Budget,
    ) -> Result<Self, Stop> {
        use super::ast::CmpOp::*;
        let ops = 4 * (self.len() + other.len()) as u64;
        budget.spend_on(ops, &self.total, &other.total, "a comparison")?;
        let yes = self.pairs(other, op)?;
        let not = match op {
            Ge => Lt,
            Gt => Le,
            Le => Gt,
            Lt => Ge,
            Eq => Ne,
            Ne => Eq,
        };
        let no = self.pairs(other, not)?;
        Ok(Dist::new(
            Acc {
                lo: 0,
                w: vec![no, yes],
            },
            self.total.mul(&other.total)?,
        ))
    }
}

/// The count of `x` in `d` (zero outside).
fn weight_at<W: Weight>(d: &Dist<W>, x: i64) -> W {
    let i = x as i128 - d.lo() as i128;
    if i < 0 || i >= d.len() as i128 {
        W::zero()
    } else {
        d.counts.w[i as usize].clone()
    }
}

/// The count of values below `x` in `d`, from its prefix sums.
fn below<W: Weight>(d: &Dist<W>, prefix: &[W], x: i64) -> W {
    let i = (x as i128 - d.lo() as i128).clamp(0, d.len() as i128);
    prefix[i as usize].clone()
}

/// `all − part`: the counts at or above where `part` stops.
fn above<W: Weight>(all: &W, part: &W) -> W {
    all.sub(part)
}
