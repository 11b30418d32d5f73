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
//!
//! In a duel (both sides best, [`DuelChoice::both`]) B has the same menu
//! at its own turns ([`Choose::opposing`]) and sees the duel from its
//! side; the two never act at the same roll (one actor a roll, in the
//! round's order), so best play for both is pure and exact.

use super::duel::{Duel, fields};
use super::effect::{Action, Effect};
use super::rules::When;
use super::state::{Roll, State};
use crate::model::{After, Choose, ParamError, ParamValue, Repeats, RuleOf};
use crate::systems::policy::MAX_RULES;

/// The most raises A's menu takes on one action.
pub const MAX_RAISES: u32 = 3;
/// A and B in the engine.
const A: usize = 1;
const B: usize = super::state::KEY;

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
        Ok(Self::menu(duel))
    }

    /// Best play for both sides (a duel): as [`DuelChoice::new`], and B
    /// needs to act first when it holds the initiative, for the same
    /// reason.
    pub fn both(duel: Duel) -> Result<DuelChoice, ParamError> {
        if !duel.drama().entities[B].first {
            return Err(ParamError::new(
                "b.initiative_order",
                "best play for both sides needs \"first\" (B's Block is declared as the round starts; acting last would make the lead a decision of its own)",
            ));
        }
        Self::new(duel)
    }

    /// Every action either side's menu may hold.
    fn menu(duel: Duel) -> DuelChoice {
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
        DuelChoice { duel, menu }
    }

    /// `who`'s menu at `s`: empty unless it acts there.
    fn open(&self, who: usize, round: usize, s: &State, out: &mut Vec<Action>) {
        let r = &self.duel.rounds;
        if s.coin || r.actor(s) != who {
            return;
        }
        let view = r.view(who, s, round);
        out.extend(self.menu.iter().filter(|a| view.allows(a)));
    }

    /// What `who` sees at `s`, as [`Choose::feature_names`] lists it.
    fn seen(&self, who: usize, round: usize, s: &State, out: &mut Vec<i64>) {
        let v = self.duel.rounds.view(who, s, round);
        out.extend([
            i64::from(v.can_climax),
            v.ladder,
            v.edge,
            i64::from(v.holds_initiative),
            i64::from(v.free > 0),
            i64::from(v.opponent_succeeded),
            round as i64,
        ]);
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
        self.open(A, round, s, out);
    }

    fn opposing(&self, round: usize, s: &State, out: &mut Vec<Action>) {
        self.open(B, round, s, out);
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
            "opponent-succeeded?",
            "round",
        ]
    }

    fn features(&self, round: usize, s: &State, out: &mut Vec<i64>) {
        self.seen(A, round, s, out);
    }

    fn opposing_features(&self, round: usize, s: &State, out: &mut Vec<i64>) {
        self.seen(B, round, s, out);
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
                Some(When::All(b)) => {
                    let least = b.round_at_least.unwrap_or(0);
                    let most = b.round_at_most.map_or(0, |n| n.saturating_add(1));
                    usize::try_from(least.max(most)).ok()
                }
                _ => None,
            })
            .fold(2, usize::max);
        Some(Repeats {
            from,
            cap: (d.round_cap as usize).max(1),
            round_field: Some(1),
        })
    }

    /// `a.policy`: one rule per box, widened where no other option's box
    /// is met, with a `when` of the bounds that do not span every
    /// situation (one of the language's single
    /// conditions where that says it, else a table of them all). The
    /// boxes are disjoint, so their order does not matter, and those of
    /// Edge with no raises are left to the policy's own fallback. At most
    /// [`MAX_RULES`] rules.
    fn write(&self, rules: &[RuleOf<Action>]) -> Option<Vec<(String, ParamValue)>> {
        written(rules, "a.policy")
    }

    /// `b.policy`, as `a.policy` is written.
    fn write_opposing(&self, rules: &[RuleOf<Action>]) -> Option<Vec<(String, ParamValue)>> {
        written(rules, "b.policy")
    }
}

/// A side's policy, under `key`, as [`DuelChoice`]'s `write` says it.
fn written(rules: &[RuleOf<Action>], key: &str) -> Option<Vec<(String, ParamValue)>> {
    let span = |d: usize| {
        let lo = rules.iter().map(|r| r.0[d].0).min().unwrap_or(0);
        let hi = rules.iter().map(|r| r.0[d].1).max().unwrap_or(0);
        (lo, hi)
    };
    let spans: Vec<(i64, i64)> = (0..FEATURES).map(span).collect();
    // The round and the flags first: the ladder falls with the
    // rounds, so most rules can say one and leave the other.
    let wide = crate::exact::best::rules::widen(rules, &spans, &[6, 5, 4, 3, 0, 2, 1]);
    let mut out: Vec<ParamValue> = rules
        .iter()
        .zip(&wide)
        .filter(|((_, a), _)| *a != Action::EDGE)
        .map(|((_, action), ranges)| rule(action, when(ranges, &spans)))
        .collect();
    // Widened boxes of one option may come out the same.
    let mut seen = Vec::new();
    out.retain(|r| {
        let new = !seen.contains(r);
        if new {
            seen.push(r.clone());
        }
        new
    });
    if out.is_empty() {
        out.push(rule(&Action::EDGE, None));
    }
    if out.len() > MAX_RULES {
        return None;
    }
    Some(vec![(key.into(), ParamValue::List(out))])
}

/// Features [`DuelChoice`] sees, in order: can-climax?, ladder, edge,
/// holds-initiative?, has-free-raise?, opponent-succeeded?, round.
const FEATURES: usize = 7;
/// Their keys in a `when` table; the flags' keys take a bool.
const KEYS: [&str; FEATURES] = [
    "can_climax",
    "ladder",
    "edge",
    "holds_initiative",
    "has_free_raise",
    "opponent_succeeded",
    "round",
];
const FLAG: [bool; FEATURES] = [true, false, false, true, true, true, false];

/// A box's `when`: nothing when it spans every situation, a single
/// condition the language had before tables where one says it, else a
/// table of every bound.
fn when(ranges: &[(i64, i64)], spans: &[(i64, i64)]) -> Option<ParamValue> {
    let mut table: Vec<(String, ParamValue)> = Vec::new();
    for d in 0..FEATURES {
        let ((lo, hi), (min, max)) = (ranges[d], spans[d]);
        if FLAG[d] {
            if lo == hi && (min, max) != (lo, hi) {
                table.push((KEYS[d].into(), ParamValue::Bool(lo == 1)));
            }
            continue;
        }
        if lo > min {
            table.push((format!("{}_at_least", KEYS[d]), ParamValue::Int(lo)));
        }
        if hi < max {
            table.push((format!("{}_at_most", KEYS[d]), ParamValue::Int(hi)));
        }
    }
    let s = |x: &str| Some(ParamValue::Str(x.into()));
    match &table[..] {
        [] => None,
        [(k, ParamValue::Bool(true))] if k == "can_climax" => s("can-climax"),
        [(k, ParamValue::Bool(true))] if k == "holds_initiative" => s("holds-initiative"),
        [(k, ParamValue::Bool(true))] if k == "has_free_raise" => s("has-free-raise"),
        [(k, ParamValue::Bool(false))] if k == "has_free_raise" => s("no-free-raise"),
        _ => Some(ParamValue::Table(table)),
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
