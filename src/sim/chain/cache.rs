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
//! Where states hardly recur (a cgg.tension scene's hours), a node is
//! built for nearly every roll and used once: caching costs more than it
//! saves. So the sampler measures each class of states (its round, see
//! [`class`]) over windows of [`WINDOW`] rolls, and a class whose rolls
//! found their link known fewer than half the time in two windows running
//! is no longer cached: its rolls are drawn straight from the law, as
//! `Rounds::roll`'s default draws them. The draws are the same either way
//! (the table is a function of the law), only the cost differs.

use super::index::StateIndex;
use crate::dice::{Alias, DiceRng};
use crate::model::{After, Rounds, law_table};

/// Values of laws (each with its link) kept by one sampler before it stops
/// adding states (about 10^5: a few MB for the largest states).
pub const CACHE_ENTRIES: usize = 1 << 17;

/// Rolls of a class between two judgements of its hit rate.
pub const WINDOW: u32 = 1 << 10;

/// Classes of states measured apart: rounds 1 to `CLASSES - 1`, and the
/// rest together.
const CLASSES: usize = 64;

/// The class of a state of round `round`.
#[inline(always)]
fn class(round: usize) -> usize {
    round.min(CLASSES - 1)
}

/// What follows one value of a node's law.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Link {
    /// Not drawn yet (or leading into a class no longer cached).
    Unknown,
    /// The node of the next (round, state).
    Node(u32),
    /// The trial ends with the outcome kept at this index.
    End(u32),
}

/// One (round, state) met.
struct Node<R: Rounds> {
    round: usize,
    state: R::State,
    /// The law's alias table, drawing the index of a value.
    table: Alias,
    rolls: Vec<R::Roll>,
    links: Vec<Link>,
}

/// A class's hit rate, measured window by window while it is cached.
#[derive(Clone, Copy, Default)]
struct Rate {
    rolls: u32,
    hits: u32,
    /// Windows in a row with a low hit rate.
    low: u8,
    /// No longer cached.
    off: bool,
}

/// Where a walk is: at a kept node, or at a state no node keeps.
enum At<S> {
    Node(u32),
    Loose(usize, S),
}

/// The states met so far, with their laws and links.
pub(super) struct Cache<R: Rounds> {
    nodes: Vec<Node<R>>,
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
    pub(super) fn new(rounds: &R) -> Self {
        Cache {
            nodes: Vec::new(),
            index: StateIndex::new(rounds),
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
        self.nodes.len()
    }

    /// Whether states of round `round` are still cached.
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
    pub(super) fn play(&mut self, rounds: &R, rng: &mut DiceRng) -> R::Outcome {
        let mut at = match self.start {
            Some(id) => At::Node(id),
            None => {
                let at = self.at(rounds, 1, rounds.start());
                if let At::Node(id) = at {
                    self.start = Some(id);
                }
                at
            }
        };
        loop {
            at = match at {
                At::Node(id) => {
                    let node = &self.nodes[id as usize];
                    let i = node.table.draw(rng) as usize;
                    let rate = &mut self.rates[class(node.round)];
                    rate.rolls += 1;
                    match node.links[i] {
                        Link::Node(next) => {
                            rate.hits += 1;
                            At::Node(next)
                        }
                        Link::End(k) => {
                            rate.hits += 1;
                            return self.ends[k as usize].clone();
                        }
                        Link::Unknown => match self.follow(rounds, id, i) {
                            Ok(at) => at,
                            Err(outcome) => return outcome,
                        },
                    }
                }
                At::Loose(round, state) => match self.loose(rounds, round, &state, rng) {
                    Ok(at) => at,
                    Err(outcome) => return outcome,
                },
            };
            let done = match &at {
                At::Node(id) => self.judge(self.nodes[*id as usize].round),
                At::Loose(..) => false,
            };
            if done {
                // The class just went loose: the node is left to the
                // cache (its links stay), the walk goes on without it.
                if let At::Node(id) = at {
                    let node = &self.nodes[id as usize];
                    at = At::Loose(node.round, node.state.clone());
                }
            }
        }
    }

    /// Judge `round`'s class at the end of a window: whether it goes loose
    /// now.
    #[inline(always)]
    fn judge(&mut self, round: usize) -> bool {
        let rate = &mut self.rates[class(round)];
        if rate.off || rate.rolls < WINDOW {
            return false;
        }
        if rate.hits * 2 < rate.rolls {
            rate.low += 1;
        } else {
            rate.low = 0;
        }
        rate.rolls = 0;
        rate.hits = 0;
        rate.off = rate.low >= 2;
        rate.off
    }

    /// Value `i` of node `id` drawn for the first time: what follows it,
    /// linked when it is kept.
    #[cold]
    fn follow(&mut self, rounds: &R, id: u32, i: usize) -> Result<At<R::State>, R::Outcome> {
        let node = &self.nodes[id as usize];
        let round = node.round;
        let (at, link) = match rounds.after(round, &node.state, &node.rolls[i]) {
            After::Roll(next) => self.linked(rounds, round, next),
            After::Round(next) => self.linked(rounds, round + 1, next),
            After::End(outcome) => {
                let k = self.ends.len() as u32;
                self.ends.push(outcome.clone());
                self.nodes[id as usize].links[i] = Link::End(k);
                return Err(outcome);
            }
        };
        self.nodes[id as usize].links[i] = link;
        Ok(at)
    }

    /// The walk's next place at `round`'s `state`, and the link to it.
    fn linked(&mut self, rounds: &R, round: usize, state: R::State) -> (At<R::State>, Link) {
        match self.at(rounds, round, state) {
            At::Node(id) => (At::Node(id), Link::Node(id)),
            loose => (loose, Link::Unknown),
        }
    }

    /// The node of `round`'s `state`, made if need be, unless its class
    /// is loose or the cache is full.
    fn at(&mut self, rounds: &R, round: usize, state: R::State) -> At<R::State> {
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
        if self.kept + law.len() > CACHE_ENTRIES || self.nodes.len() >= u32::MAX as usize {
            self.law = law;
            self.full = true;
            return At::Loose(round, state);
        }
        self.kept += law.len();
        let id = self.nodes.len() as u32;
        self.index.insert(rounds, round, &state, id);
        self.nodes.push(Node {
            round,
            table: law_table(&law),
            links: vec![Link::Unknown; law.len()],
            rolls: law.drain(..).map(|(roll, _)| roll).collect(),
            state,
        });
        self.law = law;
        At::Node(id)
    }

    /// One roll of a state no node keeps, straight from its law, as
    /// `Rounds::roll`'s default draws it.
    fn loose(
        &mut self,
        rounds: &R,
        round: usize,
        state: &R::State,
        rng: &mut DiceRng,
    ) -> Result<At<R::State>, R::Outcome> {
        let mut law = std::mem::take(&mut self.law);
        law.clear();
        rounds.law(round, state, &mut law);
        let i = law_table(&law).draw(rng) as usize;
        let then = rounds.after(round, state, &law[i].0);
        self.law = law;
        match then {
            After::Roll(next) => Ok(self.at(rounds, round, next)),
            After::Round(next) => Ok(self.at(rounds, round + 1, next)),
            After::End(outcome) => Err(outcome),
        }
    }
}
