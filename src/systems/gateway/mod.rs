//! `gateway`: keep-highest d8 pools with raises (RULES.md §1).
//!
//! A challenge pits the actor's highest d8 plus bonuses against the
//! opposition's; a drama scene chains challenges between entities on
//! tension lines until one side reaches a climax or escapes: a duel
//! (`gateway.scene`) or many PCs against one key entity
//! (`gateway.ensemble`).

#[macro_use]
mod challenge;
pub mod notation;
mod packed;
pub mod scene;

pub use challenge::*;
pub use scene::{EnsembleMechanic as Ensemble, SceneMechanic as Scene};
