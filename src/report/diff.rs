//! Comparing two runs config by config: which headline metrics moved by
//! more than their uncertainty allows.
//!
//! Exact against exact: any change above [`EXACT_TOLERANCE`]. Where either
//! side is Monte Carlo: a change larger than [`DIFF_Z`] combined standard
//! errors, √(se_old² + se_new²). Five standard errors keep false alarms
//! below one in a million per comparison, so a table of thousands of
//! configs re-run with another seed stays quiet while a real rules change
//! of a few points shows.

use super::balance::describe;
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

/// The comparison of two runs.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DiffReport {
    /// Metric values compared.
    pub compared: usize,
    pub changes: Vec<Change>,
    /// Configs present on one side only.
    pub only_old: Vec<String>,
    pub only_new: Vec<String>,
}

fn best(c: &ConfigResult) -> Option<&super::Run> {
    c.runs
        .iter()
        .find(|r| r.method == Method::Exact)
        .or_else(|| c.runs.first())
}

/// Compare `new` against `old`.
pub fn diff(old: &Results, new: &Results) -> DiffReport {
    let mut report = DiffReport::default();
    let key = |r: &Results, c: &ConfigResult| describe(r, c, None);
    for o in &old.configs {
        let k = key(old, o);
        let Some(n) = new.configs.iter().find(|n| key(new, n) == k) else {
            report.only_old.push(k);
            continue;
        };
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
            if (mn.value - mo.value).abs() > allowed {
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
        if !old.configs.iter().any(|o| key(old, o) == k) {
            report.only_new.push(k);
        }
    }
    report
}
