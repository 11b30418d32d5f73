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

/// What follows one value of a node's law, in a word: a node's number
/// (with [`ROUND`] set when a new round starts there, for rules the same
/// in every round), [`END`] with an ending's number, or [`UNKNOWN`] (not
/// drawn yet, or leading to a state no node keeps).
type Link = u32;
const UNKNOWN: Link = u32::MAX;
const END: Link = 1 << 31;
const ROUND: Link = 1 << 30;

/// Rounds whose endings a homogeneous chain keeps, per ending (past
/// them, `after` is asked again at each such ending).
const ENDING_ROUNDS: usize = 1 << 12;

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

/// An ending of rules the same in every round (a value of a node's law
/// that ends the trial): its outcome at each round met so far, as the
/// round may be written into it.
struct Ending<O> {
    by_round: Vec<Option<O>>,
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
    /// `Rounds::homogeneous`: `Some(cap)` keeps one node per state (all
    /// of class 0), its rounds counted along the walk, its endings in
    /// `timed`.
    cap: Option<usize>,
    timed: Vec<Ending<R::Outcome>>,
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
    pub(super) fn new(rounds: &R) -> Self {
        Cache {
            hot: Vec::new(),
            columns: Vec::new(),
            links: Vec::new(),
            rolls: Vec::new(),
            cold: Vec::new(),
            index: StateIndex::new(),
            ends: Vec::new(),
            cap: rounds.homogeneous(),
            timed: Vec::new(),
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

    /// The most rounds at which one ending of a homogeneous chain is kept.
    #[cfg(test)]
    pub(super) fn ending_rounds(&self) -> usize {
        self.timed
            .iter()
            .map(|e| e.by_round.len())
            .max()
            .unwrap_or(0)
    }

    /// Whether new states of round `round` are still kept.
    #[cfg(test)]
    pub(super) fn caches(&self, round: usize) -> bool {
        !self.rates[self.class(round)].off
    }

    /// The class of a state of round `round`: 0 for every state of rules
    /// the same in every round.
    #[inline(always)]
    fn class(&self, round: usize) -> usize {
        if self.cap.is_some() { 0 } else { class(round) }
    }

    /// The round a state of round `round` is keyed by: none (0) for
    /// rules the same in every round.
    #[inline(always)]
    fn key(&self, round: usize) -> usize {
        if self.cap.is_some() { 0 } else { round }
    }
}

impl<R> Cache<R>
where
    R: Rounds,
    R::Outcome: Clone,
{
    /// One roll at node `at`: `Alias::pick` over the node's columns in the
    /// flat array, with the node's entry.
    #[inline(always)]
    fn pick(&self, at: u32, rng: &mut DiceRng) -> (Hot, u32) {
        let hot = self.hot[at as usize];
        let m = rng.next_u64() as u128 * hot.columns as u128;
        let column = self.columns[hot.first as usize + (m >> 64) as usize];
        let value = if (m as u64) < column.threshold {
            column.own
        } else {
            column.alias
        };
        (hot, value)
    }

    /// One trial: [`crate::model::play`]'s loop, draw for draw.
    #[inline]
    pub(super) fn play(&mut self, rounds: &R, rng: &mut DiceRng) -> R::Outcome {
        if let Some(cap) = self.cap {
            return self.play_homogeneous(rounds, cap, rng);
        }
        let mut at = match self.start {
            Some(id) => id,
            None => match self.at(rounds, 1, rounds.start()) {
                At::Node(id) => {
                    self.start = Some(id);
                    id
                }
                At::Loose(round, state) => match self.walk_loose(rounds, round, state, rng) {
                    Ok((id, _)) => id,
                    Err(outcome) => return outcome,
                },
            },
        };
        loop {
            let (hot, value) = self.pick(at, rng);
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
                Ok(At::Loose(round, state)) => {
                    self.walk_loose(rounds, round, state, rng).map(|(id, _)| id)
                }
                Err(outcome) => Err(outcome),
            };
            match next {
                Ok(id) => at = id,
                Err(outcome) => return outcome,
            }
        }
    }

    /// One trial of rules the same in every round (`cap` from
    /// [`Rounds::homogeneous`]): the loop of [`Cache::play`] over one node
    /// per state, counting the rounds as it goes. A link into a new round
    /// at the cap, and an ending not met yet at this round, are asked of
    /// `after` at the round itself, so the draws and outcomes are
    /// [`crate::model::play`]'s.
    #[inline]
    fn play_homogeneous(&mut self, rounds: &R, cap: usize, rng: &mut DiceRng) -> R::Outcome {
        let mut round = 1;
        // Rolls and unknown links of this trial, counted into the class's
        // rate at its end (one class: no store a roll).
        let (mut rolled, mut missed) = (0u32, 0u32);
        let mut at = match self.start {
            Some(id) => id,
            None => match self.at(rounds, 1, rounds.start()) {
                At::Node(id) => {
                    self.start = Some(id);
                    id
                }
                At::Loose(_, state) => match self.walk_loose(rounds, 1, state, rng) {
                    Ok((id, r)) => {
                        round = r;
                        id
                    }
                    Err(outcome) => return outcome,
                },
            },
        };
        loop {
            let (_, value) = self.pick(at, rng);
            let link = self.links[value as usize];
            rolled += 1;
            if link < END && (link & ROUND == 0 || round < cap) {
                round += (link >> 30) as usize;
                at = link & !ROUND;
                continue;
            }
            if link != UNKNOWN
                && link >= END
                && let Some(Some(outcome)) = self.timed[(link - END) as usize].by_round.get(round)
            {
                let outcome = outcome.clone();
                self.count(rolled, missed);
                return outcome;
            }
            missed += (link == UNKNOWN) as u32;
            match self.follow_homogeneous(rounds, cap, at, value, round, rng) {
                Ok((id, r)) => (at, round) = (id, r),
                Err(outcome) => {
                    self.count(rolled, missed);
                    return outcome;
                }
            }
        }
    }

    /// A homogeneous trial's rolls and unknown links, into its class's
    /// rate.
    #[inline]
    fn count(&mut self, rolled: u32, missed: u32) {
        let rate = &mut self.rates[0];
        rate.rolls += rolled;
        rate.hits += rolled - missed;
        if rate.rolls >= WINDOW {
            judge(rate);
        }
    }

    /// Value `value` of node `id` drawn at round `round` where its link
    /// does not say what follows at this round: asked of `after`, and
    /// linked (or its ending kept at this round) where that holds at
    /// every round. Below the cap a round that follows follows at every
    /// round; at the cap `after` may end the trial instead, so only a
    /// roll within the round is linked there.
    #[cold]
    fn follow_homogeneous(
        &mut self,
        rounds: &R,
        cap: usize,
        id: u32,
        value: u32,
        round: usize,
        rng: &mut DiceRng,
    ) -> Result<(u32, usize), R::Outcome> {
        let state = &self.cold[id as usize].state;
        let (round, at, link) = match rounds.after(round, state, &self.rolls[value as usize]) {
            After::Roll(next) => {
                let (at, link) = self.linked(rounds, round, next);
                (round, at, link)
            }
            After::Round(next) => {
                let (at, link) = self.linked(rounds, round + 1, next);
                let link = if link == UNKNOWN || round >= cap {
                    UNKNOWN
                } else {
                    link | ROUND
                };
                (round + 1, at, link)
            }
            After::End(outcome) => {
                self.keep_ending(cap, value, round, &outcome);
                return Err(outcome);
            }
        };
        if link != UNKNOWN {
            self.links[value as usize] = link;
        }
        match at {
            At::Node(id) => Ok((id, round)),
            At::Loose(round, state) => self.walk_loose(rounds, round, state, rng),
        }
    }

    /// Keep `outcome`, the ending of value `value` (of some node) at round
    /// `round`: linked as an ending if it is the first met below the cap.
    fn keep_ending(&mut self, cap: usize, value: u32, round: usize, outcome: &R::Outcome) {
        let link = self.links[value as usize];
        let ending = if link != UNKNOWN && link >= END {
            (link - END) as usize
        } else if link == UNKNOWN && round < cap && self.timed.len() < (END - 1) as usize {
            self.links[value as usize] = END + self.timed.len() as u32;
            self.timed.push(Ending {
                by_round: Vec::new(),
            });
            self.timed.len() - 1
        } else {
            return;
        };
        let by_round = &mut self.timed[ending].by_round;
        if round < ENDING_ROUNDS {
            if by_round.len() <= round {
                by_round.resize(round + 1, None);
            }
            by_round[round] = Some(outcome.clone());
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
        if self.rates[self.class(round)].off {
            return At::Loose(round, state);
        }
        if let Some(id) = self.index.get(rounds, self.key(round), &state) {
            return At::Node(id);
        }
        if self.full {
            return At::Loose(round, state);
        }
        let mut law = std::mem::take(&mut self.law);
        law.clear();
        rounds.law(round, &state, &mut law);
        if self.kept + law.len() > CACHE_ENTRIES || self.hot.len() >= (ROUND - 1) as usize {
            self.law = law;
            self.full = true;
            return At::Loose(round, state);
        }
        self.kept += law.len();
        let id = self.hot.len() as u32;
        self.index.insert(rounds, self.key(round), &state, id);
        let base = self.links.len() as u32;
        let table = law_table(&law);
        self.hot.push(Hot {
            first: self.columns.len() as u32,
            columns: table.columns().len() as u32,
            class: self.class(round) as u32,
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
    ) -> Result<(u32, usize), R::Outcome> {
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
            if self.rates[self.class(round)].off {
                continue;
            }
            match self.at(rounds, round, state) {
                At::Node(id) => return Ok((id, round)),
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
