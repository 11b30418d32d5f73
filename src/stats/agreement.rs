//! Agreement of a Monte Carlo estimate with the exact value.

use super::{Estimate, ExactValue};

/// The z-score of `est` against `exact`: the difference in units of the
/// standard error the exact distribution predicts for `est.trials` trials.
/// Using the exact (not the sampled) spread keeps the test honest for
/// probabilities near 0 or 1, where a sample can show no spread at all.
/// Zero spread: 0 when the values agree, infinite when they do not.
/// Values within 1e-12 agree whatever the spread: an exact solver's
/// floating-point sums leave a spread of ~1e-8 on a certain outcome (a
/// mean of exactly 3 computed as 2.9999999999999996), which must not turn
/// rounding noise into a disagreement.
pub fn z_score(exact: &ExactValue, est: &Estimate) -> f64 {
    let diff = est.value - exact.value;
    let se = exact.sd / (est.trials as f64).sqrt();
    if diff.abs() <= 1e-12 {
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
        };
        let est = Estimate { value: 1.0, ..est };
        assert_eq!(z_score(&certain, &est), 0.0);
        // A certain value with rounding noise in the exact spread.
        let noisy = ExactValue {
            value: 3.0 - 4e-16,
            sd: 1.5e-8,
        };
        let est = Estimate { value: 3.0, ..est };
        assert_eq!(z_score(&noisy, &est), 0.0);
    }
}
