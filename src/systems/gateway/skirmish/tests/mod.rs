//! Tests of the skirmish rules: the duel it must reduce to (`duel`),
//! rules worked by hand (`rules`), variants told apart (`variants`), the
//! exact chain against Monte Carlo (`agreement`) and bad input (`input`).
//! This file holds the helpers they share.

mod agreement;
mod chain;
mod duel;
mod entrant_variants;
mod entrants;
mod input;
mod passengers;
mod rules;
mod split;
mod variants;

use super::*;
use crate::model::{After, Marginals, Rounds};
use crate::systems::ParamMap;
use crate::systems::ParamValue::{self, *};
use crate::systems::testing::table as t;

pub(super) fn s(x: &str) -> ParamValue {
    Str(x.into())
}

pub(super) fn rule(effects: &[&str], raises: i64, extra: &[(&str, ParamValue)]) -> ParamValue {
    let effect = if effects.len() == 1 {
        s(effects[0])
    } else {
        List(effects.iter().map(|e| s(e)).collect())
    };
    let mut pairs = vec![("effect", effect)];
    if raises > 0 {
        pairs.push(("raises", Int(raises)));
    }
    pairs.extend(extra.iter().cloned());
    t(&pairs)
}

pub(super) fn p(m: &Marginals, field: usize, value: i64) -> f64 {
    m.field(field).get(&value).copied().unwrap_or(0.0)
}

pub(super) fn map(pairs: Vec<(&str, ParamValue)>) -> ParamMap {
    let mut m = ParamMap::new();
    for (k, v) in pairs {
        m.set(k, v);
    }
    m
}

/// Drive the round function: take the roll whose beaten targets are
/// `beat` and return the state that follows.
pub(super) fn step(
    r: &SkirmishRounds,
    round: usize,
    state: &State,
    beat: u16,
) -> After<State, Outcome> {
    let mut law = Vec::new();
    r.law(round, state, &mut law);
    let (roll, _) = law
        .iter()
        .find(|(roll, q)| roll.beat == beat && *q > 0.0)
        .unwrap_or_else(|| panic!("no roll beating {beat:#b} in {law:?}"));
    r.after(round, state, roll)
}

pub(super) fn go(a: After<State, Outcome>) -> State {
    match a {
        After::Roll(s) | After::Round(s) => s,
        After::End(o) => panic!("the scene ended: {o:?}"),
    }
}

/// PC Tom against the key and one henchman (significance 1), all 1d8.
pub(super) fn trio(extra: Vec<(&str, ParamValue)>) -> SkirmishModel {
    let mut pairs = vec![
        ("pcs", List(vec![t(&[("name", s("tom"))])])),
        ("key", t(&[("name", s("kroe"))])),
        (
            "minors",
            List(vec![t(&[("name", s("guard")), ("significance", Int(1))])]),
        ),
        ("ladder", Int(3)),
        ("initiative", s("tom")),
    ];
    pairs.extend(extra);
    skirmish_from(&map(pairs)).unwrap()
}
