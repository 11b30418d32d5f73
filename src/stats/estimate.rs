//! Metric values: estimated from a tally, or computed from exact marginals.
//! Both read their table the same way ([`crate::model::Outcomes::share`] for an event);
//! what differs is the arithmetic on top: integer sums and intervals for
//! counts, the exact value and its per-trial spread for probabilities.

use super::interval::{mean_interval, wilson};
use crate::model::{Marginals, MetricKind, MetricSpec, Tally};

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
        MetricKind::Prob { field, pred } => proportion(tally.share(field, pred), n),
        MetricKind::Both { first, second } => {
            // Unknown without whole outcomes (a tally read back from the
            // long table): NaN, never a wrong number.
            match tally.share_both(first, second) {
                Some(k) => proportion(k, n),
                None => Estimate {
                    value: f64::NAN,
                    lo: f64::NAN,
                    hi: f64::NAN,
                    se: f64::NAN,
                    trials: n,
                },
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
        MetricKind::Sd { field } => {
            if n < 2 {
                return Estimate {
                    value: 0.0,
                    lo: 0.0,
                    hi: f64::INFINITY,
                    se: f64::INFINITY,
                    trials: n,
                };
            }
            let nf = n as f64;
            let hist = tally.field(field);
            let mean = hist.iter().map(|(v, c)| v as f64 * c as f64).sum::<f64>() / nf;
            let central = |k: i32| {
                hist.iter()
                    .map(|(v, c)| (v as f64 - mean).powi(k) * c as f64)
                    .sum::<f64>()
                    / nf
            };
            let (m2, m4) = (central(2), central(4));
            let sd = (m2 * nf / (nf - 1.0)).sqrt();
            let se = (sd_se(m2, m4).powi(2) / nf + sd_se2(m2).powi(2) / (nf * nf)).sqrt();
            let (lo, hi) = mean_interval(sd, se);
            Estimate {
                value: sd,
                lo: lo.max(0.0),
                hi,
                se,
                trials: n,
            }
        }
    }
}

/// The estimate of a probability from `k` of `n` trials, with its Wilson
/// interval.
fn proportion(k: u64, n: u64) -> Estimate {
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

/// The spread of a sample standard deviation, from the second and fourth
/// central moments. The variance of the sample variance is exactly
/// (μ₄ − σ⁴)/n + 2σ⁴/(n(n − 1)) (e.g. Cramér, *Mathematical Methods of
/// Statistics*, 1946, §27.4); by the delta method, s = √s² has standard
/// error about √(Var s²) / (2σ). This is the 1/√n part, per trial.
fn sd_se(m2: f64, m4: f64) -> f64 {
    if m2 <= 0.0 {
        0.0
    } else {
        (m4 - m2 * m2).max(0.0).sqrt() / (2.0 * m2.sqrt())
    }
}

/// The 1/n part of [`sd_se`]: √(2σ⁴) / (2σ).
fn sd_se2(m2: f64) -> f64 {
    m2.max(0.0).sqrt() / 2f64.sqrt()
}

/// An exact metric value, with the standard deviation of one trial's
/// contribution (what a Monte Carlo estimate's error scales with).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactValue {
    pub value: f64,
    pub sd: f64,
    /// A second-order spread: an estimate from `n` trials has standard
    /// error √(sd²/n + sd2²/n²). Zero except for a standard deviation,
    /// whose first-order spread vanishes for a symmetric two-valued result
    /// (a coin flip's sample deviation errs by about 1/n, not 1/√n).
    pub sd2: f64,
}

impl ExactValue {
    /// The standard error this value predicts for an estimate from
    /// `trials` trials.
    pub fn se(&self, trials: u64) -> f64 {
        let n = trials as f64;
        if self.sd2 == 0.0 {
            // The usual case, in the form every earlier run computed.
            return self.sd / n.sqrt();
        }
        (self.sd * self.sd / n + self.sd2 * self.sd2 / (n * n)).sqrt()
    }
}

