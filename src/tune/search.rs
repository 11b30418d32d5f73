//! The search along one row's knob: which knob values to evaluate, and
//! which one answers. It sees the knob only as positions `0..n` and the
//! metric only as the [`Point`]s an evaluator returns, so it is tested
//! with made-up metrics as easily as with a mechanic.
//!
//! - Exact numbers: every position is evaluated (cheap), and the true
//!   answer is taken; ties go to the lower position.
//! - Monte Carlo: bisection when the metric is monotone along the knob,
//!   checked (not assumed) on the two ends, each probe and each probe's
//!   neighbours; at the first reversal larger than the noise, or when the
//!   ends cannot be told apart, every position is evaluated instead. The
//!   candidates are then refined (precision mode), and two that still
//!   cannot be told apart are both reported.

use std::collections::BTreeMap;

use crate::scenario::{Also, Target};

/// Standard errors a reversal must exceed to count as one.
pub const REVERSAL_Z: f64 = 3.0;
/// Standard errors within which two candidates cannot be told apart
/// (a 95% interval).
pub const AMBIGUITY_Z: f64 = 1.96;

/// One metric's value at one knob value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub value: f64,
    /// Standard error (Monte Carlo only).
    pub se: Option<f64>,
    /// 95% interval (Monte Carlo only).
    pub interval: Option<(f64, f64)>,
}

impl Estimate {
    /// An exact value.
    pub fn exact(value: f64) -> Estimate {
        Estimate {
            value,
            se: None,
            interval: None,
        }
    }

    fn se(&self) -> f64 {
        self.se.unwrap_or(0.0)
    }

    fn lo(&self) -> f64 {
        self.interval.map_or(self.value, |i| i.0)
    }

    fn hi(&self) -> f64 {
        self.interval.map_or(self.value, |i| i.1)
    }
}

/// What is known at one knob value: the tuned metric, then each
/// `[[tune.also]]` metric in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub metric: Estimate,
    pub also: Vec<Estimate>,
}

impl Point {
    fn is_exact(&self) -> bool {
        self.metric.se.is_none()
    }
}

/// How a row's answer was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Every knob value, exact numbers.
    Exact,
    /// Monte Carlo, by bisection along a metric checked to be monotone.
    Bisection,
    /// Monte Carlo, every knob value.
    Scan,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Exact => "exact",
            Method::Bisection => "bisection",
            Method::Scan => "scan",
        }
    }
}

/// What to look for.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    pub target: Target,
    pub also: Vec<Also>,
}

/// How an evaluation is to be run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// The run's own trials.
    Plain,
    /// Precision mode, for the final candidates.
    Precise,
}

/// One row's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The position found; `None` when no value meets the target and the
    /// `[[tune.also]]` bounds.
    pub knob: Option<usize>,
    /// Other positions that cannot be told apart from `knob` at the
    /// precision reached (Monte Carlo only).
    pub ambiguous_with: Vec<usize>,
    pub method: Method,
    /// Whether the evaluated values never reverse along the knob (beyond
    /// the noise).
    pub monotone: bool,
    /// Every position evaluated, with its latest numbers.
    pub points: BTreeMap<usize, Point>,
}

/// Evaluates knob positions; results come back in the order asked.
pub type Evaluate<'a, E> = dyn FnMut(&[usize], Pass) -> Result<Vec<Point>, E> + 'a;

/// Options of the search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchOptions {
    /// Scan every value even where bisection would do (to compare them).
    pub scan: bool,
    /// Refine the candidates in precision mode (Monte Carlo).
    pub refine: bool,
}

/// Search positions `0..n` for the one that best meets `goal`. `known`
/// holds positions evaluated already (exact grids are evaluated whole, in
/// one parallel pass, before any row is searched).
pub fn search<E>(
    n: usize,
    goal: &Goal,
    options: SearchOptions,
    known: BTreeMap<usize, Point>,
    eval: &mut Evaluate<'_, E>,
) -> Result<Found, E> {
    assert!(n > 0, "a knob walks at least one value");
    let mut points = known;
    // The ends say whether the numbers are exact, and which way the
    // metric runs.
    ask(n, &mut points, &[0, n - 1], eval)?;
    let exact = points.values().all(Point::is_exact);
    let all: Vec<usize> = (0..n).collect();
    let method = if exact {
        ask(n, &mut points, &all, eval)?;
        Method::Exact
    } else if options.scan || !goal.also.is_empty() || n <= 3 {
        ask(n, &mut points, &all, eval)?;
        Method::Scan
    } else if bisect(n, goal.target.value(), &mut points, eval)? {
        Method::Bisection
    } else {
        ask(n, &mut points, &all, eval)?;
        Method::Scan
    };
    let monotone = direction(&points).is_some();
    let Some(best) = choose(goal, &points, points.keys().copied()) else {
        return Ok(Found {
            knob: None,
            ambiguous_with: Vec::new(),
            method,
            monotone,
            points,
        });
    };
    if exact {
        return Ok(Found {
            knob: Some(best),
            ambiguous_with: Vec::new(),
            method,
            monotone,
            points,
        });
    }
    // The candidates: the best, its neighbours (the step size around it),
    // and the runner-up anywhere.
    let mut candidates: Vec<usize> = [best.checked_sub(1), Some(best), Some(best + 1)]
        .into_iter()
        .flatten()
        .filter(|i| *i < n)
        .collect();
    if let Some(second) = choose(
        goal,
        &points,
        points.keys().copied().filter(|i| !candidates.contains(i)),
    ) {
        candidates.push(second);
    }
    candidates.sort_unstable();
    ask(n, &mut points, &candidates, eval)?;
    if options.refine {
        for (i, p) in candidates.iter().zip(eval(&candidates, Pass::Precise)?) {
            points.insert(*i, p);
        }
    }
    let best = choose(goal, &points, candidates.iter().copied()).unwrap_or(best);
    let ambiguous_with = candidates
        .iter()
        .copied()
        .filter(|&x| x != best && indistinguishable(goal, &points[&best], &points[&x]))
        .collect();
    Ok(Found {
        knob: Some(best),
        ambiguous_with,
        method,
        monotone,
        points,
    })
}

