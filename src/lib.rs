//! oddsmith: exact and Monte Carlo odds for tabletop dice mechanics.
//!
//! The flow is one trip through: a [`scenario::Scenario`] expands into
//! configs, each config becomes a [`model::Model`], the exact solver
//! and/or the Monte Carlo engine ([`sim`]) answer it, and [`report`] writes
//! the table of results. The manual's chapter for contributors
//! (`docs/src/contributors.md`) explains the architecture, its reasons and
//! how to add a mechanic; the rest of the manual (`docs/src/`) is for users.

/// mimalloc for every binary that links oddsmith (the CLI, the tests, the
/// benches): see `Cargo.toml`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod answer;
pub mod best;
pub mod dice;
pub mod exact;
pub mod expr;
pub mod model;
pub mod report;
pub mod results;
pub mod run;
pub mod scenario;
pub mod shard;
pub mod sim;
pub mod stats;
pub mod systems;
pub mod tune;
