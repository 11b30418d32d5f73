//! oddsmith: exact and Monte Carlo odds for tabletop dice mechanics.
//!
//! The flow is one trip through: a [`scenario::Scenario`] expands into
//! configs, each config becomes a [`systems::Model`], the exact solver
//! and/or the Monte Carlo engine ([`sim`]) answer it, and [`report`] writes
//! the table of results. See `DESIGN.md` in the shared folder for the
//! reasoning and the README for the user's manual.

/// mimalloc for every binary that links oddsmith (the CLI, the tests, the
/// benches): see `Cargo.toml`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod answer;
pub mod dice;
pub mod dist;
pub mod expr;
pub mod pipeline;
pub mod report;
pub mod results;
pub mod scenario;
pub mod shard;
pub mod sim;
pub mod stats;
pub mod systems;
