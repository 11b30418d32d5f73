//! What a tension scene's Monte Carlo works out once per model: the turn
//! order, the Edge's pick, who helps, and the tables each explorer's
//! rolls are drawn from.
//!
//! An explorer's action in a scene depends on its standing only through
//! whether it is in crisis, whether it helped earlier this round, how
//! many help it (none, one, two or more) and its success dice (cut to the
//! difficulty by [`Action::canonical`]): few enough to give each its own
//! slot, found by arithmetic, filled with the alias table of the fields
//! a scene reads ([`table::summary`]) the first time it comes up. A
//! diligence roll is drawn from the law of the leverage dice it gives.
//! Both are [`Rolls`]; the tests play the same scenes rolling every die
//! instead, and the two must agree.
//!
//! The general loop drawing from these tables stays because it pays: 20×
//! the rate of `sim::Chain::simulate` of the scene's
//! [`SceneRounds`](super::SceneRounds), which draws each roll from the
//! same laws, on the shipped scenario's scene (its turn policy kept),
//! one thread (`benches/chain.rs`, 2026-11-28, measured again after the
//! chain's packed keys: 7.12 ms against 144 ms for 16,384 scenes). A scene's sums of hours make most
//! of its states new, so the chain builds a turn's law at nearly every
//! roll where these tables are built once. The
//! chain is the loop's oracle: it samples as the loop does, and its exact
//! answer is the loop's law (the tests in `rounds.rs`).

use std::sync::{Arc, OnceLock};

use super::drawn::{Drawn, pack};
use super::pair::Pair;
use super::plain::Plain;
use super::{Standing, Tension};
use crate::dice::DiceRng;
use crate::sim::alias::Alias;
use crate::systems::cgg::action::{Action, table};
use crate::systems::cgg::diligence::Diligence;
use crate::systems::cgg::risk::RiskTable;

/// Help an acting explorer can get, as the difficulty counts it.
const HELP_CLASSES: usize = 3;
/// Slots an explorer has for one success-dice count: crisis × helped ×
/// help.
const STATES: usize = 2 * 2 * HELP_CLASSES;

/// What picks explorer `i`'s slot, gathered in one place: looked up every
/// turn.
#[derive(Clone, Copy, Debug)]
struct Seat {
    /// Its slots start here, `span` per state.
    first: usize,
    span: usize,
    /// Its success cut (see [`Action::canonical`]) with each class of
    /// help.
    cut: [u32; HELP_CLASSES],
    /// Its success dice before the Edge's bonus and leverage, out of
    /// crisis (a stunt's included) and in crisis (no stunt).
    dice: [u32; 2],
}

/// A scene's prepared parts.
#[derive(Debug)]
pub struct Prepared {
    /// Who acts in turn each round (the Edge's first pick, then the list).
    pub order: Vec<usize>,
    /// Who gets the Edge's +1d each round.
    pub gives: Option<usize>,
    /// Explorers who help, as a bit set.
    pub helps: u32,
    /// No explorer has a turn policy: every turn is an action, who helps
    /// whom is the same every round, and the scene is played by its
    /// explorers' chains.
    pub plain: Option<Plain>,
    /// A plain scene of two explorers drawn a round at a time, when their
    /// states are few enough.
    pub pair: Option<Pair>,
    /// Where each explorer's slots are, and what picks one.
    seats: Vec<Seat>,
    /// The action each slot stands for and its table, once it came up.
    slots: Vec<OnceLock<(Action, Alias)>>,
    /// Each explorer's law of leverage dice from a diligence roll (only
    /// for explorers whose policy may get ready).
    ready: Vec<Option<Alias>>,
}

impl Prepared {
    pub fn new(t: &Tension) -> Prepared {
        let first_pick = t.first.who(t.holder, &t.explorers);
        let n = t.explorers.len();
        let mut order: Vec<usize> = first_pick.into_iter().collect();
        order.extend((0..n).filter(|&i| Some(i) != first_pick));
        let mut seats = Vec::with_capacity(n);
        let mut slots = 0;
        for i in 0..n {
            let s = Standing::default();
            let cut: [u32; HELP_CLASSES] =
                std::array::from_fn(|h| t.action(i, &s, h, false).success_cut());
            let in_crisis = Standing {
                crisis: true,
                ..Standing::default()
            };
            // Canonical success dice run 0..=cut, and help only lowers
            // the cut.
            let span = cut[0] as usize + 1;
            seats.push(Seat {
                first: slots,
                span,
                cut,
                dice: [t.success_dice(i, &s), t.success_dice(i, &in_crisis)],
            });
            slots += STATES * span;
        }
        let ready = t
            .explorers
            .iter()
            .map(|e| {
                e.policy.as_ref().map(|_| {
                    let d = Diligence {
                        code: e.code,
                        enhancing: None,
                    };
                    Alias::new(
                        RiskTable::new(e.code)
                            .probabilities()
                            .map(|(_, total, p)| (d.leverage(total).dice(), p)),
                    )
                })
            })
            .collect();
        let helps = t
            .explorers
            .iter()
            .enumerate()
            .filter(|(_, e)| e.helps)
            .fold(0, |m, (i, _)| m | 1 << i);
        let gives = t.gives.who(t.holder, &t.explorers);
        let plain = t
            .explorers
            .iter()
            .all(|e| e.policy.is_none())
            .then(|| Plain::new(t, &order, gives, helps));
        let pair = plain.as_ref().and_then(|p| Pair::new(&p.seats, &order));
        Prepared {
            order,
            gives,
            helps,
            plain,
            pair,
            seats,
            slots: (0..slots).map(|_| OnceLock::new()).collect(),
            ready,
        }
    }

