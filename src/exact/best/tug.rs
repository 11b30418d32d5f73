//! Both sides' best play against brute force: a small tug of war whose
//! sides move in turn, every pair of deterministic policies enumerated.

use std::fmt;

use super::check::{duel_graph_is_layered, duel_is_brute_force};
use super::*;
use crate::model::{After, Repeats};

/// A marker on a line from −3 (B wins) to +3 (A wins), from 0. Each
/// round A moves, then B. A mover's Safe step goes 1 its way half the
/// time (else nowhere); a Bold one goes 2 its way 40% of the time, else
/// 1 the other way; Rest (A's only) stays put (never better than Safe,
/// and listed last). A's given policy steps Safe, B's Bold (a worse
/// step on average: B's best play differs). Reaching an end ends the tug
/// (outcome +1 or −1); the round cap ends it in a draw (0).
struct Tug {
    cap: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Step {
    Safe,
    Bold,
    Rest,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// (marker, whose move: 0 A, 1 B)
type S = (i8, u8);

const STEPS: [Step; 3] = [Step::Safe, Step::Bold, Step::Rest];

impl Choose for Tug {
    type State = S;
    /// How far the marker moves, the mover's way.
    type Roll = i8;
    type Outcome = [i64; 1];
    type Option = Step;

    fn start(&self) -> S {
        (0, 0)
    }

    fn options(&self, _: usize, &(_, who): &S, out: &mut Vec<Step>) {
        if who == 0 {
            out.extend(STEPS);
        }
    }

    fn opposing(&self, _: usize, &(_, who): &S, out: &mut Vec<Step>) {
        if who == 1 {
            out.extend([Step::Safe, Step::Bold]);
        }
    }

    fn law(&self, _: usize, &(_, who): &S, o: Option<&Step>, out: &mut Vec<(i8, f64)>) {
        let given = if who == 0 { Step::Safe } else { Step::Bold };
        match o.copied().unwrap_or(given) {
            Step::Safe => out.extend([(1, 0.5), (0, 0.5)]),
            Step::Bold => out.extend([(2, 0.4), (-1, 0.6)]),
            Step::Rest => out.push((0, 1.0)),
        }
    }

    fn after(&self, round: usize, &(x, who): &S, &d: &i8) -> After<S, [i64; 1]> {
        let x = if who == 0 { x + d } else { x - d };
        if x.abs() >= 3 {
            return After::End([i64::from(x.signum())]);
        }
        match who {
            0 => After::Roll((x, 1)),
            _ if round >= self.cap => After::End([0]),
            _ => After::Round((x, 0)),
        }
    }

    fn feature_names(&self) -> Vec<&'static str> {
        vec!["marker"]
    }

    fn features(&self, _: usize, &(x, _): &S, out: &mut Vec<i64>) {
        out.push(i64::from(x));
    }

    /// B sees the marker from its side.
    fn opposing_features(&self, _: usize, &(x, _): &S, out: &mut Vec<i64>) {
        out.push(-i64::from(x));
    }

    fn tags(&self, o: &Step) -> Vec<String> {
        vec![o.to_string().to_lowercase()]
    }

    fn repeats(&self) -> Option<Repeats> {
        Some(Repeats {
            from: 1,
            cap: self.cap,
            round_field: None,
        })
    }
}

/// A metric of an outcome.
type Metric = fn(&[i64]) -> f64;

/// P(A wins), and A's wins less B's.
fn metrics() -> [(&'static str, Metric); 2] {
    [
        ("p_a_wins", |o| f64::from(o[0] == 1)),
        ("net", |o| o[0] as f64),
    ]
}

#[test]
fn the_duel_is_max_min_over_every_pair_of_policies() {
    for (name, reward) in metrics() {
        let pairs = duel_is_brute_force(&Tug { cap: 2 }, &reward, 1_000, name);
        // Every A policy against every B policy, both with choices.
        assert!(pairs > 100_000, "{name}: {pairs} pairs");
    }
}

#[test]
fn the_duel_over_the_graph_is_the_duel_round_by_round() {
    for (name, reward) in metrics() {
        for cap in [1, 2, 5] {
            duel_graph_is_layered(&Tug { cap }, &reward, &format!("{name}, cap {cap}"));
        }
    }
}

#[test]
fn the_duel_reads_both_sides() {
    let reward = |o: &[i64]| f64::from(o[0] == 1);
    let t = Tug { cap: 5 };
    let d = duel(&t, &reward, true, BestLimits::default()).unwrap();
    let one = best(&t, &reward, true, BestLimits::default()).unwrap();
    // The one-sided numbers are the one-sided solve's, bit for bit.
    assert_eq!(d.one_sided, Some(one.value));
    assert_eq!(d.given, one.given);
    assert_eq!(one.one_sided, None);
    assert!(one.opposing.is_empty() && one.opposing_options.is_empty());
    // B playing best costs A something here: more than B's given Bold
    // gave away (the given policies' value is above the game's).
    assert!(d.value < one.value - 1e-3, "{} vs {}", d.value, one.value);
    assert!(d.value < d.given, "{} vs {}", d.value, d.given);
    // Both sides decide at every turn, and A never Rests.
    let visits = |rows: &[Decision]| rows.iter().map(|r| r.visits).sum::<f64>();
    assert!((visits(&d.decisions) - d.visits).abs() < 1e-12);
    assert!(visits(&d.opposing) > 0.5);
    assert!(!d.options.contains(&Step::Rest));
    assert!(d.opposing_options.contains(&Step::Safe));
    // Dominance forbids A's options against a B still playing best:
    // Rest is never needed, and forbidding it changes nothing.
    let rest = d.dominance.iter().find(|x| x.tag == "rest").unwrap();
    assert_eq!((rest.loss, rest.usage), (0.0, 0.0));
    assert_eq!(rest.without, d.value);
    for x in &d.dominance {
        assert!(x.without <= d.value + 1e-12, "{}", x.tag);
    }
    // B's dominance: forbidding Safe leaves B its given policy (Bold
    // everywhere), so the game becomes one-sided best play, and what B
    // loses is what its best play took back; Bold (its given step) is
    // dominated for B: never used, and forbidding it costs nothing. A
    // forbidden option of B's never helps B.
    let of = |tag: &str| d.opposing_dominance.iter().find(|x| x.tag == tag).unwrap();
    let safe = of("safe");
    assert!((safe.without - one.value).abs() < 1e-12, "{safe:?}");
    assert!(
        (safe.loss - (one.value - d.value)).abs() < 1e-12,
        "{safe:?}"
    );
    assert!(safe.usage > 0.0, "{safe:?}");
    let bold = of("bold");
    assert_eq!((bold.loss, bold.usage, bold.without), (0.0, 0.0, d.value));
    for x in &d.opposing_dominance {
        assert!(x.without >= d.value - 1e-12, "{}", x.tag);
    }
    assert_eq!(d.opposing_dominance.len(), 2);
    assert!(one.opposing_dominance.is_empty());
}
