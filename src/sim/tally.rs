//! Tallies: per-field histograms of integer counts that merge with `+`,
//! and, for mechanics with a metric over two fields, the counts of whole
//! outcomes.

use std::collections::{BTreeMap, HashMap};
use std::ops::{Add, AddAssign};

use crate::dice::DiceRng;

/// Counts of the values one outcome field took, over a dense run of
/// integers that grows when a value falls outside it.
#[derive(Clone, Debug, Default)]
pub struct Hist {
    min: i64,
    counts: Vec<u64>,
}

impl Hist {
    /// Count one occurrence of `v`.
    #[inline(always)]
    pub fn record(&mut self, v: i64) {
        let i = v.wrapping_sub(self.min) as u64;
        if i < self.counts.len() as u64 {
            self.counts[i as usize] += 1;
        } else {
            self.add_count(v, 1);
        }
    }

    /// Count `n` occurrences of `v`, widening the range if needed.
    pub fn add_count(&mut self, v: i64, n: u64) {
        if n == 0 {
            return;
        }
        if self.counts.is_empty() {
            self.min = v;
            self.counts.push(0);
        } else if v < self.min {
            let extra = (self.min - v) as usize;
            self.counts.splice(0..0, std::iter::repeat_n(0, extra));
            self.min = v;
        } else if v >= self.min + self.counts.len() as i64 {
            self.counts.resize((v - self.min) as usize + 1, 0);
        }
        self.counts[(v - self.min) as usize] += n;
    }

    /// `(value, count)` for every value seen, in increasing value.
    pub fn iter(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(move |(i, &c)| (self.min + i as i64, c))
    }

    /// Number of values recorded.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// Two histograms are equal when they hold the same counts, however their
/// storage happens to be laid out.
impl PartialEq for Hist {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Hist {}

impl AddAssign<&Hist> for Hist {
    fn add_assign(&mut self, other: &Hist) {
        for (v, c) in other.iter() {
            self.add_count(v, c);
        }
    }
}

/// Counts of whole outcomes (one value per field).
pub type Joint = BTreeMap<Box<[i64]>, u64>;

/// The record of a batch of trials: how many, a histogram per outcome
/// field (in the mechanic's field order), and the counts of whole outcomes
/// when asked for ([`Tally::with_joint`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    trials: u64,
    fields: Vec<Hist>,
    joint: Option<Joint>,
}

impl Tally {
    /// An empty tally for `fields` outcome fields.
    pub fn new(fields: usize) -> Self {
        Tally {
            trials: 0,
            fields: vec![Hist::default(); fields],
            joint: None,
        }
    }

    /// An empty tally that also counts whole outcomes, for metrics over
    /// two fields at once.
    pub fn with_joint(fields: usize) -> Self {
        Tally {
            joint: Some(Joint::new()),
            ..Tally::new(fields)
        }
    }

    /// The empty tally a model of `schema` records into: with whole
    /// outcomes when one of its metrics needs them.
    pub fn for_schema(schema: &crate::systems::Schema) -> Self {
        match schema.needs_joint() {
            true => Tally::with_joint(schema.fields.len()),
            false => Tally::new(schema.fields.len()),
        }
    }

    /// The counts of whole outcomes, when this tally kept them (every part
    /// of a merged tally must have).
    pub fn joint(&self) -> Option<&Joint> {
        self.joint.as_ref()
    }

    fn add_joint(&mut self, outcome: &[i64], n: u64) {
        if let Some(joint) = &mut self.joint
            && n > 0
        {
            *joint.entry(outcome.into()).or_insert(0) += n;
        }
    }

    /// A tally rebuilt from stored counts: `(field, value, count)` triples
    /// over `trials` trials (as read back from `results.parquet`).
    pub fn from_counts(
        fields: usize,
        trials: u64,
        counts: impl IntoIterator<Item = (usize, i64, u64)>,
    ) -> Tally {
        let mut t = Tally::new(fields);
        for (f, v, c) in counts {
            t.fields[f].add_count(v, c);
        }
        t.trials = trials;
        t
    }

    /// This tally with its whole outcomes restored (as stored by a shard).
    pub fn with_stored_joint(mut self, joint: Joint) -> Tally {
        self.joint = Some(joint);
        self
    }

