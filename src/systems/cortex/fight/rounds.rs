//! The fight's round rules, written once: [`FightRounds`] gives the
//! solver each roll's law and the sampler each roll's draw, and both play
//! the same [`Rounds::after`].

use super::super::fate_with;
use super::super::pool::SIZES;
use super::super::roll::RollLaw;
use super::{
    ACTOR_COMPLICATION, FIELDS, Fight, FightRoll, FightState, GAVE_IN, GIVE_IN_RATING, Kind, Phase,
    Price, index, stack,
};
use crate::dice::DiceRng;
use crate::model::{After, Rounds, pack_fields};

/// The roll laws the solver needs, by complication die index.
pub(super) struct Laws {
    /// The actor's (its helper's die included).
    pub(super) actor: Vec<RollLaw>,
    pub(super) opposition: Vec<RollLaw>,
}

/// A fight with its roll laws: what the solver and the sampler run on.
pub struct FightRounds<'a> {
    pub fight: &'a Fight,
    pub(super) laws: Option<Laws>,
}

impl FightRounds<'_> {
    /// For the sampler and for tests of [`Rounds::after`].
    pub fn sampler(fight: &Fight) -> FightRounds<'_> {
        FightRounds { fight, laws: None }
    }

    /// For the solver and the generic chain: every roll's law.
    pub fn solver(fight: &Fight) -> FightRounds<'_> {
        use super::RATINGS;
        FightRounds {
            fight,
            laws: Some(Laws {
                actor: (0..RATINGS.len()).map(|i| fight.actor_law(i)).collect(),
                opposition: (0..RATINGS.len())
                    .map(|i| fight.opposition_law(i))
                    .collect(),
            }),
        }
    }

    fn laws(&self) -> &Laws {
        self.laws.as_ref().expect("the solver has the roll laws")
    }
}