    /// How many action slots the scene has.
    pub(super) fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// The slot of the action [`Tension::action`] makes for these inputs.
    #[inline(always)]
    pub(super) fn slot_of(&self, i: usize, s: &Standing, helpers: u32, helped: bool) -> usize {
        let seat = &self.seats[i];
        let help = (helpers as usize).min(HELP_CLASSES - 1);
        let state = (s.crisis as usize * 2 + helped as usize) * HELP_CLASSES + help;
        // Tension::success_dice, its explorer's part worked out once.
        let success = (seat.dice[s.crisis as usize] + s.bonus + s.leverage).min(seat.cut[help]);
        seat.first + state * seat.span + success as usize
    }
}

/// Where a scene's rolls come from.
pub trait Rolls {
    /// Explorer `i`'s action in scene `t` from standing `s`, with
    /// `helpers` helping, after helping this round (`helped`): the action
    /// [`Tension::action`] makes.
    fn act(
        &self,
        t: &Tension,
        rng: &mut DiceRng,
        i: usize,
        s: &Standing,
        helpers: u32,
        helped: bool,
    ) -> Drawn;

    /// Leverage dice from explorer `i`'s diligence roll.
    fn ready(&self, t: &Tension, rng: &mut DiceRng, i: usize) -> u32;
}

/// The tables. An action is looked up by arithmetic on the inputs of
/// [`Tension::action`]: making it on the stack each turn costs more than
/// the draw.
impl Rolls for Prepared {
    // Inlined into the scene's loop, the generator's state and the drawn
    // value stay in registers.
    #[inline(always)]
    fn act(
        &self,
        t: &Tension,
        rng: &mut DiceRng,
        i: usize,
        s: &Standing,
        helpers: u32,
        helped: bool,
    ) -> Drawn {
        let slot = &self.slots[self.slot_of(i, s, helpers, helped)];
        let table = match slot.get() {
            Some((_, table)) => table,
            None => fill(slot, t.action(i, s, helpers as usize, helped)),
        };
        debug_assert_eq!(
            slot.get().map(|(a, _)| *a),
            Some(t.action(i, s, helpers as usize, helped).canonical()),
            "two actions share a slot"
        );
        Drawn::unpack(table.draw(rng))
    }

    #[inline]
    fn ready(&self, _: &Tension, rng: &mut DiceRng, i: usize) -> u32 {
        self.ready[i]
            .as_ref()
            .expect("an explorer with a policy has a diligence table")
            .draw(rng)
    }
}

/// `slot`'s table, built for action `a` unless another thread did first.
#[cold]
#[inline(never)]
fn fill(slot: &OnceLock<(Action, Alias)>, a: Action) -> &Alias {
    let a = a.canonical();
    &slot.get_or_init(|| (a, table::summary(&a, pack))).1
}

/// A scene's [`Prepared`], worked out on its first Monte Carlo run and
/// shared by its clones. A cache, not part of the scene: two scenes are
/// equal whether or not either has built it. A scene whose fields are
/// changed after it ran must get a fresh one (`Default`).
#[derive(Clone, Debug, Default)]
pub struct Cache(Arc<OnceLock<Prepared>>);

impl PartialEq for Cache {
    fn eq(&self, _: &Cache) -> bool {
        true
    }
}

impl Cache {
    pub fn get(&self, t: &Tension) -> &Prepared {
        self.0.get_or_init(|| Prepared::new(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::ParamValue::{Bool, Int, List, Str};
    use crate::systems::cgg::tension::tests::{scene, table};

    fn s(v: &str) -> crate::systems::ParamValue {
        Str(v.into())
    }

    /// Every slot holds one action: over every standing an explorer can
    /// act from, equal slots mean equal canonical actions.
    #[test]
    fn a_slot_is_one_action() {
        let t = scene(&[
            (
                "explorers",
                List(vec![
                    table(&[
                        ("code", s("3d")),
                        ("stunt", Bool(true)),
                        ("moved", Int(2)),
                        ("wrench", s("deny")),
                    ]),
                    table(&[
                        ("code", s("1d+2")),
                        ("risk_code", s("4d")),
                        ("helps", Bool(true)),
                    ]),
                    s("6d"),
                ]),
            ),
            ("difficulty.base", Int(7)),
            ("difficulty.adjust", Int(1)),
        ]);
        let prep = Prepared::new(&t);
        let mut seen: Vec<Option<Action>> = vec![None; prep.slots.len()];
        for i in 0..t.explorers.len() {
            for crisis in [false, true] {
                for helped in [false, true] {
                    for helpers in 0..4 {
                        for extra in 0..15 {
                            let s = Standing {
                                bonus: extra / 2,
                                leverage: extra - extra / 2,
                                crisis,
                                ..Standing::default()
                            };
                            let a = t.action(i, &s, helpers as usize, helped).canonical();
                            let slot = prep.slot_of(i, &s, helpers, helped);
                            assert_eq!(*seen[slot].get_or_insert(a), a, "slot {slot}");
                        }
                    }
                }
            }
        }
    }
}
