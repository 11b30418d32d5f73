//! The rules of one roll of a contest, shared by the exact solver, the
//! generic chain and best play ([`super::best`]): what the next roll's law
//! is (with the actor's give-in decision left to the caller or to its
//! policy), and what a roll makes of the contest.

use super::*;

/// The actor's roll law and the opposition's with `g` gang dice left, for
/// each g: what the solver's rolls are drawn from.
pub type Laws = (RollLaw, Vec<RollLaw>);

impl Contested {
    /// Before the first roll: the initiator sets the stakes.
    pub fn start(&self) -> ContestState {
        ContestState::Roll {
            opp: !self.actor_first,
            stakes: -1,
            g: self.sides.gang.len(),
            last: 0,
            setter: None,
        }
    }

    /// The law of the next roll in `state`, with the actor's turn decided
    /// by `give_in` (`Some(true)`: it gives in; `Some(false)`: it rolls
    /// to raise) or, when `None`, by its give-in policy: the rules the
    /// solver and best play (`best`) share.
    pub fn law_as(
        &self,
        (actor, opposition): &Laws,
        state: &ContestState,
        give_in: Option<bool>,
        out: &mut Vec<(ContestRoll, f64)>,
    ) {
        match *state {
            ContestState::Roll {
                opp,
                stakes,
                g,
                last,
                ..
            } => {
                if !opp && give_in.unwrap_or_else(|| self.gives_in(stakes, last, g)) {
                    out.push((ContestRoll::GiveIn, 1.0));
                    return;
                }
                let law = if opp { &opposition[g] } else { actor };
                for (t, &p) in law.total.iter().enumerate().filter(|(_, p)| **p > 0.0) {
                    let total = ContestRoll::Total {
                        total: t as i64,
                        rating: None,
                    };
                    out.push((total, p));
                }
            }
            ContestState::Rate { opp, stakes, g, .. } => {
                // The winner set the stakes with the pool it has now (a
                // failed roll knocks out nothing), so its rating law given
                // that total is its law's row at the stakes.
                let winner = if opp { actor } else { &opposition[g] };
                let s = stakes as usize;
                for (k, &size) in SIZES.iter().enumerate() {
                    out.push((
                        ContestRoll::Rating(size),
                        winner.rating[s][k] / winner.total[s],
                    ));
                }
            }
        }
    }

    /// What the rules make of `roll` in `state` at roll number `round`.
    #[inline(always)]
    pub fn after_roll(
        &self,
        round: usize,
        state: &ContestState,
        roll: &ContestRoll,
    ) -> After<ContestState, [i64; FIELDS]> {
        let c = self;
        let rolls = round as i64;
        match (*state, *roll) {
            (ContestState::Roll { .. }, ContestRoll::GiveIn) => {
                After::End(Contested::gave_in(rolls - 1))
            }
            (
                ContestState::Roll {
                    opp,
                    stakes,
                    g,
                    last,
                    setter,
                },
                ContestRoll::Total { total, rating },
            ) => {
                if total > stakes {
                    let g = if !opp && stakes >= 0 {
                        g - knocked(total - stakes).min(g)
                    } else {
                        g
                    };
                    let last = if !opp && c.give_in.is_some() {
                        total
                    } else {
                        last
                    };
                    return After::Round(ContestState::Roll {
                        opp: !opp,
                        stakes: total,
                        g,
                        last,
                        setter: rating,
                    });
                }
                let mut outcome = c.failed(!opp, stakes, total, rolls);
                if outcome[TAKES] == 0 {
                    return After::End(outcome);
                }
                // The sampler drew the setter's rating with its roll: no
                // need to pass through the rating state it would read it in.
                if let Some(size) = setter {
                    outcome[RATING] = size as i64;
                    return After::End(outcome);
                }
                After::Roll(ContestState::Rate {
                    outcome,
                    opp,
                    stakes,
                    g,
                    setter,
                })
            }
            (ContestState::Rate { mut outcome, .. }, ContestRoll::Rating(size)) => {
                outcome[RATING] = size as i64;
                After::End(outcome)
            }
            _ => unreachable!("each state has its own kind of roll"),
        }
    }
}