impl Rounds for FightRounds<'_> {
    type State = FightState;
    type Roll = FightRoll;
    type Outcome = [i64; FIELDS];

    /// The state in one word: complications and counts in 8 bits each,
    /// a total or the stakes in 12, a rating (0: none) in 7.
    fn pack(&self, s: &FightState) -> Option<u64> {
        let rating = |r: Option<u32>| r.map_or(0, |r| r as i64 + 1);
        let phase = match s.phase {
            Phase::Turn {
                opp,
                stakes,
                setter,
            } => [0, opp as i64, 0, stakes, rating(setter)],
            Phase::Rate {
                actor_won,
                takes,
                total,
                rating: r,
            } => [1, actor_won as i64, takes as i64, total, rating(r)],
        };
        pack_fields(&[
            (s.actor as i64, 8),
            (s.opposition as i64, 8),
            (s.actions as i64, 8),
            (s.aider as i64, 8),
            (s.rolled as i64, 2),
            (phase[0], 2),
            (phase[1], 2),
            (phase[2], 3),
            (phase[3], 12),
            (phase[4], 7),
        ])
    }

    fn start(&self) -> FightState {
        FightState {
            actor: 0,
            opposition: 0,
            actions: 0,
            aider: 0,
            rolled: false,
            phase: Phase::Turn {
                opp: true,
                stakes: -1,
                setter: None,
            },
        }
    }

    fn law(&self, _: usize, s: &FightState, out: &mut Vec<(FightRoll, f64)>) {
        let laws = self.laws();
        match s.phase {
            Phase::Turn { opp, stakes, .. } => {
                if !opp && stakes >= 0 {
                    if let Some(price) = self.fight.gives_in(s, stakes) {
                        out.push((FightRoll::GiveIn(price), 1.0));
                        return;
                    }
                }
                let law = if opp {
                    &laws.opposition[index(s.actor)]
                } else {
                    &laws.actor[index(s.opposition)]
                };
                for (t, &p) in law.total.iter().enumerate().filter(|(_, p)| **p > 0.0) {
                    let total = FightRoll::Total {
                        total: t as i64,
                        rating: None,
                    };
                    out.push((total, p));
                }
            }
            Phase::Rate {
                actor_won, total, ..
            } => {
                // The winner's pool as it rolled (complication dice are
                // only added between actions), given the total it made.
                let law = if actor_won {
                    &laws.actor[index(s.opposition)]
                } else {
                    &laws.opposition[index(s.actor)]
                };
                let t = total as usize;
                for (k, &size) in SIZES.iter().enumerate() {
                    out.push((FightRoll::Rating(size), law.rating[t][k] / law.total[t]));
                }
            }
        }
    }

    /// A bespoke draw: total and rating at once from the side's joint
    /// table, where the law draws the rating after the total. It pays:
    /// 4.5× the rate of `sim::Chain::simulate` of [`FightRounds::solver`]
    /// (drawn from its law) on the registry's example, one thread
    /// (`benches/chain.rs`, 2026-11-28, measured again after the chain's
    /// packed keys: 0.806 ms against 3.62 ms for 16,384 fights). The chain
    /// is its oracle (the tests' `assert_chain_samples_as`).
    #[inline(always)]
    fn roll(&self, _: usize, s: &FightState, rng: &mut DiceRng) -> FightRoll {
        let f = self.fight;
        match s.phase {
            Phase::Turn { opp, stakes, .. } => {
                if !opp && stakes >= 0 {
                    if let Some(price) = f.gives_in(s, stakes) {
                        return FightRoll::GiveIn(price);
                    }
                }
                let d = f.draw(opp, s, rng);
                FightRoll::Total {
                    total: d.total,
                    rating: Some(d.rating),
                }
            }
            Phase::Rate { rating, .. } => {
                FightRoll::Rating(rating.expect("the sampler keeps the winner's rating"))
            }
        }
    }

    #[inline(always)]
    fn after(
        &self,
        _: usize,
        s: &FightState,
        roll: &FightRoll,
    ) -> After<FightState, [i64; FIELDS]> {
        let f = self.fight;
        match (s.phase, *roll) {
            (Phase::Turn { .. }, FightRoll::GiveIn(price)) => {
                let mut o = f.end(s, 1);
                o[GAVE_IN] = 1;
                if s.rolled && price == Price::Complication {
                    match stack(s.actor, GIVE_IN_RATING) {
                        Some(c) => o[ACTOR_COMPLICATION] = c as i64,
                        None => {
                            o = f.knocked_out(s, true, GIVE_IN_RATING);
                            o[GAVE_IN] = 1;
                        }
                    }
                }
                After::End(o)
            }
            (
                Phase::Turn {
                    opp,
                    stakes,
                    setter,
                },
                FightRoll::Total { total, rating },
            ) => {
                let mut next = *s;
                next.rolled |= !opp;
                // A raise (the opening roll, or any beaten stakes in a
                // contest) passes the turn; a basic action ends on the
                // actor's one roll.
                let basic_win = f.kind == Kind::Basic && !opp && total > stakes;
                if total > stakes && !basic_win {
                    next.phase = Phase::Turn {
                        opp: !opp,
                        stakes: total,
                        setter: rating,
                    };
                    return After::Round(next);
                }
                let (actor_won, margin, total, rating) = if basic_win {
                    (true, total - stakes, total, rating)
                } else {
                    // The roller failed: the setter of the stakes wins.
                    (opp, stakes - total, stakes, setter)
                };
                let (_, takes, _) = fate_with(margin, false, f.tie_deals);
                if takes == 0 {
                    return f.next_action(next);
                }
                next.phase = Phase::Rate {
                    actor_won,
                    takes: takes as u8,
                    total,
                    rating,
                };
                After::Roll(next)
            }
            (
                Phase::Rate {
                    actor_won, takes, ..
                },
                FightRoll::Rating(r),
            ) => {
                let loser = if actor_won { s.opposition } else { s.actor };
                let mut next = *s;
                // "If the side you Aid loses, you also take a Complication."
                if !actor_won {
                    next.aider += f.aid.is_some() as u32;
                }
                match (takes, stack(loser, r)) {
                    (1, Some(c)) => {
                        if actor_won {
                            next.opposition = c;
                        } else {
                            next.actor = c;
                        }
                        f.next_action(next)
                    }
                    // Trauma, or a complication past d12 (the side keeps
                    // its d12 and is knocked out with trauma rated `r`).
                    _ => After::End(f.knocked_out(&next, !actor_won, r)),
                }
            }
            _ => unreachable!("each phase has its own kind of roll"),
        }
    }
}
