//! Where the chain's sampler finds the node of a (round, state): by the
//! state's packed word ([`Rounds::pack`]) in an open-addressing table of
//! plain integers when the mechanic packs, else by the state itself in a
//! hash map. Looked up only when a link is first followed (see
//! [`super::cache`]), never per roll.

use std::collections::HashMap;

use foldhash::fast::FixedState;

use crate::model::Rounds;

/// The key of an empty slot. A round never reaches it.
const EMPTY: u64 = u64::MAX;

/// Nodes by (round, state).
pub(super) enum StateIndex<R: Rounds> {
    Packed(Packed),
    Hashed(HashMap<(usize, R::State), u32, FixedState>),
}

impl<R: Rounds> StateIndex<R> {
    /// Packed if `rounds` packs its start state (a mechanic packs all its
    /// states or none).
    pub(super) fn new(rounds: &R) -> Self {
        match rounds.pack(&rounds.start()) {
            Some(_) => StateIndex::Packed(Packed::new()),
            None => StateIndex::Hashed(HashMap::with_hasher(FixedState::default())),
        }
    }

    #[inline]
    pub(super) fn get(&self, rounds: &R, round: usize, state: &R::State) -> Option<u32> {
        match self {
            StateIndex::Packed(t) => t.get(round as u64, packed(rounds, state)),
            StateIndex::Hashed(m) => m.get(&(round, state.clone())).copied(),
        }
    }

    pub(super) fn insert(&mut self, rounds: &R, round: usize, state: &R::State, id: u32) {
        match self {
            StateIndex::Packed(t) => t.insert(round as u64, packed(rounds, state), id),
            StateIndex::Hashed(m) => {
                m.insert((round, state.clone()), id);
            }
        }
    }
}

fn packed<R: Rounds>(rounds: &R, state: &R::State) -> u64 {
    rounds
        .pack(state)
        .expect("a Rounds that packs its start state packs every state")
}

/// An open-addressing table from (round, packed state) to a node, probed
/// linearly, kept at most half full.
pub(super) struct Packed {
    /// (round, packed state, node); round [`EMPTY`] marks a free slot.
    slots: Vec<(u64, u64, u32)>,
    len: usize,
}

impl Packed {
    fn new() -> Packed {
        Packed {
            slots: vec![(EMPTY, 0, 0); 1 << 10],
            len: 0,
        }
    }

    #[inline]
    fn home(&self, round: u64, word: u64) -> usize {
        let h = (word ^ round.rotate_left(47)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    fn get(&self, round: u64, word: u64) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(round, word);
        loop {
            let (r, w, id) = self.slots[i];
            if r == EMPTY {
                return None;
            }
            if r == round && w == word {
                return Some(id);
            }
            i = (i + 1) & mask;
        }
    }

    fn insert(&mut self, round: u64, word: u64, id: u32) {
        if 2 * (self.len + 1) > self.slots.len() {
            let grown = vec![(EMPTY, 0, 0); 2 * self.slots.len()];
            let old = std::mem::replace(&mut self.slots, grown);
            self.len = 0;
            for (r, w, id) in old {
                if r != EMPTY {
                    self.insert(r, w, id);
                }
            }
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(round, word);
        while self.slots[i].0 != EMPTY {
            i = (i + 1) & mask;
        }
        self.slots[i] = (round, word, id);
        self.len += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_packed_table_finds_what_it_keeps() {
        let mut t = Packed::new();
        for k in 0..5_000u64 {
            t.insert(k % 7, k.wrapping_mul(0x1234_5678_9abc_def1), k as u32);
        }
        for k in 0..5_000u64 {
            let w = k.wrapping_mul(0x1234_5678_9abc_def1);
            assert_eq!(t.get(k % 7, w), Some(k as u32));
            assert_eq!(t.get(k % 7 + 7, w), None);
        }
        assert!(t.slots.len() >= 10_000);
    }
}
