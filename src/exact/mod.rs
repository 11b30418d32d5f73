//! Exact distributions and the solvers built on them.
//!
//! [`Counts`] is an integer-weighted distribution over consecutive
//! integers (weights are numbers of equally likely rolls), so sums, shifts
//! and differences of dice stay exact rationals. An exact solver hands the
//! rest of the pipeline a [`crate::model::Marginals`]; [`Sums`] builds one
//! fast from many outcomes, and [`Memo`] shares a law many configs need.
//! [`markov`] solves multi-round mechanics as absorbing chains, and
//! [`solve`] derives that chain from a [`crate::model::Rounds`]; [`watch`]
//! lets the workbench follow (and stop) a slow solve; [`best`] solves a
//! [`crate::model::Choose`] mechanic for best play.

pub mod best;
mod counts;
pub mod markov;
mod memo;
pub mod rounds;
mod sums;
pub mod watch;

pub use counts::Counts;
pub use markov::{Absorbed, Limits, Next, absorb};
pub use memo::Memo;
pub use rounds::solve;
pub use sums::Sums;
