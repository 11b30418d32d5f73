//! The one table of outcomes every engine fills and every reader reads:
//! per outcome field, the weight of each value it took; and, when they
//! are known, the weights of whole outcomes (one value per field), for
//! metrics over two fields at once.
//!
//! The weight is what differs between the two ways of answering, and
//! nothing else: a Monte Carlo run counts trials in integers
//! ([`Tally`], `Outcomes<u64>`: exact, so a tally is the same bit for bit
//! however it was split and merged), a solver weighs outcomes by their
//! probability ([`Marginals`], `Outcomes<f64>`). Each weight keeps its
//! columns where it is fastest ([`Weight::Column`]): counts in a dense
//! run of integers that the hot loop indexes ([`Hist`]), probabilities in
//! an ordered map that sums every value's terms in the order a solver
//! gives them (so an answer does not move in its last bit).
//!
//! Counting fast is [`record`]'s business; reading (columns, whole
//! outcomes, the weight of an event) is written once here, for both.

mod hist;
mod record;

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::ops::AddAssign;

pub use hist::Hist;

use super::{Pred, Schema};

/// Weights of whole outcomes (one value per field), in the order of the
/// outcomes.
pub type Joint<W> = BTreeMap<Box<[i64]>, W>;

/// A Monte Carlo record: trials counted per value and, when asked for,
/// per whole outcome.
pub type Tally = Outcomes<u64>;

/// A solver's exact answer: the probability of each value of each field,
/// and of each whole outcome when the solver gave every probability whole.
pub type Marginals = Outcomes<f64>;

/// What an outcome weighs: a count of trials (`u64`) or a probability
/// (`f64`).
pub trait Weight:
    Copy
    + PartialEq
    + PartialOrd
    + Default
    + Debug
    + std::ops::Add<Output = Self>
    + AddAssign
    + Send
    + Sync
    + 'static
{
    /// Where one field's weights are kept.
    type Column: Column<Self>;
    /// No weight: what an empty table holds.
    const ZERO: Self;
    /// Whether [`Outcomes::new`] keeps whole outcomes. A solver's answer
    /// does, until a field comes alone ([`Outcomes::add`]); a Monte Carlo
    /// record does only when asked ([`Outcomes::with_joint`]), since
    /// counting them costs a map lookup on the slow path of every trial.
    const KEEPS_WHOLE: bool;
}

/// One field's weights by value.
pub trait Column<W>: Clone + Debug + Default + PartialEq + Send + Sync {
    /// Add `w` (above zero) to `value`.
    fn add(&mut self, value: i64, w: W);
    /// `(value, weight)` for every value with a weight, in increasing
    /// value.
    fn weights(&self) -> impl Iterator<Item = (i64, W)> + '_;
}

impl Weight for u64 {
    type Column = Hist;
    const ZERO: Self = 0;
    const KEEPS_WHOLE: bool = false;
}

impl Weight for f64 {
    type Column = BTreeMap<i64, f64>;
    const ZERO: Self = 0.0;
    const KEEPS_WHOLE: bool = true;
}

impl Column<u64> for Hist {
    fn add(&mut self, value: i64, n: u64) {
        self.add_count(value, n);
    }

    fn weights(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.iter()
    }
}

impl Column<f64> for BTreeMap<i64, f64> {
    fn add(&mut self, value: i64, p: f64) {
        *self.entry(value).or_insert(0.0) += p;
    }

    fn weights(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.iter().map(|(&v, &p)| (v, p))
    }
}

/// The outcomes of one configuration: their total weight, one column per
/// outcome field (in the mechanic's field order), and the whole outcomes
/// when they are known.
#[derive(Clone, Debug, Default)]
pub struct Outcomes<W: Weight> {
    total: W,
    fields: Vec<W::Column>,
    /// `None` when not kept, or no longer known: a part of a merge lacked
    /// them, or a weight came for one field alone.
    joint: Option<Joint<W>>,
}

/// Two tables are equal when their columns are, and their whole outcomes
/// where both know them (some solvers keep them beside their columns; an
/// answer given field by field is the same answer).
impl<W: Weight> PartialEq for Outcomes<W> {
    fn eq(&self, other: &Self) -> bool {
        self.fields == other.fields
            && match (&self.joint, &other.joint) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
    }
}

