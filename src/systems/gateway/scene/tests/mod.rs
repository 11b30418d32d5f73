//! Tests of the drama scene rules: hand-worked rounds and keys
//! (`hand`), and the exact solver against Monte Carlo (`agreement`); the
//! helpers they share are here.

mod agreement;
mod best;
mod hand;

pub(super) use super::state::{KEY, State};
pub(super) use super::*;
pub(super) use crate::model::{After, Rounds};
pub(super) use crate::sim::{Plan, simulate};
pub(super) use crate::stats::{estimate, exact_value, z_score};
pub(super) use crate::systems::ParamValue::{self, *};
pub(super) use crate::systems::{Mechanic, Model, ParamMap};

pub(super) fn values(pairs: &[(&str, ParamValue)]) -> ParamMap {
    ParamMap::from_pairs(pairs)
}

pub(super) use crate::systems::testing::table as t;

pub(super) fn s(x: &str) -> ParamValue {
    Str(x.into())
}

/// A rule `{ effect = …, raises = r, when = … }`.
pub(super) fn rule(effects: &[&str], raises: i64, when: Option<ParamValue>) -> ParamValue {
    let effect = if effects.len() == 1 {
        s(effects[0])
    } else {
        List(effects.iter().map(|e| s(e)).collect())
    };
    let mut pairs = vec![("effect", effect)];
    if raises > 0 {
        pairs.push(("raises", Int(raises)));
    }
    if let Some(w) = when {
        pairs.push(("when", w));
    }
    t(&pairs)
}

pub(super) fn policy(rules: Vec<ParamValue>) -> ParamValue {
    List(rules)
}

/// 1d8 + 8: every action succeeds against 1d8, and every action of 1d8
/// against it fails (8 − 1 − 8 < 0).
/// An ensemble where K blocks while it holds the initiative and acts
/// against every PC at once, spending its `essence` on every roll; and
/// each PC (its name, its start edge) sets up, accelerates and carries a
/// passenger.
pub(super) fn blocking_ensemble(essence: i64) -> (ParamValue, impl Fn(&str, i64) -> ParamValue) {
    let key = t(&[
        ("trait", Int(3)),
        ("essence", Int(essence)),
        ("essence_policy", s("always")),
        (
            "policy",
            List(vec![
                rule(&["climax"], 0, None),
                rule(&["block"], 0, Some(s("holds-initiative"))),
                rule(&["edge"], 1, None),
            ]),
        ),
    ]);
    let pc = |name: &str, edge: i64| {
        t(&[
            ("name", s(name)),
            ("start_edge", Int(edge)),
            ("passengers", Int(1)),
            (
                "policy",
                List(vec![
                    rule(&["climax"], 0, None),
                    rule(&["setup"], 0, Some(s("no-free-raise"))),
                    rule(&["edge", "accelerate"], 0, None),
                ]),
            ),
        ])
    };
    (key, pc)
}

pub(super) const STRONG: [(&str, i64); 2] = [("trait", 1), ("background", 6)];

pub(super) fn strong(side: &str) -> Vec<(String, ParamValue)> {
    let mut v: Vec<(String, ParamValue)> = STRONG
        .iter()
        .map(|(k, x)| (format!("{side}.{k}"), Int(*x)))
        .collect();
    v.push((format!("{side}.specialisation"), Bool(true)));
    v
}

pub(super) fn duel(pairs: Vec<(String, ParamValue)>) -> Duel {
    let mut m = ParamMap::new();
    for (k, v) in pairs {
        m.set(k, v);
    }
    duel_from(&m).unwrap()
}

pub(super) fn p(m: &crate::model::Marginals, field: usize, value: i64) -> f64 {
    m.field(field).get(&value).copied().unwrap_or(0.0)
}

// Duel fields: winner, rounds, final_edge, escaped, final_ladder,
// a.essence_left, b.essence_left.
pub(super) const WINNER: usize = 0;
pub(super) const ROUNDS: usize = 1;
pub(super) const EDGE: usize = 2;
pub(super) const LADDER: usize = 4;
pub(super) const A_ESS: usize = 5;
pub(super) const B_ESS: usize = 6;

pub(super) fn pv(pairs: &[(&str, ParamValue)]) -> Vec<(String, ParamValue)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// Drive the round function: from `state`, take the roll whose beaten
/// targets are `beat` (it must be possible) and return what follows.
pub(super) fn step(
    r: &SceneRounds,
    round: usize,
    state: &State,
    beat: u8,
) -> After<State, [i64; 16]> {
    let mut law = Vec::new();
    r.law(round, state, &mut law);
    let (roll, _) = law
        .iter()
        .find(|(roll, p)| roll.beat() == Some(beat) && *p > 0.0)
        .unwrap_or_else(|| panic!("no roll beating {beat:#b} in {law:?}"));
    r.after(round, state, roll)
}

pub(super) fn go(a: After<State, [i64; 16]>) -> State {
    match a {
        After::Roll(s) | After::Round(s) => s,
        After::End(o) => panic!("the scene ended: {o:?}"),
    }
}
