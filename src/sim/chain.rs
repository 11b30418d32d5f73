//! One engine for every multi-round mechanic: a [`Chain`] over a
//! [`Rounds`], answering both ways from the one statement of the rules.
//!
//! - [`Chain::exact`] propagates the absorbing chain forward
//!   ([`crate::exact::solve`]);
//! - [`Chain::simulate`] plays trials roll by roll, drawing each roll as
//!   [`Rounds::roll`] draws it and keeping what the rules make of it
//!   ([`Rounds::after`], with the policies' choices) per state in a
//!   bounded cache, as icepool's engine owns the caching of `next_state`:
//!   the same states recur from trial to trial, and the rules need not be
//!   worked out twice. Draw for draw it is [`crate::model::play`], so its
//!   tallies are the plain loop's, bit for bit;
//! - [`enumerate`] walks every path of rolls without merging states: the
//!   brute-force oracle the chain's answers are tested against.

use std::collections::HashMap;
use std::hash::Hash;

use foldhash::fast::FixedState;

use crate::dice::DiceRng;
use crate::exact::{Limits, solve};
use crate::model::{After, Marginals, Rounds, Tally};

/// States kept by one sampler before it stops adding (about 10^5 entries:
/// a few MB for the largest states; a run-level memo is bounded alike).
pub const CACHE_ENTRIES: usize = 1 << 17;

/// A multi-round mechanic's engine.
pub struct Chain<'a, R: Rounds> {
    rounds: &'a R,
    fields: usize,
}