/// Within this of a whole number, an exact mean or deviation is that
/// number: the rest is floating-point rounding of the sums (a mean degree
/// of 6.9e-18 between equal ratings), never a value.
pub const SETTLE: f64 = 1e-12;

/// `x` as the whole number it is within [`SETTLE`] of (0 never negative),
/// else `x`. Probabilities are not settled: a sum of non-negative terms
/// has no such noise at 0, and a real chance may be that small.
pub fn settle(x: f64) -> f64 {
    let whole = x.round();
    if (x - whole).abs() <= SETTLE {
        whole + 0.0
    } else {
        x
    }
}

/// Compute `metric` from exact marginals.
pub fn exact_value(metric: &MetricSpec, exact: &Marginals) -> ExactValue {
    match metric.kind {
        MetricKind::Prob { field, pred } => {
            // Summed from +0.0 (`Outcomes::share`): an empty f64 sum is
            // -0.0, which would print as "-0.0" for an impossible event.
            let p = exact.share(field, pred).clamp(0.0, 1.0);
            ExactValue {
                value: p,
                sd: (p * (1.0 - p)).sqrt(),
                sd2: 0.0,
            }
        }
        MetricKind::Both { first, second } => {
            // NaN for a solver that gave fields alone, or an answer read
            // back from the long table.
            let p = exact
                .share_both(first, second)
                .map_or(f64::NAN, |p| p.clamp(0.0, 1.0));
            ExactValue {
                value: p,
                sd: (p * (1.0 - p)).sqrt(),
                sd2: 0.0,
            }
        }
        MetricKind::Mean { field } => {
            let table = exact.field(field);
            let mean: f64 = table
                .iter()
                .map(|(v, p)| *v as f64 * p)
                .fold(0.0, |a, b| a + b);
            let var: f64 = table
                .iter()
                .map(|(v, p)| (*v as f64 - mean).powi(2) * p)
                .sum();
            ExactValue {
                value: settle(mean),
                sd: var.sqrt(),
                sd2: 0.0,
            }
        }
        MetricKind::Sd { field } => {
            let table = exact.field(field);
            let mean: f64 = table.iter().map(|(v, p)| *v as f64 * p).sum();
            let central = |k: i32| -> f64 {
                table
                    .iter()
                    .map(|(v, p)| (*v as f64 - mean).powi(k) * p)
                    .sum()
            };
            let (m2, m4) = (central(2), central(4));
            // The spread of one trial's contribution: se × √n.
            ExactValue {
                value: settle(m2.max(0.0).sqrt()),
                sd: sd_se(m2, m4),
                sd2: sd_se2(m2),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::DiceRng;
    use crate::model::{MetricSpec, Pred};

    #[test]
    fn sd_of_a_d6_agrees_with_its_exact_value() {
        let mut m = Marginals::new(1);
        for v in 1..=6 {
            m.add(0, v, 1.0 / 6.0);
        }
        let spec = MetricSpec::new("sd", MetricKind::Sd { field: 0 }, "");
        let exact = exact_value(&spec, &m);
        assert!((exact.value - (35.0f64 / 12.0).sqrt()).abs() < 1e-12);
        let mut t = Tally::new(1);
        t.record_trials(&mut DiceRng::from_u64(8), 400_000, |r| [r.die(6) as i64]);
        let est = estimate(&spec, &t);
        assert!(est.lo < exact.value && exact.value < est.hi, "{est:?}");
        let z = crate::stats::z_score(&exact, &est);
        assert!(z.abs() < 5.0, "z = {z}");
        // A coin: the first-order spread of its deviation vanishes, the
        // second-order one keeps the agreement test meaningful.
        let mut coin = Marginals::new(1);
        coin.add(0, 0, 0.5);
        coin.add(0, 1, 0.5);
        let exact = exact_value(&spec, &coin);
        assert!(exact.sd < 1e-12 && exact.sd2 > 0.3, "{exact:?}");
        let mut t = Tally::new(1);
        t.record_trials(
            &mut DiceRng::from_u64(9),
            100_000,
            |r| [r.die(2) as i64 - 1],
        );
        let z = crate::stats::z_score(&exact, &estimate(&spec, &t));
        assert!(z.abs() < 5.0 && z != 0.0, "z = {z}");
        // A constant has no spread and no uncertainty about it.
        let mut c = Tally::new(1);
        c.record_trials(&mut DiceRng::from_u64(8), 100, |_| [4]);
        assert_eq!(estimate(&spec, &c).value, 0.0);
        assert_eq!(estimate(&spec, &c).se, 0.0);
    }

    #[test]
    fn an_impossible_event_is_plus_zero() {
        let mut m = Marginals::new(1);
        m.add(0, 3, 1.0);
        let p = exact_value(
            &MetricSpec::new(
                "p",
                MetricKind::Prob {
                    field: 0,
                    pred: Pred::Le(2),
                },
                "",
            ),
            &m,
        );
        assert_eq!(p.value.to_string(), "0");
    }

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
    fn a_metric_over_two_fields_reads_the_joint_outcome_not_the_marginals() {
        // (winner, rounds): A wins only quickly, B only slowly. P(A wins
        // within 2 rounds) is 1/2; the marginals' product would say 1/4.
        let outcomes = [
            ([0, 1], 0.25),
            ([0, 2], 0.25),
            ([1, 3], 0.25),
            ([1, 4], 0.25),
        ];
        let mut exact = Marginals::new(2);
        for (o, p) in outcomes {
            exact.add_outcome(&o, p);
        }
        let spec = MetricSpec::both("p_a_quick", (0, Pred::Eq(0)), (1, Pred::Le(2)), "");
        assert_eq!(exact_value(&spec, &exact).value, 0.5);
        let mut t = Tally::with_joint(2);
        let mut rng = DiceRng::from_u64(11);
        t.record_trials(&mut rng, 100_000, |r| outcomes[(r.d8() as usize - 1) % 4].0);
        let e = estimate(&spec, &t);
        assert!((e.value - 0.5).abs() < 5.0 * e.se, "{e:?}");
        assert!(e.lo < 0.5 && 0.5 < e.hi);
        // Without whole outcomes (a field given alone, a tally read back
        // from the long table) the metric is unknown, not wrong.
        let mut alone = exact.clone();
        alone.add(0, 0, 0.0 + f64::MIN_POSITIVE);
        assert!(exact_value(&spec, &alone).value.is_nan());
        let mut plain = Tally::new(2);
        plain.record_trials(&mut rng, 10, |r| outcomes[(r.d8() as usize - 1) % 4].0);
        assert!(estimate(&spec, &plain).value.is_nan());
    }

    #[test]
    fn exact_means_settle_on_whole_numbers_within_rounding() {
        assert_eq!(settle(6.938893903907228e-18), 0.0);
        assert_eq!(settle(-6.9e-18).to_bits(), 0.0f64.to_bits());
        assert_eq!(settle(2.9999999999999996), 3.0);
        assert_eq!(settle(0.5), 0.5);
        assert_eq!(settle(1e-9), 1e-9);
        // A symmetric contest's mean degree: 0, whatever order the sum
        // takes.
        let spec = MetricSpec::new("mean", MetricKind::Mean { field: 0 }, "");
        let mut even = Marginals::new(1);
        for (v, p) in [
            (-3, 0.1),
            (3, 0.1),
            (-1, 0.7 / 2.0),
            (1, 0.7 / 2.0),
            (0, 0.1),
        ] {
            even.add(0, v, p);
        }
        assert_eq!(exact_value(&spec, &even).value.to_bits(), 0.0f64.to_bits());
    }
}
