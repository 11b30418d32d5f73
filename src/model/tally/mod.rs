//! Tallies: per-field histograms of integer counts that merge with `+`,
//! and, for mechanics with a metric over two fields, the counts of whole
//! outcomes.
//!
//! The hot loop does not touch the per-field histograms: each trial's
//! outcome is encoded as one small integer key (the joint outcome, a
//! mixed-radix number over the fields' ranges, see [`Joint`]) and counted
//! in a flat array; the keys are decoded into the fields once per call
//! (once per chunk of the engine). Counting is exact either way, so a tally
//! is the same bit for bit however it was recorded.

use std::collections::BTreeMap;
use std::ops::{Add, AddAssign};

use crate::dice::DiceRng;

/// Trials run through the per-field histograms before [`Joint`] learns the
/// fields' ranges from them.
const WARM_UP: u64 = 256;
/// The most joint keys counted in the flat array (32 KiB of counts): past
/// this, fields are recorded one by one.
const MAX_KEYS: u64 = 4096;

/// The joint outcome of `N` fields as one key: field `f`'s value minus
/// `lo[f]`, in `0..span[f]`, is digit `f` of a mixed-radix number. Values
/// outside the ranges have no key and are recorded field by field.
#[derive(Clone, Copy, Debug)]
struct Joint<const N: usize> {
    lo: [i64; N],
    span: [u64; N],
    stride: [u64; N],
    keys: u64,
}

impl<const N: usize> Joint<N> {
    /// No keys at all: every outcome is outside.
    const NONE: Self = Joint {
        lo: [0; N],
        span: [0; N],
        stride: [0; N],
        keys: 0,
    };

    /// Keys for every value in `lo[f]..=hi[f]`, each range then widened
    /// upwards (long tails, such as a sequence's rounds, grow upwards) while
    /// the key count stays within [`MAX_KEYS`]. `None` when even the seen
    /// ranges need more keys.
    fn learn(lo: [i64; N], hi: [i64; N]) -> Option<Self> {
        let mut span = [0u64; N];
        for f in 0..N {
            span[f] = (hi[f] as i128 - lo[f] as i128 + 1).clamp(1, MAX_KEYS as i128 + 1) as u64;
        }
        let keys = |span: &[u64; N]| span.iter().try_fold(1u64, |k, &s| k.checked_mul(s));
        if keys(&span)? > MAX_KEYS {
            return None;
        }
        for f in 0..N {
            let mut wider = span;
            wider[f] *= 2;
            if keys(&wider).is_some_and(|k| k <= MAX_KEYS) {
                span = wider;
            }
        }
        let mut stride = [0u64; N];
        let mut k = 1;
        for f in 0..N {
            stride[f] = k;
            k *= span[f];
        }
        Some(Joint {
            lo,
            span,
            stride,
            keys: k,
        })
    }

    /// The key of `outcome`, if every field is in range. The test is one
    /// comparison a field, folded without branches.
    #[inline(always)]
    fn key(&self, outcome: &[i64; N]) -> Option<usize> {
        let mut key = 0u64;
        let mut inside = true;
        for (f, &v) in outcome.iter().enumerate() {
            let d = v.wrapping_sub(self.lo[f]) as u64;
            inside &= d < self.span[f];
            key = key.wrapping_add(d.wrapping_mul(self.stride[f]));
        }
        inside.then_some(key as usize)
    }

