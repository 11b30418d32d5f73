//! The sums a solver builds outcome by outcome: per field and per whole
//! outcome, in hash tables instead of [`Marginals`]' ordered ones.
//!
//! A chain can absorb into the same outcome hundreds of thousands of times
//! (a Cortex fight: 840,000 absorptions for two configs; a CGG action's
//! replays, thousands a config), and an ordered map of boxed slices spends
//! most of the solve comparing keys. The sums themselves are made in
//! exactly the order [`Marginals::add_outcome`] makes them (each value's
//! sum is its terms in turn; the container does not change that), so the
//! answer is the same bit for bit; only the final tables are sorted, once.

use std::collections::{BTreeMap, HashMap};

use foldhash::fast::FixedState;

use crate::model::Marginals;

/// Probability added so far, per field value and per whole outcome: a
/// solver's accumulator, not a second outcome table. It hands over the one
/// table, an [`crate::model::Outcomes<f64>`], once, at the end.
///
/// Kept beside that table for speed alone: with [`Marginals`] in its
/// place in the chain solver and `cgg.action`, `oddsmith odds cortex.fight
/// --format json` at its defaults ran 52.9 M instructions against 36.7 M
/// (callgrind, +44%; gateway.challenge +2.9%, cortex.basic +0.3%,
/// cgg.action -1%), the same answer bit for bit.
pub struct Sums {
    fields: Vec<HashMap<i64, f64, FixedState>>,
    joint: HashMap<Box<[i64]>, f64, FixedState>,
}

impl Sums {
    /// Empty sums for outcomes of `fields` values.
    pub fn new(fields: usize) -> Self {
        Sums {
            fields: vec![HashMap::default(); fields],
            joint: HashMap::default(),
        }
    }

    /// Add the probability `p` of `outcome`, as
    /// [`Marginals::add_outcome`] would.
    #[inline]
    pub fn add(&mut self, outcome: &[i64], p: f64) {
        if p > 0.0 {
            for (field, &v) in self.fields.iter_mut().zip(outcome) {
                *field.entry(v).or_insert(0.0) += p;
            }
            // Looked up by slice: a boxed key only for a new outcome.
            match self.joint.get_mut(outcome) {
                Some(q) => *q += p,
                None => {
                    self.joint.insert(outcome.into(), p);
                }
            }
        }
    }

    /// The sums as ordered tables.
    pub fn into_marginals(self) -> Marginals {
        let fields = self
            .fields
            .into_iter()
            .map(|f| f.into_iter().collect())
            .collect();
        Marginals::from_tables(fields, self.joint.into_iter().collect::<BTreeMap<_, _>>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_sums_bit_for_bit_as_marginals() {
        // Sums of many unequal terms in an interleaved order, where any
        // change of order would show in the last bits.
        let (mut a, mut m) = (Sums::new(2), Marginals::new(2));
        let mut p = 0.1f64;
        for i in 0..10_000i64 {
            p = (p * 3.7 + 0.013).fract() / 7.0;
            let outcome = [i % 7, (i * i) % 5 - 2];
            a.add(&outcome, p);
            m.add_outcome(&outcome, p);
        }
        a.add(&[0, 0], 0.0);
        m.add_outcome(&[0, 0], 0.0);
        let a = a.into_marginals();
        for f in 0..2 {
            let (x, y) = (a.field(f), m.field(f));
            assert_eq!(x.len(), y.len());
            for ((vx, px), (vy, py)) in x.iter().zip(y) {
                assert_eq!((vx, px.to_bits()), (vy, py.to_bits()));
            }
        }
        let (x, y) = (a.joint().unwrap(), m.joint().unwrap());
        assert_eq!(x.len(), y.len());
        for ((kx, px), (ky, py)) in x.iter().zip(y) {
            assert_eq!((kx, px.to_bits()), (ky, py.to_bits()));
        }
    }
}
