//! `gateway`: keep-highest d8 pools with raises (RULES.md §1).
//!
//! A challenge pits the actor's highest d8 plus bonuses against the
//! opposition's; a drama scene chains challenges between two sides on one
//! tension line until one of them reaches a climax or escapes.

#[macro_use]
mod challenge;
pub mod notation;
pub mod scene;

pub use challenge::*;
pub use scene::Scene;