/// Evaluate the positions of `want` not known yet (and inside `0..n`).
fn ask<E>(
    n: usize,
    points: &mut BTreeMap<usize, Point>,
    want: &[usize],
    eval: &mut Evaluate<'_, E>,
) -> Result<(), E> {
    let mut missing: Vec<usize> = want
        .iter()
        .copied()
        .filter(|i| *i < n && !points.contains_key(i))
        .collect();
    missing.sort_unstable();
    missing.dedup();
    if !missing.is_empty() {
        for (i, p) in missing.iter().zip(eval(&missing, Pass::Plain)?) {
            points.insert(*i, p);
        }
    }
    Ok(())
}

/// Bisect for the crossing of `t`, checking monotony on every probe and
/// its neighbours. `false` when the metric is not shown monotone (the
/// caller then scans).
fn bisect<E>(
    n: usize,
    t: f64,
    points: &mut BTreeMap<usize, Point>,
    eval: &mut Evaluate<'_, E>,
) -> Result<bool, E> {
    let Some(dir) = direction(points) else {
        return Ok(false);
    };
    if dir == 0.0 {
        return Ok(false);
    }
    let side = |p: &Point| (p.metric.value - t) * dir;
    let (mut lo, mut hi) = (0, n - 1);
    if side(&points[&lo]) >= 0.0 {
        // Already past the target at the low end: the answer is near it.
        ask(n, points, &[1], eval)?;
        return Ok(direction(points) == Some(dir));
    }
    if side(&points[&hi]) <= 0.0 {
        ask(n, points, &[n - 2], eval)?;
        return Ok(direction(points) == Some(dir));
    }
    while hi - lo > 1 {
        let m = lo + (hi - lo) / 2;
        ask(n, points, &[m - 1, m, m + 1], eval)?;
        if direction(points) != Some(dir) {
            return Ok(false);
        }
        if side(&points[&m]) <= 0.0 {
            lo = m;
        } else {
            hi = m;
        }
    }
    Ok(true)
}

/// The direction the evaluated points run in (+1 rising, −1 falling, 0
/// flat), or `None` when they reverse by more than the noise. The ends
/// must be told apart for a direction other than 0.
fn direction(points: &BTreeMap<usize, Point>) -> Option<f64> {
    let (first, last) = (points.values().next()?, points.values().next_back()?);
    let gap = last.metric.value - first.metric.value;
    let noise = REVERSAL_Z * first.metric.se().hypot(last.metric.se());
    let dir = if gap.abs() <= noise.max(1e-12) {
        0.0
    } else {
        gap.signum()
    };
    let values: Vec<&Estimate> = points.values().map(|p| &p.metric).collect();
    for w in values.windows(2) {
        let step = w[1].value - w[0].value;
        let noise = (REVERSAL_Z * w[0].se().hypot(w[1].se())).max(1e-12);
        let reverses = if dir == 0.0 {
            step.abs() > noise
        } else {
            step * dir < -noise
        };
        if reverses {
            return None;
        }
    }
    Some(dir)
}

/// Whether `p` meets the target and every `[[tune.also]]` bound (by its
/// estimates).
fn meets(goal: &Goal, p: &Point) -> bool {
    goal.target.meets(p.metric.value)
        && goal
            .also
            .iter()
            .zip(&p.also)
            .all(|(a, e)| a.bound.meets(e.value))
}

/// Distances to the target closer than this are a tie: exact answers are
/// sums of products of floats, so two values the same distance from the
/// target in exact arithmetic (0.525 and 0.475 from one half) may differ
/// in their last bits, and that noise must not pick the answer.
pub const TIE: f64 = 1e-12;

/// The position among `among` that meets the goal nearest its target;
/// ties (distances within [`TIE`]) go to the lower position.
pub fn choose(
    goal: &Goal,
    points: &BTreeMap<usize, Point>,
    among: impl Iterator<Item = usize>,
) -> Option<usize> {
    let t = goal.target.value();
    let mut best: Option<(usize, f64)> = None;
    for i in among {
        let p = &points[&i];
        if !meets(goal, p) {
            continue;
        }
        let d = (p.metric.value - t).abs();
        let worse = |bd: f64, b: usize| d > bd + TIE || ((d - bd).abs() <= TIE && i > b);
        match best {
            Some((b, bd)) if worse(bd, b) => {}
            _ => best = Some((i, d)),
        }
    }
    best.map(|(i, _)| i)
}

/// Whether the choice of `a` over `x` could be reversed within the
/// 95% intervals of their estimates.
fn indistinguishable(goal: &Goal, a: &Point, x: &Point) -> bool {
    let t = goal.target.value();
    let (ea, ex) = (&a.metric, &x.metric);
    let closer =
        (ex.value - t).abs() - (ea.value - t).abs() <= AMBIGUITY_Z * ea.se().hypot(ex.se());
    match goal.target {
        Target::Nearest(_) => closer,
        Target::AtLeast(b) => {
            let x_may_meet = ex.hi() >= b;
            let a_surely_meets = ea.lo() >= b;
            x_may_meet && (!a_surely_meets || closer)
        }
        Target::AtMost(b) => {
            let x_may_meet = ex.lo() <= b;
            let a_surely_meets = ea.hi() <= b;
            x_may_meet && (!a_surely_meets || closer)
        }
    }
}
