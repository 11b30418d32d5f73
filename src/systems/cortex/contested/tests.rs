//! `cortex.contested`: the keyed sampler and the chain against
//! enumeration.

use super::*;
use crate::systems::cortex::Pool;
use crate::systems::testing::{
    assert_chain_is_enumeration, assert_chain_samples_as, assert_frequencies,
    assert_simulates_as_sampled,
};

/// Counting one key a contest records what playing every contest
/// records: every way to end (either side failing, giving in), final
/// pushes, ties that deal, aid and gang dice.
#[test]
fn counted_by_key_as_sampled() {
    let pool = |p: &str| p.parse::<Pool>().unwrap();
    let cases = [
        ("d8 d6 d6", None, "2d6", None, false, None),
        ("d6 d6", None, "d8 d8", None, true, Some(3)),
        ("d10 d8", Some("d6"), "d8", Some("3d6"), true, None),
        ("2d8 d4", None, "d12", Some("d10 d4"), false, Some(6)),
        ("4d12", None, "d4", None, true, None),
    ];
    for (i, (a, aid, o, gang, push, give_in)) in cases.into_iter().enumerate() {
        let sides = Sides {
            actor: pool(a),
            aid: aid.map(pool),
            opposition: pool(o),
            gang: gang.map_or(vec![], |g| pool(g).dice().to_vec()),
        };
        let c = Contested::new(sides, RatingTie::Larger, push, i % 2 == 0, give_in)
            .tie_complication(i % 3 == 1);
        let rounds = c.sampler();
        assert_simulates_as_sampled(&c, |rng| play(&rounds, rng), 30_000, &format!("{a} vs {o}"));
    }
}

/// The chain is the walk of every path of rolls, and its sampler is
/// the keyed one, on three small contests: pools of two small dice
/// (plus an aid die, one or two gang dice), so totals stay under 16
/// and the stakes, which only rise, end every contest within about 15
/// rolls (the largest walk takes some 30 ms). They cover either side
/// first, gang dice knocked out, an aid, giving in, a final push and
/// ties that deal.
#[test]
fn the_chain_is_the_enumeration() {
    let pool = |p: &str| p.parse::<Pool>().unwrap();
    let cases = [
        ("d6 d4", None, "d6", Some("d4"), true, Some(2), false),
        ("d4 d4", Some("d4"), "d6 d4", None, false, None, true),
        (
            "d6 d6",
            Some("d4"),
            "d8 d4",
            Some("d4 d4"),
            true,
            Some(4),
            true,
        ),
    ];
    for (a, aid, o, gang, push, give_in, actor_first) in cases {
        let sides = Sides {
            actor: pool(a),
            aid: aid.map(pool),
            opposition: pool(o),
            gang: gang.map_or(vec![], |g| pool(g).dice().to_vec()),
        };
        let c = Contested::new(sides, RatingTie::Larger, push, actor_first, give_in)
            .tie_complication(!push);
        let what = format!("{a} vs {o}");
        // The solver's rounds, as `Contested::exact` builds them.
        let solver = c.solver();
        let (exact, lost) = assert_chain_is_enumeration(&solver, FIELDS, 40, &what);
        assert_eq!(lost, 0.0, "{what}: the stakes rise every roll");
        assert_eq!(Some(&exact), c.exact().as_ref(), "{what}");
        // The bespoke roll draws total and rating at once and carries
        // the rating in its state, where the law draws the rating after
        // the total: the two meet in what they make of a contest, so
        // the chain of the law is the mechanic's oracle there.
        let tally = assert_chain_samples_as::<_, FIELDS>(
            &solver,
            20_000,
            |rng, n, t| c.simulate(rng, n, t),
            &what,
        );
        assert_frequencies(&tally, &exact, &what);
    }
}
