//! Balance assertions (`[[expect]]`) evaluated against a run's results.
//!
//! Exact values are held to the bound as they are. A Monte Carlo value
//! fails only when its whole 95% interval is on the wrong side of the
//! bound; a value outside the bound whose interval still reaches it is
//! reported as holding *within the interval*, so a designer sees that more
//! trials would settle it.

use crate::results::{ConfigResult, Method, Results};
use crate::scenario::{Expectation, Rule};
use crate::systems::ParamValue;

/// Exact values may differ by rounding only.
const EPS: f64 = 1e-12;

/// How one check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Holds,
    /// The estimate is outside the bound but its interval reaches it.
    HoldsWithinInterval,
    Fails,
}

/// One config (or neighbouring pair) where the assertion did not plainly
/// hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub status: Status,
    /// The config(s), as `path = value` pairs.
    pub config: String,
    /// Their positions in the sweep (two for a neighbouring pair).
    pub configs: Vec<usize>,
    pub value: String,
    pub bound: String,
}

/// Findings an assertion keeps, the first in listing order; the rest
/// are only counted, so a sweep of millions of failing configs keeps a
/// few kilobytes of them, not hundreds of megabytes (reports list the
/// kept ones and say how many more there are).
pub const KEPT_FINDINGS: usize = 20;

/// The outcome of one assertion.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub expectation: Expectation,
    /// Configs (or neighbouring pairs) checked.
    pub checked: usize,
    /// The first [`KEPT_FINDINGS`] findings, in listing order.
    pub findings: Vec<Finding>,
    /// Findings that fail, kept or not.
    pub fails: usize,
    /// Findings that hold only within the interval, kept or not.
    pub within: usize,
}

impl Verdict {
    /// The verdict of `findings` (in listing order): counted, the first
    /// [`KEPT_FINDINGS`] kept.
    pub fn new(
        expectation: Expectation,
        checked: usize,
        findings: impl IntoIterator<Item = Finding>,
    ) -> Verdict {
        let mut v = Verdict {
            expectation,
            checked,
            findings: Vec::new(),
            fails: 0,
            within: 0,
        };
        for f in findings {
            v.count(&f);
            if v.findings.len() < KEPT_FINDINGS {
                v.findings.push(f);
            }
        }
        v
    }

    fn count(&mut self, f: &Finding) {
        match f.status {
            Status::Fails => self.fails += 1,
            Status::HoldsWithinInterval => self.within += 1,
            Status::Holds => {}
        }
    }

    pub fn failed(&self) -> bool {
        self.fails > 0
    }

    /// Findings counted but not kept.
    pub fn more(&self) -> usize {
        let counted = self.fails + self.within;
        counted.saturating_sub(self.findings.len())
    }

    /// The kept failures (of [`Verdict::fails`]).
    pub fn failures(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.status == Status::Fails)
    }

    pub fn within_interval(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.status == Status::HoldsWithinInterval)
    }
}

/// A metric's value at one config, with the interval that bounds it.
#[derive(Clone, Copy, Debug)]
struct Point {
    v: f64,
    lo: f64,
    hi: f64,
    mc: bool,
}

fn point(c: &ConfigResult, metric: &str) -> Option<Point> {
    // Prefer the exact answer when a config has both.
    let run = c
        .runs
        .iter()
        .find(|r| r.method == Method::Exact)
        .or_else(|| c.runs.first())?;
    let m = run.metric(metric)?;
    let (lo, hi) = m.interval.unwrap_or((m.value, m.value));
    Some(Point {
        v: m.value,
        lo,
        hi,
        mc: run.method == Method::MonteCarlo,
    })
}

fn fmt(p: Point) -> String {
    if p.mc {
        format!("{:.4} [{:.4}, {:.4}]", p.v, p.lo, p.hi)
    } else {
        format!("{:.6}", p.v)
    }
}

/// `a = 1, b = full` for the swept values of `c`, leaving out `skip`.
pub fn describe(results: &Results, c: &ConfigResult, skip: Option<&str>) -> String {
    describe_in(&results.swept, c, skip)
}

/// [`describe`], the swept paths named by `names`.
fn describe_in(names: &[String], c: &ConfigResult, skip: Option<&str>) -> String {
    let parts: Vec<String> = names
        .iter()
        .zip(&c.swept)
        .filter(|(p, _)| Some(p.as_str()) != skip)
        .map(|(p, v)| format!("{p} = {v}"))
        .collect();
    if parts.is_empty() {
        "(the only config)".into()
    } else {
        parts.join(", ")
    }
}

fn value_of<'a>(results: &Results, c: &'a ConfigResult, path: &str) -> Option<&'a ParamValue> {
    results
        .swept
        .iter()
        .position(|p| p == path)
        .map(|i| &c.swept[i])
}

pub(super) fn matches(
    results: &Results,
    c: &ConfigResult,
    filter: &[(String, ParamValue)],
) -> bool {
    filter
        .iter()
        .all(|(path, v)| value_of(results, c, path) == Some(v))
}

