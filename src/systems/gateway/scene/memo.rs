//! The sampler of a drama scene: [`model::play`](crate::model::play)'s loop
//! with the round function memoised. Within a trial, and from trial to
//! trial, the same states recur (the same edge, ladder and holder at the
//! same round); what the rules make of them does not change. So each
//! state met is worked out once — the action its actor's policy takes,
//! the chance it beats its target, and the two states that follow a
//! success and a failure, all by [`SceneRounds`]' own `turn` and `after` —
//! and kept in a direct-mapped table; each action after that is a lookup
//! and one Bernoulli draw.
//!
//! Draw for draw this is the plain loop: the memo draws the contest with
//! the same word [`Rounds::roll`] would, and a state it does not keep (the
//! coin for the first initiative, K's action against several PCs) goes
//! through `roll` and `after` as there. A test holds the two equal, and
//! another holds it to `sim::Chain`'s sampler, which draws from the law.
//!
//! It no longer pays much: 1.07× the rate of `Chain::simulate` (each
//! roll drawn from its law's table, the next state linked) on the
//! registry's example, one thread (`benches/chain.rs`, 2026-11-28: 6.49
//! ms against 6.91 ms for 16,384 scenes), within issue 48's 1.25×. It
//! stays until the scene's reports are regenerated with the chain's
//! draws (the memo draws each contest with `Contests::beats`).

use super::contest::Contests;
use super::engine::SceneRounds;
use super::state::{FIELDS, Key, Outcome, Roll, State};
use crate::dice::DiceRng;
use crate::model::{After, Rounds, play};

/// The table has 2^12 slots (about 1.2 MB, beside 1 MB of end outcomes;
/// a scene touches only the slots of the states it meets).
const SLOT_BITS: u32 = 12;
/// Lookups before the memo judges whether it pays.
const TRIAL_LOOKUPS: u64 = 1 << 14;
/// A slot's threshold when its state goes the plain way.
const PLAIN: u64 = u64::MAX;
/// The key of an empty slot: no state packs to it (the round's word
/// keeps its top 16 bits clear).
const EMPTY: Key = [u64::MAX; 7];

/// What follows one outcome of a state's action.
#[derive(Clone, Copy)]
enum Then {
    /// The round goes on.
    Roll,
    /// The next round starts.
    Round,
    /// The scene ends, with the outcome kept beside the slot.
    End,
}

/// One outcome of a kept state's action: what follows, the next state
/// with its key and slot.
#[derive(Clone, Copy)]
struct Next {
    then: Then,
    state: State,
    key: Key,
    slot: usize,
}

#[derive(Clone, Copy)]
struct Slot {
    key: Key,
    /// The action's chance of beating its one target (see
    /// [`Contests::beats`]), or [`PLAIN`].
    threshold: u64,
    /// What follows a failure (0) and a success (1).
    next: [Next; 2],
}

/// A scene's sampler, for one run of trials on one thread.
pub struct Memo<'a> {
    rounds: &'a SceneRounds,
    /// The start state, its key and slot.
    start: Next,
    slots: Vec<Slot>,
    /// `ends[i][k]`: the outcome when slot i's outcome k ends the scene.
    ends: Vec<[Outcome; 2]>,
    /// Slots looked up and filled so far.
    lookups: u64,
    misses: u64,
}

impl<'a> Memo<'a> {
    pub fn new(rounds: &'a SceneRounds) -> Memo<'a> {
        let state = rounds.start();
        let start = Next::new(Then::Roll, state, 1);
        let empty = Slot {
            key: EMPTY,
            threshold: PLAIN,
            next: [start; 2],
        };
        Memo {
            rounds,
            start,
            slots: vec![empty; 1 << SLOT_BITS],
            ends: vec![[[0; FIELDS]; 2]; 1 << SLOT_BITS],
            lookups: 0,
            misses: 0,
        }
    }

    /// One scene's outcome.
    pub fn play(&mut self, rng: &mut DiceRng) -> Outcome {
        let r = self.rounds;
        if !self.memoising() {
            return play(r, rng);
        }
        let Next {
            mut state,
            mut key,
            mut slot,
            ..
        } = self.start;
        let mut round = 1;
        loop {
            if !state.coin {
                self.lookups += 1;
                if !same(&self.slots[slot].key, &key) {
                    self.misses += 1;
                    self.work_out(slot, round, &state, key);
                }
                let kept = &self.slots[slot];
                if kept.threshold != PLAIN {
                    let hit = Contests::beats(kept.threshold, rng) as usize;
                    let next = &kept.next[hit];
                    match next.then {
                        Then::Roll => {}
                        Then::Round => round += 1,
                        Then::End => return self.ends[slot][hit],
                    }
                    (state, key, slot) = (next.state, next.key, next.slot);
                    continue;
                }
            }
            let roll = r.roll(round, &state, rng);
            match r.after(round, &state, &roll) {
                After::Roll(next) => state = next,
                After::Round(next) => {
                    state = next;
                    round += 1;
                }
                After::End(outcome) => return outcome,
            }
            key = state.key(round);
            slot = index(&key);
        }
    }

    /// Whether the memo still pays: a scene whose states hardly recur (six
    /// PCs' edges, say) fills a slot at most lookups, which costs more
    /// than the plain loop; past [`TRIAL_LOOKUPS`] lookups with more than
    /// a quarter of them misses, the memo steps aside. The draws are the
    /// same either way.
    pub(super) fn memoising(&self) -> bool {
        self.lookups < TRIAL_LOOKUPS || self.misses * 4 <= self.lookups
    }

    /// Fill slot `i` for `state` at `round`.
    #[cold]
    fn work_out(&mut self, i: usize, round: usize, state: &State, key: Key) {
        let r = self.rounds;
        let turn = r.turn(round, state);
        let slot = &mut self.slots[i];
        slot.key = key;
        let Some(j) = turn.single() else {
            slot.threshold = PLAIN;
            return;
        };
        slot.threshold = r.threshold(&turn, j);
        for (k, beat) in [0, 1 << j].into_iter().enumerate() {
            slot.next[k] = match r.after(round, state, &Roll::Action { beat, turn }) {
                After::Roll(next) => Next::new(Then::Roll, next, round),
                After::Round(next) => Next::new(Then::Round, next, round + 1),
                After::End(outcome) => {
                    self.ends[i][k] = outcome;
                    Next {
                        then: Then::End,
                        ..slot.next[k]
                    }
                }
            };
        }
    }
}

impl Next {
    fn new(then: Then, state: State, round: usize) -> Next {
        let key = state.key(round);
        Next {
            then,
            state,
            key,
            slot: index(&key),
        }
    }
}

/// Whether two keys are equal (word by word, without a call to `memcmp`).
#[inline(always)]
fn same(a: &Key, b: &Key) -> bool {
    a.iter().zip(b).fold(0, |d, (x, y)| d | (x ^ y)) == 0
}

/// The slot a key hashes to.
#[inline(always)]
fn index(key: &Key) -> usize {
    let h = key
        .iter()
        .fold(0u64, |h, &w| (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    (h >> (64 - SLOT_BITS)) as usize
}
