//! Best play in `gateway.scene`: side A's action (effects and raises)
//! left open at each of its turns, against B's given policy. The duel's
//! own round function decides everything else (`engine`'s
//! `law_as` is its `law` with the actor's action given), so the value of
//! A's given policy here is the exact solver's answer.
//!
//! A's menu: each single effect, and each pair of Edge, Set-up, Press,
//! Accelerate and Block (not Press with Accelerate, which cancel), with
//! 0..=[`MAX_RAISES`] raises, where the rules allow it (Climax when the
//! edge reaches the ladder, Anticlimax behind at ladder 0, Block for the
//! holder before anyone acts).

use super::duel::{Duel, fields};
use super::effect::{Action, Effect};
use super::rules::When;
use super::state::{Roll, State};
use crate::model::{After, Choose, ParamError, ParamValue, Repeats, RuleOf};
use crate::systems::policy::MAX_RULES;

/// The most raises A's menu takes on one action.
pub const MAX_RAISES: u32 = 3;
/// A in the engine.
const A: usize = 1;

/// The duel with A's action left open.
pub struct DuelChoice {
    duel: Duel,
    menu: Vec<Action>,
}

impl DuelChoice {
    /// Best play for A. A's Block is declared at the start of a round, so
    /// best play needs A to act first when it holds the initiative (the
    /// default): with `a.initiative_order = "last"` the lead would be a
    /// decision of its own.
    pub fn new(duel: Duel) -> Result<DuelChoice, ParamError> {
        if !duel.drama().entities[A].first {
            return Err(ParamError::new(
                "a.initiative_order",
                "best play needs \"first\" (A's Block is declared as the round starts; acting last would make the lead a decision of its own)",
            ));
        }
        use Effect::*;
        let singles = [Edge, Climax, Anticlimax, Setup, Press, Accelerate, Block];
        let pairable = [Edge, Setup, Press, Accelerate, Block];
        let mut menu = Vec::new();
        for raises in 0..=MAX_RAISES {
            for e in singles {
                menu.push(Action::new(&[e], raises));
            }
        }
        for raises in 0..=MAX_RAISES {
            for (i, &a) in pairable.iter().enumerate() {
                for &b in &pairable[i + 1..] {
                    if (a, b) != (Press, Accelerate) {
                        menu.push(Action::new(&[a, b], raises));
                    }
                }
            }
        }
        Ok(DuelChoice { duel, menu })
    }
}

impl Choose for DuelChoice {
    type State = State;
    type Roll = Roll;
    type Outcome = [i64; 7];
    type Option = Action;

    fn start(&self) -> State {
        crate::model::Rounds::start(&self.duel.rounds)
    }

    fn options(&self, round: usize, s: &State, out: &mut Vec<Action>) {
        let r = &self.duel.rounds;
        if s.coin || r.actor(s) != A {
            return;
        }
        let view = r.view(A, s, round);
        out.extend(self.menu.iter().filter(|a| view.allows(a)));
    }

    fn law(&self, round: usize, s: &State, o: Option<&Action>, out: &mut Vec<(Roll, f64)>) {
        self.duel.rounds.law_as(round, s, o.copied(), out);
    }

    fn after(&self, round: usize, s: &State, roll: &Roll) -> After<State, [i64; 7]> {
        match crate::model::Rounds::after(&self.duel.rounds, round, s, roll) {
            After::Roll(n) => After::Roll(n),
            After::Round(n) => After::Round(n),
            After::End(o) => After::End(fields(&o)),
        }
    }

