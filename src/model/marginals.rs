//! The exact answer of a solver: one probability table per outcome field,
//! and the joint table of whole outcomes when the solver gave them whole.

use std::collections::BTreeMap;

/// For each outcome field (in the mechanic's field order), the probability
/// of each value; and, when every probability came as a whole outcome
/// ([`Marginals::add_outcome`]), the probability of each whole outcome, for
/// metrics over two fields at once.
#[derive(Clone, Debug, Default)]
pub struct Marginals {
    fields: Vec<BTreeMap<i64, f64>>,
    joint: BTreeMap<Box<[i64]>, f64>,
    /// False once a probability came for one field alone
    /// ([`Marginals::add`]): the joint table is then incomplete.
    joint_whole: bool,
}

/// Two answers are equal when their fields' tables are: the joint table is
/// what some solvers keep beside them, not a different answer.
impl PartialEq for Marginals {
    fn eq(&self, other: &Self) -> bool {
        self.fields == other.fields
    }
}

impl Marginals {
    /// Empty tables for `n` fields.
    pub fn new(n: usize) -> Self {
        Marginals {
            fields: vec![BTreeMap::new(); n],
            joint: BTreeMap::new(),
            joint_whole: true,
        }
    }

    /// Add probability `p` to `value` of field `field` (alone: the joint
    /// table is no longer known).
    pub fn add(&mut self, field: usize, value: i64, p: f64) {
        if p > 0.0 {
            self.joint_whole = false;
            self.add_to_field(field, value, p);
        }
    }

    fn add_to_field(&mut self, field: usize, value: i64, p: f64) {
        *self.fields[field].entry(value).or_insert(0.0) += p;
    }

    /// Add the probability `p` of one whole outcome (one value per field).
    pub fn add_outcome(&mut self, outcome: &[i64], p: f64) {
        if p > 0.0 {
            for (f, &v) in outcome.iter().enumerate() {
                self.add_to_field(f, v, p);
            }
            // Looked up by slice first: a boxed key is made only for a new
            // outcome, not for every path a chain absorbs into it.
            match self.joint.get_mut(outcome) {
                Some(q) => *q += p,
                None => {
                    self.joint.insert(outcome.into(), p);
                }
            }
        }
    }

    /// An answer from its tables: one per field, and the joint table of
    /// whole outcomes they were summed from.
    pub fn from_tables(fields: Vec<BTreeMap<i64, f64>>, joint: BTreeMap<Box<[i64]>, f64>) -> Self {
        Marginals {
            fields,
            joint,
            joint_whole: true,
        }
    }

    /// These fields' tables with `joint` as their whole outcomes, for an
    /// answer mapped from another (whose fields were summed as before):
    /// the caller keeps the two consistent.
    pub fn with_joint(mut self, joint: BTreeMap<Box<[i64]>, f64>) -> Marginals {
        self.joint = joint;
        self.joint_whole = true;
        self
    }

    /// The table of field `field`.
    pub fn field(&self, field: usize) -> &BTreeMap<i64, f64> {
        &self.fields[field]
    }

    /// The probability of each whole outcome, when the solver gave every
    /// probability as a whole outcome.
    pub fn joint(&self) -> Option<&BTreeMap<Box<[i64]>, f64>> {
        self.joint_whole.then_some(&self.joint)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_outcomes_keep_the_joint_table_and_a_lone_field_drops_it() {
        let mut m = Marginals::new(2);
        m.add_outcome(&[1, 0], 0.25);
        m.add_outcome(&[1, 1], 0.25);
        m.add_outcome(&[0, 1], 0.5);
        assert_eq!(m.field(1)[&1], 0.75);
        let joint = m.joint().expect("every probability came whole");
        assert_eq!(joint[&[1i64, 1][..]], 0.25);
        assert_eq!(joint.len(), 3);
        m.add(0, 2, 0.1);
        assert!(m.joint().is_none());
    }
}
