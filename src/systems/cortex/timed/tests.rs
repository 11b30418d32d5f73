//! Tests of buying time: a one-helper case by hand, a property (buying
//! time never lowers the chance to complete), and the exact chain against
//! Monte Carlo with helpers.

use proptest::prelude::*;

use super::buy_time::{self, BuyTime};
use super::*;
use crate::systems::Define;
use crate::systems::testing::{
    Sample, assert_agrees, assert_chain_is_enumeration, assert_chain_samples_as, assert_frequencies,
};

fn pool(s: &str) -> Pool {
    s.parse().unwrap()
}

fn sides(actor: &str, opposition: &str) -> Sides {
    Sides {
        actor: pool(actor),
        aid: None,
        opposition: pool(opposition),
        gang: Vec::new(),
    }
}

/// "Buy time whenever beats are at most `n`".
fn at_most(n: i64) -> BuyTime {
    buy_time::parse(&ParamValue::List(vec![ParamValue::Table(vec![
        ("buy_time".into(), ParamValue::Bool(true)),
        (
            "when".into(),
            ParamValue::Table(vec![("beats_at_most".into(), ParamValue::Int(n))]),
        ),
    ])]))
    .unwrap()
}

fn p_completed(t: &Timed) -> f64 {
    t.exact().unwrap().field(0).get(&1).copied().unwrap_or(0.0)
}

fn odds(actor: &str, opposition: &str) -> (f64, f64) {
    let (extra, win) =
        Basic::new(sides(actor, opposition), RatingTie::Larger, false).success_odds();
    (extra, win - extra)
}

#[test]
fn one_helper_between_two_steps_by_hand() {
    // Two steps, two beats, one helper who always tries. Let the actor's
    // odds be e (extraordinary) and s (success), the helper's he and hs,
    // hf = 1 − he − hs. After step 1 the clock stands at 2 beats (e) or 1
    // (s); a failure leaves 0 and is out. Step 2 from b beats completes
    // with e + s when b ≤ 2, and surely when b ≥ 3 (a failure leaves
    // b − 2 ≥ 1). So
    //   P = e·(he + hs + hf·(e+s)) + s·(he + (1 − he)·(e+s)),
    // against (e+s)² without the helper.
    let (e, s) = odds("d8 d6", "d8 d6");
    let (he, hs) = odds("d10 d6", "d8 d6");
    let hf = 1.0 - he - hs;
    let by_hand = e * (he + hs + hf * (e + s)) + s * (he + (1.0 - he) * (e + s));
    let alone = Timed::new(
        &sides("d8 d6", "d8 d6"),
        &[pool("d8 d6"), pool("d8 d6")],
        2,
        false,
    );
    assert!((p_completed(&alone) - (e + s).powi(2)).abs() < 1e-12);
    let helped = alone.with_helpers(&[pool("d10 d6")], Some(at_most(10)));
    let exact = p_completed(&helped);
    assert!((exact - by_hand).abs() < 1e-12, "{exact} vs {by_hand}");
    // The beats bought: he·2 + hs·1 after either first result, so their
    // mean is (e + s)·(2·he + hs).
    let m = helped.exact().unwrap();
    let bought: f64 = m
        .field(BEATS_BOUGHT)
        .iter()
        .map(|(v, p)| *v as f64 * p)
        .sum();
    assert!(
        (bought - (e + s) * (2.0 * he + hs)).abs() < 1e-12,
        "{bought}"
    );
    // Out of time deals a complication exactly when not completed.
    assert!((m.field(COMPLICATION)[&1] - (1.0 - exact)).abs() < 1e-12);
}

#[test]
fn no_buying_on_the_last_step_or_past_the_policy() {
    // One step: nothing lies between two steps, so helpers change nothing.
    let one = Timed::new(&sides("d8 d6", "d8 d8"), &[pool("d8 d8")], 3, false);
    let helped = one
        .clone()
        .with_helpers(&[pool("d12 d12")], Some(at_most(10)));
    assert_eq!(one.exact(), helped.exact());
    // A policy that buys at 0 beats or fewer never fires: the clock is
    // out before any step is passed at 0.
    let three = Timed::new(&sides("d8 d6", "d8 d8"), &vec![pool("d8 d8"); 3], 4, false);
    let never = three
        .clone()
        .with_helpers(&[pool("d12 d12")], Some(at_most(0)));
    assert_eq!(p_completed(&three), p_completed(&never));
}

