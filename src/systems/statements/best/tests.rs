//! The luck bid: best play against every bid, and the bids no one needs.

use super::*;
use crate::exact::best::check::best_is_brute_force;
use crate::exact::best::{BestLimits, best};
use crate::model::{Define, ParamMap, ParamValue::Int};
use crate::systems::statements::Statement;

fn choice(pairs: &[(&str, i64)]) -> BidChoice {
    let pairs: Vec<(&str, ParamValue)> = pairs.iter().map(|(k, v)| (*k, Int(*v))).collect();
    let p = Statement.read(&ParamMap::from_pairs(&pairs)).unwrap();
    Define::check(&Statement, &p).unwrap();
    BidChoice::new(&p)
}

/// Outcome fields: successes, failures, weight, true.
fn is_true(o: &[i64]) -> f64 {
    o[3] as f64
}
fn weight(o: &[i64]) -> f64 {
    o[2] as f64
}
fn failures(o: &[i64]) -> f64 {
    o[1] as f64
}

#[test]
fn best_is_the_best_bid() {
    for pairs in [
        vec![],
        vec![("favouring", 0), ("opposing", 3)],
        vec![("support", -1), ("difficulty", 6)],
    ] {
        let p = choice(&pairs);
        for (name, reward) in [
            ("true", is_true as fn(&[i64]) -> f64),
            ("weight", weight),
            ("failures", failures),
        ] {
            let n = best_is_brute_force(&p, &reward, 20_000, &format!("{pairs:?} {name}"));
            assert_eq!(n, 6);
        }
    }
}

#[test]
fn a_luck_only_statement_cannot_bid_nothing() {
    // Nothing favours or opposes it: bid 0 would roll a d0.
    let p = choice(&[("favouring", 0), ("opposing", 0), ("luck", 2)]);
    let mut opts = Vec::new();
    p.options(1, &(), &mut opts);
    assert_eq!(opts.first(), Some(&Bid(1)));
    let s = best(&p, &is_true, false, BestLimits::default()).unwrap();
    // Any bid makes it true on the first roll: the lowest bid is enough.
    assert!((s.value - 1.0).abs() < 1e-12);
    assert_eq!(s.options, [Bid(1)]);
}

#[test]
fn lower_bids_are_dominated_for_weight_and_higher_for_failures() {
    // Luck only helps the roll and the weight: for P(true) the top bid is
    // always taken and every other bid costs nothing to forbid; for
    // failures (which earn luck on a drive) bidding nothing is.
    let p = choice(&[]);
    let s = best(&p, &is_true, true, BestLimits::default()).unwrap();
    assert_eq!(s.options, [Bid(MAX_BID)]);
    for d in &s.dominance {
        if d.tag == "bid 5 luck" {
            assert!(d.loss > 0.01 && (d.usage - 1.0).abs() < 1e-12, "{d:?}");
        } else {
            assert!(d.loss.abs() < 1e-12 && d.usage == 0.0, "{d:?}");
        }
    }
    let s = best(&p, &failures, true, BestLimits::default()).unwrap();
    assert_eq!(s.options, [Bid(0)]);
}
