//! Agreement of a Monte Carlo estimate with the exact value.

use super::{Estimate, ExactValue};

/// Differences this small are floating-point rounding, not disagreement
/// (no Monte Carlo run could resolve them).
pub const ROUNDING: f64 = 1e-12;

/// The z-score of `est` against `exact`: the difference in units of the
/// standard error the exact distribution predicts for `est.trials` trials.
/// Using the exact (not the sampled) spread keeps the test honest for
/// probabilities near 0 or 1, where a sample can show no spread at all.
/// Zero spread: 0 when the values agree, infinite when they do not.
/// Values within [`ROUNDING`] agree whatever the spread: an exact solver's
/// floating-point sums can leave a constant field a rounding error away
/// from its value, with a "spread" of the same size.
pub fn z_score(exact: &ExactValue, est: &Estimate) -> f64 {
    let diff = est.value - exact.value;
    let se = exact.se(est.trials);
    if diff.abs() <= ROUNDING {
        0.0
    } else if se > 0.0 && se.is_finite() {
        diff / se
    } else {
        diff.signum() * f64::INFINITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z_of_a_known_gap() {
        let exact = ExactValue {
            value: 0.5,
            sd: 0.5,
            sd2: 0.0,
        };
        let est = Estimate {
            value: 0.505,
            lo: 0.0,
            hi: 1.0,
            se: 0.0,
            trials: 10_000,
        };
        // se = 0.5 / 100 = 0.005, so z = 1
        assert!((z_score(&exact, &est) - 1.0).abs() < 1e-9);
        let certain = ExactValue {
            value: 1.0,
            sd: 0.0,
            sd2: 0.0,
        };
        let est = Estimate { value: 1.0, ..est };
        assert_eq!(z_score(&certain, &est), 0.0);
        // A certain value with rounding noise in the exact spread.
        let noisy = ExactValue {
            value: 3.0 - 4e-16,
            sd: 1.5e-8,
            sd2: 0.0,
        };
        let est = Estimate { value: 3.0, ..est };
        assert_eq!(z_score(&noisy, &est), 0.0);
    }

    #[test]
    fn rounding_in_an_exact_constant_is_agreement() {
        // A constant field whose exact probabilities sum to 1 − 2⁻⁵²: its
        // mean and spread are rounding errors, and must not read as z = 1000.
        let exact = ExactValue {
            value: 1.0 - 2.2e-16,
            sd: 2.2e-16,
            sd2: 0.0,
        };
        let est = Estimate {
            value: 1.0,
            lo: 1.0,
            hi: 1.0,
            se: 0.0,
            trials: 1_000_000,
        };
        assert_eq!(z_score(&exact, &est), 0.0);
        let off = Estimate {
            value: 1.0 + 1e-9,
            ..est
        };
        assert!(z_score(&exact, &off) > 1e6);
    }
}
