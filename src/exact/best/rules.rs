//! The best policy as rules a designer reads: the decisions best play
//! makes, by what the deciding side sees, merged into boxes ("ladder
//! 4..=10 and edge ≥ 0: edge r1") wherever neighbouring situations take
//! the same option.
//!
//! A situation (one value per feature) may stand for several states
//! the side cannot tell apart (its opponent's free raise, the dice left
//! in a pool …); where best play takes different options in them, the
//! situation's rule is the option it takes most often, and
//! [`Box::agree`] says how much of the time that is.

use std::collections::BTreeMap;

use super::Decision;

/// One rule: every situation whose features lie in `ranges`, one range
/// per feature (inclusive), takes `option`.
#[derive(Clone, Debug, PartialEq)]
pub struct Box {
    pub ranges: Vec<(i64, i64)>,
    pub option: usize,
    /// Expected visits per trial under best play.
    pub visits: f64,
    /// The share of those visits where best play takes `option` (1 when
    /// the features tell every state apart that matters).
    pub agree: f64,
}

/// Group `decisions` into rules over `features` features, most visited
/// first.
pub fn group(decisions: &[Decision], features: usize) -> Vec<Box> {
    // The option each situation takes most, and its visits.
    let mut by: BTreeMap<&[i64], Vec<(usize, f64)>> = BTreeMap::new();
    for d in decisions {
        by.entry(&d.features[..])
            .or_default()
            .push((d.option, d.visits));
    }
    let mut boxes: Vec<Box> = by
        .iter()
        .map(|(f, opts)| {
            let total: f64 = opts.iter().map(|o| o.1).sum();
            let &(option, most) = opts
                .iter()
                .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
                .expect("a decision");
            Box {
                ranges: f.iter().map(|&v| (v, v)).collect(),
                option,
                visits: total,
                agree: most,
            }
        })
        .collect();
    // Values seen per feature: neighbours are next to each other here.
    let seen: Vec<Vec<i64>> = (0..features)
        .map(|d| {
            let mut v: Vec<i64> = by.keys().map(|f| f[d]).collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect();
    let next_of = |d: usize, hi: i64| -> Option<i64> {
        let i = seen[d].binary_search(&hi).ok()?;
        seen[d].get(i + 1).copied()
    };
    loop {
        let mut merged = false;
        for d in (0..features).rev() {
            boxes.sort_by(|a, b| {
                let key = |x: &Box| {
                    let mut k: Vec<(i64, i64)> = x.ranges.clone();
                    k.remove(d);
                    (x.option, k, x.ranges[d])
                };
                key(a).cmp(&key(b))
            });
            let mut out: Vec<Box> = Vec::with_capacity(boxes.len());
            for b in boxes.drain(..) {
                if let Some(last) = out.last_mut() {
                    let same_rest = last.option == b.option
                        && (0..features).all(|e| e == d || last.ranges[e] == b.ranges[e]);
                    if same_rest && next_of(d, last.ranges[d].1) == Some(b.ranges[d].0) {
                        last.ranges[d].1 = b.ranges[d].1;
                        last.visits += b.visits;
                        last.agree += b.agree;
                        merged = true;
                        continue;
                    }
                }
                out.push(b);
            }
            boxes = out;
        }
        if !merged {
            break;
        }
    }
    for b in &mut boxes {
        b.agree /= b.visits.max(f64::MIN_POSITIVE);
    }
    boxes.sort_by(|a, b| b.visits.total_cmp(&a.visits).then(a.ranges.cmp(&b.ranges)));
    boxes
}

/// A box's condition in words: each feature that does not span every
/// value seen, as `name = v`, `name ≥ lo`, `name ≤ hi` or `name lo..=hi`
/// (a name ending in `?` is yes/no); "always" when none is left.
pub fn condition(b: &Box, names: &[&str], seen: &[(i64, i64)]) -> String {
    let mut parts = Vec::new();
    for ((name, &(lo, hi)), &(min, max)) in names.iter().zip(&b.ranges).zip(seen) {
        if lo <= min && hi >= max {
            continue;
        }
        let part = if let Some(flag) = name.strip_suffix('?') {
            match (lo, hi) {
                (1, 1) => flag.to_string(),
                (0, 0) => format!("not {flag}"),
                _ => continue,
            }
        } else if lo == hi {
            format!("{name} = {lo}")
        } else if hi >= max {
            format!("{name} ≥ {lo}")
        } else if lo <= min {
            format!("{name} ≤ {hi}")
        } else {
            format!("{name} {lo}..={hi}")
        };
        parts.push(part);
    }
    if parts.is_empty() {
        "always".into()
    } else {
        parts.join(" and ")
    }
}

/// Each rule's ranges widened as far as they go without meeting a rule of
/// another option, feature by feature in `order` (the whole span first,
/// then one side): for a policy language that takes the first rule that
/// holds, fewer conditions and the same choice in every situation a rule
/// stands for. Every rule is checked against the others as given, so a
/// situation of another option's rule never matches a widened one.
pub fn widen<O: PartialEq>(
    rules: &[(Vec<(i64, i64)>, O)],
    spans: &[(i64, i64)],
    order: &[usize],
) -> Vec<Vec<(i64, i64)>> {
    let meets =
        |a: &[(i64, i64)], b: &[(i64, i64)]| a.iter().zip(b).all(|(x, y)| x.0 <= y.1 && y.0 <= x.1);
    rules
        .iter()
        .map(|(ranges, option)| {
            let mut r = ranges.clone();
            let free = |r: &[(i64, i64)]| {
                rules
                    .iter()
                    .all(|(other, o)| o == option || !meets(r, other))
            };
            for &d in order {
                let (lo, hi) = r[d];
                for tried in [spans[d], (spans[d].0, hi), (lo, spans[d].1)] {
                    r[d] = tried;
                    if free(&r) {
                        break;
                    }
                    r[d] = (lo, hi);
                }
            }
            r
        })
        .collect()
}

/// Each feature's least and greatest value over `decisions`.
pub fn spans(decisions: &[Decision], features: usize) -> Vec<(i64, i64)> {
    (0..features)
        .map(|d| {
            let vals = decisions.iter().map(|x| x.features[d]);
            (vals.clone().min().unwrap_or(0), vals.max().unwrap_or(0))
        })
        .collect()
}

/// Each feature's least and greatest value over `rules`' ranges (what a
/// mechanic's writer sees of the situations best play meets).
pub fn spans_of<O>(rules: &[(Vec<(i64, i64)>, O)]) -> Vec<(i64, i64)> {
    let features = rules.first().map_or(0, |r| r.0.len());
    (0..features)
        .map(|d| {
            let lo = rules.iter().map(|r| r.0[d].0).min().unwrap_or(0);
            let hi = rules.iter().map(|r| r.0[d].1).max().unwrap_or(0);
            (lo, hi)
        })
        .collect()
}

/// Widened rules ([`widen`]) without those another rule of the same
/// option already covers (two alike keep the first): a widened rule never
/// meets a situation of another option, so one that holds inside a
/// bigger one of its own option adds nothing, wherever it stands.
pub fn prune<O: PartialEq>(rules: Vec<(Vec<(i64, i64)>, O)>) -> Vec<(Vec<(i64, i64)>, O)> {
    let within =
        |a: &[(i64, i64)], b: &[(i64, i64)]| a.iter().zip(b).all(|(x, y)| y.0 <= x.0 && x.1 <= y.1);
    let keep: Vec<bool> = (0..rules.len())
        .map(|i| {
            !rules.iter().enumerate().any(|(j, other)| {
                j != i
                    && other.1 == rules[i].1
                    && within(&rules[i].0, &other.0)
                    && (other.0 != rules[i].0 || j < i)
            })
        })
        .collect();
    rules
        .into_iter()
        .zip(keep)
        .filter_map(|(r, k)| k.then_some(r))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(f: &[i64], option: usize, visits: f64) -> Decision {
        Decision {
            features: f.to_vec(),
            option,
            visits,
        }
    }

    #[test]
    fn neighbours_with_one_option_merge() {
        // ladder 0..=3 × edge 0..=1: option 1 where ladder ≤ 1, else 0.
        let mut rows = Vec::new();
        for ladder in 0..=3 {
            for edge in 0..=1 {
                rows.push(d(&[ladder, edge], usize::from(ladder <= 1), 0.125));
            }
        }
        let boxes = group(&rows, 2);
        assert_eq!(boxes.len(), 2, "{boxes:?}");
        let names = ["ladder", "edge"];
        let seen = spans(&rows, 2);
        let words: Vec<String> = boxes
            .iter()
            .map(|b| format!("{}: {}", condition(b, &names, &seen), b.option))
            .collect();
        assert!(words.contains(&"ladder ≤ 1: 1".to_string()), "{words:?}");
        assert!(words.contains(&"ladder ≥ 2: 0".to_string()), "{words:?}");
        assert!(boxes.iter().all(|b| (b.agree - 1.0).abs() < 1e-12));
        assert!((boxes.iter().map(|b| b.visits).sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn widened_rules_keep_every_situation_s_option() {
        // ladder 0..=3 × round 1..=4, ladder = 4 - round: option 1 at
        // ladder ≤ 1. Round adds nothing once ladder says it all.
        let rows: Vec<Decision> = (1..=4)
            .map(|round| d(&[4 - round, round], usize::from(4 - round <= 1), 0.25))
            .collect();
        let boxes = group(&rows, 2);
        let rules: Vec<(Vec<(i64, i64)>, usize)> =
            boxes.iter().map(|b| (b.ranges.clone(), b.option)).collect();
        let seen = spans(&rows, 2);
        let wide = widen(&rules, &seen, &[1, 0]);
        for (w, (_, o)) in wide.iter().zip(&rules) {
            assert_eq!(w[1], seen[1], "round is dropped");
            for row in &rows {
                let inside = row
                    .features
                    .iter()
                    .zip(w)
                    .all(|(x, r)| r.0 <= *x && *x <= r.1);
                assert!(!inside || row.option == *o, "{w:?} takes {row:?}");
            }
        }
    }

    #[test]
    fn a_split_situation_takes_its_commoner_option() {
        let rows = [d(&[0], 0, 0.25), d(&[0], 1, 0.75)];
        let boxes = group(&rows, 1);
        assert_eq!(boxes.len(), 1);
        assert_eq!(boxes[0].option, 1);
        assert!((boxes[0].agree - 0.75).abs() < 1e-12);
        assert_eq!(
            condition(&boxes[0], &["holds?"], &spans(&rows, 1)),
            "always"
        );
    }
}
