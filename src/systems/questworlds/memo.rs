//! The sampler of a sequence: [`model::play`](crate::model::play)'s loop
//! with the round function memoised. A sequence's states are few (the two
//! tallies, with a phase) and recur from trial to trial, and what the
//! rules make of a state and a contest outcome never changes. So each
//! (state, outcome key of its contest's table) is worked out once, by the
//! sequence's own [`Rounds::after`] (the rules stay written once, shared
//! with the exact solver), and kept in a flat table: each roll after that
//! is one draw of the contest's faces, the outcome key of their cell, and
//! one lookup, which gives the next state's place in the table directly.
//!
//! Draw for draw this is the plain loop: the faces are drawn as
//! [`Rounds::roll`] draws them ([`OutcomeTable::cell`]), so a trial gives
//! the same outcome either way; a test holds the two equal. The round
//! number only matters to the round cap, checked here as `Capped` checks
//! it, and to the `rounds` field of an ending, written in here (a
//! [`Sequence`] reads its round for nothing else). A state the memo cannot
//! keep (a contest without a table or drawn another way, or past
//! [`MAX_STATES`]) goes the plain way for the rest of its trial.
//!
//! The memos are what every sequence's [`Trial`] samples through, so that
//! impl is here too (its exact answer is the chain of each arm of the
//! augment): the sequence module below sees no memo.
//!
//! It stays because it pays: 1.43× the rate of `sim::Chain::simulate`
//! (each roll drawn from its law's table, the next state linked, one node
//! per state since the capped sequence declares its rules the same in
//! every round, `Rounds::homogeneous`) on `questworlds.scored`'s example,
//! one thread (`benches/chain.rs`, 2026-11-28: 0.716 ms against 1.03 ms
//! for 16,384 sequences; wagered 1.80×, chained 1.26×). Keying the chain
//! by state alone gained it little (1.07 → 1.03 ms): what the memo saves
//! is a load a roll (the chain reads its node, then the alias column,
//! then the link; the memo reads the cell's key, then the link).

use std::collections::BTreeMap;

use super::outcomes::{CELLS, OutcomeTable};
use super::sequence::{Capped, LIMITS, Sequence, Sequenced, stalemate};
use crate::dice::DiceRng;
use crate::exact::solve;
use crate::model::{After, Marginals, Rounds, Tally, Trial, play, play_from};

/// The most states one memo keeps (a wagered sequence between two high
/// TNs with small wagers meets tens of thousands; past this, the rest go
/// the plain way).
const MAX_STATES: usize = 1 << 16;
/// Lookups before the memo judges whether it pays.
const TRIAL_LOOKUPS: u64 = 1 << 16;

/// What follows an outcome, packed in a word: the low two bits say what
/// ([`ROLL`], [`ROUND`], [`END`], or 0: not worked out yet); then
/// [`TABLE_BITS`] bits, the next state's contest table; the top
/// [`PLACE_BITS`], where the next state's block starts in `then`, or the
/// ending's number.
type Then = u32;
const UNKNOWN: Then = 0;
const ROLL: Then = 1;
const ROUND: Then = 2;
const END: Then = 3;
const TABLE_BITS: u32 = 6;
const PLACE_SHIFT: u32 = 2 + TABLE_BITS;
const PLACE_BITS: u32 = 32 - PLACE_SHIFT;

/// The block of a state in `then` starts at `place`; its contest table is
/// `table`.
#[inline(always)]
fn then(what: Then, table: usize, place: usize) -> Then {
    what | (table as Then) << 2 | (place as Then) << PLACE_SHIFT
}

#[inline(always)]
fn table_of(t: Then) -> usize {
    (t >> 2) as usize & ((1 << TABLE_BITS) - 1)
}

#[inline(always)]
fn place_of(t: Then) -> usize {
    (t >> PLACE_SHIFT) as usize
}

