//! Scenes already resolved in one run of trials. A campaign plays the same
//! scene again and again, and what a player takes from it (its failures,
//! its luck change) depends only on each statement's bid and rolled
//! successes, unless a fair coin settles a conflict. So each (bids, rolls)
//! is resolved once, by the scene's own rules ([`Table::resolve_rolled`]),
//! and looked up after that; one that needed the coin is resolved afresh
//! every time, flipping it as the plain resolution would.
//!
//! Draw for draw this is the plain resolution: the rolls are drawn in the
//! same order before the lookup, and a coin only when the plain resolution
//! would flip it. A test holds the two equal trial by trial.

use std::collections::HashMap;

use foldhash::fast::FixedState;

use crate::dice::DiceRng;
use crate::systems::statements::scene::{Played, Table};

/// Bits of a statement in a key: two for its rolled successes (0..=3),
/// three for its bid (0..=5).
const STATEMENT_BITS: usize = 5;
/// Where a key's changes are kept: a coin decided that scene.
const COINS: u32 = u32::MAX;

/// The memo of one run of trials.
pub struct Resolved {
    /// Off for scenes of more statements than a key holds (and in tests,
    /// for the plain resolution): every scene is then resolved afresh.
    keep: bool,
    /// A key's place in `changes`, or [`COINS`].
    places: HashMap<u64, u32, FixedState>,
    /// Per scene kept, per player: (failures, luck change).
    changes: Vec<(i64, i64)>,
    /// The changes of a scene resolved afresh.
    fresh: Vec<(i64, i64)>,
}

impl Resolved {
    /// A memo for scenes like `table` (`keep` false: none kept).
    pub fn new(table: &Table, keep: bool) -> Resolved {
        Resolved {
            keep: keep && table.entries.len() * STATEMENT_BITS <= u64::BITS as usize,
            places: HashMap::default(),
            changes: Vec::new(),
            fresh: Vec::new(),
        }
    }

    /// Each player's (failures, luck change before the cap) in a scene of
    /// `table` (its bids set) whose statements rolled `rolled`. `t` is
    /// scratch; `rng` flips the coin when the scene needs it.
    #[inline]
    pub fn changes(
        &mut self,
        table: &Table,
        rolled: &[u32],
        rng: &mut DiceRng,
        t: &mut Played,
    ) -> &[(i64, i64)] {
        let players = table.names.len();
        if !self.keep {
            self.resolve(table, rolled, rng, t);
            return &self.fresh;
        }
        let key = table
            .entries
            .iter()
            .zip(rolled)
            .enumerate()
            .fold(0u64, |key, (i, (e, &r))| {
                key | (((e.bid as u64) << 2 | r as u64) << (STATEMENT_BITS * i))
            });
        match self.places.get(&key) {
            Some(&COINS) => {
                self.resolve(table, rolled, rng, t);
                &self.fresh
            }
            Some(&place) => &self.changes[place as usize..place as usize + players],
            None => {
                let coins = self.resolve(table, rolled, rng, t);
                let place = if coins {
                    COINS
                } else {
                    let place = self.changes.len() as u32;
                    self.changes.extend_from_slice(&self.fresh);
                    place
                };
                self.places.insert(key, place);
                &self.fresh
            }
        }
    }

    /// Resolve the scene into `t` and its changes into `fresh`; true when
    /// a coin was flipped.
    fn resolve(
        &mut self,
        table: &Table,
        rolled: &[u32],
        rng: &mut DiceRng,
        t: &mut Played,
    ) -> bool {
        let coins = table.resolve_rolled(rng, t, rolled);
        self.fresh.clear();
        self.fresh
            .extend((0..table.names.len()).map(|p| table.change(t, p)));
        coins
    }
}
