//! Agreement of a Monte Carlo estimate with the exact value.

use super::{Estimate, ExactValue};

/// The z-score of `est` against `exact`: the difference in units of the
/// standard error the exact distribution predicts for `est.trials` trials.
/// Using the exact (not the sampled) spread keeps the test honest for
/// probabilities near 0 or 1, where a sample can show no spread at all.
/// Zero spread: 0 when the values agree, infinite when they do not.
pub fn z_score(exact: &ExactValue, est: &Estimate) -> f64 {
    let diff = est.value - exact.value;
    let se = exact.sd / (est.trials as f64).sqrt();
    if se > 0.0 && se.is_finite() {
        diff / se
    } else if diff.abs() <= 1e-12 {
        0.0
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
    }
}