/// A sequence's sampler, for one run of trials on one thread.
pub struct Memo<'a, Q: Sequence, const N: usize> {
    capped: Capped<'a, Q>,
    /// The states met, by number, and where each one's block starts.
    states: Vec<Q::State>,
    places: BTreeMap<Q::State, Then>,
    /// The contests met, and their cells' keys side by side ([`CELLS`]
    /// each); all drawn the same way, `rolls`.
    tables: Vec<&'a OutcomeTable>,
    keys: Vec<u8>,
    rolls: (bool, bool),
    /// A block per state: its number, then a [`Then`] per outcome key.
    then: Vec<Then>,
    /// The start state's [`Then`] (as a roll), if kept.
    start: Option<Then>,
    /// The endings met, with 0 rounds.
    ends: Vec<[i64; N]>,
    /// Lookups and misses so far.
    lookups: u64,
    misses: u64,
    /// The most states kept ([`MAX_STATES`], lower in tests).
    max_states: usize,
}

impl<'a, Q: Sequence, const N: usize> Memo<'a, Q, N> {
    pub(super) fn new(capped: Capped<'a, Q>) -> Self {
        let q: &'a Q = capped.sequence;
        let start = q.start();
        let rolls = q
            .contest(&start)
            .table()
            .map_or((true, true), |t| t.rolls());
        let mut memo = Memo {
            capped,
            states: Vec::new(),
            places: BTreeMap::new(),
            tables: Vec::new(),
            keys: Vec::new(),
            rolls,
            then: Vec::new(),
            start: None,
            ends: Vec::new(),
            lookups: 0,
            misses: 0,
            max_states: MAX_STATES,
        };
        memo.start = memo.place(start).map(|t| t | ROLL);
        memo
    }

    /// The same memo keeping at most `max_states` states (the start kept).
    #[cfg(test)]
    pub(super) fn keeping(mut self, max_states: usize) -> Self {
        self.max_states = max_states;
        self
    }

    /// How many states are kept.
    #[cfg(test)]
    pub(super) fn kept(&self) -> usize {
        self.states.len()
    }

    /// One sequence's outcome.
    #[inline]
    pub fn play(&mut self, rng: &mut DiceRng) -> [i64; N] {
        let Some(mut t) = self.start.filter(|_| self.memoising()) else {
            return fields(play(&self.capped, rng));
        };
        let rolls = self.rolls;
        let mut round = 1;
        let mut rolled = 0;
        loop {
            rolled += 1;
            let cell = OutcomeTable::cell(rolls, rng);
            let k = self.keys[table_of(t) * CELLS + cell] as usize;
            let i = place_of(t) + k;
            let mut next = self.then[i];
            if next == UNKNOWN {
                next = match self.work_out(t, k) {
                    Some(next) => next,
                    None => {
                        self.lookups += rolled;
                        return self.plain(t, k, round, rng);
                    }
                };
                self.then[i] = next;
            }
            match next & 3 {
                ROLL => t = next,
                ROUND if round >= self.capped.max_rounds => {
                    self.lookups += rolled;
                    let state = &self.states[self.then[place_of(next) - 1] as usize];
                    return fields(stalemate(self.capped.sequence, round, state));
                }
                ROUND => {
                    t = next;
                    round += 1;
                }
                _ => {
                    self.lookups += rolled;
                    let mut out = self.ends[place_of(next)];
                    out[1] = round as i64;
                    return out;
                }
            }
        }
    }

    /// Whether the memo still pays: a sequence whose states hardly recur
    /// within a run fills a slot at most lookups, which costs more than
    /// the plain loop; past [`TRIAL_LOOKUPS`] lookups with more than a
    /// quarter of them misses, the memo steps aside. The draws are the
    /// same either way.
    pub(super) fn memoising(&self) -> bool {
        self.lookups < TRIAL_LOOKUPS || self.misses * 4 <= self.lookups
    }

    /// Where `state`'s block starts, with its table (a [`Then`] without
    /// its kind), kept now if new; `None` if it cannot be kept.
    fn place(&mut self, state: Q::State) -> Option<Then> {
        if let Some(&t) = self.places.get(&state) {
            return Some(t);
        }
        let q: &'a Q = self.capped.sequence;
        let table = q.contest(&state).table()?;
        let place = self.then.len() + 1;
        if self.states.len() >= self.max_states
            || table.rolls() != self.rolls
            || place + table.outcome_count() >= 1 << PLACE_BITS
        {
            return None;
        }
        let index = match self.tables.iter().position(|t| std::ptr::eq(*t, table)) {
            Some(index) => index,
            None if self.tables.len() < 1 << TABLE_BITS => {
                self.tables.push(table);
                self.keys.extend_from_slice(table.keys());
                self.tables.len() - 1
            }
            None => return None,
        };
        self.then.push(self.states.len() as Then);
        self.then
            .resize(self.then.len() + table.outcome_count(), UNKNOWN);
        let t = then(UNKNOWN, index, place);
        self.places.insert(state.clone(), t);
        self.states.push(state);
        Some(t)
    }