    fn feature_names(&self) -> Vec<&'static str> {
        vec![
            "can-climax?",
            "ladder",
            "edge",
            "holds-initiative?",
            "has-free-raise?",
        ]
    }

    fn features(&self, round: usize, s: &State, out: &mut Vec<i64>) {
        let v = self.duel.rounds.view(A, s, round);
        out.extend([
            i64::from(v.can_climax),
            v.ladder,
            v.edge,
            i64::from(v.holds_initiative),
            i64::from(v.free > 0),
        ]);
    }

    fn tags(&self, a: &Action) -> Vec<String> {
        let mut t: Vec<String> = a.effects.iter().map(|e| e.name().to_string()).collect();
        if a.effects.len() > 1 {
            t.push("combined".into());
        }
        t.push(match a.raises {
            1 => "1 raise".into(),
            n => format!("{n} raises"),
        });
        t
    }

    /// Every round is alike but for the round an outcome records and a
    /// policy's `round_at_least` (round 1 draws the first initiative, so
    /// the repeats start in round 2 at the earliest), up to the cap.
    fn repeats(&self) -> Option<Repeats> {
        let d = self.duel.drama();
        let from = d
            .entities
            .iter()
            .flat_map(|e| &e.policy.rules)
            .filter_map(|r| match r.when {
                Some(When::RoundAtLeast(n)) => usize::try_from(n).ok(),
                _ => None,
            })
            .fold(2, usize::max);
        Some(Repeats {
            from,
            cap: (d.round_cap as usize).max(1),
            round_field: Some(1),
        })
    }

    /// `a.policy`, when each rule needs at most one condition the policy
    /// language has (`can-climax`, `ladder_at_most`, `edge_at_least`,
    /// `edge_at_most`, `holds-initiative`, `has-free-raise`,
    /// `no-free-raise`) and there are at most 16. The rules are disjoint,
    /// so their order does not matter; a trailing Edge is the policy's
    /// own fallback.
    fn write(&self, rules: &[RuleOf<Action>]) -> Option<Vec<(String, ParamValue)>> {
        if rules.is_empty() || rules.len() > MAX_RULES {
            return None;
        }
        let span = |d: usize| {
            let lo = rules.iter().map(|r| r.0[d].0).min().unwrap_or(0);
            let hi = rules.iter().map(|r| r.0[d].1).max().unwrap_or(0);
            (lo, hi)
        };
        let spans: Vec<(i64, i64)> = (0..5).map(span).collect();
        let mut out = Vec::new();
        for (ranges, action) in rules {
            let conds: Vec<usize> = (0..5)
                .filter(|&d| !(ranges[d].0 <= spans[d].0 && ranges[d].1 >= spans[d].1))
                .collect();
            let when = match conds[..] {
                [] => None,
                [d] => Some(when(d, ranges[d], spans[d])?),
                _ => return None,
            };
            out.push(rule(action, when));
        }
        Some(vec![("a.policy".into(), ParamValue::List(out))])
    }
}

/// One feature's range as a `when`, where the language has it.
fn when(d: usize, (lo, hi): (i64, i64), (min, max): (i64, i64)) -> Option<ParamValue> {
    let s = |x: &str| Some(ParamValue::Str(x.into()));
    let t = |k: &str, n: i64| Some(ParamValue::Table(vec![(k.into(), ParamValue::Int(n))]));
    match d {
        0 if lo == 1 => s("can-climax"),
        1 if lo <= min => t("ladder_at_most", hi),
        2 if lo <= min => t("edge_at_most", hi),
        2 if hi >= max => t("edge_at_least", lo),
        3 if lo == 1 => s("holds-initiative"),
        4 if lo == 1 => s("has-free-raise"),
        4 if hi == 0 => s("no-free-raise"),
        _ => None,
    }
}

/// One rule table.
fn rule(a: &Action, when: Option<ParamValue>) -> ParamValue {
    let names: Vec<ParamValue> = a
        .effects
        .iter()
        .map(|e| ParamValue::Str(e.name().into()))
        .collect();
    let effect = if names.len() == 1 {
        names.into_iter().next().expect("one effect")
    } else {
        ParamValue::List(names)
    };
    let mut t = vec![("effect".to_string(), effect)];
    if a.raises > 0 {
        t.push(("raises".into(), ParamValue::Int(a.raises as i64)));
    }
    if let Some(w) = when {
        t.push(("when".into(), w));
    }
    ParamValue::Table(t)
}
