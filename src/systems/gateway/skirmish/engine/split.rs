//! Split scenes and squads (the text's Split Scenes section and the
//! First Scene's "squad of five guards (scale 2 mooks)").
//!
//! A split scene's sub-scenes share the climax ladder; an entity sees as
//! opponents only those of its own sub-scenes (`reach`), so its lines,
//! its Manoeuvres and the lines a Climax, Anticlimax, Press or Accelerate
//! needs stay within them. A Climax hits the actor's sub-scenes; the
//! scene climaxes when one side has hit every sub-scene in one round. A
//! sub-scene's key entity hit by an opponent's Climax loses its action
//! that round and counts for the initiative as a failed Set-up.
//!
//! A squad acts as one entity: its Aid Another gives its lead free
//! raises by its members, and an Eliminate that beats it takes out one
//! member plus one per raise, the squad leaving with its last member.

use super::super::cast::{GM, PCS, SquadAid};
use super::super::state::*;
use super::{MAX_EXACT_ENTITIES, SkirmishRounds, Turn};

impl SkirmishRounds {
    /// A successful Climax of `i` in a split scene: its sub-scenes are
    /// hit; the scene's outcome if its side has now hit them all.
    pub(super) fn split_climax(&self, s: &mut State, i: usize, round: usize) -> Option<Outcome> {
        let side = self.side[i] as usize;
        let hit = self.sub_of[i];
        s.hit[side] |= hit;
        s.climaxed |= hit;
        for (k, &(key, _)) in self.subs.iter().enumerate() {
            let key = key as usize;
            if hit >> k & 1 == 1 && self.side[key] != self.side[i] {
                // It waits to see whether the other climaxes land: no
                // action this round, and a failed Set-up's initiative.
                s.blocked |= 1 << key;
                s.ranks[key] = 0;
            }
        }
        (s.hit[side] == self.all_subs).then(|| {
            let w = if self.side[i] == GM { GM_WIN } else { PCS_WIN };
            self.outcome(w, round, s)
        })
    }

    /// In a split scene, whether the opposed key entity of each of `i`'s
    /// sub-scenes is in the scene: a Climax hits a sub-scene's key entity
    /// ("If a key entity is hit with a climax effect"), so none is
    /// possible while one is out of play. Always true in one scene.
    #[inline]
    pub(super) fn keys_in_play(&self, s: &State, i: usize) -> bool {
        self.subs.iter().enumerate().all(|(k, &(key, _))| {
            self.sub_of[i] >> k & 1 == 0
                || self.side[key as usize] == self.side[i]
                || s.alive >> key & 1 == 1
        })
    }

    /// A split scene of four entities whose sub-scenes allow no more
    /// lines than three entities do (two): the chain takes it too.
    pub(super) fn split_small(&self) -> bool {
        if self.subs.is_empty() || self.n > MAX_EXACT_ENTITIES + 1 {
            return false;
        }
        let lead = |i: usize| {
            let m = &self.sk.members[i];
            m.lead.is_some() && !m.recruit
        };
        let pairs = (0..self.n)
            .flat_map(|i| (0..self.n).map(move |j| (i, j)))
            .filter(|&(i, j)| {
                self.side[i] == PCS
                    && self.side[j] != PCS
                    && !lead(i)
                    && !lead(j)
                    && self.reach[i] >> j & 1 == 1
            })
            .count();
        pairs <= 2
    }

    /// Members left in squad `j`.
    #[inline]
    pub(super) fn troop(&self, s: &State, j: usize) -> u8 {
        (s.troop >> (4 * j) & 0xf) as u8
    }

    /// Free raises entity `i`'s Aid Another gives its lead: one, or a
    /// squad's by its members.
    pub(super) fn aid_of(&self, s: &State, i: usize) -> u8 {
        let m = &self.sk.members[i];
        if m.squad == 0 {
            return 1;
        }
        let left = self.troop(s, i);
        match self.sk.variants.squad_aid {
            SquadAid::Scale => left / m.scale.max(1),
            SquadAid::Member => left,
        }
    }

    /// An Eliminate `t` beat squad `j`: one member and one more per raise
    /// go; true when none is left (the squad is eliminated).
    pub(super) fn thin(&self, s: &mut State, j: usize, t: &Turn) -> bool {
        let left = self.troop(s, j).saturating_sub(t.steps() as u8);
        s.troop = s.troop & !(0xf << (4 * j)) | (left as u64) << (4 * j);
        left == 0
    }
}
