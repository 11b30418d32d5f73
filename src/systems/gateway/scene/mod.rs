//! Gateway drama scenes (rules §1.2): `gateway.scene`, a duel on one
//! tension line, and `gateway.ensemble`, 1..=6 PCs against one key entity.
//!
//! Both run on one round function ([`engine`]): each entity acts by its
//! policy ([`rules`], built on the shared `systems::policy`), choosing
//! action effects ([`effect`]) — Edge, Set-up, Press, Accelerate, Block,
//! Climax, Anticlimax, or several combined — each a §1.1 challenge against
//! its targets' DTs; free raises from Set-ups and passengers, essence
//! pools and the initiative hierarchy carry from action to action. The
//! exact solver (an absorbing Markov chain) and the sampler are both
//! derived from that one function through `model::rounds`.
//!
//! Files: `entity` (an entity and its keys), `duel` and `ensemble` (the two
//! mechanics: keys, outcome fields, their `Define`),
//! `decide` (a policy compiled to a table), `contest` (one action's
//! chance from its exact law, the bespoke roll's draw).

#[macro_use]
pub(crate) mod entity;
pub mod best;
mod contest;
mod decide;
mod duel;
pub mod effect;
pub mod engine;
mod ensemble;
pub mod rules;
pub mod state;
#[cfg(test)]
mod tests;

pub use best::DuelChoice;
pub use duel::{
    A_CLIMAX, A_ESCAPE, B_CLIMAX, B_ESCAPE, Duel, STALEMATE, SceneMechanic, drama_from, duel_from,
};
pub use engine::SceneRounds;
pub use ensemble::{Ensemble, EnsembleMechanic, ensemble_from};
pub use entity::{Entity, Spend};
pub use rules::shorthand_policy;
pub use state::{Drama, MAX_PCS, MAX_STATES, Start, Tie, edged};

use crate::model::Marginals;
use crate::systems::{Lit, ParamKind, ParamSpec};

/// `ladder`, as the ensemble and the skirmish declare it (the duel says
/// more of what moves it).
pub(crate) const LADDER: ParamSpec = ParamSpec {
    path: "ladder",
    kind: ParamKind::Int { min: 0, max: 50 },
    default: Lit::Int(10),
    doc: "Starting score on the climax ladder.",
};

/// `round_cap`, as every scene declares it.
pub(crate) const ROUND_CAP: ParamSpec = ParamSpec {
    path: "round_cap",
    kind: ParamKind::Int { min: 1, max: 1000 },
    default: Lit::Int(100),
    doc: "Rounds after which the scene ends as a stalemate.",
};
use state::{F_WINNER, KEY_ESCAPE, Outcome, PCS_ESCAPE};

/// Names of the initiative tie rules.
const TIE_NAMES: &[&str] = <Tie as crate::systems::Choice>::NAMES;

crate::choice!(Tie {
    Raises = "raises",
    Edge = "edge"
});

/// One field of a mechanic's outcome, read off the engine's.
#[derive(Clone, Copy, Debug)]
enum Pick {
    Field(usize),
    /// 1 when the scene ended in an escape (either side's).
    Escaped,
}

#[inline]
fn pick(o: &Outcome, p: Pick) -> i64 {
    match p {
        Pick::Field(f) => o[f],
        Pick::Escaped => i64::from(o[F_WINNER] == PCS_ESCAPE || o[F_WINNER] == KEY_ESCAPE),
    }
}

/// The answer in `picks` from the engine's: each pick from its engine
/// field's marginal (each pick is a function of one engine field, so
/// marginals suffice, and sum as they always did), and the whole outcomes
/// mapped one by one when the engine gave them, for metrics over two
/// fields.
fn project(m: &Marginals, picks: &[Pick]) -> Marginals {
    let mut out = Marginals::new(picks.len());
    for (k, &p) in picks.iter().enumerate() {
        let src = match p {
            Pick::Field(f) => f,
            Pick::Escaped => F_WINNER,
        };
        for (&v, &q) in m.field(src) {
            let value = match p {
                Pick::Field(_) => v,
                Pick::Escaped => i64::from(v == PCS_ESCAPE || v == KEY_ESCAPE),
            };
            out.add(k, value, q);
        }
    }
    let Some(joint) = m.joint() else {
        return out;
    };
    let mut mapped = std::collections::BTreeMap::new();
    for (outcome, &q) in joint {
        let o: Outcome = outcome[..].try_into().expect("engine outcomes");
        let picked: Box<[i64]> = picks.iter().map(|&p| pick(&o, p)).collect();
        *mapped.entry(picked).or_insert(0.0) += q;
    }
    out.with_joint_table(mapped)
}
