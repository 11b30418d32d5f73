//! Confidence intervals.

use statrs::distribution::{ContinuousCDF, Normal};

/// The confidence level of every interval oddsmith reports.
pub const CONFIDENCE: f64 = 0.95;

/// The standard normal quantile `Φ⁻¹(q)`.
pub fn normal_quantile(q: f64) -> f64 {
    Normal::standard().inverse_cdf(q)
}

/// The two-sided critical value for [`CONFIDENCE`] (≈ 1.96).
pub fn z_crit() -> f64 {
    normal_quantile(1.0 - (1.0 - CONFIDENCE) / 2.0)
}

/// Wilson score interval for `k` successes in `n` trials at [`CONFIDENCE`].
///
/// Source: E. B. Wilson, "Probable inference, the law of succession, and
/// statistical inference", JASA 22 (1927); recommended over the Wald
/// interval by Brown, Cai & DasGupta, Statistical Science 16 (2001), because
/// it keeps its coverage near 0 and 1, where designers' rare events live.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = z_crit();
    let all = n;
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At k = 0 and k = n the bounds are exactly 0 and 1; rounding would
    // otherwise leave a stray 1e-17.
    let lo = if k == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if k == all {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// Normal-approximation interval `mean ± z·se` at [`CONFIDENCE`].
pub fn mean_interval(mean: f64, se: f64) -> (f64, f64) {
    let h = z_crit() * se;
    (mean - h, mean + h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantile_is_1_96() {
        assert!((z_crit() - 1.959_963_984_540_054).abs() < 1e-9);
    }

    #[test]
    fn wilson_matches_a_worked_value() {
        // 81 successes in 263 trials: Wilson 95% interval (0.2553, 0.3662),
        // the example in Brown, Cai & DasGupta's discussion and on Wikipedia.
        let (lo, hi) = wilson(81, 263);
        assert!((lo - 0.2553).abs() < 1e-4, "{lo}");
        assert!((hi - 0.3662).abs() < 1e-4, "{hi}");
    }

    #[test]
    fn wilson_stays_inside_0_1() {
        let (lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.0 && hi < 0.4);
        let (lo, hi) = wilson(10, 10);
        assert!(lo > 0.6 && hi == 1.0);
    }
}
