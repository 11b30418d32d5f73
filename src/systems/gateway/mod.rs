//! `gateway`: keep-highest d8 pools with raises (rules §1).
//!
//! A challenge pits the actor's highest d8 plus bonuses against the
//! opposition's; a drama scene chains challenges between entities on
//! tension lines until one side reaches a climax or escapes: a duel
//! (`gateway.scene`) or many PCs against one key entity
//! (`gateway.ensemble`); or many entities on both sides, with minor
//! entities and lines made and broken (`gateway.skirmish`).

#[macro_use]
mod challenge;
pub mod highest;
pub mod notation;
mod packed;
#[macro_use]
pub mod scene;
pub mod skirmish;

pub use challenge::*;
pub use scene::{EnsembleMechanic as Ensemble, SceneMechanic as Scene};
pub use skirmish::SkirmishMechanic as Skirmish;
