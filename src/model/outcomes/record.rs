//! Counting trials fast: the Monte Carlo side of [`Tally`].
//!
//! The hot loop does not touch the per-field columns: each trial's
//! outcome is encoded as one small integer key (the joint outcome, a
//! mixed-radix number over the fields' ranges, see [`Keys`]) and counted
//! in a flat array; the keys are decoded into the fields once per call
//! (once per chunk of the engine). Counting is exact either way, so a tally
//! is the same bit for bit however it was recorded.

use super::{Hist, Joint, Tally, note};
use crate::dice::DiceRng;

/// Trials run through the per-field histograms before [`Keys`] learns the
/// fields' ranges from them.
pub(super) const WARM_UP: u64 = 256;
/// The most joint keys counted in the flat array (32 KiB of counts): past
/// this, fields are recorded one by one.
pub(super) const MAX_KEYS: u64 = 4096;

/// The joint outcome of `N` fields as one key: field `f`'s value minus
/// `lo[f]`, in `0..span[f]`, is digit `f` of a mixed-radix number. Values
/// outside the ranges have no key and are recorded field by field.
#[derive(Clone, Copy, Debug)]
pub(super) struct Keys<const N: usize> {
    lo: [i64; N],
    span: [u64; N],
    stride: [u64; N],
    pub(super) keys: u64,
}

impl<const N: usize> Keys<N> {
    /// No keys at all: every outcome is outside.
    pub(super) const NONE: Self = Keys {
        lo: [0; N],
        span: [0; N],
        stride: [0; N],
        keys: 0,
    };

    /// Keys for every value in `lo[f]..=hi[f]`, each range then widened
    /// upwards (long tails, such as a sequence's rounds, grow upwards) while
    /// the key count stays within [`MAX_KEYS`]. `None` when even the seen
    /// ranges need more keys.
    pub(super) fn learn(lo: [i64; N], hi: [i64; N]) -> Option<Self> {
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
        Some(Keys {
            lo,
            span,
            stride,
            keys: k,
        })
    }

    /// The key of `outcome`, if every field is in range. The test is one
    /// comparison a field, folded without branches.
    #[inline(always)]
    pub(super) fn key(&self, outcome: &[i64; N]) -> Option<usize> {
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
    pub(super) fn decode(&self, key: usize) -> [i64; N] {
        let key = key as u64;
        std::array::from_fn(|f| self.lo[f] + ((key / self.stride[f]) % self.span[f]) as i64)
    }
}

impl Tally {
    /// Number of trials recorded.
    pub fn trials(&self) -> u64 {
        self.total
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
        self.total += trials;
        // Until the warm-up has shown the ranges no outcome has a key, so
        // every one takes the slow path. `sample` is called from this one
        // place only, which lets it be inlined into the loop: a mechanic's
        // outcome then stays in registers on its way to its key.
        let warm = trials.min(WARM_UP);
        let mut joint = Keys::NONE;
        let mut counts: Vec<u64> = Vec::new();
        rng.on_this_frame(|rng| {
            for t in 0..trials {
                if t == warm {
                    slow.learning = false;
                    if let Some(learnt) = Keys::learn(slow.lo, slow.hi) {
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
                self.add_outcome(&expand(k), n);
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
    whole: &'a mut Option<Joint<u64>>,
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
        note(&mut self.joint, outcome, 1);
        self.total += 1;
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
        self.add_outcome(outcome, n);
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
            self.add_outcome(&expand(key), count);
        }
    }
}
