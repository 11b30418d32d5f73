//! Metric values: estimated from a tally, or computed from exact marginals.

use super::interval::{mean_interval, wilson};
use crate::dist::Marginals;
use crate::sim::Tally;
use crate::systems::{MetricKind, MetricSpec};

/// A Monte Carlo estimate with its 95% interval and standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
    pub se: f64,
    pub trials: u64,
}

impl Estimate {
    /// Half the width of the interval.
    pub fn half_width(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }
}

/// Estimate `metric` from `tally`: Wilson interval for probabilities,
/// normal interval with the sample standard error for means.
pub fn estimate(metric: &MetricSpec, tally: &Tally) -> Estimate {
    let n = tally.trials();
    match metric.kind {
        MetricKind::Prob { field, pred } => {
            let k: u64 = tally
                .field(field)
                .iter()
                .filter(|(v, _)| pred.holds(*v))
                .map(|(_, c)| c)
                .sum();
            let p = if n == 0 { 0.0 } else { k as f64 / n as f64 };
            let (lo, hi) = wilson(k, n);
            let se = if n == 0 {
                f64::INFINITY
            } else {
                (p * (1.0 - p) / n as f64).sqrt()
            };
            Estimate {
                value: p,
                lo,
                hi,
                se,
                trials: n,
            }
        }
        MetricKind::Mean { field } => {
            // Integer sums keep the estimate identical however the tally was
            // merged; i128 holds Σv² for any realistic run.
            let (mut s, mut s2) = (0i128, 0i128);
            for (v, c) in tally.field(field).iter() {
                s += v as i128 * c as i128;
                s2 += (v as i128) * (v as i128) * c as i128;
            }
            if n == 0 {
                return Estimate {
                    value: 0.0,
                    lo: f64::NEG_INFINITY,
                    hi: f64::INFINITY,
                    se: f64::INFINITY,
                    trials: 0,
                };
            }
            let nf = n as f64;
            let mean = s as f64 / nf;
            // Sample variance with Bessel's correction, from exact integer sums.
            let var = if n > 1 {
                ((s2 as f64) - (s as f64) * (s as f64) / nf).max(0.0) / (nf - 1.0)
            } else {
                0.0
            };
            let se = (var / nf).sqrt();
            let (lo, hi) = mean_interval(mean, se);
            Estimate {
                value: mean,
                lo,
                hi,
                se,
                trials: n,
            }
        }
    }
}

/// An exact metric value, with the standard deviation of one trial's
/// contribution (what a Monte Carlo estimate's error scales with).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactValue {
    pub value: f64,
    pub sd: f64,
}

/// Compute `metric` from exact marginals.
pub fn exact_value(metric: &MetricSpec, exact: &Marginals) -> ExactValue {
    match metric.kind {
        MetricKind::Prob { field, pred } => {
            let p: f64 = exact
                .field(field)
                .iter()
                .filter(|(v, _)| pred.holds(**v))
                .map(|(_, p)| *p)
                .sum::<f64>()
                .clamp(0.0, 1.0)
                // An empty f64 sum is −0.0; an event that never happens
                // should print as 0.
                + 0.0;
            ExactValue {
                value: p,
                sd: (p * (1.0 - p)).sqrt(),
            }
        }
        MetricKind::Mean { field } => {
            let table = exact.field(field);
            let mean: f64 = table.iter().map(|(v, p)| *v as f64 * p).sum();
            let var: f64 = table
                .iter()
                .map(|(v, p)| (*v as f64 - mean).powi(2) * p)
                .sum();
            ExactValue {
                value: mean,
                sd: var.sqrt(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::DiceRng;
    use crate::systems::{MetricSpec, Pred};

    #[test]
    fn mean_and_prob_of_a_d6() {
        let mut t = Tally::new(1);
        let mut rng = DiceRng::from_u64(5);
        t.record_trials(&mut rng, 200_000, |r| [r.die(6) as i64]);
        let mean = estimate(&MetricSpec::new("m", MetricKind::Mean { field: 0 }, ""), &t);
        // 3.5 ± 5 se, se = sqrt(35/12 / n)
        assert!((mean.value - 3.5).abs() < 5.0 * (35.0f64 / 12.0 / 200_000.0).sqrt());
        assert!(mean.lo < mean.value && mean.value < mean.hi);
        let six = estimate(
            &MetricSpec::new(
                "p",
                MetricKind::Prob {
                    field: 0,
                    pred: Pred::Eq(6),
                },
                "",
            ),
            &t,
        );
        assert!(six.lo < 1.0 / 6.0 && 1.0 / 6.0 < six.hi, "{six:?}");
    }

    #[test]
    fn an_impossible_event_has_probability_plus_zero() {
        let mut m = Marginals::new(1);
        m.add(0, 0, 1.0);
        let spec = MetricSpec::new(
            "p",
            MetricKind::Prob {
                field: 0,
                pred: Pred::Eq(1),
            },
            "",
        );
        let v = exact_value(&spec, &m).value;
        assert_eq!(v.to_string(), "0");
    }
}
