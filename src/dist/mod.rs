//! Exact discrete distributions.
//!
//! Two kinds live here. [`Counts`] is an integer-weighted distribution over
//! consecutive integers (weights are numbers of equally likely rolls), so
//! sums, shifts and differences of dice stay exact rationals. [`Marginals`]
//! is what an exact solver hands the rest of the pipeline: for each outcome
//! field, the probability of each value, and [`Sums`] builds one fast from
//! many outcomes; [`Memo`] shares a law many configs need. [`markov`] solves multi-round
//! mechanics as absorbing chains; [`rounds`] derives that chain and the
//! Monte Carlo sampler from one round function; [`watch`] lets the
//! workbench follow (and stop) a slow solve.

mod counts;
mod marginals;
pub mod markov;
mod memo;
pub mod rounds;
mod sums;
pub mod watch;

pub use counts::Counts;
pub use marginals::Marginals;
pub use markov::{Absorbed, Limits, Next, absorb};
pub use memo::Memo;
pub use rounds::{After, Rounds, play, play_from, solve};
pub use sums::Sums;