/// The lower and upper bound of a bound rule (`between`, `at_least`,
/// `at_most`); `None` for a rule along an axis.
fn bounds(rule: &Rule) -> Option<(f64, f64)> {
    match *rule {
        Rule::Between(a, b) => Some((a, b)),
        Rule::AtLeast(a) => Some((a, f64::INFINITY)),
        Rule::AtMost(b) => Some((f64::NEG_INFINITY, b)),
        Rule::Monotonic { .. } | Rule::MaxStep { .. } => None,
    }
}

/// Config `c` held to bound rule `e`: `None` when it has no value of the
/// metric (not checked), else the finding, if any.
fn bound_check(e: &Expectation, names: &[String], c: &ConfigResult) -> Option<Option<Finding>> {
    let (a, b) = bounds(&e.rule)?;
    let p = point(c, &e.metric)?;
    let outside = p.v < a - EPS || p.v > b + EPS;
    if !outside {
        return Some(None);
    }
    let status = if p.hi < a - EPS || p.lo > b + EPS {
        Status::Fails
    } else {
        Status::HoldsWithinInterval
    };
    Some(Some(Finding {
        status,
        config: describe_in(names, c, None),
        configs: vec![c.index],
        value: fmt(p),
        bound: e.describe(),
    }))
}

/// Neighbours along an axis rule's `along` (values `a` then `b`, points
/// `p` then `q`, in the group every other swept value of which `key`
/// describes) held to it: the finding, if any.
fn pair_check(
    e: &Expectation,
    key: &str,
    (p, a, i): (Point, &ParamValue, usize),
    (q, b, j): (Point, &ParamValue, usize),
) -> Option<Finding> {
    let (bad, fails) = match e.rule {
        Rule::Monotonic { increasing, .. } => {
            // A rise where it must not rise (or a fall where it must not fall).
            let (up, up_surely) = if increasing {
                (p.v - q.v, p.lo - q.hi)
            } else {
                (q.v - p.v, q.lo - p.hi)
            };
            (up > EPS, up_surely > EPS)
        }
        Rule::MaxStep { step, .. } => {
            let jump = (q.v - p.v).abs();
            let surely = (q.lo - p.hi).max(p.lo - q.hi);
            (jump > step + EPS, surely > step + EPS)
        }
        Rule::Between(..) | Rule::AtLeast(_) | Rule::AtMost(_) => return None,
    };
    let along = match &e.rule {
        Rule::Monotonic { along, .. } | Rule::MaxStep { along, .. } => along,
        _ => return None,
    };
    bad.then(|| Finding {
        status: if fails {
            Status::Fails
        } else {
            Status::HoldsWithinInterval
        },
        config: format!(
            "{along} {a} → {b}{}",
            if key.starts_with('(') {
                String::new()
            } else {
                format!(" where {key}")
            }
        ),
        configs: vec![i, j],
        value: format!("{} → {}", fmt(p), fmt(q)),
        bound: e.describe(),
    })
}

/// Evaluate every assertion.
pub fn evaluate(results: &Results, expectations: &[Expectation]) -> Vec<Verdict> {
    expectations
        .iter()
        .map(|e| evaluate_one(results, e))
        .collect()
}

fn evaluate_one(results: &Results, e: &Expectation) -> Verdict {
    let configs: Vec<&ConfigResult> = results
        .configs
        .iter()
        .filter(|c| matches(results, c, &e.filter))
        .collect();
    let mut findings = Vec::new();
    let mut checked = 0;
    match &e.rule {
        Rule::Between(..) | Rule::AtLeast(_) | Rule::AtMost(_) => {
            for c in configs {
                if let Some(found) = bound_check(e, &results.swept, c) {
                    checked += 1;
                    findings.extend(found);
                }
            }
        }
        Rule::Monotonic { along, .. } | Rule::MaxStep { along, .. } => {
            // Neighbours along `along`, every other swept value held: configs
            // are in sweep order, so each group is already in axis order.
            let mut groups: Vec<(String, Vec<&ConfigResult>)> = Vec::new();
            for c in configs {
                let key = describe(results, c, Some(along));
                match groups.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, g)) => g.push(c),
                    None => groups.push((key, vec![c])),
                }
            }
            for (key, group) in groups {
                for pair in group.windows(2) {
                    let (Some(p), Some(q)) = (point(pair[0], &e.metric), point(pair[1], &e.metric))
                    else {
                        continue;
                    };
                    checked += 1;
                    let (a, b) = (
                        value_of(results, pair[0], along).unwrap(),
                        value_of(results, pair[1], along).unwrap(),
                    );
                    findings.extend(pair_check(
                        e,
                        &key,
                        (p, a, pair[0].index),
                        (q, b, pair[1].index),
                    ));
                }
            }
        }
    }
    Verdict::new(e.clone(), checked, findings)
}

mod stream;
pub use stream::Checker;
