//! The chain's sampler: [`crate::model::play`]'s loop over a graph of the
//! (round, state)s met. A node keeps its roll's law as an alias table and,
//! per value of the law, a link to what follows it ([`Rounds::after`]'s
//! next node, or the trial's end), filled the first time that value is
//! drawn. A walk along known links is one draw and one index per roll: no
//! state is hashed, compared or cloned. A state is looked up only when a
//! link is first followed, by its packed word ([`Rounds::pack`]) in an
//! open-addressing table where the mechanic packs, else by the state
//! itself ([`super::index`]).
//!
//! The hot part of the graph is flat: every node's alias columns in one
//! array, each column naming its two values by their place in one array
//! of links, so a roll costs three loads (the node's columns, the column,
//! the link), as a bespoke memo's does.
//!
//! Where states hardly recur (a cgg.tension scene's hours), a node is
//! built for nearly every roll and used once: caching costs more than it
//! saves. So the sampler measures each class of states (its round, see
//! [`class`]) over windows of [`WINDOW`] rolls, and a class whose rolls
//! found their link known fewer than half the time in two windows running
//! keeps no new state and looks none up: the nodes it has stay in use
//! where already linked, and any other state of it is drawn by
//! [`Rounds::roll`] with no hash, pack or probe (a lookup that mostly
//! misses, at every roll, cost a six-PC `gateway.ensemble` a third of its
//! instructions). With the provided `roll` (the law's
//! table) the draws are the same either way, only the cost differs; a
//! mechanic whose states hardly recur may override `roll` with a draw of
//! the dice themselves, which then draws its loose states in law, not
//! word for word (`systems::testing::assert_roll_is_law` holds it there).

use super::index::StateIndex;
use crate::dice::DiceRng;
use crate::model::{After, Rounds, law_table};

/// Values of laws (each with its link) kept by one sampler before it stops
/// adding states (about 10^5: a few MB for the largest states).
pub const CACHE_ENTRIES: usize = 1 << 17;

/// Rolls of a class between two judgements of its hit rate. Until its
/// class is judged, a state that does not recur costs a node: its law
/// and table (K against six PCs: about 6,000 instructions). At 2^10 that
/// ramp was 16,000 laws in 16,384 six-PC scenes, a fifth of the run's
/// instructions; at 2^8 it is 5,900 (callgrind, 2026-11-28).
pub const WINDOW: u32 = 1 << 8;

/// Classes of states measured apart: rounds 1 to `CLASSES - 1`, and the
/// rest together.
const CLASSES: usize = 64;

/// The class of a state of round `round`.
#[inline(always)]
fn class(round: usize) -> usize {
    round.min(CLASSES - 1)
}

/// What follows one value of a node's law, in a word: a node's number,
/// [`END`] with an ending's number, or [`UNKNOWN`] (not drawn yet, or
/// leading to a state no node keeps).
type Link = u32;
const UNKNOWN: Link = u32::MAX;
const END: Link = 1 << 31;

/// A node's part of the flat arrays, read at every roll.
#[derive(Clone, Copy)]
struct Hot {
    /// Its first column in `columns`.
    first: u32,
    /// Its number of columns (values of positive probability).
    columns: u32,
    class: u32,
}

/// One alias column ([`crate::dice::Alias`]'s, laid flat): its own value
/// below `threshold`, else the alias, each named by its place in `links`.
#[derive(Clone, Copy)]
struct Column {
    threshold: u64,
    own: u32,
    alias: u32,
}

/// A node's (round, state), read only when a link is first followed.
struct Cold<S> {
    round: usize,
    state: S,
}

/// A class's hit rate, measured window by window.
#[derive(Clone, Copy, Default)]
struct Rate {
    rolls: u32,
    hits: u32,
    /// Windows in a row with a low hit rate.
    low: u8,
    /// Keeps no new state.
    off: bool,
}

/// Where a walk is: at a kept node, or at a state no node keeps.
enum At<S> {
    Node(u32),
    Loose(usize, S),
}

/// The states met so far, with their laws and links.
pub(super) struct Cache<R: Rounds> {
    hot: Vec<Hot>,
    columns: Vec<Column>,
    /// Per value of every kept law: what follows it, and the roll itself.
    links: Vec<Link>,
    rolls: Vec<R::Roll>,
    cold: Vec<Cold<R::State>>,
    index: StateIndex<R>,
    ends: Vec<R::Outcome>,
    rates: [Rate; CLASSES],
    /// Values of laws kept, against [`CACHE_ENTRIES`].
    pub(super) kept: usize,
    /// The start state's node, once made.
    start: Option<u32>,
    /// A state was refused for want of room: no more are kept.
    full: bool,
    /// A law's buffer, reused.
    law: Vec<(R::Roll, f64)>,
}

impl<R: Rounds> Cache<R> {
    pub(super) fn new(_: &R) -> Self {
        Cache {
            hot: Vec::new(),
            columns: Vec::new(),
            links: Vec::new(),
            rolls: Vec::new(),
            cold: Vec::new(),
            index: StateIndex::new(),
            ends: Vec::new(),
            rates: [Rate::default(); CLASSES],
            kept: 0,
            start: None,
            full: false,
            law: Vec::new(),
        }
    }

    /// States kept as nodes.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.hot.len()
    }

    /// Whether new states of round `round` are still kept.
    #[cfg(test)]
    pub(super) fn caches(&self, round: usize) -> bool {
        !self.rates[class(round)].off
    }
}

