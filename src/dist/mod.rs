//! Exact discrete distributions.
//!
//! Two kinds live here. [`Counts`] is an integer-weighted distribution over
//! consecutive integers (weights are numbers of equally likely rolls), so
//! sums, shifts and differences of dice stay exact rationals. [`Marginals`]
//! is what an exact solver hands the rest of the pipeline: for each outcome
//! field, the probability of each value. [`markov`] solves multi-round
//! mechanics as absorbing chains.

mod counts;
mod marginals;
pub mod markov;

pub use counts::Counts;
pub use marginals::Marginals;
pub use markov::{Absorbed, Limits, Next, absorb};
