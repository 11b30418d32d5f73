//! Multi-round mechanics written once: a start state, the law of the next
//! roll in a state, and what follows a roll (rules and policy together).
//! Both the exact solver (an absorbing Markov chain, `exact::solve`) and
//! the sampler (`sim::Chain::simulate`, or the plain loop [`play`]) are
//! derived from the same [`Rounds::law`] and [`Rounds::after`], so the two
//! can only disagree through sampling error.
//!
//! A round may take several rolls when later ones depend on earlier ones
//! (the second action of a Gateway round sees the edge the first left; a
//! wagered round has two exchanges): `after` answers [`After::Roll`] to
//! roll again within the round. The solver follows such rolls down each
//! path, multiplying probabilities along it, and merges states only
//! between rounds ([`After::Round`]), so its state space is what must be
//! remembered *between* rounds.
//!
//! The law of a roll is stated once, by [`Rounds::law`]: its values with
//! their probabilities. A draw comes from it: [`Rounds::roll`] is provided,
//! one word through the law's alias table ([`law_table`]), the same table
//! and so the same draw as the chain's cached sampler. The chain also
//! draws by `roll` the states it does not keep (those that hardly recur).
//! An impl overrides `roll` only with a bespoke draw that is measurably
//! faster (more than 1.25× in one criterion run of `benches/chain.rs`,
//! the figure in its doc comment); the law is then its test oracle
//! (`systems::testing::assert_roll_is_law`).

use crate::dice::{Alias, DiceRng};

/// What follows one roll.
#[derive(Clone, Debug, PartialEq)]
pub enum After<S, O> {
    /// The round goes on: roll again from this state.
    Roll(S),
    /// The round is over; the next one starts from this state.
    Round(S),
    /// The trial is over, with these outcome field values.
    End(O),
}

/// A multi-round mechanic.
pub trait Rounds: Sync {
    /// What must be remembered. States between rounds are merged by the
    /// solver, so only what changes the odds belongs there.
    type State: Ord + Clone + std::hash::Hash;
    /// The result of one roll, as the rules read it.
    type Roll;
    /// The outcome field values of a finished trial.
    type Outcome: AsRef<[i64]>;

    /// The state before the first roll.
    fn start(&self) -> Self::State;

    /// Every value the next roll of round `round` (from 1) in `state` can
    /// take, with its probability (they sum to 1), in a fixed order.
    fn law(&self, round: usize, state: &Self::State, out: &mut Vec<(Self::Roll, f64)>);

    /// One roll of round `round` in `state`, distributed as [`Rounds::law`]:
    /// by default one word through the law's alias table ([`law_table`]),
    /// drawn as `sim::Chain::simulate` draws it. `Chain::simulate` calls it
    /// for the states it does not keep. Overridden only by a bespoke draw
    /// that pays (see the module's doc).
    fn roll(&self, round: usize, state: &Self::State, rng: &mut DiceRng) -> Self::Roll {
        let mut law = Vec::new();
        self.law(round, state, &mut law);
        let i = law_table(&law).draw(rng) as usize;
        law.swap_remove(i).0
    }

    /// What the rules and the policies make of `roll` in `state`.
    fn after(
        &self,
        round: usize,
        state: &Self::State,
        roll: &Self::Roll,
    ) -> After<Self::State, Self::Outcome>;

    /// `state` as one word, one to one over the states that pack (the
    /// round is kept apart; [`pack_fields`] packs a few small values), or
    /// `None` (the default) for a state that does not fit: then
    /// `sim::Chain::simulate` keys it by the state itself, hashed. Only
    /// the cost of the cache's lookups changes, never a draw.
    fn pack(&self, state: &Self::State) -> Option<u64> {
        let _ = state;
        None
    }

    /// `Some(cap)` for rules that are the same in every round: `law`
    /// never reads its round, and `after` reads it only to write it into
    /// an ending (a `rounds` field) and, from round `cap` on, to end a
    /// trial where a round would follow (a stalemate at a round cap;
    /// `usize::MAX` for none). `sim::Chain::simulate` then keeps one node
    /// per state, not per (round, state), and counts the rounds itself.
    /// `None` (the default): the round may change anything.
    fn homogeneous(&self) -> Option<usize> {
        None
    }
}

/// Signed values packed into one word, each `(value, bits)` in its own
/// `bits` bits (two's complement), for [`Rounds::pack`]: `None` when a
/// value does not fit, so a state packs one to one or not at all.
#[inline]
pub fn pack_fields(fields: &[(i64, u32)]) -> Option<u64> {
    let mut word = 0u64;
    let mut used = 0;
    for &(value, bits) in fields {
        let half = 1i64 << (bits - 1);
        if value < -half || value >= half {
            return None;
        }
        word |= ((value as u64) & ((1u64 << bits) - 1)) << used;
        used += bits;
    }
    debug_assert!(used <= 64, "{used} bits do not fit a word");
    Some(word)
}

/// The alias table of a roll's law: it draws the index of a value in
/// `law` (values of probability 0 never). The one table both
/// [`Rounds::roll`]'s default and the chain's cache draw from, so the
/// two draw alike from the same stream.
pub fn law_table<T>(law: &[(T, f64)]) -> Alias {
    Alias::new(law.iter().enumerate().map(|(i, &(_, p))| (i as u32, p)))
}

/// One trial, roll by roll. A mechanic must end every trial (a round cap,
/// an absorbing tally): the solver's limits have no counterpart here.
#[inline]
pub fn play<R: Rounds>(rounds: &R, rng: &mut DiceRng) -> R::Outcome {
    play_from(rounds, rounds.start(), 1, rng)
}

/// The rest of a trial from `state`, about to roll in round `round`.
#[inline]
pub fn play_from<R: Rounds>(
    rounds: &R,
    mut state: R::State,
    mut round: usize,
    rng: &mut DiceRng,
) -> R::Outcome {
    loop {
        let roll = rounds.roll(round, &state, rng);
        match rounds.after(round, &state, &roll) {
            After::Roll(next) => state = next,
            After::Round(next) => {
                state = next;
                round += 1;
            }
            After::End(outcome) => return outcome,
        }
    }
}