impl<W: Weight> Outcomes<W> {
    /// An empty table of `fields` fields (keeping whole outcomes as
    /// [`Weight::KEEPS_WHOLE`] says).
    pub fn new(fields: usize) -> Self {
        Outcomes {
            total: W::ZERO,
            fields: vec![W::Column::default(); fields],
            joint: W::KEEPS_WHOLE.then(Joint::new),
        }
    }

    /// An empty table that keeps whole outcomes, for metrics over two
    /// fields at once.
    pub fn with_joint(fields: usize) -> Self {
        Outcomes {
            joint: Some(Joint::new()),
            ..Outcomes::new(fields)
        }
    }

    /// The empty table a model of `schema` records into: with whole
    /// outcomes when one of its metrics needs them.
    pub fn for_schema(schema: &Schema) -> Self {
        match schema.needs_joint() {
            true => Outcomes::with_joint(schema.fields.len()),
            false => Outcomes::new(schema.fields.len()),
        }
    }

    /// A table from its columns and the whole outcomes they were summed
    /// from (the caller keeps the two consistent); its total is field 0's.
    pub fn from_tables(fields: Vec<W::Column>, joint: Joint<W>) -> Self {
        let total = fields.first().map_or(W::ZERO, sum_of);
        Outcomes {
            total,
            fields,
            joint: Some(joint),
        }
    }

    /// A table rebuilt from stored columns: `(field, value, weight)`
    /// triples, of `total` in all (as read back from a long table or a
    /// shard). Its whole outcomes are unknown.
    pub fn from_columns(
        fields: usize,
        total: W,
        weights: impl IntoIterator<Item = (usize, i64, W)>,
    ) -> Self {
        let mut t = Outcomes::<W>::new(fields);
        for (f, v, w) in weights {
            if w > W::ZERO {
                t.fields[f].add(v, w);
            }
        }
        t.joint = None;
        t.total = total;
        t
    }

    /// These columns with `joint` as their whole outcomes: restored from
    /// storage, or for an answer mapped from another (whose columns were
    /// summed as before). The caller keeps the two consistent.
    pub fn with_joint_table(mut self, joint: Joint<W>) -> Self {
        self.joint = Some(joint);
        self
    }

    /// Add weight `w` to `value` of field `field` alone: the whole
    /// outcomes are no longer known. A table given field by field counts
    /// its total in field 0.
    #[inline]
    pub fn add(&mut self, field: usize, value: i64, w: W) {
        if w > W::ZERO {
            self.joint = None;
            self.fields[field].add(value, w);
            if field == 0 {
                self.total += w;
            }
        }
    }

    /// Add weight `w` of one whole outcome (one value per field).
    #[inline]
    pub fn add_outcome(&mut self, outcome: &[i64], w: W) {
        if w > W::ZERO {
            for (column, &v) in self.fields.iter_mut().zip(outcome) {
                column.add(v, w);
            }
            note(&mut self.joint, outcome, w);
            self.total += w;
        }
    }

    /// The total weight: trials for a tally, about 1 for an answer.
    pub fn total(&self) -> W {
        self.total
    }

    /// The column of field `i`.
    pub fn field(&self, i: usize) -> &W::Column {
        &self.fields[i]
    }

