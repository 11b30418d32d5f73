//! The Monte Carlo engine: chunked, seeded per chunk, parallel with rayon,
//! tallied in integers.
//!
//! Trials are cut into chunks of [`CHUNK`]. Chunk `k` of config `c` under
//! scenario seed `s` draws from its own stream, `DiceRng::for_chunk(s, c, k)`,
//! and tallies are integer counts, so the result of a run is the same bit for
//! bit whatever the thread count or the order chunks finish in. The engine
//! knows nothing of any particular system: it drives [`Model::simulate`].
//!
//! [`Model::simulate`]: crate::model::Model::simulate

pub mod chain;
mod engine;

/// Walker's alias tables live with the dice, where a [`crate::model::Rounds`]
/// law's default draw reaches them; the samplers still name them here.
pub use crate::dice::alias;
pub use crate::model::{Hist, Tally};
pub use chain::{Chain, Sampler, enumerate};
pub use engine::{CHUNK, Plan, Precision, Progress, simulate, simulate_chunks};
