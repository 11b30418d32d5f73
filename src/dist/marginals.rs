//! The exact answer of a solver: one probability table per outcome field.

use std::collections::BTreeMap;

/// For each outcome field (in the mechanic's field order), the probability
/// of each value. Metrics and the long results table need only these
/// marginals, so joint tables are never materialised.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marginals {
    fields: Vec<BTreeMap<i64, f64>>,
}

impl Marginals {
    /// Empty tables for `n` fields.
    pub fn new(n: usize) -> Self {
        Marginals {
            fields: vec![BTreeMap::new(); n],
        }
    }

    /// Add probability `p` to `value` of field `field`.
    pub fn add(&mut self, field: usize, value: i64, p: f64) {
        if p > 0.0 {
            *self.fields[field].entry(value).or_insert(0.0) += p;
        }
    }

    /// Add the probability `p` of one whole outcome (one value per field).
    pub fn add_outcome(&mut self, outcome: &[i64], p: f64) {
        for (f, &v) in outcome.iter().enumerate() {
            self.add(f, v, p);
        }
    }

    /// The table of field `field`.
    pub fn field(&self, field: usize) -> &BTreeMap<i64, f64> {
        &self.fields[field]
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// True when there are no fields.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }
}
