//! Where the chain's sampler finds the node of a (round, state): by the
//! state's packed word ([`Rounds::pack`]) in an open-addressing table of
//! plain integers when it packs, else by the state itself in a hash map. Looked up only when a link is first followed (see
//! [`super::cache`]), never per roll.

use std::collections::HashMap;

use foldhash::fast::FixedState;

use crate::model::Rounds;

/// The key of an empty slot. A round never reaches it.
const EMPTY: u64 = u64::MAX;

/// Nodes by (round, state): those whose state packs in the packed
/// table, the others in the hash map.
pub(super) struct StateIndex<R: Rounds> {
    packed: Packed,
    hashed: HashMap<(usize, R::State), u32, FixedState>,
}

impl<R: Rounds> StateIndex<R> {
    pub(super) fn new() -> Self {
        StateIndex {
            packed: Packed::new(),
            hashed: HashMap::with_hasher(FixedState::default()),
        }
    }

    #[inline]
    pub(super) fn get(&self, rounds: &R, round: usize, state: &R::State) -> Option<u32> {
        match rounds.pack(state) {
            Some(word) => self.packed.get(round as u64, word),
            None => self.hashed.get(&(round, state.clone())).copied(),
        }
    }

    pub(super) fn insert(&mut self, rounds: &R, round: usize, state: &R::State, id: u32) {
        match rounds.pack(state) {
            Some(word) => self.packed.insert(round as u64, word, id),
            None => {
                self.hashed.insert((round, state.clone()), id);
            }
        }
    }
}

/// An open-addressing table from (round, packed state) to a node, probed
/// linearly, kept at most half full.
pub(super) struct Packed {
    /// (round, packed state, node); round [`EMPTY`] marks a free slot.
    slots: Vec<(u64, u64, u32)>,
    len: usize,
}

impl Packed {
    pub(super) fn new() -> Packed {
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
