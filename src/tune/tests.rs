//! The search on made-up metrics, where the right answer is known by
//! construction.

use std::collections::BTreeMap;

use super::search::*;
use crate::scenario::{Also, Target};

/// An evaluator of `f`, exact, counting the positions it is asked for.
fn exact(f: impl Fn(usize) -> f64) -> impl FnMut(&[usize], Pass) -> Result<Vec<Point>, ()> {
    move |ks, _| {
        Ok(ks
            .iter()
            .map(|&k| Point {
                metric: Estimate::exact(f(k)),
                also: Vec::new(),
            })
            .collect())
    }
}

/// A Monte Carlo estimate of `v` with standard error `se` (no noise: the
/// tests choose the values).
fn mc(v: f64, se: f64) -> Point {
    Point {
        metric: Estimate {
            value: v,
            se: Some(se),
            interval: Some((v - 1.96 * se, v + 1.96 * se)),
        },
        also: Vec::new(),
    }
}

fn goal(target: Target) -> Goal {
    Goal {
        target,
        also: Vec::new(),
    }
}

fn run(n: usize, goal: &Goal, options: SearchOptions, eval: &mut Evaluate<'_, ()>) -> Found {
    search(n, goal, options, BTreeMap::new(), eval).unwrap()
}

/// A smooth rising metric with a little deterministic wobble, standing in
/// for a Monte Carlo estimate (se 0.002).
fn logistic(k: usize) -> f64 {
    let wobble = ((k * 7919) % 13) as f64 / 13.0 * 0.001;
    1.0 / (1.0 + (-(k as f64 - 23.3) / 6.0).exp()) + wobble
}

#[test]
fn exact_ties_go_to_the_lower_knob() {
    // 0.25 and 0.5 are both 0.125 from 0.375.
    let mut eval = exact(|k| k as f64 * 0.25);
    let found = run(
        4,
        &goal(Target::Nearest(0.375)),
        SearchOptions::default(),
        &mut eval,
    );
    assert_eq!(found.knob, Some(1));
    assert_eq!(found.method, Method::Exact);
    assert_eq!(found.points.len(), 4, "exact evaluates the whole range");
    assert!(found.ambiguous_with.is_empty());
}

#[test]
fn at_least_and_at_most_pick_the_side_the_metric_runs_to() {
    fn rising(k: usize) -> f64 {
        k as f64 / 8.0
    }
    fn falling(k: usize) -> f64 {
        1.0 - k as f64 / 8.0
    }
    type Metric = fn(usize) -> f64;
    let cases: [(Metric, Target, usize); 5] = [
        // (metric, target, expected knob)
        (rising, Target::AtLeast(0.3), 3), // 0.375 ≥ 0.3; 0.25 is not
        (rising, Target::AtMost(0.3), 2),  // 0.25 ≤ 0.3; 0.375 is not
        (falling, Target::AtLeast(0.3), 5), // 0.375 at 5; 0.25 at 6
        (falling, Target::AtMost(0.3), 6),
        (rising, Target::Nearest(0.3), 2), // 0.25 is nearer than 0.375
    ];
    for (f, target, want) in cases {
        let mut eval = exact(f);
        let found = run(9, &goal(target), SearchOptions::default(), &mut eval);
        assert_eq!(found.knob, Some(want), "{target:?}");
    }
    // Nothing meets an impossible bound.
    let mut eval = exact(rising);
    let found = run(
        9,
        &goal(Target::AtLeast(1.5)),
        SearchOptions::default(),
        &mut eval,
    );
    assert_eq!(found.knob, None);
}

#[test]
fn also_bounds_exclude_values() {
    // Nearest 0.5 would be 4; `also` (the knob's square / 64) at most 0.2
    // rules out 4 (0.25) and leaves 3.
    let mut eval = |ks: &[usize], _: Pass| -> Result<Vec<Point>, ()> {
        Ok(ks
            .iter()
            .map(|&k| Point {
                metric: Estimate::exact(k as f64 / 8.0),
                also: vec![Estimate::exact((k * k) as f64 / 64.0)],
            })
            .collect())
    };
    let g = Goal {
        target: Target::Nearest(0.5),
        also: vec![Also {
            metric: "m".into(),
            bound: Target::AtMost(0.2),
        }],
    };
    let found = run(9, &g, SearchOptions::default(), &mut eval);
    assert_eq!(found.knob, Some(3));
}