    /// The outcome a key stands for.
    fn decode(&self, key: usize) -> [i64; N] {
        let key = key as u64;
        std::array::from_fn(|f| self.lo[f] + ((key / self.stride[f]) % self.span[f]) as i64)
    }
}

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
            self.widen_and_record(v);
        }
    }

    /// [`Hist::record`] of a value outside the range so far: rare after a
    /// chunk's first trials, so kept out of the loops that record.
    #[cold]
    #[inline(never)]
    fn widen_and_record(&mut self, v: i64) {
        self.add_count(v, 1);
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
pub type Outcomes = BTreeMap<Box<[i64]>, u64>;

/// The record of a batch of trials: how many, a histogram per outcome
/// field (in the mechanic's field order), and the counts of whole outcomes
/// when asked for ([`Tally::with_joint`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    trials: u64,
    fields: Vec<Hist>,
    joint: Option<Outcomes>,
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
            joint: Some(Outcomes::new()),
            ..Tally::new(fields)
        }
    }

    /// The empty tally a model of `schema` records into: with whole
    /// outcomes when one of its metrics needs them.
    pub fn for_schema(schema: &crate::model::Schema) -> Self {
        match schema.needs_joint() {
            true => Tally::with_joint(schema.fields.len()),
            false => Tally::new(schema.fields.len()),
        }
    }

    /// The counts of whole outcomes, when this tally kept them (every part
    /// of a merged tally must have).
    pub fn joint(&self) -> Option<&Outcomes> {
        self.joint.as_ref()
    }

    /// This tally with its whole outcomes restored (as stored by a shard).
    pub fn with_stored_joint(mut self, joint: Outcomes) -> Tally {
        self.joint = Some(joint);
        self
    }

    fn add_joint(&mut self, outcome: &[i64], n: u64) {
        note(&mut self.joint, outcome, n);
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
    /// trial. The first [`WARM_UP`] trials go to the histograms and show
    /// each field's range; the rest are counted as joint keys (see the
    /// module docs), and any outcome outside the learnt ranges is recorded
    /// field by field.
    #[inline(always)]
    pub fn record_trials<const N: usize>(
        &mut self,
        rng: &mut DiceRng,
        trials: u64,
        mut sample: impl FnMut(&mut DiceRng) -> [i64; N],
    ) {
        assert_eq!(self.fields.len(), N, "tally has the wrong number of fields");
        let mut slow = Slow {
            hists: (&mut self.fields[..])
                .try_into()
                .expect("length checked above"),
            whole: &mut self.joint,
            learning: true,
            lo: [i64::MAX; N],
            hi: [i64::MIN; N],
        };
        self.trials += trials;
        // Until the warm-up has shown the ranges no outcome has a key, so
        // every one takes the slow path. `sample` is called from this one
        // place only, which lets it be inlined into the loop: a mechanic's
        // outcome then stays in registers on its way to its key.
        let warm = trials.min(WARM_UP);
        let mut joint = Joint::NONE;
        let mut counts: Vec<u64> = Vec::new();
        rng.on_this_frame(|rng| {
            for t in 0..trials {
                if t == warm {
                    slow.learning = false;
                    if let Some(learnt) = Joint::learn(slow.lo, slow.hi) {
                        joint = learnt;
                        counts = vec![0; joint.keys as usize];
                    }
                }
                let outcome = sample(rng);
                match joint.key(&outcome) {
                    Some(k) => counts[k] += 1,
                    None => slow.record(&outcome),
                }
            }
        });
        for (k, &n) in counts.iter().enumerate() {
            if n > 0 {
                let outcome = joint.decode(k);
                for (h, v) in slow.hists.iter_mut().zip(outcome) {
                    h.add_count(v, n);
                }
                note(slow.whole, &outcome, n);
            }
        }
    }

    /// Record `counts[k]` trials of outcome `expand(k)` for every key `k`:
    /// for samplers that count their own keys in a flat array (an index
    /// into a table of outcomes) and expand each key once per chunk.
    pub fn add_key_counts<const N: usize>(
        &mut self,
        counts: &[u64],
        expand: impl Fn(usize) -> [i64; N],
    ) {
        assert_eq!(self.fields.len(), N, "tally has the wrong number of fields");
        for (k, &n) in counts.iter().enumerate() {
            if n > 0 {
                let outcome = expand(k);
                for (h, v) in self.fields.iter_mut().zip(outcome) {
                    h.add_count(v, n);
                }
                self.add_joint(&outcome, n);
                self.trials += n;
            }
        }
    }
}

/// Count `n` more of `outcome` in `joint`, when whole outcomes are kept.
#[inline]
fn note(joint: &mut Option<Outcomes>, outcome: &[i64], n: u64) {
    if let Some(joint) = joint
        && n > 0
    {
        // Looked up by slice first: a boxed key is made only for a new
        // outcome, not for every trial.
        match joint.get_mut(outcome) {
            Some(count) => *count += n,
            None => {
                joint.insert(outcome.into(), n);
            }
        }
    }
}

/// Where [`Tally::record_trials`] records an outcome that has no joint
/// key (all of them in the warm-up, and all of them when the fields'
/// ranges need too many keys): field by field, and in the warm-up into
/// the ranges the keys are learnt from.
struct Slow<'a, const N: usize> {
    hists: &'a mut [Hist; N],
    whole: &'a mut Option<Outcomes>,
    learning: bool,
    lo: [i64; N],
    hi: [i64; N],
}

impl<const N: usize> Slow<'_, N> {
    #[inline(always)]
    fn record(&mut self, outcome: &[i64; N]) {
        for (h, &v) in self.hists.iter_mut().zip(outcome) {
            h.record(v);
        }
        note(self.whole, outcome, 1);
        if self.learning {
            for (f, &v) in outcome.iter().enumerate() {
                self.lo[f] = self.lo[f].min(v);
                self.hi[f] = self.hi[f].max(v);
            }
        }
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

    /// Record `n` trials of one outcome, one value per field: for samplers
    /// of a configuration-sized outcome that count their own keys and
    /// expand each once (a scene's rolls and what came true).
    pub fn record_outcomes(&mut self, outcome: &[i64], n: u64) {
        assert_eq!(
            self.fields.len(),
            outcome.len(),
            "tally has the wrong number of fields"
        );
        for (h, &v) in self.fields.iter_mut().zip(outcome) {
            h.add_count(v, n);
        }
        self.add_joint(outcome, n);
        self.trials += n;
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
        rng.on_this_frame(|rng| {
            for _ in 0..trials {
                keys.record(sample(rng));
            }
        });
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
mod tests;