impl<'a, R: Rounds> Chain<'a, R> {
    /// The chain of `rounds`, whose outcomes have `fields` fields.
    pub fn new(rounds: &'a R, fields: usize) -> Chain<'a, R> {
        Chain { rounds, fields }
    }

    /// The exact marginals of every outcome field, or `None` beyond
    /// `limits`.
    pub fn exact(&self, limits: Limits) -> Option<Marginals> {
        solve(self.rounds, self.fields, limits).map(|a| a.marginals)
    }
}

impl<R> Chain<'_, R>
where
    R: Rounds,
    R::Roll: Clone + Eq + Hash,
    R::Outcome: Clone,
{
    /// `trials` trials into `tally`, roll by roll, with what follows each
    /// (round, state, roll) kept in a cache of at most [`CACHE_ENTRIES`].
    pub fn simulate<const N: usize>(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally)
    where
        R::Outcome: Into<[i64; N]>,
    {
        let mut cache = Cache::<R>::default();
        tally.record_trials(rng, trials, |rng| cache.play(self.rounds, rng).into());
    }
}

type Key<R> = (usize, <R as Rounds>::State, <R as Rounds>::Roll);
type Then<R> = After<<R as Rounds>::State, <R as Rounds>::Outcome>;

/// What follows each (round, state, roll) met so far.
struct Cache<R: Rounds> {
    next: HashMap<Key<R>, Then<R>, FixedState>,
}

impl<R: Rounds> Default for Cache<R> {
    fn default() -> Self {
        Cache {
            next: HashMap::with_hasher(FixedState::default()),
        }
    }
}

impl<R> Cache<R>
where
    R: Rounds,
    R::Roll: Clone + Eq + Hash,
    R::Outcome: Clone,
{
    /// One trial: [`crate::model::play`]'s loop, `after` looked up.
    fn play(&mut self, rounds: &R, rng: &mut DiceRng) -> R::Outcome {
        let mut state = rounds.start();
        let mut round = 1;
        loop {
            let roll = rounds.roll(round, &state, rng);
            let key = (round, state, roll);
            let then = match self.next.get(&key) {
                Some(then) => then.clone(),
                None => {
                    let then = rounds.after(key.0, &key.1, &key.2);
                    if self.next.len() < CACHE_ENTRIES {
                        self.next.insert(key, then.clone());
                    }
                    then
                }
            };
            match then {
                After::Roll(next) => state = next,
                After::Round(next) => {
                    state = next;
                    round += 1;
                }
                After::End(outcome) => return outcome,
            }
        }
    }
}

/// The exact marginals of `rounds` by walking every path of rolls, states
/// never merged, down to `max_rolls` rolls (paths longer than that are
/// dropped, and their probability returned as the second value). Exponential:
/// for small cases, as the oracle of [`Chain::exact`].
pub fn enumerate<R: Rounds>(rounds: &R, fields: usize, max_rolls: usize) -> (Marginals, f64) {
    let mut out = Marginals::new(fields);
    let mut lost = 0.0;
    walk(
        rounds,
        1,
        &rounds.start(),
        1.0,
        max_rolls,
        &mut out,
        &mut lost,
    );
    (out, lost)
}

fn walk<R: Rounds>(
    rounds: &R,
    round: usize,
    state: &R::State,
    p: f64,
    left: usize,
    out: &mut Marginals,
    lost: &mut f64,
) {
    if left == 0 {
        *lost += p;
        return;
    }
    let mut law = Vec::new();
    rounds.law(round, state, &mut law);
    for (roll, q) in &law {
        if *q == 0.0 {
            continue;
        }
        let p = p * q;
        match rounds.after(round, state, roll) {
            After::Roll(next) => walk(rounds, round, &next, p, left - 1, out, lost),
            After::Round(next) => walk(rounds, round + 1, &next, p, left - 1, out, lost),
            After::End(outcome) => {
                for (f, &v) in outcome.as_ref().iter().enumerate() {
                    out.add(f, v, p);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::play;

    /// A fair-coin gambler's ruin from 2 of 5, capped at 12 flips (then a
    /// draw, 2), counting flips.
    struct Ruin;

    impl Rounds for Ruin {
        type State = (i64, i64);
        type Roll = i64;
        type Outcome = [i64; 2];

        fn start(&self) -> (i64, i64) {
            (2, 0)
        }

        fn law(&self, _: usize, _: &(i64, i64), out: &mut Vec<(i64, f64)>) {
            out.extend([(-1, 0.5), (1, 0.5)]);
        }

        fn roll(&self, _: usize, _: &(i64, i64), rng: &mut DiceRng) -> i64 {
            if rng.bits(1) == 1 { 1 } else { -1 }
        }

        fn after(&self, _: usize, &(s, n): &(i64, i64), &r: &i64) -> After<(i64, i64), [i64; 2]> {
            match (s + r, n + 1) {
                (0, n) => After::End([0, n]),
                (5, n) => After::End([1, n]),
                (_, 12) => After::End([2, 12]),
                (s, n) => After::Round((s, n)),
            }
        }
    }

    #[test]
    fn the_chain_is_the_enumeration() {
        let chain = Chain::new(&Ruin, 2).exact(Limits::default()).unwrap();
        let (walked, lost) = enumerate(&Ruin, 2, 12);
        assert_eq!(lost, 0.0);
        for f in 0..2 {
            for (v, p) in walked.field(f) {
                let q = chain.field(f).get(v).copied().unwrap_or(0.0);
                assert!((p - q).abs() < 1e-12, "field {f} value {v}: {p} vs {q}");
            }
            assert_eq!(walked.field(f).len(), chain.field(f).len());
        }
        // By hand: from 2, ruin before 5 has chance 3/5 without the cap.
        let ruined = walked.field(0)[&0];
        assert!(ruined > 0.5 && ruined < 0.6, "{ruined}");
    }

    #[test]
    fn the_cached_sampler_draws_as_the_plain_loop() {
        let mut a = DiceRng::from_u64(9);
        let mut b = DiceRng::from_u64(9);
        let mut cache = Cache::<Ruin>::default();
        for _ in 0..5_000 {
            assert_eq!(cache.play(&Ruin, &mut a), play(&Ruin, &mut b));
        }
        assert!(!cache.next.is_empty());
    }
}
