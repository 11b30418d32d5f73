//! Comparing two runs config by config: which headline metrics moved by
//! more than their uncertainty allows.
//!
//! Exact against exact: any change above [`EXACT_TOLERANCE`]. Where either
//! side is Monte Carlo: a change larger than [`DIFF_Z`] combined standard
//! errors, √(se_old² + se_new²). Five standard errors keep false alarms
//! below one in a million per comparison, so a table of thousands of
//! configs re-run with another seed stays quiet while a real rules change
//! of a few points shows. A Monte Carlo probability seen at 0 or 1 (no
//! trial, or every one, had the event) has a sample standard error of 0,
//! yet an event rarer than one in the trials run may well be there: its
//! error is floored at the Wilson score interval's (see
//! [`mc_probability_se`]), so a rare event the simulation did not see is
//! not "moved".
//!
//! Only like runs compare: the same mechanic swept over the same
//! parameters. Configs are matched by their swept values; one present in
//! only one run is a change too.

use polars::prelude::{Column, DataFrame};

use super::OutputError;
use crate::results::{ConfigResult, Method, MetricRow, Results, Run};

/// Changes in exact values below this are rounding.
pub const EXACT_TOLERANCE: f64 = 1e-9;
/// Standard errors a Monte Carlo change must exceed to count.
pub const DIFF_Z: f64 = 5.0;

/// One metric of one config that moved.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub config: String,
    pub metric: String,
    pub old: f64,
    pub new: f64,
    /// The largest change the uncertainty allows.
    pub allowed: f64,
}

impl Change {
    /// The size of the move, for ordering (NaN counts as the largest).
    fn size(&self) -> f64 {
        let d = (self.new - self.old).abs();
        if d.is_nan() { f64::INFINITY } else { d }
    }
}

/// The comparison of two runs.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DiffReport {
    /// Metric values compared.
    pub compared: usize,
    /// Biggest move first.
    pub changes: Vec<Change>,
    /// Configs present on one side only.
    pub only_old: Vec<String>,
    pub only_new: Vec<String>,
}

impl DiffReport {
    /// Whether anything differs: a metric moved or a config is missing on
    /// one side.
    pub fn differs(&self) -> bool {
        !(self.changes.is_empty() && self.only_old.is_empty() && self.only_new.is_empty())
    }

    /// `diff.csv`: one row per change, biggest first, then one per config
    /// present on one side only (`status` says which).
    pub fn csv(&self) -> Result<Vec<u8>, OutputError> {
        let mut status = Vec::new();
        let mut config = Vec::new();
        let mut metric = Vec::new();
        let (mut old, mut new, mut change, mut allowed) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for c in &self.changes {
            status.push("moved");
            config.push(c.config.as_str());
            metric.push(Some(c.metric.as_str()));
            old.push(Some(c.old));
            new.push(Some(c.new));
            change.push(Some(c.new - c.old));
            allowed.push(Some(c.allowed));
        }
        for (list, what) in [(&self.only_old, "only-old"), (&self.only_new, "only-new")] {
            for k in list {
                status.push(what);
                config.push(k.as_str());
                metric.push(None);
                old.push(None);
                new.push(None);
                change.push(None);
                allowed.push(None);
            }
        }
        let df = DataFrame::new(
            status.len(),
            vec![
                Column::new("status".into(), status),
                Column::new("config".into(), config),
                Column::new("metric".into(), metric),
                Column::new("old".into(), old),
                Column::new("new".into(), new),
                Column::new("change".into(), change),
                Column::new("allowed".into(), allowed),
            ],
        )
        .map_err(|e| OutputError::Encode {
            what: "diff".into(),
            message: e.to_string(),
        })?;
        super::frames::csv(df)
    }
}

/// Why two runs cannot be compared.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct Unlike(pub String);

fn best(c: &ConfigResult) -> Option<&super::Run> {
    c.runs
        .iter()
        .find(|r| r.method == Method::Exact)
        .or_else(|| c.runs.first())
}

/// A config's swept values, `a = 1, b = full`, in path order (so runs
/// whose `[sweep]` lists the same axes in another order still match).
fn key(r: &Results, c: &ConfigResult) -> String {
    let mut parts: Vec<String> = r
        .swept
        .iter()
        .zip(&c.swept)
        .map(|(p, v)| format!("{p} = {v}"))
        .collect();
    parts.sort();
    if parts.is_empty() {
        "(the only config)".into()
    } else {
        parts.join(", ")
    }
}

/// The standard error of a Monte Carlo probability `p` from `trials`
/// trials, floored where the sample's own is 0: the Wilson score
/// interval's (E. B. Wilson, 1927), its centre and width taken at
/// z = [`DIFF_Z`]: p̃ = (p·n + z²/2)/(n + z²), se = √(p̃(1 − p̃)/(n + z²)).
/// At p = 0 that is about 3.5/n, so a change below about 18/n is not
/// flagged (the z = 5 Wilson bound on an event never seen is 25/n; the
/// rule of three's 95% bound is 3/n). Away from 0 and 1 it is the usual
/// √(p(1 − p)/n) within a few percent.
pub fn mc_probability_se(p: f64, trials: u64) -> f64 {
    if trials == 0 || !p.is_finite() {
        return 0.0;
    }
    let z2 = DIFF_Z * DIFF_Z;
    let n = trials as f64 + z2;
    let centre = (p.clamp(0.0, 1.0) * trials as f64 + z2 / 2.0) / n;
    (centre * (1.0 - centre) / n).sqrt()
}

