//! Best play in `cortex.contested`: at each of the actor's turns facing
//! stakes, raise (roll its pool to beat them) or give in, against the
//! opposition's dice. The contest's own rules decide everything else
//! ([`Contested::law_as`] is the solver's law with the actor's turn
//! decided), so the value of the given give-in policy here is the exact
//! solver's answer.
//!
//! What the actor sees: the stakes and the gang dice still backing the
//! opposition. Its own last total (what `policy.give_in` reads) changes
//! nothing ahead, so best play never needs it; best play is written as
//! `policy.give_in_at` (give in facing stakes of S or more, S by the gang
//! dice left) when it is a threshold on the stakes.

use std::fmt;

use super::{ContestRoll, ContestState, Contested, FIELDS, Laws};
use crate::model::{After, Choose, ParamValue, RuleOf};

/// Stakes no total reaches (two d12 and an aid's d12 make 36): a
/// `policy.give_in_at` this high never gives in.
pub const NEVER: i64 = 60;

/// The contest with the actor's give-in left open.
pub struct GiveInChoice {
    contest: Contested,
    laws: Laws,
}

impl GiveInChoice {
    pub fn new(contest: Contested) -> GiveInChoice {
        GiveInChoice {
            laws: contest.laws(),
            contest,
        }
    }
}

/// What the actor does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Roll its pool to beat the stakes.
    Raise,
    /// Give in: lose the contest, take no complication from a roll.
    GiveIn,
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Turn::Raise => "raise",
            Turn::GiveIn => "give in",
        })
    }
}

impl Choose for GiveInChoice {
    type State = ContestState;
    type Roll = ContestRoll;
    type Outcome = [i64; FIELDS];
    type Option = Turn;

    fn start(&self) -> ContestState {
        self.contest.start()
    }

    /// The actor's turn once there are stakes to beat (the initiator's
    /// first roll sets them: nothing to give in to). Raising first: a
    /// tie goes to the rules' default, never giving in.
    fn options(&self, _: usize, s: &ContestState, out: &mut Vec<Turn>) {
        if let ContestState::Roll {
            opp: false, stakes, ..
        } = *s
            && stakes >= 0
        {
            out.extend([Turn::Raise, Turn::GiveIn]);
        }
    }

    fn law(&self, _: usize, s: &ContestState, o: Option<&Turn>, out: &mut Vec<(ContestRoll, f64)>) {
        let give_in = o.map(|o| *o == Turn::GiveIn);
        self.contest.law_as(&self.laws, s, give_in, out);
    }

    fn after(
        &self,
        round: usize,
        s: &ContestState,
        roll: &ContestRoll,
    ) -> After<ContestState, [i64; FIELDS]> {
        self.contest.after_roll(round, s, roll)
    }

    fn feature_names(&self) -> Vec<&'static str> {
        vec!["stakes", "gang dice"]
    }

    fn features(&self, _: usize, s: &ContestState, out: &mut Vec<i64>) {
        if let ContestState::Roll { stakes, g, .. } = *s {
            out.extend([stakes, g as i64]);
        }
    }

    fn tags(&self, o: &Turn) -> Vec<String> {
        vec![o.to_string()]
    }

    /// `policy.give_in_at`: stakes S when best play gives in exactly at
    /// the stakes of S or more it meets, whatever the gang dice left; a
    /// list of them by gang dice left when S depends on those ([`NEVER`]
    /// where it never gives in). `None` when best play is no threshold.
    fn write(&self, rules: &[RuleOf<Turn>]) -> Option<Vec<(String, ParamValue)>> {
        let gang = self.contest.sides.gang.len() as i64;
        let at: Vec<i64> = (0..=gang)
            .map(|g| {
                let here = |turn: Turn| {
                    rules
                        .iter()
                        .filter(move |(r, t)| *t == turn && (r[1].0..=r[1].1).contains(&g))
                        .map(|(r, _)| r[0])
                };
                let at = here(Turn::GiveIn).map(|(lo, _)| lo).min().unwrap_or(NEVER);
                (!here(Turn::Raise).any(|(_, hi)| hi >= at)).then_some(at)
            })
            .collect::<Option<_>>()?;
        let value = if at.iter().all(|&a| a == at[0]) {
            ParamValue::Int(at[0])
        } else {
            ParamValue::List(at.into_iter().map(ParamValue::Int).collect())
        };
        Some(vec![("policy.give_in_at".into(), value)])
    }
}

#[cfg(test)]
mod tests;
