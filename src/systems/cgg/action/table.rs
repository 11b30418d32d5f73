//! The Monte Carlo sampler of `cgg.action`: the two rolls drawn as one
//! summary from the exact law, then settled from tables.
//!
//! The settling needs only the Exec's dice by class and the risk roll's
//! (venture, total) ([`Rolled`]), whose law the exact solver already
//! builds ([`exact::rolls`]). Each such roll is settled once, when the
//! table is built, by [`Action::settle`] itself (through
//! [`exact::settle_all`]): a roll whose settling draws no die has one
//! outcome; one whose venture rolls dice ("I'm that good!", "Alright, time
//! to get serious", a die set aside) gets a table of its own over the
//! outcomes those dice lead to. A trial is then one draw (two for a roll
//! that settles with dice) and one count against an outcome key, the
//! keys expanded into fields once per chunk. The rules stay in one place:
//! the tables are the settling's answers, not a second copy of them.

use std::collections::HashMap;
use std::sync::Arc;

use super::exact;
use super::{Action, Outcome};
use crate::dice::DiceRng;
use crate::exact::Memo;
use crate::sim::alias::Alias;

/// Marks a draw that names a roll settled with dice (the low bits index
/// [`ActionTable::settled_with_dice`]) rather than an outcome key.
const WITH_DICE: u32 = 1 << 31;

/// Everything one action's trials are drawn from.
#[derive(Debug)]
pub struct ActionTable {
    /// Outcome keys (rolls settled without dice, merged by outcome) and
    /// [`WITH_DICE`] entries, by their probability.
    rolls: Alias,
    /// The outcome keys of each roll whose settling rolls dice.
    settled_with_dice: Vec<Alias>,
    /// The outcome each key stands for.
    outcomes: Vec<Outcome>,
}

impl ActionTable {
    /// The tables of `a`.
    pub fn new(a: &Action) -> ActionTable {
        let mut keys: HashMap<Outcome, u32> = HashMap::new();
        let mut outcomes: Vec<Outcome> = Vec::new();
        let mut key_of = |o: &Outcome| {
            *keys.entry(*o).or_insert_with(|| {
                outcomes.push(*o);
                (outcomes.len() - 1) as u32
            })
        };
        // Rolls that settle to the same outcome without dice are one entry.
        let mut plain: HashMap<u32, f64> = HashMap::new();
        let mut entries: Vec<(u32, f64)> = Vec::new();
        let mut settled_with_dice = Vec::new();
        for (rolled, p) in exact::rolls(a) {
            let mut law: Vec<(u32, f64)> = Vec::new();
            exact::settle_all(a, &rolled, |o, q| {
                let k = key_of(o);
                match law.iter_mut().find(|(x, _)| *x == k) {
                    Some((_, w)) => *w += q,
                    None => law.push((k, q)),
                }
            });
            match law.as_slice() {
                [] => {}
                [(k, _)] => *plain.entry(*k).or_insert(0.0) += p,
                _ => {
                    entries.push((WITH_DICE | settled_with_dice.len() as u32, p));
                    settled_with_dice.push(Alias::new(law));
                }
            }
        }
        let mut plain: Vec<(u32, f64)> = plain.into_iter().collect();
        // A fixed order, so the same action always builds the same table.
        plain.sort_by_key(|(k, _)| *k);
        entries.extend(plain);
        ActionTable {
            rolls: Alias::new(entries),
            settled_with_dice,
            outcomes,
        }
    }

    /// The outcome of key `k`.
    pub fn outcome(&self, k: usize) -> &Outcome {
        &self.outcomes[k]
    }

    /// One trial's outcome key.
    #[inline(always)]
    fn key(&self, rng: &mut DiceRng) -> usize {
        let e = self.rolls.draw(rng);
        if e & WITH_DICE == 0 {
            e as usize
        } else {
            self.settled_with_dice[(e & !WITH_DICE) as usize].draw(rng) as usize
        }
    }