    /// Number of trials recorded.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// The histogram of field `i`.
    pub fn field(&self, i: usize) -> &Hist {
        &self.fields[i]
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// True when the tally has no fields.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// Run `trials` trials of `sample`, each returning one value per field,
    /// and record them. This is the engine's inner loop: generic, so each
    /// mechanic gets its own monomorphised copy with no dynamic dispatch per
    /// trial.
    #[inline(always)]
    pub fn record_trials<const N: usize>(
        &mut self,
        rng: &mut DiceRng,
        trials: u64,
        mut sample: impl FnMut(&mut DiceRng) -> [i64; N],
    ) {
        assert_eq!(self.fields.len(), N, "tally has the wrong number of fields");
        let hists: &mut [Hist; N] = (&mut self.fields[..])
            .try_into()
            .expect("length checked above");
        match &mut self.joint {
            None => {
                for _ in 0..trials {
                    let outcome = sample(rng);
                    for (h, v) in hists.iter_mut().zip(outcome) {
                        h.record(v);
                    }
                }
            }
            Some(joint) => {
                // Whole outcomes counted in a hash map, folded into the
                // ordered table once per call.
                let mut seen: HashMap<[i64; N], u64> = HashMap::new();
                for _ in 0..trials {
                    let outcome = sample(rng);
                    for (h, v) in hists.iter_mut().zip(outcome) {
                        h.record(v);
                    }
                    *seen.entry(outcome).or_insert(0) += 1;
                }
                for (outcome, n) in seen {
                    *joint.entry(outcome[..].into()).or_insert(0) += n;
                }
            }
        }
        self.trials += trials;
    }
}

impl Tally {
    /// Record one trial, one value per field. For mechanics whose number
    /// of fields depends on the configuration (a scene's players and
    /// statements), where the fixed-size [`Tally::record_trials`] cannot
    /// be used.
    pub fn record_outcome(&mut self, outcome: &[i64]) {
        assert_eq!(
            self.fields.len(),
            outcome.len(),
            "tally has the wrong number of fields"
        );
        for (h, &v) in self.fields.iter_mut().zip(outcome) {
            h.record(v);
        }
        self.add_joint(outcome, 1);
        self.trials += 1;
    }

    /// Like [`Tally::record_trials`] for mechanics whose whole outcome is a
    /// function of one integer key (Gateway's margin, say): the hot loop
    /// counts keys only, and each distinct key is expanded into its fields
    /// once at the end. Same tally, a fraction of the work per trial.
    #[inline(always)]
    pub fn record_keyed<const N: usize>(
        &mut self,
        rng: &mut DiceRng,
        trials: u64,
        mut sample: impl FnMut(&mut DiceRng) -> i64,
        expand: impl Fn(i64) -> [i64; N],
    ) {
        assert_eq!(self.fields.len(), N, "tally has the wrong number of fields");
        let mut keys = Hist::default();
        for _ in 0..trials {
            keys.record(sample(rng));
        }
        self.add_keys(&keys, expand);
    }