impl<R> Cache<R>
where
    R: Rounds,
    R::Outcome: Clone,
{
    /// One trial: [`crate::model::play`]'s loop, draw for draw.
    #[inline]
    pub(super) fn play(&mut self, rounds: &R, rng: &mut DiceRng) -> R::Outcome {
        let mut at = match self.start {
            Some(id) => id,
            None => match self.at(rounds, 1, rounds.start()) {
                At::Node(id) => {
                    self.start = Some(id);
                    id
                }
                At::Loose(round, state) => match self.walk_loose(rounds, round, state, rng) {
                    Ok(id) => id,
                    Err(outcome) => return outcome,
                },
            },
        };
        loop {
            // `Alias::pick`, over the node's columns in the flat array.
            let hot = self.hot[at as usize];
            let m = rng.next_u64() as u128 * hot.columns as u128;
            let column = self.columns[hot.first as usize + (m >> 64) as usize];
            let value = if (m as u64) < column.threshold {
                column.own
            } else {
                column.alias
            };
            let link = self.links[value as usize];
            let rate = &mut self.rates[hot.class as usize];
            rate.rolls += 1;
            if link != UNKNOWN {
                rate.hits += 1;
            }
            if rate.rolls >= WINDOW {
                judge(rate);
            }
            if link < END {
                at = link;
                continue;
            }
            if link != UNKNOWN {
                return self.ends[(link - END) as usize].clone();
            }
            let next = match self.follow(rounds, at, value) {
                Ok(At::Node(id)) => Ok(id),
                Ok(At::Loose(round, state)) => self.walk_loose(rounds, round, state, rng),
                Err(outcome) => Err(outcome),
            };
            match next {
                Ok(id) => at = id,
                Err(outcome) => return outcome,
            }
        }
    }

    /// Value `value` (its place in `links`) of node `id` drawn for the
    /// first time: what follows it, linked when it is kept.
    #[cold]
    fn follow(&mut self, rounds: &R, id: u32, value: u32) -> Result<At<R::State>, R::Outcome> {
        let Cold { round, ref state } = self.cold[id as usize];
        let (at, link) = match rounds.after(round, state, &self.rolls[value as usize]) {
            After::Roll(next) => self.linked(rounds, round, next),
            After::Round(next) => self.linked(rounds, round + 1, next),
            After::End(outcome) => {
                if self.ends.len() < (END - 1) as usize {
                    self.links[value as usize] = END + self.ends.len() as u32;
                    self.ends.push(outcome.clone());
                }
                return Err(outcome);
            }
        };
        self.links[value as usize] = link;
        Ok(at)
    }

    /// The walk's next place at `round`'s `state`, and the link to it.
    fn linked(&mut self, rounds: &R, round: usize, state: R::State) -> (At<R::State>, Link) {
        match self.at(rounds, round, state) {
            At::Node(id) => (At::Node(id), id),
            loose => (loose, UNKNOWN),
        }
    }

    /// The node of `round`'s `state`, made if need be, unless its class
    /// keeps no new state or the cache is full.
    fn at(&mut self, rounds: &R, round: usize, state: R::State) -> At<R::State> {
        // A class gone loose is not looked up: its states hardly recur, so
        // the lookup (a hash or pack of the whole state, and a probe) would
        // mostly miss, at every roll. Its nodes stay in use where linked.
        if self.rates[class(round)].off {
            return At::Loose(round, state);
        }
        if let Some(id) = self.index.get(rounds, round, &state) {
            return At::Node(id);
        }
        if self.full {
            return At::Loose(round, state);
        }
        let mut law = std::mem::take(&mut self.law);
        law.clear();
        rounds.law(round, &state, &mut law);
        if self.kept + law.len() > CACHE_ENTRIES || self.hot.len() >= (END - 1) as usize {
            self.law = law;
            self.full = true;
            return At::Loose(round, state);
        }
        self.kept += law.len();
        let id = self.hot.len() as u32;
        self.index.insert(rounds, round, &state, id);
        let base = self.links.len() as u32;
        let table = law_table(&law);
        self.hot.push(Hot {
            first: self.columns.len() as u32,
            columns: table.columns().len() as u32,
            class: class(round) as u32,
        });
        self.columns
            .extend(table.columns().map(|(threshold, own, alias)| Column {
                threshold,
                own: base + own,
                alias: base + alias,
            }));
        self.links.extend(std::iter::repeat_n(UNKNOWN, law.len()));
        self.rolls.extend(law.drain(..).map(|(roll, _)| roll));
        self.cold.push(Cold { round, state });
        self.law = law;
        At::Node(id)
    }

    /// Roll on from `round`'s `state`, which no node keeps, by
    /// [`Rounds::roll`] (the law's table unless the mechanic draws its
    /// own way), until the walk reaches a kept node or the trial ends.
    #[cold]
    fn walk_loose(
        &mut self,
        rounds: &R,
        mut round: usize,
        mut state: R::State,
        rng: &mut DiceRng,
    ) -> Result<u32, R::Outcome> {
        loop {
            let roll = rounds.roll(round, &state, rng);
            state = match rounds.after(round, &state, &roll) {
                After::Roll(next) => next,
                After::Round(next) => {
                    round += 1;
                    next
                }
                After::End(outcome) => return Err(outcome),
            };
            // A class gone loose stays loose: on without a lookup (see
            // `at`), the state never moved out and back.
            if self.rates[class(round)].off {
                continue;
            }
            match self.at(rounds, round, state) {
                At::Node(id) => return Ok(id),
                At::Loose(r, s) => (round, state) = (r, s),
            }
        }
    }
}

/// Judge a class at the end of a window: after two low windows running,
/// it keeps no new state.
#[cold]
fn judge(rate: &mut Rate) {
    if rate.hits * 2 < rate.rolls {
        rate.low += 1;
    } else {
        rate.low = 0;
    }
    rate.rolls = 0;
    rate.hits = 0;
    rate.off |= rate.low >= 2;
}