    /// Run `trials` actions; `counts[k]` is how many gave outcome `k`.
    /// Four count lanes in turn, so a run of one common outcome does not
    /// wait on its own increments.
    pub fn count(&self, rng: &mut DiceRng, trials: u64) -> Vec<u64> {
        const LANES: usize = 4;
        let n = self.outcomes.len();
        let mut lanes = vec![vec![0u64; n]; LANES];
        for _ in 0..trials / LANES as u64 {
            for lane in lanes.iter_mut() {
                lane[self.key(rng)] += 1;
            }
        }
        for lane in lanes.iter_mut().take((trials % LANES as u64) as usize) {
            lane[self.key(rng)] += 1;
        }
        (0..n).map(|k| lanes.iter().map(|l| l[k]).sum()).collect()
    }
}

/// The exact law of `key` of one action's outcome, ready to draw: the
/// multi-round mechanics (a tension scene's actions, a session's) need a
/// few fields of each action they play, and draw them with one word. The
/// values come out in `key` order, so the same action always builds the
/// same table.
pub fn summary(a: &Action, key: impl Fn(&Outcome) -> u32) -> Alias {
    Alias::new(law(a, key))
}

/// The exact law of `key` of one action's outcome, in `key` order.
pub fn law(a: &Action, key: impl Fn(&Outcome) -> u32) -> Vec<(u32, f64)> {
    let mut law: Vec<(u32, f64)> = Vec::new();
    exact::outcomes(a, |o, p| {
        let k = key(o);
        match law.iter_mut().find(|(x, _)| *x == k) {
            Some((_, w)) => *w += p,
            None => law.push((k, p)),
        }
    });
    law.sort_by_key(|(k, _)| *k);
    law
}

/// The tables of `a`, built once per run whichever threads sample it,
/// and kept for the last configs met (a sweep runs each config's chunks
/// together). The tables depend on the action alone, so which config
/// built them changes no number.
pub fn table_of(a: &Action) -> Arc<ActionTable> {
    static TABLES: Memo<Action, ActionTable, 64> = Memo::new();
    TABLES.get(*a, || ActionTable::new(a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Tally;
    use crate::systems::cgg::Comparison;
    use crate::systems::cgg::DieCode;
    use crate::systems::cgg::action::{FailureRule, Hammer, RiskBase, Rules, Wrench, field};
    use crate::systems::testing::assert_same_law;

    fn action(success: u32, risk: u32, base: u32, wrench: Wrench, hammer: Hammer) -> Action {
        Action {
            success_dice: success,
            risk_code: Some(DieCode::new(risk, 1)),
            base,
            adjust: 1,
            impaired: true,
            risk_extra: 0,
            hours_before: 0,
            rules: Rules {
                risk_base: RiskBase::Table,
                failure: FailureRule::Half,
                wrench: wrench.into(),
                hammer,
                comparison: Comparison::Ge,
            },
        }
    }

    /// The tables against the dice rolled one by one ([`Action::sample`],
    /// which shares nothing with them but the settling).
    #[test]
    fn tables_draw_what_rolling_every_die_draws() {
        let n = 400_000u64;
        for a in [
            action(2, 4, 6, Wrench::Greedy, Hammer::Always),
            action(1, 6, 8, Wrench::Deny, Hammer::OnlyOnSuccess),
            action(3, 3, 5, Wrench::Greedy, Hammer::Conditions),
        ] {
            let table = ActionTable::new(&a);
            let counts = table.count(&mut DiceRng::from_u64(11), n);
            let mut fast = Tally::new(field::COUNT);
            fast.add_key_counts(&counts, |k| *table.outcome(k));
            let mut slow = Tally::new(field::COUNT);
            slow.record_trials(&mut DiceRng::from_u64(12), n, |rng| a.sample(rng));
            assert_eq!(fast.trials(), n);
            assert_same_law(&fast, &slow, &format!("{a:?}"));
        }
    }

    #[test]
    fn the_same_action_builds_the_same_table() {
        let a = action(2, 4, 6, Wrench::Deny, Hammer::Always);
        let (x, y) = (ActionTable::new(&a), ActionTable::new(&a));
        assert_eq!(x.outcomes, y.outcomes);
        let mut r = DiceRng::from_u64(3);
        let mut s = DiceRng::from_u64(3);
        assert_eq!(x.count(&mut r, 10_000), y.count(&mut s, 10_000));
    }
}
