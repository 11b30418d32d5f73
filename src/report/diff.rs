//! Comparing two runs config by config: which headline metrics moved by
//! more than their uncertainty allows.
//!
//! Exact against exact: any change above [`EXACT_TOLERANCE`]. Where either
//! side is Monte Carlo: a change larger than [`DIFF_Z`] combined standard
//! errors, √(se_old² + se_new²). Five standard errors keep false alarms
//! below one in a million per comparison, so a table of thousands of
//! configs re-run with another seed stays quiet while a real rules change
//! of a few points shows.
//!
//! Only like runs compare: the same mechanic swept over the same
//! parameters. Configs are matched by their swept values; one present in
//! only one run is a change too.

use polars::prelude::{Column, DataFrame};

use super::OutputError;
use crate::results::{ConfigResult, Method, Results};

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
                let (so, sn) = (mo.se.unwrap_or(0.0), mn.se.unwrap_or(0.0));
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