    /// `(value, weight)` of field `i`, in increasing value.
    pub fn weights(&self, i: usize) -> impl Iterator<Item = (i64, W)> + '_ {
        self.fields[i].weights()
    }

    /// The weight of field `i`, summed in increasing value from zero: 1
    /// for a whole law, up to rounding; the trials for a tally.
    pub fn mass(&self, i: usize) -> W {
        sum_of::<W>(&self.fields[i])
    }

    /// `(value, weight here, weight in other)` for every value of field
    /// `i` that either table has, in increasing value, a value one table
    /// lacks weighing zero there: how two tables are compared value by
    /// value, of one weight or both (a tally beside an exact answer).
    pub fn beside<'a, V: Weight>(
        &'a self,
        other: &'a Outcomes<V>,
        i: usize,
    ) -> impl Iterator<Item = (i64, W, V)> + 'a {
        let (mut a, mut b) = (self.weights(i).peekable(), other.weights(i).peekable());
        std::iter::from_fn(move || {
            let here = a.peek().map(|&(v, _)| v);
            let there = b.peek().map(|&(v, _)| v);
            let v = match (here, there) {
                (Some(x), Some(y)) => x.min(y),
                (Some(x), None) => x,
                (None, Some(y)) => y,
                (None, None) => return None,
            };
            let w = a.next_if(|&(x, _)| x == v).map_or(W::ZERO, |(_, w)| w);
            let u = b.next_if(|&(y, _)| y == v).map_or(V::ZERO, |(_, u)| u);
            Some((v, w, u))
        })
    }

    /// The weights of whole outcomes, when they are known.
    pub fn joint(&self) -> Option<&Joint<W>> {
        self.joint.as_ref()
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// True when the table has no fields.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The weight of the values of field `field` where `pred` holds,
    /// summed in increasing value from zero.
    pub fn share(&self, field: usize, pred: Pred) -> W {
        self.weights(field)
            .filter(|&(v, _)| pred.holds(v))
            .fold(W::ZERO, |a, (_, w)| a + w)
    }

    /// The weight of the whole outcomes where both `(field, pred)` hold,
    /// summed in the outcomes' order from zero; `None` when whole outcomes
    /// are not known (never the product of two columns, which is wrong
    /// when the fields are not independent).
    pub fn share_both(&self, first: (usize, Pred), second: (usize, Pred)) -> Option<W> {
        self.joint.as_ref().map(|joint| {
            joint
                .iter()
                .filter(|(o, _)| first.1.holds(o[first.0]) && second.1.holds(o[second.0]))
                .fold(W::ZERO, |a, (_, &w)| a + w)
        })
    }
}

/// A column's weights summed in increasing value.
fn sum_of<W: Weight>(column: &W::Column) -> W {
    column.weights().fold(W::ZERO, |a, (_, w)| a + w)
}

/// Add `w` more to `outcome` in `joint`, when whole outcomes are kept.
#[inline]
fn note<W: Weight>(joint: &mut Option<Joint<W>>, outcome: &[i64], w: W) {
    if let Some(joint) = joint
        && w > W::ZERO
    {
        // Looked up by slice first: a boxed key is made only for a new
        // outcome, not for every trial or every path a chain absorbs.
        match joint.get_mut(outcome) {
            Some(q) => *q += w,
            None => {
                joint.insert(outcome.into(), w);
            }
        }
    }
}

impl<W: Weight> AddAssign<&Outcomes<W>> for Outcomes<W> {
    fn add_assign(&mut self, other: &Outcomes<W>) {
        if self.fields.is_empty() {
            self.fields = vec![W::Column::default(); other.fields.len()];
        }
        // Whole outcomes are known only if every part kept them; an empty
        // table takes the other's as they are.
        match (&mut self.joint, &other.joint) {
            (Some(a), Some(b)) => {
                for (outcome, &w) in b {
                    *a.entry(outcome.clone()).or_insert(W::ZERO) += w;
                }
            }
            (None, Some(b)) if self.total == W::ZERO => self.joint = Some(b.clone()),
            (Some(_), None) if other.total == W::ZERO => {}
            (None, None) => {}
            _ => self.joint = None,
        }
        assert_eq!(
            self.fields.len(),
            other.fields.len(),
            "merging tables of different mechanics"
        );
        self.total += other.total;
        for (a, b) in self.fields.iter_mut().zip(&other.fields) {
            for (v, w) in b.weights() {
                a.add(v, w);
            }
        }
    }
}

// Written out, not imported: `Add::add` by value would shadow
// [`Outcomes::add`] wherever the trait is in scope.
impl<W: Weight> std::ops::Add for Outcomes<W> {
    type Output = Outcomes<W>;
    fn add(mut self, other: Outcomes<W>) -> Outcomes<W> {
        self += &other;
        self
    }
}

#[cfg(test)]
mod tests;
