//! The sampler of a sequence: [`dist::play`](crate::dist::play)'s loop
//! with the round function memoised. A sequence's states are few (the two
//! tallies, with a phase) and recur from trial to trial, and what the
//! rules make of a state and a contest outcome never changes. So each
//! (state, outcome key of its contest's table) is worked out once, by the
//! sequence's own [`Rounds::after`] (the rules stay written once, shared
//! with the exact solver), and kept in a flat table: each roll after that
//! is one draw of the outcome key and one lookup.
//!
//! Draw for draw this is the plain loop: the key is drawn with the words
//! [`Rounds::roll`] would use ([`OutcomeTable::key`]), so a trial gives the
//! same outcome either way; a test holds the two equal. The round number
//! only matters to the round cap, checked here as `Capped` checks it, and
//! to the `rounds` field of an ending, written in here (a [`Sequence`]
//! reads its round for nothing else). A state the memo cannot keep (a
//! contest without a table, or more states than [`MAX_STATES`]) goes the
//! plain way for the rest of its trial.

use std::collections::BTreeMap;

use super::outcomes::OutcomeTable;
use super::sequence::{Capped, Sequence, stalemate};
use crate::dice::DiceRng;
use crate::dist::{After, Rounds, play, play_from};

/// The most states one memo keeps (a wagered sequence between two high
/// TNs with small wagers meets tens of thousands; past this, the rest go
/// the plain way).
const MAX_STATES: usize = 1 << 16;
/// Lookups before the memo judges whether it pays.
const TRIAL_LOOKUPS: u64 = 1 << 16;

/// What follows an outcome of a kept state, packed in a word: the low two
/// bits say what ([`ROLL`], [`ROUND`], [`END`], or 0: not worked out yet),
/// the rest the next state's number or the ending's.
type Then = u32;
const UNKNOWN: Then = 0;
const ROLL: Then = 1;
const ROUND: Then = 2;
const END: Then = 3;

/// A kept state: the contest its roll draws from, and where its outcomes'
/// [`Then`]s start.
#[derive(Clone, Copy)]
struct Kept<'a> {
    table: &'a OutcomeTable,
    first: u32,
}

/// A sequence's sampler, for one run of trials on one thread.
pub struct Memo<'a, Q: Sequence, const N: usize> {
    capped: Capped<'a, Q>,
    /// The states met, by number (the start is 0), with their numbers.
    states: Vec<Q::State>,
    numbers: BTreeMap<Q::State, u32>,
    kept: Vec<Kept<'a>>,
    then: Vec<Then>,
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
        let mut memo = Memo {
            capped,
            states: Vec::new(),
            numbers: BTreeMap::new(),
            kept: Vec::new(),
            then: Vec::new(),
            ends: Vec::new(),
            lookups: 0,
            misses: 0,
            max_states: MAX_STATES,
        };
        let start = memo.capped.sequence.start();
        memo.number(start);
        memo
    }

    /// One sequence's outcome.
    #[inline]
    pub fn play(&mut self, rng: &mut DiceRng) -> [i64; N] {
        if self.states.is_empty() || !self.memoising() {
            return fields(play(&self.capped, rng));
        }
        let mut s = 0;
        let mut round = 1;
        loop {
            let kept = self.kept[s];
            let k = kept.table.key(rng);
            let i = kept.first as usize + k;
            self.lookups += 1;
            let mut then = self.then[i];
            if then == UNKNOWN {
                then = match self.work_out(s, k) {
                    Some(then) => then,
                    None => return self.plain(s, k, round, rng),
                };
                self.then[i] = then;
            }
            let next = (then >> 2) as usize;
            match then & 3 {
                ROLL => s = next,
                ROUND if round >= self.capped.max_rounds => {
                    let q = self.capped.sequence;
                    return fields(stalemate(q, round, &self.states[next]));
                }
                ROUND => {
                    s = next;
                    round += 1;
                }
                _ => {
                    let mut out = self.ends[next];
                    out[1] = round as i64;
                    return out;
                }
            }
        }
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

    /// Whether the memo still pays: a sequence whose states hardly recur
    /// within a run fills a slot at most lookups, which costs more than
    /// the plain loop; past [`TRIAL_LOOKUPS`] lookups with more than a
    /// quarter of them misses, the memo steps aside. The draws are the
    /// same either way.
    pub(super) fn memoising(&self) -> bool {
        self.lookups < TRIAL_LOOKUPS || self.misses * 4 <= self.lookups
    }

    /// The number of `state`, kept now if new; `None` if it cannot be
    /// kept.
    fn number(&mut self, state: Q::State) -> Option<u32> {
        if let Some(&n) = self.numbers.get(&state) {
            return Some(n);
        }
        let q: &'a Q = self.capped.sequence;
        let table = q.contest(&state).table()?;
        if self.states.len() >= self.max_states {
            return None;
        }
        let n = self.states.len() as u32;
        self.kept.push(Kept {
            table,
            first: self.then.len() as u32,
        });
        self.then
            .resize(self.then.len() + table.outcome_count(), UNKNOWN);
        self.numbers.insert(state.clone(), n);
        self.states.push(state);
        Some(n)
    }

    /// What follows outcome `k` in state `s`, by the sequence's rules
    /// (worked out at round 0: only an ending's `rounds` field reads it).
    #[cold]
    fn work_out(&mut self, s: usize, k: usize) -> Option<Then> {
        self.misses += 1;
        let q = self.capped.sequence;
        let ex = *self.kept[s].table.outcome(k);
        Some(match q.after(0, &self.states[s], &ex) {
            After::Roll(next) => self.number(next)? << 2 | ROLL,
            After::Round(next) => self.number(next)? << 2 | ROUND,
            After::End(outcome) => {
                self.ends.push(fields(outcome));
                (self.ends.len() as u32 - 1) << 2 | END
            }
        })
    }

    /// The rest of a trial the plain way, from state `s` whose roll in
    /// round `round` gave outcome `k`.
    #[cold]
    fn plain(&self, s: usize, k: usize, round: usize, rng: &mut DiceRng) -> [i64; N] {
        let ex = *self.kept[s].table.outcome(k);
        fields(match self.capped.after(round, &self.states[s], &ex) {
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