/// Compare `new` against `old`; refuses runs of different mechanics or
/// swept parameters, whose configs mean different things.
pub fn diff(old: &Results, new: &Results) -> Result<DiffReport, Unlike> {
    if old.mechanic != new.mechanic {
        return Err(Unlike(format!(
            "the runs are of different mechanics ({} and {}); only runs of one mechanic compare",
            old.mechanic, new.mechanic
        )));
    }
    let (mut a, mut b) = (old.swept.clone(), new.swept.clone());
    a.sort();
    b.sort();
    if a != b {
        return Err(Unlike(format!(
            "the runs sweep different parameters ([{}] and [{}]); only runs over the same parameters compare",
            old.swept.join(", "),
            new.swept.join(", ")
        )));
    }
    let mut report = DiffReport::default();
    let new_by_key: std::collections::HashMap<String, &ConfigResult> =
        new.configs.iter().map(|n| (key(new, n), n)).collect();
    let mut matched = std::collections::HashSet::new();
    for o in &old.configs {
        let k = key(old, o);
        let Some(n) = new_by_key.get(&k) else {
            report.only_old.push(k);
            continue;
        };
        matched.insert(k.clone());
        let (Some(ro), Some(rn)) = (best(o), best(n)) else {
            continue;
        };
        for mo in &ro.metrics {
            let Some(mn) = rn.metrics.iter().find(|m| m.name == mo.name) else {
                continue;
            };
            report.compared += 1;
            let allowed = if ro.method == Method::Exact && rn.method == Method::Exact {
                EXACT_TOLERANCE
            } else {
                let se = |m: &MetricRow, run: &Run| {
                    let se = m.se.unwrap_or(0.0);
                    if run.method == Method::MonteCarlo && m.name.starts_with("p_") {
                        se.max(mc_probability_se(m.value, run.trials))
                    } else {
                        se
                    }
                };
                let (so, sn) = (se(mo, ro), se(mn, rn));
                DIFF_Z * (so * so + sn * sn).sqrt() + EXACT_TOLERANCE
            };
            // A NaN on either side is a change too.
            let moved = (mn.value - mo.value).abs();
            if moved.is_nan() || moved > allowed {
                report.changes.push(Change {
                    config: k.clone(),
                    metric: mo.name.clone(),
                    old: mo.value,
                    new: mn.value,
                    allowed,
                });
            }
        }
    }
    for n in &new.configs {
        let k = key(new, n);
        if !matched.contains(&k) {
            report.only_new.push(k);
        }
    }
    // Biggest moves first; the sort is stable, so equal moves keep config
    // order.
    report.changes.sort_by(|x, y| y.size().total_cmp(&x.size()));
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Mode;

    fn results(method: Method, trials: u64, p: f64, se: Option<f64>) -> Results {
        Results {
            name: "t".into(),
            description: None,
            mechanic: "dice.roll".into(),
            swept: Vec::new(),
            seed: 1,
            trials,
            mode: Mode::Auto,
            precision: None,
            configs: vec![ConfigResult {
                runs: vec![Run {
                    method,
                    trials,
                    metrics: vec![MetricRow {
                        name: "p_rare".into(),
                        value: p,
                        interval: None,
                        se,
                    }],
                    dist: Vec::new(),
                }],
                index: 0,
                swept: Vec::new(),
                agreement: Vec::new(),
            }],
            exact_seconds: 0.0,
            mc_seconds: 0.0,
        }
    }

    #[test]
    fn a_rare_event_monte_carlo_did_not_see_has_not_moved() {
        // P = 1e-6 exactly; 100,000 trials saw none of it (SE 0).
        let exact = results(Method::Exact, 0, 1e-6, None);
        let mc = results(Method::MonteCarlo, 100_000, 0.0, Some(0.0));
        assert!(!diff(&exact, &mc).unwrap().differs());
        assert!(!diff(&mc, &exact).unwrap().differs());
        // An event of 1 in 1,000 not seen in 100,000 trials has moved.
        let common = results(Method::Exact, 0, 1e-3, None);
        let report = diff(&common, &mc).unwrap();
        assert_eq!(report.changes.len(), 1, "{report:?}");
        // The same at the other end: every trial succeeded.
        let sure = results(Method::MonteCarlo, 100_000, 1.0, Some(0.0));
        assert!(
            !diff(&results(Method::Exact, 0, 1.0 - 1e-6, None), &sure)
                .unwrap()
                .differs()
        );
    }

    #[test]
    fn the_floor_is_the_usual_error_away_from_the_ends() {
        let usual = (0.3f64 * 0.7 / 1e6).sqrt();
        let floored = mc_probability_se(0.3, 1_000_000);
        assert!((floored / usual - 1.0).abs() < 0.01, "{floored} vs {usual}");
        // At 0 it is about 3.5/n.
        let zero = mc_probability_se(0.0, 1_000_000);
        assert!((zero * 1e6 - 12.5f64.sqrt()).abs() < 0.01, "{zero}");
        assert_eq!(mc_probability_se(0.0, 0), 0.0);
    }
}