#[test]
fn monte_carlo_bisection_and_full_scan_agree() {
    let n = 48;
    for target in [0.1, 0.33, 0.5, 0.61, 0.9, 0.0, 1.0] {
        for g in [
            goal(Target::Nearest(target)),
            goal(Target::AtLeast(target)),
            goal(Target::AtMost(target)),
        ] {
            let mut asked = 0;
            let mut eval = |ks: &[usize], _: Pass| -> Result<Vec<Point>, ()> {
                asked += ks.len();
                Ok(ks.iter().map(|&k| mc(logistic(k), 0.002)).collect())
            };
            let bisected = run(n, &g, SearchOptions::default(), &mut eval);
            let bisected_asked = asked;
            let mut eval = |ks: &[usize], _: Pass| -> Result<Vec<Point>, ()> {
                Ok(ks.iter().map(|&k| mc(logistic(k), 0.002)).collect())
            };
            let scanned = run(
                n,
                &g,
                SearchOptions {
                    scan: true,
                    refine: false,
                },
                &mut eval,
            );
            assert_eq!(bisected.method, Method::Bisection, "{g:?}");
            assert_eq!(scanned.method, Method::Scan);
            assert_eq!(bisected.knob, scanned.knob, "{g:?}");
            assert!(
                bisected_asked < n / 2,
                "bisection asked for {bisected_asked} of {n} values"
            );
        }
    }
}

#[test]
fn a_metric_that_reverses_is_detected_and_scanned() {
    // Rises to 0.9 at 10, then falls to 0.3 at 20: the ends differ, so
    // bisection starts, and the first neighbour it evaluates (19, beside
    // the end) shows the fall.
    let hump = |k: usize| {
        if k <= 10 {
            0.1 + 0.08 * k as f64
        } else {
            0.9 - 0.06 * (k - 10) as f64
        }
    };
    let mut eval = |ks: &[usize], _: Pass| -> Result<Vec<Point>, ()> {
        Ok(ks.iter().map(|&k| mc(hump(k), 0.001)).collect())
    };
    let found = run(
        21,
        &goal(Target::Nearest(0.81)),
        SearchOptions::default(),
        &mut eval,
    );
    assert_eq!(found.method, Method::Scan);
    assert!(!found.monotone);
    assert_eq!(found.points.len(), 21, "the whole range is evaluated");
    // 0.1 + 0.08 × 9 = 0.82 (at 9) is nearest 0.81; bisection between
    // the ends (0.1 and 0.3) would have looked for it at the top end.
    assert_eq!(found.knob, Some(9));
}

#[test]
fn candidates_that_cannot_be_told_apart_are_both_reported() {
    // 0.49 and 0.51 around a target of 0.5, each ± 0.01: either could be
    // nearer. Precision mode does not help (it returns the same).
    let f = |k: usize| 0.3 + 0.02 * k as f64;
    let mut eval = |ks: &[usize], _: Pass| -> Result<Vec<Point>, ()> {
        Ok(ks.iter().map(|&k| mc(f(k), 0.01)).collect())
    };
    let found = run(
        21,
        &goal(Target::Nearest(0.5)),
        SearchOptions {
            scan: true,
            refine: true,
        },
        &mut eval,
    );
    // 0.3 + 0.02 × 10 = 0.5 exactly at 10: its neighbours 0.48 and 0.52
    // are 0.02 away, within 1.96 × √2 × 0.01 = 0.028.
    assert_eq!(found.knob, Some(10));
    assert_eq!(found.ambiguous_with, vec![9, 11]);

    // With precision mode shrinking the errors, the answer is clear.
    let mut eval = |ks: &[usize], pass: Pass| -> Result<Vec<Point>, ()> {
        let se = match pass {
            Pass::Plain => 0.01,
            Pass::Precise => 0.001,
        };
        Ok(ks.iter().map(|&k| mc(f(k), se)).collect())
    };
    let found = run(
        21,
        &goal(Target::Nearest(0.5)),
        SearchOptions {
            scan: false,
            refine: true,
        },
        &mut eval,
    );
    assert_eq!(found.knob, Some(10));
    assert!(found.ambiguous_with.is_empty());
}

#[test]
fn a_bound_straddled_by_the_interval_is_ambiguous() {
    // At least 0.5: 0.505 ± 0.0196 may miss it, and then the next value
    // up (0.545) would be the answer.
    let f = |k: usize| 0.425 + 0.04 * k as f64;
    let mut eval = |ks: &[usize], _: Pass| -> Result<Vec<Point>, ()> {
        Ok(ks.iter().map(|&k| mc(f(k), 0.01)).collect())
    };
    let found = run(
        12,
        &goal(Target::AtLeast(0.5)),
        SearchOptions {
            scan: true,
            refine: true,
        },
        &mut eval,
    );
    assert_eq!(found.knob, Some(2)); // 0.505
    assert!(
        found.ambiguous_with.contains(&3),
        "{:?}",
        found.ambiguous_with
    );
}