    /// Record every trial counted in `keys` (a histogram of outcome keys,
    /// as [`Tally::record_keyed`] builds), expanding each key into its
    /// fields.
    pub fn add_keys<const N: usize>(&mut self, keys: &Hist, expand: impl Fn(i64) -> [i64; N]) {
        assert_eq!(self.fields.len(), N, "tally has the wrong number of fields");
        for (key, count) in keys.iter() {
            let outcome = expand(key);
            for (h, v) in self.fields.iter_mut().zip(outcome) {
                h.add_count(v, count);
            }
            self.add_joint(&outcome, count);
        }
        self.trials += keys.total();
    }
}

impl AddAssign<&Tally> for Tally {
    fn add_assign(&mut self, other: &Tally) {
        if self.fields.is_empty() {
            self.fields = vec![Hist::default(); other.fields.len()];
        }
        // Whole outcomes are known only if every part kept them; an empty
        // tally takes the other's as they are.
        match (&mut self.joint, &other.joint) {
            (Some(a), Some(b)) => {
                for (outcome, n) in b {
                    *a.entry(outcome.clone()).or_insert(0) += n;
                }
            }
            (None, Some(b)) if self.trials == 0 => self.joint = Some(b.clone()),
            (Some(_), None) if other.trials == 0 => {}
            (None, None) => {}
            _ => self.joint = None,
        }
        assert_eq!(
            self.fields.len(),
            other.fields.len(),
            "merging tallies of different mechanics"
        );
        self.trials += other.trials;
        for (a, b) in self.fields.iter_mut().zip(&other.fields) {
            *a += b;
        }
    }
}

impl Add for Tally {
    type Output = Tally;
    fn add(mut self, other: Tally) -> Tally {
        self += &other;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hist_grows_both_ways() {
        let mut h = Hist::default();
        for v in [3, -2, 7, 3] {
            h.record(v);
        }
        assert_eq!(h.iter().collect::<Vec<_>>(), vec![(-2, 1), (3, 2), (7, 1)]);
        assert_eq!(h.total(), 4);
    }

    #[test]
    fn merge_is_order_free() {
        let mut a = Tally::new(1);
        let mut b = Tally::new(1);
        let mut rng = DiceRng::from_u64(3);
        a.record_trials(&mut rng, 100, |r| [r.d8() as i64]);
        b.record_trials(&mut rng, 50, |r| [-(r.d8() as i64)]);
        let ab = a.clone() + b.clone();
        let ba = b + a;
        assert_eq!(ab, ba);
        assert_eq!(ab.trials(), 150);
    }

    #[test]
    fn recording_one_outcome_at_a_time_equals_recording_trials() {
        let mut fixed = Tally::new(2);
        fixed.record_trials(&mut DiceRng::from_u64(4), 1000, |r| {
            let d = r.d8() as i64;
            [d, -d]
        });
        let mut one = Tally::new(2);
        let mut rng = DiceRng::from_u64(4);
        for _ in 0..1000 {
            let d = rng.d8() as i64;
            one.record_outcome(&[d, -d]);
        }
        assert_eq!(fixed, one);
    }

    #[test]
    fn whole_outcomes_are_counted_however_recorded_and_merged() {
        let sample = |r: &mut DiceRng| {
            let d = r.d8() as i64;
            [d, (d >= 4) as i64]
        };
        let mut fixed = Tally::with_joint(2);
        fixed.record_trials(&mut DiceRng::from_u64(5), 5000, sample);
        let mut one = Tally::with_joint(2);
        let mut rng = DiceRng::from_u64(5);
        for _ in 0..5000 {
            one.record_outcome(&sample(&mut rng));
        }
        let mut keyed = Tally::with_joint(2);
        keyed.record_keyed(
            &mut DiceRng::from_u64(5),
            5000,
            |r| r.d8() as i64,
            |d| [d, (d >= 4) as i64],
        );
        assert_eq!(fixed, one);
        assert_eq!(fixed, keyed);
        let joint = fixed.joint().unwrap();
        assert_eq!(joint.values().sum::<u64>(), 5000);
        assert_eq!(joint.len(), 8, "d8 faces, each with its flag");
        // The marginals are the joint's sums.
        let fours: u64 = joint
            .iter()
            .filter(|(o, _)| o[0] == 4)
            .map(|(_, n)| n)
            .sum();
        assert_eq!(
            fixed.field(0).iter().find(|(v, _)| *v == 4).unwrap().1,
            fours
        );
        // Merging keeps them, from an empty start too; a part without
        // them makes them unknown.
        let merged = Tally::new(2) + fixed.clone() + one.clone();
        assert_eq!(merged.joint().unwrap().values().sum::<u64>(), 10_000);
        let mut plain = Tally::new(2);
        plain.record_trials(&mut DiceRng::from_u64(5), 10, sample);
        assert!((fixed + plain).joint().is_none());
    }

    #[test]
    fn keyed_recording_equals_direct_recording() {
        let expand = |k: i64| [k, (k >= 4) as i64];
        let mut direct = Tally::new(2);
        direct.record_trials(&mut DiceRng::from_u64(9), 10_000, |r| expand(r.d8() as i64));
        let mut keyed = Tally::new(2);
        keyed.record_keyed(&mut DiceRng::from_u64(9), 10_000, |r| r.d8() as i64, expand);
        assert_eq!(direct, keyed);
    }
}
