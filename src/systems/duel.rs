//! Which mechanics have a second deciding side, for best play of both
//! sides at once (a zero-sum duel, `exact::best::duel`): what that side
//! chooses, the metrics that make the duel zero-sum, and the decision
//! process with both sides' options. Everything else about the
//! mechanic's best play is in `best`.

use serde::{Deserialize, Serialize};

use crate::exact::best::Solve;
use crate::model::{Define, ParamError, ParamMap};

use super::gateway;

/// What the other side plays in a best-play question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Opponent {
    /// The policy the values give it (one-sided best play).
    #[default]
    Given,
    /// Best play too, minimising the metric (a zero-sum duel).
    Best,
}

/// A mechanic's decision process with both sides' options.
type Build = fn(&ParamMap) -> Result<Box<dyn Solve>, ParamError>;

/// The mechanics with a second deciding side: what it chooses, the
/// metrics the duel is played for, and the process.
const OPPOSED: &[(&str, &str, &[&str], Build)] = &[(
    "gateway.scene",
    "side B's action (effects and raises), playing against A's win",
    // B plays not to lose: P(A wins) is what A maximises and B
    // minimises (B's escape or a stalemate is as good to B as its win).
    &["p_a_wins"],
    |v| {
        let p = gateway::Scene.read(v)?;
        gateway::Scene.check(&p)?;
        Ok(Box::new(gateway::scene::DuelChoice::both(
            gateway::Scene.build(p),
        )?))
    },
)];

/// What the second side chooses in `mechanic`, when it has one.
pub fn opposing(mechanic: &str) -> Option<&'static str> {
    OPPOSED
        .iter()
        .find(|(m, ..)| *m == mechanic)
        .map(|(_, what, ..)| *what)
}

/// The metrics a duel in `mechanic` is played for (empty: no duel).
pub fn zero_sum(mechanic: &str) -> &'static [&'static str] {
    OPPOSED
        .iter()
        .find(|(m, ..)| *m == mechanic)
        .map_or(&[], |(_, _, metrics, _)| *metrics)
}

/// The decision process of `mechanic` at `values` with both sides'
/// options; `None` when it has no second deciding side ([`why_not`]).
pub fn process(mechanic: &str, values: &ParamMap) -> Option<Result<Box<dyn Solve>, ParamError>> {
    OPPOSED
        .iter()
        .find(|(m, ..)| *m == mechanic)
        .map(|(.., build)| build(values))
}

/// Why `mechanic` has no duel.
pub fn why_not(mechanic: &str) -> String {
    format!(
        "{mechanic} has no best play for both sides: {}; both sides' best play covers {}",
        reason(mechanic),
        covered().join(", ")
    )
}

/// Why `mechanic` has no second side that decides, in a few words (the
/// command line and a scenario's `opponent` say it their own way).
pub fn reason(mechanic: &str) -> &'static str {
    match mechanic {
        "cortex.contested" => {
            "only the actor decides (raise or give in); the opposition never gives in in the rules as modelled, so there is no second side to play best"
        }
        _ => {
            "it has no second side that decides (or its decisions are not written as a decision process)"
        }
    }
}

/// The values a duel in `mechanic` needs, each with the one value it
/// allows and why: a scenario checks them before anything is solved
/// (the solver refuses them too).
pub fn needs(mechanic: &str) -> &'static [(&'static str, &'static str, &'static str)] {
    match mechanic {
        "gateway.scene" => &[(
            "b.initiative_order",
            "first",
            "B's Block is declared as the round starts; acting last would make the lead a decision of its own",
        )],
        _ => &[],
    }
}

/// The keys of the second side's policy that a written duel replaces.
pub fn replaces(mechanic: &str) -> &'static [&'static str] {
    match mechanic {
        "gateway.scene" => &["b.policy", "b.edge_raises", "b.climax", "b.anticlimax"],
        _ => &[],
    }
}

/// The mechanics with a duel.
pub fn covered() -> Vec<&'static str> {
    OPPOSED.iter().map(|(m, ..)| *m).collect()
}
