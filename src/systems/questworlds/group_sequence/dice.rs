//! Where a group sequence's dice come from: a contest between two final
//! TNs, scripted in the hand-worked tests, rolled in a run of trials
//! ([`Rolled`]), each contest then drawn from its matchup's outcome table.

use super::super::outcomes::Tables;
use super::super::sequence::essential;
use super::super::{Exchange, Matchup};
use crate::dice::DiceRng;

/// Where the dice come from: a contest between two final TNs.
pub trait Dice {
    fn contest(&mut self, m: Matchup) -> Exchange;
}

/// Rolled dice: each contest drawn from its matchup's outcome table,
/// read as sequences read it, exactly as `essential(m.sample(rng))` draws
/// it (the same stream, the same outcome).
pub struct Rolled<'a> {
    pub rng: &'a mut DiceRng,
    pub tables: &'a mut Tables,
}

impl Rolled<'_> {
    /// The tables a trial's [`Rolled`] dice fill: one set per run of
    /// trials, so each matchup is judged once however often it is rolled.
    pub fn tables() -> Tables {
        Tables::new(essential)
    }
}

impl Dice for Rolled<'_> {
    #[inline(always)]
    fn contest(&mut self, m: Matchup) -> Exchange {
        self.tables.sample(&m, self.rng)
    }
}
