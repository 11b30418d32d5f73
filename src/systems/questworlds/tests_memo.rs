//! The sequences' memoised sampler ([`super::memo`]) against the plain
//! loop (`model::play`, through [`Sequenced::sample`]): the same outcomes,
//! trial by trial, from the same seeds, with tactics, policies, parting
//! shots, augments and round caps.

use super::chained::ChainedSequence;
use super::scored::ScoredSequence;
use super::sequence::testing::values;
use super::sequence::{Sequence, Sequenced};
use super::wagered::WageredSequence;
use crate::dice::DiceRng;
use crate::systems::{Define, ParamValue};
use ParamValue::{Int, Str, Table};

fn s(v: &str) -> ParamValue {
    Str(v.into())
}

/// A rolled augment against the base resistance.
fn rolled(rating: &str) -> ParamValue {
    Table(vec![("rating".into(), s(rating))])
}

/// `trials` sequences each way from one seed, the memo keeping at most
/// `max_states` states: equal outcomes, and the two generators left in
/// the same place. Returns whether every arm's memo kept states and was
/// still in use at the end.
fn same_draws<Q: Sequence, const N: usize>(
    q: &Sequenced<Q, N>,
    seed: u64,
    trials: usize,
    max_states: usize,
    what: &str,
) -> bool {
    let mut memos = q.memos();
    memos.memos = memos
        .memos
        .into_iter()
        .map(|m| m.keeping(max_states))
        .collect();
    let (mut a, mut b) = (DiceRng::from_u64(seed), DiceRng::from_u64(seed));
    for k in 0..trials {
        assert_eq!(memos.sample(&mut a), q.sample(&mut b), "{what}, trial {k}");
    }
    assert_eq!(a.next_u64(), b.next_u64(), "{what}: the streams part");
    memos.memos.iter().all(|m| m.kept() >= 1 && m.memoising())
}

/// Each config of mechanic `d`, memo against plain, with the memo keeping
/// every state and then only a few (the rest of a trial the plain way).
fn check<D, Q, const N: usize>(d: D, configs: &[Vec<(&str, ParamValue)>])
where
    D: Define<Trial = Sequenced<Q, N>>,
    Q: Sequence,
{
    for (i, pairs) in configs.iter().enumerate() {
        let q = d.trial(&values(pairs)).unwrap();
        let what = format!("{} {pairs:?}", D::NAME);
        assert!(
            same_draws(&q, 7 + i as u64, 20_000, usize::MAX, &what),
            "{what}: the states recur"
        );
        same_draws(&q, 70 + i as u64, 5_000, 3, &format!("{what}, 3 states"));
    }
}

#[test]
fn scored_memo_draws_as_the_plain_loop() {
    check(
        ScoredSequence,
        &[
            vec![],
            vec![
                ("pc.rating", s("5M")),
                ("pc.risky_gambit", s("when-behind")),
                ("opponent.defensive_response", s("always")),
            ],
            vec![
                ("pc.rating", Int(1)),
                ("opponent.rating", Int(20)),
                ("pc.defensive_response", s("when-behind")),
                ("opponent.risky_gambit", s("always")),
                ("pc.parting_shot", s("always")),
                ("opponent.parting_shot", s("always")),
            ],
            vec![
                ("pc.augment", rolled("15")),
                ("pc.parting_shot", s("always")),
            ],
            vec![
                ("pc.defensive_response", s("always")),
                ("opponent.defensive_response", s("always")),
                ("max_rounds", Int(3)),
            ],
            vec![("pc.rating", Int(20)), ("resistance.rating", Int(0))],
        ],
    );
}

#[test]
fn chained_memo_draws_as_the_plain_loop() {
    check(
        ChainedSequence,
        &[
            vec![],
            vec![("pc.rating", s("2M")), ("pc.trade", s("always"))],
            vec![
                ("pc.rating", Int(12)),
                ("opponent.resolve", s("pc")),
                ("pc.trade", s("when-it-saves")),
                ("pc.parting_shot", s("always")),
                ("opponent.parting_shot", s("always")),
            ],
            vec![
                ("pc.augment", rolled("5M")),
                ("pc.trade", s("always")),
                ("opponent.parting_shot", s("always")),
            ],
            vec![("pc.augment", Int(10)), ("max_rounds", Int(2))],
        ],
    );
}

#[test]
fn wagered_memo_draws_as_the_plain_loop() {
    check(
        WageredSequence,
        &[
            vec![],
            vec![
                ("pc.wager", Int(5)),
                ("opponent.wager", Int(2)),
                ("pc.desperation_stake", s("when-behind")),
            ],
            vec![
                ("pc.rating", Int(12)),
                ("opponent.rating", Int(14)),
                ("pc.desperation_stake", s("never")),
                ("pc.parting_shot", s("always")),
                ("opponent.parting_shot", s("always")),
            ],
            vec![
                ("pc.augment", rolled("15")),
                ("pc.wager", Int(8)),
                ("pc.parting_shot", s("always")),
            ],
            vec![("opponent.wager", Int(1)), ("max_rounds", Int(2))],
        ],
    );
}
