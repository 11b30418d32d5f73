//! Integer-weighted distributions over a run of consecutive integers.

/// A distribution over `min..min + weights.len()` where value `min + i`
/// occurs in `weights[i]` of `total()` equally likely cases.
///
/// Weights are `u128` so that products of two dice pools (up to 8^18 cases
/// in Gateway) never overflow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    min: i64,
    weights: Vec<u128>,
}

impl Counts {
    /// A point mass at `value`.
    pub fn point(value: i64) -> Self {
        Counts {
            min: value,
            weights: vec![1],
        }
    }

    /// The highest of `n` dice with `sides` faces (n ≥ 1): the value k
    /// occurs in k^n − (k−1)^n of the sides^n rolls.
    pub fn keep_highest(n: u32, sides: u32) -> Self {
        assert!(
            n >= 1 && sides >= 1,
            "keep_highest needs n ≥ 1 and sides ≥ 1"
        );
        let weights = (1..=sides as u128)
            .map(|k| k.pow(n) - (k - 1).pow(n))
            .collect();
        Counts { min: 1, weights }
    }

    /// The same distribution moved by `by`.
    pub fn shift(mut self, by: i64) -> Self {
        self.min += by;
        self
    }

    /// Smallest value with a place in the table (its weight may be zero).
    pub fn min(&self) -> i64 {
        self.min
    }

    /// Number of equally likely cases.
    pub fn total(&self) -> u128 {
        self.weights.iter().sum()
    }

    /// `(value, weight)` pairs with non-zero weight, in increasing value.
    pub fn iter(&self) -> impl Iterator<Item = (i64, u128)> + '_ {
        self.weights
            .iter()
            .enumerate()
            .filter(|(_, w)| **w > 0)
            .map(move |(i, &w)| (self.min + i as i64, w))
    }

    /// Weight of `value`.
    pub fn weight(&self, value: i64) -> u128 {
        let i = value - self.min;
        if i < 0 {
            return 0;
        }
        self.weights.get(i as usize).copied().unwrap_or(0)
    }

    /// Distribution of `self − other` for independent draws; the total is
    /// the product of the two totals.
    pub fn minus(&self, other: &Counts) -> Counts {
        let lo = self.min - (other.min + other.weights.len() as i64 - 1);
        let len = self.weights.len() + other.weights.len() - 1;
        let mut weights = vec![0u128; len];
        for (i, &a) in self.weights.iter().enumerate() {
            if a == 0 {
                continue;
            }
            for (j, &b) in other.weights.iter().enumerate() {
                let v = (self.min + i as i64) - (other.min + j as i64);
                weights[(v - lo) as usize] += a * b;
            }
        }
        Counts { min: lo, weights }
    }

    /// Probability of each value, as `f64`.
    pub fn probabilities(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        let total = self.total() as f64;
        self.iter().map(move |(v, w)| (v, w as f64 / total))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keep_highest_two_d8() {
        let c = Counts::keep_highest(2, 8);
        assert_eq!(c.total(), 64);
        assert_eq!(c.weight(1), 1);
        assert_eq!(c.weight(8), 15);
    }

    #[test]
    fn difference_of_two_d6_is_triangular() {
        let d6 = Counts::keep_highest(1, 6);
        let diff = d6.minus(&d6);
        assert_eq!(diff.total(), 36);
        assert_eq!(diff.weight(0), 6);
        assert_eq!(diff.weight(5), 1);
        assert_eq!(diff.weight(-5), 1);
        assert_eq!(diff.weight(6), 0);
    }
}
