//! Which mechanics have an exact best play, and the decision process
//! each builds from a set of values (`exact::best` solves it; the
//! question `best` above asks it). A mechanic not listed says why.

use crate::exact::best::Solve;
use crate::model::{Define, ParamError, ParamMap};

use super::{cgg, cortex, gateway, questworlds, statements};

/// A mechanic's decision process, from checked values.
type Build = fn(&ParamMap) -> Result<Box<dyn Solve>, ParamError>;

/// The mechanics best play covers, with what the deciding side chooses.
const COVERED: &[(&str, &str, Build)] = &[
    ("gateway.challenge", "the raises the actor takes", |v| {
        let p = gateway::Challenge.read(v)?;
        gateway::Challenge.check(&p)?;
        Ok(Box::new(gateway::RaisesChoice::new(p)))
    }),
    (
        "gateway.scene",
        "side A's action (effects and raises), against B's policy",
        |v| {
            let p = gateway::Scene.read(v)?;
            gateway::Scene.check(&p)?;
            Ok(Box::new(gateway::scene::DuelChoice::new(
                gateway::Scene.build(p),
            )?))
        },
    ),
    (
        "cortex.contested",
        "the actor's turn facing the stakes: raise or give in",
        |v| {
            let a = cortex::contested::ContestedAction;
            let p = a.read(v)?;
            a.check(&p)?;
            Ok(Box::new(cortex::contested::best::GiveInChoice::new(
                a.build(p),
            )))
        },
    ),
    (
        "questworlds.wagered",
        "the PC's wager at each round's start, against the GM's given wager",
        |v| {
            let w = questworlds::wagered::WageredSequence;
            let p = w.read(v)?;
            w.check(&p)?;
            Ok(Box::new(questworlds::wagered::best::WagerChoice::new(p)?))
        },
    ),
    (
        "cgg.action",
        "the player's wrench (each use, or hold), against the Exec's hammer policy",
        |v| {
            let p = cgg::action::ActionMechanic.read(v)?;
            cgg::action::ActionMechanic.check(&p)?;
            Ok(Box::new(cgg::action::WrenchChoice::new(
                cgg::action::ActionMechanic.build(p),
            )))
        },
    ),
    ("statements.statement", "the luck bid (0..=5)", |v| {
        let p = statements::Statement.read(v)?;
        statements::Statement.check(&p)?;
        Ok(Box::new(statements::best::BidChoice::new(&p)))
    }),
];

/// What the deciding side chooses in `mechanic`, when best play covers it.
pub fn decision(mechanic: &str) -> Option<&'static str> {
    COVERED
        .iter()
        .find(|(m, _, _)| *m == mechanic)
        .map(|(_, what, _)| *what)
}

/// The decision process of `mechanic` at `values`; `None` when best play
/// does not cover the mechanic (see [`why_not`]).
pub fn process(mechanic: &str, values: &ParamMap) -> Option<Result<Box<dyn Solve>, ParamError>> {
    COVERED
        .iter()
        .find(|(m, _, _)| *m == mechanic)
        .map(|(_, _, build)| build(values))
}

/// Why `mechanic` has no exact best play.
pub fn why_not(mechanic: &str) -> String {
    let reason = match mechanic {
        "gateway.ensemble" | "gateway.skirmish" => {
            "several PCs decide at once, and their joint options grow too fast for an exact decision process; a Monte Carlo policy search may follow"
        }
        "cortex.basic"
        | "cgg.risk"
        | "questworlds.contest"
        | "questworlds.group"
        | "questworlds.prize"
        | "statements.experience"
        | "dice.roll" => "it has no decision left to a player: its odds follow from the dice",
        "statements.scene" | "statements.campaign" => {
            "up to eight players bid on up to three statements each at once, the scene makes statements true tier by tier with conflicts and coin-broken ties (it has no exact law, only Monte Carlo), and a campaign carries every player's luck (0..=10) across up to 20 scenes: the joint bids and the luck of all players make no tractable exact decision process; `statements.statement` has the luck bid's best play"
        }
        _ => {
            "its decisions are not yet written as a decision process (see the manual's chapter on best play)"
        }
    };
    format!("{mechanic} has no exact best play: {reason}")
}

/// The keys a written best policy replaces (so a shorthand the values
/// set cannot clash with the written policy).
pub fn replaces(mechanic: &str) -> &'static [&'static str] {
    match mechanic {
        "gateway.challenge" => &["raises"],
        "gateway.scene" => &["a.policy", "a.edge_raises", "a.climax", "a.anticlimax"],
        "cortex.contested" => &["policy.give_in", "policy.give_in_at"],
        "questworlds.wagered" => &["pc.wager", "pc.desperation_stake"],
        "statements.statement" => &["luck"],
        "cgg.action" => &["policy.wrench"],
        _ => &[],
    }
}

/// Why best play's policy could not be written as `mechanic`'s keys.
pub fn unwritten(mechanic: &str) -> String {
    match mechanic {
        "cortex.contested" => "best play is no threshold on the stakes (by gang dice left), which is all `policy.give_in_at` can say; the rules above say it in words".into(),
        "questworlds.wagered" => format!(
            "best play's wager by both sides' AP needs more than {} `pc.wager` rules; the rules above say it in words",
            super::policy::MAX_RULES
        ),
        "cgg.action" => format!(
            "best play's wrench tells apart boards that `policy.wrench` rules see alike (the dice by face), where no order of uses is best on all of them even with the uses spent in sight, or needs more than {} rules; the rules above say it in words",
            super::policy::MAX_RULES
        ),
        _ => format!(
            "best play here needs conditions {mechanic}'s policy language cannot say (or more than {} rules); the rules above say it in words",
            super::policy::MAX_RULES
        ),
    }
}

/// The mechanics best play covers.
pub fn covered() -> Vec<&'static str> {
    COVERED.iter().map(|(m, _, _)| *m).collect()
}
