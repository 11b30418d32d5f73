//! The `[[expect]]` assertions checked as a run streams, config by config
//! in sweep order, so a sweep's size costs its checks no memory: a bound
//! (`between`, `at_least`, `at_most`) is held to each config as it comes;
//! a rule along an axis (`monotonic`, `max_step`) keeps only the last
//! slice across that axis (one point per config between two neighbours
//! along it) to pair each config with the one before it. The verdicts are
//! those [`evaluate`](super::evaluate) gives for the whole run at once
//! (a test holds them equal).

use super::{
    Finding, KEPT_FINDINGS, Point, Status, Verdict, bound_check, describe_in, pair_check, point,
};
use crate::report::grid::Grid;
use crate::results::ConfigResult;
use crate::scenario::{Expectation, Rule};

/// Every assertion of a run, fed its configs in sweep order.
pub struct Checker {
    grid: Grid,
    checks: Vec<Check>,
    next: usize,
}

struct Check {
    e: Expectation,
    /// The `where` on the grid; `None` picks no config.
    filter: Option<Vec<(usize, usize)>>,
    along: Option<Along>,
    checked: usize,
    /// Findings with the order the whole-run evaluation lists them in:
    /// the first [`KEPT_FINDINGS`] of those so far, and up to as many
    /// more since the last cut.
    findings: Vec<((usize, usize), Finding)>,
    /// Findings so far, kept or not, by status.
    fails: usize,
    within: usize,
    /// Findings so far, to order those of one config.
    seen: usize,
}

impl Check {
    /// Note findings with their listing keys; past twice the kept number,
    /// cut back to the first [`KEPT_FINDINGS`] (those of a pair rule come
    /// out of listing order, so the cut sorts first).
    fn note(&mut self, found: impl IntoIterator<Item = ((usize, usize), Finding)>) {
        for (key, f) in found {
            match f.status {
                Status::Fails => self.fails += 1,
                Status::HoldsWithinInterval => self.within += 1,
                Status::Holds => {}
            }
            self.seen += 1;
            self.findings.push((key, f));
            if self.findings.len() >= 2 * KEPT_FINDINGS {
                self.cut();
            }
        }
    }

    fn cut(&mut self) {
        self.findings.sort_by_key(|(k, _)| *k);
        self.findings.truncate(KEPT_FINDINGS);
    }
}

/// A rule along axis `axis`: the last `stride` configs' points.
struct Along {
    axis: usize,
    stride: usize,
    ring: Vec<Option<Point>>,
}

impl Checker {
    /// A checker of `expectations` over the sweep `grid`.
    pub fn new(grid: Grid, expectations: &[Expectation]) -> Checker {
        let checks = expectations
            .iter()
            .map(|e| {
                let along = match &e.rule {
                    Rule::Monotonic { along, .. } | Rule::MaxStep { along, .. } => {
                        grid.names.iter().position(|p| p == along).map(|axis| {
                            let stride = grid.stride(axis);
                            Along {
                                axis,
                                stride,
                                ring: vec![None; stride],
                            }
                        })
                    }
                    Rule::Between(..) | Rule::AtLeast(_) | Rule::AtMost(_) => None,
                };
                Check {
                    filter: grid.filter(&e.filter),
                    e: e.clone(),
                    along,
                    checked: 0,
                    findings: Vec::new(),
                    fails: 0,
                    within: 0,
                    seen: 0,
                }
            })
            .collect();
        Checker {
            grid,
            checks,
            next: 0,
        }
    }

    /// Check the next config of the sweep.
    pub fn add(&mut self, c: &ConfigResult) {
        debug_assert_eq!(c.index, self.next, "configs come in sweep order");
        self.next += 1;
        let i = c.index;
        for check in &mut self.checks {
            let Some(filter) = &check.filter else {
                continue;
            };
            let matched = self.grid.holds(i, filter);
            match &mut check.along {
                None => {
                    if matched && let Some(found) = bound_check(&check.e, &self.grid.names, c) {
                        check.checked += 1;
                        let seen = check.seen;
                        check.note(
                            found
                                .into_iter()
                                .enumerate()
                                .map(|(k, f)| ((i, seen + k), f)),
                        );
                    }
                }
                Some(along) => {
                    let here = if matched {
                        point(c, &check.e.metric)
                    } else {
                        None
                    };
                    let slot = i % along.stride;
                    let at = self.grid.digit(i, along.axis);
                    let before = std::mem::replace(&mut along.ring[slot], here);
                    // The neighbour before along the axis, every other
                    // value held, when it too is picked out.
                    if !matched || at == 0 || !self.grid.holds(i - along.stride, filter) {
                        continue;
                    }
                    let (Some(p), Some(q)) = (before, here) else {
                        continue;
                    };
                    check.checked += 1;
                    let name = &self.grid.names[along.axis];
                    let key = describe_in(&self.grid.names, c, Some(name));
                    let values = &self.grid.values[along.axis];
                    let found = pair_check(
                        &check.e,
                        &key,
                        (p, &values[at - 1], i - along.stride),
                        (q, &values[at], i),
                    );
                    // Listed group by group (each group from its first
                    // config), along the axis within one.
                    let first = i - at * along.stride;
                    check.note(found.map(|f| ((first, i), f)));
                }
            }
        }
    }

    /// The verdicts, once every config is in.
    pub fn verdicts(self) -> Vec<Verdict> {
        self.checks
            .into_iter()
            .map(|mut c| {
                c.cut();
                Verdict {
                    expectation: c.e,
                    checked: c.checked,
                    findings: c.findings.into_iter().map(|(_, f)| f).collect(),
                    fails: c.fails,
                    within: c.within,
                }
            })
            .collect()
    }
}