    /// The state whose block `t` points to, and its contest's outcome `k`.
    fn read(&self, t: Then, k: usize) -> (&Q::State, Q::Roll) {
        let state = &self.states[self.then[place_of(t) - 1] as usize];
        (state, *self.tables[table_of(t)].outcome(k))
    }

    /// What follows outcome `k` in the state `t` points to, by the
    /// sequence's rules (worked out at round 0: only an ending's `rounds`
    /// field reads it).
    #[cold]
    fn work_out(&mut self, t: Then, k: usize) -> Option<Then> {
        self.misses += 1;
        let (state, ex) = self.read(t, k);
        Some(match self.capped.sequence.after(0, state, &ex) {
            After::Roll(next) => self.place(next)? | ROLL,
            After::Round(next) => self.place(next)? | ROUND,
            After::End(outcome) if self.ends.len() < 1 << PLACE_BITS => {
                self.ends.push(fields(outcome));
                then(END, 0, self.ends.len() - 1)
            }
            After::End(_) => return None,
        })
    }

    /// The rest of a trial the plain way, from the state `t` points to,
    /// whose roll in round `round` gave outcome `k`.
    #[cold]
    fn plain(&self, t: Then, k: usize, round: usize, rng: &mut DiceRng) -> [i64; N] {
        let (state, ex) = self.read(t, k);
        fields(match self.capped.after(round, state, &ex) {
            After::Roll(next) => play_from(&self.capped, next, round, rng),
            After::Round(next) => play_from(&self.capped, next, round + 1, rng),
            After::End(outcome) => outcome,
        })
    }
}

/// A sequence's outcome as its `N` fields (every sequence builds outcomes
/// of exactly `N` values).
#[inline]
fn fields<const N: usize>(outcome: impl AsRef<[i64]>) -> [i64; N] {
    let outcome = outcome.as_ref();
    std::array::from_fn(|i| outcome[i])
}

impl<Q: Sequence, const N: usize> Sequenced<Q, N> {
    /// A sampler for one run of trials: a memo for each arm of the
    /// augment, drawing the same trials as [`Sequenced::sample`].
    pub fn memos(&self) -> Memos<'_, Q, N> {
        Memos {
            sequenced: self,
            memos: self
                .sequence
                .arms()
                .map(|(_, _, q)| Memo::new(self.capped(q)))
                .collect(),
        }
    }
}

/// The memos of a sequence's arms, for one run of trials.
pub struct Memos<'a, Q: Sequence, const N: usize> {
    sequenced: &'a Sequenced<Q, N>,
    pub(super) memos: Vec<Memo<'a, Q, N>>,
}

impl<Q: Sequence, const N: usize> Memos<'_, Q, N> {
    /// One whole sequence, as [`Sequenced::sample`] draws it.
    #[inline]
    pub fn sample(&mut self, rng: &mut DiceRng) -> [i64; N] {
        let arm = self.sequenced.sequence.pick_arm(rng);
        self.memos[arm].play(rng)
    }
}

impl<Q: Sequence, const N: usize> Trial for Sequenced<Q, N> {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let mut memos = self.memos();
        tally.record_trials(rng, trials, |rng| memos.sample(rng));
    }

    /// The mixture over the augment's bonuses of each one's chain.
    fn exact(&self) -> Option<Marginals> {
        let mut arms = self.sequence.arms();
        if let (Some((_, _, only)), None) = (arms.next(), arms.next()) {
            return solve(&self.capped(only), N, LIMITS).map(|solved| solved.marginals);
        }
        let mut mixed = Marginals::new(N);
        for (_, weight, sequence) in self.sequence.arms() {
            let arm = solve(&self.capped(sequence), N, LIMITS)?.marginals;
            for f in 0..N {
                for (&v, &p) in arm.field(f) {
                    mixed.add(f, v, weight * p);
                }
            }
        }
        Some(mixed)
    }
}
