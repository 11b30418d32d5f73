//! Exact evaluation: the distribution algebra applied to a bound
//! expression, first with `u128` counts, again with [`Big`] counts if
//! those overflow.

use super::ast::BinOp;
use super::big::Big;
use super::bind::Term;
use super::dist::{Budget, Dist, Stop};
use super::pool::pool;
use super::weight::Weight;

pub use super::dist::WORK;

/// Why an expression has no exact answer here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoExact {
    /// The work or a table would be too large; says which.
    #[error("too large to solve exactly: {0}")]
    TooLarge(String),
    /// The solve was told to stop before its end.
    #[error("the exact solve was cancelled")]
    Cancelled,
}

impl From<Stop> for NoExact {
    fn from(stop: Stop) -> Self {
        match stop {
            Stop::TooLarge(why) => NoExact::TooLarge(why),
            Stop::Cancelled => NoExact::Cancelled,
            Stop::Overflow => unreachable!("big counts do not overflow"),
        }
    }
}

/// The exact distribution of an expression's result: for each value, the
/// number of equally likely cases that give it, out of `total`.
///
/// Cases are the leaves of the tree of rolls: a pool of `n` plain dice
/// with `s` faces has `s^n`; an exploding die counts every chain as if all
/// [`EXPLODE_DEPTH`](super::EXPLODE_DEPTH) + 1 rolls were made, `s^11`;
/// a reroll-once squares its die's count. Totals multiply across the
/// independent parts of an expression. The counts are exact integers
/// (`u128` while they fit, [`Big`] beyond), so probabilities are exact
/// fractions until they are printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distribution {
    lo: i64,
    weights: Vec<Big>,
    total: Big,
}

impl Distribution {
    fn from_dist<W: Weight>(d: Dist<W>) -> Self {
        Distribution {
            lo: d.counts.lo,
            weights: d.counts.w.iter().map(Weight::to_big).collect(),
            total: d.total.to_big(),
        }
    }

    /// The number of equally likely cases.
    pub fn total(&self) -> &Big {
        &self.total
    }

    /// The sum of every value's count; equal to [`Distribution::total`]
    /// (the probabilities sum to 1).
    pub fn weight_sum(&self) -> Big {
        let mut s = Big::zero();
        for w in &self.weights {
            s.add_assign(w);
        }
        s
    }

    /// `(value, count)` for every possible value, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (i64, &Big)> {
        self.weights
            .iter()
            .enumerate()
            .filter(|(_, w)| !w.is_zero())
            .map(move |(i, w)| (self.lo + i as i64, w))
    }

    /// The count of `value`.
    pub fn weight(&self, value: i64) -> Big {
        let i = value as i128 - self.lo as i128;
        if i < 0 || i >= self.weights.len() as i128 {
            Big::zero()
        } else {
            self.weights[i as usize].clone()
        }
    }

    /// The probability of `value`.
    pub fn probability(&self, value: i64) -> f64 {
        self.weight(value).ratio(&self.total)
    }

    /// `(value, probability)` for every possible value, ascending.
    pub fn probabilities(&self) -> Vec<(i64, f64)> {
        self.iter()
            .map(|(v, w)| (v, w.ratio(&self.total)))
            .collect()
    }

    /// The lowest and highest possible values.
    pub fn range(&self) -> (i64, i64) {
        let mut it = self.iter();
        let lo = it.next().map(|(v, _)| v).unwrap_or(0);
        let hi = self.iter().last().map(|(v, _)| v).unwrap_or(lo);
        (lo, hi)
    }

    /// The mean.
    pub fn mean(&self) -> f64 {
        self.probabilities()
            .iter()
            .map(|(v, p)| *v as f64 * p)
            .sum()
    }

    /// The standard deviation.
    pub fn sd(&self) -> f64 {
        let mean = self.mean();
        self.probabilities()
            .iter()
            .map(|(v, p)| (*v as f64 - mean).powi(2) * p)
            .sum::<f64>()
            .sqrt()
    }
}

/// Evaluate `term` exactly, within [`WORK`].
pub fn exact(term: &Term) -> Result<Distribution, NoExact> {
    exact_within(term, WORK).map(|(d, _)| d)
}

/// Evaluate `term` exactly within `work` units; the distribution and the
/// units spent.
pub(crate) fn exact_within(term: &Term, work: u64) -> Result<(Distribution, u64), NoExact> {
    let mut budget = Budget::new(work);
    match eval::<u128>(term, &mut budget) {
        Ok(d) => Ok((Distribution::from_dist(d), budget.spent)),
        Err(Stop::Overflow) => {
            let mut budget = Budget::new(work);
            let d = eval::<Big>(term, &mut budget)?;
            Ok((Distribution::from_dist(d), budget.spent))
        }
        Err(stop) => Err(stop.into()),
    }
}

/// The distribution algebra, with counts of type `W`.
pub(crate) fn eval<W: Weight>(term: &Term, budget: &mut Budget) -> Result<Dist<W>, Stop> {
    Ok(match term {
        Term::Const(v) => Dist::point(*v),
        Term::Pool(p) => pool(p, budget)?,
        Term::Neg(a) => eval::<W>(a, budget)?.neg(),
        Term::Bin(op, a, b) => {
            let (a, b) = (eval::<W>(a, budget)?, eval::<W>(b, budget)?);
            match op {
                BinOp::Add => a.add(&b, budget)?,
                BinOp::Sub => a.add(&b.neg(), budget)?,
                BinOp::Mul => a.mul(&b, budget)?,
                BinOp::Max => a.max(&b, budget)?,
                BinOp::Min => a.min(&b, budget)?,
            }
        }
        Term::Cmp(op, a, b) => {
            let (a, b) = (eval::<W>(a, budget)?, eval::<W>(b, budget)?);
            a.compare(&b, *op, budget)?
        }
    })
}