const POOLS: [&str; 6] = ["d4", "d6 d6", "d8 d6", "d8 d8 d6", "d10 d8", "d12 d6 d4"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Buying time only ever adds beats, so it never lowers P(completed).
    #[test]
    fn buying_time_never_lowers_p_completed(
        actor in 0..POOLS.len(),
        opposition in 0..POOLS.len(),
        steps in 1usize..=4,
        beats in 1i64..=6,
        helpers in prop::collection::vec(0..POOLS.len(), 1..=3),
        threshold in 0i64..=6,
        repeat in any::<bool>(),
    ) {
        let t = Timed::new(
            &sides(POOLS[actor], POOLS[opposition]),
            &vec![pool(POOLS[opposition]); steps],
            beats,
            repeat,
        );
        let helpers: Vec<Pool> = helpers.iter().map(|&h| pool(POOLS[h])).collect();
        let helped = t.clone().with_helpers(&helpers, Some(at_most(threshold)));
        let (before, after) = (p_completed(&t), p_completed(&helped));
        prop_assert!(after >= before - 1e-12, "{} < {}", after, before);
    }
}

#[test]
fn monte_carlo_agrees_with_exact_when_buying_time() {
    let configs = [
        ("d8 d6", "d8 d6", 3, 4, vec!["d6"], 2, false),
        ("d8 d6", "d8 d8", 4, 5, vec!["d10 d6", "d6 d6"], 3, false),
        ("d6 d6", "d10 d8", 3, 6, vec!["d8", "d8 d8", "d4"], 6, true),
        ("d10 d8 d6", "d6 d6", 5, 5, vec!["d12"], 1, false),
    ];
    let mut worst: f64 = 0.0;
    for (i, (a, o, steps, beats, helpers, n, repeat)) in configs.into_iter().enumerate() {
        let helpers: Vec<Pool> = helpers.iter().map(|h| pool(h)).collect();
        let t = Timed::new(&sides(a, o), &vec![pool(o); steps], beats, repeat)
            .with_helpers(&helpers, Some(at_most(n)));
        let what = format!("timed config {i}");
        let sample = Sample::seed(1400 + i as u64);
        worst = worst.max(assert_agrees(TimedAction.model(t).as_ref(), sample, &what));
    }
    eprintln!("cortex.timed with helpers: worst metric |z| = {worst:.2}");
}

/// The chain is the walk of every path of rolls, and its sampler is the
/// action's own, on two short clocks: four steps on five beats, moving
/// on after a failure; and, repeating a failed step, four steps on six
/// beats with two helpers buying time at three beats or fewer. Each roll
/// has three outcomes and every actor roll passes a step or costs a beat
/// (a helper gives back at most two, once between two steps), so paths
/// stay short: the walk takes well under a millisecond.
#[test]
fn the_chain_is_the_enumeration() {
    let steps = [pool("d8"), pool("d6 d6"), pool("d10 d4"), pool("d8 d8")];
    let cases = [
        Timed::new(&sides("d8 d6", "d8"), &steps, 5, false),
        Timed::new(&sides("d8 d6", "d8"), &steps, 6, true)
            .with_helpers(&[pool("d6 d6"), pool("d8")], Some(at_most(3))),
    ];
    for (i, t) in cases.iter().enumerate() {
        let what = format!("clock {i}");
        let rounds = t.rounds();
        let (exact, lost) = assert_chain_is_enumeration(&rounds, FIELDS, 30, &what);
        assert_eq!(lost, 0.0, "{what}: every roll moves the clock");
        assert_eq!(Some(&exact), t.exact().as_ref(), "{what}");
        let tally = assert_chain_samples_as::<_, FIELDS>(
            &rounds,
            20_000,
            |rng, n, tally| t.simulate(rng, n, tally),
            &what,
        );
        // The mechanic samples through the chain: the same draws.
        let mut plain = crate::sim::Tally::new(FIELDS);
        t.simulate(&mut DiceRng::from_u64(31), 20_000, &mut plain);
        assert_eq!(plain, tally, "{what}");
        assert_frequencies(&tally, &exact, &what);
    }
}
