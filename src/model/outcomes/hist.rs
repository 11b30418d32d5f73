//! A column of counts: the values one outcome field took over a dense
//! run of integers, which the Monte Carlo loop indexes directly.

use std::ops::AddAssign;

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
