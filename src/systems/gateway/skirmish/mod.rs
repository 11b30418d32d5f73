//! `gateway.skirmish`: a drama scene of many entities on both sides (the
//! whole of the text's Chapter 3 that a model can play): PCs and the GM's
//! key entity, minor entities of significance 0..=6, tension lines
//! between opposed pairs, each with its own edge, opened by Manoeuvre and
//! broken by Disengage, minor entities removed by Eliminate, Set-up free
//! raises kept or handed to an ally, passengers riding with a lead.
//!
//! Files: `moves` (the effects and the policy syntax), `cast` (the checked
//! scene and its variants), `state` (where a scene stands), `engine/` (the
//! round function, for the exact chain and the sampler alike: `decide`,
//! `round`, `resolve`) and `mechanic/` (keys, the checked scene, fields
//! and metrics).

mod cast;
pub mod engine;
mod mechanic;
pub mod moves;
pub mod state;
#[cfg(test)]
mod tests;

pub use cast::{
    BlockRule, Bomb, Disembark, Entry, EssenceRule, Kind, MAX_ENTITIES, MAX_SIDE, Member,
    PassengerSetup, PressAccelerate, SearchCost, SetupFree, Shortfall, Skirmish, SquadAid,
    SubScene, SurpriseLines, TieRule, Variants,
};
pub use engine::SkirmishRounds;
pub use mechanic::{
    ESCAPED, FIRST_PC_EDGE, FREE_GIVEN, GM_ELIMINATED, GM_SPENT, HENCHMEN_SURVIVORS, LADDER,
    LINES_OPEN, PCS_ELIMINATED, PCS_SPENT, ROUNDS, SkirmishMechanic, SkirmishModel, WINNER,
    skirmish_from, skirmish_from_params,
};
pub use state::{GM_ESCAPE, GM_WIN, Outcome, PCS_ESCAPE, PCS_WIN, STALEMATE, State};

use crate::systems::gateway::scene::rules::When;
