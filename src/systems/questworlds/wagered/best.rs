//! Best play in `questworlds.wagered`: the PC's wager, declared at the
//! start of every round, left open (1 AP up to its starting AP), against
//! the GM's given wager. The sequence's own rules decide everything else
//! ([`Wagered::after_as`] is its round with the PC's wager given), so the
//! value of the PC's given wager here is the exact solver's answer.
//!
//! What the PC sees: both sides' AP. Best play is written as the
//! sequence's own keys: `pc.wager = n` when it wagers the same in every
//! situation it meets, else `pc.wager` rules on both sides' AP
//! ([`super::policy`]), which the exact solver and the sampler play as
//! they play any wager.
//!
//! Exact only without parting shots (a shot's wager and the returned
//! exchange's would be decisions of their own) and with a sure augment
//! (a rolled one is a mixture of sequences, each with its own best play).

use std::fmt;

use super::policy::{self, When};
use super::{Desperation, Fields, Phase, Wagered, WageredParams, WageredState};
use crate::exact::best::rules as bounds;
use crate::model::policy::MAX_RULES;
use crate::model::{After, Choose, Define, ParamError, ParamValue, Repeats, RuleOf};
use crate::systems::questworlds::Exchange;
use crate::systems::questworlds::parting::PartingShots;
use crate::systems::questworlds::sequence::Capped;

/// The sequence with the PC's wager left open.
pub struct WagerChoice {
    wagered: Wagered,
    max_rounds: usize,
    /// The largest wager: the PC's starting AP (its TN).
    most: i64,
}

impl WagerChoice {
    pub fn new(p: WageredParams) -> Result<WagerChoice, ParamError> {
        let shared = p.shared();
        if shared.parting != PartingShots::none() {
            return Err(ParamError::new(
                "pc.parting_shot",
                "best play covers wagered sequences without parting shots (\"never\" for both sides): a shot's wager and the wager of the exchange it gives back would be decisions of their own",
            ));
        }
        let (pc, _) = shared.sides()?;
        let most = pc.tn();
        let seq = super::WageredSequence.build(p);
        let max_rounds = seq.max_rounds;
        let wagered = seq.sequence.sure().map_err(|_| {
            ParamError::new(
                "pc.augment",
                "best play needs a sure augment (0, 5, 10 …): a rolled one makes the sequence a mixture, one for each bonus, each with its own best play",
            )
        })?;
        Ok(WagerChoice {
            wagered,
            max_rounds,
            most,
        })
    }
}

/// AP the PC wagers on the exchange it leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wager(pub i64);

impl fmt::Display for Wager {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "wager {} AP", self.0)
    }
}

impl Choose for WagerChoice {
    type State = Phase;
    /// The PC's wager when best play sets it, and the exchange.
    type Roll = (Option<i64>, Exchange);
    type Outcome = Fields;
    type Option = Wager;

    fn start(&self) -> Phase {
        crate::model::Rounds::start(&self.wagered)
    }

    /// At a round's start, every wager from 1 AP to the starting AP.
    fn options(&self, _: usize, s: &Phase, out: &mut Vec<Wager>) {
        if let WageredState::Round(_) = s.state {
            out.extend((1..=self.most).map(Wager));
        }
    }

    fn law(
        &self,
        _: usize,
        _: &Phase,
        o: Option<&Wager>,
        out: &mut Vec<((Option<i64>, Exchange), f64)>,
    ) {
        let w = o.map(|w| w.0);
        out.extend(self.wagered.table.iter().map(|&(ex, p)| ((w, ex), p)));
    }

    fn after(
        &self,
        round: usize,
        s: &Phase,
        &(w, ex): &(Option<i64>, Exchange),
    ) -> After<Phase, Fields> {
        let capped = Capped {
            sequence: &self.wagered,
            max_rounds: self.max_rounds,
        };
        capped.cut(round, self.wagered.after_as(round, s, &ex, w))
    }

    fn feature_names(&self) -> Vec<&'static str> {
        vec!["pc_ap", "opponent_ap"]
    }

    fn features(&self, _: usize, s: &Phase, out: &mut Vec<i64>) {
        if let WageredState::Round((pc, opp)) = s.state {
            out.extend([pc, opp]);
        }
    }

    fn tags(&self, w: &Wager) -> Vec<String> {
        vec![w.to_string()]
    }

    /// Every round is alike but for the round an outcome records, up to
    /// the stalemate at `max_rounds`.
    fn repeats(&self) -> Option<Repeats> {
        Some(Repeats {
            from: 1,
            cap: self.max_rounds.max(1),
            round_field: Some(1),
        })
    }

    /// `pc.wager = n` when best play wagers n in every situation it meets,
    /// else a wager by situation (see [`written`]); the desperation stake
    /// kept as given, "when-behind" becoming "keep", which declares the
    /// wager as it is.
    fn write(&self, rules: &[RuleOf<Wager>]) -> Option<Vec<(String, ParamValue)>> {
        let (_, first) = rules.first()?;
        let wager = if rules.iter().all(|(_, w)| w == first) {
            ParamValue::Int(first.0)
        } else {
            written(rules)?
        };
        let stake = match self.wagered.desperation {
            Desperation::Never => "never",
            Desperation::Keep | Desperation::WhenBehind => "keep",
        };
        Some(vec![
            ("pc.wager".into(), wager),
            ("pc.desperation_stake".into(), ParamValue::Str(stake.into())),
        ])
    }
}

/// Best play's wagers as `pc.wager` rules: each rule widened as far as it
/// goes without meeting another wager's situations, and the wager of the
/// most visited rule (rules come most visited first) left to the last
/// rule, without `when`. `None` past the policy language's rule limit.
fn written(rules: &[RuleOf<Wager>]) -> Option<ParamValue> {
    let spans = bounds::spans_of(rules);
    // The opposition's AP first: best play reads the PC's own AP most.
    let wide = bounds::widen(rules, &spans, &[1, 0]);
    let fallback = rules.first()?.1;
    let kept: Vec<(Vec<(i64, i64)>, Wager)> = wide
        .into_iter()
        .zip(rules)
        .filter(|(_, (_, w))| *w != fallback)
        .map(|(r, (_, w))| (r, *w))
        .collect();
    let mut out: Vec<ParamValue> = bounds::prune(kept)
        .iter()
        .map(|(r, w)| {
            let when = When {
                pc_ap_at_least: (r[0].0 > spans[0].0).then_some(r[0].0),
                pc_ap_at_most: (r[0].1 < spans[0].1).then_some(r[0].1),
                opponent_ap_at_least: (r[1].0 > spans[1].0).then_some(r[1].0),
                opponent_ap_at_most: (r[1].1 < spans[1].1).then_some(r[1].1),
                ..When::default()
            };
            policy::rule(w.0, Some(&when))
        })
        .collect();
    out.push(policy::rule(fallback.0, None));
    (out.len() <= MAX_RULES).then_some(ParamValue::List(out))
}

#[cfg(test)]
mod tests;
